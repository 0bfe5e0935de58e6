import type { Node, Tree } from './parsers';

/**
 * A tree's nodes in pre-order, materialised once and shared by every walk of that tree. The
 * analysis walks each file several times (the scope index, the file view, filters, path
 * joins, suppression comments); through web-tree-sitter each cursor step and each Node costs
 * calls into WASM, so one walk costs about as much as the parse. With the flat list, the
 * first walk pays that once and the others are array loops.
 */
interface Flat {
  tree: Tree;
  nodes: Node[];
  /** Depth of each node below the root. */
  depth: Int32Array;
  /** Index just past each node's last descendant. */
  end: Int32Array;
}

/** The few trees walked last (the file being analysed and the files it imports). */
const recent: Flat[] = [];
const KEEP = 4;

function flatten(tree: Tree): Flat {
  for (let i = 0; i < recent.length; i++) {
    if (recent[i].tree === tree) {
      const f = recent[i];
      if (i > 0) {
        recent.splice(i, 1);
        recent.unshift(f);
      }
      return f;
    }
  }
  const nodes: Node[] = [];
  const depths: number[] = [];
  const cursor = tree.rootNode.walk();
  let descending = true;
  let depth = 0;
  for (;;) {
    if (descending) {
      nodes.push(cursor.currentNode);
      depths.push(depth);
      if (cursor.gotoFirstChild()) {
        depth++;
        continue;
      }
    }
    if (cursor.gotoNextSibling()) {
      descending = true;
      continue;
    }
    if (!cursor.gotoParent()) break;
    depth--;
    descending = false;
  }
  cursor.delete();
  const n = nodes.length;
  const depth32 = Int32Array.from(depths);
  const end = new Int32Array(n);
  // A node's subtree ends where the next node at its depth or shallower starts.
  const open: number[] = [];
  for (let i = 0; i < n; i++) {
    while (open.length && depth32[open[open.length - 1]] >= depth32[i]) end[open.pop()!] = i;
    open.push(i);
  }
  for (const i of open) end[i] = n;
  const f: Flat = { tree, nodes, depth: depth32, end };
  recent.unshift(f);
  if (recent.length > KEEP) recent.pop();
  return f;
}

/** Drops what is kept of a tree (call it after `tree.edit()`, whose nodes then move). */
export function forgetTree(tree: Tree): void {
  const i = recent.findIndex((f) => f.tree === tree);
  if (i >= 0) recent.splice(i, 1);
}

/** The index of `node` in the flat list (nodes are in start order; equal starts are scanned). */
function indexOf(f: Flat, node: Node): number {
  const start = node.startIndex;
  let lo = 0;
  let hi = f.nodes.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (f.nodes[mid].startIndex < start) lo = mid + 1;
    else hi = mid;
  }
  for (let i = lo; i < f.nodes.length && f.nodes[i].startIndex === start; i++) if (f.nodes[i].id === node.id) return i;
  return -1;
}

/**
 * Pre-order walk of a subtree (no recursion, so deep trees cannot overflow the stack). `depth`
 * is the node's depth below `node` (0 for `node` itself).
 */
export function walk(node: Node, visit: (n: Node, depth: number) => void): void {
  const f = flatten(node.tree);
  const i = indexOf(f, node);
  if (i < 0) {
    cursorWalk(node, visit);
    return;
  }
  const { nodes, depth, end } = f;
  const base = depth[i];
  for (let j = i, stop = end[i]; j < stop; j++) visit(nodes[j], depth[j] - base);
}

function cursorWalk(node: Node, visit: (n: Node, depth: number) => void): void {
  const cursor = node.walk();
  let descending = true;
  let depth = 0;
  for (;;) {
    if (descending) {
      visit(cursor.currentNode, depth);
      if (cursor.gotoFirstChild()) {
        depth++;
        continue;
      }
    }
    if (cursor.gotoNextSibling()) {
      descending = true;
      continue;
    }
    // The cursor cannot leave `node`; depth 0 is `node` itself.
    if (!cursor.gotoParent() || --depth === 0) break;
    descending = false;
  }
  cursor.delete();
}

/**
 * A node's parent from the flat list (the nearest node before it that is shallower). Used for
 * zero-width nodes (MISSING tokens from error recovery): tree-sitter's `ts_node_parent` can
 * recurse without end on them, which overflows the WASM stack and corrupts the parser for
 * every later file (`memory access out of bounds`).
 */
export function parentFromWalk(node: Node): Node | null {
  const f = flatten(node.tree);
  const i = indexOf(f, node);
  for (let j = i - 1; i > 0 && j >= 0; j--) if (f.depth[j] < f.depth[i]) return f.nodes[j];
  return null;
}
