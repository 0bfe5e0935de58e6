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
 * The named nodes of `node`'s subtree (itself included) whose type is in `types`, in pre-order:
 * a walk that looks for a few kinds of node makes no node view for the others.
 */
export function walkTypes(node: Node, types: ReadonlySet<string>, visit: (n: Node) => void): void {
  node.forEachNamedDescendantOf(types, visit);
}
