/**
 * The VS Code client: starts the language server (dist/server.js over IPC), keeps the API key in
 * secret storage, shows markdown views (rule docs, rules, token breakdowns, request diffs), and a
 * status bar item. Everything else happens in the server.
 */
import * as path from 'node:path';
import { MessageChannel, Worker } from 'node:worker_threads';
import * as vscode from 'vscode';
import { LanguageClient, PortMessageReader, PortMessageWriter, State, TransportKind } from 'vscode-languageclient/node';
import type { LanguageClientOptions, MessageTransports, ServerOptions } from 'vscode-languageclient/node';
import { CLIENT_COMMANDS, CONFIG_FILE_NAMES, MARKDOWN, SERVER_COMMANDS, SERVER_PORT, SET_API_KEY, SET_TRUST, STATUS } from '../shared/protocol';
import type { InitializationOptions, MarkdownParams, StatusParams } from '../shared/protocol';

const SECRET = 'prefixlint.anthropicApiKey';
const SCHEME = 'prefixlint';
const LANGUAGES = ['python', 'typescript', 'typescriptreact', 'javascript', 'javascriptreact'];

let client: LanguageClient | undefined;

/**
 * The server's heap, bounded on its own: a runaway analysis ends the server's thread (which
 * the client then restarts), never the extension host.
 */
const SERVER_RESOURCE_LIMITS = { maxOldGenerationSizeMb: 2048 };

/** Whether the extension host runs under a debugger (the server then runs as a process one can attach to). */
function debugging(): boolean {
  return process.execArgv.some((a) => /^--(inspect|debug)(-brk)?(=|$)/.test(a));
}

/**
 * Starts the language server in a worker thread of the extension host and speaks LSP with it
 * over a message port. Why not a process: the activation waits for the server's answer to
 * `initialize`, and a thread answers it in a fraction of the time a new Node process takes to
 * start. The server's work still never runs on the extension host's own thread.
 */
function startServerThread(module: string, threads: Set<Worker>, log: (message: string) => void): Promise<MessageTransports> {
  const { port1, port2 } = new MessageChannel();
  const worker = new Worker(module, { workerData: { [SERVER_PORT]: port2 }, transferList: [port2], resourceLimits: SERVER_RESOURCE_LIMITS });
  threads.add(worker);
  // The port closes when the thread ends (the exit notification, a crash, its memory bound):
  // the client sees the connection close, as it would see a server process exit.
  worker.once('exit', () => {
    threads.delete(worker);
    port1.close();
  });
  // An error the server's code did not catch ends the thread (then 'exit' above).
  worker.on('error', (err) => log(`prefixlint server thread failed: ${err.stack ?? err.message}`));
  return Promise.resolve({ reader: new PortMessageReader(port1), writer: new PortMessageWriter(port1) });
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const started = Date.now();
  const output = vscode.window.createOutputChannel('prefixlint', { log: true });
  const views = new Map<string, string>();
  const changed = new vscode.EventEmitter<vscode.Uri>();
  const status = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left, 50);
  status.command = 'prefixlint.showOutput';
  status.name = 'prefixlint';
  let serverState = 'starting';
  const subs = context.subscriptions;
  subs.push(output, status, changed);

  const watchers = [
    // Sources, whose values other files import.
    vscode.workspace.createFileSystemWatcher('**/*.{py,pyi,ts,tsx,mts,cts,js,jsx,mjs,cjs}'),
    // Configuration files (and a project's SDK's package.json): the server resolves the configuration again.
    vscode.workspace.createFileSystemWatcher(`**/{${CONFIG_FILE_NAMES.join(',')}}`),
  ];
  subs.push(...watchers);

  const serverModule = context.asAbsolutePath(path.join('dist', 'server.js'));
  const threads = new Set<Worker>();
  subs.push({ dispose: () => threads.forEach((w) => void w.terminate()) });
  const serverOptions: ServerOptions = debugging()
    ? { module: serverModule, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6019'] } }
    : () => startServerThread(serverModule, threads, (m) => output.error(m));
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      ...LANGUAGES.flatMap((language) => [{ scheme: 'file', language }, { scheme: 'untitled', language }]),
      { notebook: 'jupyter-notebook', language: 'python' },
    ],
    outputChannel: output,
    initializationOptions: {
      trusted: vscode.workspace.isTrusted,
      clientCommands: Object.values(CLIENT_COMMANDS),
      hoverShowsDiagnostics: true,
    } satisfies InitializationOptions,
    synchronize: { fileEvents: watchers },
  };
  client = new LanguageClient('prefixlint', 'prefixlint', serverOptions, clientOptions);
  const c = client;

  const updateStatus = () => {
    // A notebook's findings sit on its cells: count them all, not only the focused cell's.
    const notebook = vscode.window.activeNotebookEditor?.notebook;
    const editor = vscode.window.activeTextEditor;
    const uris = notebook ? notebook.getCells().map((c) => c.document.uri) : editor ? [editor.document.uri] : [];
    const n = uris.reduce((sum, uri) => sum + vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'prefixlint').length, 0);
    status.text = serverState === 'running' ? `$(checklist) prefixlint: ${n}` : `$(sync~spin) prefixlint: ${serverState}`;
    status.tooltip = `prefixlint ${serverState}: ${n} finding${n === 1 ? '' : 's'} in this ${notebook ? 'notebook' : 'file'}. Click for the log.`;
    status.show();
  };
  const sendKey = async () => {
    const key = (await context.secrets.get(SECRET)) ?? null;
    if (c.isRunning()) await c.sendNotification(SET_API_KEY, { key });
  };
  const show = async (name: string, markdown: string) => {
    const uri = vscode.Uri.from({ scheme: SCHEME, path: `/${name}.md` });
    views.set(uri.toString(), markdown);
    changed.fire(uri);
    await vscode.workspace.openTextDocument(uri);
    await vscode.commands.executeCommand('markdown.showPreview', uri);
  };
  const markdown = (p: MarkdownParams) => c.sendRequest<string>(MARKDOWN, p);

  subs.push(
    vscode.workspace.registerTextDocumentContentProvider(SCHEME, { onDidChange: changed.event, provideTextDocumentContent: (uri) => views.get(uri.toString()) ?? '' }),
    c.onDidChangeState((e) => {
      serverState = e.newState === State.Running ? 'running' : e.newState === State.Starting ? 'starting' : 'stopped';
      updateStatus();
      if (e.newState === State.Running) void sendKey();
    }),
    vscode.languages.onDidChangeDiagnostics(updateStatus),
    vscode.window.onDidChangeActiveTextEditor(updateStatus),
    vscode.window.onDidChangeActiveNotebookEditor(updateStatus),
    vscode.workspace.onDidGrantWorkspaceTrust(() => void c.sendNotification(SET_TRUST, { trusted: true })),
    context.secrets.onDidChange((e) => void (e.key === SECRET && sendKey())),
    vscode.commands.registerCommand('prefixlint.showOutput', () => output.show(true)),
    vscode.commands.registerCommand('prefixlint.restartServer', () => c.restart()),
    vscode.commands.registerCommand(CLIENT_COMMANDS.showMarkdown, (name: string, text: string) => show(name, text)),
    vscode.commands.registerCommand(CLIENT_COMMANDS.showDocumentation, async (id: string) => show(`rule-${id}`, await markdown({ what: `rule:${id}` }))),
    vscode.commands.registerCommand('prefixlint.showRules', async () => show('rules', await markdown({ what: 'rules' }))),
    vscode.commands.registerCommand('prefixlint.setApiKey', async () => {
      const key = await vscode.window.showInputBox({
        title: 'prefixlint: Anthropic API key for exact token counts',
        prompt: 'Stored in VS Code secret storage; used only when prefixlint.tokens.mode is "exact" in a trusted workspace.',
        password: true,
        ignoreFocusOut: true,
      });
      if (key) await context.secrets.store(SECRET, key.trim());
    }),
    vscode.commands.registerCommand('prefixlint.clearApiKey', () => context.secrets.delete(SECRET)),
    vscode.commands.registerCommand('prefixlint.fixAll', async () => {
      const doc = vscode.window.activeTextEditor?.document;
      if (doc) await c.sendRequest('workspace/executeCommand', { command: SERVER_COMMANDS.applyFixAll, arguments: [doc.uri.toString()] });
    }),
    vscode.commands.registerCommand('prefixlint.lintWorkspace', async () => {
      const r = await c.sendRequest<{ files: number; problems: number }>('workspace/executeCommand', { command: SERVER_COMMANDS.lintWorkspace, arguments: [] });
      void vscode.window.showInformationMessage(`prefixlint: ${r.problems} problem${r.problems === 1 ? '' : 's'} in ${r.files} closed file${r.files === 1 ? '' : 's'} (open files are linted as you edit).`);
    }),
    vscode.commands.registerCommand('prefixlint.diffRequestDumps', async () => {
      const docs = vscode.workspace.textDocuments.filter((d) => d.languageId === 'json' || d.languageId === 'jsonc' || d.fileName.endsWith('.json'));
      const items = docs.map((d) => ({ label: vscode.workspace.asRelativePath(d.uri), doc: d }));
      const picked = await vscode.window.showQuickPick(items, { canPickMany: true, title: 'prefixlint: pick two open request dumps (before, after)' });
      if (!picked || picked.length !== 2) return void vscode.window.showWarningMessage('prefixlint: pick exactly two JSON files.');
      const [a, b] = picked;
      show('request-diff', await markdown({ what: 'diff', texts: [a.doc.getText(), b.doc.getText()], names: [a.label, b.label] }));
    }),
  );
  c.onNotification(STATUS, (p: StatusParams) => {
    if (p.state === 'error') output.error(p.message ?? 'server error');
  });
  updateStatus();
  // Not awaited (as VS Code's language server samples and the ESLint extension do): the editor
  // goes on while the server starts, the status bar says "starting", and whatever is sent to the
  // server meanwhile waits for it (LanguageClient queues requests until it runs).
  c.start().then(
    () => output.info(`prefixlint server started in ${Date.now() - started} ms`),
    (err: unknown) => output.error(`prefixlint server did not start: ${err instanceof Error ? err.message : String(err)}`),
  );
  output.info(`prefixlint activated in ${Date.now() - started} ms`);
}

export function deactivate(): Thenable<void> | undefined {
  return client?.stop();
}
