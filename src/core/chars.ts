/**
 * Character tests for the scanners that read source text without a regular expression (one
 * character code at a time), as the patterns they stand for read it (textReach.ts, the callers
 * index of workspace.ts, pythonFunctionSpans.ts, words.ts).
 */

/** `[\w$]`: ASCII letters, digits, `_` and `$`. */
export function isIdentifierChar(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x5f || c === 0x24;
}

/** `\w` (and so what `\b` tells apart): ASCII letters, digits and `_`, not `$`. */
export function isWordChar(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x5f;
}

export function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** What `\s` matches. */
export function isSpace(c: number): boolean {
  return (
    (c >= 0x09 && c <= 0x0d) || c === 0x20 || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff
  );
}
