/**
 * Parsed files and their scope indexes, shared across a run so that each file is parsed
 * once, and import resolution between files of the same workspace.
 */
import type { LanguageId } from '../core/model';
import { byteOrderMarkLength, callDigest, digestHas, nameKey } from './callIndex';
import type { Loc } from '../core/span';
import type { LanguageFamily, Node, Parsers, Tree } from './parsers';
import * as path from 'node:path';
import { languageFamily, languageForPath } from './parsers';
import { isNotebook } from './notebook';
import type { FrontEnd, ImportedName, ModuleHost, ModuleSyntax } from './frontEnd';
import { frontEndFor, importedNamesOf } from './frontEnds';
import type { Adapter, Binding, Mutation } from './syntax';

/** How the workspace reads the other files of the project (imported values): disk, or an editor's open buffers. */
export interface SourceHost {
  /**
   * The text of another workspace file, or undefined when it does not exist or cannot be read.
   * `once`: read for what is found in it, not kept (a search over every file of a project), so
   * a host that keeps the texts it reads need not keep this one.
   */
  readFile(absPath: string, once?: boolean): string | undefined;
  /** Whether a file exists (cheaper than reading it); readFile answers when absent. */
  exists?(absPath: string): boolean;
  /** The names of the entries of a folder, or undefined when it cannot be read (then exists answers). */
  listFolder?(absFolder: string): readonly string[] | undefined;
  /**
   * Every source file of the project that holds `absPath`, when all of them are seen (the run
   * or the editor walked the whole project); undefined when some may not be. Fixes that change
   * a definition other files could use are offered only when this answers.
   */
  projectFiles?(absPath: string): readonly string[] | undefined;
  /** The text of a file of `projectFiles` for a search over all of them (may be kept between calls); readFile when absent. */
  projectText?(absPath: string): string | undefined;
  /**
   * A file's bytes as on disk when the host would read its text from there now (valid until the
   * next read), or why it is no source text (readFile then answers undefined); undefined when
   * the host has a text for it (readFile answers). Read where the text is not needed.
   */
  readBytes?(absPath: string): { bytes: Buffer } | { skipped: string } | undefined;
}

export interface Scope {
  node: Node;
  parent?: Scope;
  bindings: Map<string, Binding[]>;
  mutations: Map<string, Mutation[]>;
}

/** A 32-bit FNV-1a hash of a text. */
function textHash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

export class FileUnit {
  readonly frontEnd: FrontEnd;
  readonly adapter: Adapter;
  readonly scopes = new Map<number, Scope>();
  /** The depth of the deepest node of the tree (the root is at 0). */
  depth = 0;
  /** The scopes in tree order (pre-order), so sorted by start offset. */
  private readonly scopeList: Scope[] = [];
  readonly calls: Node[] = [];
  readonly module: Scope;
  /** In-place changes of instance attributes (`self.messages.pop(0)`), by class node id and attribute. */
  readonly memberMutations = new Map<number, Map<string, Mutation[]>>();
  private classMemberCache = new Map<number, Map<string, Node[]>>();

  /**
   * What the index found in each top-level statement, kept for an editor buffer's next version
   * (see `StatementIndex`); the previous version's, read while this one is indexed.
   */
  private readonly statementIndexes?: Map<Node, StatementIndex>;
  /** The named nodes of some types, per top-level statement (nodesOfTypes), kept likewise. */
  private readonly statementNodes?: Map<ReadonlySet<string>, Map<Node, readonly Node[]>>;
  private previousNodes?: ReadonlyMap<ReadonlySet<string>, ReadonlyMap<Node, readonly Node[]>>;
  private readonly nodesByTypes = new Map<ReadonlySet<string>, readonly Node[]>();
  /** Top-level statements whose index was replayed from the previous version (for tests and probes). */
  replayedStatements = 0;

  constructor(
    readonly workspace: Workspace,
    readonly file: string,
    readonly language: LanguageId,
    readonly text: string,
    readonly tree: Tree,
    /**
     * An editor buffer's version: what is read per top-level statement is kept, and `previous`
     * (the version whose tree this one was made from) gives what it read of the statements this
     * tree took over unchanged.
     */
    edited?: { previous?: FileUnit },
  ) {
    this.frontEnd = frontEndFor(language);
    this.adapter = this.frontEnd.adapter;
    if (edited) {
      this.statementIndexes = new Map();
      this.statementNodes = new Map();
      this.previousNodes = edited.previous?.statementNodes;
    }
    this.module = this.index(edited?.previous?.statementIndexes);
    if (workspace.dropsViews && !edited) tree.pinViews(this.heldViews());
  }

  /**
   * The indexes of the nodes whose views the index holds: the scopes' nodes (a function's
   * parameters are read from its index view: the Binding objects of its scope), their bindings'
   * and changes' nodes, and the calls. Half the views made while indexing are not among them (the
   * parts an adapter read on the way: 815 K of 1.62 M over the real-code corpus, one thread).
   */
  private heldViews(): number[] {
    // Indexed loops and forEach: the iterators of for-of made ~22 MB of garbage a run (one thread).
    const out: number[] = [];
    const mutation = (m: Mutation) => {
      out.push(m.node.index);
      for (let i = 0; i < m.args.length; i++) out.push(m.args[i].index);
      if (m.path) for (let i = 0; i < m.path.length; i++) out.push(m.path[i].index);
    };
    const mutations = (list: readonly Mutation[]) => {
      for (let i = 0; i < list.length; i++) mutation(list[i]);
    };
    const bindings = (list: readonly Binding[]) => {
      for (let i = 0; i < list.length; i++) {
        const b = list[i];
        out.push(b.at.index, b.nameNode.index);
        if (b.value) out.push(b.value.index);
        if (b.fallback) out.push(b.fallback.index);
      }
    };
    const scopes = this.scopeList;
    for (let i = 0; i < scopes.length; i++) {
      out.push(scopes[i].node.index);
      scopes[i].bindings.forEach(bindings);
      scopes[i].mutations.forEach(mutations);
    }
    this.memberMutations.forEach((byAttribute) => byAttribute.forEach(mutations));
    const calls = this.calls;
    for (let i = 0; i < calls.length; i++) out.push(calls[i].index);
    return out;
  }

  /**
   * Between two analyses (Workspace.dropViews): lets go of the node views the analyses made of
   * this file and of what the unit read from them on demand, keeping the views its index holds.
   */
  dropViews(failing?: Tree): void {
    // The lists these keep hold views made after the index (class members, nodes of some types).
    if (!this.tree.dropViews(failing)) return;
    this.classMemberCache.clear();
    this.nodesByTypes.clear();
  }

  /**
   * One pass over the tree: scopes, their bindings and list mutations, and call nodes. Only the
   * node types that can be one of those are visited (Adapter.indexedTypes). An editor buffer's
   * version is indexed statement by statement, and a top-level statement its tree took over from
   * the previous version (SyntaxTree.adoptNodes: the same subtree, node for node, whose views
   * read nothing outside it but the root) is not walked again: what the previous index found in
   * it is added as it was (replay). On a keystroke that is all statements but the one typed in.
   */
  private index(previous: ReadonlyMap<Node, StatementIndex> | undefined): Scope {
    const tree = this.tree;
    const root = tree.rootNode;
    const moduleScope: Scope = { node: root, bindings: new Map(), mutations: new Map() };
    this.scopes.set(root.id, moduleScope);
    this.scopeList.push(moduleScope);
    this.depth = tree.maxDepth;
    const kept = this.statementIndexes;
    if (!kept) {
      this.indexNodes(moduleScope, 1, tree.length, undefined);
      return moduleScope;
    }
    for (let c = tree.firstChild(0); c >= 0; c = tree.nextSibling(c)) {
      const statement = tree.node(c)!;
      const before = tree.tookOverWhole(c) ? previous?.get(statement) : undefined;
      if (before) this.replayedStatements++;
      kept.set(statement, before ? this.replay(statement, before, moduleScope) : this.indexNodes(moduleScope, c, tree.subtreeEnd[c], statement));
    }
    return moduleScope;
  }

  /**
   * Indexes nodes `from` to `to` (the whole tree but its root, or one top-level statement:
   * `statement`, whose StatementIndex is returned).
   */
  private indexNodes(moduleScope: Scope, from: number, to: number, statement: Node | undefined): StatementIndex {
    const tree = this.tree;
    const stack: Scope[] = [moduleScope];
    // Where the subtree of each scope node on the stack ends (pre-order): a node is inside the
    // top scope while its index is below that. (Not its depth: the walk skips most nodes.)
    const ends: number[] = [tree.length];
    const adapter = this.adapter;
    const firstCall = this.calls.length;
    const firstScope = this.scopeList.length;
    const record = statement ? { declares: [] as Binding[], mutations: [] as Mutation[], memberMutations: [] as MemberMutation[] } : undefined;
    tree.forEachNamedIn(tree.typeMask(adapter.indexedTypes), from, to, (node) => {
      while (stack.length > 1 && node.index >= ends[ends.length - 1]) {
        stack.pop();
        ends.pop();
      }
      const current = stack[stack.length - 1];
      const view = indexView(adapter, node);
      // An indexed loop: for-of's iterator results were ~24 MB of garbage a run (one thread).
      const declares = view.declares;
      for (let i = 0; i < declares.length; i++) add(current.bindings, declares[i].name, declares[i]);
      if (record && current === moduleScope) record.declares.push(...view.declares);
      const m = view.mutation;
      if (m && m.name.startsWith('<self>.')) {
        const cls = this.enclosingClass(node);
        if (cls) {
          this.addMemberMutation(cls, m.name.slice('<self>.'.length), m);
          record?.memberMutations.push({ cls, attribute: m.name.slice('<self>.'.length), mutation: m });
        }
      } else if (m) {
        add(current.mutations, m.name, m);
        if (record && current === moduleScope) record.mutations.push(m);
      }
      if (view.call) this.calls.push(node);
      if (view.params) {
        const scope: Scope = { node, parent: current, bindings: new Map(), mutations: new Map() };
        for (const b of view.params) add(scope.bindings, b.name, b);
        this.scopes.set(node.id, scope);
        this.scopeList.push(scope);
        stack.push(scope);
        ends.push(tree.subtreeEnd[node.index]);
      }
    });
    if (!statement || !record) return NOTHING_INDEXED;
    return { ...record, view: statement.indexView as IndexView | undefined, calls: this.calls.slice(firstCall), scopes: this.scopeList.slice(firstScope) };
  }

  /**
   * Adds what the previous version's index found in a statement this tree took over. Its scopes
   * are made anew (a top-level one's parent is this module), with the bindings they held.
   */
  private replay(statement: Node, before: StatementIndex, moduleScope: Scope): StatementIndex {
    // Taking the subtree over dropped the statement's own views (its parent may have changed;
    // it has not: the root). Its bindings must be the ones its scope holds.
    if (before.view) statement.indexView ??= before.view;
    const renamed = new Map<Scope, Scope>();
    const scopes = before.scopes.map((s) => {
      const scope: Scope = { node: s.node, parent: (s.parent && renamed.get(s.parent)) ?? moduleScope, bindings: s.bindings, mutations: s.mutations };
      renamed.set(s, scope);
      this.scopes.set(scope.node.id, scope);
      this.scopeList.push(scope);
      return scope;
    });
    for (const b of before.declares) add(moduleScope.bindings, b.name, b);
    for (const m of before.mutations) add(moduleScope.mutations, m.name, m);
    for (const { cls, attribute, mutation } of before.memberMutations) this.addMemberMutation(cls, attribute, mutation);
    for (const call of before.calls) this.calls.push(call);
    return { ...before, scopes };
  }

  private addMemberMutation(cls: Node, attribute: string, mutation: Mutation): void {
    let byAttr = this.memberMutations.get(cls.id);
    if (!byAttr) this.memberMutations.set(cls.id, (byAttr = new Map()));
    add(byAttr, attribute, mutation);
  }

  /**
   * The named nodes of some types (a set kept for the life of the program, as `walkTypes`
   * takes), in tree order: what `walkTypes` from the root visits. Kept for the unit; an editor
   * buffer's version reads again only the top-level statements its tree did not take over.
   */
  nodesOfTypes(types: ReadonlySet<string>): readonly Node[] {
    let list = this.nodesByTypes.get(types);
    if (list) return list;
    const tree = this.tree;
    const mask = tree.typeMask(types);
    const out: Node[] = [];
    // walkTypes visits the node it starts from whether it is named or not.
    if (mask[tree.typeId[0]]) out.push(tree.rootNode);
    const kept = this.statementNodes;
    if (!kept) tree.forEachNamedIn(mask, 1, tree.length, (n) => out.push(n));
    else {
      const before = this.previousNodes?.get(types);
      const now = new Map<Node, readonly Node[]>();
      for (let c = tree.firstChild(0); c >= 0; c = tree.nextSibling(c)) {
        const statement = tree.node(c)!;
        // A statement taken over is the same subtree, node for node, whatever moves took it
        // over (only the index, which keeps node views, asks that one move took it whole).
        let part = before?.get(statement);
        if (!part) {
          const found: Node[] = [];
          tree.forEachNamedIn(mask, c, tree.subtreeEnd[c], (n) => found.push(n));
          part = found;
        }
        now.set(statement, part);
        for (const n of part) out.push(n);
      }
      kept.set(types, now);
      // Once every list the previous version kept has been read again, its lists (which hold
      // the nodes of the statements typed over, and through them its tree) are let go.
      if (this.previousNodes && kept.size >= this.previousNodes.size) this.previousNodes = undefined;
    }
    this.nodesByTypes.set(types, (list = out));
    return list;
  }

  /**
   * The innermost scope around a node (not the scope the node opens itself). Found from the
   * offsets, as index() assigns scopes: `node.parent` costs a walk down from the root in
   * tree-sitter, so climbing parents is quadratic in the depth, and a deeply nested file
   * (50,000 levels) would take hours.
   */
  scopeOf(node: Node): Scope {
    const start = node.startIndex;
    const end = node.endIndex;
    // A zero-width node (a MISSING token) at a scope's edge may be inside it or not: ask the tree.
    if (start === end) return this.scopeOfByParents(node);
    // The last scope that starts at or before the node is the innermost one around it or a
    // scope inside that one (scopes nest), so the answer is on its chain of parents.
    const list = this.scopeList;
    let lo = 0;
    let hi = list.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (list[mid].node.startIndex <= start) lo = mid;
      else hi = mid - 1;
    }
    for (let s: Scope | undefined = list[lo]; s; s = s.parent) {
      const n = s.node;
      if (n.id === node.id || n.startIndex > start || n.endIndex < end) continue;
      // Same range: the scope node may be inside the node (`lambda: x` as a whole statement).
      if (n.startIndex === start && n.endIndex === end && s !== this.module) return this.scopeOfByParents(node);
      return s;
    }
    return this.module;
  }

  private scopeOfByParents(node: Node): Scope {
    for (let n: Node | null = node.parent; n; n = n.parent) {
      const s = this.scopes.get(n.id);
      if (s) return s;
    }
    return this.module;
  }

  /** Every scope of the file, the module's first, in tree order. */
  get scopesInOrder(): readonly Scope[] {
    return this.scopeList;
  }

  /** The parameters of a function (the adapter's `params`, as the index read them). */
  params(fn: Node): readonly Binding[] {
    return indexView(this.adapter, fn).params ?? this.adapter.params(fn);
  }

  /** The scope a scope-node opens (function/class/module). */
  scopeFor(scopeNode: Node): Scope | undefined {
    return this.scopes.get(scopeNode.id);
  }

  /** The index in `calls` (tree order, so by start) of the first call that starts at or after `offset`. */
  firstCallFrom(offset: number): number {
    const calls = this.calls;
    let lo = 0;
    let hi = calls.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (calls[mid].startIndex < offset) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  loc(node: { startIndex: number; endIndex: number }): Loc {
    return { file: this.file, start: node.startIndex, end: node.endIndex };
  }

  classMembers(cls: Node): Map<string, Node[]> {
    let m = this.classMemberCache.get(cls.id);
    if (!m) {
      m = this.adapter.classMembers(cls);
      this.classMemberCache.set(cls.id, m);
    }
    return m;
  }

  /**
   * The calls whose callee is the name or ends in the property (`name(...)`, `x.name(...)`), in
   * tree order: the candidates for the callers of a function of that name.
   */
  callsNamed(name: string): readonly Node[] {
    if (!this.callIndex) {
      this.callIndex = new Map();
      for (const node of this.calls) {
        const e = this.adapter.expr(node);
        if (e.k !== 'call') continue;
        const c = this.adapter.expr(e.callee);
        if (c.k === 'ident') add(this.callIndex, c.name, node);
        else if (c.k === 'member') add(this.callIndex, c.prop, node);
      }
    }
    return this.callIndex.get(name) ?? [];
  }

  private callIndex?: Map<string, Node[]>;

  /** The nearest enclosing function (or the module) of a node. */
  enclosingFunction(node: Node): Node {
    // Functions and classes are scopes in both adapters, so the scope chain has them all.
    for (let s: Scope | undefined = this.scopeOf(node); s; s = s.parent) if (this.adapter.isFunction(s.node)) return s.node;
    return this.tree.rootNode;
  }

  enclosingClass(node: Node): Node | undefined {
    for (let s: Scope | undefined = this.scopeOf(node); s; s = s.parent) if (this.adapter.isClass(s.node)) return s.node;
    return undefined;
  }

  /** True when the file imports the Anthropic SDK (or one of its platform clients). */
  get importsAnthropic(): boolean {
    for (const list of this.module.bindings.values()) {
      for (const b of list) if (b.importFrom && isAnthropic(b.importFrom.module)) return true;
    }
    // Imports inside functions, and `require('@anthropic-ai/sdk')`.
    return /(^|\n)\s*(import\s+anthropic|from\s+anthropic[\s.])|@anthropic-ai\//.test(this.text);
  }
}

function isAnthropic(module: string): boolean {
  return /^anthropic(\.|$)/.test(module) || module.startsWith('@anthropic-ai/');
}

/** An in-place change of an instance attribute, with its class. */
interface MemberMutation {
  readonly cls: Node;
  readonly attribute: string;
  readonly mutation: Mutation;
}

/**
 * What the index found in one top-level statement: the bindings it adds to the module scope,
 * its changes of module names and of instance attributes, its calls and the scopes it opens (in
 * tree order), and the statement's own view. All of it is nodes and what the adapter read of
 * them, never an offset, so it holds for the same subtree at another place.
 */
interface StatementIndex {
  readonly declares: readonly Binding[];
  readonly mutations: readonly Mutation[];
  readonly memberMutations: readonly MemberMutation[];
  readonly calls: readonly Node[];
  readonly scopes: readonly Scope[];
  readonly view: IndexView | undefined;
}

/** What indexNodes answers for the whole tree (nothing is kept per statement). */
const NOTHING_INDEXED: StatementIndex = { declares: [], mutations: [], memberMutations: [], calls: [], scopes: [], view: undefined };

/** What the index reads of a node (undefined `params`: it opens no scope). */
interface IndexView {
  declares: readonly Binding[];
  mutation?: Mutation;
  call: boolean;
  params?: readonly Binding[];
}

/**
 * The adapter's answers for a node, kept on the node: a keystroke's tree takes the views of
 * what it keeps from the previous tree (SyntaxTree.adoptNodes), so the index asks the adapter
 * only about the nodes the edit made.
 */
function indexView(adapter: Adapter, node: Node): IndexView {
  let view = node.indexView as IndexView | undefined;
  if (!view) {
    const mutation = adapter.mutation(node);
    const declares = adapter.declares(node);
    const call = adapter.isCall(node);
    const params = adapter.isScope(node) ? adapter.params(node) : undefined;
    view = mutation || params || declares.length ? { declares, call, ...(mutation ? { mutation } : {}), ...(params ? { params } : {}) } : call ? PLAIN_CALL : PLAIN_NODE;
    node.indexView = view;
  }
  return view;
}

/**
 * The view of a call that binds, changes and opens nothing, and of any other such node: one
 * object for all of them (most of the nodes indexed are calls), not one per node kept as long as
 * its tree. On the real-code corpus (one thread, sampled) what outlived the young generation
 * went from 1,078 to 1,046 MB, these views' share from ~7.5 MB to none.
 */
const PLAIN_CALL: IndexView = Object.freeze({ declares: Object.freeze([]) as readonly Binding[], call: true });
const PLAIN_NODE: IndexView = Object.freeze({ declares: PLAIN_CALL.declares, call: false });

/**
 * A tree whose every read fails: what a view let go of (Workspace.dropViews) is given when
 * readingDroppedViewsFails is on, so that a view kept past dropViews by something other than
 * the file's index shows (PREFIXLINT_STALE_VIEWS=1 turns it on for a whole run).
 */
const FAILING_TREE = new Proxy(
  {},
  {
    get(_, key) {
      throw new Error(`a node view was read after it was let go of (${String(key)})`);
    },
  },
) as Tree;

let droppedViewsTree: Tree | undefined = process.env.PREFIXLINT_STALE_VIEWS === '1' ? FAILING_TREE : undefined;

/** Makes a node view let go of by Workspace.dropViews fail when it is read again (for the tests). */
export function readingDroppedViewsFails(on: boolean): void {
  droppedViewsTree = on ? FAILING_TREE : undefined;
}

/** Projects with more files than this are not searched for the callers of a method (see filesCalling). */
const MAX_INDEXED_FILES = 20_000;
/**
 * Bytes of one project read for that search: under a second of reading and matching. Only a
 * project larger than this is read up to it; the names of other projects' files are dropped
 * before (MAX_KEPT_INDEX_BYTES), so that what one project's search finds does not depend on the
 * projects read before it, nor on how a run shares them among threads.
 */
const MAX_INDEXED_BYTES = 80_000_000;
/**
 * Bytes of files whose called names stay indexed while another project is searched: past it, the
 * names of the other projects' files are dropped (those of the project searched stay, up to
 * MAX_INDEXED_BYTES). A run takes projects one after another (a run over many projects), and
 * kept up to the reading bound the names of the projects a lint worker had finished with grew to
 * the end of the run (real-code corpus, 2 threads: 58–68 M characters read, 2.9–3.7 M characters
 * of names held at the end).
 */
const MAX_KEPT_INDEX_BYTES = 16_000_000;

function add<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Drops the least recently used entries of a map kept in use order until `max` remain. */
function evictOldest<K, V>(map: Map<K, V>, max: number, evicted: (key: K, value: V) => void, tooBig: () => boolean = () => false): void {
  for (const [key, value] of map) {
    if (map.size <= max && !tooBig()) break;
    map.delete(key);
    evicted(key, value);
  }
}

/**
 * Parsed files kept at once. A run over a large tree would otherwise keep every file's tree
 * and scopes to the end (gigabytes for 2,000 files); a file is needed again only when another
 * one imports it, and the most recently used ones are those. Evicted files are parsed again.
 */
const MAX_UNITS = 64;

/**
 * Characters of the parsed files kept at once: a parsed file takes about 16 bytes of memory
 * per character of its text (11 on the heap, 5 in its syntax tree's arrays), so 64 files of
 * 700 KB would hold 700 MB. 1 M characters (~16 MB) keep what the files being analysed import.
 * On the real-code corpus (one thread) 512 K parsed 8.1 M characters of modules again after
 * eviction, 21% of all it parsed; 1 M parses 35.5 M characters in all instead of 38.4 M (2 M:
 * 35.1 M), and in 3 alternating runs on 2 threads took 1.0 s less wall time and 17 MB less
 * peak RSS (fewer trees built and dropped again).
 */
const MAX_UNIT_CHARS = 1024 * 1024;

/**
 * Files set through setText whose WASM tree is kept, so that their next text parses
 * incrementally (Parsers.parseEdited). Few: a WASM tree takes memory, and only the buffers
 * being typed in need one (the CLI, which sets every file once, keeps none).
 */
const MAX_EDIT_BASES = 8;

/**
 * A copy of `s` that holds only its own characters. V8 makes a substring of a long text (a name
 * matched in a module's source) point into that text, and a string built from it points to it
 * too: kept as a key of a map that lives as long as the workspace, it would keep the whole file's
 * text in memory (on a large repository, tens of megabytes per thread).
 */
export function ownCopy(s: string): string {
  // Flattening the concatenation copies the characters; the slice then points into that copy.
  return (' ' + s).slice(1);
}

/**
 * A cache of answers by a string key: the keys are stored as copies of their own (see ownCopy),
 * and past `max` entries the oldest go (they are found again when asked), so that a run over a
 * large repository keeps a bounded amount, whatever the number of files it reads.
 */
class AnswerCache<V> extends Map<string, V> {
  constructor(private readonly max: number) {
    super();
  }

  override set(key: string, value: V): this {
    if (!this.has(key)) for (const oldest of this.keys()) {
      if (this.size < this.max) break;
      this.delete(oldest);
    }
    return super.set(ownCopy(key), value);
  }
}

/**
 * Answers by a front end, a place (a folder, a file) and a name asked there (an import
 * specifier): the place is kept once for all the names asked there, where one key per answer
 * (`python\0<folder>\0<spec>`) held the folder's path again for each (tens of thousands of
 * answers in a repository's run). Past `max` answers, the places asked about first go.
 */
export class AnswersByPlace<K extends object, V> {
  private readonly byKind = new Map<K, Map<string, Map<string, V>>>();
  private answers = 0;

  constructor(private readonly max: number) {}

  get(kind: K, place: string, name: string): V | undefined {
    return this.byKind.get(kind)?.get(place)?.get(name);
  }

  set(kind: K, place: string, name: string, value: V): void {
    let places = this.byKind.get(kind);
    if (!places) this.byKind.set(kind, (places = new Map()));
    let names = places.get(place);
    if (!names) places.set(ownCopy(place), (names = new Map()));
    if (!names.has(name)) this.answers++;
    names.set(ownCopy(name), value);
    for (const placesOfKind of this.byKind.values()) {
      for (const [oldest, answers] of placesOfKind) {
        if (this.answers <= this.max || answers === names) break;
        placesOfKind.delete(oldest);
        this.answers -= answers.size;
      }
    }
  }

  clear(): void {
    this.byKind.clear();
    this.answers = 0;
  }
}

const NO_ENTRIES: ReadonlySet<string> = new Set();

/** What a module's text says of where it leads (Workspace.leadsTo): whether it holds a request, the workspace files it imports, and the text's length and hash. */
interface ImportFacts {
  holds: boolean;
  imports: string[];
  length: number;
  hash: number;
}

/** Answers kept per cache of the workspace (module paths, derived facts, what leads to requests): a few MB each. */
const MAX_CACHED_ANSWERS = 20_000;

export class Workspace {
  /** In least recently used order (a Map iterates in insertion order; a hit re-inserts). */
  private readonly units = new Map<string, FileUnit | null>();
  /** Files whose text was given directly (open editor buffers, the file being linted). */
  private readonly overlays = new Map<string, string>();
  /**
   * The last tree setText parsed for a file, holding its WASM tree, in least recently used
   * order. Each one is released exactly once: by the next setText of the file (which parses
   * from it), when pushed out by newer ones, or when the file's unit is evicted. A file's
   * entry outlives `invalidate`: the language server invalidates a buffer on every change
   * before analysing its new text, and that text is what the kept tree is for.
   */
  private readonly editBases = new Map<string, Tree>();
  /**
   * The unit of each edit base's version: what its index read per statement serves the next
   * version, also when the unit itself was dropped (a change to the buffer or to another file).
   */
  private readonly unitOfBase = new WeakMap<Tree, FileUnit>();
  private readonly existing = new Map<string, boolean>();
  /** Characters parsed so far (the file's own text and every file read for an import). */
  parsedChars = 0;
  /** Characters of the files in `units`. */
  private unitChars = 0;

  /** Characters of the parsed files kept (MAX_UNIT_CHARS bounds them; see evictUnits). */
  get keptChars(): number {
    return this.unitChars;
  }

  constructor(
    readonly parsers: Parsers,
    readonly host: SourceHost,
    /**
     * Buffers whose WASM tree is kept for an incremental parse of their next text: 0 when no
     * text is set twice (a command-line run), so that every WASM tree is freed as soon as it is
     * read and the parser's memory stays at what one file needs.
     */
    private readonly maxEditBases = MAX_EDIT_BASES,
    /** Bytes of project files read for the search of callers (MAX_INDEXED_BYTES; smaller in tests). */
    private readonly maxIndexedBytes = MAX_INDEXED_BYTES,
    /**
     * The host's texts do not change while the workspace lives, and each file is given the text
     * the host has for it (a command-line run that fixes nothing): what was read of a file is
     * never compared with another text, so no hash of a text is kept to tell one apart
     * (textHashes; hashing the texts of evicted parses, of imports and of modules read for their
     * functions took ~100 ms of a one-thread run over the real-code corpus).
     */
    private readonly textsStay = false,
    /** Past these, other projects' indexed names are dropped (MAX_KEPT_INDEX_BYTES; smaller in tests). */
    private readonly maxKeptIndexBytes = MAX_KEPT_INDEX_BYTES,
  ) {}

  /** Whether the units made keep only their index's node views between analyses (dropViews): set with textsStay. */
  get dropsViews(): boolean {
    return this.textsStay;
  }

  /**
   * Lets go of the node views that the analyses since the last call made of the parsed files
   * (FileUnit.dropViews), between two analyses of a command-line run. A parsed file stays cached
   * for the files that import it, and the views an analysis made of it (and the expression views
   * kept on them) were most of what the cache held: on the real-code corpus (2 threads), what a
   * lint worker holds after a full collection went from 38–40 MB (median) to 32–33 MB. Only the
   * views the file's index holds are kept (FileUnit.heldViews): a view is the same object only as
   * long as something holds it, so nothing but the index may hold one from one analysis to the next.
   */
  dropViews(): void {
    if (!this.dropsViews) return;
    for (const unit of this.units.values()) unit?.dropViews(droppedViewsTree);
  }

  /** Sets the text of a file (and drops the parse of it and of every file, since imports may change). */
  setText(file: string, text: string, language?: LanguageId): FileUnit {
    const old = this.units.get(file);
    if (old && old.text === text && (!language || old.language === language)) return this.get(file)!;
    this.textGiven(file);
    const lang = language ?? languageForPath(file) ?? 'python';
    this.textSet(file, text);
    this.importsChanged(file, text, lang);
    this.indexText(file, text);
    this.overlays.set(file, text);
    this.drop(file);
    this.evictUnits(text.length);
    if (this.maxEditBases === 0) return this.addUnit(file, text, lang, this.parsers.parse(lang, text));
    const previous = this.editBases.get(file);
    this.editBases.delete(file);
    // parseEdited releases `previous`, whatever happens.
    const tree = this.parsers.parseEdited(lang, text, previous);
    this.editBases.set(file, tree);
    evictOldest(this.editBases, this.maxEditBases, (_, base) => base.release());
    // The statements the tree took over from the previous version's are indexed as they were.
    const unit = this.addUnit(file, text, lang, tree, { previous: previous && this.unitOfBase.get(previous) });
    // The previous version's unit serves no later one. (Kept, it would keep its own previous
    // version alive in turn: a node of a statement typed over still belongs to its old tree.)
    if (previous) this.unitOfBase.delete(previous);
    this.unitOfBase.set(tree, unit);
    return unit;
  }

  /**
   * A text is given for a file. The import paths found so far stay right when the file was known
   * to exist (a file on disk, an open buffer) and is source code or a notebook (which no import
   * names): a new file (an unsaved buffer), or one that is not source code (a tsconfig.json's
   * aliases), can change what an import names. (Forgetting them for every notebook made a run
   * over a repository with notebooks resolve its imports again after each one.)
   */
  private textGiven(file: string): void {
    if ((languageForPath(file) || isNotebook(file)) && this.exists(file)) return;
    this.forgetExistence();
  }

  /**
   * Whether a file exists, asked of the host once per path and run; with a host that lists
   * folders, once per folder: module resolution probes many candidate paths per import (each
   * folder up the tree, `x.py` and `x/__init__.py`), and one set of names per folder holds
   * far less than one answer per probe.
   */
  exists(file: string): boolean {
    if (this.overlays.has(file)) return true;
    if (this.host.listFolder) return this.entriesOf(path.dirname(file)).has(path.basename(file));
    let known = this.existing.get(file);
    if (known === undefined) {
      known = this.host.exists ? this.host.exists(file) : this.host.readFile(file) !== undefined;
      this.existing.set(file, known);
    }
    return known;
  }

  /** The names in each folder asked about (see exists). */
  private readonly listings = new Map<string, ReadonlySet<string>>();

  /**
   * The names in a folder, listed once. A folder its parent does not hold is not listed: most
   * folders that module resolution asks about do not exist (`<each folder up>/json/`), and
   * finding that out from the file system costs a failed call each.
   */
  private entriesOf(folder: string): ReadonlySet<string> {
    let names = this.listings.get(folder);
    if (names) return names;
    const parent = path.dirname(folder);
    // Not kept for a folder its parent does not hold: the parent's listing answers again, and the
    // folders probed that do not exist outnumber those that do (40,000 to 8,000 paths on the
    // real-code corpus, kept to the end of the run).
    if (parent !== folder && !this.entriesOf(parent).has(path.basename(folder))) return NO_ENTRIES;
    const listed = this.host.listFolder!(folder);
    names = listed ? new Set(listed) : NO_ENTRIES;
    this.listings.set(folder, names);
    return names;
  }

  /**
   * Sets the text of a file without parsing it (a file no rule needs): files that import it
   * read this text, and parse it when they do.
   */
  setOverlay(file: string, text: string, language?: LanguageId): void {
    const old = this.units.get(file);
    if (old && old.text === text && (!language || old.language === language)) return;
    this.textGiven(file);
    const lang = language ?? languageForPath(file);
    this.textSet(file, text);
    if (lang) this.importsChanged(file, text, lang);
    else this.imports.delete(file);
    this.indexText(file, text);
    this.overlays.set(file, text);
    // The overlay is what a later text is compared with (textSet): no hash of the text it replaces
    // (hashing a 3,000-line buffer twice a keystroke was 1.3 ms of each edit's ~26).
    this.textHashes.delete(file);
    this.drop(file);
  }

  /**
   * An open buffer's text changed (a keystroke). For a source file or notebook that exists, which
   * files exist and where imports lead stay (setOverlay reads the file's own imports again), and
   * the facts derived from functions go: one about a function of another module may have been
   * read through a function of this one. Any other file (a new, unsaved one, a tsconfig.json)
   * can change what imports name, so everything goes, as for a file changed on disk (invalidate).
   */
  edited(file: string, text: string, language?: LanguageId): void {
    if (!((languageForPath(file) || isNotebook(file)) && this.exists(file))) this.invalidate(file);
    else this.derived.clear();
    this.setOverlay(file, text, language);
  }

  /**
   * Forgets the text given for a file while keeping its parse (if still cached): for a file
   * whose text is the one on disk, so that a run over a whole repository does not keep every
   * text to the end. Files that import it read it from the host again.
   */
  forgetText(file: string): void {
    this.overlays.delete(file);
  }

  invalidate(file: string): void {
    // A file was created, deleted or changed: what exists may have changed with it.
    this.forgetExistence();
    this.imports.clear();
    this.leads.clear();
    this.derived.clear();
    this.forgetIndexed(file);
    this.overlays.delete(file);
    // Nothing derived is left to tell apart from what the next text gives.
    this.drop(file);
  }

  /** Forgets a file's parse (its text is given anew, or the file changed). */
  private drop(file: string): void {
    const unit = this.units.get(file);
    if (unit) this.unitChars -= unit.text.length;
    this.units.delete(file);
  }

  get(file: string): FileUnit | undefined {
    if (this.units.has(file)) {
      const unit = this.units.get(file)!;
      this.units.delete(file);
      this.units.set(file, unit);
      return unit ?? undefined;
    }
    const language = languageForPath(file);
    const text = this.overlays.get(file) ?? this.host.readFile(file);
    if (!language || text === undefined) {
      this.units.set(file, null);
      return undefined;
    }
    return this.parseUnit(file, text, language);
  }

  /**
   * The text and language of a file as `get` would parse it, without parsing it; undefined when
   * `get` would give none. `once`: see SourceHost.readFile.
   */
  source(file: string, once = false): { text: string; language: LanguageId } | undefined {
    const cached = this.units.get(file);
    if (cached) return { text: cached.text, language: cached.language };
    if (cached === null) return undefined;
    const language = languageForPath(file);
    const text = language && (this.overlays.get(file) ?? this.host.readFile(file, once));
    return language && text !== undefined ? { text, language } : undefined;
  }

  /** Files read for imports (or parsed again after eviction) keep no WASM tree. */
  private parseUnit(file: string, text: string, language: LanguageId): FileUnit {
    this.evictUnits(text.length);
    return this.addUnit(file, text, language, this.parsers.parse(language, text));
  }

  private addUnit(file: string, text: string, language: LanguageId, tree: Tree, edited?: { previous?: FileUnit }): FileUnit {
    this.parsedChars += text.length;
    // While the parse is kept its text tells whether a text given later is another (textSet).
    this.textHashes.delete(file);
    const unit = new FileUnit(this, file, language, text, tree, edited);
    this.units.set(file, unit);
    this.unitChars += text.length;
    this.evictUnits();
    return unit;
  }

  /**
   * Evicts the least recently used units while more than MAX_UNITS, or more than MAX_UNIT_CHARS
   * of text, are kept with a text of `incoming` characters about to be parsed (0: the unit added
   * last, which stays however large). Room is made before the parse: the file's own analysis
   * comes next, and a long file's takes the most memory of a run. Made only after it, a file of
   * 700 K characters was parsed and analysed while the megabyte of parsed files before it was
   * still kept (~16 bytes a character).
   */
  private evictUnits(incoming = 0): void {
    // A text to come counts as one more unit, with its characters.
    const coming = incoming ? 1 : 0;
    evictOldest(
      this.units,
      MAX_UNITS - coming,
      (file, evicted) => {
        if (!evicted) return;
        this.unitChars -= evicted.text.length;
        if (!this.textsStay) this.textHashes.set(file, textHash(evicted.text));
        if (this.editBases.get(file) === evicted.tree) {
          this.editBases.delete(file);
          evicted.tree.release();
        }
      },
      () => this.unitChars + incoming > MAX_UNIT_CHARS && this.units.size + coming > 1,
    );
  }

  /** Resolves an import specifier written in `from` to a workspace file, if there is one. */
  resolveModule(from: FileUnit, spec: string): FileUnit | undefined {
    const file = this.modulePath(from, spec);
    return file === undefined ? undefined : this.get(file);
  }

  /**
   * The workspace file an import specifier written in `from` names, if one exists: found by
   * asking which files exist (and reading a tsconfig.json for path aliases), never a source file.
   */
  modulePath(from: { file: string; language: LanguageId }, spec: string): string | undefined {
    // Asked for every call of an imported name (calleeName) and every import of the modules a
    // request may be reached through: the answer is kept for the place the module syntax names
    // (ModuleSyntax.answerPlace; the file's folder by default), and dropped whenever a file
    // appears or changes (what exists, a tsconfig.json).
    const modules = frontEndFor(from.language).modules;
    const place = modules.answerPlace?.(this.moduleHost, from.file, spec) ?? path.dirname(from.file);
    const known = this.modulePaths.get(modules, place, spec);
    if (known !== undefined) return known ?? undefined;
    const found = modules.modulePath(this.moduleHost, from.file, spec);
    this.modulePaths.set(modules, place, spec, found ?? null);
    return found;
  }

  private readonly modulePaths = new AnswersByPlace<ModuleSyntax, string | null>(MAX_CACHED_ANSWERS);

  /**
   * Whether a module, or one it imports (up to `depth` imports away), holds text that `holds`
   * accepts (the words of a request): read from the texts and their import lines alone, without
   * parsing. What each file imports is kept for the life of the workspace, and dropped when its
   * text is set again or a file changes. `holds` must be the same function on every call.
   */
  leadsTo(file: string, holds: (text: string) => boolean, depth: number): boolean {
    // Known per module, so that the modules every file imports (a package's shared helpers) are
    // read once for all the files that import them, not once per file: an answer at one depth
    // holds at every depth on its side (what leads within 2 imports leads within 3).
    const known = this.leads.get(file);
    if (known?.leadsFrom !== undefined && depth >= known.leadsFrom) return true;
    if (known?.notUpTo !== undefined && depth <= known.notUpTo) return false;
    const facts = this.importFacts(file, holds);
    const found = !!facts && (facts.holds || (depth > 0 && facts.imports.some((g) => this.leadsTo(g, holds, depth - 1))));
    // Asked again meanwhile (an import cycle back to it): the bounds found then are kept.
    const bounds = this.leads.get(file) ?? {};
    if (found) bounds.leadsFrom = Math.min(bounds.leadsFrom ?? depth, depth);
    else bounds.notUpTo = Math.max(bounds.notUpTo ?? depth, depth);
    if (!this.leads.has(file)) this.leads.set(file, bounds);
    return found;
  }

  private importFacts(file: string, holds: (text: string) => boolean): ImportFacts | undefined {
    this.holds = holds;
    let facts = this.imports.get(file);
    if (facts) return facts;
    // Read once (SourceHost.readFile): what is kept of the text is its facts.
    const source = this.source(file, true);
    if (!source) return undefined;
    facts = this.readImports(file, source.text, source.language, holds, false);
    this.imports.set(file, facts);
    return facts;
  }

  /** `keepList`: see importedNamesOf (false for a text read only for these facts). */
  private readImports(file: string, text: string, language: LanguageId, holds: (text: string) => boolean, keepList = true): ImportFacts {
    const imports = new Set<string>();
    for (const imp of importedNamesOf(language, text, keepList)) {
      for (const target of this.importTargets(file, language, imp)) if (target !== file) imports.add(target);
    }
    return { holds: holds(text), imports: [...imports].sort(), length: text.length, hash: this.textsStay ? 0 : textHash(text) };
  }

  /** The workspace files an imported name may come from: its module, and the submodule it may name (`from pkg import mod`). */
  importTargets(file: string, language: LanguageId, imp: ImportedName): string[] {
    const from = { file, language };
    const out: string[] = [];
    const module = this.modulePath(from, imp.spec);
    if (module !== undefined) out.push(module);
    const sub = imp.name !== undefined && /^[a-z_]/.test(imp.name) ? frontEndFor(language).modules.submodule?.(imp.spec, imp.name) : undefined;
    const subFile = sub === undefined ? undefined : this.modulePath(from, sub);
    if (subFile !== undefined) out.push(subFile);
    return out;
  }

  /**
   * A file's text is set: when what it imports (or whether it holds a request) is not what was
   * read before, that is read again and what leads where is found again. A file nothing was read
   * from changes nothing.
   */
  private importsChanged(file: string, text: string, language: LanguageId): void {
    const old = this.imports.get(file);
    // The same text (a command-line run sets each file's text once, after reading it for this):
    // what it imports is what was read.
    if (!old || !this.holds || this.textsStay || (old.length === text.length && old.hash === textHash(text))) return;
    const now = this.readImports(file, text, language, this.holds);
    this.imports.set(file, now);
    if (now.holds !== old.holds || now.imports.join('\u0000') !== old.imports.join('\u0000')) {
      this.leads.clear();
      this.derived.clear();
    }
  }

  private holds?: (text: string) => boolean;

  private readonly imports = new Map<string, ImportFacts>();

  /**
   * Facts the analysis derives from the code of several files and keeps between analyses
   * (whether a function can lead to a request, see reach.ts and textReach.ts), by a key of the
   * deriver's own that names the file it is about. They are forgotten when a file that was parsed
   * or read (noteRead) gets another text, or a file changes.
   */
  readonly derived = new AnswerCache<boolean>(MAX_CACHED_ANSWERS);
  /**
   * A hash of the text of every file parsed or read so far whose parse is not kept, to tell when
   * one gets another text; a kept parse's own text tells that (hashing a 3,000-line buffer on
   * every keystroke was most of the cost of telling).
   */
  private readonly textHashes = new Map<string, number>();

  /**
   * A file gets a text: when it differs from the one parsed before, what was derived from that
   * file's own code is forgotten (what it imports, and whether it holds a request, are compared
   * by importsChanged, which forgets everything when they change). What other files' functions
   * were found to lead to through it is kept: a function found to lead nowhere that now would is
   * seen again when the workspace is told a file changed.
   */
  private textSet(file: string, text: string): void {
    const parsed = this.units.get(file);
    const given = this.overlays.get(file);
    if (parsed) {
      if (parsed.text === text) return;
    } else if (given !== undefined) {
      // What was derived since the buffer's last text was read from that text (the overlay).
      if (given === text) return;
    } else {
      const before = this.textHashes.get(file);
      if (before === undefined || before === textHash(text)) return;
    }
    const own = `\u0000${file}\u0000`;
    for (const key of [...this.derived.keys()]) if (key.includes(own)) this.derived.delete(key);
  }

  /** A text read to derive facts from (without parsing it): its hash is kept, as for a parsed one, so that a change drops those facts. */
  noteRead(file: string, text: string): void {
    if (!this.textsStay && !this.textHashes.has(file) && !this.units.get(file)) this.textHashes.set(file, textHash(text));
  }

  /** Per module, what leadsTo found: it leads at `leadsFrom` imports away and more, and not at `notUpTo` and fewer. */
  private readonly leads = new AnswerCache<{ leadsFrom?: number; notUpTo?: number }>(MAX_CACHED_ANSWERS);

  /** The names each project file calls (callDigest), read from its bytes once (see filesCalling). */
  private readonly memberCalls = new Map<string, string>();

  /**
   * The other files of the project of `file` whose text calls a member named `name` (`x.name(…)`,
   * `x?.name(…)`), or with `plain` calls `name(…)` on its own or as a member (a function imported
   * by name or read from its module) — in code or not: a candidate, for the parser to confirm —
   * when the run or the editor sees every file of that project; undefined when it does not. Each
   * file's text is read once for all names (and again after it changes). With `family`, only
   * the files of that language family are searched (and read): a Python function's callers are
   * Python files, and on the real-code corpus a fifth of what the index read was the other
   * family's files of mixed projects (a TypeScript front end beside a Python service).
   */
  filesCalling(file: string, name: string, plain = false, family?: LanguageFamily): string[] | undefined {
    const files = this.host.projectFiles?.(file);
    if (!files || files.length > MAX_INDEXED_FILES) return undefined;
    const key = `${family ?? ''}\u0000${plain ? `:${name}` : name}`;
    const known = this.callingFiles.get(files)?.get(key);
    if (known) return known.filter((f) => f !== file);
    const out: string[] = [];
    const asMember = nameKey(name);
    const alone = nameKey(`:${name}`);
    let evicted = false;
    let whole = true;
    for (const f of family ? this.ofFamily(files, family) : files) {
      let names = this.memberCalls.get(f);
      if (names === undefined && f === file) {
        // Its own text is not read for this (it is not among the answers); the answer for the
        // project is then not kept either.
        whole = false;
        continue;
      }
      if (names === undefined) {
        if (this.indexedBytes > Math.min(this.maxKeptIndexBytes, this.maxIndexedBytes) && !evicted) {
          evicted = true;
          const project = new Set(files);
          for (const other of [...this.memberCalls.keys()]) if (!project.has(other)) this.forgetIndexed(other);
        }
        // A very large project is read up to a bound, once: the files past it are not searched.
        if (this.indexedBytes > this.maxIndexedBytes) {
          whole = false;
          continue;
        }
        const read = this.indexRead(f);
        names = read.names;
        this.putIndexed(f, names, read.bytes);
      }
      if (digestHas(names, asMember) || (plain && digestHas(names, alone))) out.push(f);
    }
    if (whole) {
      let byName = this.callingFiles.get(files);
      if (!byName) this.callingFiles.set(files, (byName = new Map()));
      byName.set(key, out);
    }
    return out.filter((f) => f !== file);
  }

  /** A project's files of one language family, per file list (split once: asked for every search). */
  private ofFamily(files: readonly string[], family: LanguageFamily): readonly string[] {
    let split = this.familyFiles.get(files);
    if (!split) {
      split = { python: [], js: [] };
      for (const f of files) {
        const k = languageFamily(f);
        if (k) split[k].push(f);
      }
      this.familyFiles.set(files, split);
    }
    return split[family];
  }

  private readonly familyFiles = new WeakMap<readonly string[], Record<LanguageFamily, string[]>>();

  /**
   * filesCalling's answers (the file asking left in), per project file list and name, while every
   * file of that project is in memberCalls and none changed: a run asks for the same names from
   * many files (431 searches of 197 names over the real-code corpus, one thread), and each search
   * read the names of every file of the project.
   */
  private callingFiles = new WeakMap<readonly string[], Map<string, string[]>>();

  /** Bytes read for the entries of memberCalls, in all and per file. */
  private indexedBytes = 0;
  private readonly indexedLength = new Map<string, number>();

  /**
   * What memberCalls holds for a file read now, and the bytes it was read from: from the bytes on
   * disk when the host gives them (not decoded, not kept: the texts of a whole project would push
   * out of the host's cache the files the analysis reads again, and outlive the young generation),
   * else from the text the analysis would parse.
   */
  private indexRead(file: string): { names: string; bytes: number } {
    if (!this.units.has(file) && !this.overlays.has(file) && languageForPath(file)) {
      const read = this.host.readBytes?.(file);
      if (read) return 'bytes' in read ? { names: callDigest(read.bytes), bytes: read.bytes.length - byteOrderMarkLength(read.bytes) } : { names: '', bytes: 0 };
    }
    const text = this.source(file, true)?.text;
    return text === undefined ? { names: '', bytes: 0 } : this.fromText(text);
  }

  private fromText(text: string): { names: string; bytes: number } {
    const bytes = Buffer.from(text, 'utf8');
    return { names: callDigest(bytes), bytes: bytes.length };
  }

  /**
   * A file is given a text: what memberCalls holds for it (if anything) is read from that text,
   * and the kept answers stay when it calls the same names. A command-line run gives each file it
   * parses the text the index has read already (textsStay): dropping the entry made the next
   * search read the file from disk again and forget every kept answer, and reading it again
   * finds what was found.
   */
  private indexText(file: string, text: string): void {
    if (this.textsStay || !this.memberCalls.has(file)) return;
    const read = this.fromText(text);
    this.putIndexed(file, read.names, read.bytes);
  }

  /** Sets what memberCalls holds for a file read from `length` bytes; the kept answers go when that changes. */
  private putIndexed(file: string, names: string, length: number): void {
    this.indexedBytes += length - (this.indexedLength.get(file) ?? 0);
    this.indexedLength.set(file, length);
    if (this.memberCalls.get(file) === names) return;
    this.memberCalls.set(file, names);
    this.callingFiles = new WeakMap();
  }

  /** Drops what memberCalls holds for a file (its text changed, or the index made room for another project). */
  private forgetIndexed(file: string): void {
    if (!this.memberCalls.delete(file)) return;
    this.callingFiles = new WeakMap();
    this.indexedBytes -= this.indexedLength.get(file) ?? 0;
    this.indexedLength.delete(file);
  }

  /**
   * What the front ends' module resolution asks of the workspace. A new one each time what exists
   * may have changed (see forgetExistence): a front end may keep answers with it (Python keeps the
   * folders an import is looked up in).
   */
  private moduleHost = this.newModuleHost();

  private newModuleHost(): ModuleHost {
    return { exists: (f: string) => this.exists(f), readFile: (f: string) => this.overlays.get(f) ?? this.host.readFile(f) };
  }

  /** What exists may have changed (a file appeared, was deleted or changed): what was read of it is read again. */
  private forgetExistence(): void {
    this.existing.clear();
    this.listings.clear();
    this.modulePaths.clear();
    this.moduleHost = this.newModuleHost();
  }
}
