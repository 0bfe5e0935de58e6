/**
 * What a language front end gives the shared analysis: everything that depends on a grammar or
 * on a language's semantics sits behind this interface, in src/lang/<language>/, and one switch
 * (frontEnds.ts) picks the front end of a file. The interpreter (evaluate.ts), the file view
 * (fileView.ts), the filters and the request finder are written once against it.
 */
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
  /** `from pkg import sub` may name a module: the specifier of `sub` in `module`. */
  submodule?(module: string, name: string): string;
  /** The value of a module's default export (`export default <value>`), if it has one. */
  defaultExport?(root: Node): Node | undefined;
  /** Names a module exports from another: `export * from './x'` (no `names`), `export { a as b } from './x'`. */
  reexports?(root: Node): Array<{ spec: string; names?: Array<{ name: string; alias: string }> }>;
}

/** The language's library: builtins and globals, the functions whose values vary, built-in methods. */
export interface Library {
  /** The canonical name of a builtin or global the code uses without defining it (`builtins.sorted`, `JSON`). */
  globalName(name: string): string | undefined;
  /** What a library function (by canonical dotted name) produces. */
  classify(name: string): SourceKind | undefined;
  /** A call of a built-in method (`", ".join(x)`, `arr.slice(-5)`); undefined leaves it to the shared rules of the interpreter. */
  method(ev: Evaluator, unit: FileUnit, receiver: Value, prop: string, args: Arg[], node: Node, env: Env | undefined): Value | undefined;
}

/** How the language passes named options to a call. */
export interface CallConventions {
  /**
   * The options of a call as one object: Python's keyword arguments (with `**spread`s), the
   * first object argument in JavaScript; `at` is where they are written, for fixes that add one.
   */
  options(unit: FileUnit, ev: Evaluator, args: Arg[]): { value: ObjValue; at?: Loc };
  /** A second argument of per-request options (`create(params, { headers })` in the TypeScript SDK). */
  requestOptions?(unit: FileUnit, ev: Evaluator, args: Arg[]): Value | undefined;
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

export interface FrontEnd {
  readonly adapter: Adapter;
  readonly modules: ModuleSyntax;
  readonly library: Library;
  readonly calls: CallConventions;
  readonly comments: CommentSyntax;
}
