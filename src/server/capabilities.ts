/**
 * The server's answer to `initialize`: what it offers, whatever the client is. Its own module,
 * with no import of the engine, because the bundle that starts the server (dist/server.js)
 * answers `initialize` with it before the rest of the server (the engine, its rules and
 * grammars: dist/server-core.js) is loaded.
 */
import type { InitializeResult } from 'vscode-languageserver';
import { CodeActionKind, TextDocumentSyncKind } from 'vscode-languageserver';
import { FIX_ALL_KIND, SERVER_COMMANDS } from '../shared/protocol';

export const NOTEBOOK_TYPE = 'jupyter-notebook';

export function initializeResult(): InitializeResult {
  return {
    capabilities: {
      textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
      notebookDocumentSync: { notebookSelector: [{ notebook: { notebookType: NOTEBOOK_TYPE }, cells: [{ language: 'python' }] }], save: true },
      diagnosticProvider: { identifier: 'prefixlint', interFileDependencies: true, workspaceDiagnostics: false },
      codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, FIX_ALL_KIND], resolveProvider: true },
      codeLensProvider: { resolveProvider: true },
      hoverProvider: true,
      executeCommandProvider: { commands: Object.values(SERVER_COMMANDS) },
    },
    serverInfo: { name: 'prefixlint' },
  };
}
