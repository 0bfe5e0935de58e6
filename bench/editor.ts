/**
 * The editor benchmark: the language server in its own process, driven over stdio as VS Code
 * drives it (pull diagnostics, incremental document changes, code lenses), on a generated
 * 3,000-line Python file and a TypeScript one with 40 request call sites each.
 *
 * - Change → diagnostics: typing bursts into the file, one character an edit, each edit's
 *   diagnostics awaited before the next; the server is bench/editor-server.ts (the shipped
 *   server's code with no quiet time after a change), so the time is the server's work.
 * - As shipped: the same with dist/server.js, whose quiet time after a change is included.
 * - Activation: loading dist/extension.js with its `vscode` module stubbed; dist/server.js in a
 *   worker thread (as the extension starts it) to its initialize result; dist/server.js as a
 *   process (as other editors start it) from spawn to its initialize result and to the first
 *   diagnostics.
 * - The plain tree-sitter parse of each version of the file, full and incremental, as a reference.
 */
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Tree } from 'web-tree-sitter';
import { Edit as TreeEdit } from 'web-tree-sitter';
import { MessageChannel, Worker } from 'node:worker_threads';
import type { ProtocolConnection } from 'vscode-languageserver/node';
import { createProtocolConnection, PortMessageReader, PortMessageWriter, StreamMessageReader, StreamMessageWriter } from 'vscode-languageserver/node';
import { SERVER_PORT } from '../src/shared/protocol';
import { Parsers } from '../src/lang/parsers';
import { editorFile, Rng } from './corpus';
import type { ActivationResult, EditorLanguageResult } from './report';
import { median, percentile, round } from './report';

export interface EditorOptions {
  work: string;
  dist: string;
  /** The bundle of bench/editor-server.ts. */
  serverScript: string;
  seed: number;
  edits: number;
  log: (line: string) => void;
}

interface TextEdit {
  start: number;
  end: number;
  text: string;
}

/**
 * Edits as typing produces them: bursts of single-character inserts at a spot (inside a string,
 * a comment or after a name), then deleting what was typed; some keystrokes leave the file with
 * a syntax error for a moment, as real typing does.
 */
export function editScript(text: string, rng: Rng, count: number): TextEdit[] {
  const edits: TextEdit[] = [];
  let current = text;
  const word = 'refund';
  while (edits.length < count) {
    const lineStarts: number[] = [0];
    for (let i = 0; i < current.length; i++) if (current.charCodeAt(i) === 10) lineStarts.push(i + 1);
    const line = rng.int(0, lineStarts.length - 2);
    const lineText = current.slice(lineStarts[line], lineStarts[line + 1] - 1);
    const quote = lineText.search(/["'`]/);
    const col = quote >= 0 ? quote + 1 : Math.max(0, lineText.search(/\S/)) + (lineText.trim().length ? 1 : 0);
    let at = lineStarts[line] + col;
    const burst = Math.min(word.length, count - edits.length);
    for (let i = 0; i < burst && edits.length < count; i++) {
      edits.push({ start: at, end: at, text: word[i] });
      current = current.slice(0, at) + word[i] + current.slice(at);
      at++;
    }
    for (let i = 0; i < burst && edits.length < count; i++) {
      at--;
      edits.push({ start: at, end: at + 1, text: '' });
      current = current.slice(0, at) + current.slice(at + 1);
    }
  }
  return edits;
}

/** Line and UTF-16 column of an offset, as LSP and tree-sitter count them. */
export function pointAt(text: string, index: number): { row: number; column: number } {
  let row = 0;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < index; i = text.indexOf('\n', i + 1)) {
    row++;
    lineStart = i + 1;
  }
  return { row, column: index - lineStart };
}

// ---------------------------------------------------------------------------------------------
// A client over a server process
// ---------------------------------------------------------------------------------------------

interface DiagnosticReport {
  kind: 'full' | 'unchanged';
  resultId?: string;
  items?: unknown[];
}

class ServerProcess {
  readonly child: ChildProcess;
  readonly conn: ProtocolConnection;
  readonly started = performance.now();
  private stderr = '';
  private version = new Map<string, number>();
  private resultId = new Map<string, string | undefined>();

  constructor(args: string[]) {
    // PREFIXLINT_BENCH_SERVER_PROFILE=<dir>: each server writes a CPU profile there (node --cpu-prof).
    const profile = process.env.PREFIXLINT_BENCH_SERVER_PROFILE;
    this.child = spawn(process.execPath, [...(profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : []), ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stderr!.on('data', (b: Buffer) => {
      this.stderr = (this.stderr + b.toString('utf8')).slice(-4000);
    });
    this.conn = createProtocolConnection(new StreamMessageReader(this.child.stdout!), new StreamMessageWriter(this.child.stdin!));
    this.conn.onRequest('workspace/configuration', (p: { items: unknown[] }) => p.items.map(() => ({})));
    for (const m of ['client/registerCapability', 'workspace/diagnostic/refresh', 'workspace/codeLens/refresh', 'window/workDoneProgress/create']) this.conn.onRequest(m, () => null);
    this.conn.onUnhandledNotification(() => undefined);
    this.conn.listen();
  }

  /** Milliseconds from spawn to the initialize result. */
  async initialize(root: string): Promise<number> {
    await this.request('initialize', {
      processId: process.pid,
      rootUri: pathToFileURL(root).toString(),
      capabilities: {
        workspace: { configuration: true, applyEdit: true, codeLens: { refreshSupport: true }, diagnostics: { refreshSupport: true }, workspaceFolders: true },
        textDocument: { synchronization: { dynamicRegistration: false }, diagnostic: {}, codeAction: { resolveSupport: { properties: ['edit'] } }, codeLens: {}, hover: {} },
      },
      initializationOptions: { trusted: true, clientCommands: ['prefixlint.showDocumentation', 'prefixlint.showMarkdown'], hoverShowsDiagnostics: true },
      workspaceFolders: [{ uri: pathToFileURL(root).toString(), name: 'editor' }],
    });
    const ms = performance.now() - this.started;
    await this.conn.sendNotification('initialized', {});
    return ms;
  }

  async open(uri: string, languageId: string, text: string): Promise<void> {
    this.version.set(uri, 1);
    await this.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId, version: 1, text } });
  }

  async change(uri: string, before: string, e: TextEdit): Promise<void> {
    const v = (this.version.get(uri) ?? 1) + 1;
    this.version.set(uri, v);
    const s = pointAt(before, e.start);
    const end = pointAt(before, e.end);
    await this.conn.sendNotification('textDocument/didChange', {
      textDocument: { uri, version: v },
      contentChanges: [{ range: { start: { line: s.row, character: s.column }, end: { line: end.row, character: end.column } }, text: e.text }],
    });
  }

  /** Pulls the document's diagnostics; returns how many there are (the last full report's when unchanged). */
  async pull(uri: string): Promise<number> {
    const r = await this.request<DiagnosticReport>('textDocument/diagnostic', { textDocument: { uri }, identifier: 'prefixlint', previousResultId: this.resultId.get(uri) });
    if (r.kind === 'full') {
      this.resultId.set(uri, r.resultId);
      this.lastCount = r.items?.length ?? 0;
    }
    return this.lastCount;
  }
  private lastCount = 0;

  /** The code lenses and their titles, as VS Code asks for them after a change. */
  async lenses(uri: string): Promise<number> {
    const lenses = await this.request<Array<{ range: unknown; data?: unknown }>>('textDocument/codeLens', { textDocument: { uri } });
    await Promise.all((lenses ?? []).map((l) => this.request('codeLens/resolve', l)));
    return lenses?.length ?? 0;
  }

  request<T>(method: string, params: unknown, timeoutMs = 60_000): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${method}: no answer in ${timeoutMs} ms; server stderr:\n${this.stderr}`)), timeoutMs);
      this.conn.sendRequest<T>(method, params).then(
        (v) => {
          clearTimeout(timer);
          resolve(v);
        },
        (err: unknown) => {
          clearTimeout(timer);
          reject(new Error(`${method}: ${String(err)}; server stderr:\n${this.stderr}`));
        },
      );
    });
  }

  async stop(): Promise<void> {
    const exited = new Promise<void>((resolve) => (this.child.exitCode !== null ? resolve() : this.child.once('exit', () => resolve())));
    try {
      await this.request('shutdown', null, 5000);
      await this.conn.sendNotification('exit');
    } catch {
      // killed below
    }
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
    this.conn.dispose();
  }
}

// ---------------------------------------------------------------------------------------------
// Measurements
// ---------------------------------------------------------------------------------------------

const LANGUAGE_ID = { python: 'python', typescript: 'typescript' } as const;

/** Types `edits` into the open document; returns the change → diagnostics and lens times. */
async function typeInto(server: ServerProcess, uri: string, original: string, edits: readonly TextEdit[], withLenses: boolean): Promise<{ change: number[]; lens: number[]; text: string }> {
  const change: number[] = [];
  const lens: number[] = [];
  let text = original;
  for (const e of edits) {
    const next = text.slice(0, e.start) + e.text + text.slice(e.end);
    const t0 = performance.now();
    await server.change(uri, text, e);
    await server.pull(uri);
    change.push(performance.now() - t0);
    // PREFIXLINT_BENCH_EDIT_LOG=<file>: each edit's time and where it was, to find what the slow ones have in common.
    if (process.env.PREFIXLINT_BENCH_EDIT_LOG) fs.appendFileSync(process.env.PREFIXLINT_BENCH_EDIT_LOG, `${change.at(-1)!.toFixed(1)}\t${uri.slice(-3)}\t${e.start}\t${JSON.stringify(e.text)}\t${JSON.stringify(text.slice(Math.max(0, e.start - 30), e.start))}\n`);
    if (withLenses) {
      const t1 = performance.now();
      await server.lenses(uri);
      lens.push(performance.now() - t1);
    }
    text = next;
  }
  return { change, lens, text };
}

/** Full and incremental tree-sitter parses of each version of the text (median ms). */
function parseReference(parsers: Parsers, language: 'python' | 'typescript', original: string, edits: readonly TextEdit[]): { full: number; incremental: number } {
  const parser = parsers.parser(language);
  const full: number[] = [];
  const incremental: number[] = [];
  let text = original;
  let oldTree: Tree = parser.parse(text)!;
  for (const e of edits) {
    const next = text.slice(0, e.start) + e.text + text.slice(e.end);
    let t0 = performance.now();
    parser.parse(next)!.delete();
    full.push(performance.now() - t0);
    t0 = performance.now();
    oldTree.edit(
      new TreeEdit({
        startIndex: e.start,
        oldEndIndex: e.end,
        newEndIndex: e.start + e.text.length,
        startPosition: pointAt(text, e.start),
        oldEndPosition: pointAt(text, e.end),
        newEndPosition: pointAt(next, e.start + e.text.length),
      }),
    );
    const newTree = parser.parse(next, oldTree)!;
    incremental.push(performance.now() - t0);
    oldTree.delete();
    oldTree = newTree;
    text = next;
  }
  oldTree.delete();
  return { full: round(median(full)), incremental: round(median(incremental)) };
}

/**
 * Milliseconds from starting dist/server.js in a worker thread of this process, as the VS Code
 * extension starts it in the extension host, to its initialize result.
 */
async function workerInitializeMs(dist: string, root: string): Promise<number> {
  const { port1, port2 } = new MessageChannel();
  const t0 = performance.now();
  const worker = new Worker(path.join(dist, 'server.js'), { workerData: { [SERVER_PORT]: port2 }, transferList: [port2] });
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  const conn = createProtocolConnection(new PortMessageReader(port1), new PortMessageWriter(port1));
  conn.onRequest('workspace/configuration', (p: { items: unknown[] }) => p.items.map(() => ({})));
  conn.onUnhandledNotification(() => undefined);
  conn.listen();
  try {
    await conn.sendRequest('initialize', { processId: process.pid, rootUri: pathToFileURL(root).toString(), capabilities: { textDocument: { diagnostic: {} } }, initializationOptions: { trusted: true } });
    const ms = performance.now() - t0;
    await conn.sendRequest('shutdown');
    await conn.sendNotification('exit');
    return ms;
  } finally {
    const timer = setTimeout(() => void worker.terminate(), 5000);
    await exited;
    clearTimeout(timer);
    conn.dispose();
    port1.close();
  }
}

/**
 * Milliseconds to load dist/extension.js, and to load it and run its activate() until it
 * resolves, in a fresh Node with the `vscode` module stubbed (bench/activation/activate.cjs): the
 * second is what VS Code counts as the extension's activation. The version given is the lowest
 * the extension declares.
 */
function extensionActivation(dist: string): { loaded: number; activated: number } {
  const engine = (JSON.parse(fs.readFileSync(path.join(dist, '..', 'package.json'), 'utf8')) as { engines: { vscode: string } }).engines.vscode.replace(/^\D*/, '');
  const r = spawnSync(process.execPath, [path.join(dist, '..', 'bench', 'activation', 'activate.cjs'), dist, engine], { encoding: 'utf8', timeout: 30_000 });
  if (r.status !== 0) throw new Error(`activating dist/extension.js failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as { loaded: number; activated: number };
}

export async function editorBench(o: EditorOptions): Promise<{ editor: EditorLanguageResult[]; activation: ActivationResult }> {
  const dir = path.join(o.work, 'editor');
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const parsers = await Parsers.load(o.dist);
  const editor: EditorLanguageResult[] = [];
  const init: number[] = [];
  const first: Record<'python' | 'typescript', number[]> = { python: [], typescript: [] };
  const SHIPPED_SPAWNS = 2;
  const SHIPPED_EDITS = 10;
  const WARMUP = 10;
  for (const language of ['python', 'typescript'] as const) {
    const file = path.join(dir, language === 'python' ? 'editor.py' : 'editor.ts');
    const original = editorFile(language, o.seed);
    fs.writeFileSync(file, original);
    const uri = pathToFileURL(file).toString();
    const edits = editScript(original, new Rng(o.seed), o.edits + WARMUP);

    // The server's work: no quiet time.
    const server = new ServerProcess([o.serverScript, '--stdio', o.dist]);
    await server.initialize(dir);
    await server.open(uri, LANGUAGE_ID[language], original);
    const diagnostics = await server.pull(uri);
    const warm = await typeInto(server, uri, original, edits.slice(0, WARMUP), true);
    const typed = await typeInto(server, uri, warm.text, edits.slice(WARMUP), true);
    await server.stop();

    // As shipped, and activation.
    const shipped: number[] = [];
    for (let i = 0; i < SHIPPED_SPAWNS; i++) {
      const s = new ServerProcess([path.join(o.dist, 'server.js'), '--stdio']);
      init.push(await s.initialize(dir));
      await s.open(uri, LANGUAGE_ID[language], original);
      await s.pull(uri);
      first[language].push(performance.now() - s.started);
      shipped.push(...(await typeInto(s, uri, original, edits.slice(0, SHIPPED_EDITS), false)).change);
      await s.stop();
    }

    const ref = parseReference(parsers, language, warm.text, edits.slice(WARMUP));
    const r2 = (x: number) => round(x);
    editor.push({
      language,
      lines: original.split('\n').length - 1,
      bytes: original.length,
      edits: typed.change.length,
      diagnostics,
      changeP50: r2(percentile(typed.change, 50)),
      changeP95: r2(percentile(typed.change, 95)),
      changeMax: r2(Math.max(...typed.change)),
      lensP50: r2(percentile(typed.lens, 50)),
      lensP95: r2(percentile(typed.lens, 95)),
      shippedEdits: shipped.length,
      shippedP50: r2(percentile(shipped, 50)),
      shippedP95: r2(percentile(shipped, 95)),
      fullParseP50: ref.full,
      incrementalParseP50: ref.incremental,
    });
    const e = editor.at(-1)!;
    o.log(`  editor ${language}: change → diagnostics p50 ${e.changeP50} ms, p95 ${e.changeP95} ms; as shipped p50 ${e.shippedP50} ms; ${diagnostics} diagnostics`);
  }
  const loads: number[] = [];
  const activations: number[] = [];
  for (let i = 0; i < 5; i++) {
    const a = extensionActivation(o.dist);
    loads.push(a.loaded);
    activations.push(a.activated);
  }
  const inWorker: number[] = [];
  for (let i = 0; i < 5; i++) inWorker.push(await workerInitializeMs(o.dist, dir));
  const activation: ActivationResult = {
    runs: init.length,
    extensionLoadMs: round(median(loads), 0),
    serverInitializeMs: round(median(init), 0),
    workerInitializeMs: round(median(inWorker), 0),
    workerRuns: inWorker.length,
    activateMs: round(median(activations), 0),
    firstDiagnosticsMs: { python: round(median(first.python), 0), typescript: round(median(first.typescript), 0) },
  };
  o.log(`  activation: extension load + activate() ${activation.activateMs} ms; extension load ${activation.extensionLoadMs} ms, server initialize ${activation.workerInitializeMs} ms in a worker thread (as the extension starts it), ${activation.serverInitializeMs} ms as a process`);
  return { editor, activation };
}
