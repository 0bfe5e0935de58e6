/**
 * Offline token estimates for a request, and the statically known request body for the
 * exact count through `count_tokens`. Estimates are labelled as such wherever they are shown:
 * the real tokenizer is not public, so text is counted by characters per token, per tokenizer
 * generation (Claude Opus 4.7 and later produce about 30% more tokens for the same text).
 */
import type { KnownNames, ModelInfo } from './knownNames';
import { modelInfo } from './knownNames';
import type { RequestCall, Section } from './model';
import { param, prefixBlocks } from './model';
import type { Value } from './value';
import { getEntry, HOLE } from './value';

/** Characters per token for English prose and code with the first-generation tokenizer. */
const CHARS_PER_TOKEN = 3.6;
const NEWER_TOKENIZER_FACTOR = 1.3;
const MESSAGE_OVERHEAD = 4;
const BLOCK_OVERHEAD = 3;
/** Tokens of the hidden tool-use system prompt when the model's own figure is unknown. */
const DEFAULT_TOOL_PROMPT = { auto: 500, any: 600 };
/** An image of unknown size: the standard tier's cap. */
const IMAGE_TOKENS = 1568;

export interface BlockEstimate {
  section: Section;
  path: string;
  tokens: number;
  breakpoint: boolean;
  /** False when part of the block could not be resolved. */
  complete?: boolean;
  /** A tool's `name`, when it is known statically. */
  name?: string;
}

export interface TokenEstimate {
  model?: string;
  modelInfo?: ModelInfo;
  /** Tokens of the tools, the hidden tool-use system prompt included. */
  tools: number;
  /** Of `tools`: the tool-use system prompt the API adds whenever tools are sent. */
  toolPrompt: number;
  system: number;
  messages: number;
  total: number;
  /** Tokens up to and including the last cache breakpoint (0 when there is none). */
  prefix: number;
  breakpoints: number;
  minCacheable?: number;
  /** Whether the cached prefix reaches the model's minimum cacheable length. */
  reachesMinimum?: boolean;
  /** False when some part could not be resolved statically (counted as nothing). */
  complete: boolean;
  /**
   * True when everything up to the last breakpoint (the cached prefix, with the model) is
   * resolved, even if later parts such as the newest user message are not.
   */
  prefixComplete: boolean;
  /** Estimated dollars for one call with a cold cache (writes) and a warm one (reads). */
  costCold?: number;
  costWarm?: number;
  blocks: BlockEstimate[];
}

export function textTokens(text: string, tokenizer = 1): number {
  const visible = text.split(HOLE).join('');
  if (!visible.length) return 0;
  // Characters outside ASCII (CJK, Cyrillic, emoji) are about a token each, not a fraction.
  let wide = 0;
  for (const ch of visible) if (ch.charCodeAt(0) > 0x7f) wide++;
  const narrow = visible.length - wide;
  const base = narrow / CHARS_PER_TOKEN + wide;
  return Math.max(1, Math.round(tokenizer >= 2 ? base * NEWER_TOKENIZER_FACTOR : base));
}

function valueTokens(v: Value, tokenizer: number, state: { complete: boolean }): number {
  switch (v.kind) {
    case 'str':
      if (!v.complete) state.complete = false;
      return textTokens(v.text, tokenizer);
    case 'num':
    case 'bool':
      return 1;
    case 'null':
      return 0;
    case 'list':
      if (!v.complete) state.complete = false;
      return v.items.reduce((n, i) => n + valueTokens(i, tokenizer, state), 0);
    case 'obj': {
      if (!v.complete) state.complete = false;
      const type = getEntry(v, 'type');
      if (type?.kind === 'str' && type.text === 'image') return IMAGE_TOKENS;
      let n = 0;
      for (const e of v.entries) {
        if (e.key === 'cache_control' || e.key === 'type' || e.key === 'role') continue;
        n += valueTokens(e.value, tokenizer, state);
      }
      return n;
    }
    default:
      state.complete = false;
      return 0;
  }
}

/** Tool definitions are sent as JSON: count their serialised form. */
function toolTokens(tool: Value, tokenizer: number, state: { complete: boolean }): number {
  const { body, placeholders } = toJson(tool);
  if (placeholders.length) state.complete = false;
  return textTokens(JSON.stringify(body), tokenizer);
}

export function estimateRequest(call: RequestCall, known: KnownNames): TokenEstimate {
  const modelValue = param(call, 'model');
  const model = modelValue?.kind === 'str' && modelValue.complete ? modelValue.text : undefined;
  const info = model ? modelInfo(known, model) : undefined;
  const tokenizer = info?.tokenizer ?? 1;
  const state = { complete: call.params.complete && !!model };
  const blocks: BlockEstimate[] = [];
  const sums = { tools: 0, system: 0, messages: 0 };
  let lastMessage = '';
  for (const b of prefixBlocks(call)) {
    let tokens: number;
    const blockState = { complete: true };
    if (b.section === 'tools') tokens = toolTokens(b.value, tokenizer, blockState);
    else tokens = valueTokens(b.value, tokenizer, blockState) + BLOCK_OVERHEAD;
    if (!blockState.complete) state.complete = false;
    if (b.section === 'messages') {
      const message = b.path.replace(/\.content\[\d+\]$/, '');
      if (message !== lastMessage) tokens += MESSAGE_OVERHEAD;
      lastMessage = message;
    }
    sums[b.section] += tokens;
    const name = b.section === 'tools' ? getEntry(b.value, 'name') : undefined;
    blocks.push({ section: b.section, path: b.path, tokens, breakpoint: !!b.cacheControl, complete: blockState.complete, ...(name?.kind === 'str' && name.complete ? { name: name.text } : {}) });
  }
  let hiddenToolPrompt = 0;
  if (sums.tools > 0) {
    const choice = getEntry(param(call, 'tool_choice'), 'type');
    const forced = choice?.kind === 'str' && (choice.text === 'any' || choice.text === 'tool');
    const prompt = info?.toolPrompt ?? DEFAULT_TOOL_PROMPT;
    hiddenToolPrompt = forced ? prompt.any : prompt.auto;
    sums.tools += hiddenToolPrompt;
  }
  const total = sums.tools + sums.system + sums.messages;
  const topLevel = !!param(call, 'cache_control');
  let lastBreakpoint = -1;
  blocks.forEach((b, i) => {
    if (b.breakpoint) lastBreakpoint = i;
  });
  const breakpoints = blocks.filter((b) => b.breakpoint).length + (topLevel ? 1 : 0);
  // The automatic breakpoint sits on the last block; otherwise the last explicit marker ends the prefix.
  const upToLast = blocks.slice(0, lastBreakpoint + 1).reduce((n, b) => n + b.tokens, 0);
  const prefix = topLevel ? total : lastBreakpoint < 0 ? 0 : hiddenToolPrompt + upToLast;
  // A list that may hold more items than were seen (a spread history) hides blocks of the prefix.
  const order: Section[] = ['tools', 'system', 'messages'];
  const lastSection = lastBreakpoint >= 0 ? order.indexOf(blocks[lastBreakpoint].section) : -1;
  const partialList = order.some((sec, i) => {
    const v = param(call, sec);
    return i <= lastSection && v?.kind === 'list' && !v.complete;
  });
  const prefixComplete = !!model && call.params.complete && (topLevel ? state.complete : lastBreakpoint >= 0 && !partialList && blocks.slice(0, lastBreakpoint + 1).every((b) => b.complete !== false));
  const estimate: TokenEstimate = { model, modelInfo: info, ...sums, toolPrompt: hiddenToolPrompt, total, prefix, breakpoints, complete: state.complete, prefixComplete, blocks };
  if (info?.minCacheable !== undefined) {
    estimate.minCacheable = info.minCacheable;
    if (breakpoints > 0) estimate.reachesMinimum = prefix >= info.minCacheable;
  }
  // A model with two price bands bills the whole request at the long-prompt band above its threshold.
  const price = info?.longPrompt && total > info.longPrompt.threshold ? info.longPrompt : info?.price;
  if (price) {
    const perToken = (usdPerMTok: number) => usdPerMTok / 1_000_000;
    const cached = breakpoints > 0 && estimate.reachesMinimum ? prefix : 0;
    const rest = total - cached;
    estimate.costCold = cached * perToken(price.write5m) + rest * perToken(price.input);
    estimate.costWarm = cached * perToken(price.read) + rest * perToken(price.input);
  }
  return estimate;
}

export const PLACEHOLDER = '⟨unresolved⟩';

/**
 * The JSON form of a value as the SDK would send it; parts that cannot be resolved become
 * the visible placeholder, and their paths are listed.
 */
export function toJson(v: Value, path = '$', placeholders: string[] = []): { body: unknown; placeholders: string[] } {
  const walk = (x: Value, p: string): unknown => {
    switch (x.kind) {
      case 'str':
        if (!x.complete) placeholders.push(p);
        return x.text.split(HOLE).join(PLACEHOLDER);
      case 'num':
      case 'bool':
      case 'null':
        return x.value;
      case 'list':
        if (!x.complete) placeholders.push(`${p}[…]`);
        return x.items.map((i, n) => walk(i, `${p}[${n}]`));
      case 'obj': {
        if (!x.complete) placeholders.push(`${p}.…`);
        const out: Record<string, unknown> = {};
        for (const e of x.entries) out[e.key] = walk(e.value, `${p}.${e.key}`);
        return out;
      }
      default:
        placeholders.push(p);
        return PLACEHOLDER;
    }
  };
  return { body: walk(v, path), placeholders };
}

/** Fields count_tokens does not take (create-only). */
const CREATE_ONLY = new Set(['max_tokens', 'stream', 'temperature', 'top_p', 'top_k', 'metadata', 'stop_sequences', 'service_tier', 'container', 'extra_headers', 'extra_query', 'extra_body', 'timeout', 'betas']);

/** The statically known body of a count_tokens request for this call. */
export function requestJson(call: RequestCall): { body: Record<string, unknown>; placeholders: string[] } {
  const placeholders: string[] = [];
  const body: Record<string, unknown> = {};
  for (const e of call.params.entries) {
    if (CREATE_ONLY.has(e.key)) continue;
    body[e.key] = toJson(e.value, `$.${e.key}`, placeholders).body;
  }
  if (!call.params.complete) placeholders.push('$ (parameters spread from a value that could not be resolved)');
  return { body, placeholders };
}
