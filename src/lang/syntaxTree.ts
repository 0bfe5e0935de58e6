/**
 * A syntax tree held in JavaScript: every visible node of a tree-sitter tree, read once with a
 * tree cursor into flat typed arrays in pre-order, and nodes that are views onto those arrays.
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
 */
import type { Tree as WasmTree } from 'web-tree-sitter';

/** Type and field names of one grammar, read once per language. */
export interface GrammarTables {
  types: readonly string[];
  /** Field id → name (index 0 is unused, as in tree-sitter). */
  fields: readonly (string | null)[];
  fieldIds: ReadonlyMap<string, number>;
  /** Named-ness of each type id. */
  named: Uint8Array;
}

const ERROR_TYPE_ID = 0xffff;
const NAMED = 1;
const MISSING = 2;
const HAS_ERROR = 4;

/** Ids unique across every tree of the process, as web-tree-sitter's node ids are. */
let nextIdBase = 1;

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
  readonly firstChildOf: Int32Array;
  readonly nextSiblingOf: Int32Array;
  readonly prevSiblingOf: Int32Array;
  readonly lastChildOf: Int32Array;
  /** Index just past each node's last descendant (pre-order, so a subtree is a range). */
  readonly subtreeEnd: Int32Array;
  readonly depth: Int32Array;
  private readonly nodes: (SyntaxNode | undefined)[];
  private lineStarts?: number[];

  constructor(
    /** The text that was parsed. */
    readonly source: string,
    readonly grammar: GrammarTables,
    wasm: WasmTree,
  ) {
    const b = new Builder(Math.max(64, source.length >> 2));
    const cursor = wasm.walk();
    const stack: number[] = [];
    let descending = true;
    for (;;) {
      if (descending) {
        const start = cursor.startIndex;
        const end = cursor.endIndex;
        const type = cursor.nodeTypeId;
        let flags = type === ERROR_TYPE_ID ? NAMED | HAS_ERROR : grammar.named[type] ? NAMED : 0;
        // Only a zero-width node can be a MISSING token; asking only then saves a WASM call per node.
        if (start === end && cursor.nodeIsMissing) flags |= MISSING | HAS_ERROR;
        const i = b.add(stack.length ? stack[stack.length - 1] : -1, type, cursor.currentFieldId, flags, start, end, stack.length);
        if (cursor.gotoFirstChild()) {
          stack.push(i);
          continue;
        }
        b.subtreeEnd[i] = i + 1;
      }
      if (cursor.gotoNextSibling()) {
        descending = true;
        continue;
      }
      if (!stack.length || !cursor.gotoParent()) break;
      b.subtreeEnd[stack.pop()!] = b.length;
      descending = false;
    }
    cursor.delete();
    for (const p of stack) b.subtreeEnd[p] = b.length;
    this.length = b.length;
    this.typeId = b.typeId.slice(0, b.length);
    this.fieldId = b.fieldId.slice(0, b.length);
    this.flags = b.flags.slice(0, b.length);
    this.start = b.start.slice(0, b.length);
    this.end = b.end.slice(0, b.length);
    this.parentOf = b.parent.slice(0, b.length);
    this.firstChildOf = b.firstChild.slice(0, b.length);
    this.lastChildOf = b.lastChild.slice(0, b.length);
    this.nextSiblingOf = b.nextSibling.slice(0, b.length);
    this.prevSiblingOf = b.prevSibling.slice(0, b.length);
    this.subtreeEnd = b.subtreeEnd.slice(0, b.length);
    this.depth = b.depth.slice(0, b.length);
    // An error anywhere below makes every ancestor report hasError, as in tree-sitter
    // (children come after their parent, so one backward pass carries it to the root).
    for (let i = this.length - 1; i > 0; i--) if (this.flags[i] & HAS_ERROR) this.flags[this.parentOf[i]] |= HAS_ERROR;
    this.idBase = nextIdBase;
    nextIdBase += this.length + 1;
    this.nodes = new Array<SyntaxNode | undefined>(this.length);
    this.rootNode = this.node(0)!;
  }

  /** The node at index i (views are made once, so the same node is the same object). */
  node(i: number): SyntaxNode | null {
    if (i < 0 || i >= this.length) return null;
    return (this.nodes[i] ??= new SyntaxNode(this, i));
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

function lineStartsOf(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) starts.push(i + 1);
    else if (c === 13 && text.charCodeAt(i + 1) !== 10) starts.push(i + 1);
  }
  return starts;
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
  firstChild: Int32Array;
  lastChild: Int32Array;
  nextSibling: Int32Array;
  prevSibling: Int32Array;
  subtreeEnd: Int32Array;
  depth: Int32Array;

  constructor(private capacity: number) {
    this.typeId = new Uint16Array(capacity);
    this.fieldId = new Uint16Array(capacity);
    this.flags = new Uint8Array(capacity);
    this.start = new Int32Array(capacity);
    this.end = new Int32Array(capacity);
    this.parent = new Int32Array(capacity);
    this.firstChild = new Int32Array(capacity);
    this.lastChild = new Int32Array(capacity);
    this.nextSibling = new Int32Array(capacity);
    this.prevSibling = new Int32Array(capacity);
    this.subtreeEnd = new Int32Array(capacity);
    this.depth = new Int32Array(capacity);
  }

  add(parent: number, type: number, field: number, flags: number, start: number, end: number, depth: number): number {
    if (this.length === this.capacity) this.grow();
    const i = this.length++;
    this.typeId[i] = type;
    this.fieldId[i] = field;
    this.flags[i] = flags;
    this.start[i] = start;
    this.end[i] = end;
    this.parent[i] = parent;
    this.firstChild[i] = -1;
    this.lastChild[i] = -1;
    this.nextSibling[i] = -1;
    this.prevSibling[i] = -1;
    this.depth[i] = depth;
    if (parent >= 0) {
      const last = this.lastChild[parent];
      if (last < 0) this.firstChild[parent] = i;
      else {
        this.nextSibling[last] = i;
        this.prevSibling[i] = last;
      }
      this.lastChild[parent] = i;
    }
    return i;
  }

  private grow(): void {
    this.capacity *= 2;
    const more = <T extends Uint16Array | Uint8Array | Int32Array>(a: T): T => {
      const b = new (a.constructor as new (n: number) => T)(this.capacity);
      b.set(a);
      return b;
    };
    this.typeId = more(this.typeId);
    this.fieldId = more(this.fieldId);
    this.flags = more(this.flags);
    this.start = more(this.start);
    this.end = more(this.end);
    this.parent = more(this.parent);
    this.firstChild = more(this.firstChild);
    this.lastChild = more(this.lastChild);
    this.nextSibling = more(this.nextSibling);
    this.prevSibling = more(this.prevSibling);
    this.subtreeEnd = more(this.subtreeEnd);
    this.depth = more(this.depth);
  }
}

/** A node of a SyntaxTree: the web-tree-sitter `Node` reads the analysis uses, from arrays. */
export class SyntaxNode {
  constructor(
    readonly tree: SyntaxTree,
    /** Pre-order index in the tree. */
    readonly index: number,
  ) {}

  get id(): number {
    return this.tree.idBase + this.index;
  }

  get type(): string {
    const t = this.tree.typeId[this.index];
    return t === ERROR_TYPE_ID ? 'ERROR' : (this.tree.grammar.types[t] ?? 'ERROR');
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

  get firstChild(): SyntaxNode | null {
    return this.tree.node(this.tree.firstChildOf[this.index]);
  }

  get lastChild(): SyntaxNode | null {
    return this.tree.node(this.tree.lastChildOf[this.index]);
  }

  get nextSibling(): SyntaxNode | null {
    return this.tree.node(this.tree.nextSiblingOf[this.index]);
  }

  get previousSibling(): SyntaxNode | null {
    return this.tree.node(this.tree.prevSiblingOf[this.index]);
  }

  get nextNamedSibling(): SyntaxNode | null {
    const t = this.tree;
    let i = t.nextSiblingOf[this.index];
    while (i >= 0 && !(t.flags[i] & NAMED)) i = t.nextSiblingOf[i];
    return t.node(i);
  }

  get previousNamedSibling(): SyntaxNode | null {
    const t = this.tree;
    let i = t.prevSiblingOf[this.index];
    while (i >= 0 && !(t.flags[i] & NAMED)) i = t.prevSiblingOf[i];
    return t.node(i);
  }

  get firstNamedChild(): SyntaxNode | null {
    const t = this.tree;
    let i = t.firstChildOf[this.index];
    while (i >= 0 && !(t.flags[i] & NAMED)) i = t.nextSiblingOf[i];
    return t.node(i);
  }

  get lastNamedChild(): SyntaxNode | null {
    const t = this.tree;
    let i = t.lastChildOf[this.index];
    while (i >= 0 && !(t.flags[i] & NAMED)) i = t.prevSiblingOf[i];
    return t.node(i);
  }

  get children(): SyntaxNode[] {
    const t = this.tree;
    const out: SyntaxNode[] = [];
    for (let i = t.firstChildOf[this.index]; i >= 0; i = t.nextSiblingOf[i]) out.push(t.node(i)!);
    return out;
  }

  get namedChildren(): SyntaxNode[] {
    const t = this.tree;
    const out: SyntaxNode[] = [];
    for (let i = t.firstChildOf[this.index]; i >= 0; i = t.nextSiblingOf[i]) if (t.flags[i] & NAMED) out.push(t.node(i)!);
    return out;
  }

  get childCount(): number {
    let n = 0;
    for (let i = this.tree.firstChildOf[this.index]; i >= 0; i = this.tree.nextSiblingOf[i]) n++;
    return n;
  }

  get namedChildCount(): number {
    const t = this.tree;
    let n = 0;
    for (let i = t.firstChildOf[this.index]; i >= 0; i = t.nextSiblingOf[i]) if (t.flags[i] & NAMED) n++;
    return n;
  }

  child(k: number): SyntaxNode | null {
    const t = this.tree;
    let i = t.firstChildOf[this.index];
    for (; i >= 0 && k > 0; k--) i = t.nextSiblingOf[i];
    return k === 0 ? t.node(i) : null;
  }

  namedChild(k: number): SyntaxNode | null {
    const t = this.tree;
    for (let i = t.firstChildOf[this.index]; i >= 0; i = t.nextSiblingOf[i]) {
      if (t.flags[i] & NAMED && k-- === 0) return t.node(i);
    }
    return null;
  }

  /**
   * The first child with the field. An ERROR node has no fields of its own, as in tree-sitter,
   * though the cursor reports fields its children had in the rule recovery broke off.
   */
  childForFieldName(name: string): SyntaxNode | null {
    const t = this.tree;
    const field = t.grammar.fieldIds.get(name);
    if (field === undefined || t.typeId[this.index] === ERROR_TYPE_ID) return null;
    for (let i = t.firstChildOf[this.index]; i >= 0; i = t.nextSiblingOf[i]) if (t.fieldId[i] === field) return t.node(i);
    return null;
  }

  childrenForFieldName(name: string): SyntaxNode[] {
    const t = this.tree;
    const field = t.grammar.fieldIds.get(name);
    const out: SyntaxNode[] = [];
    // Unlike childForFieldName, tree-sitter answers this one from the cursor, ERROR nodes included.
    if (field === undefined) return out;
    for (let i = t.firstChildOf[this.index]; i >= 0; i = t.nextSiblingOf[i]) if (t.fieldId[i] === field) out.push(t.node(i)!);
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
      for (let c = t.firstChildOf[node]; c >= 0; c = t.nextSiblingOf[c]) {
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
