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
  /**
   * Like moveInterpolationToUserTurn, but the moved value goes first in the user content as
   * its own labelled paragraph: `f"[<label>]\n{expr}\n\n" + content`.
   */
  moveInterpolationToUserTurnAs(embed: Loc, userContent: Loc, label: string): TextEdit[] | undefined;
  /** Removes one `key: value` entry (dict pair, object property or keyword argument) with its separator; `key` is where the key is written. */
  removeProperty(key: Loc): TextEdit[] | undefined;
  /** Copies the dict/object entry whose key is at `key`, as written, into the dict/object literal at `target`. */
  copyPropertyTo(key: Loc, target: Loc): TextEdit[] | undefined;
  /** Removes one item of a list/array literal (the item as written at `item`) with its separator. */
  removeListItem(item: Loc): TextEdit[] | undefined;
  /**
   * Removes one name (and one comma next to it) from a comma-separated string literal such as
   * an `anthropic-beta` header value; when it is the only name, removes the whole header entry.
   */
  removeHeaderName(literal: Loc, name: string): TextEdit[] | undefined;
  /** Moves one item of a list/array literal to the front of the list. */
  moveListItemFirst(item: Loc): TextEdit[] | undefined;
  /** Replaces a number literal with another number. */
  replaceNumber(literal: Loc, value: number): TextEdit[] | undefined;
  /** Removes attribute segments from a callee chain: `client.beta.prompt_caching.messages.create` minus `beta`, `prompt_caching`. */
  removeCalleeSegments(callee: Loc, segments: string[]): TextEdit[] | undefined;
  /** Replaces the expression at `target` with `<object>.<member>` (the object as written at `object`). */
  replaceWithMember(target: Loc, object: Loc, member: string): TextEdit[] | undefined;
  /**
   * Turns a filter that drops blocks of `type` (`[b for b in c if b["type"] != "tool_result"]`,
   * `c.filter((b) => b.type !== 'tool_result')`) into a map that keeps them with `content` set to `placeholder`.
   */
  keepBlocksWithPlaceholder(filter: Loc, type: string, placeholder: string): TextEdit[] | undefined;
  /**
   * Replaces an in-place file write (`with open(p, "w") as f: json.dump(x, f)`, `p.write_text(t)`,
   * `fs.writeFileSync(p, t)`) with a call to an atomic-write helper (temp file in the same
   * directory, flush, fsync, rename) that the edit adds to the file once.
   */
  replaceWithAtomicWrite(write: Loc): TextEdit[] | undefined;
}
