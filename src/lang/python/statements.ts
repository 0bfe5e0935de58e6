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
};
