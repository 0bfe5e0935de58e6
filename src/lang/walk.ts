import type { Node } from './parsers';

/**
 * Pre-order walk of a subtree. `depth` is the node's depth below `node` (0 for `node` itself).
 * A loop over the tree's arrays (see syntaxTree.ts): no recursion, so a 50,000-deep file
 * cannot overflow the stack.
 */
export function walk(node: Node, visit: (n: Node, depth: number) => void): void {
  node.forEachDescendant(visit);
}
