/**
 * The language server's entry point (dist/server.js). The transport comes from the command
 * line, as usual for LSP servers: `--stdio` (Neovim, Helix, Zed), `--node-ipc` (the VS Code
 * client) or `--socket=<port>`.
 */
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { startServer } from './server';

const connection = createConnection(ProposedFeatures.all);
startServer(connection);
connection.listen();
