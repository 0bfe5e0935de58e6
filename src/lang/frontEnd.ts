/**
 * What a language front end gives the shared analysis: everything that depends on a grammar or
 * on a language's semantics sits behind this interface, in src/lang/<language>/, and one switch
 * (frontEnds.ts) picks the front end of a file. The interpreter (evaluate.ts), the file view
 * (fileView.ts), the filters and the request finder are written once against it.
 */
import type { FileOp, FilterView, FunctionView } from '../core/fileView';
import type { Sdk } from '../core/model';
import type { Loc } from '../core/span';
import type { SuppressionDirective, SuppressionScope } from '../core/suppress';
import type { ObjValue, Value } from '../core/value';
import type { Env, Evaluator } from './evaluate';
import type { Node } from './parsers';
import type { SourceKind } from './sources';
import type { Adapter, Arg } from './syntax';
import type { FileUnit } from './workspace';

/** What module resolution may ask of the workspace: which files exist, and a file's text (a tsconfig.json). */
export interface ModuleHost {
  exists(file: string): boolean;
  readFile(file: string): string | undefined;
}

/** Module systems: how an import specifier names a workspace file, and the forms of exports. */
export interface ModuleSyntax {
  /** The workspace file an import specifier written in `file` names, if one exists (asked without reading source files). */
  modulePath(host: ModuleHost, file: string, spec: string): string | undefined;
  /**
   * Where modulePath's answer for `spec` written in `file` is kept, when not for the file's
   * folder (the default): the file itself, when the answer depends on it (a module that the
   * specifier could name is not imported by itself); or a place that other folders share, when
   * the answer depends only on what they have in common (the folders Python looks an absolute
   * import up in). Places are compared as strings.
   */
  answerPlace?(host: ModuleHost, file: string, spec: string): string;
  /**
   * A test file by the names the language's test runners collect (`test_*.py`, `conftest.py`,
   * `*.test.ts`, `__tests__/`). Folder names alone (`tests/`) do not count: a project may sit
   * under any folder.
   */
  isTestFile(file: string): boolean;
  /** `from pkg import sub` may name a module: the specifier of `sub` in `module`. */
  submodule?(module: string, name: string): string;
  /**
   * What a text imports, read from the text alone without parsing it (for a quick look at what a
   * module leads to and calls): each module specifier with the name imported from it (none for
   * the module itself) and the name it is bound to in the file. It may list more than the code
   * imports, never fewer of the imports written at the start of a line.
   */
  importedNames(text: string): ImportedName[];
  /**
   * The definitions of the functions of a module's text, read without parsing it: for a name, the
   * text of every function (or method) of that name, or undefined (`default`: the function the
   * module exports as its default, where the language has one). The lookup reads the text once.
   */
  definitions(text: string): (name: string) => string | undefined;
  /** The value of a module's default export (`export default <value>`), if it has one. */
  defaultExport?(root: Node): Node | undefined;
  /** Names a module exports from another: `export * from './x'` (no `names`), `export { a as b } from './x'`. */
  reexports?(root: Node): Array<{ spec: string; names?: Array<{ name: string; alias: string }> }>;
}

/** One name a text imports (ModuleSyntax.importedNames): `from pkg import a as b` is `{ spec: 'pkg', name: 'a', local: 'b' }`. */
export interface ImportedName {
  spec: string;
  /** The name imported from the module; undefined when the module itself is bound (`import pkg`, `import * as p`). */
  name?: string;
  /** The name the file uses: an alias, the imported name, or the first segment of a dotted module (`import a.b` binds `a`). */
  local: string;
}

/** The language's library: builtins and globals, the functions whose values vary, built-in methods. */
export interface Library {
  /** The canonical name of a builtin or global the code uses without defining it (`builtins.sorted`, `JSON`). */
  globalName(name: string): string | undefined;
  /** What a library function (by canonical dotted name) produces. */
  classify(name: string): SourceKind | undefined;
  /** A function (by canonical name) whose arguments are joined into a path: `os.path.join`, `pathlib.Path`, `path.join`. */
  isPathJoin(name: string): boolean;
  /** A class whose instances are paths that `/` extends (`pathlib.Path`). */
  isPathClass?(name: string): boolean;
  /** What the file's calls do to files (see FileOp), in text order. */
  fileOps(unit: FileUnit, ev: Evaluator): FileOp[];
  /**
   * False when `fileOps` can find no read in the text: it names none of the readers. A module
   * that another file imports is then not parsed for its reads.
   */
  mayReadFiles(text: string): boolean;
  /** A call of a built-in method (`", ".join(x)`, `arr.slice(-5)`); undefined leaves it to the shared rules of the interpreter. */
  method(ev: Evaluator, unit: FileUnit, receiver: Value, prop: string, args: Arg[], node: Node, env: Env | undefined): Value | undefined;
}

/** How the language passes named options to a call. */
export interface CallConventions {
  /**
   * The options of a call as one object: Python's keyword arguments (with `**spread`s), the
   * first object argument in JavaScript; `at` is where they are written, for fixes that add one.
   * `env`: the parameters bound when the call is read inside a function that is followed with the
   * values a caller passes (see reach.ts).
   */
  options(unit: FileUnit, ev: Evaluator, args: Arg[], env?: Env): { value: ObjValue; at?: Loc };
  /** A second argument of per-request options (`create(params, { headers })` in the TypeScript SDK). */
  requestOptions?(unit: FileUnit, ev: Evaluator, args: Arg[], env?: Env): Value | undefined;
}

/** The language's suppression comments (see src/lang/comments.ts). */
export interface CommentSyntax {
  /** The comment that suppresses `ruleIds` for a scope. */
  comment(scope: SuppressionScope, ruleIds: readonly string[]): string;
  /** Where a file-level comment goes: the 0-based line to insert before. */
  fileCommentLine(lines: readonly string[]): number;
  /** The suppression directive a comment node holds, if it is one (or looks like one: malformed). */
  directive(node: Node): SuppressionDirective | undefined;
  /** A string literal that spans lines (a comment cannot go inside it). */
  isMultilineLiteral(node: Node): boolean;
}

/** A condition, normalised for the facts rules ask about (what a filter keeps). */
export type Condition =
  | { k: 'group'; inner: Node }
  | { k: 'not'; arg: Node }
  | { k: 'and' | 'or'; left: Node; right: Node }
  /** `a == b`, `a !== b`, `a in b`, `a not in b`, `a is b`: the operator as written. */
  | { k: 'compare'; left: Node; op: string; right: Node }
  /** `isinstance(subject, cls)`, by the class's last name. */
  | { k: 'instance'; subject: Node; cls: string }
  /** `any(body for param in iter)`, `iter.some((param) => body)`. */
  | { k: 'some'; iter: Node; param: string; body: Node }
  /** `list.includes(value)`. */
  | { k: 'includes'; list: Node; value: Node }
  | { k: 'other' };

/** The language's shapes of the facts the file view gives rules. */
export interface FactSyntax {
  condition(node: Node): Condition;
  /** `v["type"]`, `v.type`, `v.get("type")`, `getattr(v, "type")`: node reads the `type` of `item`. */
  readsTypeOf(node: Node, item: string): boolean;
  /**
   * A filter at `node`: a comprehension that keeps its item under `if` clauses, `filter(f, xs)`,
   * `xs.filter(f)`: what it iterates, the item's name and the conditions that keep it.
   */
  filter(node: Node): { iter: Node; item: string; conditions: Node[] } | undefined;
  /** Where a value written at `node` goes (FilterView.usedAs). */
  usedAs(node: Node): FilterView['usedAs'];
  /** The name of a function node (its own, or the variable it is assigned to). */
  functionName(fn: Node): string | undefined;
  /** Decorators, the call a function is passed to, and whether it is exported. */
  functionContext(fn: Node): Pick<FunctionView, 'decorators' | 'passedTo' | 'exported'>;
  /** `items.forEach((item) => ...)`: the call, the iterated receiver and the item, when `fn` is such a callback. */
  callbackIteration(fn: Node): { call: Node; iter: Node; target?: Node; index?: Node } | undefined;
  /** An assignment statement or declarator with a value: its target and value (only the added part for `+=`). */
  assignment(node: Node): { target: Node; value: Node; augmented?: boolean } | undefined;
  /**
   * A loop (statement or comprehension clause): what it iterates, its item and, for `while`, its
   * condition; for a counting loop (`for (let i = 0; i < n; i++)`), what each pass ends with (`i++`).
   */
  loop(node: Node): { iter?: Node; target?: Node; condition?: Node; step?: Node } | undefined;
  /** `a / b` that joins paths when `a` is one (pathlib's operator). */
  isPathOperator?(node: Node): boolean;
  /** A conditional (`if`, `elif`, `a if c else b`, `c ? a : b`): its test, and the part run when it holds. */
  conditional(node: Node): { test?: Node; then?: Node } | undefined;
  /** A statement after which its function does not go on: `return`, `raise` / `throw`, `sys.exit()`, `process.exit()`. */
  leaves(node: Node): boolean;
  /** The declaration of a name (a binding's statement) binds the error an exception handler caught: `except OSError as e`, `catch (err)`. */
  catches(declaration: Node): boolean;
  /** An exception handler, whose body runs on an error: `except ...:`, `catch (...) { }`. */
  handles(node: Node): boolean;
  /** For the declaration of a name bound by a context manager (`with tempfile.TemporaryDirectory() as d`), the context's expression. */
  contextOf(declaration: Node): Node | undefined;
  /**
   * The node types `assignment`, `filter` and `isPathOperator` can answer for: the walks over a
   * whole file look at these only (test/adapters.test.ts checks the lists).
   */
  readonly nodeTypes: { readonly assignment: ReadonlySet<string>; readonly filter: ReadonlySet<string>; readonly pathOperator?: ReadonlySet<string> };
}

/**
 * Where one top-level statement of an editor buffer can be parsed on its own, without the
 * rest of the text (Parsers.parseEdited): what in the language joins a statement to the ones
 * around it.
 */
export interface StatementSyntax {
  /** Whether a top-level statement that starts at `start` parses the same on its own, from there. */
  parsesFrom(source: string, start: number): boolean;
  /**
   * Whether the new text of a top-level statement (the run of top-level nodes `first` to `last`
   * of the previous tree), from its start to `end` in `source`, which parsed on its own without
   * an error, reads the same in the whole text: nothing before continues into it, and it
   * continues into nothing after. Asked only when every other top-level statement was read
   * without an error and the edit, at `editStart`, leaves the statement's first character alone;
   * `shift` is how far the text after the edit moved.
   */
  standsAlone(first: Node, last: Node, source: string, end: number, editStart: number, shift: number): boolean;
  /**
   * The text to parse again when the grammar read `source` with an error: the same text with what
   * the grammar misreads rewritten, one character for one (the tree's offsets are the text's);
   * undefined when nothing in it needs that. The tree is kept only if it then has no error.
   */
  reread?(source: string): string | undefined;
}

export interface FrontEnd {
  /** The Anthropic SDK this language's code calls. */
  readonly sdk: Sdk;
  readonly adapter: Adapter;
  readonly modules: ModuleSyntax;
  readonly library: Library;
  readonly calls: CallConventions;
  readonly comments: CommentSyntax;
  readonly facts: FactSyntax;
  readonly statements: StatementSyntax;
}
