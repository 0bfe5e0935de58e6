/**
 * A syntax tree held in JavaScript: every visible node of a tree-sitter tree, read once into
 * flat typed arrays in pre-order (from the parser's memory, treeMemory.ts, or with a tree
 * cursor), and nodes that are views onto those arrays.
 *
 * Why: through web-tree-sitter every node property read (`type`, `parent`,
 * `childForFieldName`, each child) is a call into WASM plus a fresh `Node` object, and the
 * analysis reads each node many times. Profiles of the CLI showed four fifths of the time in
 * that traffic. Reading the tree once costs about as much as one walk did; after that every
 * read is an array lookup, the WASM tree is freed at once (so a run's memory does not grow
 * with every parsed file), and `parent` cannot hit tree-sitter's deep recursion on zero-width
 * MISSING nodes.
 *
 * `SyntaxNode` offers the part of web-tree-sitter's `Node` interface the analysis uses, with
 * the same meaning (checked against tree-sitter itself by test/syntaxTree.test.ts).
 *
 * Editor buffers are the exception to freeing the WASM tree at once: each keystroke re-parses
 * the buffer, and tree-sitter re-parses a 3000-line file around an edit far faster than from
 * scratch when it gets the previous tree, so a tree built with `keepWasm` holds its WASM tree
 * until `release()`. Reading the new tree also reuses the previous one (see `reuse` below).
 */
import type { Tree as WasmTree } from 'web-tree-sitter';
import type { FieldTable, TreeMemory } from './treeMemory';
import { readTreeMemory } from './treeMemory';
import { zeroedBuffer } from '../core/pageBacked';

/** Type and field names of one grammar, read once per language. */
export interface GrammarTables {
  types: readonly string[];
  /** Field id → name (index 0 is unused, as in tree-sitter). */
  fields: readonly (string | null)[];
  fieldIds: ReadonlyMap<string, number>;
  /** Named-ness of each type id. */
  named: Uint8Array;
  /** The grammar's fields as treeMemory.ts reads them, once read. */
  memoryFields?: FieldTable;
}

const ERROR_TYPE_ID = 0xffff;
const NAMED = 1;
const MISSING = 2;
const HAS_ERROR = 4;
/** The node's view is kept between analyses (SyntaxTree.pinViews). */
const PINNED = 8;
const MEMORY_READ_FLAGS = { named: NAMED, missing: MISSING, error: HAS_ERROR };

/** Ids unique across every tree of the process, as web-tree-sitter's node ids are. */
let nextIdBase = 1;

/** WASM trees held by SyntaxTrees (not yet released), so that tests can see none leaks. */
let keptWasmTrees = 0;

export function keptWasmTreeCount(): number {
  return keptWasmTrees;
}

/**
 * The tree-cursor functions of web-tree-sitter's WASM module, called without its JavaScript
 * wrapper. Why: every wrapper call (`cursor.startIndex`, `cursor.gotoFirstChild()`, ...) first
 * copies the cursor's four words into the module's transfer buffer with `setValue` and, for the
 * moves, reads them back with `getValue`; reading a tree makes six such calls per node, and
 * profiles of the CLI showed that copying as a seventh of all its time. The module's functions
 * read the cursor from the transfer buffer and the moves write it back there, so a walk that
 * makes no other tree-sitter call in between can leave it there and call them directly: the
 * words are copied once when the walk starts and once when it ends.
 *
 * This uses two things web-tree-sitter does not document (its version is pinned): the options
 * object given to `Parser.init` is the module itself (Emscripten's `Module`), and a TreeCursor
 * keeps its words in `handles`. `cursorBinding` checks both and leaves the wrapper in use when
 * either is missing.
 */
export interface CursorBinding {
  /** Index in HEAP32 of the transfer buffer. */
  transfer: number;
  heap(): Int32Array;
  /** Views of the module's memory (made again when it grows), for reading trees from it (treeMemory.ts). */
  memory(): TreeMemory;
  startIndex(tree: number): number;
  endIndex(tree: number): number;
  typeId(tree: number): number;
  fieldId(tree: number): number;
  nodeId(tree: number): number;
  isMissing(tree: number): number;
  firstChild(tree: number): number;
  nextSibling(tree: number): number;
  parent(tree: number): number;
}

/** The binding of the module parsed with last (useCursorBinding), and each module's. */
let binding: CursorBinding | undefined;
let boundModule: Record<string, unknown> | undefined;
const bindings = new WeakMap<Record<string, unknown>, CursorBinding | null>();

/**
 * The direct cursor functions of the module web-tree-sitter was initialised with (the options
 * object given to `Parser.init`), used from now on: each Parsers has a runtime of its own, and
 * calls this before it parses (a tree's walk checks that the binding is its module's: walkOf).
 */
export function useCursorBinding(module: Record<string, unknown>): void {
  if (boundModule === module) return;
  let found = bindings.get(module);
  if (found === undefined) bindings.set(module, (found = cursorBinding(module) ?? null));
  binding = found ?? undefined;
  boundModule = module;
}

function cursorBinding(module: Record<string, unknown>): CursorBinding | undefined {
  const fn = (name: string) => (typeof module[name] === 'function' ? (module[name] as (tree: number) => number) : undefined);
  const names = {
    startIndex: '_ts_tree_cursor_start_index_wasm',
    endIndex: '_ts_tree_cursor_end_index_wasm',
    typeId: '_ts_tree_cursor_current_node_type_id_wasm',
    fieldId: '_ts_tree_cursor_current_field_id_wasm',
    nodeId: '_ts_tree_cursor_current_node_id_wasm',
    isMissing: '_ts_tree_cursor_current_node_is_missing_wasm',
    firstChild: '_ts_tree_cursor_goto_first_child_wasm',
    nextSibling: '_ts_tree_cursor_goto_next_sibling_wasm',
    parent: '_ts_tree_cursor_goto_parent_wasm',
  } as const;
  const init = typeof module._ts_init === 'function' ? (module._ts_init as () => number) : undefined;
  const found = Object.fromEntries(Object.entries(names).map(([k, n]) => [k, fn(n)]));
  if (!init || !(module.HEAP32 instanceof Int32Array) || Object.values(found).some((f) => !f)) return undefined;
  // _ts_init returns the address of the static transfer buffer (and writes the ABI versions into it, as at start-up).
  const transfer = init() >> 2;
  let views: TreeMemory | undefined;
  const memory = (): TreeMemory => {
    const i32 = module.HEAP32 as Int32Array;
    if (views?.i32 !== i32) views = { i32, u16: new Uint16Array(i32.buffer), u8: new Uint8Array(i32.buffer) };
    return views;
  };
  return { transfer, heap: () => module.HEAP32 as Int32Array, memory, ...(found as Omit<CursorBinding, 'transfer' | 'heap' | 'memory'>) };
}

/**
 * Which way the last tree was read: `memory` (from the module's memory, treeMemory.ts), `direct`
 * (the module's cursor functions) or `wrapper` (web-tree-sitter's TreeCursor).
 */
export function treeReading(): 'memory' | 'direct' | 'wrapper' {
  return lastWalk;
}

let lastWalk: 'memory' | 'direct' | 'wrapper' = 'wrapper';

let memoryReading = true;

/** Views of the memory of the module trees are read from (undefined before one is bound), for tests of treeMemory.ts. */
export function parserMemory(): TreeMemory | undefined {
  return binding?.memory();
}

/** Whether trees may be read from the module's memory (on by default); off, the cursor reads them (for the tests that compare the two). */
export function readTreesFromMemory(on: boolean): void {
  memoryReading = on;
}

/** A cursor's four words, where web-tree-sitter keeps them (undefined if it no longer does). */
function cursorHandles(cursor: object): number[] | undefined {
  const h = (cursor as { handles?: unknown }).handles;
  return Array.isArray(h) && h.length === 4 && h.every((x) => typeof x === 'number') ? (h as number[]) : undefined;
}

/**
 * The moves and reads of one tree walk, each a function of `tree` answering a number (1 or 0 for
 * the tests and moves): through the module's functions directly, or through web-tree-sitter's
 * cursor. Why functions of `tree` rather than closures over it: the module's functions are then
 * the same objects for every tree, so V8 inlines the calls into WASM in readColumns; closures
 * made anew for each tree it could not inline, and it optimized readColumns again and again (8
 * compiles, 105 ms, in a one-thread run of the real-code corpus; reading 1.05 M nodes of 300 of
 * its files took 175–184 ms that way against 158–172 ms, in-process, alternating builds).
 */
interface Walk {
  /** What the functions take: the tree's address (the wrapper's ignore it). */
  tree: number;
  nodeId(tree: number): number;
  startIndex(tree: number): number;
  endIndex(tree: number): number;
  typeId(tree: number): number;
  fieldId(tree: number): number;
  isMissing(tree: number): number;
  firstChild(tree: number): number;
  nextSibling(tree: number): number;
  parent(tree: number): number;
  /** Frees the cursor. */
  end(): void;
}

function walkOf(wasm: WasmTree): Walk {
  const cursor = wasm.walk();
  const handles = cursorHandles(cursor);
  const tree = (wasm as unknown as { 0?: unknown })[0];
  const b = binding;
  const heap = b?.heap();
  // walk() has just written the cursor to the transfer buffer and copied it to `handles`: check that they agree.
  if (!b || !heap || !handles || typeof tree !== 'number' || handles.some((h, i) => heap[b.transfer + i] !== h)) {
    lastWalk = 'wrapper';
    return {
      tree: 0,
      nodeId: () => cursor.nodeId,
      startIndex: () => cursor.startIndex,
      endIndex: () => cursor.endIndex,
      typeId: () => cursor.nodeTypeId,
      fieldId: () => cursor.currentFieldId,
      isMissing: () => (cursor.nodeIsMissing ? 1 : 0),
      firstChild: () => (cursor.gotoFirstChild() ? 1 : 0),
      nextSibling: () => (cursor.gotoNextSibling() ? 1 : 0),
      parent: () => (cursor.gotoParent() ? 1 : 0),
      end: () => cursor.delete(),
    };
  }
  lastWalk = 'direct';
  return {
    tree,
    nodeId: b.nodeId,
    startIndex: b.startIndex,
    endIndex: b.endIndex,
    typeId: b.typeId,
    fieldId: b.fieldId,
    isMissing: b.isMissing,
    firstChild: b.firstChild,
    nextSibling: b.nextSibling,
    parent: b.parent,
    end: () => {
      // The moves may have grown the cursor's stack (a new address): the wrapper frees what the buffer holds now.
      const now = b.heap();
      for (let i = 0; i < 4; i++) handles[i] = now[b.transfer + i];
      cursor.delete();
    },
  };
}

export interface SyntaxTreeOptions {
  /** Hold the WASM tree (until `release()`) so that the next version of the text can be parsed from it. */
  keepWasm?: boolean;
  /** Record each node's tree-sitter id, so that the next tree can copy the subtrees tree-sitter reused from this one. */
  recordNodeIds?: boolean;
  /**
   * The tree of the previous version of the text, built with `recordNodeIds`, whose WASM tree
   * (still alive, edited to the new text) the WASM tree being read was parsed from.
   *
   * Why this is sound: a web-tree-sitter node id is the address in WASM memory of the slot
   * that holds the node's subtree, and a node's slot lies in its parent's allocation (the
   * root's in the tree's). tree-sitter shares the unchanged subtrees of the old tree with the
   * new one instead of copying them, and never changes a shared subtree: tree.edit changes
   * only the nodes around the edit and marks them, and the parser never reuses a marked node.
   * While the old tree is alive none of its memory can be handed to a new node, so a node of
   * the new tree with the id of a node of the old tree sits in the same, unchanged parent
   * allocation: it is the same subtree, with the same alias, nodes, types, fields and sizes
   * below it, only at another offset and depth. (A shared subtree placed in a new parent has
   * a new slot itself, so the matches start at its children.) The field of the matched node
   * may still differ, as fields can come from hidden ancestors, so that one is read from the
   * cursor.
   */
  reuse?: SyntaxTree;
}

export class SyntaxTree {
  readonly rootNode: SyntaxNode;
  /** Number of nodes. */
  readonly length: number;
  /** The first node's id; node i has id idBase + i. */
  readonly idBase: number;
  readonly typeId: Uint16Array;
  readonly fieldId: Uint16Array;
  readonly flags: Uint8Array;
  readonly start: Int32Array;
  readonly end: Int32Array;
  readonly parentOf: Int32Array;
  /**
   * Index just past each node's last descendant (pre-order, so a subtree is a range). A node's
   * children and siblings follow from it and `parentOf` (firstChild, nextSibling, ...): no
   * column of their own, which was 16 of a node's 41 bytes, in every tree a run keeps.
   */
  readonly subtreeEnd: Int32Array;
  readonly depth: Int32Array;
  /** The depth of the deepest node (the root is at 0). */
  readonly maxDepth: number;
  private readonly nodes: (SyntaxNode | undefined)[];
  private lineStarts?: number[];
  /** The WASM tree, held only for `keepWasm` (editor buffers) and freed by `release()`. */
  private wasm?: WasmTree;
  /** tree-sitter's id of each node (only with `recordNodeIds`, and only while `wasm` is alive). */
  private nodeIds?: Int32Array;
  /** The new index of each subtree taken over from the previous tree (adoptNodes), ascending. */
  private adoptedRoots: readonly number[] = [];
  /** Nodes the last build copied from the previous tree instead of reading them (for tests and benchmarks). */
  readonly reusedNodes: number = 0;

  /**
   * Where the statement parsed alone is in the text, when this tree was made from the previous
   * tree of its buffer by parsing only the top-level statement an edit was in (see StatementSplice).
   */
  readonly splicedText: { start: number; end: number } | undefined;

  constructor(
    /** The text that was parsed. */
    readonly source: string,
    readonly grammar: GrammarTables,
    /**
     * The WASM tree to read; or the previous tree and the one statement parsed again; or a
     * tree to copy (a copy has no node views and no WASM tree: an analysis of it starts afresh).
     */
    from: WasmTree | StatementSplice | SyntaxTree,
    options: SyntaxTreeOptions = {},
  ) {
    const splice = isSplice(from) ? from : undefined;
    const copied = from instanceof SyntaxTree ? from : undefined;
    const reuse = !splice && !copied && options.reuse?.reusable ? { tree: options.reuse, nodeIds: options.reuse.nodeIds!, ids: new IdFilter(options.reuse.nodeIds!) } : undefined;
    // Where a reused subtree sat in the old text: at the same offset before the edit, moved by the change in length after it.
    const shift = reuse ? source.length - reuse.tree.source.length : 0;
    /** The subtrees copied from the previous tree: [old root, old end, new root] for each. */
    const moves: number[] = [];
    const b = splice ? spliceColumns(splice, source, moves) : copied ? copyColumns(copied) : readColumns(from as WasmTree, source, grammar, options, reuse, shift, moves);
    this.length = b.length;
    // Views onto the builder's columns when little of them is unused (a tree read from the
    // previous one, whose size it started from), copies otherwise (a first parse, whose
    // capacity was a guess from the text's length).
    const n = b.length;
    const built: Columns = { typeId: b.typeId, fieldId: b.fieldId, flags: b.flags, start: b.start, end: b.end, parentOf: b.parent, subtreeEnd: b.subtreeEnd, depth: b.depth };
    const c = b.typeId.length - n <= n >> 3 ? built : trimmedColumns(built, n);
    const fit = <T extends Uint16Array | Uint8Array | Int32Array>(a: T): T => (a.length === n ? a : (a.subarray(0, n) as T));
    this.typeId = fit(c.typeId);
    this.fieldId = fit(c.fieldId);
    this.flags = fit(c.flags);
    this.start = fit(c.start);
    this.end = fit(c.end);
    this.parentOf = fit(c.parentOf);
    this.subtreeEnd = fit(c.subtreeEnd);
    this.depth = fit(c.depth);
    this.reusedNodes = b.copied;
    // An error anywhere below makes every ancestor report hasError, as in tree-sitter
    // (children come after their parent, so one backward pass carries it to the root).
    let maxDepth = 0;
    for (let i = this.length - 1; i > 0; i--) {
      if (this.flags[i] & HAS_ERROR) this.flags[this.parentOf[i]] |= HAS_ERROR;
      if (this.depth[i] > maxDepth) maxDepth = this.depth[i];
    }
    this.maxDepth = maxDepth;
    // A MISSING token that no cursor visits (a hidden one, such as Python's `_newline` at the end
    // of a cut-off statement) is an error of its ancestors in tree-sitter, which the columns,
    // read from the visible nodes, do not see. Asked of the root alone (one call); when it is the
    // only error, the tree is walked again for tree-sitter's own flags.
    if (!splice && !copied && !(this.flags[0] & HAS_ERROR) && (from as WasmTree).rootNode.hasError) markHiddenErrors(from as WasmTree, this.flags);
    this.idBase = nextIdBase;
    nextIdBase += this.length + 1;
    this.nodes = new Array<SyntaxNode | undefined>(this.length);
    if (reuse) this.matchTopLevel(reuse.tree, moves, shift);
    // A splice moves each top-level node of the previous tree once, to a place of its own.
    if (reuse || splice) this.adoptNodes(reuse?.tree ?? splice!.previous, moves, splice !== undefined);
    this.rootNode = this.node(0)!;
    if (b.nodeId) this.nodeIds = fit(b.nodeId);
    this.splicedText = splice ? { start: splice.at, end: splice.at + splice.part.source.length } : copied?.splicedText;
    if (splice) {
      // The previous tree's WASM tree (edited to this text, not parsed again) is the one the
      // next version parses from: it passes to this tree, with the ids of the nodes copied from it.
      const previous = splice.previous;
      this.wasm = previous.wasm;
      previous.wasm = undefined;
      previous.nodeIds = undefined;
      if (!this.wasm) this.nodeIds = undefined;
    } else if (options.keepWasm && !copied) {
      // Taken last: when building fails the caller still owns the WASM tree and frees it.
      this.wasm = from as WasmTree;
      keptWasmTrees++;
    }
  }

  /**
   * Adds to `moves` the top-level statements that tree-sitter parsed again but that are the
   * same as in `from`: the same text and the same subtree, node for node. Why: after a syntax
   * error tree-sitter often reuses nothing from the error to the end of the file (Python's
   * indentation), though the statements there come out as they were.
   */
  private matchTopLevel(from: SyntaxTree, moves: number[], shift: number): void {
    const copiedRoots = new Set<number>();
    for (let m = 2; m < moves.length; m += 3) copiedRoots.add(moves[m]);
    const oldByStart = new Map<number, number>();
    for (let c = 1; c < from.length; c = from.subtreeEnd[c]) if (!oldByStart.has(from.start[c])) oldByStart.set(from.start[c], c);
    for (let c = 1; c < this.length; c = this.subtreeEnd[c]) {
      if (copiedRoots.has(c)) continue;
      for (const at of shift === 0 ? [this.start[c]] : [this.start[c], this.start[c] - shift]) {
        const o = oldByStart.get(at);
        if (o !== undefined && sameSubtree(from, o, this, c)) {
          moves.push(o, from.subtreeEnd[o], c);
          break;
        }
      }
    }
  }

  /**
   * Takes over the node views of `from` (the previous version of the text) for its subtrees
   * this tree holds unchanged: `moves` lists them as [old root, old end, new root]. The views
   * move with what they have read about their subtrees (`exprView`, and `functionView` and
   * `indexView` below the subtree's root, whose parent may be new), so that a keystroke does
   * not make and read again a view for every node of the file. Why this is sound: a copied
   * subtree has the same types, fields, shape and text (see SyntaxTreeOptions.reuse), an
   * adapter's expression view reads only a node's own subtree, and its function and index views
   * read beyond the subtree only the node's parent (decorators, the statement a binding is in). `from` loses the views (it is the tree of a text that is gone).
   */
  private adoptNodes(from: SyntaxTree, moves: readonly number[], disjoint: boolean): void {
    // A subtree of the old text may be found twice (a statement written again beside itself:
    // copied where it was, and matched by its text where the copy is; a statement whose children
    // were copied one by one, and the statement itself matched elsewhere). Each old node moves
    // once, by the first move that takes it; a later move that would take one of its nodes by
    // another offset, or put one where another move put a node, takes none: its views would
    // read nodes that now sit elsewhere.
    const oldTaken = disjoint ? undefined : scratch(0, from.length);
    const newTaken = disjoint ? undefined : scratch(1, this.length);
    const OFFSET = 1 << 30;
    const roots: number[] = [];
    for (let m = 0; m < moves.length; m += 3) {
      const root = moves[m];
      const stop = moves[m + 1];
      const move = moves[m + 2] - root;
      if (oldTaken && newTaken) {
        let clash = false;
        for (let o = root; o < stop && !clash; o++) clash = (oldTaken[o] !== 0 && oldTaken[o] !== move + OFFSET) || (newTaken[o + move] !== 0 && newTaken[o + move] !== o + 1);
        if (clash) continue;
        for (let o = root; o < stop; o++) {
          oldTaken[o] = move + OFFSET;
          newTaken[o + move] = o + 1;
        }
      }
      roots.push(root + move);
      for (let o = root; o < stop; o++) {
        const node = from.nodes[o];
        if (!node) continue;
        from.nodes[o] = undefined;
        node.tree = this;
        node.index = o + move;
        // The root's parent may be new: the views that read the parent go.
        if (o === root) node.functionView = node.indexView = undefined;
        this.nodes[o + move] = node;
      }
    }
    this.adoptedRoots = roots.sort((x, y) => x - y);
  }

  /**
   * Whether node i's subtree was taken over from the previous tree by one move of its own: the
   * same subtree, node for node, whose views (but the node's own, which read its parent) it
   * keeps. A subtree that took parts over by several moves lost the views of each part's root.
   */
  tookOverWhole(i: number): boolean {
    const roots = this.adoptedRoots;
    const lo = firstAtLeast(roots, i, roots.length);
    return roots[lo] === i && (lo + 1 === roots.length || roots[lo + 1] >= this.subtreeEnd[i]);
  }

  /**
   * For a spliced tree (see `splicedText`): `clean` when it has no error (it is then the one a
   * parse of the whole text gives), `with-error` when the text has a syntax error (the
   * statements around the one parsed are kept as they were read before).
   */
  get spliced(): 'clean' | 'with-error' | undefined {
    return this.splicedText && (this.rootNode.hasError ? 'with-error' : 'clean');
  }

  /** The WASM tree this tree holds (until `release()`), to parse the next version of the text from. */
  get wasmTree(): WasmTree | undefined {
    return this.wasm;
  }

  /** tree-sitter's id of each node, while they are known (see `nodeIds`). */
  get recordedNodeIds(): Int32Array | undefined {
    return this.nodeIds;
  }

  /** True when the next tree can copy this one's subtrees (its WASM tree is alive and its node ids known). */
  get reusable(): boolean {
    return this.wasm !== undefined && this.nodeIds !== undefined;
  }

  /**
   * Frees the WASM tree, if this tree holds one (a second call does nothing). The node ids go
   * with it: once the memory is freed, a new subtree may get the address of an old one.
   */
  release(): void {
    if (!this.wasm) return;
    this.wasm.delete();
    this.wasm = undefined;
    this.nodeIds = undefined;
    keptWasmTrees--;
  }

  /** The first child of node i (-1 when it has none): the node after it, when that is in its subtree. */
  firstChild(i: number): number {
    return i + 1 < this.subtreeEnd[i] ? i + 1 : -1;
  }

  /** The sibling after node i (-1 when it is its parent's last child, or the root): the node its subtree ends before, when that is in its parent's. */
  nextSibling(i: number): number {
    const p = this.parentOf[i];
    return p >= 0 && this.subtreeEnd[i] < this.subtreeEnd[p] ? this.subtreeEnd[i] : -1;
  }

  /** The sibling before node i (-1 when it is the first child, or the root): the ancestor of the node before it that is a child of the same parent. */
  prevSibling(i: number): number {
    const p = this.parentOf[i];
    if (p < 0 || i === p + 1) return -1;
    let j = i - 1;
    while (this.parentOf[j] !== p) j = this.parentOf[j];
    return j;
  }

  /** The last child of node i (-1 when it has none): the ancestor of its last descendant that is its child. */
  lastChild(i: number): number {
    let j = this.subtreeEnd[i] - 1;
    if (j <= i) return -1;
    while (this.parentOf[j] !== i) j = this.parentOf[j];
    return j;
  }

  /** Whether pinViews marked the nodes whose views dropViews keeps (PINNED in `flags`). */
  private pins = false;
  /** Whether a view was made since the last dropViews. */
  private viewsMade = false;

  /**
   * The nodes whose views are kept between analyses (dropViews): those of `held` (indexes), the
   * ones the file's index holds. Any other view, made while indexing or later, goes at the next
   * dropViews. Marked in `flags` (a column of its own was a byte per node, allocated per tree).
   */
  pinViews(held: readonly number[]): void {
    const flags = this.flags;
    // A tree made as a copy of another (copyColumns) carries that tree's marks with its flags.
    for (let i = 0; i < flags.length; i++) flags[i] &= ~PINNED;
    for (const i of held) flags[i] |= PINNED;
    this.pins = true;
    // The other views made while indexing go at the next dropViews.
    this.viewsMade = true;
  }

  /**
   * Lets go of what was made of this tree since the last call: the views of the nodes not
   * pinned, and the expression and function views kept on the pinned ones (they hold views of
   * the others). Only for a tree whose views nothing but the file's index holds any more
   * (between two analyses). A view let go of is given `failing` as its tree, if any (a test's
   * tree whose every read fails). Answers how many views were let go of.
   */
  dropViews(failing?: SyntaxTree): number {
    if (!this.pins || !this.viewsMade) return 0;
    this.viewsMade = false;
    const nodes = this.nodes;
    const flags = this.flags;
    let dropped = 0;
    for (let i = 0; i < nodes.length; i++) {
      const v = nodes[i];
      if (v === undefined) continue;
      if (flags[i] & PINNED) {
        v.exprView = undefined;
        v.functionView = undefined;
      } else {
        nodes[i] = undefined;
        if (failing) v.tree = failing;
        dropped++;
      }
    }
    return dropped;
  }

  /** The view of node i if one has been made (or taken over from the previous tree), without making one. */
  madeNode(i: number): SyntaxNode | undefined {
    return this.nodes[i];
  }

  /**
   * The named nodes of the types of `mask` (a typeMask) among nodes `from` to `to` (indexes, so
   * a subtree or a run of subtrees), in pre-order: a part of a walk of the whole tree.
   */
  forEachNamedIn(mask: Uint8Array, from: number, to: number, visit: (node: SyntaxNode) => void): void {
    const { flags, typeId } = this;
    for (let i = from; i < to; i++) if (flags[i] & NAMED && mask[typeId[i]]) visit(this.node(i)!);
  }

  /** The node at index i (views are made once, so the same node is the same object). */
  node(i: number): SyntaxNode | null {
    if (i < 0 || i >= this.length) return null;
    let v = this.nodes[i];
    if (v === undefined) {
      v = this.nodes[i] = new SyntaxNode(this, i);
      this.viewsMade = true;
    }
    return v;
  }

  /** The index of node i's childForFieldName(name) (-1: none), without making a view. */
  fieldChild(i: number, name: string): number {
    const field = this.grammar.fieldIds.get(name);
    if (field === undefined || this.typeId[i] === ERROR_TYPE_ID) return -1;
    for (let c = i + 1, stop = this.subtreeEnd[i]; c < stop; c = this.subtreeEnd[c]) if (this.fieldId[c] === field) return c;
    return -1;
  }

  /** Whether node i's text (SyntaxNode.text) is `text`, without slicing it. */
  textIs(i: number, text: string): boolean {
    const start = this.start[i];
    return this.end[i] - start === text.length && this.source.startsWith(text, start);
  }

  /** The type of node i (as SyntaxNode.type), without making its view. */
  typeName(i: number): string {
    return typeNameOf(this.grammar, this.typeId[i]);
  }

  /** Whether node i or a node below it is an error (as SyntaxNode.hasError), without making its view. */
  hasError(i: number): boolean {
    return (this.flags[i] & HAS_ERROR) !== 0;
  }

  /** Whether node i is named (as SyntaxNode.isNamed), without making its view. */
  isNamed(i: number): boolean {
    return (this.flags[i] & NAMED) !== 0;
  }

  /**
   * A mask over this grammar's type ids: 1 for the ids whose name is in `names`. Walks that look
   * for a few node types test it on the tree's arrays and make a view only for the nodes they
   * want (most nodes are names, strings, punctuation). Kept per grammar and set of names.
   */
  typeMask(names: ReadonlySet<string>): Uint8Array {
    let byNames = typeMasks.get(this.grammar);
    if (!byNames) typeMasks.set(this.grammar, (byNames = new WeakMap()));
    let mask = byNames.get(names);
    if (!mask) {
      mask = new Uint8Array(0x10000);
      // The grammar's own ids one by one, then every other id at once: each of those is `ERROR`
      // (typeNameOf). A test of all 65,536 ids took ~1.5 ms a mask, ~20 ms of each thread's start.
      const known = Math.min(this.grammar.types.length, mask.length);
      for (let id = 0; id < known; id++) if (names.has(typeNameOf(this.grammar, id))) mask[id] = 1;
      if (names.has('ERROR')) mask.fill(1, known);
      byNames.set(names, mask);
    }
    return mask;
  }

  /** 0-based row and UTF-16 column of an offset. */
  position(offset: number): { row: number; column: number } {
    const starts = (this.lineStarts ??= lineStartsOf(this.source));
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { row: lo, column: offset - starts[lo] };
  }
}

/** What the constructor reuses of the previous tree when it reads a WASM tree parsed from that tree's. */
interface Reuse {
  tree: SyntaxTree;
  nodeIds: Int32Array;
  ids: IdFilter;
}

/** Reads a WASM tree into columns, copying the subtrees tree-sitter reused from `reuse` (listed in `moves`). */
function readColumns(wasm: WasmTree, source: string, grammar: GrammarTables, options: SyntaxTreeOptions, reuse: Reuse | undefined, shift: number, moves: number[]): Builder {
  // tree-sitter counts the visible nodes of a tree (the ones a cursor visits): columns of that
  // size are filled exactly and kept as they are, with no grow and no trimmed copy (for a large
  // file those copies doubled the memory a tree takes while it is read). Without the count: an
  // edit changes the number of nodes little, so start from the previous tree's size.
  const visible = visibleNodes(wasm);
  const capacity = visible ?? (reuse ? reuse.tree.length + (reuse.tree.length >> 3) : source.length >> 2);
  // Reusing reads the ids of the new tree's nodes anyway, so they are recorded as well.
  const b = new Builder(Math.max(64, capacity), options.recordNodeIds === true || reuse !== undefined, reuse);
  const cursor = walkOf(wasm);
  // Without ids to record or subtrees to reuse, the tree is read from the module's memory when
  // the cursor works on it directly (the tree is the binding's module's: walkOf checked); a tree
  // that fails the reader's checks is read with the cursor.
  if (memoryReading && lastWalk === 'direct' && !b.nodeId && visible !== undefined && binding) {
    const read = { typeCount: grammar.types.length, fieldCount: grammar.fields.length, named: grammar.named, flags: MEMORY_READ_FLAGS };
    if (readTreeMemory(binding.memory(), cursor.tree, b, read, visible, grammar)) {
      cursor.end();
      lastWalk = 'memory';
      return b;
    }
    b.length = 0;
  }
  const { tree, nodeId, startIndex, endIndex, typeId, fieldId, isMissing, firstChild, nextSibling, parent: toParent } = cursor;
  const stack: number[] = [];
  let descending = true;
  try {
    for (;;) {
      if (descending) {
        const parent = stack.length ? stack[stack.length - 1] : -1;
        const id = b.nodeId ? nodeId(tree) | 0 : 0;
        const start = startIndex(tree);
        let copied = false;
        if (reuse && id !== 0 && reuse.ids.mayHold(id)) {
          const from = reuse.tree;
          let old = nodeWithId(from, reuse.nodeIds, id, start);
          if (old < 0 && shift !== 0) old = nodeWithId(from, reuse.nodeIds, id, start - shift);
          // The same subtree has the same size; checked anyway, as a mismatch would corrupt the tree silently.
          if (old >= 0 && endIndex(tree) - start === from.end[old] - from.start[old]) {
            moves.push(old, from.subtreeEnd[old], b.length);
            b.copySubtree(from, reuse.nodeIds, old, parent, fieldId(tree), start - from.start[old], stack.length);
            copied = true;
          }
        }
        if (!copied) {
          const end = endIndex(tree);
          const type = typeId(tree);
          let flags = type === ERROR_TYPE_ID ? NAMED | HAS_ERROR : grammar.named[type] ? NAMED : 0;
          // Only a zero-width node can be a MISSING token; asking only then saves a WASM call per node.
          if (start === end && isMissing(tree) === 1) flags |= MISSING | HAS_ERROR;
          const i = b.add(parent, type, fieldId(tree), flags, start, end, stack.length);
          if (b.nodeId) b.nodeId[i] = id;
          if (firstChild(tree) === 1) {
            stack.push(i);
            continue;
          }
          b.subtreeEnd[i] = i + 1;
        }
      }
      if (nextSibling(tree) === 1) {
        descending = true;
        continue;
      }
      if (!stack.length || toParent(tree) !== 1) break;
      b.subtreeEnd[stack.pop()!] = b.length;
      descending = false;
    }
  } finally {
    cursor.end();
  }
  for (const p of stack) b.subtreeEnd[p] = b.length;
  return b;
}

/** Sets HAS_ERROR on the nodes (in the cursor's pre-order, as the columns) that tree-sitter says have an error below them. */
function markHiddenErrors(wasm: WasmTree, flags: Uint8Array): void {
  const cursor = wasm.walk();
  let i = 0;
  let descending = true;
  try {
    for (;;) {
      if (descending) {
        if (i >= flags.length) break;
        if (cursor.currentNode.hasError) flags[i] |= HAS_ERROR;
        i++;
        if (cursor.gotoFirstChild()) continue;
      }
      if (cursor.gotoNextSibling()) {
        descending = true;
        continue;
      }
      if (!cursor.gotoParent()) break;
      descending = false;
    }
  } finally {
    cursor.delete();
  }
}

/**
 * An editor buffer's new tree made without parsing the whole text: the previous tree, with the
 * run of its top-level nodes from `first` to `last` (the statement an edit was in) replaced by
 * the top-level nodes of `part`, the new text of that statement parsed on its own. Parsers.parseEdited decides when
 * that reads the text as a parse of all of it would (or, for a statement with a syntax error,
 * better: tree-sitter's recovery from an error can take in the statements after it, and takes
 * tens of milliseconds on a large file).
 */
export interface StatementSplice {
  previous: SyntaxTree;
  /** The run of top-level nodes of `previous` replaced (its first and last). */
  first: number;
  last: number;
  part: SyntaxTree;
  /** Where the statement starts in the new text (`part` is the text from here). */
  at: number;
}

/** The columns of a copy of `tree`. */
function copyColumns(tree: SyntaxTree): Builder {
  const b = new Builder(tree.length, false);
  b.copySubtree(tree, undefined, 0, -1, tree.fieldId[0], 0, 0);
  return b;
}

function isSplice(from: WasmTree | StatementSplice | SyntaxTree): from is StatementSplice {
  return (from as Partial<StatementSplice>).part instanceof SyntaxTree;
}

/** The columns of a StatementSplice; the top-level nodes copied from the previous tree are listed in `moves`. */
function spliceColumns(s: StatementSplice, source: string, moves: number[]): Builder {
  const { previous, first, last, part, at } = s;
  const ids = previous.recordedNodeIds;
  const shift = source.length - previous.source.length;
  const b = new Builder(Math.max(64, previous.length - (previous.subtreeEnd[last] - first) + part.length), ids !== undefined, { tree: previous, nodeIds: ids, upTo: first });
  // The root spans the same start (the edit is inside a statement) to the end of the text; its
  // error flag comes from its children, and from the statement parsed alone (an error none of its
  // nodes holds: a hidden MISSING token). Its tree-sitter id is not kept: the edit changed it.
  b.add(-1, previous.typeId[0], 0, (previous.flags[0] & NAMED) | (part.flags[0] & HAS_ERROR), previous.start[0], previous.end[0] + shift, 0);
  for (let c = 1; c < previous.length; c = previous.subtreeEnd[c]) {
    if (c < first) {
      moves.push(c, previous.subtreeEnd[c], b.length);
      b.copySubtree(previous, ids, c, 0, previous.fieldId[c], 0, 1);
      continue;
    }
    if (c > last) {
      // The statements after the edit, all at once: one run of the old columns.
      const move = b.length - c;
      for (let r = c; r < previous.length; r = previous.subtreeEnd[r]) moves.push(r, previous.subtreeEnd[r], r + move);
      b.copyTopLevelRun(previous, ids, c, shift);
      break;
    }
    if (c !== first) continue;
    // A text tree-sitter could not read as statements at all has an error for its root: that goes in as one node.
    if (part.typeId[0] !== previous.typeId[0]) b.copySubtree(part, undefined, 0, 0, 0, at, 1);
    else for (let p = 1; p < part.length; p = part.subtreeEnd[p]) b.copySubtree(part, undefined, p, 0, part.fieldId[p], at, 1);
  }
  b.subtreeEnd[0] = b.length;
  return b;
}

/** Two zeroed Int32Arrays kept between keystrokes (adoptNodes' bookkeeping), at least `length` long. */
const scratchArrays: Int32Array[] = [new Int32Array(0), new Int32Array(0)];
function scratch(which: 0 | 1, length: number): Int32Array {
  if (scratchArrays[which].length < length) scratchArrays[which] = new Int32Array(length + (length >> 2));
  else scratchArrays[which].fill(0, 0, length);
  return scratchArrays[which];
}

/** The number of nodes a cursor visits in a tree (the root and its visible descendants), if web-tree-sitter says. */
function visibleNodes(wasm: WasmTree): number | undefined {
  const n = (wasm.rootNode as { descendantCount?: unknown }).descendantCount;
  return typeof n === 'number' && n > 0 ? n : undefined;
}

const typeMasks = new WeakMap<GrammarTables, WeakMap<ReadonlySet<string>, Uint8Array>>();

/** A type id's name (as SyntaxNode.type): tree-sitter's error id and ids the grammar does not name are `ERROR`. */
function typeNameOf(grammar: GrammarTables, id: number): string {
  return id === ERROR_TYPE_ID ? 'ERROR' : (grammar.types[id] ?? 'ERROR');
}

function lineStartsOf(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) starts.push(i + 1);
    else if (c === 13 && text.charCodeAt(i + 1) !== 10) starts.push(i + 1);
  }
  return starts;
}

/**
 * Which tree-sitter ids a tree may hold: one bit per hash of an id, so that a node of the new
 * tree whose id the old tree cannot hold is not looked for there (after a syntax error, tens of
 * thousands of nodes are new). A set bit may be another id's (then the look-up finds nothing).
 */
class IdFilter {
  private readonly bits = new Int32Array(1 << 15);

  constructor(ids: Int32Array) {
    for (let i = 0; i < ids.length; i++) {
      const h = Math.imul(ids[i], 0x9e3779b1) >>> 12;
      this.bits[h >>> 5] |= 1 << (h & 31);
    }
  }

  mayHold(id: number): boolean {
    const h = Math.imul(id, 0x9e3779b1) >>> 12;
    return (this.bits[h >>> 5] & (1 << (h & 31))) !== 0;
  }
}

/**
 * Whether node `o` of tree `a` and node `n` of tree `b` root the same subtree: the same text,
 * and node for node the same type, flags, field (but the root's, which its parent gives),
 * offsets, parent and subtree end (so the same children and siblings) relative to the root. Run
 * once the error flags reach every ancestor.
 */
function sameSubtree(a: SyntaxTree, o: number, b: SyntaxTree, n: number): boolean {
  const count = a.subtreeEnd[o] - o;
  if (b.subtreeEnd[n] - n !== count || a.end[o] - a.start[o] !== b.end[n] - b.start[n]) return false;
  if (a.source.slice(a.start[o], a.end[o]) !== b.source.slice(b.start[n], b.end[n])) return false;
  const shift = b.start[n] - a.start[o];
  const move = n - o;
  const deeper = b.depth[n] - a.depth[o];
  for (let k = 0; k < count; k++) {
    const i = o + k;
    const j = n + k;
    if (a.typeId[i] !== b.typeId[j] || a.flags[i] !== b.flags[j] || a.start[i] + shift !== b.start[j] || a.end[i] + shift !== b.end[j] || a.depth[i] + deeper !== b.depth[j] || a.subtreeEnd[i] + move !== b.subtreeEnd[j]) return false;
    if (k === 0) continue;
    if (a.fieldId[i] !== b.fieldId[j] || a.parentOf[i] + move !== b.parentOf[j]) return false;
  }
  return true;
}

/** The first index below `length` of an ascending array whose value is at least `value` (`length` when none is). */
function firstAtLeast(sorted: ArrayLike<number>, value: number, length: number): number {
  let lo = 0;
  let hi = length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The index of the node of `tree` with tree-sitter id `id` that starts at `start`, or -1. Nodes
 * in pre-order start in order, so those starting at one offset are a run (a node, its first
 * descendants, empty nodes), found by binary search. Why not a table of every id: the new
 * tree asks for only the nodes around the edit, and a table of 50,000 ids built on every
 * keystroke cost more than the rest of reading the tree.
 */
function nodeWithId(tree: SyntaxTree, nodeIds: Int32Array, id: number, start: number): number {
  const starts = tree.start;
  for (let i = firstAtLeast(starts, start, tree.length); i < tree.length && starts[i] === start; i++) if (nodeIds[i] === id) return i;
  return -1;
}

/** to[at + k] = from[start + k] + add, for k < stop - start. */
function addInto(to: Int32Array, from: Int32Array, start: number, stop: number, at: number, add: number): void {
  for (let o = start, i = at; o < stop; o++, i++) to[i] = from[o] + add;
}

/** Growable columns for the one pass that reads a tree. */
class Builder {
  length = 0;
  typeId: Uint16Array;
  fieldId: Uint16Array;
  flags: Uint8Array;
  start: Int32Array;
  end: Int32Array;
  parent: Int32Array;
  subtreeEnd: Int32Array;
  depth: Int32Array;
  /** tree-sitter's node ids, when recorded. */
  nodeId: Int32Array | undefined;
  /** Nodes copied from the base tree (a previous version's; not a statement parsed alone). */
  copied = 0;

  /**
   * Nodes of `base` that are in the columns at their own index until written over: the
   * columns start as a copy of the previous tree's (`base`), and a subtree copied from it to
   * the same index, offsets and depth (everything before an edit) then needs no writing.
   */
  private readonly inPlace: number;

  /** The tree whose columns these start as a copy of. */
  private readonly base: SyntaxTree | undefined;

  constructor(
    private capacity: number,
    recordNodeIds: boolean,
    /** `upTo`: only the nodes before this one can stay in place (a splice's, before the statement it replaces). */
    base?: { tree: SyntaxTree; nodeIds?: Int32Array; upTo?: number },
  ) {
    const kept = Math.min(base?.upTo ?? capacity, capacity);
    const t = base?.tree;
    const c = columnsOf(capacity);
    this.typeId = c.typeId;
    this.fieldId = c.fieldId;
    this.flags = c.flags;
    this.start = c.start;
    this.end = c.end;
    this.parent = c.parentOf;
    this.subtreeEnd = c.subtreeEnd;
    this.depth = c.depth;
    if (t) {
      const from = (a: Uint16Array | Uint8Array | Int32Array) => a.subarray(0, Math.min(a.length, kept));
      this.typeId.set(from(t.typeId));
      this.fieldId.set(from(t.fieldId));
      this.flags.set(from(t.flags));
      this.start.set(from(t.start));
      this.end.set(from(t.end));
      this.parent.set(from(t.parentOf));
      this.subtreeEnd.set(from(t.subtreeEnd));
      this.depth.set(from(t.depth));
    }
    this.nodeId = recordNodeIds ? new Int32Array(capacity) : undefined;
    if (this.nodeId && base?.nodeIds) this.nodeId.set(base.nodeIds.subarray(0, Math.min(base.nodeIds.length, kept)));
    this.inPlace = t ? Math.min(t.length, kept) : 0;
    this.base = t;
  }

  add(parent: number, type: number, field: number, flags: number, start: number, end: number, depth: number): number {
    if (this.length === this.capacity) this.grow();
    const i = this.length++;
    this.typeId[i] = type;
    this.fieldId[i] = field;
    this.flags[i] = flags;
    this.start[i] = start;
    this.end[i] = end;
    this.depth[i] = depth;
    this.parent[i] = parent;
    return i;
  }

  /**
   * Appends node `root` of `from` and its descendants (a range in pre-order) as a child of
   * `parent`: indexes move by one amount, offsets by `shift`, depths so that the root lands at
   * `depth`. Flags come along unchanged: a node's HAS_ERROR only reflects its own subtree until
   * the constructor's final pass carries errors up to the new ancestors.
   */
  copySubtree(from: SyntaxTree, fromNodeIds: Int32Array | undefined, root: number, parent: number, field: number, shift: number, depth: number): void {
    const stop = from.subtreeEnd[root];
    const at = this.length;
    const deeper = depth - from.depth[root];
    if (from === this.base && at === root && shift === 0 && deeper === 0 && stop <= this.inPlace) {
      // Already in the columns (see inPlace): only the root's place in its new parent is written.
      this.length += stop - root;
      this.copied += stop - root;
    } else this.copyNodes(from, fromNodeIds, root, stop, shift, deeper);
    // The root's field and parent are this tree's, not the old one's.
    this.fieldId[at] = field;
    this.parent[at] = parent;
  }

  /**
   * Copies the top-level statements of `from` from `root` to the last one, as copySubtree copies
   * each (offsets moved by `shift`, at the same depth) in one pass over the columns: after an
   * edit most of a file's statements follow it.
   */
  copyTopLevelRun(from: SyntaxTree, fromNodeIds: Int32Array | undefined, root: number, shift: number): void {
    const move = this.length - root;
    this.copyNodes(from, fromNodeIds, root, from.subtreeEnd[0], shift, 0);
    // Each statement's parent is this tree's root.
    for (let r = root; r < from.length; r = from.subtreeEnd[r]) this.parent[r + move] = 0;
  }

  /** Appends nodes `root` to `stop` of `from`, their offsets moved by `shift` and their depths by `deeper`. */
  private copyNodes(from: SyntaxTree, fromNodeIds: Int32Array | undefined, root: number, stop: number, shift: number, deeper: number): void {
    const count = stop - root;
    while (this.length + count > this.capacity) this.grow();
    const at = this.length;
    const move = at - root;
    this.typeId.set(from.typeId.subarray(root, stop), at);
    this.fieldId.set(from.fieldId.subarray(root, stop), at);
    this.flags.set(from.flags.subarray(root, stop), at);
    // Nodes of a tree with no ids recorded get none (0): no later tree takes them for its own.
    if (this.nodeId) {
      if (fromNodeIds) addInto(this.nodeId, fromNodeIds, root, stop, at, 0);
      else this.nodeId.fill(0, at, at + count);
    }
    // One column at a time: a copy, then one addition per element (an edit copies almost the whole tree).
    addInto(this.start, from.start, root, stop, at, shift);
    addInto(this.end, from.end, root, stop, at, shift);
    addInto(this.parent, from.parentOf, root, stop, at, move);
    addInto(this.subtreeEnd, from.subtreeEnd, root, stop, at, move);
    if (deeper === 0) this.depth.set(from.depth.subarray(root, stop), at);
    else addInto(this.depth, from.depth, root, stop, at, deeper);
    this.length += count;
    if (from === this.base) this.copied += count;
  }

  private grow(): void {
    this.capacity *= 2;
    const c = columnsOf(this.capacity);
    c.typeId.set(this.typeId);
    c.fieldId.set(this.fieldId);
    c.flags.set(this.flags);
    c.start.set(this.start);
    c.end.set(this.end);
    c.parentOf.set(this.parent);
    c.subtreeEnd.set(this.subtreeEnd);
    c.depth.set(this.depth);
    ({ typeId: this.typeId, fieldId: this.fieldId, flags: this.flags, start: this.start, end: this.end, parentOf: this.parent, subtreeEnd: this.subtreeEnd, depth: this.depth } = c);
    if (this.nodeId) {
      const ids = new Int32Array(this.capacity);
      ids.set(this.nodeId);
      this.nodeId = ids;
    }
  }
}

/** A tree's columns, as SyntaxTree keeps them. */
interface Columns {
  typeId: Uint16Array;
  fieldId: Uint16Array;
  flags: Uint8Array;
  start: Int32Array;
  end: Int32Array;
  parentOf: Int32Array;
  subtreeEnd: Int32Array;
  depth: Int32Array;
}

/** Bytes a node takes in the columns. */
const COLUMN_BYTES = 5 * 4 + 2 * 2 + 1;

/**
 * Zeroed columns for `capacity` nodes, all in one buffer (the 4-byte ones first, so that each
 * starts aligned): one allocation a tree instead of eight, freed together. Parsing and reading
 * 1,500 files of the real-code corpus (2.2 M nodes) in one process: ~1,940–2,010 ms a round with
 * a buffer per column, ~1,880–1,940 ms with one; the corpus run's peak RSS did not change.
 */
function columnsOf(capacity: number): Columns {
  // A large tree's columns are not taken from malloc (see pageBacked.ts).
  const buffer = zeroedBuffer(capacity * COLUMN_BYTES);
  const int32 = (k: number) => new Int32Array(buffer, k * 4 * capacity, capacity);
  return {
    start: int32(0),
    end: int32(1),
    parentOf: int32(2),
    subtreeEnd: int32(3),
    depth: int32(4),
    typeId: new Uint16Array(buffer, 20 * capacity, capacity),
    fieldId: new Uint16Array(buffer, 22 * capacity, capacity),
    flags: new Uint8Array(buffer, 24 * capacity, capacity),
  };
}

/** The first `n` nodes of columns, in a buffer of their own. */
function trimmedColumns(c: Columns, n: number): Columns {
  const out = columnsOf(n);
  out.typeId.set(c.typeId.subarray(0, n));
  out.fieldId.set(c.fieldId.subarray(0, n));
  out.flags.set(c.flags.subarray(0, n));
  out.start.set(c.start.subarray(0, n));
  out.end.set(c.end.subarray(0, n));
  out.parentOf.set(c.parentOf.subarray(0, n));
  out.subtreeEnd.set(c.subtreeEnd.subarray(0, n));
  out.depth.set(c.depth.subarray(0, n));
  return out;
}

/** A node of a SyntaxTree: the web-tree-sitter `Node` reads the analysis uses, from arrays. */
export class SyntaxNode {
  /**
   * What the language adapter reads this node as (its `expr`), kept on the node: the analysis
   * asks it for the same node many times (every look-up of a call's callers reads every call).
   */
  exprView: unknown = undefined;
  /** The same for a function node's parameters and returns (the adapter's `functionInfo`). */
  functionView: unknown = undefined;
  /** What the file's index reads of the node: its bindings, list change, call and scope (see FileUnit). */
  indexView: unknown = undefined;

  constructor(
    /** The tree the node belongs to: the next version's, once that tree takes the node over (SyntaxTree.adoptNodes). */
    public tree: SyntaxTree,
    /** Pre-order index in the tree. */
    public index: number,
  ) {}

  get id(): number {
    return this.tree.idBase + this.index;
  }

  get type(): string {
    return this.tree.typeName(this.index);
  }

  get startIndex(): number {
    return this.tree.start[this.index];
  }

  get endIndex(): number {
    return this.tree.end[this.index];
  }

  get startPosition(): { row: number; column: number } {
    return this.tree.position(this.startIndex);
  }

  get endPosition(): { row: number; column: number } {
    return this.tree.position(this.endIndex);
  }

  get text(): string {
    return this.tree.source.slice(this.tree.start[this.index], this.tree.end[this.index]);
  }

  get isNamed(): boolean {
    return (this.tree.flags[this.index] & NAMED) !== 0;
  }

  get isMissing(): boolean {
    return (this.tree.flags[this.index] & MISSING) !== 0;
  }

  get isError(): boolean {
    return this.tree.typeId[this.index] === ERROR_TYPE_ID;
  }

  get hasError(): boolean {
    return (this.tree.flags[this.index] & HAS_ERROR) !== 0;
  }

  get parent(): SyntaxNode | null {
    return this.tree.node(this.tree.parentOf[this.index]);
  }

  get nextSibling(): SyntaxNode | null {
    return this.tree.node(this.tree.nextSibling(this.index));
  }

  get previousSibling(): SyntaxNode | null {
    return this.tree.node(this.tree.prevSibling(this.index));
  }

  get firstChild(): SyntaxNode | null {
    return this.tree.node(this.tree.firstChild(this.index));
  }

  get previousNamedSibling(): SyntaxNode | null {
    const t = this.tree;
    let i = t.prevSibling(this.index);
    while (i >= 0 && !(t.flags[i] & NAMED)) i = t.prevSibling(i);
    return t.node(i);
  }

  get children(): SyntaxNode[] {
    const t = this.tree;
    const out: SyntaxNode[] = [];
    for (let i = this.index + 1, stop = t.subtreeEnd[this.index]; i < stop; i = t.subtreeEnd[i]) out.push(t.node(i)!);
    return out;
  }

  get namedChildren(): SyntaxNode[] {
    const t = this.tree;
    const out: SyntaxNode[] = [];
    for (let i = this.index + 1, stop = t.subtreeEnd[this.index]; i < stop; i = t.subtreeEnd[i]) if (t.flags[i] & NAMED) out.push(t.node(i)!);
    return out;
  }

  /** The named children but comments (what the adapters read as a node's parts), in one array. */
  get namedChildrenButComments(): SyntaxNode[] {
    const t = this.tree;
    const out: SyntaxNode[] = [];
    for (let i = this.index + 1, stop = t.subtreeEnd[this.index]; i < stop; i = t.subtreeEnd[i]) if (t.flags[i] & NAMED && t.typeName(i) !== 'comment') out.push(t.node(i)!);
    return out;
  }

  /** The first of namedChildrenButComments, without making the list. */
  get firstNamedChildButComment(): SyntaxNode | null {
    const t = this.tree;
    for (let i = this.index + 1, stop = t.subtreeEnd[this.index]; i < stop; i = t.subtreeEnd[i]) if (t.flags[i] & NAMED && t.typeName(i) !== 'comment') return t.node(i);
    return null;
  }

  /**
   * The first child with the field. An ERROR node has no fields of its own, as in tree-sitter,
   * though the cursor reports fields its children had in the rule recovery broke off.
   */
  childForFieldName(name: string): SyntaxNode | null {
    return this.tree.node(this.tree.fieldChild(this.index, name));
  }

  /**
   * The index in the tree of childForFieldName(name) (-1: none), without making its view: for a
   * look at its type or text before anything is made of it (SyntaxTree.typeName, textIs). Most
   * nodes a pass over a whole file asks about are not what it looks for, and a view made stays
   * as long as its tree.
   */
  fieldChildIndex(name: string): number {
    return this.tree.fieldChild(this.index, name);
  }

  /**
   * The first node of this subtree in pre-order, this node included, whose type is one of
   * `types` (a set kept for the life of the program) and whose text is `text`: what a walk that
   * tests each node's type and text finds first, with no view made of the others.
   */
  firstDescendantWithText(types: ReadonlySet<string>, text: string): SyntaxNode | null {
    const t = this.tree;
    const mask = t.typeMask(types);
    for (let i = this.index, stop = t.subtreeEnd[this.index]; i < stop; i++) if (mask[t.typeId[i]] && (i === this.index || t.flags[i] & NAMED) && t.textIs(i, text)) return t.node(i);
    return null;
  }

  childrenForFieldName(name: string): SyntaxNode[] {
    const t = this.tree;
    const field = t.grammar.fieldIds.get(name);
    const out: SyntaxNode[] = [];
    // Unlike childForFieldName, tree-sitter answers this one from the cursor, ERROR nodes included.
    if (field === undefined) return out;
    for (let i = this.index + 1, stop = t.subtreeEnd[this.index]; i < stop; i = t.subtreeEnd[i]) if (t.fieldId[i] === field) out.push(t.node(i)!);
    return out;
  }

  /** The field name this node has in its parent, if any. */
  get fieldName(): string | null {
    const f = this.tree.fieldId[this.index];
    return f ? (this.tree.grammar.fields[f] ?? null) : null;
  }

  /**
   * The smallest node inside this one that spans [start, end], with tree-sitter's rules: a
   * child must reach the end of the range and pass its start (an empty child need only touch it).
   */
  descendantForIndex(start: number, end = start): SyntaxNode {
    const t = this.tree;
    let node = this.index;
    for (let descended = true; descended; ) {
      descended = false;
      for (let c = node + 1, stop = t.subtreeEnd[node]; c < stop; c = t.subtreeEnd[c]) {
        const cEnd = t.end[c];
        if (cEnd < end) continue;
        const empty = t.start[c] === cEnd;
        if (empty ? cEnd < start : cEnd <= start) continue;
        if (start < t.start[c]) break;
        node = c;
        descended = true;
        break;
      }
    }
    return t.node(node)!;
  }

  /**
   * This node and the named nodes of its subtree in pre-order, with their depth below this
   * node: no view is made for the anonymous ones (punctuation, keywords, operators), which are
   * about half of a tree and which no walk of the analysis looks for.
   */
  forEachNamedDescendant(visit: (node: SyntaxNode, depth: number) => void): void {
    const t = this.tree;
    const base = t.depth[this.index];
    const flags = t.flags;
    visit(this, 0);
    for (let i = this.index + 1, stop = t.subtreeEnd[this.index]; i < stop; i++) if (flags[i] & NAMED) visit(t.node(i)!, t.depth[i] - base);
  }

  /**
   * What forEachNamedDescendant visits, restricted to the node types of `mask` (a
   * SyntaxTree.typeMask): the same nodes in the same order, with no view made for the others.
   */
  forEachNamedDescendantOf(mask: Uint8Array, visit: (node: SyntaxNode, depth: number) => void): void {
    const t = this.tree;
    const base = t.depth[this.index];
    const { flags, typeId } = t;
    // forEachNamedDescendant visits this node whether it is named or not.
    if (mask[typeId[this.index]]) visit(this, 0);
    for (let i = this.index + 1, stop = t.subtreeEnd[this.index]; i < stop; i++) if (flags[i] & NAMED && mask[typeId[i]]) visit(t.node(i)!, t.depth[i] - base);
  }

  /** Every node of this subtree in pre-order with its depth below this node. */
  forEachDescendant(visit: (node: SyntaxNode, depth: number) => void): void {
    const t = this.tree;
    const base = t.depth[this.index];
    for (let i = this.index, stop = t.subtreeEnd[this.index]; i < stop; i++) visit(t.node(i)!, t.depth[i] - base);
  }

  toString(): string {
    return `(${this.type} ${this.startIndex}-${this.endIndex})`;
  }
}
