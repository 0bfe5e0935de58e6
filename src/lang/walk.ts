import type { Node } from './parsers';

/**
 * Pre-order walk of `node` and the named nodes of its subtree: every walk of the analysis looks
 * for named nodes (statements, calls, identifiers, comments), and skipping the anonymous ones
 * (punctuation, keywords, operators) makes no node view for half of the tree. `depth` is the
 * node's depth below `node` (0 for `node` itself). A loop over the tree's arrays (see
 * syntaxTree.ts): no recursion, so a 50,000-deep file cannot overflow the stack.
 */
export function walk(node: Node, visit: (n: Node, depth: number) => void): void {
  node.forEachNamedDescendant(visit);
}

/**
 * `walk` for the nodes of some types only (`types`, a set kept for the life of the program):
 * the same nodes in the same order as `walk` visits with a type check first, without making a
 * view of the others. The walks over whole files use it: most of a tree is names, strings and
 * argument lists that they skip.
 */
export function walkTypes(node: Node, types: ReadonlySet<string>, visit: (n: Node, depth: number) => void): void {
  node.forEachNamedDescendantOf(node.tree.typeMask(types), visit);
}

/** The node types collectReturns looks for (each front end names its own). */
export interface ReturnSyntax {
  /** The return statement, whose first named child (not a comment) is the returned value. */
  readonly returnType: string;
  readonly commentTypes: ReadonlySet<string>;
  /** Inner functions and classes: their returns are their own. */
  readonly nested: ReadonlySet<string>;
}

/**
 * The value of each `return` in a function body, in source order: the first named child (not a
 * comment) of every return statement reached from `body` through named children that are not
 * comments, without going into nested definitions. A scan of the tree's arrays: it runs for
 * every function of a file on each analysis, and recursing over child lists made two arrays per
 * node.
 */
export function collectReturns(body: Node, syntax: ReturnSyntax, out: Node[]): void {
  const t = body.tree;
  for (let i = body.index + 1, stop = t.subtreeEnd[body.index]; i < stop; ) {
    const type = t.typeName(i);
    // Anonymous nodes and comments are not among the named children, so nothing below them is reached.
    if (!t.isNamed(i) || syntax.commentTypes.has(type) || syntax.nested.has(type)) {
      i = t.subtreeEnd[i];
      continue;
    }
    if (type === syntax.returnType) {
      const value = t.node(i)!.firstNamedChildButComment;
      if (value) out.push(value);
      i = t.subtreeEnd[i];
      continue;
    }
    i++;
  }
}

/** ReturnSyntax for a whole function: whether its body is itself the returned value (a lambda, an arrow function's expression). */
export interface FunctionReturnSyntax extends ReturnSyntax {
  /** A function's body (the grammar's field). */
  readonly body: (fn: Node) => Node | null;
  readonly expressionBody: (fn: Node, body: Node) => boolean;
}

/** The values a function returns: its body when that is an expression, else collectReturns of it. */
export function returnedValues(fn: Node, syntax: FunctionReturnSyntax): Node[] {
  const body = syntax.body(fn);
  if (!body) return [];
  if (syntax.expressionBody(fn, body)) return [body];
  const out: Node[] = [];
  collectReturns(body, syntax, out);
  return out;
}
