/**
 * A name looked for in a text without a regular expression made for that name.
 *
 * Why: V8 compiles a regular expression to machine code once it has run (at once on a long
 * text), and keeps that code in the heap of the thread while the expression's source is in its
 * compilation cache. A pattern written around a name (`\bclass\s+${name}\b`) is a new
 * expression for each name: on the real-code corpus the two workers of a run made 1,055 and
 * 1,646 of them (the definition heads of typescript/modules.ts alone 670), and the code space of
 * one grew from ~3 to 6.7 MB used (9.3 committed; 3.9 and 4.8 now; `--regexp-tier-up-ticks=50`
 * did not change it). Here the name is found with `indexOf`, and what surrounds it is read with
 * the character tests of chars.ts or with expressions that do not depend on the name (compiled
 * once). Each function says which pattern it stands for; the same places match.
 */
import { isIdentifierChar, isSpace, isWordChar } from './chars';

/** `\b` at `at`: a word character on one side only (the text's ends count as non-word). */
export function isWordBoundary(text: string, at: number): boolean {
  const before = at > 0 && isWordChar(text.charCodeAt(at - 1));
  const after = at < text.length && isWordChar(text.charCodeAt(at));
  return before !== after;
}

/** Whether an identifier character (`[\w$]`) sits at `at` (false past either end). */
function identifierCharAt(text: string, at: number): boolean {
  return at >= 0 && at < text.length && isIdentifierChar(text.charCodeAt(at));
}

/** Every offset where `name` is written with no `[\w$]` right before or after it: `(?<![\w$])name(?![\w$])`, `name` taken literally. */
export function wholeNameOffsets(text: string, name: string): number[] {
  const out: number[] = [];
  if (!name) return out;
  // As a global expression searches: on from the end of a match, or from the next character.
  for (let i = text.indexOf(name); i !== -1; ) {
    const whole = !identifierCharAt(text, i - 1) && !identifierCharAt(text, i + name.length);
    if (whole) out.push(i);
    i = text.indexOf(name, whole ? i + name.length : i + 1);
  }
  return out;
}

/** Whether `text` reads `name` as a whole name (the first of wholeNameOffsets). */
export function readsWholeName(text: string, name: string): boolean {
  if (!name) return false;
  for (let i = text.indexOf(name); i !== -1; i = text.indexOf(name, i + 1)) {
    if (!identifierCharAt(text, i - 1) && !identifierCharAt(text, i + name.length)) return true;
  }
  return false;
}

/**
 * Whether `text` declares `name` after one of `keywords`: `\b(?:kw1|kw2|...)\s+name\b`, `name`
 * taken literally (a keyword, then at least one space of `\s`, then the name, with word
 * boundaries before the keyword and after the name).
 */
export function declaresAfterKeyword(text: string, keywords: readonly string[], name: string): boolean {
  if (!name) return false;
  for (let i = text.indexOf(name); i !== -1; i = text.indexOf(name, i + 1)) {
    if (isWordBoundary(text, i + name.length) && keywordBefore(text, i, keywords)) return true;
  }
  return false;
}

/** Whether spaces (`\s+`, at least one) end at `at` and one of `keywords` ends where they begin, with `\b` before it. */
function keywordBefore(text: string, at: number, keywords: readonly string[]): boolean {
  let j = at;
  while (j > 0 && isSpace(text.charCodeAt(j - 1))) j--;
  if (j === at) return false;
  return keywords.some((k) => j >= k.length && text.startsWith(k, j - k.length) && isWordBoundary(text, j - k.length));
}

/**
 * Whether `text` assigns to `name` or annotates it before an assignment:
 * `\bname[ \t]{0,8}(?::[^=\n]{0,200})?=[^=]`, `name` taken literally.
 */
export function assignsName(text: string, name: string): boolean {
  if (!name) return false;
  for (let i = text.indexOf(name); i !== -1; i = text.indexOf(name, i + 1)) {
    if (!isWordBoundary(text, i)) continue;
    ASSIGNED_AFTER.lastIndex = i + name.length;
    if (ASSIGNED_AFTER.test(text)) return true;
  }
  return false;
}

/** What follows a name that assignsName accepts. */
const ASSIGNED_AFTER = /[ \t]{0,8}(?::[^=\n]{0,200})?=[^=]/y;
