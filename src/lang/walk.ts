import type { Node } from './parsers';

/** Pre-order walk of a subtree with a tree cursor (no recursion, so deep trees cannot overflow the stack). */
export function walk(node: Node, visit: (n: Node) => void): void {
  const cursor = node.walk();
  let descending = true;
  for (;;) {
    if (descending) {
      visit(cursor.currentNode);
      if (cursor.gotoFirstChild()) continue;
    }
    if (cursor.gotoNextSibling()) {
      descending = true;
      continue;
    }
    if (!cursor.gotoParent()) break;
    if (cursor.currentNode.id === node.id) break;
    descending = false;
  }
  cursor.delete();
}
