/** Where a TypeScript or JavaScript top-level statement can be parsed on its own (see StatementSyntax). */
import type { StatementSyntax } from '../frontEnd';
import type { Node } from '../parsers';

/** Words that go on an expression from the line before (`a\nin b` is `a in b`), where other words start a statement. */
const CONTINUING_WORDS = new Set(['in', 'instanceof', 'as', 'satisfies']);

/**
 * Whether a statement that starts at `at` is one of its own after a line break, whatever the
 * statement before it: automatic semicolons end the one before when its next token cannot go
 * on with it, as a name (but the few words above), a number, a string or a decorator cannot.
 * (`(`, `[`, a template, an operator would.)
 */
function startsApart(source: string, at: number): boolean {
  const word = /^[A-Za-z_$][\w$]*/.exec(source.slice(at, at + 16))?.[0];
  if (word) return !CONTINUING_WORDS.has(word);
  return /^[0-9@'"]/.test(source.charAt(at));
}

/** The statement's own previous or next statement, comments passed over. */
function besides(node: Node, next: boolean): Node | null {
  let n = next ? node.nextSibling : node.previousSibling;
  while (n && n.type === 'comment') n = next ? n.nextSibling : n.previousSibling;
  return n;
}

export const typescriptStatements: StatementSyntax = {
  parsesFrom: () => true,
  standsAlone(first, last, source, end, editStart, shift) {
    // The statement before still ends where it did: the edit left the first token alone, or
    // the new first token cannot go on with it.
    let token: Node = first;
    while (token.firstChild) token = token.firstChild;
    const before = besides(first, false);
    if (editStart <= token.endIndex && before && source.charCodeAt(before.endIndex - 1) !== 59 && !startsApart(source, first.startIndex)) return false;
    // And the statement does not go on into the next one: it ends with `;`, or the next one starts apart.
    if (source.charCodeAt(end - 1) === 59) return true;
    const next = besides(last, true);
    return !next || startsApart(source, next.startIndex + shift);
  },
};
