/**
 * The language-neutral abstract value that both front ends produce when they resolve an
 * expression. It keeps what rules need and nothing syntactic: resolved text where it is
 * known, list items and object entries, and the taints that say why its bytes may differ
 * between two calls of the same code.
 */
import type { Loc } from './span';

/** How a value can change between two calls of the same code, strongest first. */
export type TaintClass = 'clock' | 'random' | 'unordered' | 'per-request' | 'environment';

/** The stability class of a whole value (rules.md "What volatile means"). */
export type Stability = 'constant' | TaintClass | 'unknown';

export type TaintKind =
  | 'clock-call'
  | 'random-call'
  | 'set-iteration'
  | 'unsorted-listing'
  | 'unsorted-json'
  | 'unordered-keys'
  | 'parameter'
  | 'loop-variable'
  | 'retrieval'
  /** The key, condition or test that picks one of several written alternatives (`PROMPTS[user.tier]`, `A if user.admin else B`). */
  | 'selector'
  /** The condition that filters a written list per request (`[t for t in TOOLS if t["name"] in user.scopes]`). */
  | 'filter'
  | 'environment';

export interface Taint {
  cls: TaintClass;
  kind: TaintKind;
  /** The expression that produces the volatility, e.g. the `datetime.now()` call. */
  at: Loc;
  /** Its source text, shortened for messages. */
  text: string;
  /** Assignments followed from where the value is used back to `at`, outermost first. */
  chain: Loc[];
  /**
   * The outermost interpolation (f-string field, template substitution, format argument,
   * concatenation operand) through which the tainted value enters a string. Fixes that
   * move a volatile value out of a string start here.
   */
  embed?: Loc;
  /**
   * Interpolations further in that the value went through before `embed` (a text written into
   * another one, `f"{base}\n\n{memories}"` then `f"{prompt}{context}"`), outermost first.
   */
  innerEmbeds?: Loc[];
  /** Where a sorting fix applies: the json.dumps call, or the iterated expression. */
  fixAt?: Loc;
  /**
   * A set iteration over text strings only (every item known), so `sorted` at `fixAt` cannot
   * raise and gives one of the orders the set could already give.
   */
  sortable?: boolean;
  /**
   * Produced when the module is loaded (a module-level `datetime.now()`), so once per process
   * rather than on each call: it still changes at every restart.
   */
  once?: boolean;
  /**
   * A clock value read to the day (`date.today()`, `now.strftime("%Y-%m-%d")`,
   * `d.toDateString()`): the same all day, so it changes once a day rather than on each call.
   */
  daily?: boolean;
}

/** A cut of a list by count (`messages[-5:]`, `pop(0)`), recorded on the list it produces. */
export interface Trim {
  kind: 'slice' | 'mutation';
  at: Loc;
  text: string;
  /** The surrounding code already cuts at a user turn or repairs tool pairs. */
  guarded: boolean;
}

interface ValueBase {
  /** Where this value was written (after following names to their definition). */
  at?: Loc;
  /**
   * For the value of a parameter taken from the calls of its function (`at` is then the
   * parameter): where the value passed in was written, when every call passes the same one.
   */
  passedFrom?: Loc;
  taints: Taint[];
  trims?: Trim[];
  /**
   * Set on a list item that stands for one item per iteration (a comprehension element, a
   * `.map` callback result, an `append` in a loop): the loop that repeats it.
   */
  repeated?: Loc;
  /**
   * Set on a list item added by code that may not run (`if extra: betas.append(extra)`): it is
   * read as there, but a test of whether the list is empty cannot count on it.
   */
  conditional?: boolean;
  /** Set on what is read from the result of a call the front end does not resolve (see Origin). */
  origin?: Origin;
  /**
   * What the value refers to when it is not plain data (a function, a class, a module, a
   * library object): a number that only the front end that made the value resolves.
   */
  ref?: number;
}

/**
 * Where a value comes from when it is (part of) the result of an unresolved call, such as a
 * request's response: `resp.content[0].text` has origin `{ call: <the create call>, path:
 * 'content[0].text', root: <resp> }`. Rules match `call` against request call sites.
 */
export interface Origin {
  /** The whole call expression whose result this is read from. */
  call: Loc;
  /** What is read from the result: `''` (the result itself), `content`, `content[0].text`, `content[].text` (every item), `text()`. */
  path: string;
  /** The expression, where the value is used, that denotes the whole result (`resp` in `resp.content[0].text`). */
  root?: Loc;
}

export interface StrValue extends ValueBase {
  kind: 'str';
  /** The resolved text; unresolved parts are replaced by HOLE. */
  text: string;
  /** True when every part of the text is known. */
  complete: boolean;
  /** True when the value is written as a single plain string literal. */
  literal?: boolean;
}

export interface ListValue extends ValueBase {
  kind: 'list';
  items: Value[];
  /** False when items may exist that were not seen (unknown spreads, appends in loops). */
  complete: boolean;
  /** Built from a set: iteration order differs per process for strings. */
  isSet?: boolean;
  /**
   * For an incomplete list: the last item seen is the last item of the list (unseen items come
   * only before it, as in `[*history, new_message]` or an append after a resent history).
   */
  tailKnown?: boolean;
  /**
   * For an incomplete list: how many of the first items seen are the first items of the list
   * (unseen items come only after them, as in `[system, *history, new_message]`).
   */
  head?: number;
  /**
   * For a list that is one of several lists (`pinned + turns if pinned else turns`, different
   * lists from different callers): the items of those lists, whose place in it is not known.
   * They are not among `items` (nothing is said about their order or count); what reads items by
   * their content (a loop that tests each item's role) sees them, and their taints are the list's.
   */
  possible?: Value[];
  /**
   * For an incomplete list: every item it may hold is one of `items` and `possible` (an item
   * marked `repeated` stands for all the items its loop adds, a copied item for its copies); only
   * how many there are and in which order is not known.
   */
  covered?: boolean;
}

/** Every item a list may hold is one of its listed items (it is complete, or ListValue.covered). */
export function itemsSeen(v: ListValue): boolean {
  return v.complete || !!v.covered;
}

export interface Entry {
  key: string;
  keyAt?: Loc;
  /** The value expression as written in this literal or call (before names are followed). */
  valueAt?: Loc;
  value: Value;
  /**
   * Written into the object after it was built by code that may not run (`if betas:
   * params["betas"] = betas`): the key is read as there, but some runs do not send it.
   */
  conditional?: boolean;
}

export interface ObjValue extends ValueBase {
  kind: 'obj';
  entries: Entry[];
  complete: boolean;
}

export interface ScalarValue extends ValueBase {
  kind: 'num' | 'bool' | 'null';
  value: number | boolean | null;
}

export interface UnknownValue extends ValueBase {
  kind: 'unknown';
  /** What the front end knows about it, for hovers: "parameter user_id", "call to load()". */
  note?: string;
  /**
   * The written default that the value takes when its unknown parts are absent
   * (`options.model ?? "claude-…"`, `model or DEFAULT_MODEL`, a parameter's default, a field
   * initializer the constructor keeps unless given another). The value itself stays unknown:
   * only a rule about defaults reads this.
   */
  fallback?: Value;
  /**
   * The texts it may be, when it is one of several values each known in full (`"user" if
   * chat.by == "you" else "assistant"`, a role taken from one of several messages): a test
   * against another text can then be decided.
   */
  oneOf?: string[];
  /**
   * The values it is one of, when each has parts of its own (an object, a library object built
   * with keywords): what is read from it (`message.role`) is read from each of them.
   */
  alternatives?: Value[];
  /**
   * The type its code declares it to be (a parameter annotated `str`): an `isinstance` test on
   * it can be decided, though its text is not known.
   */
  declared?: 'str';
}

export type Value = StrValue | ListValue | ObjValue | ScalarValue | UnknownValue;

/** Marks an unresolved part inside StrValue.text. */
export const HOLE = '\u{FFFC}';

const CLASS_RANK: Record<TaintClass, number> = {
  clock: 5,
  random: 4,
  unordered: 3,
  'per-request': 2,
  environment: 1,
};

export function strongest(taints: readonly Taint[]): Taint | undefined {
  let best: Taint | undefined;
  for (const t of taints) if (!best || CLASS_RANK[t.cls] > CLASS_RANK[best.cls]) best = t;
  return best;
}

export function isComplete(v: Value): boolean {
  switch (v.kind) {
    case 'str':
      return v.complete;
    case 'list':
      return v.complete && v.items.every(isComplete);
    case 'obj':
      return v.complete && v.entries.every((e) => isComplete(e.value));
    case 'unknown':
      return false;
    default:
      return true;
  }
}

/**
 * Bounds on the size of one value, whatever the code builds (`s = s + s` in a loop, a taint
 * reached along thousands of paths): past them a value is incomplete, never wrong. Without them
 * one real provider file built taint lists that doubled at every step and exhausted a 4 GB heap.
 */
export const VALUE_LIMITS = {
  /** Taints kept on one value after merging (one per production site, kind and interpolation). */
  taints: 32,
  /** Assignment steps remembered per taint. */
  chain: 12,
  /** Items of a list, entries of an object. */
  items: 512,
  /**
   * Characters of a resolved string: enough for any prompt a model takes (token estimates
   * read it), and short of the doubling that makes a string too long for JavaScript at all.
   */
  text: 1024 * 1024,
  /**
   * Nodes of a value seen as a tree (a list or object counts its items and entries, deeply).
   * Values share parts (`{a: x, b: x}`), so a few lines of code can build a value whose tree is
   * exponentially large; every walk over a value is bounded by this.
   */
  nodes: 4096,
} as const;

const sizes = new WeakMap<Value, number>();

/** The number of nodes of a value seen as a tree; linear in the value's distinct parts. */
export function treeSize(v: Value): number {
  if (v.kind !== 'list' && v.kind !== 'obj') return 1;
  let n = sizes.get(v);
  if (n === undefined) {
    n = 1;
    if (v.kind === 'list') for (const item of listedItems(v)) n += treeSize(item);
    else for (const e of v.entries) n += treeSize(e.value);
    sizes.set(v, n);
  }
  return n;
}

/** All taints inside a value, its items and entries included, one per production site and interpolation. */
export function allTaints(v: Value): Taint[] {
  if (v.kind !== 'list' && v.kind !== 'obj') return v.taints;
  const out: Taint[] = [...v.taints];
  collectTaints(v, out);
  return compactTaints(out);
}

/** The items of a list and the items it may hold at places not known (ListValue.possible). */
export function listedItems(v: ListValue): Value[] {
  return v.possible ? [...v.items, ...v.possible] : v.items;
}

function collectTaints(v: Value, out: Taint[]): void {
  if (v.kind === 'list') {
    for (const item of listedItems(v)) {
      out.push(...item.taints);
      collectTaints(item, out);
    }
  } else if (v.kind === 'obj') {
    for (const e of v.entries) {
      out.push(...e.value.taints);
      collectTaints(e.value, out);
    }
  }
}

/** True when the value or anything inside it carries a taint. */
export function hasTaints(v: Value): boolean {
  if (v.taints.length) return true;
  if (v.kind === 'list') return listedItems(v).some(hasTaints);
  if (v.kind === 'obj') return v.entries.some((e) => hasTaints(e.value));
  return false;
}

function taintKey(t: Taint): string {
  return `${t.at.file}\u0000${t.at.start}\u0000${t.at.end}\u0000${t.kind}\u0000${t.embed ? t.embed.start : ''}${t.daily ? '\u0000daily' : ''}`;
}

/**
 * One taint per production site, kind and interpolation (the first seen wins), at most
 * VALUE_LIMITS.taints of them, the strongest classes kept first. Returns `ts` itself when
 * there is nothing to drop.
 */
export function compactTaints(ts: Taint[]): Taint[] {
  if (ts.length <= 1) return ts;
  const seen = new Set<string>();
  let out: Taint[] | undefined;
  for (let i = 0; i < ts.length; i++) {
    const k = taintKey(ts[i]);
    if (seen.has(k)) {
      out ??= ts.slice(0, i);
      continue;
    }
    seen.add(k);
    out?.push(ts[i]);
  }
  let kept = out ?? ts;
  if (kept.length > VALUE_LIMITS.taints) {
    kept = kept
      .map((t, i) => ({ t, i }))
      .sort((a, b) => CLASS_RANK[b.t.cls] - CLASS_RANK[a.t.cls] || a.i - b.i)
      .slice(0, VALUE_LIMITS.taints)
      .sort((a, b) => a.i - b.i)
      .map((x) => x.t);
  }
  return kept;
}

/**
 * A value within VALUE_LIMITS (its own level; the parts were bounded when they were built).
 * Items and entries past the limits are dropped and the value is incomplete; their taints
 * stay on the value itself, so nothing volatile goes unseen.
 */
export function bounded(v: Value): Value {
  let out = v;
  const taints = compactTaints(v.taints);
  if (taints !== v.taints) out = { ...out, taints } as Value;
  if (out.kind === 'list' && (out.items.length > VALUE_LIMITS.items || treeSize(out) > VALUE_LIMITS.nodes)) {
    const keep = fitting(out.items.map(treeSize));
    const dropped = out.items.slice(keep);
    out = { ...out, items: out.items.slice(0, keep), complete: false, tailKnown: false, head: Math.min(knownHead(out), keep), covered: false, taints: compactTaints([...out.taints, ...dropped.flatMap(allTaints)]) };
  } else if (out.kind === 'list' && out.possible && (out.possible.length > VALUE_LIMITS.items || treeSize(out) > VALUE_LIMITS.nodes)) {
    // Items at unknown places are only kept while they fit; their taints stay on the list.
    const { possible, ...rest } = out;
    out = { ...rest, covered: false, taints: compactTaints([...out.taints, ...possible.flatMap(allTaints)]) };
  } else if (out.kind === 'obj' && (out.entries.length > VALUE_LIMITS.items || treeSize(out) > VALUE_LIMITS.nodes)) {
    // The last entries win (a later key overrides an earlier one), so those are kept.
    const keep = fitting(out.entries.map((e) => treeSize(e.value)).reverse());
    const dropped = out.entries.slice(0, out.entries.length - keep);
    out = { ...out, entries: out.entries.slice(out.entries.length - keep), complete: false, taints: compactTaints([...out.taints, ...dropped.flatMap((e) => allTaints(e.value))]) };
  } else if (out.kind === 'str' && out.text.length > VALUE_LIMITS.text) out = { ...out, text: out.text.slice(0, VALUE_LIMITS.text) + HOLE, complete: false };
  return out;
}

/** How many of the first items of a list are known to be its first items: all of a complete list, `head` of another. */
export function knownHead(v: ListValue): number {
  return v.complete ? v.items.length : Math.min(v.head ?? 0, v.items.length);
}

/**
 * The list after its first `count` items (`messages[1:]`, `messages.slice(1)`): when `count` is
 * a known number and those items are known, the rest of the items, still in order; otherwise the
 * items may be any of them (incomplete, nothing known to be first).
 */
export function withoutFirst(v: ListValue, count: Value): ListValue {
  const n = count.kind === 'num' && Number.isInteger(count.value) ? (count.value as number) : -1;
  if (n < 0 || n > knownHead(v)) return { ...v, complete: false, head: 0 };
  const head = knownHead(v) - n;
  return { ...v, items: v.items.slice(n), ...(v.complete ? {} : { head }), ...(v.tailKnown && v.items.length <= n ? { tailKnown: false } : {}) };
}

/**
 * A list sliced (`x[a:]`, `x[a:b]`, `x.slice(a, b)`): the list after its first `from` items when
 * only a start is given (withoutFirst); otherwise neither known in full nor from its start, and
 * with an end given (`x[:-1]`) not at its end either: the last item seen is cut off.
 */
export function sliceOf(v: ListValue, from: Value | undefined, cutsEnd: boolean): ListValue {
  if (from) return withoutFirst(v, from);
  return { ...v, complete: false, head: 0, ...(cutsEnd ? { tailKnown: false } : {}) };
}

/** How many of the leading parts (of these tree sizes) fit in one bounded value. */
function fitting(partSizes: number[]): number {
  let total = 1;
  let n = 0;
  while (n < partSizes.length && n < VALUE_LIMITS.items && total + partSizes[n] <= VALUE_LIMITS.nodes) total += partSizes[n++];
  return n;
}

export function stabilityOf(v: Value): Stability {
  const t = strongest(allTaints(v));
  if (t) return t.cls;
  return isComplete(v) ? 'constant' : 'unknown';
}

export function getEntry(v: Value | undefined, key: string): Value | undefined {
  if (!v || v.kind !== 'obj') return undefined;
  for (let i = v.entries.length - 1; i >= 0; i--) if (v.entries[i].key === key) return v.entries[i].value;
  return undefined;
}

export function getEntryRecord(v: Value | undefined, key: string): Entry | undefined {
  if (!v || v.kind !== 'obj') return undefined;
  for (let i = v.entries.length - 1; i >= 0; i--) if (v.entries[i].key === key) return v.entries[i];
  return undefined;
}

/** The string value of a key when it is fully known. */
export function getString(v: Value | undefined, key: string): string | undefined {
  const e = getEntry(v, key);
  return e && e.kind === 'str' && e.complete ? e.text : undefined;
}

export function unknown(at?: Loc, note?: string, taints: Taint[] = []): UnknownValue {
  return { kind: 'unknown', at, note, taints };
}

export function str(text: string, at?: Loc, literal = false): StrValue {
  return { kind: 'str', text, complete: true, literal, at, taints: [] };
}

/** Adds an assignment step to the chain of every taint (outermost first). */
export function withChainStep(v: Value, step: Loc): Value {
  if (!hasTaints(v)) return v;
  const prefix = (t: Taint): Taint => (t.chain.length >= VALUE_LIMITS.chain ? t : { ...t, chain: [step, ...t.chain] });
  return mapTaints(v, prefix);
}

/** The value with `f` applied to every taint inside it; parts without taints are shared, not copied. */
export function mapTaints(v: Value, f: (t: Taint) => Taint): Value {
  if (!hasTaints(v)) return v;
  const taints = v.taints.map(f);
  switch (v.kind) {
    case 'list':
      return { ...v, taints, items: v.items.map((i) => mapTaints(i, f)), ...(v.possible ? { possible: v.possible.map((i) => mapTaints(i, f)) } : {}) };
    case 'obj':
      return { ...v, taints, entries: v.entries.map((e) => ({ ...e, value: mapTaints(e.value, f) })) };
    default:
      return { ...v, taints };
  }
}

/** Concatenates string-ish parts into one string value, keeping taints and holes. */
export function concatStrings(parts: Value[], at?: Loc): StrValue {
  let text = '';
  let complete = true;
  const taints: Taint[] = [];
  for (const p of parts) {
    if (p.kind === 'str') {
      text += p.text;
      complete &&= p.complete;
    } else if (p.kind === 'num' || p.kind === 'bool') {
      text += String(p.value);
    } else {
      text += HOLE;
      complete = false;
    }
    taints.push(...allTaints(p));
  }
  return bounded({ kind: 'str', text, complete, at, taints }) as StrValue;
}

/**
 * The written default a value stands for when its unknown parts are absent: a string known in
 * full is its own, an unknown value has the one it carries (UnknownValue.fallback).
 */
export function defaultOf(v: Value | undefined): Value | undefined {
  if (!v) return undefined;
  if (v.kind === 'str') return v.complete && !v.taints.length ? v : undefined;
  if (v.kind === 'unknown') return v.fallback;
  return undefined;
}

function sameDefault(a: Value | undefined, b: Value | undefined): boolean {
  return !!a && !!b && a.kind === 'str' && b.kind === 'str' && a.text === b.text;
}

/** `value ?? fallback` where `fallback` is written: `value` when it is known, else unknown with the default it falls back to. */
export function withFallback(value: Value, fallback: Value, at?: Loc): Value {
  if (isComplete(value) && !hasTaints(value)) return value;
  const d = defaultOf(fallback);
  return { kind: 'unknown', at: value.at ?? at, taints: [...allTaints(value), ...allTaints(fallback)], note: 'a value or its default', ...(d ? { fallback: d } : {}) };
}

/** An object without some of its keys (`const { betas, ...rest } = request`). */
export function withoutKeys(v: Value, keys: readonly string[], at?: Loc): Value {
  if (v.kind !== 'obj') return { kind: 'unknown', at, taints: allTaints(v), note: 'the other keys of an object' };
  return { ...v, at: v.at ?? at, entries: v.entries.filter((e) => !keys.includes(e.key)) };
}

function sameLoc(a: Loc | undefined, b: Loc | undefined): boolean {
  return !!a && !!b && a.file === b.file && a.start === b.start && a.end === b.end;
}

/** The same value read twice (a name read in two places of one function gives values made at its binding). */
function sameValue(a: Value, b: Value): boolean {
  if (a === b) return true;
  if (a.kind !== b.kind || !sameLoc(a.at, b.at) || a.ref !== undefined || b.ref !== undefined) return false;
  return a.kind === 'str' ? a.text === (b as StrValue).text && a.complete === (b as StrValue).complete : a.kind === 'unknown';
}

/**
 * `list` when it is `text` written as the one text block of a list (`[{type: "text", text,
 * cache_control}]`). The API reads a text and that block as the same prompt, so a helper that
 * returns the one or the other by a setting (`return text` when caching is off) gives the block
 * form: the same bytes, with the breakpoint the request has when the setting is on. Rules then
 * read the request as it is sent with caching on, the only case in which the prefix matters.
 */
function blockFormOf(text: Value, list: Value): ListValue | undefined {
  if (list.kind !== 'list' || !list.complete || list.items.length !== 1 || (text.kind !== 'str' && text.kind !== 'unknown')) return undefined;
  const block = list.items[0];
  const type = getEntry(block, 'type');
  if (block.kind !== 'obj' || type?.kind !== 'str' || !type.complete || type.text !== 'text') return undefined;
  const inner = getEntry(block, 'text');
  return inner && sameValue(inner, text) ? list : undefined;
}

/**
 * `keys` when the other alternative is an empty object (`cond ? { tools } : {}`): the keys are
 * sent in the runs that take them, and rules read a request as it is sent in those runs (as a
 * breakpoint that a setting turns on, see blockFormOf).
 */
function optionalKeys(keys: Value, empty: Value): ObjValue | undefined {
  if (keys.kind !== 'obj' || empty.kind !== 'obj' || !empty.complete || empty.entries.length || empty.ref !== undefined || keys.ref !== undefined) return undefined;
  return empty.taints.length ? { ...keys, taints: [...keys.taints, ...empty.taints] } : keys;
}

/** Joins two alternatives (conditional expressions, branches) into one value. */
export function union(a: Value, b: Value, at?: Loc): Value {
  const block = blockFormOf(a, b) ?? blockFormOf(b, a);
  if (block) return block;
  // `...(tools.length ? { tools } : {})`: keys that are there in some runs, read as there.
  const optional = optionalKeys(a, b) ?? optionalKeys(b, a);
  if (optional) return optional;
  if (a.kind === 'str' && b.kind === 'str' && a.text === b.text && a.complete && b.complete) {
    return { ...a, taints: [...a.taints, ...b.taints], at: at ?? a.at };
  }
  const trims = [...(a.trims ?? []), ...(b.trims ?? [])];
  if (a.kind === 'list' && b.kind === 'list') return unionOfLists(a, b, trims, at);
  // `resp.content[0].text if resp.content else ""`: still read from the response.
  const origin = a.origin ?? b.origin;
  const ta = knownTexts(a);
  const tb = knownTexts(b);
  const oneOf = ta && tb ? [...new Set([...ta, ...tb])] : undefined;
  const aa = structuredAlternatives(a);
  const ab = structuredAlternatives(b);
  const alternatives = aa && ab && aa.length + ab.length <= MAX_ALTERNATIVES ? [...aa, ...ab] : undefined;
  // Alternatives that fall back to the same written default keep it (a field and the constructor line that keeps it).
  const fa = defaultOf(a);
  const fallback = sameDefault(fa, defaultOf(b)) ? fa : undefined;
  return { kind: 'unknown', at, taints: [...allTaints(a), ...allTaints(b)], note: 'one of several values', ...(trims.length ? { trims } : {}), ...(origin ? { origin } : {}), ...(fallback ? { fallback } : {}), ...(oneOf && oneOf.length <= MAX_ONE_OF ? { oneOf } : {}), ...(alternatives ? { alternatives } : {}) };
}

/** More alternatives than this and a union is only unknown. */
const MAX_ALTERNATIVES = 8;

/** The structured values a value is one of (UnknownValue.alternatives), or itself when it is one. */
function structuredAlternatives(v: Value): Value[] | undefined {
  if (v.kind === 'obj' || (v.kind === 'unknown' && v.ref !== undefined)) return [v];
  return v.kind === 'unknown' ? v.alternatives : undefined;
}

/** More texts than this and a value that is one of them is only unknown. */
const MAX_ONE_OF = 32;

/** The texts a value may be when each is known in full: its own text, or UnknownValue.oneOf. */
export function knownTexts(v: Value): string[] | undefined {
  if (v.kind === 'str') return v.complete ? [v.text] : undefined;
  return v.kind === 'unknown' ? v.oneOf : undefined;
}

/**
 * Two lists as one: item by item where both are known in full with the same length (two tuples
 * of one shape, `return [], None` and `return turns, system`); otherwise the first items both are
 * known to start with and, when both have seen items after those, their last items, each the
 * union of the two. The other items of both may be anywhere in it (ListValue.possible), and
 * every item it may hold is listed when that is so of both.
 */
function unionOfLists(a: ListValue, b: ListValue, trims: Trim[], at?: Loc): ListValue {
  const isSet = a.isSet || b.isSet;
  const taints = [...a.taints, ...b.taints];
  if (!isSet && a.complete && b.complete && a.items.length === b.items.length && !a.possible && !b.possible) {
    return { kind: 'list', items: a.items.map((x, i) => union(x, b.items[i], x.at ?? b.items[i].at ?? at)), complete: true, at, taints, trims, isSet: false };
  }
  const head = isSet ? 0 : Math.min(knownHead(a), knownHead(b));
  const items = a.items.slice(0, head).map((x, i) => union(x, b.items[i], at));
  const lastKnown = (v: ListValue) => (v.complete || v.tailKnown) && v.items.length > head;
  const tail = !isSet && lastKnown(a) && lastKnown(b);
  if (tail) items.push(union(a.items[a.items.length - 1], b.items[b.items.length - 1], at));
  const dropped = (v: ListValue) => [...v.items.slice(head, tail ? v.items.length - 1 : v.items.length), ...(v.possible ?? [])];
  const possible = [...dropped(a), ...dropped(b)];
  return bounded({
    kind: 'list',
    items,
    complete: false,
    at,
    taints,
    trims,
    isSet,
    ...(head ? { head } : {}),
    ...(tail ? { tailKnown: true } : {}),
    ...(possible.length ? { possible } : {}),
    ...(itemsSeen(a) && itemsSeen(b) ? { covered: true } : {}),
  }) as ListValue;
}

/** Removes the 'unordered' taints, e.g. after `sorted(...)`. */
export function withoutUnordered(v: Value): Value {
  const keep = (ts: Taint[]) => ts.filter((t) => t.cls !== 'unordered');
  switch (v.kind) {
    case 'list':
      return { ...v, isSet: false, taints: keep(v.taints), items: v.items.map(withoutUnordered), ...(v.possible ? { possible: v.possible.map(withoutUnordered) } : {}) };
    case 'obj':
      return { ...v, taints: keep(v.taints), entries: v.entries.map((e) => ({ ...e, value: withoutUnordered(e.value) })) };
    default:
      return { ...v, taints: keep(v.taints) };
  }
}
