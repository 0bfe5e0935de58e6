/** Where a Python top-level statement can be parsed on its own (see StatementSyntax). */
import type { StatementSyntax } from '../frontEnd';

export const pythonStatements: StatementSyntax = {
  // Indentation is counted from the start of a line: a statement after `;` belongs to its line.
  parsesFrom: (source, start) => start === 0 || source.charCodeAt(start - 1) === 10,
  // A line at the left margin starts a statement of its own unless the line before leaves
  // something open (a bracket, a string, a backslash, a header without its body), which the
  // statement before would have shown as an error, as the new text would on its own; or unless
  // it is a clause of the statement before (`else:`, `except:`), which on its own is an error too.
  standsAlone: () => true,
  reread: (source) => joinDedentedContinuations(source),
};

/**
 * The text with each line break inside brackets that is followed by a line starting left of its
 * statement turned into a space (`\r\n` into two), or undefined when there is none.
 *
 * Why: Python joins the lines inside brackets whatever their indentation, but tree-sitter-python's
 * scanner takes such a line for a dedent where no closing bracket may come next (after an operator:
 * `label = ("run-" +` then `str(n))` at the left margin of a function's body), and the whole
 * function then reads as syntax errors: a real finding in it was lost (tree-sitter-python issue
 * 256, open). A space there is what Python reads. A line that ends in a comment keeps its break
 * (the comment would take in the next line); a text this scan misreads (nested quotes in an
 * f-string) is at worst parsed again to no avail, since the tree is kept only when it has no error.
 */
function joinDedentedContinuations(source: string): string | undefined {
  let out: string[] | undefined;
  let last = 0;
  let depth = 0;
  let lineHasComment = false;
  const n = source.length;
  let i = 0;
  const indentAt = (from: number) => {
    let k = from;
    while (k < n && (source.charCodeAt(k) === 32 || source.charCodeAt(k) === 9)) k++;
    return k - from;
  };
  /** Indentation of the line the current statement started on. */
  let statementIndent = indentAt(0);
  while (i < n) {
    const c = source.charCodeAt(i);
    if (c === 35 /* # */) {
      lineHasComment = true;
      while (i < n && source.charCodeAt(i) !== 10) i++;
      continue;
    }
    if (c === 34 /* " */ || c === 39 /* ' */) {
      i = stringEnd(source, i);
      continue;
    }
    if (c === 40 || c === 91 || c === 123) depth++;
    else if ((c === 41 || c === 93 || c === 125) && depth > 0) depth--;
    else if (c === 92 /* \ */) {
      // A backslash continuation (or one in the wrong place): the character after it is not a line's end.
      i += 2;
      continue;
    } else if (c === 10) {
      const next = i + 1;
      const indent = indentAt(next);
      const blank = next + indent >= n || source.charCodeAt(next + indent) === 10 || source.charCodeAt(next + indent) === 13;
      if (depth > 0 && !lineHasComment && !blank && indent < statementIndent && source.charCodeAt(next + indent) !== 35) {
        out ??= [];
        const cr = i > 0 && source.charCodeAt(i - 1) === 13 ? 1 : 0;
        out.push(source.slice(last, i - cr), cr ? '  ' : ' ');
        last = i + 1;
      }
      if (depth === 0 && !blank) statementIndent = indent;
      lineHasComment = false;
    }
    i++;
  }
  if (!out) return undefined;
  out.push(source.slice(last));
  return out.join('');
}

/** The index after the string literal whose opening quote is at `at` (single or triple quoted; a backslash escapes the next character). */
function stringEnd(source: string, at: number): number {
  const quote = source.charCodeAt(at);
  const triple = source.charCodeAt(at + 1) === quote && source.charCodeAt(at + 2) === quote;
  const n = source.length;
  let i = at + (triple ? 3 : 1);
  while (i < n) {
    const c = source.charCodeAt(i);
    if (c === 92) {
      i += 2;
      continue;
    }
    if (c === quote && (!triple || (source.charCodeAt(i + 1) === quote && source.charCodeAt(i + 2) === quote))) return i + (triple ? 3 : 1);
    // A line's end ends an unterminated single-quoted string.
    if (c === 10 && !triple) return i;
    i++;
  }
  return n;
}
