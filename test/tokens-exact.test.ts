/**
 * Exact token counts: the real @anthropic-ai/sdk against a loopback server (127.0.0.1, random
 * port) that implements POST /v1/messages/count_tokens, validates what the SDK sends, and can
 * answer with a delay, 401, 429 + retry-after, 500 or malformed JSON. Checks debounce, caching by
 * (request hash, model), the rate limit, the fallback texts, and that the key never shows up in
 * logs, lens titles or breakdowns — directly and through the language server.
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { pathToFileURL } from 'node:url';
import type { CodeLens } from 'vscode-languageserver/node';
import { createConnection, createProtocolConnection, ProposedFeatures, StreamMessageReader, StreamMessageWriter } from 'vscode-languageserver/node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { requestJson } from '../src/core/tokens';
import { ExactCounter } from '../src/server/exactTokens';
import type { ExactState } from '../src/server/exactTokens';
import { startServer } from '../src/server/server';
import { analyzer, FIXTURES } from './helpers';

const KEY = 'sk-ant-test-' + 'k3y'.repeat(8);
const CREATE_ONLY = ['max_tokens', 'stream', 'temperature', 'top_p', 'top_k', 'metadata', 'stop_sequences', 'service_tier', 'container'];
const ALLOWED = new Set(['model', 'messages', 'system', 'tools', 'tool_choice', 'thinking', 'cache_control', 'output_config', 'context_management', 'mcp_servers', 'output_format', 'speed', 'betas']);

type Mode = 'ok' | 'delay' | '401' | '429' | '500' | 'malformed';

interface Seen {
  url: string;
  body: Record<string, unknown>;
  problems: string[];
}

/** The fake API. `mode` says how the next requests are answered; `seen` records them. */
class FakeApi {
  mode: Mode = 'ok';
  tokens = 1234;
  readonly seen: Seen[] = [];
  private readonly server = http.createServer((req, res) => this.handle(req, res));
  private waiters: Array<() => void> = [];
  port = 0;

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  get baseURL(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Resolves when the server has received `n` requests in all. */
  received(n: number): Promise<void> {
    if (this.seen.length >= n) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(() => this.seen.length >= n && resolve()));
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
    req.on('end', () => {
      const problems: string[] = [];
      if (req.method !== 'POST') problems.push(`method ${req.method}`);
      if (!/^\/v1\/messages\/count_tokens(\?beta=true)?$/.test(req.url ?? '')) problems.push(`path ${req.url}`);
      // The SDK sends the key as `x-api-key` (0.x) or as a bearer token (1.x).
      if (req.headers['x-api-key'] !== KEY && req.headers.authorization !== `Bearer ${KEY}`) problems.push('api key');
      if (!req.headers['anthropic-version']) problems.push('anthropic-version');
      if (!String(req.headers['content-type']).startsWith('application/json')) problems.push('content-type');
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        problems.push('body is not JSON');
      }
      if (typeof body.model !== 'string') problems.push('model');
      if (!Array.isArray(body.messages)) problems.push('messages');
      for (const k of Object.keys(body)) if (!ALLOWED.has(k)) problems.push(`field ${k}`);
      this.seen.push({ url: req.url ?? '', body, problems });
      for (const w of this.waiters) w();
      const json = (status: number, value: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(JSON.stringify(value));
      };
      const error = (status: number, type: string, message: string, headers?: Record<string, string>) =>
        json(status, { type: 'error', error: { type, message } }, headers);
      if (problems.length) return error(400, 'invalid_request_error', problems.join('; '));
      switch (this.mode) {
        case 'ok':
          return json(200, { input_tokens: this.tokens });
        case 'delay': {
          const t = setTimeout(() => json(200, { input_tokens: this.tokens }), 2_000);
          res.on('close', () => clearTimeout(t));
          return;
        }
        case '401':
          return error(401, 'authentication_error', 'invalid x-api-key');
        case '429':
          return error(429, 'rate_limit_error', 'Number of requests has exceeded your rate limit', { 'retry-after': '1' });
        case '500':
          return error(500, 'api_error', 'Internal server error');
        case 'malformed':
          res.writeHead(200, { 'content-type': 'application/json' });
          return res.end('{"input_tokens": 12');
      }
    });
  }
}

const api = new FakeApi();
const logs: string[] = [];
let body: Record<string, unknown>;
let placeholders: string[];

beforeAll(async () => {
  await api.start();
  const file = path.join(FIXTURES, 'volatile-system-prompt', 'bad.py');
  const call = (await analyzer()).analyze(file, fs.readFileSync(file, 'utf8')).calls[0];
  ({ body, placeholders } = requestJson(call));
});

afterAll(async () => {
  await api.stop();
  // Nothing that was logged anywhere in this file carries the key.
  expect(logs.length).toBeGreaterThan(0);
  for (const l of logs) expect(l).not.toContain(KEY);
});

beforeEach(() => {
  api.mode = 'ok';
  api.tokens = 1234;
});

/** A counter against the fake API, and a way to wait for its next answer. */
function counter(opts: { rpm?: number; timeoutMs?: number; key?: string | undefined } = {}) {
  let notify: (() => void) | undefined;
  const c = new ExactCounter({
    apiKey: () => ('key' in opts ? opts.key : KEY),
    requestsPerMinute: () => opts.rpm ?? 100,
    baseURL: api.baseURL,
    debounceMs: 20,
    timeoutMs: opts.timeoutMs ?? 2_000,
    retryFailedAfterMs: 60_000,
    log: (m) => logs.push(m),
    onSettled: () => notify?.(),
  });
  const settled = () => new Promise<void>((resolve) => (notify = resolve));
  /** Asks, waits for the answer, asks again: what a lens shows after its refresh. */
  const count = async (site: string, b: Record<string, unknown>, model: string): Promise<ExactState> => {
    const wait = settled();
    const first = c.state(site, b, model);
    if (first.kind !== 'pending') return first;
    await wait;
    return c.state(site, b, model);
  };
  return { c, settled, count };
}

describe('count_tokens through the SDK', () => {
  it('sends the statically known body without create-only fields and shows the exact count', async () => {
    const { c, count } = counter();
    const before = api.seen.length;
    expect(await count('a', body, 'claude-sonnet-4-6')).toEqual({ kind: 'counted', tokens: 1234 });
    const sent = api.seen[before];
    expect(sent.problems).toEqual([]);
    expect(sent.url).toBe('/v1/messages/count_tokens');
    expect(sent.body.model).toBe('claude-sonnet-4-6');
    for (const k of CREATE_ONLY) expect(sent.body).not.toHaveProperty(k);
    // Unresolved parts are sent as a visible placeholder.
    if (placeholders.length) expect(JSON.stringify(sent.body)).toContain('⟨unresolved⟩');
    c.dispose();
  });

  it('caches by (request hash, model) and asks again for another model', async () => {
    const { c, count } = counter();
    const before = api.seen.length;
    await count('a', body, 'claude-sonnet-4-6');
    api.tokens = 999;
    expect(c.state('b', { ...body }, 'claude-sonnet-4-6')).toEqual({ kind: 'counted', tokens: 1234 });
    expect(api.seen.length).toBe(before + 1);
    expect(await count('a', body, 'claude-opus-4-7')).toEqual({ kind: 'counted', tokens: 999 });
    expect(api.seen.length).toBe(before + 2);
    c.dispose();
  });

  it('debounces: rapid changes at one call site send only the last request', async () => {
    const { c, settled } = counter();
    const before = api.seen.length;
    const done = settled();
    for (let i = 0; i < 5; i++) expect(c.state('site', { ...body, system: `version ${i}` }, 'claude-sonnet-4-6').kind).toBe('pending');
    await done;
    expect(api.seen.length).toBe(before + 1);
    expect(api.seen[before].body.system).toBe('version 4');
    c.dispose();
  });

  it('sends at most N requests per minute and says so', async () => {
    const { c, settled } = counter({ rpm: 2 });
    const before = api.seen.length;
    for (const site of ['1', '2']) {
      const done = settled();
      c.state(site, { ...body, system: site }, 'claude-sonnet-4-6');
      await done;
    }
    const done = settled();
    c.state('3', { ...body, system: '3' }, 'claude-sonnet-4-6');
    await done;
    expect(api.seen.length).toBe(before + 2);
    const third = c.state('3', { ...body, system: '3' }, 'claude-sonnet-4-6');
    expect(third.kind).toBe('failed');
    expect((third as { reason: string }).reason).toMatch(/^over 2 requests per minute, retrying in \d+ s$/);
    c.dispose();
  });

  it.each([
    ['401', 'the API key was rejected (401)'],
    ['500', 'the API failed (500)'],
    ['malformed', 'the API sent an answer that is not a token count'],
  ] as const)('falls back to the estimate on %s with the reason', async (mode, reason) => {
    api.mode = mode;
    const { c, count } = counter();
    expect(await count('x', { ...body, system: mode }, 'claude-sonnet-4-6')).toEqual({ kind: 'failed', reason });
    c.dispose();
  });

  it('gives up after the timeout', async () => {
    api.mode = 'delay';
    const { c, count } = counter({ timeoutMs: 200 });
    expect(await count('slow', { ...body, system: 'slow' }, 'claude-sonnet-4-6')).toEqual({ kind: 'failed', reason: 'timed out' });
    c.dispose();
  });

  it('on 429 waits for retry-after, then counts', async () => {
    api.mode = '429';
    const { c, count, settled } = counter();
    const b = { ...body, system: 'busy' };
    const first = await count('busy', b, 'claude-sonnet-4-6');
    expect(first).toEqual({ kind: 'failed', reason: 'rate limited by the API (429), retrying in 1 s' });
    api.mode = 'ok';
    const before = api.seen.length;
    const t0 = Date.now();
    // Each answer (the wait, then the retried count) asks for a refresh; the lens asks again.
    let state = c.state('busy', b, 'claude-sonnet-4-6');
    for (let i = 0; i < 5 && state.kind !== 'counted'; i++) {
      await settled();
      state = c.state('busy', b, 'claude-sonnet-4-6');
    }
    expect(state).toEqual({ kind: 'counted', tokens: 1234 });
    expect(api.seen.length).toBe(before + 1);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(500);
    c.dispose();
  });

  it('says what to do without a key and sends nothing', async () => {
    const { c } = counter({ key: undefined });
    const before = api.seen.length;
    expect(c.state('k', body, 'claude-sonnet-4-6')).toEqual({ kind: 'failed', reason: "no API key (run 'prefixlint: Set API Key')" });
    expect(api.seen.length).toBe(before);
    c.dispose();
  });
});

describe('exact mode in the language server', () => {
  it('shows the exact count in the lens, the fallback reason on errors, and nothing in untrusted workspaces', async () => {
    const up = new PassThrough();
    const down = new PassThrough();
    const serverConn = createConnection(ProposedFeatures.all, new StreamMessageReader(up), new StreamMessageWriter(down));
    const server = startServer(serverConn, { debounceMs: 0, env: { ANTHROPIC_API_KEY: KEY }, exact: { baseURL: api.baseURL, debounceMs: 20, timeoutMs: 2_000, retryFailedAfterMs: 60_000 } });
    serverConn.listen();
    const conn = createProtocolConnection(new StreamMessageReader(down), new StreamMessageWriter(up));
    let settings: Record<string, unknown> = { tokens: { mode: 'exact' } };
    let refreshed: (() => void) | undefined;
    conn.onRequest('workspace/configuration', (p: { items: unknown[] }) => p.items.map(() => settings));
    conn.onRequest('workspace/codeLens/refresh', () => {
      refreshed?.();
      return null;
    });
    conn.onRequest('workspace/diagnostic/refresh', () => null);
    conn.onNotification('window/logMessage', (p: { message: string }) => void logs.push(p.message));
    conn.onNotification('prefixlint/status', () => undefined);
    conn.listen();
    await conn.sendRequest('initialize', {
      processId: process.pid,
      rootUri: null,
      capabilities: { workspace: { configuration: true, codeLens: { refreshSupport: true } } },
      // As the VS Code client: the lens opens the breakdown in its markdown view.
      initializationOptions: { trusted: true, clientCommands: ['prefixlint.showDocumentation', 'prefixlint.showMarkdown'] },
    });
    await conn.sendNotification('initialized', {});
    const file = path.join(FIXTURES, 'volatile-system-prompt', 'bad.py');
    const uri = pathToFileURL(file).toString();
    await conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'python', version: 1, text: fs.readFileSync(file, 'utf8') } });
    const titles = async () => {
      const lenses: CodeLens[] = await conn.sendRequest('textDocument/codeLens', { textDocument: { uri } });
      const resolved = await Promise.all(lenses.map((l) => conn.sendRequest('codeLens/resolve', l) as Promise<CodeLens>));
      return resolved.map((l) => `${l.command!.title}\n${JSON.stringify(l.command!.arguments)}`);
    };
    /** Titles after the server has settled every count it started. */
    const settledTitles = async () => {
      for (let i = 0; i < 10; i++) {
        const t = await titles();
        if (!t.some((x) => x.includes('counting exactly…'))) return t;
        await new Promise<void>((resolve) => (refreshed = resolve));
      }
      throw new Error('counts never settled');
    };

    api.tokens = 4321;
    const exact = await settledTitles();
    expect(exact[0]).toMatch(/^4,321 tokens \(exact[^)]*\); ≈ tools \d+ · system [\d,]+ · messages [\d,]+ \| /);
    expect(exact[0]).toContain('**Exact count (count_tokens): 4,321 tokens.**');

    api.mode = '401';
    settings = { tokens: { mode: 'exact', model: 'claude-opus-4-7' } };
    await conn.sendNotification('workspace/didChangeConfiguration', { settings: null });
    const failed = await settledTitles();
    expect(failed[0]).toMatch(/^≈ [\d,]+\+? tokens: .* \| exact count unavailable: the API key was rejected \(401\)\n/);

    await conn.sendNotification('prefixlint/setTrust', { trusted: false });
    const untrusted = await titles();
    expect(untrusted[0]).toMatch(/\| exact count unavailable: off in untrusted workspaces\n/);

    for (const t of [...exact, ...failed, ...untrusted]) expect(t).not.toContain(KEY);
    await conn.sendRequest('shutdown');
    server.dispose();
    conn.dispose();
  });
});
