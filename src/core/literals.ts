/**
 * The prefilter's words, found in one pass. Each text of a run is tested against ~50 patterns
 * (the rules' triggers, the request words), and a pattern that does not match reads the whole
 * text: on the real-code corpus over half of that time went to patterns whose every match holds
 * a word the text does not have (`\bToolMessage\b`, `\bos\.open\b`, `prompt_caching|promptCaching`).
 * So the words a match of each pattern must hold are read off the pattern once (its syntax tree,
 * from regexpp), one automaton finds which of all those words a text holds in a single pass,
 * and a pattern runs only where one of its words is there. The answer is always the pattern's
 * own: a pattern with no such words, or one that ignores case, always runs.
 */
import { RegExpParser } from '@eslint-community/regexpp';
import type { AST } from '@eslint-community/regexpp';
import type { TextTest } from './rule';

/** Alternatives kept apart before a set of strings is given up on (`(?:a|b)(?:c|d)` has 4). */
const MAX_STRINGS = 16;
/** The characters the automaton's table has a column for: the words are ASCII; any other character moves it as NUL does. */
const ASCII = 128;
/** The words the scanner reads: ASCII without NUL (every other character moves it as NUL does). */
// eslint-disable-next-line no-control-regex
const ASCII_WORD = /^[\x01-\x7f]+$/;

/**
 * What is known of the strings a part of a pattern matches: `exact`, the whole set of them
 * (only for parts that match a few fixed strings: `messages`, `(?:text|bytes)`, `\b`, which
 * matches the empty string); else `required`, strings one of which every match contains.
 */
interface Facts {
  exact?: ReadonlySet<string>;
  required?: ReadonlySet<string>;
}

const UNKNOWN: Facts = {};
const EMPTY: Facts = { exact: new Set(['']) };

/**
 * Words one of which every match of `pattern` contains, or undefined when no such set is known
 * (a pattern that ignores case, that can match an empty string, or whose every part is a class
 * such as `\w+`). Only ASCII words, each at least two characters long.
 */
export function requiredWords(pattern: RegExp): readonly string[] | undefined {
  if (/[iyg]/.test(pattern.flags)) return undefined;
  let literal: AST.RegExpLiteral;
  try {
    literal = new RegExpParser().parseLiteral(String(pattern));
  } catch {
    return undefined;
  }
  const facts = alternatives(literal.pattern.alternatives);
  const words = nonEmpty(facts.exact) ?? facts.required;
  if (!words || [...words].some((w) => w.length < 2 || !ASCII_WORD.test(w))) return undefined;
  return [...words].sort();
}

/** A set that holds the empty string constrains nothing. */
function nonEmpty(set: ReadonlySet<string> | undefined): ReadonlySet<string> | undefined {
  return set && !set.has('') ? set : undefined;
}

/** Of two sets that each every match must meet, the one that rules out more texts (the longer shortest word). */
function stronger(a: ReadonlySet<string> | undefined, b: ReadonlySet<string> | undefined): ReadonlySet<string> | undefined {
  if (!a) return b;
  if (!b) return a;
  const shortest = (s: ReadonlySet<string>) => Math.min(...[...s].map((w) => w.length));
  const [la, lb] = [shortest(a), shortest(b)];
  return lb > la || (lb === la && b.size < a.size) ? b : a;
}

function alternatives(alts: readonly AST.Alternative[]): Facts {
  const each = alts.map((a) => sequence(a.elements));
  if (each.every((f) => f.exact)) {
    const all = new Set<string>();
    for (const f of each) for (const s of f.exact!) all.add(s);
    if (all.size <= MAX_STRINGS) return { exact: all };
  }
  // Every match is a match of one alternative: the union of what each requires.
  const required = new Set<string>();
  for (const f of each) {
    const own = nonEmpty(f.exact) ?? f.required;
    if (!own) return UNKNOWN;
    for (const s of own) required.add(s);
  }
  return { required };
}

/**
 * A run of parts that each match fixed strings matches their concatenations, contiguous in the
 * text (`\b` and lookarounds match no characters); a part that does not (`\s*`, `[^)]*`) ends
 * the run. Each run, and what each part requires, is required: the strongest is kept.
 */
function sequence(elements: readonly AST.Element[]): Facts {
  let run: ReadonlySet<string> = new Set(['']);
  let required: ReadonlySet<string> | undefined;
  let whole = true;
  for (const element of elements) {
    const facts = elementFacts(element);
    if (facts.exact) {
      const joined = join(run, facts.exact);
      if (joined) {
        run = joined;
        continue;
      }
      required = stronger(required, nonEmpty(run));
      run = facts.exact;
      whole = false;
      continue;
    }
    whole = false;
    required = stronger(stronger(required, nonEmpty(run)), facts.required);
    run = new Set(['']);
  }
  return whole ? { exact: run } : { required: stronger(required, nonEmpty(run)) };
}

function join(a: ReadonlySet<string>, b: ReadonlySet<string>): ReadonlySet<string> | undefined {
  if (a.size * b.size > MAX_STRINGS) return undefined;
  const out = new Set<string>();
  for (const x of a) for (const y of b) out.add(x + y);
  return out;
}

function elementFacts(e: AST.Element): Facts {
  switch (e.type) {
    case 'Character':
      return { exact: new Set([String.fromCodePoint(e.value)]) };
    case 'Assertion':
      // `^`, `$`, `\b`, lookarounds: no characters of the match.
      return EMPTY;
    case 'Group':
      // A group that changes the flags (`(?i:…)`) may ignore case.
      return e.modifiers ? UNKNOWN : alternatives(e.alternatives);
    case 'CapturingGroup':
      return alternatives(e.alternatives);
    case 'Quantifier': {
      const inner = elementFacts(e.element);
      // `x?`: x's strings or none (`create(?:React)?Agent` matches two words).
      if (e.min === 0) return e.max === 1 && inner.exact ? { exact: new Set(['', ...inner.exact]) } : UNKNOWN;
      if (e.min === 1 && e.max === 1) return inner;
      // Matched at least once: what one match requires.
      const once = nonEmpty(inner.exact) ?? inner.required;
      return once ? { required: once } : UNKNOWN;
    }
    default:
      // Classes, `.`, back-references: no fixed characters.
      return UNKNOWN;
  }
}

/**
 * Finds which of a fixed list of ASCII words a text holds, in one pass over its characters
 * (an Aho–Corasick automaton, as a table of next states). Written for this use instead of taken
 * from a package: the pass must allocate nothing and answer only "which words", and the
 * packages found report every match with its position.
 */
export class WordScanner {
  /**
   * Next state for each state and ASCII character: `next[state << 7 | char]` (a non-ASCII
   * character is in no word: it moves as NUL does). States are numbered so that those where a
   * word ends come last (from `firstEnd`): the pass tests one number per character.
   */
  private readonly next: Uint16Array | Int32Array;
  private readonly firstEnd: number;
  /** The words that end at each state from `firstEnd` on (its own and through its failure links). */
  private readonly ends: number[][] = [];

  constructor(readonly words: readonly string[]) {
    for (const w of words) if (!ASCII_WORD.test(w)) throw new Error(`not a word of ASCII characters: ${JSON.stringify(w)}`);
    // The trie.
    const children: Array<Map<number, number>> = [new Map()];
    const own: number[][] = [[]];
    words.forEach((w, id) => {
      let s = 0;
      for (let i = 0; i < w.length; i++) {
        const c = w.charCodeAt(i);
        let t = children[s].get(c);
        if (t === undefined) {
          t = children.length;
          children.push(new Map());
          own.push([]);
          children[s].set(c, t);
        }
        s = t;
      }
      own[s].push(id);
    });
    // Breadth first: each state's failure link, the words ending there, and its row of moves.
    const n = children.length;
    const moves = new Int32Array(n * ASCII);
    const fail = new Int32Array(n);
    const found: number[][] = own.map((ids) => [...ids]);
    const queue: number[] = [];
    for (const [c, t] of children[0]) {
      moves[c] = t;
      queue.push(t);
    }
    for (let head = 0; head < queue.length; head++) {
      const s = queue[head];
      for (const id of found[fail[s]]) if (!found[s].includes(id)) found[s].push(id);
      for (let c = 0; c < ASCII; c++) {
        const t = children[s].get(c);
        if (t === undefined) moves[s * ASCII + c] = moves[fail[s] * ASCII + c];
        else {
          fail[t] = moves[fail[s] * ASCII + c];
          moves[s * ASCII + c] = t;
          queue.push(t);
        }
      }
    }
    // Renumbered: the start state stays 0, the states where words end go last.
    const order = [...Array(n).keys()].sort((a, b) => (found[a].length ? 1 : 0) - (found[b].length ? 1 : 0) || a - b);
    const number = new Int32Array(n);
    order.forEach((old, i) => (number[old] = i));
    this.firstEnd = order.findIndex((old) => found[old].length > 0);
    if (this.firstEnd < 0) this.firstEnd = n;
    this.next = n <= 0x10000 ? new Uint16Array(n * ASCII) : new Int32Array(n * ASCII);
    for (let old = 0; old < n; old++) for (let c = 0; c < ASCII; c++) this.next[(number[old] << 7) | c] = number[moves[old * ASCII + c]];
    for (let i = this.firstEnd; i < n; i++) this.ends.push(found[order[i]]);
  }

  /**
   * Which words UTF-8 `bytes` hold, as scan() of their text says: an ASCII character is the same
   * byte in UTF-8, and the bytes of any other character (each ≥ 0x80) move as NUL does, as the
   * character itself does in scan() (no word holds NUL: a run of them leaves the start state).
   */
  scanBytes(bytes: Uint8Array): Uint8Array {
    const held = new Uint8Array(this.words.length);
    const { next, firstEnd, ends } = this;
    let s = 0;
    for (let i = 0, n = bytes.length; i < n; i++) {
      const c = bytes[i];
      s = next[(s << 7) | (c < ASCII ? c : 0)];
      if (s >= firstEnd) {
        const ids = ends[s - firstEnd];
        for (let j = 0; j < ids.length; j++) held[ids[j]] = 1;
      }
    }
    return held;
  }

  /** Which words `text` holds: `held[id]` is 1 for each. */
  scan(text: string): Uint8Array {
    const held = new Uint8Array(this.words.length);
    const { next, firstEnd, ends } = this;
    let s = 0;
    for (let i = 0, n = text.length; i < n; i++) {
      const c = text.charCodeAt(i);
      s = next[(s << 7) | (c < ASCII ? c : 0)];
      if (s >= firstEnd) {
        const ids = ends[s - firstEnd];
        for (let j = 0; j < ids.length; j++) held[ids[j]] = 1;
      }
    }
    return held;
  }
}

/**
 * The words a text holds, for the patterns of one PatternGate: `mayMatch` is false only for a
 * pattern none of whose required words the text holds.
 */
export interface HeldWords {
  mayMatch(test: TextTest): boolean;
}

/** Every pattern may match: what a text is tested with when no gate is given. */
export const ANY_WORDS: HeldWords = { mayMatch: () => true };

/** The required words of a set of patterns, and one scanner for all of them. */
export class PatternGate {
  private readonly wordsOf = new Map<TextTest, Int32Array>();
  private readonly scanner: WordScanner;

  constructor(patterns: Iterable<TextTest>) {
    const ids = new Map<string, number>();
    for (const p of patterns) {
      if (!(p instanceof RegExp) || this.wordsOf.has(p)) continue;
      const words = requiredWords(p);
      if (!words) continue;
      this.wordsOf.set(
        p,
        Int32Array.from(words, (w) => {
          let id = ids.get(w);
          if (id === undefined) ids.set(w, (id = ids.size));
          return id;
        }),
      );
    }
    this.scanner = new WordScanner([...ids.keys()]);
  }

  /** How many patterns are gated (the others always run). */
  get gated(): number {
    return this.wordsOf.size;
  }

  /** The words `text` holds, read in one pass when first asked. */
  held(text: string): HeldWords {
    let held: Uint8Array | undefined;
    return this.wordsHeld(() => (held ??= this.scanner.scan(text)));
  }

  /** The words the text of UTF-8 `bytes` holds (the same as held() of the decoded text), read now (the bytes may be overwritten next). */
  heldInBytes(bytes: Uint8Array): HeldWords {
    const held = this.scanner.scanBytes(bytes);
    return this.wordsHeld(() => held);
  }

  /** Whether a pattern may match, by the words held (`held()`, read when a gated pattern is first asked about). */
  private wordsHeld(held: () => Uint8Array): HeldWords {
    return {
      mayMatch: (test) => {
        const ids = this.wordsOf.get(test);
        if (!ids) return true;
        const words = held();
        for (let i = 0; i < ids.length; i++) if (words[ids[i]]) return true;
        return false;
      },
    };
  }
}
