/**
 * Exact token counts through `count_tokens` with the official SDK, for the CodeLens: opt-in,
 * debounced per call site, at most N requests per minute, cached by (request hash, model).
 * Nothing here blocks a lens: `state()` answers at once from the cache (or "counting") and
 * schedules a count; `onSettled` fires when an answer arrives so the lenses can be refreshed.
 * The API key is passed in by the caller, never stored in settings, and never logged.
 */
import { createHash } from 'node:crypto';
import type Anthropic from '@anthropic-ai/sdk';

type Sdk = typeof import('@anthropic-ai/sdk').default;

/**
 * The SDK, loaded for the first count: most sessions never count exactly, and loading it was
 * half of the language server's start-up.
 */
let sdkLoaded: Promise<Sdk> | undefined;
const loadSdk = (): Promise<Sdk> => (sdkLoaded ??= import('@anthropic-ai/sdk').then((m) => m.default));

export type ExactState =
  | { kind: 'counted'; tokens: number }
  | { kind: 'pending' }
  | { kind: 'failed'; reason: string };

export interface ExactOptions {
  /** The key from secret storage or ANTHROPIC_API_KEY; undefined when there is none. */
  apiKey(): string | undefined;
  requestsPerMinute(): number;
  /** Defaults to the SDK's (ANTHROPIC_BASE_URL, then the public API). */
  baseURL?: string;
  debounceMs?: number;
  timeoutMs?: number;
  /** How long a failed answer stands before a new request is tried. */
  retryFailedAfterMs?: number;
  log(message: string): void;
  /** A count finished (or failed): refresh what shows it. */
  onSettled(): void;
}

/** Fields the count_tokens endpoint takes; everything else is create-only and is left out. */
const GA_FIELDS = new Set(['model', 'messages', 'system', 'tools', 'tool_choice', 'thinking', 'cache_control', 'output_config']);
const BETA_FIELDS = new Set([...GA_FIELDS, 'context_management', 'mcp_servers', 'output_format', 'speed', 'betas']);

interface Entry {
  state: ExactState;
  at: number;
}

interface Job {
  key: string;
  body: Record<string, unknown>;
  beta: boolean;
  timer?: ReturnType<typeof setTimeout>;
}

export class ExactCounter {
  private readonly cache = new Map<string, Entry>();
  /** The latest request per call site, waiting for its debounce to pass. */
  private readonly jobs = new Map<string, Job>();
  private readonly sent: number[] = [];
  private blockedUntil = 0;
  private retryTimer?: ReturnType<typeof setTimeout>;
  private client?: { key: string; sdk: Anthropic };
  private disposed = false;
  /** Requests sent, for tests and the log. */
  requests = 0;

  constructor(private readonly opts: ExactOptions) {}

  /** The cache key of a request body and model. */
  static keyOf(body: unknown, model: string): string {
    return createHash('sha256').update(stableJson(body)).update('\0').update(model).digest('hex');
  }

  /**
   * What to show for a call site now. Schedules a count (debounced per site) when the answer
   * is not cached yet; a failed answer is retried after a while.
   */
  state(site: string, body: Record<string, unknown>, model: string, beta = false): ExactState {
    const payload = strip({ ...body, model }, beta ? BETA_FIELDS : GA_FIELDS);
    const key = ExactCounter.keyOf(payload, model);
    const hit = this.cache.get(key);
    const retryAfter = this.opts.retryFailedAfterMs ?? 30_000;
    if (hit && (hit.state.kind !== 'failed' || Date.now() - hit.at < retryAfter)) return hit.state;
    if (!this.opts.apiKey()) return { kind: 'failed', reason: "no API key (run 'prefixlint: Set API Key')" };
    this.schedule(site, { key, body: payload, beta });
    return hit?.state.kind === 'failed' ? hit.state : { kind: 'pending' };
  }

  /** Forgets every answer (after the key changed). */
  clear(): void {
    this.cache.clear();
    this.client = undefined;
  }

  dispose(): void {
    this.disposed = true;
    for (const j of this.jobs.values()) clearTimeout(j.timer);
    this.jobs.clear();
    clearTimeout(this.retryTimer);
  }

  private schedule(site: string, job: Job): void {
    const current = this.jobs.get(site);
    if (current?.key === job.key) return;
    if (current) clearTimeout(current.timer);
    job.timer = setTimeout(() => void this.run(site, job), this.opts.debounceMs ?? 750);
    this.jobs.set(site, job);
  }

  private sdk(Sdk: Sdk, key: string): Anthropic {
    if (this.client?.key !== key) {
      this.client = {
        key,
        sdk: new Sdk({
          apiKey: key,
          authToken: null,
          baseURL: this.opts.baseURL,
          maxRetries: 0,
          timeout: this.opts.timeoutMs ?? 10_000,
          logLevel: 'off',
        }),
      };
    }
    return this.client.sdk;
  }

  private async run(site: string, job: Job): Promise<void> {
    if (this.disposed || this.jobs.get(site) !== job) return;
    const Sdk = await loadSdk();
    if (this.disposed || this.jobs.get(site) !== job) return;
    const now = Date.now();
    while (this.sent.length && now - this.sent[0] >= 60_000) this.sent.shift();
    const limit = this.opts.requestsPerMinute();
    const wait = Math.max(this.blockedUntil - now, this.sent.length >= limit ? this.sent[0] + 60_000 - now : 0);
    if (wait > 0) {
      const reason = this.blockedUntil > now ? `rate limited by the API, retrying in ${Math.ceil(wait / 1000)} s` : `over ${limit} requests per minute, retrying in ${Math.ceil(wait / 1000)} s`;
      this.settle(job.key, { kind: 'failed', reason }, 0);
      job.timer = setTimeout(() => void this.run(site, job), wait);
      return;
    }
    this.jobs.delete(site);
    const key = this.opts.apiKey();
    if (!key) return;
    this.sent.push(now);
    this.requests++;
    const model = String(job.body.model);
    try {
      const client = this.sdk(Sdk, key);
      // The SDK's parameter types are stricter than a statically recovered body: the server validates.
      const params = job.body as never;
      const answer: unknown = job.beta ? await client.beta.messages.countTokens(params) : await client.messages.countTokens(params);
      const tokens = (answer as { input_tokens?: unknown } | undefined)?.input_tokens;
      if (typeof tokens !== 'number' || !Number.isFinite(tokens)) throw new BadAnswer();
      this.log(`count_tokens: ${tokens} tokens for ${model} (${Date.now() - now} ms)`);
      this.settle(job.key, { kind: 'counted', tokens });
    } catch (err) {
      const reason = describeFailure(Sdk, err);
      if (err instanceof Sdk.RateLimitError) {
        const seconds = retryAfterSeconds(err.headers);
        this.blockedUntil = Date.now() + seconds * 1000;
        this.settle(job.key, { kind: 'failed', reason: `rate limited by the API (429), retrying in ${seconds} s` }, 0);
        clearTimeout(this.retryTimer);
        this.retryTimer = setTimeout(() => this.opts.onSettled(), seconds * 1000);
      } else {
        this.settle(job.key, { kind: 'failed', reason });
      }
      this.log(`count_tokens failed for ${model}: ${reason}`);
    }
  }

  private settle(key: string, state: ExactState, at = Date.now()): void {
    if (this.disposed) return;
    this.cache.set(key, { state, at });
    this.opts.onSettled();
  }

  private log(message: string): void {
    const key = this.opts.apiKey();
    this.opts.log(key ? message.split(key).join('***') : message);
  }
}

class BadAnswer extends Error {}

function describeFailure(Anthropic: Sdk, err: unknown): string {
  if (err instanceof BadAnswer || err instanceof SyntaxError) return 'the API sent an answer that is not a token count';
  if (err instanceof Anthropic.APIConnectionTimeoutError) return 'timed out';
  if (err instanceof Anthropic.APIConnectionError) return 'cannot reach the API';
  if (err instanceof Anthropic.AuthenticationError) return 'the API key was rejected (401)';
  if (err instanceof Anthropic.PermissionDeniedError) return 'the API key may not count tokens (403)';
  if (err instanceof Anthropic.BadRequestError) return `the request was rejected (400): ${firstLine(apiMessage(err))}`;
  if (err instanceof Anthropic.APIError && typeof err.status === 'number' && err.status >= 500) return `the API failed (${err.status})`;
  if (err instanceof Anthropic.APIError) return `the API answered ${err.status ?? 'with an error'}`;
  return 'the API sent an answer that is not a token count';
}

function apiMessage(err: InstanceType<typeof Anthropic.APIError>): string {
  const e = err.error as { error?: { message?: unknown } } | undefined;
  return typeof e?.error?.message === 'string' ? e.error.message : 'invalid request';
}

function firstLine(s: string): string {
  const line = s.split('\n')[0];
  return line.length > 120 ? line.slice(0, 119) + '…' : line;
}

function retryAfterSeconds(headers: Headers | undefined): number {
  const raw = headers?.get('retry-after');
  const n = raw ? Number(raw) : NaN;
  if (Number.isFinite(n) && n >= 0) return Math.min(Math.ceil(n), 600);
  const date = raw ? Date.parse(raw) : NaN;
  if (Number.isFinite(date)) return Math.min(Math.max(0, Math.ceil((date - Date.now()) / 1000)), 600);
  return 30;
}

function strip(body: Record<string, unknown>, allowed: ReadonlySet<string>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([k]) => allowed.has(k)));
}

/** JSON with object keys sorted, so that equal bodies hash equally. */
function stableJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableJson).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}
