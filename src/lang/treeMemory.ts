/**
 * Reads a parsed tree straight out of the parser's WASM memory, in the order and with the values
 * tree-sitter's tree cursor gives (each visible node: its public type, field, start and end,
 * whether it is a MISSING token), without a call into WASM per node.
 *
 * Why: the cursor walk (syntaxTree.ts, readColumns) makes six calls into WASM per node, and the
 * cursor's moves re-derive where they are each time (they unpack the cursor, look the node's
 * parent up again, re-add positions); a CPU profile of the real-code corpus (2 threads) put 6.5%
 * of the run in reading trees that way. Building a tree from a parse took 221 ns a node with the
 * cursor and 105 ns from memory (1,500 corpus files, 2.1 M nodes, in-process); over the whole
 * corpus, parsing and reading 36.6 M nodes took 33.8 s and 29.6 s; the CLI run's CPU time went
 * down 3.0% (5 alternating pairs), and 1.2% more once the nodes were written into the columns
 * in place (125 → 105 ns a node).
 *
 * This depends on tree-sitter's private memory layout, as built into web-tree-sitter's WASM
 * module (wasm32, little-endian; grammars of ABI 14 and 15; web-tree-sitter's version is
 * pinned). What it relies on, from tree-sitter's lib/src (subtree.h, parser.h, tree.h,
 * tree_cursor.c, language.h):
 *
 * - A tree starts with its root `Subtree` (8 bytes) and then the language's address.
 * - A `Subtree` is 8 bytes: inline (bit 0 of its first byte set) for small leaves, else the
 *   address of its heap data. Inline: byte 0 holds the flags (bit 1 visible, 3 extra, 5
 *   missing), byte 1 the symbol, byte 6 the padding's bytes, byte 7 the size's bytes.
 * - Heap data: padding bytes at +4, size bytes at +16, child count at +36, symbol (u16) at +40,
 *   flags at +44 (bit 0 visible, bit 2 extra) and +45 (bit 1 missing); for a node with
 *   children, its visible child count at +48 and production id (u16) at +66. Its children are
 *   the `Subtree`s just before it in memory.
 * - The language: symbol count at +4, alias count at +8, production id count at +28, field
 *   count at +32, the longest alias sequence (u16) at +36, and the addresses of the field map
 *   slices (+64), field map entries (+68), public symbol map (+76) and alias sequences (+84).
 * - What the cursor makes of them (tree_cursor.c): a child is visible when its subtree is, or,
 *   not being an extra, when its parent's production aliases it; a hidden child with visible
 *   children is looked through (its visible descendants are its visible ancestor's children);
 *   a node starts where the previous child ended plus its own padding (the first child where
 *   its parent starts); its field is the first (not inherited) entry of its parent's
 *   production for its index among the children that are not extras, else, through each hidden
 *   ancestor that is not an extra, that ancestor's field.
 *
 * Checked at every read: the language's ABI version and its symbol and field counts against
 * what web-tree-sitter read through its API, and the number of nodes read against the root's
 * count of visible descendants (a read that finds more, or takes more steps than a tree of that
 * size can, stops). A tree that fails a check is read with the cursor instead. The unit tests
 * compare the two readers column by column, on broken code too; so did a run over the 20,278
 * source files of the real-code corpus.
 */

/** Views of the parser module's memory. */
export interface TreeMemory {
  u8: Uint8Array;
  u16: Uint16Array;
  i32: Int32Array;
}

/** Where the nodes read go (syntaxTree.ts's Builder): its columns, with room for every node of the tree. */
export interface NodeSink {
  length: number;
  readonly typeId: Uint16Array;
  readonly fieldId: Uint16Array;
  readonly flags: Uint8Array;
  readonly start: Int32Array;
  readonly end: Int32Array;
  readonly parent: Int32Array;
  readonly subtreeEnd: Int32Array;
  readonly depth: Int32Array;
}

/** What the reader checks the language against, and the flags it writes (syntaxTree.ts's). */
export interface ReadGrammar {
  /** Symbol names as web-tree-sitter lists them: the symbols and then the aliases. */
  typeCount: number;
  /** Field names, index 0 unused. */
  fieldCount: number;
  named: Uint8Array;
  flags: { named: number; missing: number; error: number };
}

/** The ABI versions whose language struct starts as read here (14 added fields at its end only; the TypeScript grammars are 14, the others 15). */
const ABI_VERSIONS: readonly number[] = [14, 15];
/** tree-sitter's `ts_builtin_sym_error`: its public symbol is itself (and the columns' ERROR type id). */
const ERROR_SYMBOL = 0xffff;

// Offsets in tree-sitter's structs (see above).
const TREE_LANGUAGE = 8;
const HEAP_PADDING_BYTES = 4;
const HEAP_SIZE_BYTES = 16;
const HEAP_CHILD_COUNT = 36;
const HEAP_SYMBOL = 40;
const HEAP_FLAGS = 44;
const HEAP_FLAGS2 = 45;
const HEAP_VISIBLE_CHILD_COUNT = 48;
const HEAP_PRODUCTION_ID = 66;
const LANGUAGE_SYMBOL_COUNT = 4;
const LANGUAGE_ALIAS_COUNT = 8;
const LANGUAGE_PRODUCTION_ID_COUNT = 28;
const LANGUAGE_FIELD_COUNT = 32;
const LANGUAGE_MAX_ALIAS_SEQUENCE = 36;
const LANGUAGE_FIELD_MAP_SLICES = 64;
const LANGUAGE_FIELD_MAP_ENTRIES = 68;
const LANGUAGE_PUBLIC_SYMBOL_MAP = 76;
const LANGUAGE_ALIAS_SEQUENCES = 84;

/** Address of the subtree's first child; its child count; the next child to read and its index among the children that are not extras. */
const CHILDREN_AT = 0;
const CHILD_COUNT = 1;
const NEXT_CHILD = 2;
const NEXT_STRUCTURAL = 3;
/** Where the next child starts (bytes). */
const POSITION = 4;
/** The subtree's production id, and the index in 16-bit units of its alias sequence (0: none). */
const PRODUCTION = 5;
const ALIASES_AT = 6;
/** The index (in the columns) of the visible node whose children are read at this level, and the depth they go at. */
const OWNER = 7;
const DEPTH = 8;
/** For the field search upwards: 1 for a hidden subtree's level (2: one that is an extra), and its index among its parent's structural children. */
const HIDDEN = 9;
const OWN_INDEX = 10;
const LEVEL = 12;
/**
 * The per-level state of a read (see readTreeMemory), LEVEL ints per level, reused from tree to
 * tree and grown as deeper trees need: one array, held in a local during a read (one array per
 * field, in module variables, made the loop ~15% slower).
 */
let levelState = new Int32Array(64 * LEVEL);

/** Writes the state of a level (at `at0` in `state`): the children of the subtree at `ptr`, which starts at `start`. */
function startLevel(state: Int32Array, at0: number, ptr: number, children: number, start: number, production: number, aliasSequences: number, maxAliases: number, owner: number, depth: number, hidden: number, index: number): void {
  state[at0 + CHILDREN_AT] = ptr - 8 * children;
  state[at0 + CHILD_COUNT] = children;
  state[at0 + NEXT_CHILD] = 0;
  state[at0 + NEXT_STRUCTURAL] = 0;
  state[at0 + POSITION] = start;
  state[at0 + PRODUCTION] = production;
  state[at0 + ALIASES_AT] = production ? (aliasSequences >> 1) + production * maxAliases : 0;
  state[at0 + OWNER] = owner;
  state[at0 + DEPTH] = depth;
  state[at0 + HIDDEN] = hidden;
  state[at0 + OWN_INDEX] = index;
}

/**
 * Each production's fields by structural child index (0: none), from the language's field map
 * (entries a hidden child passes up, `inherited`, are its children's and left out): a table per
 * grammar, read once.
 */
export interface FieldTable {
  language: number;
  stride: number;
  fields: Uint16Array;
}

function fieldTable(mem: TreeMemory, language: number, fieldCount: number): FieldTable {
  const { u8, u16, i32 } = mem;
  const productions = i32[(language + LANGUAGE_PRODUCTION_ID_COUNT) >> 2];
  if (!fieldCount) return { language, stride: 0, fields: new Uint16Array(0) };
  const slices = i32[(language + LANGUAGE_FIELD_MAP_SLICES) >> 2];
  const entries = i32[(language + LANGUAGE_FIELD_MAP_ENTRIES) >> 2];
  let stride = 1;
  for (let p = 0; p < productions; p++) {
    const first = u16[(slices >> 1) + 2 * p];
    const end = first + u16[(slices >> 1) + 2 * p + 1];
    for (let e = first; e < end; e++) stride = Math.max(stride, u8[entries + 4 * e + 2] + 1);
  }
  const fields = new Uint16Array(productions * stride);
  for (let p = 0; p < productions; p++) {
    const first = u16[(slices >> 1) + 2 * p];
    const end = first + u16[(slices >> 1) + 2 * p + 1];
    // The first entry for a child wins, as in tree-sitter's search.
    for (let e = end - 1; e >= first; e--) {
      const at = entries + 4 * e;
      if (u8[at + 3] === 0) fields[p * stride + u8[at + 2]] = u16[at >> 1];
    }
  }
  return { language, stride, fields };
}

/**
 * Reads the tree at address `tree` into `sink` (from its first row on); false, with the sink to be
 * cleared, when a check fails. `expected`: the root's count of visible descendants plus one.
 * `cache` keeps the grammar's field table between reads.
 */
export function readTreeMemory(mem: TreeMemory, tree: number, sink: NodeSink, grammar: ReadGrammar, expected: number, cache: { memoryFields?: FieldTable }): boolean {
  const { u8, u16, i32 } = mem;
  const language = i32[(tree + TREE_LANGUAGE) >> 2];
  if (language <= 0 || language + 88 > u8.length || !ABI_VERSIONS.includes(i32[language >> 2])) return false;
  const symbolCount = i32[(language + LANGUAGE_SYMBOL_COUNT) >> 2];
  if (symbolCount + i32[(language + LANGUAGE_ALIAS_COUNT) >> 2] !== grammar.typeCount) return false;
  const fieldCount = i32[(language + LANGUAGE_FIELD_COUNT) >> 2];
  if (fieldCount + 1 !== grammar.fieldCount) return false;
  if (cache.memoryFields?.language !== language) cache.memoryFields = fieldTable(mem, language, fieldCount);
  const { stride, fields } = cache.memoryFields;
  const maxAliases = u16[(language + LANGUAGE_MAX_ALIAS_SEQUENCE) >> 1];
  const publicMap = i32[(language + LANGUAGE_PUBLIC_SYMBOL_MAP) >> 2] >> 1;
  const aliasSequences = i32[(language + LANGUAGE_ALIAS_SEQUENCES) >> 2];
  const named = grammar.named;
  const { named: NAMED, missing: MISSING, error: HAS_ERROR } = grammar.flags;
  // Flags combined once: an error node's `NAMED | HAS_ERROR`, written in the loop, was an
  // operation no node had reached when V8 optimized it (see rootMissing).
  const ERROR_FLAGS = NAMED | HAS_ERROR;
  const MISSING_FLAGS = MISSING | HAS_ERROR;
  // Written in place (the columns have room for `expected` nodes) rather than through a call per node.
  const { typeId, fieldId, flags: flagsOf, start: startOf, end: endOf, parent: parentOf, subtreeEnd, depth: depthOfNode } = sink;
  if (typeId.length < expected || flagsOf.length < expected || startOf.length < expected || endOf.length < expected || fieldId.length < expected || parentOf.length < expected || subtreeEnd.length < expected || depthOfNode.length < expected) return false;

  // The root: visible, with no alias and no field; it starts after its padding.
  const rootInline = (u8[tree] & 1) === 1;
  const rootPtr = rootInline ? 0 : i32[tree >> 2];
  const rootSymbol = rootInline ? u8[tree + 1] : u16[(rootPtr + HEAP_SYMBOL) >> 1];
  const rootType = rootSymbol === ERROR_SYMBOL ? ERROR_SYMBOL : u16[publicMap + rootSymbol];
  const rootStart = rootInline ? u8[tree + 6] : i32[(rootPtr + HEAP_PADDING_BYTES) >> 2];
  const rootEnd = rootStart + (rootInline ? u8[tree + 7] : i32[(rootPtr + HEAP_SIZE_BYTES) >> 2]);
  // Whether a node is a MISSING token is read without a branch here and below: code reached only
  // for zero-width nodes had no type feedback when V8 optimized this loop, and the first such
  // node threw the optimized code away (a worker optimized this function ~5 times a run).
  const rootMissing = (rootInline ? (u8[tree] >> 5) & 1 : (u8[rootPtr + HEAP_FLAGS2] >> 1) & 1) & (rootStart === rootEnd ? 1 : 0);
  const rootFlags = (rootType === ERROR_SYMBOL ? ERROR_FLAGS : named[rootType] ? NAMED : 0) | (-rootMissing & MISSING_FLAGS);
  typeId[0] = rootType;
  fieldId[0] = 0;
  flagsOf[0] = rootFlags;
  startOf[0] = rootStart >> 1;
  endOf[0] = rootEnd >> 1;
  parentOf[0] = -1;
  depthOfNode[0] = 0;
  /** Nodes written. */
  let n = 1;
  if (rootInline || i32[(rootPtr + HEAP_CHILD_COUNT) >> 2] === 0) {
    subtreeEnd[0] = 1;
    sink.length = n;
    return n === expected;
  }

  let state = levelState;
  /** Where the state of the level being read starts in `state` (-LEVEL: all read). */
  let at0 = 0;
  startLevel(state, 0, rootPtr, i32[(rootPtr + HEAP_CHILD_COUNT) >> 2], rootStart, u16[(rootPtr + HEAP_PRODUCTION_ID) >> 1], aliasSequences, maxAliases, 0, 1, 0, 0);
  // Every step reads a subtree or leaves one: a tree of `expected` visible nodes has far fewer
  // subtrees than this, so a read past it is of memory laid out otherwise.
  let steps = 64 * expected + 4096;
  while (at0 >= 0) {
    if (--steps === 0) return false;
    const k = state[at0 + NEXT_CHILD];
    const count = state[at0 + CHILD_COUNT];
    if (k === count) {
      // A visible node's children are all read: its subtree ends here.
      if (state[at0 + HIDDEN] === 0) subtreeEnd[state[at0 + OWNER]] = n;
      at0 -= LEVEL;
      continue;
    }
    const at = state[at0 + CHILDREN_AT] + 8 * k;
    const bits = u8[at];
    const inline = (bits & 1) === 1;
    const ptr = inline ? 0 : i32[at >> 2];
    let visible: boolean;
    let extra: boolean;
    let symbol: number;
    let size: number;
    let children = 0;
    if (inline) {
      visible = (bits & 2) !== 0;
      extra = (bits & 8) !== 0;
      symbol = u8[at + 1];
      size = u8[at + 7];
    } else {
      const flags = u8[ptr + HEAP_FLAGS];
      visible = (flags & 1) !== 0;
      extra = (flags & 4) !== 0;
      symbol = u16[(ptr + HEAP_SYMBOL) >> 1];
      size = i32[(ptr + HEAP_SIZE_BYTES) >> 2];
      children = i32[(ptr + HEAP_CHILD_COUNT) >> 2];
    }
    const index = state[at0 + NEXT_STRUCTURAL];
    let alias = 0;
    if (!extra) {
      const aliases = state[at0 + ALIASES_AT];
      if (aliases !== 0) alias = u16[aliases + index];
      if (alias !== 0) visible = true;
      state[at0 + NEXT_STRUCTURAL] = index + 1;
    }
    const start = state[at0 + POSITION];
    const end = start + size;
    state[at0 + NEXT_CHILD] = k + 1;
    // The next child starts after this one and its own padding.
    if (k + 1 < count) {
      const next = at + 8;
      state[at0 + POSITION] = end + ((u8[next] & 1) === 1 ? u8[next + 6] : i32[(i32[next >> 2] + HEAP_PADDING_BYTES) >> 2]);
    }
    let owner: number;
    let depth: number;
    let hidden: number;
    if (visible) {
      const s = alias !== 0 ? alias : symbol;
      const type = s === ERROR_SYMBOL ? ERROR_SYMBOL : u16[publicMap + s];
      const missing = (inline ? (bits >> 5) & 1 : (u8[ptr + HEAP_FLAGS2] >> 1) & 1) & (start === end ? 1 : 0);
      const flags = (type === ERROR_SYMBOL ? ERROR_FLAGS : named[type] ? NAMED : 0) | (-missing & MISSING_FLAGS);
      // The field: from the production of the level's subtree, else up through the hidden subtrees it is in.
      let field = 0;
      if (!extra && stride !== 0) {
        for (let l = at0, i = index; l >= 0; l -= LEVEL) {
          if (i < stride) field = fields[state[l + PRODUCTION] * stride + i];
          if (field !== 0 || state[l + HIDDEN] !== 1) break;
          i = state[l + OWN_INDEX];
        }
      }
      depth = state[at0 + DEPTH];
      if (n === expected) return false;
      const node = n++;
      typeId[node] = type;
      fieldId[node] = field;
      flagsOf[node] = flags;
      startOf[node] = start >> 1;
      endOf[node] = end >> 1;
      parentOf[node] = state[at0 + OWNER];
      depthOfNode[node] = depth;
      // (A node whose children are all hidden leaves has none to read: its subtree ends when its level does.)
      if (children === 0) {
        subtreeEnd[node] = node + 1;
        continue;
      }
      owner = node;
      depth++;
      hidden = 0;
    } else if (children > 0 && i32[(ptr + HEAP_VISIBLE_CHILD_COUNT) >> 2] > 0) {
      // A hidden node: its visible descendants are read as children of its visible ancestor.
      owner = state[at0 + OWNER];
      depth = state[at0 + DEPTH];
      hidden = extra ? 2 : 1;
    } else continue;
    // One level down: the children of the subtree at `ptr`, which starts at `start`.
    at0 += LEVEL;
    if (at0 + LEVEL > state.length) {
      const grown = new Int32Array(state.length * 2);
      grown.set(state);
      state = levelState = grown;
    }
    startLevel(state, at0, ptr, children, start, u16[(ptr + HEAP_PRODUCTION_ID) >> 1], aliasSequences, maxAliases, owner, depth, hidden, index);
  }
  sink.length = n;
  return n === expected;
}
