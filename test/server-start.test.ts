/**
 * How the built language server starts: dist/server.js answers `initialize` before it loads the
 * rest of the server (dist/server-core.js), holds what the client sends meanwhile and hands it
 * over in order; over stdio as other editors start it, and in a worker thread as the VS Code
 * extension does. The Anthropic SDK is a bundle of its own that exact counts load.
 */
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { MessageChannel, Worker } from 'node:worker_threads';
import type { Message, MessageReader, RequestMessage, ResponseMessage } from 'vscode-languageserver/node';
import { PortMessageReader, StreamMessageReader } from 'vscode-languageserver/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initializeResult } from '../src/server/capabilities';
import { SERVER_PORT, STATUS } from '../src/shared/protocol';
import type { StatusParams } from '../src/shared/protocol';
import { ensureBuilt } from './cli-harness';
import { ROOT } from './helpers';

const DIST = path.join(ROOT, 'dist');
/** A file with two findings (the first example of examples/python). */
const APP = fs.readFileSync(path.join(ROOT, 'examples', 'python', 'compaction_loop.py'), 'utf8');
const EXPECTED = ['unknown-type', 'beta-not-enabled'];

let dir: string;
beforeAll(() => {
  ensureBuilt();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'prefixlint-start-'));
  fs.mkdirSync(path.join(dir, '.git'));
  fs.writeFileSync(path.join(dir, 'app.py'), APP);
}, 180_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** `initialize`, `initialized`, the file's `didOpen` and a diagnostics request. */
function opening(): Message[] {
  const uri = pathToFileURL(path.join(dir, 'app.py')).toString();
  return [
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        processId: process.pid,
        rootUri: pathToFileURL(dir).toString(),
        capabilities: { workspace: { configuration: true }, textDocument: { diagnostic: {} } },
        initializationOptions: { trusted: true },
        workspaceFolders: [{ uri: pathToFileURL(dir).toString(), name: 'start' }],
      },
    },
    { jsonrpc: '2.0', method: 'initialized', params: {} },
    { jsonrpc: '2.0', method: 'textDocument/didOpen', params: { textDocument: { uri, languageId: 'python', version: 1, text: APP } } },
    { jsonrpc: '2.0', id: 2, method: 'textDocument/diagnostic', params: { textDocument: { uri } } },
  ] as unknown as Message[];
}

/**
 * Sends what `opening` lists all at once (`send` writes them together), as a client that does
 * not wait for the answer to `initialize` does: the server must take them in order although
 * the last three come while it is still loading. Then shuts it down.
 */
async function pipelined(reader: MessageReader, send: (msgs: Message[]) => void): Promise<{ init: unknown; diagnostics: Array<{ code?: unknown }>; ready: boolean }> {
  const answers = new Map<number, (m: ResponseMessage) => void>();
  /** The server's `initialized` handler says it is ready: the notification that came before the server had loaded reached it. */
  let ready = false;
  const answer = (id: number) => new Promise<ResponseMessage>((resolve) => answers.set(id, resolve));
  reader.listen((m) => {
    const msg = m as ResponseMessage & RequestMessage;
    // The server's requests to the client: the editor's settings, registrations.
    if (msg.method !== undefined && msg.id !== undefined) send([{ jsonrpc: '2.0', id: msg.id, result: msg.method === 'workspace/configuration' ? (msg.params as { items: unknown[] }).items.map(() => ({})) : null } as ResponseMessage]);
    else if (msg.method === undefined && typeof msg.id === 'number') answers.get(msg.id)?.(msg);
    else if (msg.method === STATUS && (msg.params as StatusParams).state === 'ready') ready = true;
  });
  const init = answer(1);
  const report = answer(2);
  send(opening());
  const result = { init: (await init).result, diagnostics: ((await report).result as { items: Array<{ code?: unknown }> }).items, ready };
  const down = answer(3);
  send([{ jsonrpc: '2.0', id: 3, method: 'shutdown' } as RequestMessage]);
  await down;
  send([{ jsonrpc: '2.0', method: 'exit' } as Message]);
  return result;
}

/** LSP's framing over a stream. */
function framed(msgs: Message[]): Buffer {
  return Buffer.concat(msgs.map((m) => {
    const body = Buffer.from(JSON.stringify(m), 'utf8');
    return Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'ascii'), body]);
  }));
}

describe('starting the built language server', () => {
  it('over stdio: answers initialize, then handles what came meanwhile in order', async () => {
    const child = spawn(process.execPath, [path.join(DIST, 'server.js'), '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    // One write: the server reads the four messages in one chunk.
    const r = await pipelined(new StreamMessageReader(child.stdout), (msgs) => child.stdin.write(framed(msgs)));
    expect(r.init).toEqual(initializeResult());
    expect(r.diagnostics.map((d) => d.code)).toEqual(EXPECTED);
    expect(r.ready).toBe(true);
    // After shutdown and exit: the exit code LSP asks for, and nothing on stderr.
    expect(await exited).toBe(0);
    expect(stderr).toBe('');
  }, 60_000);

  it('in a worker thread, as the VS Code extension starts it', async () => {
    const { port1, port2 } = new MessageChannel();
    const worker = new Worker(path.join(DIST, 'server.js'), { workerData: { [SERVER_PORT]: port2 }, transferList: [port2] });
    const exited = new Promise<number>((resolve) => worker.once('exit', resolve));
    try {
      // Posted in one go: the thread gets them one after the other.
      const r = await pipelined(new PortMessageReader(port1), (msgs) => msgs.forEach((m) => port1.postMessage(m)));
      expect(r.init).toEqual(initializeResult());
      expect(r.diagnostics.map((d) => d.code)).toEqual(EXPECTED);
      expect(r.ready).toBe(true);
      // The exit notification ends the thread, as it ends a server process.
      expect(await exited).toBe(0);
    } finally {
      port1.close();
      await worker.terminate();
    }
  }, 60_000);

  // A client that stops the server as soon as it started it (a window reloaded at once): the
  // answer to `shutdown` waits until the grammars are loaded, so that `exit` never ends the thread
  // while V8 compiles them (that crashes the process the thread is in).
  it('in a worker thread, answers shutdown only once its parsers have loaded, then exits 0', async () => {
    const { port1, port2 } = new MessageChannel();
    const worker = new Worker(path.join(DIST, 'server.js'), { workerData: { [SERVER_PORT]: port2 }, transferList: [port2] });
    const exited = new Promise<number>((resolve) => worker.once('exit', resolve));
    try {
      const reader = new PortMessageReader(port1);
      const seen: string[] = [];
      const shutdownAnswered = new Promise<void>((resolve) =>
        reader.listen((m) => {
          const msg = m as ResponseMessage & RequestMessage & { params?: { message?: string } };
          if (msg.method !== undefined && msg.id !== undefined) port1.postMessage({ jsonrpc: '2.0', id: msg.id, result: msg.method === 'workspace/configuration' ? (msg.params as unknown as { items: unknown[] }).items.map(() => ({})) : null });
          else if (msg.method === 'window/logMessage' && /server ready in/.test(msg.params?.message ?? '')) seen.push('parsers loaded');
          else if (msg.method === undefined && msg.id === 3) {
            seen.push('shutdown answered');
            resolve();
          }
        }),
      );
      for (const m of [...opening().slice(0, 2), { jsonrpc: '2.0', id: 3, method: 'shutdown' }]) port1.postMessage(m);
      await shutdownAnswered;
      expect(seen).toEqual(['parsers loaded', 'shutdown answered']);
      port1.postMessage({ jsonrpc: '2.0', method: 'exit' });
      expect(await exited).toBe(0);
    } finally {
      port1.close();
      await worker.terminate();
    }
  }, 60_000);

  it('keeps the engine out of the bundle that answers initialize, and the SDK in a bundle of its own', async () => {
    const shell = fs.readFileSync(path.join(DIST, 'server.js'), 'utf8');
    // No rule, grammar runtime or SDK code: those are what made starting slow.
    for (const marker of ['volatile-system-prompt', 'web-tree-sitter', 'class Anthropic']) expect(shell, marker).not.toContain(marker);
    expect(shell.length).toBeLessThan(600_000);
    const core = fs.readFileSync(path.join(DIST, 'server-core.js'), 'utf8');
    expect(core).toContain('volatile-system-prompt');
    expect(core).not.toContain('class Anthropic');
    // As server-core.js loads it: Node's import() of the file, whose default export is the SDK's.
    const probe = `import(${JSON.stringify(pathToFileURL(path.join(DIST, 'anthropic-sdk.js')).href)}).then((m) => process.stdout.write([typeof m.default, typeof m.default.RateLimitError].join(' ')))`;
    const r = spawnSync(process.execPath, ['-e', probe], { encoding: 'utf8' });
    expect(r.stdout, r.stderr).toBe('function function');
  });
});
