/**
 * The edits a rule may ask for when it builds a fix: rule-agnostic primitives that each
 * language writes in its own syntax (src/lang/python/edits.ts, src/lang/typescript/edits.ts),
 * and two questions a fix needs answered about the code it changes. What a fix writes — a
 * helper function, a prefix, a placeholder, an argument — is the rule's text and lives in the
 * rule's file; the primitives only place it, with the separators, quotes, indentation and line
 * endings of the file. Every primitive returns undefined when the edit cannot be made there
 * (a location that is not the construct it needs, or text that would not parse).
 */
import type { Loc, TextEdit } from './span';

/** One value per language. JavaScript falls back to TypeScript; a language without one gets no edit. */
export interface PerLanguage<T> {
  python?: T;
  typescript?: T;
  javascript?: T;
}

/** Code to write: the same text in every language, or one text per language. */
export type Source = string | PerLanguage<string>;

/** A value to write as a literal of the file's language: a string (quoted as the file quotes), a number, a boolean, or a list of strings. */
export type LiteralValue = string | number | boolean | readonly string[];

/** A module a helper needs, bound to a name: `import * as name from 'module'`, `const name = require('module')`, `import module as name`. */
export interface HelperImport {
  module: string;
  name: string;
}

export interface InterpolationOptions {
  /** Also remove a label written right before it (`Current time: `, `Known about the user:\n`) and the space or line break before the label. */
  label?: boolean;
  /**
   * Only when the value stands on its own — after a label, at the start of a line, or at the
   * start of the string — so that no sentence is left broken ("You work for {company}.").
   */
  standalone?: boolean;
}

/** A call's argument as written: `name=value` (Python keyword) has a name, `*x` / `...x` / `**x` is a spread. */
export interface ShapeArg {
  name?: string;
  at: Loc;
  spread?: boolean;
}

/** Where an expression (or statement) is and how it can be combined. */
export interface ShapeBase {
  at: Loc;
  /** A name, member access, call, subscript, literal or parenthesised expression: it can take `.x` or stand as an operand without parentheses. */
  primary: boolean;
  /**
   * The construct this one is written in: the call it is an argument of, the `await` it is the
   * operand of, the `with` statement it is the resource of, or the expression around it.
   */
  parent?: Loc;
}

/** What an expression (or statement) is, by kind. */
export type ShapeKind =
  | { kind: 'string'; value: string }
  | { kind: 'number'; value: number }
  | { kind: 'name'; name: string }
  /** `object.name`; `nameAt` is where `name` is written. */
  | { kind: 'member'; object: Loc; name: string; nameAt: Loc }
  | { kind: 'index'; object: Loc; index: Loc }
  | { kind: 'slice'; object: Loc; lower?: Loc; upper?: Loc }
  | { kind: 'call'; callee: Loc; args: ShapeArg[] }
  /** One comparison: `a != b`, `a === b`, `a < b`. */
  | { kind: 'compare'; operator: string; left: Loc; right: Loc }
  /** `-x` where `x` is not a number literal. */
  | { kind: 'negative'; operand: Loc }
  | { kind: 'await'; operand: Loc }
  | { kind: 'parenthesized'; inner: Loc }
  /**
   * `[element for item in iterable if filter]` (also a set or generator) with one `for`;
   * `filters` are the conditions and `clauses` the ` if …` clauses as written, space before included.
   */
  | { kind: 'comprehension'; element: Loc; item?: string; iterable: Loc; filters: Loc[]; clauses: Loc[] }
  /** A lambda or arrow function: its parameter names and, when it is one expression, its body. */
  | { kind: 'function'; params: string[]; body?: Loc }
  /** `with value as name:` and the statements of its body. */
  | { kind: 'with'; items: Array<{ value: Loc; name?: string }>; body: Loc[] }
  | { kind: 'other' };

/** What an expression (or statement) is, as plain data: the answer to `shape(at)`. */
export type Shape = ShapeBase & ShapeKind;

export interface EditBuilder {
  // Edits.
  /** Replaces the code at `at` (an empty `text` deletes it). */
  replace(at: Loc, text: Source): TextEdit[] | undefined;
  /** Inserts `text` right before the code at `at`. */
  insertBefore(at: Loc, text: Source): TextEdit[] | undefined;
  /** Writes `before` and `after` around the expression at `at`, in parentheses when `parenthesize` is set and it is not primary. */
  wrap(at: Loc, around: PerLanguage<readonly [string, string]>, options?: { parenthesize?: boolean }): TextEdit[] | undefined;
  /** Sets the value of the string literal at `at` (or of the part of one string's content that `at` covers), quoted and escaped as the literal is. */
  replaceString(at: Loc, value: string): TextEdit[] | undefined;
  /** Adds `name=value` (Python) / `name: value` (an object literal argument) to the arguments of a call; `args` is the call or its argument list. */
  addArgument(args: Loc, name: string, value: Source): TextEdit[] | undefined;
  /** Adds `key: value` to the dict / object literal at `object`, the key written as its other keys are. */
  addEntry(object: Loc, key: string, value: Source): TextEdit[] | undefined;
  /** Removes one `key: value` entry (dict pair, object property or keyword argument) with its separator; `at` is where its key or its value is written. */
  removeEntry(at: Loc): TextEdit[] | undefined;
  /** Adds an item to the list / array literal at `list`, at `index` (default: the end). */
  addListItem(list: Loc, item: Source, index?: number): TextEdit[] | undefined;
  /** Removes one item of a list / array literal with its separator (the whole line when it stands on its own). */
  removeListItem(item: Loc): TextEdit[] | undefined;
  /**
   * Removes the interpolation `embed` (`{now}` in an f-string, `${now}` in a template literal)
   * from its string, and returns the expression it held as written (Python: the whole field,
   * with its conversion and format spec), for the rule to write elsewhere.
   */
  removeInterpolation(embed: Loc, options?: InterpolationOptions): { edits: TextEdit[]; expression: string } | undefined;
  /**
   * Adds a top-level helper (a function named `name`) after the file's imports, with the imports
   * it needs, unless the file already defines `name` at the top level: then the result is empty.
   */
  ensureHelper(name: Source, code: PerLanguage<string>, imports?: PerLanguage<readonly HelperImport[]>): TextEdit[] | undefined;
  /** Adds an import statement, written as given, after the file's last top-level import; undefined when the file has none to place it after. */
  addImport(statement: string): TextEdit[] | undefined;

  // Questions a fix asks about the code.
  /** `value` written as a literal of the file's language; a string takes the quotes of the first string written in `near`. */
  literal(value: LiteralValue, near?: Loc): string;
  /** What the expression or statement written exactly at `at` is. */
  shape(at: Loc): Shape | undefined;
}
