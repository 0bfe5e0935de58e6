/**
 * Finds the calls that build Messages API requests in a file and builds the request model
 * for each: `messages.create/stream/parse/count_tokens`, their `beta.` forms, raw-response
 * wrappers, batches (`requests[].params`) and tool runners.
 */
import type { RequestCall, RequestMethod } from '../core/model';
import type { ObjValue, Value } from '../core/value';
import { getEntry } from '../core/value';
import type { Env, Evaluator } from './evaluate';
import type { Node } from './parsers';
import { anyFrameworkNamed, findFrameworkCalls } from './frameworks';
import { ANY_WORDS } from '../core/literals';
import type { HeldWords } from '../core/literals';
import type { FileUnit } from './workspace';
import type { RequestReuse } from './requestReuse';

// A Map, not an object: a name such as `constructor` or `toString` is no method of the SDK.
const METHODS = new Map<string, RequestMethod>([
  ['create', 'create'],
  ['stream', 'stream'],
  ['parse', 'parse'],
  ['count_tokens', 'count_tokens'],
  ['countTokens', 'count_tokens'],
  ['tool_runner', 'tool_runner'],
  ['toolRunner', 'tool_runner'],
]);

const WRAPPERS = new Set(['with_raw_response', 'with_streaming_response']);

interface CalleeShape {
  method: RequestMethod;
  beta: boolean;
  /** The expression the `.messages` (or `.beta`) chain hangs off: the client. */
  receiver?: Node;
}

/** Whether a callee has the shape of an SDK request method (`client.messages.create`, `client.beta.messages.stream`). */
export function isRequestCallee(unit: FileUnit, callee: Node): boolean {
  return !!calleeShape(unit, callee);
}

/** `client.beta.messages.with_raw_response.create` -> create, beta, receiver `client`. */
function calleeShape(unit: FileUnit, callee: Node): CalleeShape | undefined {
  // Most calls of a file end in another name: told from the outermost segment alone, before
  // the chain is collected (this runs for every call of the file on each analysis).
  let outer = unit.adapter.expr(callee);
  while (outer.k === 'wrap') outer = unit.adapter.expr(outer.inner);
  if (outer.k !== 'member' || !METHODS.has(outer.prop)) return undefined;
  const segments: string[] = [];
  const objects: Node[] = [];
  let n: Node | undefined = callee;
  while (n) {
    const e = unit.adapter.expr(n);
    if (e.k === 'member') {
      segments.unshift(e.prop);
      objects.unshift(e.object);
      n = e.object;
    } else if (e.k === 'wrap') {
      n = e.inner;
    } else break;
  }
  let j = segments.length - 1;
  const skipWrappers = () => {
    while (j >= 0 && WRAPPERS.has(segments[j])) j--;
  };
  const last = segments[j];
  let method: RequestMethod | undefined = METHODS.get(last);
  if (!method) return undefined;
  j--;
  skipWrappers();
  if (last === 'create' && segments[j] === 'batches') {
    method = 'batch';
    j--;
  }
  skipWrappers();
  if (segments[j] !== 'messages') return undefined;
  j--;
  if (segments[j] === 'prompt_caching' || segments[j] === 'promptCaching') j--;
  let beta = false;
  if (segments[j] === 'beta') {
    beta = true;
    j--;
  }
  // The client: the object of the earliest segment that belongs to the pattern.
  return { method, beta, receiver: objects[j + 1] };
}

/** A header's value in a headers dict/object; header names are case-insensitive. */
function headerValue(headers: Value | undefined, name: string): Value | undefined {
  if (headers?.kind !== 'obj') return undefined;
  for (let i = headers.entries.length - 1; i >= 0; i--) if (headers.entries[i].key.toLowerCase() === name) return headers.entries[i].value;
  return undefined;
}

function isAnthropicName(name: string): boolean {
  return /^anthropic(\.|$)/.test(name) || name.startsWith('@anthropic-ai/');
}

/**
 * What may stand between two segments of a callee chain: space, a line continuation, a comment,
 * and the wrappers calleeShape looks through (`)`, `!`, `as T)`, `satisfies T)`).
 *
 * Each part matches a stretch of text in one way only (a line comment runs to the end of its
 * line, a block comment to its first `*\/`): with parts that could split a run of `#`, `/` or
 * comments several ways, a line like `messages //////…` took exponential time to fail.
 */
const CHAIN_GAP = String.raw`(?:\s|\\|!|\)|#[^\n]*(?=\n|$)|\/\/[^\n]*(?=\n|$)|\/\*(?:[^*]|\*(?!\/))*\*\/|\b(?:as|satisfies)\b[^)]*\))*`;
/**
 * The text of a callee that calleeShape accepts: a `messages` segment, then the wrapper and
 * `batches` segments it skips, then a method (`client.messages.create`,
 * `client.beta.messages.with_raw_response.create`, `(client.messages as M).stream`).
 */
const REQUEST_CHAIN = new RegExp(
  String.raw`\bmessages` + CHAIN_GAP + String.raw`\??\.\s*(?:(?:${[...WRAPPERS, 'batches'].join('|')})` + CHAIN_GAP + String.raw`\??\.\s*)*(?:${[...METHODS.keys()].join('|')})\b`,
);
/** A word of some framework in a text: only then is frameworksNamed asked which. */
export const FRAMEWORK_WORD = /langchain_anthropic|@langchain\/anthropic|\blitellm\b|@ai-sdk\/anthropic|\bcreate(?:React)?Agent\b|\bcreate(?:_react)?_agent\b|\bsmolagents\b|agno\.models\.anthropic|\b(?:import|from)\s+instructor\b/;
/**
 * A part that every alternative of FRAMEWORK_WORD contains, asked first. FRAMEWORK_WORD tries
 * each of its alternatives at every position of a text (none starts with a fixed character), the
 * most expensive pattern of the prefilter: 412 ms over the 178 MB of the real-code corpus, where
 * this takes 125 ms and leaves 36% of the files to it.
 */
export const FRAMEWORK_PART = /gent|anthropic|litellm|instructor/;

/**
 * False when the text cannot hold a request that findRequestCalls finds: an SDK call's callee
 * has the chain calleeShape reads (`messages` … method), a framework request names its package.
 * Most files of a repository build no request; they are then not parsed for the request rules.
 * `held`: the words the text holds, when a PatternGate has read them (a pattern none of whose
 * words are there is not run).
 */
export function mayHoldRequests(text: string, held: HeldWords = ANY_WORDS): boolean {
  return (held.mayMatch(REQUEST_CHAIN) && REQUEST_CHAIN.test(text)) || (held.mayMatch(FRAMEWORK_WORD) && FRAMEWORK_PART.test(text) && FRAMEWORK_WORD.test(text) && anyFrameworkNamed(text));
}

/** False when a text that holds only the words `held` cannot hold a request (mayHoldRequests of it is false). */
export function wordsMayHoldRequests(held: HeldWords): boolean {
  return held.mayMatch(REQUEST_CHAIN) || held.mayMatch(FRAMEWORK_WORD);
}

/** The patterns whose words mayHoldRequests asks a PatternGate about. */
export const REQUEST_WORD_PATTERNS: readonly RegExp[] = [REQUEST_CHAIN, FRAMEWORK_WORD];

/**
 * False when the text cannot hold an SDK request call (the chain calleeShape reads). The search
 * for requests that values passed from other files reach follows SDK calls only (reach.ts), so
 * it asks this of module and function texts, not mayHoldRequests: a framework's name in a text
 * (`case "litellm":` of a provider switch) is no request it could read.
 */
export function mayHoldSdkRequests(text: string): boolean {
  return REQUEST_CHAIN.test(text);
}

/**
 * The requests a file makes. `reuse`: the buffer's requests kept from its last analysis (an
 * editor's keystroke), taken for the calls the change cannot have affected (requestReuse.ts).
 */
export function findRequestCalls(unit: FileUnit, ev: Evaluator, reuse?: RequestReuse): RequestCall[] {
  const out: RequestCall[] = findFrameworkCalls(unit, ev);
  // A call a framework adapter read (`client.messages.create` on an instructor client) is that framework's request.
  const framed = new Set(out.map((c) => `${c.at.start}:${c.at.end}`));
  const budget = ev.budget;
  /** Places of kept requests already moved (values share places: a constant read by every request). */
  const moved = new Set<object>();
  for (const node of unit.calls) {
    // (Most files hold no framework call: no key is made for each of their calls.)
    if (framed.size && framed.has(`${node.startIndex}:${node.endIndex}`)) continue;
    // Only a call with a request's callee can be one (calleeShape reads the call's own text alone).
    const e = reuse ? unit.adapter.expr(node) : undefined;
    const shaped = e?.k === 'call' && calleeShape(unit, e.callee) !== undefined;
    const kept = shaped ? reuse!.reuse(node, budget, moved) : undefined;
    if (kept) {
      out.push(...kept);
      continue;
    }
    const steps = budget.steps;
    const cuts = budget.cuts;
    const calls = sdkRequests(unit, ev, node);
    if (shaped) reuse!.keep(node, calls, budget.steps - steps, budget.cuts === cuts && !budget.hit);
    out.push(...calls);
  }
  return out.filter((c) => !inMockedTest(unit, unit.tree.rootNode.descendantForIndex(c.at.start, Math.max(c.at.start, c.at.end - 1))));
}

/** Code of a test function that replaces the client (see replacesClient): what it sends never reaches the API. */
export function inMockedTest(unit: FileUnit, node: Node | null): boolean {
  return unit.frontEnd.modules.isTestFile(unit.file) && MOCK_WORD.test(unit.text) && replacesClient(unit, node);
}

/**
 * The request (or, for a batch, the requests) an SDK call at `node` makes; none when it is not
 * one. `env`: the names bound where the call runs, when it is read for one instance of the
 * class whose method makes it (see constructedRequests), or with the parameters of the function
 * around it bound to what a caller passes (see reach.ts).
 */
export function sdkRequests(unit: FileUnit, ev: Evaluator, node: Node, env?: Env): RequestCall[] {
  const e = unit.adapter.expr(node);
  if (e.k !== 'call') return [];
  const shape = calleeShape(unit, e.callee);
  if (!shape) return [];
  const client = shape.receiver ? ev.eval(unit, shape.receiver, env) : undefined;
  const cref = ev.refOf(client);
  const clientName = cref?.kind === 'external-instance' ? cref.name : undefined;
  if (clientName && !isAnthropicName(clientName)) return [];
  if (!clientName && !unit.importsAnthropic) return [];

  const { value: params, at: argsAt } = unit.frontEnd.calls.options(unit, ev, e.args, env);
  if (shape.method !== 'batch' && !looksLikeMessagesParams(params)) return [];

  const headerBetas: Value[] = [];
  let clientHeadersKnown = false;
  let apiVersionHeader: { value: Value; on: 'client' | 'call' } | undefined;
  let headersKnown = true;
  if (cref?.kind === 'external-instance') {
    clientHeadersKnown = true;
    const opts = cref.unit.frontEnd.calls.options(cref.unit, ev, cref.args, cref.env).value;
    const headers = getEntry(opts, 'default_headers') ?? getEntry(opts, 'defaultHeaders');
    if (headers) {
      const h = getEntry(headers, 'anthropic-beta');
      if (h) headerBetas.push(h);
      else if (headers.kind !== 'obj' || !headers.complete) clientHeadersKnown = false;
      const v = headerValue(headers, 'anthropic-version');
      if (v) apiVersionHeader = { value: v, on: 'client' };
      if (headers.kind !== 'obj' || !headers.complete) headersKnown = false;
    }
    if (opts.kind === 'obj' && !opts.complete) clientHeadersKnown = false;
  }
  if (!clientHeadersKnown) headersKnown = false;
  // Per-call headers: Python `extra_headers=`, TS second argument `{ headers: {...} }`.
  const extra = getEntry(params, 'extra_headers');
  if (extra) {
    const h = getEntry(extra, 'anthropic-beta');
    if (h) headerBetas.push(h);
    const v = headerValue(extra, 'anthropic-version');
    if (v) apiVersionHeader = { value: v, on: 'call' };
    if (extra.kind !== 'obj' || !extra.complete) headersKnown = false;
  }
  if (!params.complete) headersKnown = false;
  const callOptions = unit.frontEnd.calls.requestOptions?.(unit, ev, e.args, env);
  if (callOptions) {
    const callHeaders = getEntry(callOptions, 'headers');
    const h = getEntry(callHeaders, 'anthropic-beta');
    if (h) headerBetas.push(h);
    const v = headerValue(callHeaders, 'anthropic-version');
    if (v) apiVersionHeader = { value: v, on: 'call' };
    if (callOptions.kind !== 'obj' || !callOptions.complete || (callHeaders && (callHeaders.kind !== 'obj' || !callHeaders.complete))) headersKnown = false;
  }

  const base = {
    file: unit.file,
    language: unit.language,
    sdk: unit.frontEnd.sdk,
    at: unit.loc(node),
    callee: unit.loc(e.callee),
    calleeText: e.callee.text.replace(/\s+/g, ''),
    method: shape.method,
    beta: shape.beta,
    argsAt,
    headerBetas,
    clientHeadersKnown,
    ...(apiVersionHeader ? { apiVersionHeader } : {}),
    headersKnown,
    ...(clientName ? { client: clientName } : {}),
  };
  if (shape.method !== 'batch') return [{ ...base, params }];
  const requests = getEntry(params, 'requests');
  if (requests?.kind !== 'list') return [];
  const out: RequestCall[] = [];
  requests.items.forEach((r, batchIndex) => {
    const p = getEntry(r, 'params');
    if (p?.kind === 'obj') out.push({ ...base, params: p, batchIndex, argsAt: p.at });
  });
  return out;
}

const MOCK_WORD = /mock|patch/i;
/** What a test writes to replace a client: a mock class or factory, `patch(...)`, pytest-mock's `mocker`. */
const MOCKING = /\b(?:patch(?:\.object)?|MagicMock|AsyncMock|Mock|mocker\.\w+)\s*\(|\bvi\.mock\s*\(|\bjest\.mock\s*\(/;

/**
 * A request in a test function that replaces the client: the function (or one around it) takes
 * a fixture named for a mock, or mocks or patches something itself (`with patch(...)`,
 * `@patch(...)`, `MagicMock()`). Its requests never reach the API.
 */
function replacesClient(unit: FileUnit, node: Node | null): boolean {
  for (let fn = node ? unit.enclosingFunction(node) : undefined; fn && fn.id !== unit.tree.rootNode.id; fn = fn.parent ? unit.enclosingFunction(fn.parent) : undefined) {
    if (unit.adapter.params(fn).some((p) => /mock/i.test(p.name))) return true;
    if (MOCKING.test(fn.text) || unit.frontEnd.facts.functionContext(fn).decorators?.some((d) => MOCKING.test(d))) return true;
  }
  return false;
}

/** Parameters only the Messages API takes: a request of its own even when the rest comes in an unknown `**request`. */
const MESSAGES_ONLY_PARAMS = new Set(['betas', 'thinking', 'tool_choice', 'cache_control', 'context_management', 'mcp_servers', 'stop_sequences', 'output_config']);

/**
 * Guards against other libraries' `messages.create` (Twilio's takes `to`, `from_`, `body`): the
 * parameters a Messages API request is known by, or an unknown body (`**request`) with nothing
 * but parameters only the Messages API takes (`**request_data, betas=betas`).
 */
function looksLikeMessagesParams(params: ObjValue): boolean {
  const keys = new Set(params.entries.map((e) => e.key));
  if (keys.has('messages') || keys.has('model') || keys.has('max_tokens') || keys.has('system')) return true;
  return !params.complete && [...keys].every((k) => MESSAGES_ONLY_PARAMS.has(k));
}

