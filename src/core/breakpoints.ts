/**
 * Cache breakpoints of a request, in render order (tools -> system -> messages): the explicit
 * `cache_control` markers on blocks, the top-level (automatic) one, and markers that stand for
 * one per loop iteration (a marked comprehension element, a `.map` result, an append in a loop).
 */
import type { CallSite, FileView } from './fileView';
import { leavesLoopAfter } from './fileView';
import type { PrefixBlock, RequestCall, Section } from './model';
import { param, prefixBlocks } from './model';
import type { Loc } from './span';
import type { ObjValue, Value } from './value';
import { getEntry, getEntryRecord } from './value';

export type Ttl = '5m' | '1h';

export interface Marker {
  section: Section;
  /** JSON path of the marked block (`system[0]`, `messages[3].content[0]`), or `cache_control` for the top-level one. */
  path: string;
  /** The marked block (undefined for the top-level marker). */
  block?: PrefixBlock;
  /** The `cache_control` value. */
  value: Value;
  /** Where the marker is written: the `cache_control` key, else its value. */
  at?: Loc;
  /** '5m' when `ttl` is omitted; undefined when it cannot be resolved. */
  ttl?: Ttl;
  /** The marker is repeated once per iteration of this loop (count not known statically). */
  repeated?: Loc;
  topLevel?: boolean;
  /** For message blocks: the index of the message in the list that was seen. */
  messageIndex?: number;
}

export function ttlOf(cc: Value): Ttl | undefined {
  if (cc.kind !== 'obj') return undefined;
  const ttl = getEntry(cc, 'ttl');
  if (!ttl) return cc.complete ? '5m' : undefined;
  if (ttl.kind === 'str' && ttl.complete && (ttl.text === '5m' || ttl.text === '1h')) return ttl.text;
  return undefined;
}

function markerAt(block: Value, cc: Value): Loc | undefined {
  const rec = block.kind === 'obj' ? getEntryRecord(block, 'cache_control') : undefined;
  return rec?.keyAt ?? rec?.valueAt ?? cc.at;
}

function messageIndexOf(path: string): number | undefined {
  const m = /^messages\[(\d+)\]/.exec(path);
  return m ? Number(m[1]) : undefined;
}

/** explicitMarkers's and keyedMarkers's answers, per request: most cache rules ask them of every request. */
const EXPLICIT_OF = new WeakMap<RequestCall, readonly Marker[]>();
const KEYED_OF = new WeakMap<RequestCall, { view: FileView; textOf: (at: Loc) => string; markers: readonly KeyedMarker[] }>();

/** The explicit markers of a request in render order (the top-level one is not included). */
export function explicitMarkers(call: RequestCall): readonly Marker[] {
  let markers = EXPLICIT_OF.get(call);
  if (!markers) EXPLICIT_OF.set(call, (markers = readExplicitMarkers(call)));
  return markers;
}

function readExplicitMarkers(call: RequestCall): Marker[] {
  const out: Marker[] = [];
  const messages = param(call, 'messages');
  for (const b of prefixBlocks(call)) {
    if (!b.cacheControl) continue;
    const messageIndex = b.section === 'messages' ? messageIndexOf(b.path) : undefined;
    const message = messageIndex !== undefined && messages?.kind === 'list' ? messages.items[messageIndex] : undefined;
    const repeated = b.value.repeated ?? (b.path.includes('.content[') ? message?.repeated : undefined);
    out.push({
      section: b.section,
      path: b.path,
      block: b,
      value: b.cacheControl,
      at: markerAt(b.value, b.cacheControl),
      ttl: ttlOf(b.cacheControl),
      repeated,
      messageIndex,
    });
  }
  return out;
}

/** The top-level `cache_control` (automatic caching), if the request has one. */
export function topLevelMarker(call: RequestCall): Marker | undefined {
  const rec = getEntryRecord(call.params, 'cache_control');
  if (!rec) return undefined;
  if (rec.value.kind === 'null') return undefined;
  return { section: 'messages', path: 'cache_control', value: rec.value, at: rec.keyAt ?? rec.valueAt, ttl: ttlOf(rec.value), topLevel: true };
}

/** The last block of the request as far as it is known (where the automatic breakpoint lands). */
export function lastBlock(call: RequestCall): PrefixBlock | undefined {
  const messages = param(call, 'messages');
  if (!messages || messages.kind !== 'list' || !(messages.complete || messages.tailKnown) || !messages.items.length) return undefined;
  const last = messages.items[messages.items.length - 1];
  const content = last?.kind === 'obj' ? getEntry(last, 'content') : undefined;
  if (content?.kind === 'list' && !content.complete) return undefined;
  const blocks = prefixBlocks(call);
  return blocks[blocks.length - 1];
}

/** The messages list as written, when it is a list. */
export function messageList(call: RequestCall): Extract<Value, { kind: 'list' }> | undefined {
  const m = param(call, 'messages');
  return m?.kind === 'list' ? m : undefined;
}

/** A message literal (`{"role": ..., "content": ...}`) of the list. */
export function isMessageLiteral(v: Value): v is ObjValue {
  return v.kind === 'obj' && !!getEntry(v, 'role') && !v.repeated;
}

function inside(inner: Loc, outer: Loc): boolean {
  return inner.file === outer.file && outer.start <= inner.start && inner.end <= outer.end;
}

/** `messages[-1]["content"]` -> `messages`; `msgs.at(-1).content` -> `msgs`. */
function rootName(text: string): string {
  return /^[\w$]+/.exec(text.trim())?.[0] ?? '';
}

/** Code that takes old markers off again (`block.pop("cache_control", None)`, `delete b.cache_control`). */
export const MARKER_REMOVAL = /\b(pop|del)\b[^\n]*cache_control|delete\s+[^\n;]*cache_control|cache_control["']?\s*[:=]\s*(undefined|None|null)\b|\{\s*(?:["']?cache_control["']?\s*:\s*\w+\s*,\s*)?\.\.\.\w+\s*\}\s*=|["']cache_control["']\s*(?:!=|not in|!==)|\bk\s*!=\s*["']cache_control["']/;

export interface KeyedMarker {
  /** The assignment `x["cache_control"] = ...` / `x.cache_control = ...`. */
  at: Loc;
  objectText: string;
  ttl?: Ttl;
  /** 'per-item': one marker per item of `loop.iterText`; 'per-turn': one more on every turn of a loop around the request. */
  repeat?: { how: 'per-item' | 'per-turn'; loop: Loc; iterText?: string; count?: number };
}

/**
 * `cache_control` written by assignment before the request, in the request's function or in a
 * same-file helper it calls: `for block in content: block["cache_control"] = {...}`.
 */
export function keyedMarkers(call: RequestCall, view: FileView, textOf: (at: Loc) => string): readonly KeyedMarker[] {
  const known = KEYED_OF.get(call);
  if (known?.view === view && known.textOf === textOf) return known.markers;
  const markers = readKeyedMarkers(call, view, textOf);
  KEYED_OF.set(call, { view, textOf, markers });
  return markers;
}

function readKeyedMarkers(call: RequestCall, view: FileView, textOf: (at: Loc) => string): KeyedMarker[] {
  // Most files write no `cache_control` key: answer before the costlier views are built.
  if (!view.keyAssignments.some((a) => a.key === 'cache_control')) return [];
  const fn = view.enclosingFunction(call.at);
  const explicit = explicitMarkers(call);
  const messagesText = getEntryRecord(call.params, 'messages')?.valueAt;
  const out: KeyedMarker[] = [];
  // Helpers called from the request's function before the request, with the call site.
  let helperSites: CallSite[] | undefined;
  const helperSite = (name: string) =>
    (helperSites ??= view.calls.filter((c) => view.enclosingFunction(c.at) === fn && c.at.start < call.at.start)).find((c) => c.method === name);
  const turnLoop = view.enclosingLoop(call.at);
  for (const a of view.keyAssignments) {
    if (a.key !== 'cache_control') continue;
    let afn = view.enclosingFunction(a.at);
    // A callback written in the request's function (`blocks.forEach((b) => { ... })`) is part of it.
    if (afn && afn !== fn && afn.passedTo && view.enclosingFunction(afn.at) === fn) afn = fn;
    let site: CallSite | undefined;
    if (afn === fn) {
      if (a.at.start > call.at.start) continue;
    } else {
      site = afn?.name ? helperSite(afn.name) : undefined;
      if (!site) continue;
    }
    if (explicit.some((m) => m.at && inside(m.at, a.at))) continue;
    const v = a.value();
    if (v.kind === 'null' || (v.kind === 'bool' && !v.value)) continue;
    const marker: KeyedMarker = { at: a.at, objectText: a.objectText, ttl: ttlOf(v) };
    const loop = view.enclosingLoop(a.at);
    const targets = (loop?.targetText ?? '').split(/[\s,()[\]]+/).filter(Boolean);
    const root = rootName(a.objectText);
    // `if i == len(blocks) - 1: block["cache_control"] = ...` marks one item, not each.
    const cond = loop ? view.enclosingCondition(a.at) : undefined;
    const oneItem =
      (!!cond && !!loop && inside(cond.at, loop.at) && /len\(|\.length\b|\blast\b|is_last|isLast|-\s*1\b|\bbreak\b/.test(cond.conditionText)) ||
      // The marker's block leaves the loop after it (`tool["cache_control"] = ...` then `break`): it marks the first item it reaches.
      (!!loop && leavesLoopAfter(textOf, a.at, loop));
    if (loop && targets.includes(root) && !oneItem) {
      const iter = loop.iter?.();
      const count = iter?.kind === 'list' && iter.complete ? iter.items.length : undefined;
      marker.repeat = { how: 'per-item', loop: loop.at, iterText: loop.iterText, count };
    } else {
      // A marker put on the newest message of a history that is resent every turn stays on it.
      const around = site ? view.enclosingLoop(site.at) : loop;
      const outer = around && inside(call.at, around.at) ? around : turnLoop && loop && inside(loop.at, turnLoop.at) ? turnLoop : undefined;
      let persistent = root;
      if (site && afn) {
        const i = afn.params.indexOf(root);
        const arg = i >= 0 ? site.args.filter((x) => !x.name)[i] : undefined;
        persistent = arg ? rootName(arg.text) : '';
      }
      const guarded = MARKER_REMOVAL.test(fn?.text ?? '') || (afn ? MARKER_REMOVAL.test(afn.text) : false);
      const resent = !!messagesText && !!persistent && outer !== undefined && new RegExp(`^[\\s(]*${persistent.replace(/\$/g, '\\$')}\\b`).test(textOf(messagesText));
      if (outer && resent && !guarded) marker.repeat = { how: 'per-turn', loop: outer.at };
    }
    out.push(marker);
  }
  return out;
}

/**
 * A block path as the user reads it: indexes into `tools`, `system` or `messages` are only exact
 * when the whole list is known; otherwise the last item is `[-1]` (when the end of the list is
 * known) and others `[…]`.
 */
export function displayPath(call: RequestCall, path: string): string {
  const m = /^(tools|system|messages)\[(\d+)\]/.exec(path);
  const list = m ? param(call, m[1]) : undefined;
  if (!m || list?.kind !== 'list' || list.complete) return path;
  const i = Number(m[2]);
  const index = list.tailKnown && i === list.items.length - 1 ? '-1' : '…';
  return path.replace(/^(tools|system|messages)\[\d+\]/, `${m[1]}[${index}]`);
}

/** The request caches something: an explicit marker, the top-level one, or a marker set by assignment. */
export function hasBreakpoint(call: RequestCall, view: FileView, textOf: (at: Loc) => string): boolean {
  return explicitMarkers(call).length > 0 || !!topLevelMarker(call) || keyedMarkers(call, view, textOf).length > 0;
}
