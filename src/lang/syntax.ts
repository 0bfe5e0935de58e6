/**
 * A small normalised view of expressions and bindings that each language adapter produces
 * from its tree-sitter tree, so that value resolution is written once for all languages.
 */
import type { LanguageFamily, Node } from './parsers';

export interface Arg {
  /** Keyword name (Python `name=value`). */
  name?: string;
  nameNode?: Node;
  value: Node;
  /** `*x` / `...x` (list) or `**x` (dict). */
  spread?: 'list' | 'dict';
}

export interface DictEntry {
  /** Static key, when it is written as a name or a string literal. */
  key?: string;
  keyNode?: Node;
  /** Computed key expression (`[k]: v`, `{k: v}` with a variable key in Python). */
  computedKey?: Node;
  value: Node;
  spread?: boolean;
}

export type TemplatePart = { text: string } | { expr: Node; whole: Node };

export type Expr =
  | { k: 'str'; value: string }
  | { k: 'num'; value: number }
  | { k: 'bool'; value: boolean }
  | { k: 'null' }
  | { k: 'template'; parts: TemplatePart[] }
  | { k: 'ident'; name: string }
  | { k: 'self' }
  | { k: 'member'; object: Node; prop: string }
  | { k: 'index'; object: Node; index: Node }
  | { k: 'slice'; object: Node; lower?: Node; upper?: Node }
  | { k: 'call'; callee: Node; args: Arg[] }
  | { k: 'new'; callee: Node; args: Arg[] }
  | { k: 'list'; items: Array<{ value: Node; spread?: boolean }>; set?: boolean }
  | { k: 'dict'; entries: DictEntry[] }
  | { k: 'binary'; op: string; left: Node; right: Node }
  /**
   * Alternatives; `test` is the condition that picks one (`a if test else b`, `test ? a : b`),
   * absent for `a or b`. `fallback`: the last option is what is left when the others are
   * absent or empty (`a or b`, `a || b`, `a ?? b`; not `a and b`).
   */
  | { k: 'cond'; options: Node[]; test?: Node; fallback?: boolean }
  /** Unary minus on something that is not a number literal (`-k`). */
  | { k: 'neg'; arg: Node }
  | { k: 'wrap'; inner: Node }
  /** `filters`: the `if` clauses that drop items (`[t for t in tools if t.name in allowed]`). */
  | { k: 'comprehension'; element: Node; key?: Node; iter: Node; target: Node; set?: boolean; dict?: boolean; filters?: Node[] }
  | { k: 'func' }
  | { k: 'other' };

export type BindingKind = 'assign' | 'aug' | 'param' | 'loop' | 'import' | 'function' | 'class' | 'opaque';

export interface Binding {
  name: string;
  kind: BindingKind;
  /** The whole binding statement or declarator: the chain step shown to the user. */
  at: Node;
  /** The name node itself. */
  nameNode: Node;
  /** assign/aug: the right-hand side; loop: the iterable; function/class: the definition. */
  value?: Node;
  /** Destructuring: `const { a } = obj` binds `a` to `obj.a`. */
  key?: string;
  /** Destructuring with a default: `const { a = d } = obj` binds `a` to `obj.a`, or `d` when it is absent. */
  fallback?: Node;
  /** A rest element: `const { a, ...rest } = obj` binds `rest` to `obj` without these keys. */
  without?: string[];
  /** Destructuring by position: `a, b = pair` / `const [a, b] = pair` binds `b` to item 1 of `pair`. */
  position?: number;
  op?: string;
  importFrom?: { module: string; name: string };
  paramIndex?: number;
  rest?: boolean;
}

export interface Mutation {
  name: string;
  /** append, extend, insert, pop, shift, splice, unshift, push, del-slice, ... */
  method: string;
  node: Node;
  args: Node[];
  /**
   * For a `set-key` below the named value (`kw["tools"][-1]["cache_control"] = v`): the keys and
   * indexes read on the way, outermost first (`"tools"`, `-1`); `args[0]` is the key written.
   */
  path?: Node[];
}

export interface FunctionInfo {
  /** `index`: the position among the positional parameters (a receiver parameter, see below, counts). */
  params: Array<{
    name: string;
    /** -1: a name declared deeper in a pattern (`[system, turns]`), bound from no argument. */
    index: number;
    rest?: boolean;
    kwrest?: boolean;
    /** The default of the argument (for a destructured parameter, of the whole object: `{ a } = {}`). */
    default?: Node;
    /** A destructured parameter (`{ system, docs = [] }`): the key of the argument it is bound to. */
    key?: string;
    /** The default of that key (`docs = []`), taken when the argument has no such key. */
    keyDefault?: Node;
    /** A rest element of the pattern (`{ a, ...rest }`): the argument without these keys. */
    without?: string[];
    /** The type it is declared with, as written (`str`, `Optional[str]`), when one is. */
    annotation?: string;
  }>;
  returns: Node[];
  /** The first positional parameter is the receiver (Python's `self` / `cls`): a method call does not pass it. */
  receiver?: boolean;
  /** Read as an attribute, not called: Python's `@property`, a JavaScript getter. */
  property?: boolean;
}

export interface Adapter {
  readonly family: LanguageFamily;
  expr(node: Node): Expr;
  /** Nodes that open a scope for bindings. */
  isScope(node: Node): boolean;
  /** Function-like scopes (their locals are not visible to callers). */
  isFunction(node: Node): boolean;
  /** The node types isFunction is true of (walks over a whole file look for these only). */
  readonly functionTypes: ReadonlySet<string>;
  isClass(node: Node): boolean;
  /**
   * Every node type for which `declares`, `mutation`, `isCall` or `isScope` can answer anything:
   * the file's index reads only nodes of these types (test/adapters.test.ts checks the list).
   */
  readonly indexedTypes: ReadonlySet<string>;
  /** Bindings this node introduces in the scope it stands in. */
  declares(node: Node): Binding[];
  /** Bindings a scope node introduces inside itself (parameters). */
  params(scope: Node): Binding[];
  /** A statement that changes a list in place (`x.append(...)`, `del x[:2]`, `x.shift()`). */
  mutation(node: Node): Mutation | undefined;
  functionInfo(fn: Node): FunctionInfo;
  /** Class-level names: fields, class attributes, `self.x = ...` / `this.x = ...`, methods. */
  classMembers(cls: Node): Map<string, Node[]>;
  /**
   * The class's generated constructor takes its fields as keyword arguments of the same names
   * (a dataclass, a pydantic model): `Config(ttl="1h")` sets the field `ttl`.
   */
  keywordFields?(cls: Node): boolean;
  /** A class's name and the source text of what it extends (`(LiteLLMModel)`, `extends Base`), empty when it extends nothing. */
  classHeader(cls: Node): { name?: string; bases: string };
  /** Call nodes (including `new`) anywhere under root. */
  isCall(node: Node): boolean;
  /** The loop node (for/for-of/comprehension) whose iteration encloses `node`, and its iterable. */
  enclosingLoop(node: Node, stopAt: Node): { loop: Node; iter: Node } | undefined;
  /** The range of a string literal's text, without its quotes. */
  stringLiteralRange(node: Node): { start: number; end: number } | undefined;
  /** The name of a property written as a bare key (`obj.key = v` in JS); string keys are read through expr. */
  propertyName(node: Node): string | undefined;
  /** An index that names the last item of the very list it indexes (`items[items.length - 1]`, `items[len(items) - 1]`). */
  isLastIndex(index: Node): boolean;
  isComment(node: Node): boolean;
  /** A string literal that is a statement on its own (a docstring, a directive): no code reads it. */
  isBareString(node: Node): boolean;
  /** The node types isComment is true of. */
  readonly commentTypes: ReadonlySet<string>;
  /** A loop statement (for, for-in/of, while, do): its body runs once per iteration. */
  isLoopStatement(node: Node): boolean;
  /** A statement or expression whose parts may not run (`if`, loops, `try`, `switch` / `match`, `a if c else b`, `a or b`). */
  runsConditionally(node: Node): boolean;
  /**
   * The branches of an `if` statement with its `elif` / `else if` / `else` parts, in order: the
   * test of each (none for `else`) and the statements it runs. Undefined for any other node.
   */
  ifBranches(node: Node): Array<{ test?: Node; body: Node }> | undefined;
  /** A test made of comparisons and boolean operators (`a == b`, `a !== b`, `not a`, `a and b`), with its operands. */
  condition(node: Node): { op: 'eq' | 'ne' | 'not' | 'and' | 'or'; operands: Node[] } | undefined;
}

/**
 * Makes an adapter's `expr` and `functionInfo` read each node once: the views are kept on the
 * node (trees are never changed, and views are only read).
 */
export function withKeptExprs<A extends Adapter>(adapter: A): A {
  const read = adapter.expr.bind(adapter);
  adapter.expr = (node: Node): Expr => (node.exprView ??= read(node)) as Expr;
  const info = adapter.functionInfo.bind(adapter);
  adapter.functionInfo = (fn: Node): FunctionInfo => (fn.functionView ??= info(fn)) as FunctionInfo;
  return adapter;
}
