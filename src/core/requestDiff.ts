/**
 * Compares two dumped Messages API request bodies the way the prompt cache sees them: the
 * first differing byte in render order (tools → system → messages), the JSON path of the
 * block it is in, whether it lies inside the prefix that the first request cached (up to its
 * last cache_control marker, or all of it with a top-level cache_control), and roughly how many
 * of those cached tokens the second request can no longer read. The first dump is the earlier
 * request. Used by `prefixlint diff` and the editor command.
 *
 * Each body is rendered canonically, so formatting does not count: every block (a tool, a
 * system block, a message's role, each content block) as compact JSON without its
 * `cache_control` (a marker is not part of the cached bytes; moving it is how a conversation
 * grows). A plain-string `system` or message `content` is the one text block it stands for.
 * Key order is compared (it is a cache breaker, e.g. inside `tool_use` input), except when a
 * dump has every object's keys sorted (`json.dumps(..., sort_keys=True)`): its original order
 * is lost, so both are compared with sorted keys.
 *
 * A changed model misses everything; a changed `tool_choice`, `thinking`, `output_config`,
 * `output_format` or `context_management` misses from the first message on, a changed `speed`
 * from the system prompt on (see the API facts, "What invalidates the cache").
 */
import type { KnownNames } from './knownNames';
import { loadKnownNames, modelInfo } from './knownNames';
import { textTokens } from './tokens';

export interface DumpInput {
  /** The dump's text (JSON). */
  text: string;
  /** How to call it in messages (a file name). */
  name: string;
}

type Section = 'tools' | 'system' | 'messages';

interface Piece {
  section: Section;
  path: string;
  value: unknown;
  text: string;
  /** The block carries a cache_control marker. */
  marked: boolean;
}

interface Rendered {
  name: string;
  body: Record<string, unknown>;
  pieces: Piece[];
  /** Where each piece starts in the joined text (UTF-16). */
  starts: number[];
  text: string;
  automatic: boolean;
}

export interface DiffPoint {
  /** UTF-8 byte offset of the first difference in the canonical rendering. */
  byte: number;
  /** The block it is in: `tools[1]`, `system[0]`, `messages[3].content[0]`, or a parameter (`model`). */
  path: string;
  /** The block in the second dump, when it is another one (a block was added or removed). */
  pathB?: string;
  /** The innermost JSON path where the two differ (`tools[1].input_schema.properties.q.enum[0]`). */
  detail: string;
  /** Bytes into the block. */
  offsetInBlock: number;
  /** What differs: the rendered bytes, the model, or a parameter that invalidates part of the cache. */
  reason: 'content' | 'model' | 'parameter';
  /** Around the difference in each dump (one line each). */
  before: string;
  after: string;
}

export interface RequestDiff {
  a: string;
  b: string;
  keyOrder: 'compared' | 'ignored';
  /** Set when key order is ignored: the dump with sorted keys. */
  sortedDump?: string;
  /** The first difference, or undefined when tools, system, messages and the cache-relevant parameters are the same. */
  difference?: DiffPoint;
  /** The first dump's last block with a cache_control marker: where what it cached ends. */
  lastBreakpoint?: string;
  /** The first dump has a top-level `cache_control` (automatic caching): all of it is cached. */
  automatic: boolean;
  /** The difference lies inside what the first request cached: the second cannot read it from there on. */
  breaksCache: boolean;
  /** Estimated tokens of the first request's cached prefix from the difference on: no longer read. */
  tokensLost: number;
  /** Estimated tokens from the difference to the end of the second dump. */
  tokensAfter: number;
  /** Other top-level parameters that differ but do not change the cached bytes (max_tokens, betas, ...). */
  otherChanges: string[];
}

/** Parameters whose change invalidates the cache from a section on. */
const INVALIDATES: Record<string, Section> = {
  tool_choice: 'messages',
  thinking: 'messages',
  output_config: 'messages',
  output_format: 'messages',
  context_management: 'messages',
  speed: 'system',
};
const RENDERED = new Set(['tools', 'system', 'messages', 'model', 'cache_control', ...Object.keys(INVALIDATES)]);
const WRAPPERS = ['params', 'body', 'request', 'json_data', 'json'];

export function diffRequests(a: DumpInput, b: DumpInput, known: KnownNames = loadKnownNames()): RequestDiff | { error: string } {
  const readA = readBody(a);
  if ('error' in readA) return readA;
  const readB = readBody(b);
  if ('error' in readB) return readB;
  const bodyA = readA.body;
  const bodyB = readB.body;
  const sorted = [a.name, b.name].find((_, i) => keysSorted([bodyA, bodyB][i]));
  const sortKeys = sorted !== undefined;
  const ra = render(a.name, bodyA, sortKeys);
  const rb = render(b.name, bodyB, sortKeys);
  const model = typeof bodyB.model === 'string' ? bodyB.model : typeof bodyA.model === 'string' ? bodyA.model : undefined;
  const tokenizer = (model && modelInfo(known, model)?.tokenizer) || 1;

  const result: RequestDiff = {
    a: a.name,
    b: b.name,
    keyOrder: sortKeys ? 'ignored' : 'compared',
    ...(sorted ? { sortedDump: sorted } : {}),
    automatic: ra.automatic,
    breaksCache: false,
    tokensLost: 0,
    tokensAfter: 0,
    otherChanges: [...new Set([...Object.keys(bodyA), ...Object.keys(bodyB)])].filter((k) => !RENDERED.has(k) && canon(bodyA[k], true) !== canon(bodyB[k], true)).sort(),
  };
  // What the first request cached: up to its last marked block, or all of it with automatic caching.
  const lastMarkedA = lastIndex(ra.pieces, (p) => p.marked);
  const prefixEnd = ra.automatic ? ra.text.length : lastMarkedA >= 0 ? ra.starts[lastMarkedA] + ra.pieces[lastMarkedA].text.length : 0;
  if (!ra.automatic && lastMarkedA >= 0) result.lastBreakpoint = ra.pieces[lastMarkedA].path;

  // The first difference: the model, then the rendered bytes, then parameters that invalidate from a section on.
  let at: number;
  let reason: DiffPoint['reason'] = 'content';
  let param: string | undefined;
  if (canon(bodyA.model, true) !== canon(bodyB.model, true)) {
    at = 0;
    reason = 'model';
    param = 'model';
  } else {
    at = firstDifference(ra.text, rb.text);
    for (const [name, section] of Object.entries(INVALIDATES)) {
      if (canon(bodyA[name], sortKeys) === canon(bodyB[name], sortKeys)) continue;
      const from = sectionStart(rb, section);
      if (at < 0 || from < at) {
        at = from;
        reason = 'parameter';
        param = name;
      }
    }
  }
  if (at < 0) return result;

  const ia = pieceAt(ra, at);
  const ib = pieceAt(rb, at);
  const pa = ra.pieces[ia];
  const pb = rb.pieces[ib];
  const blockPath = param ?? pa?.path ?? pb?.path ?? '(end)';
  result.difference = {
    byte: utf8Length(rb.text.slice(0, at)),
    path: blockPath,
    ...(!param && pa && pb && pa.path !== pb.path ? { pathB: pb.path } : {}),
    detail: param ?? (pa && pb && pa.path === pb.path ? detailPath(pa.value, pb.value, pa.path, sortKeys) : blockPath),
    offsetInBlock: pa || pb ? utf8Length((pa ?? pb).text.slice(0, at - (pa ? ra.starts[ia] : rb.starts[ib]))) : 0,
    reason,
    before: snippet(ra.text, at, param ? canon(bodyA[param], sortKeys) : undefined),
    after: snippet(rb.text, at, param ? canon(bodyB[param], sortKeys) : undefined),
  };

  result.breaksCache = at < prefixEnd;
  result.tokensLost = result.breaksCache ? textTokens(ra.text.slice(at, prefixEnd), tokenizer) : 0;
  result.tokensAfter = textTokens(rb.text.slice(at), tokenizer);
  return result;
}

function readBody(input: DumpInput): { body: Record<string, unknown> } | { error: string } {
  let value: unknown;
  try {
    value = JSON.parse(input.text);
  } catch (err) {
    return { error: `${input.name}: not valid JSON (${err instanceof Error ? err.message : String(err)})` };
  }
  if (!isObject(value)) return { error: `${input.name}: not a JSON object` };
  let body = value;
  // A dump may wrap the body: a batch request's `params`, a logged request's `body` or `json_data`.
  if (!('messages' in body)) {
    const inner = WRAPPERS.map((k) => body[k]).find((v) => isObject(v) && 'messages' in v);
    if (isObject(inner)) body = inner;
  }
  if (isObject(body.extra_body)) body = { ...body, ...body.extra_body };
  if (!('messages' in body) && !('system' in body) && !('tools' in body)) {
    return { error: `${input.name}: not a Messages API request body (no "messages", "system" or "tools")` };
  }
  return { body };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** True when every object in the value has its keys in sorted order (and at least one has two keys). */
function keysSorted(v: unknown): boolean {
  let multi = false;
  const ok = (x: unknown): boolean => {
    if (Array.isArray(x)) return x.every(ok);
    if (!isObject(x)) return true;
    const keys = Object.keys(x);
    if (keys.length > 1) multi = true;
    for (let i = 1; i < keys.length; i++) if (keys[i - 1] > keys[i]) return false;
    return keys.every((k) => ok(x[k]));
  };
  return ok(v) && multi;
}

/** Compact JSON; keys sorted when asked. */
function canon(v: unknown, sortKeys: boolean): string {
  if (v === undefined) return '';
  return JSON.stringify(v, sortKeys ? (_k, x: unknown) => (isObject(x) ? Object.fromEntries(Object.keys(x).sort().map((k) => [k, x[k]])) : x) : undefined) ?? '';
}

function withoutMarker(v: unknown): { value: unknown; marked: boolean } {
  if (!isObject(v) || !('cache_control' in v)) return { value: v, marked: false };
  const { cache_control: cc, ...rest } = v;
  return { value: rest, marked: cc !== null && cc !== undefined };
}

function textBlocks(v: unknown): unknown[] {
  return typeof v === 'string' ? [{ type: 'text', text: v }] : Array.isArray(v) ? v : v === undefined || v === null ? [] : [v];
}

function render(name: string, body: Record<string, unknown>, sortKeys: boolean): Rendered {
  const pieces: Piece[] = [];
  const add = (section: Section, path: string, raw: unknown) => {
    const { value, marked } = withoutMarker(raw);
    pieces.push({ section, path, value, text: canon(value, sortKeys), marked });
  };
  (Array.isArray(body.tools) ? body.tools : []).forEach((t, i) => add('tools', `tools[${i}]`, t));
  textBlocks(body.system).forEach((s, i) => add('system', `system[${i}]`, s));
  (Array.isArray(body.messages) ? body.messages : []).forEach((m, i) => {
    if (!isObject(m)) {
      add('messages', `messages[${i}]`, m);
      return;
    }
    const { content, ...head } = m;
    add('messages', `messages[${i}]`, head);
    textBlocks(content).forEach((c, j) => add('messages', `messages[${i}].content[${j}]`, c));
  });
  const starts: number[] = [];
  let text = '';
  for (const p of pieces) {
    starts.push(text.length);
    text += p.text;
  }
  return { name, body, pieces, starts, text, automatic: isObject(body.cache_control) };
}

function firstDifference(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a.charCodeAt(i) !== b.charCodeAt(i)) return i;
  return a.length === b.length ? -1 : n;
}

/** The piece a text offset falls in (-1 past the end). */
function pieceAt(r: Rendered, at: number): number {
  for (let i = r.pieces.length - 1; i >= 0; i--) if (r.starts[i] <= at && at < r.starts[i] + r.pieces[i].text.length) return i;
  return -1;
}

function sectionStart(r: Rendered, section: Section): number {
  const order: Section[] = ['tools', 'system', 'messages'];
  const i = r.pieces.findIndex((p) => order.indexOf(p.section) >= order.indexOf(section));
  return i < 0 ? r.text.length : r.starts[i];
}

function lastIndex<T>(list: readonly T[], test: (x: T) => boolean): number {
  for (let i = list.length - 1; i >= 0; i--) if (test(list[i])) return i;
  return -1;
}

/** The innermost path where two values differ. */
function detailPath(a: unknown, b: unknown, path: string, sortKeys: boolean): string {
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      if (canon(a[i], sortKeys) !== canon(b[i], sortKeys)) return detailPath(a[i], b[i], `${path}[${i}]`, sortKeys);
    }
    return path;
  }
  if (isObject(a) && isObject(b)) {
    const ka = sortKeys ? Object.keys(a).sort() : Object.keys(a);
    const kb = sortKeys ? Object.keys(b).sort() : Object.keys(b);
    for (let i = 0; i < Math.min(ka.length, kb.length); i++) {
      if (ka[i] !== kb[i]) return path;
      if (canon(a[ka[i]], sortKeys) !== canon(b[kb[i]], sortKeys)) return detailPath(a[ka[i]], b[kb[i]], `${path}.${ka[i]}`, sortKeys);
    }
    return path;
  }
  return path;
}

function utf8Length(s: string): number {
  return new TextEncoder().encode(s).length;
}

/** Up to 30 characters either side of a position, on one line; or a parameter's value. */
function snippet(text: string, at: number, param?: string): string {
  if (param !== undefined) return param === '' ? '(not set)' : param.length > 70 ? param.slice(0, 69) + '…' : param;
  const from = Math.max(0, at - 30);
  const to = Math.min(text.length, at + 30);
  return (from > 0 ? '…' : '') + text.slice(from, to) + (to < text.length ? '…' : '');
}
