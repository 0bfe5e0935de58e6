/**
 * What a rule may ask of a language front end when it builds a fix. Rules never touch
 * syntax nodes or write Python/TS text; each front end answers these in its own syntax.
 * Every method returns undefined when the edit cannot be made safely.
 */
import type { Loc, TextEdit } from './span';

export interface EditBuilder {
  /** `json.dumps(x)` -> `json.dumps(x, sort_keys=True)`. */
  addSortKeys(jsonCall: Loc): TextEdit[] | undefined;
  /** `expr` -> `sorted(expr)` (Python) / `[...expr].sort()` (TS/JS). */
  wrapSorted(expr: Loc): TextEdit[] | undefined;
  /** Replaces a string literal (or one name inside a comma-separated header string). */
  replaceStringContent(literal: Loc, newContent: string): TextEdit[] | undefined;
  /** Appends a string item to a list/array literal. */
  appendStringToList(list: Loc, item: string): TextEdit[] | undefined;
  /** Adds `name=[items]` / `name: [items]` to a call's arguments. */
  addListArgument(args: Loc, name: string, items: string[]): TextEdit[] | undefined;
  /**
   * Removes the interpolation `embed` (and a label right before it, e.g. "Current time: ")
   * from the string it sits in, and prefixes the user content `userContent` with `[time: <expr>] `.
   */
  moveInterpolationToUserTurn(embed: Loc, userContent: Loc): TextEdit[] | undefined;
  /** Replaces a count-based slice of the history with a call to a turn-boundary trim helper. */
  replaceSliceWithTurnSafeTrim(slice: Loc): TextEdit[] | undefined;
  /** `client.messages.create` -> `client.beta.messages.create`. */
  useBetaNamespace(callee: Loc): TextEdit[] | undefined;
  /** True when both locations are written in the same function (or both in the module body). */
  sameScope(a: Loc, b: Loc): boolean;
}
