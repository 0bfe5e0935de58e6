/**
 * A minimal in-process LSP client for the language server tests: the server over a real LSP
 * connection (two streams, JSON-RPC framing), documents it opened, settings it answers with,
 * edits it applies, and what the server pushed to it (diagnostics, messages, documents to show).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { pathToFileURL } from 'node:url';
import type { CodeAction, CodeLens, Diagnostic, DocumentDiagnosticReport, Hover, ProtocolConnection, PublishDiagnosticsParams, TextEdit, WorkspaceEdit } from 'vscode-languageserver/node';
import { createConnection, createProtocolConnection, ProposedFeatures, StreamMessageReader, StreamMessageWriter } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { startServer } from '../src/server/server';
import { ROOT } from './helpers';

export const LANGUAGE_IDS: Record<string, string> = { '.py': 'python', '.ts': 'typescript', '.tsx': 'typescriptreact', '.js': 'javascript', '.jsx': 'javascriptreact' };

/** A minimal LSP client: documents it opened, settings it answers with, edits it applies. */
export class Client {
  readonly conn: ProtocolConnection;
  readonly docs = new Map<string, TextDocument>();
  settings: Record<string, unknown> = {};
  readonly logs: string[] = [];
  /** The last diagnostics pushed for each URI (textDocument/publishDiagnostics). */
  readonly published = new Map<string, PublishDiagnosticsParams>();
  /** window/showMessage texts and window/showDocument requests, in order. */
  readonly messages: string[] = [];
  readonly shownDocuments: Array<{ uri: string; external?: boolean }> = [];
  /** What the server registered dynamically (client/registerCapability). */
  readonly registrations: Array<{ method: string; registerOptions?: unknown }> = [];
  private readonly waiters: Array<() => void> = [];
  private server: { dispose(): void };

  constructor(options: Parameters<typeof startServer>[1] = {}) {
    const up = new PassThrough();
    const down = new PassThrough();
    const serverConn = createConnection(ProposedFeatures.all, new StreamMessageReader(up), new StreamMessageWriter(down));
    this.server = startServer(serverConn, { debounceMs: 0, ...options });
    serverConn.listen();
    this.conn = createProtocolConnection(new StreamMessageReader(down), new StreamMessageWriter(up));
    this.conn.onRequest('workspace/configuration', (p: { items: unknown[] }) => p.items.map(() => this.settings));
    this.conn.onRequest('workspace/diagnostic/refresh', () => null);
    this.conn.onRequest('workspace/codeLens/refresh', () => null);
    this.conn.onRequest('client/registerCapability', (p: { registrations: Array<{ method: string; registerOptions?: unknown }> }) => {
      this.registrations.push(...p.registrations);
      return null;
    });
    this.conn.onRequest('workspace/applyEdit', (p: { edit: WorkspaceEdit }) => {
      this.apply(p.edit);
      return { applied: true };
    });
    this.conn.onNotification('window/logMessage', (p: { message: string }) => void this.logs.push(p.message));
    this.conn.onNotification('prefixlint/status', () => undefined);
    this.conn.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
      this.published.set(p.uri, p);
      this.wake();
    });
    this.conn.onNotification('window/showMessage', (p: { message: string }) => {
      this.messages.push(p.message);
      this.wake();
    });
    this.conn.onRequest('window/showDocument', (p: { uri: string; external?: boolean }) => {
      this.shownDocuments.push(p);
      return { success: true };
    });
    this.conn.listen();
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }

  /** Resolves with what `probe` returns once it returns something, checked whenever the server pushes (never a sleep). */
  async until<T>(what: string, probe: () => T | undefined, timeoutMs = 20_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = probe();
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(0, deadline - Date.now()));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** The pushed diagnostics of a document once they are for its current version. */
  pushedFor(uri: string): Promise<Diagnostic[]> {
    return this.until(`diagnostics pushed for ${uri}`, () => {
      const p = this.published.get(uri);
      return p && p.version === this.docs.get(uri)?.version ? p.diagnostics : undefined;
    });
  }

  /** Initializes as the VS Code client does (pull diagnostics, our commands), unless told otherwise. */
  async initialize(init: { capabilities?: Record<string, unknown>; initializationOptions?: unknown; root?: string } = {}): Promise<void> {
    await this.conn.sendRequest('initialize', {
      processId: process.pid,
      rootUri: pathToFileURL(init.root ?? ROOT).toString(),
      capabilities: init.capabilities ?? {
        workspace: { configuration: true, applyEdit: true, codeLens: { refreshSupport: true }, diagnostics: { refreshSupport: true } },
        textDocument: { diagnostic: {}, codeAction: { resolveSupport: { properties: ['edit'] } }, codeLens: {}, hover: {} },
      },
      initializationOptions: 'initializationOptions' in init ? init.initializationOptions : { trusted: true, clientCommands: ['prefixlint.showDocumentation', 'prefixlint.showMarkdown'], hoverShowsDiagnostics: true },
      workspaceFolders: null,
    });
    await this.conn.sendNotification('initialized', {});
  }

  async open(file: string, text = fs.readFileSync(file, 'utf8')): Promise<string> {
    const uri = pathToFileURL(file).toString();
    const languageId = LANGUAGE_IDS[path.extname(file)];
    this.docs.set(uri, TextDocument.create(uri, languageId, 1, text));
    await this.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId, version: 1, text } });
    return uri;
  }

  /** Opens a notebook as VS Code does: one text document per cell. Returns the cell URIs by cell index. */
  async openNotebook(file: string): Promise<Map<number, string>> {
    const nb = JSON.parse(fs.readFileSync(file, 'utf8')) as { cells: Array<{ cell_type: string; source: string | string[] }> };
    const uri = pathToFileURL(file).toString();
    const cells: Array<{ kind: number; document: string }> = [];
    const items: Array<{ uri: string; languageId: string; version: number; text: string }> = [];
    const byIndex = new Map<number, string>();
    nb.cells.forEach((c, i) => {
      const cellUri = `vscode-notebook-cell:${file}#cell${i}`;
      const text = Array.isArray(c.source) ? c.source.join('') : c.source;
      const languageId = c.cell_type === 'code' ? 'python' : 'markdown';
      cells.push({ kind: c.cell_type === 'code' ? 2 : 1, document: cellUri });
      items.push({ uri: cellUri, languageId, version: 1, text });
      this.docs.set(cellUri, TextDocument.create(cellUri, languageId, 1, text));
      byIndex.set(i, cellUri);
    });
    await this.conn.sendNotification('notebookDocument/didOpen', {
      notebookDocument: { uri, notebookType: 'jupyter-notebook', version: 1, cells },
      cellTextDocuments: items,
    });
    return byIndex;
  }

  async change(uri: string, text: string): Promise<void> {
    const doc = this.docs.get(uri)!;
    const next = TextDocument.create(uri, doc.languageId, doc.version + 1, text);
    this.docs.set(uri, next);
    if (uri.startsWith('vscode-notebook-cell:')) {
      const nbUri = pathToFileURL(uri.slice('vscode-notebook-cell:'.length).replace(/#.*$/, '')).toString();
      await this.conn.sendNotification('notebookDocument/didChange', {
        notebookDocument: { uri: nbUri, version: next.version },
        change: { cells: { textContent: [{ document: { uri, version: next.version }, changes: [{ text }] }] } },
      });
    } else {
      await this.conn.sendNotification('textDocument/didChange', { textDocument: { uri, version: next.version }, contentChanges: [{ text }] });
    }
  }

  async close(uri: string): Promise<void> {
    this.docs.delete(uri);
    await this.conn.sendNotification('textDocument/didClose', { textDocument: { uri } });
  }

  async diagnostics(uri: string): Promise<Diagnostic[]> {
    const r: DocumentDiagnosticReport = await this.conn.sendRequest('textDocument/diagnostic', { textDocument: { uri } });
    return r.kind === 'full' ? r.items : [];
  }

  async actions(uri: string, diagnostics: Diagnostic[], only?: string[]): Promise<CodeAction[]> {
    const range = diagnostics[0]?.range ?? { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    return this.conn.sendRequest('textDocument/codeAction', { textDocument: { uri }, range, context: { diagnostics, only } });
  }

  async resolve(action: CodeAction): Promise<CodeAction> {
    return this.conn.sendRequest('codeAction/resolve', action);
  }

  async lenses(uri: string): Promise<CodeLens[]> {
    const lenses: CodeLens[] = await this.conn.sendRequest('textDocument/codeLens', { textDocument: { uri } });
    return Promise.all(lenses.map((l) => this.conn.sendRequest('codeLens/resolve', l) as Promise<CodeLens>));
  }

  async hover(uri: string, line: number, character: number): Promise<Hover | null> {
    return this.conn.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line, character } });
  }

  /** Applies an edit to the client's documents and tells the server, as an editor does. */
  async apply(edit: WorkspaceEdit): Promise<void> {
    for (const [uri, edits] of Object.entries(edit.changes ?? {})) {
      const doc = this.docs.get(uri)!;
      await this.change(uri, TextDocument.applyEdits(doc, edits as TextEdit[]));
    }
  }

  text(uri: string): string {
    return this.docs.get(uri)!.getText();
  }

  async dispose(): Promise<void> {
    await this.conn.sendRequest('shutdown');
    this.server.dispose();
    this.conn.dispose();
  }
}
