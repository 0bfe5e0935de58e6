/**
 * The language server's entry point (dist/server.js). The transport comes from the command
 * line, as usual for LSP servers: `--stdio` (Neovim, Helix, Zed), `--node-ipc` or
 * `--socket=<port>`; in a worker thread (how the VS Code extension starts it), the message
 * port the thread was given.
 *
 * This bundle is only the LSP connection. Over stdio, IPC and a worker's port it answers
 * `initialize` at once and only then loads the rest of the server (dist/server-core.js: the
 * engine, its rules and grammars, a few MB of code), so that the editor's activation does not
 * wait for that. The messages that arrive in the meantime are held, and handed to the server
 * in order once it has registered its handlers.
 */
import { createRequire } from 'node:module';
import { workerData } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import { format } from 'node:util';
import type { DataCallback, Disposable, InitializeParams, Message, MessageReader, MessageWriter, RequestMessage, ResponseMessage } from 'vscode-languageserver/node';
import { createConnection, IPCMessageReader, IPCMessageWriter, PortMessageReader, PortMessageWriter, ProposedFeatures, StreamMessageReader, StreamMessageWriter } from 'vscode-languageserver/node';
import { initializeResult } from './capabilities';
import { SERVER_PORT } from '../shared/protocol';

/** A reader that can hold the messages after `initialize` until the server is there to handle them. */
class HeldReader implements MessageReader {
  private held: Message[] | undefined;
  private callback: DataCallback | undefined;
  /** The id of the `initialize` request, once it has come. */
  initializeId: RequestMessage['id'] | undefined;
  /** A `shutdown` request has come (the exit code when the input ends). */
  shutdownSeen = false;

  constructor(private readonly inner: MessageReader) {}

  get onError() {
    return this.inner.onError;
  }

  get onClose() {
    return this.inner.onClose;
  }

  get onPartialMessage() {
    return this.inner.onPartialMessage;
  }

  listen(callback: DataCallback): Disposable {
    this.callback = callback;
    return this.inner.listen((msg) => {
      const request = msg as RequestMessage;
      if (request.method === 'shutdown') this.shutdownSeen = true;
      if (this.held) {
        this.held.push(msg);
        return;
      }
      if (request.method === 'initialize' && this.initializeId === undefined) {
        this.initializeId = request.id;
        this.held = [];
      }
      callback(msg);
    });
  }

  /** Hands the held messages over, in order, and holds no more. */
  release(): void {
    const held = this.held ?? [];
    this.held = undefined;
    for (const msg of held) this.callback?.(msg);
  }

  dispose(): void {
    this.inner.dispose();
  }
}

/** A writer that says when the answer to `initialize` has been written. */
class WatchedWriter implements MessageWriter {
  constructor(
    private readonly inner: MessageWriter,
    private readonly isAnswer: (msg: Message) => boolean,
    private readonly answered: () => void,
  ) {}

  get onError() {
    return this.inner.onError;
  }

  get onClose() {
    return this.inner.onClose;
  }

  async write(msg: Message): Promise<void> {
    await this.inner.write(msg);
    if (this.isAnswer(msg)) this.answered();
  }

  end(): void {
    this.inner.end();
  }

  dispose(): void {
    this.inner.dispose();
  }
}

/** The transports with which the server answers `initialize` before it loads (the others get the whole server first). */
function transport(): { reader: MessageReader; writer: MessageWriter; stdio: boolean } | undefined {
  const port = (workerData as Record<string, unknown> | null)?.[SERVER_PORT] as MessagePort | undefined;
  if (port) return { reader: new PortMessageReader(port), writer: new PortMessageWriter(port), stdio: false };
  const argv = process.argv.slice(2);
  if (argv.includes('--stdio')) return { reader: new StreamMessageReader(process.stdin), writer: new StreamMessageWriter(process.stdout), stdio: true };
  if (argv.includes('--node-ipc')) return { reader: new IPCMessageReader(process), writer: new IPCMessageWriter(process), stdio: false };
  return undefined;
}

/**
 * The rest of the server, the bundle beside this one. Required, not imported: `import()` of a
 * file takes turns of the event loop, and the held messages wait for it.
 */
function core(): typeof import('./core') {
  try {
    return createRequire(__filename)('./server-core.js') as typeof import('./core');
  } catch (err) {
    process.stderr.write(`prefixlint could not load the language server: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }
}

const own = transport();
if (!own) {
  // `--socket`, `--pipe`: the connection as vscode-languageserver makes it from the command line.
  const connection = createConnection(ProposedFeatures.all);
  core().startServer(connection);
  connection.listen();
} else {
  const reader = new HeldReader(own.reader);
  let params: InitializeParams | undefined;
  const writer = new WatchedWriter(
    own.writer,
    (msg) => reader.initializeId !== undefined && (msg as ResponseMessage).id === reader.initializeId && 'result' in msg,
    () => {
      core().startServer(connection, { initialized: params });
      reader.release();
    },
  );
  const connection = createConnection(ProposedFeatures.all, reader, writer);
  if (own.stdio) {
    // stdout carries the protocol: what the code logs goes to the client's log instead (as
    // vscode-languageserver does when it makes the stdio connection itself), and the server
    // ends when its input does.
    console.log = console.info = console.debug = (...args: unknown[]) => connection.console.log(format(...args));
    console.warn = (...args: unknown[]) => connection.console.warn(format(...args));
    console.error = (...args: unknown[]) => connection.console.error(format(...args));
    for (const event of ['end', 'close']) process.stdin.on(event, () => process.exit(reader.shutdownSeen ? 0 : 1));
  }
  connection.onInitialize((p: InitializeParams) => {
    params = p;
    return initializeResult();
  });
  connection.listen();
}
