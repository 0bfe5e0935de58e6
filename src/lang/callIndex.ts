/**
 * The names a file calls, read from its bytes for the search of a function's callers
 * (Workspace.filesCalling reads every file of a project once for it). A file is not decoded for
 * this: on the real-code corpus, decoding every file cost more than reading its bytes, and
 * scanning the decoded text for names about as much again (one thread: bytes read in ~0.17 s,
 * decoded in ~0.39 s more, names found in the text in ~0.49 s; in the bytes, in ~0.23 s).
 *
 * The names are what these patterns find in the text (comments and strings included: a file
 * found is a candidate, which the parser confirms):
 * - the member names `/\.\s*#?([A-Za-z_$][\w$]*)\(/g` matches, as they are (`.name(`, `. name(`, `.#name(`);
 * - the names called on their own, `:name` (`name(`, also the `name` of `def name(`);
 * - names imported under another name, `:name` (`from m import name as alias`, `import { name as alias } from 'm'`);
 * - a default import, `:default:m` (`import alias from './m'`, `m` as moduleBaseName gives it).
 *
 * Each name is kept as the 32-bit FNV-1a hash of its UTF-16 code units (a name of identifier
 * characters is ASCII: its bytes are its code units).
 */
import { isDigit, isIdentifierChar, isSpace } from '../core/chars';

/**
 * A file's called names as the index keeps them: each name's hash as two UTF-16 code units (at
 * an even offset), once, in the order met (imported names first). A name is 4 bytes instead of
 * ~12 characters: the index holds the names of every file of the projects searched (on the
 * real-code corpus 3.6 MB a worker while it was in skyvern, under 1.1 MB so). Two names with one
 * hash make a file a candidate that it is not; the parser confirms every candidate, so that costs
 * a parse, with 1 chance in ~40 million per name and file.
 *
 * `bytes`: the file's UTF-8 text (a leading byte order mark is not part of it).
 */
export function callDigest(bytes: Buffer): string {
  const from = byteOrderMarkLength(bytes);
  keys.clear();
  importedUnderOtherNames(bytes, from);
  // Each `(` backwards: the name before it, then what is before the name. (Buffer's indexOf of
  // one byte: a loop over the bytes took 3–4 times as long.)
  for (let paren = bytes.indexOf(0x28, from); paren !== -1; paren = bytes.indexOf(0x28, paren + 1)) {
    let start = paren;
    while (start > from && IDENTIFIER_BYTE[bytes[start - 1]]) start--;
    if (start === paren || isDigit(bytes[start])) continue;
    let before = start;
    const hash = before > from && bytes[before - 1] === 0x23; /* # */
    if (hash) before--;
    for (let space = spaceEndingAt(bytes, before, from); space > 0; space = spaceEndingAt(bytes, before, from)) before -= space;
    if (before > from && bytes[before - 1] === 0x2e /* . */) keys.add(fnv1a(bytes, start, paren, FNV_BASIS));
    else if (!hash) keys.add(fnv1a(bytes, start, paren, AFTER_COLON));
  }
  return keys.digest();
}

/** A name's key as callDigest writes it (two code units); `:name` for a name called on its own. */
export function nameKey(name: string): string {
  const hash = keyHash(name);
  return String.fromCharCode(hash >>> 16, hash & 0xffff);
}

/** Whether a digest (callDigest) holds a name's key (nameKey): at an even offset, where a hash starts. */
export function digestHas(digest: string, key: string): boolean {
  for (let at = digest.indexOf(key); at !== -1; at = digest.indexOf(key, at + 1)) if ((at & 1) === 0) return true;
  return false;
}

/**
 * The name a module is imported by at the end of its path: `llm` for `./lib/llm`, `./llm.js` and
 * `src/llm.ts`, and the folder's name for its index (`./llm` for `llm/index.ts`).
 */
export function moduleBaseName(spec: string): string {
  const parts = spec.replace(/\\/g, '/').split('/').filter((p) => p && p !== '.');
  let last = (parts.pop() ?? '').replace(/\.(?:[cm]?[jt]sx?|py)$/, '');
  if (last === 'index' && parts.length) last = parts.pop()!;
  return last;
}

/** Bytes that isIdentifierChar accepts, as a table (the scan of callDigest asks it for every byte of every name before a `(`). */
const IDENTIFIER_BYTE = Uint8Array.from({ length: 256 }, (_, b) => (isIdentifierChar(b) ? 1 : 0));

const FNV_BASIS = 0x811c9dc5;

function fnvStep(hash: number, unit: number): number {
  return Math.imul(hash ^ unit, 0x01000193) >>> 0;
}

/** The hash after `:`: a name called on its own is hashed as `:name`. */
const AFTER_COLON = fnvStep(FNV_BASIS, 0x3a);

/** The FNV-1a hash of the bytes from `start` to `end` (ASCII: their code units), from `basis`. */
function fnv1a(bytes: Buffer, start: number, end: number, basis: number): number {
  let hash = basis;
  for (let i = start; i < end; i++) hash = fnvStep(hash, bytes[i]);
  return hash;
}

/**
 * Hashes, each once, in the order added. Open addressing in typed arrays, one set for every file
 * (cleared by a new generation): a hash past 2^30 is no small integer to V8, and a Set of numbers
 * allocated one for each call found.
 */
class KeySet {
  private slots = new Int32Array(1024);
  /** Slot `i` holds a hash of this file when taken[i] === generation. */
  private taken = new Uint32Array(1024);
  private generation = 1;
  private order: number[] = [];

  /** Empties the set. */
  clear(): void {
    this.order = [];
    if (++this.generation === 0xffffffff) {
      this.taken.fill(0);
      this.generation = 1;
    }
  }

  add(hash: number): void {
    const mask = this.slots.length - 1;
    for (let i = hash & mask; ; i = (i + 1) & mask) {
      if (this.taken[i] !== this.generation) {
        this.taken[i] = this.generation;
        this.slots[i] = hash;
        this.order.push(hash >>> 16, hash & 0xffff);
        // Kept under half full (order holds two numbers a hash).
        if (this.order.length > this.slots.length) this.grow();
        return;
      }
      if (this.slots[i] === (hash | 0)) return;
    }
  }

  private grow(): void {
    this.slots = new Int32Array(this.slots.length * 2);
    this.taken = new Uint32Array(this.slots.length);
    this.generation = 1;
    const mask = this.slots.length - 1;
    for (let k = 0; k < this.order.length; k += 2) {
      const hash = ((this.order[k] << 16) | this.order[k + 1]) >>> 0;
      let i = hash & mask;
      while (this.taken[i] === 1) i = (i + 1) & mask;
      this.taken[i] = 1;
      this.slots[i] = hash;
    }
  }

  /** The hashes as two code units each, in the order added. */
  digest(): string {
    let digest = '';
    // In slices: String.fromCharCode takes its code units as arguments.
    for (let i = 0; i < this.order.length; i += 8192) digest += String.fromCharCode(...this.order.slice(i, i + 8192));
    return digest;
  }
}

const keys = new KeySet();

/** 3 when the bytes start with UTF-8's byte order mark, else 0. */
export function byteOrderMarkLength(bytes: Buffer): number {
  return bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
}

/**
 * The length in bytes of the character that starts at `at` when it is what `\s` matches (isSpace:
 * ASCII white space, or one of the Unicode spaces, of two or three bytes in UTF-8), else 0.
 */
function spaceStartingAt(bytes: Buffer, at: number): number {
  if (at >= bytes.length) return 0;
  const c = bytes[at];
  if (c < 0x80) return isSpace(c) ? 1 : 0;
  if (c >= 0xc0 && c < 0xe0) return at + 1 < bytes.length && isSpace(((c & 0x1f) << 6) | (bytes[at + 1] & 0x3f)) ? 2 : 0;
  return c >= 0xe0 && c < 0xf0 && at + 2 < bytes.length && isSpace(((c & 0x0f) << 12) | ((bytes[at + 1] & 0x3f) << 6) | (bytes[at + 2] & 0x3f)) ? 3 : 0;
}

/** spaceStartingAt for the character that ends before `end`, not starting before `from`. */
function spaceEndingAt(bytes: Buffer, end: number, from: number): number {
  if (end <= from) return 0;
  if (bytes[end - 1] < 0x80) return isSpace(bytes[end - 1]) ? 1 : 0;
  // The character's first byte: the nearest one before `end` that is not a continuation byte.
  let lead = end - 1;
  while (lead > from && (bytes[lead] & 0xc0) === 0x80 && end - lead < 3) lead--;
  return spaceStartingAt(bytes, lead) === end - lead ? end - lead : 0;
}

/** Past the spaces (`\s*`) from `at`. */
function skipSpaces(bytes: Buffer, at: number): number {
  for (let space = spaceStartingAt(bytes, at); space > 0; space = spaceStartingAt(bytes, at)) at += space;
  return at;
}

/** The UTF-16 code units a byte starts: 1 for a character's first byte, 2 for a 4-byte character's, 0 for the bytes after. */
function codeUnitsOf(byte: number): number {
  return (byte & 0xc0) === 0x80 ? 0 : byte >= 0xf0 ? 2 : 1;
}

function startsWith(bytes: Buffer, at: number, ascii: string): boolean {
  if (at + ascii.length > bytes.length) return false;
  for (let i = 0; i < ascii.length; i++) if (bytes[at + i] !== ascii.charCodeAt(i)) return false;
  return true;
}

/** The keyword's bytes (a string given to Buffer's indexOf is encoded at each call). */
const IMPORT = Buffer.from('import');

/** Code units of an import statement's list read for aliases. */
const MAX_IMPORT_LIST = 4000;

/**
 * Adds the names a text imports under another name: `:name` for `name as alias` in an import
 * statement (also in a list that runs over lines), and `:default:m` for a default import read at
 * a line's start. Their calls are the alias's: the search for a function's callers would
 * otherwise miss the files that call it so. A candidate, as the rest (`import numpy as np` adds
 * `:numpy`). Only import statements are searched for ` as `: a search of several bytes over
 * the whole text costs several times the one-byte search of callDigest.
 */
function importedUnderOtherNames(bytes: Buffer, from: number): void {
  for (let at = bytes.indexOf(IMPORT, from); at !== -1; at = bytes.indexOf(IMPORT, at + 6)) {
    if (at > from && isIdentifierChar(bytes[at - 1])) continue;
    const space = spaceStartingAt(bytes, at + 6);
    if (!space) continue;
    if (at === from || bytes[at - 1] === 0x0a) {
      const spec = defaultImportSpec(bytes, at + 6);
      if (spec) keys.add(keyHash(`:default:${moduleBaseName(bytes.toString('utf8', spec[0], spec[1]))}`));
    }
    // The names of the statement: to the end of its line, or of the `(…)` / `{…}` list it opens.
    let names = at + 6 + space;
    for (let s = spaceStartingAt(bytes, names); s > 0 && bytes[names] !== 0x0a; s = spaceStartingAt(bytes, names)) names += s;
    const open = bytes[names];
    const close = open === 0x28 ? 0x29 : open === 0x7b ? 0x7d : 0x0a;
    let end = bytes.indexOf(close, names);
    if (end === -1 || end - names > MAX_IMPORT_LIST) {
      const cut = afterCodeUnits(bytes, names, MAX_IMPORT_LIST);
      if (end === -1 || end > cut) end = cut;
    }
    const list = bytes.subarray(names, end);
    for (let as = list.indexOf(' as '); as !== -1; as = list.indexOf(' as ', as + 4)) {
      let first = as;
      while (first > 0 && isIdentifierChar(list[first - 1])) first--;
      if (first < as) keys.add(fnv1a(list, first, as, AFTER_COLON));
    }
  }
}

/** The offset after `units` code units from `at` (a character that would straddle it is left out), or the end. */
function afterCodeUnits(bytes: Buffer, at: number, units: number): number {
  // Up to `units` bytes, every byte is at most one code unit.
  if (at + units >= bytes.length) return bytes.length;
  let end = at;
  for (let counted = 0; end < bytes.length; end++) {
    const u = codeUnitsOf(bytes[end]);
    if (counted + u > units) break;
    counted += u;
  }
  return end;
}

/** The FNV-1a hash of a name's code units. */
function keyHash(name: string): number {
  let hash = FNV_BASIS;
  for (let i = 0; i < name.length; i++) hash = fnvStep(hash, name.charCodeAt(i));
  return hash;
}

/**
 * Where the module's path is in a default import whose `import` keyword ends at `at`: what
 * `/import\s+(?:type\s+)?[A-Za-z_$][\w$]*\s*(?:,\s*\{[^}]{0,2000}\}\s*)?from\s*['"]([^'"\n]{1,500})['"]/y`
 * matches, the path being its group (bounds in UTF-16 code units, as the pattern counts).
 */
function defaultImportSpec(bytes: Buffer, at: number): [number, number] | undefined {
  const name = skipSpaces(bytes, at);
  if (name === at) return undefined;
  // `type` is first read as the keyword, then as the imported name.
  if (startsWith(bytes, name, 'type')) {
    const afterType = skipSpaces(bytes, name + 4);
    const spec = afterType > name + 4 ? specAfterName(bytes, afterType) : undefined;
    if (spec) return spec;
  }
  return specAfterName(bytes, name);
}

function specAfterName(bytes: Buffer, start: number): [number, number] | undefined {
  const first = bytes[start];
  if (!(isIdentifierChar(first) && !isDigit(first))) return undefined;
  let end = start + 1;
  while (end < bytes.length && isIdentifierChar(bytes[end])) end++;
  // As the pattern backtracks: a shorter name, the rest of it then read as `from` (`import xfrom 'm'`).
  for (let nameEnd = end; nameEnd > start; nameEnd--) {
    const spec = specAfter(bytes, nameEnd);
    if (spec) return spec;
  }
  return undefined;
}

/** `\s*(?:,\s*\{[^}]{0,2000}\}\s*)?from\s*['"]([^'"\n]{1,500})['"]` from `at`. */
function specAfter(bytes: Buffer, at: number): [number, number] | undefined {
  let next = skipSpaces(bytes, at);
  if (bytes[next] === 0x2c /* , */) {
    const brace = skipSpaces(bytes, next + 1);
    if (bytes[brace] !== 0x7b) return undefined;
    const close = endOfRun(bytes, brace + 1, 2000, (b) => b === 0x7d);
    if (close === undefined || bytes[close] !== 0x7d) return undefined;
    next = skipSpaces(bytes, close + 1);
  }
  if (!startsWith(bytes, next, 'from')) return undefined;
  const quote = skipSpaces(bytes, next + 4);
  if (bytes[quote] !== 0x27 && bytes[quote] !== 0x22) return undefined;
  const end = endOfRun(bytes, quote + 1, 500, (b) => b === 0x27 || b === 0x22 || b === 0x0a);
  if (end === undefined || end === quote + 1 || (bytes[end] !== 0x27 && bytes[end] !== 0x22)) return undefined;
  return [quote + 1, end];
}

/** The offset of the first byte from `at` that `stops`, within `maxUnits` code units; undefined when there is none so near (or before the end). */
function endOfRun(bytes: Buffer, at: number, maxUnits: number, stops: (byte: number) => boolean): number | undefined {
  for (let end = at, units = 0; end < bytes.length; end++) {
    const b = bytes[end];
    if (stops(b)) return end;
    units += codeUnitsOf(b);
    if (units > maxUnits) return undefined;
  }
  return undefined;
}
