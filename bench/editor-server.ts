/**
 * The language server for the editor benchmark: dist/server.js's entry point (src/server/main.ts)
 * with no quiet time after a change, so that the time from a change to its diagnostics is the
 * server's work alone. `node editor-server.cjs --stdio <wasmDir>`.
 */
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { startServer } from '../src/server/server';

const connection = createConnection(ProposedFeatures.all);
const wasmDir = process.argv.slice(2).find((a) => !a.startsWith('--'));
startServer(connection, { wasmDir, debounceMs: 0 });
connection.listen();
