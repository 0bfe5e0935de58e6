/**
 * The only module that uses web-tree-sitter (made by treeSitterRuntime.ts, a runtime per
 * Parsers). Loads the runtime and the grammar WASM files from the folder next to the bundle
 * (dist/) or from node_modules in development.
 */
import * as path from 'node:path';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Edit, Language, Parser, Point, Tree as WasmTree } from 'web-tree-sitter';
import type { SdkHost, SdkLocation } from '../core/knownNames';
import type { ProjectSdkNames } from '../core/knownNames';
import type { LanguageId } from '../core/model';
import { readFully } from '../core/pageBacked';
import { frontEndFor, sdkReaderFor } from './frontEnds';
import type { GrammarTables } from './syntaxTree';
import { keptWasmTreeCount, SyntaxNode, SyntaxTree, useCursorBinding } from './syntaxTree';
import { INITIAL_PAGES, newTreeSitterModule, RUNTIME_SCRIPT, withInitialPages } from './treeSitterRuntime';
import type { InputCopy, TreeSitterModule } from './treeSitterRuntime';

/** The analysis works on trees read into JavaScript (see syntaxTree.ts), never on WASM nodes. */
export type Node = SyntaxNode;
export type Tree = SyntaxTree;

const GRAMMAR_FILES: Record<LanguageId, { pkg: string; file: string }> = {
  python: { pkg: 'tree-sitter-python', file: 'tree-sitter-python.wasm' },
  typescript: { pkg: 'tree-sitter-typescript', file: 'tree-sitter-typescript.wasm' },
  tsx: { pkg: 'tree-sitter-typescript', file: 'tree-sitter-tsx.wasm' },
  javascript: { pkg: 'tree-sitter-javascript', file: 'tree-sitter-javascript.wasm' },
};

/** GRAMMAR_FILES as a list, in one order for compiling and loading. */
const GRAMMARS = Object.entries(GRAMMAR_FILES) as Array<[LanguageId, { pkg: string; file: string }]>;

function packageDir(pkg: string): string | undefined {
  // Works in the CJS bundle (require) and under the test runner (resolution from the project).
  const requires = [...(typeof require === 'function' ? [require] : []), createRequire(path.join(process.cwd(), 'index.js'))];
  let entry: string | undefined;
  for (const req of requires) {
    try {
      entry = req.resolve(pkg);
      break;
    } catch {
      // try the next resolution base
    }
  }
  if (!entry) return undefined;
  for (let dir = path.dirname(entry); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json')) && path.basename(dir) === pkg.split('/').pop()) return dir;
  }
  return undefined;
}

/** A file of a package: in `wasmDir`, next to the bundle (the build copies them to dist/), or in the package. */
function findFile(pkg: string, file: string, wasmDir?: string): string {
  const candidates: string[] = [];
  if (wasmDir) candidates.push(path.join(wasmDir, file));
  if (typeof __dirname !== 'undefined') candidates.push(path.join(__dirname, file));
  const dir = packageDir(pkg);
  if (dir) candidates.push(path.join(dir, file));
  for (const c of candidates) if (fs.existsSync(c)) return c;
  throw new Error(`cannot find ${file} (looked in ${candidates.join(', ')})`);
}

/** A compiled WebAssembly module, as web-tree-sitter takes one. */
type WasmModule = Parameters<TreeSitterModule['Language']['loadSync']>[0];

/** The part of the WebAssembly API used here (TypeScript declares it only in the DOM's library). */
const Wasm = (globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<WasmModule>; Instance: new (module: WasmModule, imports: object) => { exports: object } } }).WebAssembly;

/** The runtime and grammar modules compiled once (Parsers.compile): posted to workers, they share the compiled code. */
export interface CompiledGrammars {
  runtime: WasmModule;
  grammars: Record<LanguageId, WasmModule>;
  /** The memory the runtime starts with, in pages, when its module was made to take less than it asks for (withInitialPages). */
  initialPages?: number;
}

/** The size of a WebAssembly memory page. */
const WASM_PAGE = 65536;

/** Where a Parsers makes its runtimes from: web-tree-sitter's script, the compiled modules, and how the text is copied in. */
interface RuntimeSource {
  script: string;
  compiled: CompiledGrammars;
  inputCopy: InputCopy;
}

/**
 * A WASM file's bytes. A grammar's file is over 1 MB: read into a buffer malloc does not serve
 * (see pageBacked.ts), as fs.readFileSync's would be.
 */
function readWasm(file: string): Uint8Array {
  const fd = fs.openSync(file, 'r');
  try {
    return readFully(fs.fstatSync(fd).size, (b, at, length) => fs.readSync(fd, b, at, length, null));
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * One instance of web-tree-sitter (treeSitterRuntime.ts), with its memory, and the grammars
 * loaded into it so far (each when first asked for: a runtime made again after a large file
 * mostly parses one language).
 */
class Runtime {
  private readonly languages = new Map<LanguageId, Language>();
  private readonly parsers = new Map<LanguageId, Parser>();
  /** The size of its memory once its grammars were loaded (their data is in it). */
  private grammarBytes = 0;

  private constructor(
    private readonly api: TreeSitterModule,
    /** The options object given to `Parser.init`, which Emscripten makes its module (see useCursorBinding). */
    readonly emscripten: Record<string, unknown>,
    private readonly grammars: Record<LanguageId, WasmModule>,
    readonly inputCopy: InputCopy,
  ) {}

  static async start(source: RuntimeSource): Promise<Runtime> {
    const { module: api, inputCopy } = newTreeSitterModule(source.script, source.inputCopy);
    const runtime = source.compiled.runtime;
    const emscripten: Record<string, unknown> = {
      // Emscripten's hook for a module compiled elsewhere: it is handed the instance made here.
      instantiateWasm(imports: object, receive: (instance: { exports: object }, module: WasmModule) => void) {
        const instance = new Wasm.Instance(runtime, imports);
        receive(instance, runtime);
        return instance.exports;
      },
    };
    if (source.compiled.initialPages) emscripten.INITIAL_MEMORY = source.compiled.initialPages * WASM_PAGE;
    await api.Parser.init(emscripten);
    return new Runtime(api, emscripten, source.compiled.grammars, inputCopy);
  }

  language(lang: LanguageId): Language {
    let l = this.languages.get(lang);
    if (!l) {
      this.languages.set(lang, (l = this.api.Language.loadSync(this.grammars[lang])));
      this.grammarBytes = this.memoryBytes();
    }
    return l;
  }

  parser(lang: LanguageId): Parser {
    let p = this.parsers.get(lang);
    if (!p) {
      p = new this.api.Parser();
      p.setLanguage(this.language(lang));
      this.parsers.set(lang, p);
    }
    useCursorBinding(this.emscripten);
    return p;
  }

  /** The edit of a tree of this runtime (its own class; `Tree.edit` reads only the fields). */
  edit(change: TextEdit): Edit {
    return new this.api.Edit(change);
  }

  /** The size of its memory: what the parser has used at most, and a fifth more (Emscripten grows it by that). */
  memoryBytes(): number {
    return (this.emscripten.HEAP8 as Int8Array | undefined)?.length ?? 0;
  }

  /** How much its memory grew beyond what its grammars take: what its parses made it keep. */
  grownByParses(): number {
    return this.memoryBytes() - this.grammarBytes;
  }

  /** Frees its parsers (the memory itself goes when nothing holds the runtime). */
  dispose(): void {
    for (const p of this.parsers.values()) p.delete();
    this.parsers.clear();
    this.languages.clear();
  }
}

/**
 * A runtime whose memory its parses have grown by this much is renewed, when the Parsers renews
 * them (a command-line run). Tree-sitter's memory is about 16 bytes per character of the text at
 * its highest (Python files of 380 and 690 KB: 6.4 and 11.1 MB resident), and it keeps what it
 * grew to: this renews after a text of ~250 K characters or more. Measured on the real-code
 * corpus (2 threads, 6 alternating runs each against no renewal): with 4 MB, 5 renewals a run,
 * peak RSS 260–267 MB against 269–280, wall time within 1%; with 2 MB, 22 renewals, much the
 * same peak, and 2.5–3.6% more time (a new runtime faults its memory in again, and its first
 * long parse took 30–50 ms more).
 */
const RENEW_AFTER_BYTES = 4 * 1024 * 1024;
/** Texts shorter than this are parsed with the new runtime once one is wanted; longer ones, with the grown one (see current). */
const RENEW_BEFORE_CHARS = 32 * 1024;

export class Parsers {
  private readonly tables = new Map<LanguageId, GrammarTables>();
  /**
   * The runtime to take the current one's place (renewal), made ahead: Emscripten starts one
   * asynchronously, and a lint worker lints the files it has been given without letting the
   * event loop run, so one made when it is wanted took up to 2 s to be ready.
   */
  private standby?: Runtime;
  private makingStandby = false;
  /** The current runtime's parses grew its memory by RENEW_AFTER_BYTES: it is to be renewed as soon as it can. */
  private renewalWanted = false;
  /** Runtimes made again so far. */
  renewals = 0;

  private constructor(
    private readonly source: RuntimeSource,
    private runtime: Runtime,
    /** Whether a runtime whose parses grew its memory is dropped for a new one (see renew). */
    private renews: boolean,
  ) {
    this.prepareStandby();
  }

  /** The size of the current runtime's memory (see Runtime.memoryBytes). */
  get memoryBytes(): number {
    return this.runtime.memoryBytes();
  }

  /** How the runtime copies the text into its memory ('as-published' when web-tree-sitter's loop was not found: another version). */
  get inputCopy(): InputCopy {
    return this.runtime.inputCopy;
  }

  private grammar(lang: LanguageId): GrammarTables {
    let t = this.tables.get(lang);
    if (!t) {
      const language = this.runtime.language(lang);
      const types = language.types;
      const named = new Uint8Array(types.length);
      for (let id = 0; id < types.length; id++) named[id] = language.nodeTypeIsNamed(id) ? 1 : 0;
      const fieldIds = new Map<string, number>();
      language.fields.forEach((name, id) => {
        if (name) fieldIds.set(name, id);
      });
      // memoryFields from the start: added later, it gave the tables another shape, and the tree reader optimized for the first one was thrown away.
      t = { types, fields: language.fields, fieldIds, named, memoryFields: undefined };
      this.tables.set(lang, t);
    }
    return t;
  }

  /**
   * The runtime and the grammars compiled, for the threads of a run to share (Parsers.load). A
   * WebAssembly module posted to a worker is the same compiled code there, not a copy. A lint
   * worker that compiled the five files itself held ~9.5 MB of its thread's allocations once its
   * engine had loaded (~5.5 MB with the shared modules), and optimized the parser's hot functions
   * again: on the real-code corpus (2 threads, 10 alternating runs) the shared modules took 3.1%
   * off the run's CPU time and 2.6% off its wall time; the peak RSS stayed within the noise (the
   * one copy now sits in the main thread).
   */
  static async compile(wasmDir?: string, asPublished = false): Promise<CompiledGrammars> {
    const read = (pkg: string, file: string) => readWasm(findFile(pkg, file, wasmDir));
    const published = read('web-tree-sitter', 'web-tree-sitter.wasm');
    const smaller = asPublished ? undefined : withInitialPages(published, INITIAL_PAGES);
    const [runtime, ...grammars] = await Promise.all([Wasm.compile(smaller ?? published), ...GRAMMARS.map(([, g]) => Wasm.compile(read(g.pkg, g.file)))]);
    return { runtime, grammars: Object.fromEntries(GRAMMARS.map(([id], i) => [id, grammars[i]])) as Record<LanguageId, WasmModule>, ...(smaller ? { initialPages: INITIAL_PAGES } : {}) };
  }

  /**
   * Loads the runtime and the grammars: from `compiled` when given (Parsers.compile, in any
   * thread), else compiled here from their files. Each Parsers has a runtime of its own.
   * `options.renew`: see renew; `options.inputCopy`: 'as-published' for
   * web-tree-sitter's own copy of the text (the benchmark's floor).
   */
  static async load(wasmDir?: string, compiled?: CompiledGrammars, options: { renew?: boolean; inputCopy?: InputCopy } = {}): Promise<Parsers> {
    const source: RuntimeSource = {
      script: findFile('web-tree-sitter', RUNTIME_SCRIPT, wasmDir),
      compiled: compiled ?? (await Parsers.compile(wasmDir, options.inputCopy === 'as-published')),
      inputCopy: options.inputCopy ?? 'native',
    };
    return new Parsers(source, await Runtime.start(source), options.renew ?? false);
  }

  private prepareStandby(): void {
    if (!this.renews || this.standby || this.makingStandby) return;
    this.makingStandby = true;
    Runtime.start(this.source).then(
      (made) => {
        this.makingStandby = false;
        this.standby = made;
      },
      () => {
        // A runtime that could not be made: the current one goes on, with its memory.
        this.makingStandby = false;
        this.renews = false;
      },
    );
  }

  /**
   * A command-line run's renewal of the runtime: once its parses have grown its memory by
   * RENEW_AFTER_BYTES, a parse uses the standby runtime (see current), the old one and its memory
   * being dropped, and another standby is made. Only while no tree keeps its WASM tree (the
   * editor's incremental parses do; a command-line run keeps none).
   */
  private renew(): void {
    const next = this.standby;
    if (!this.renewalWanted || !next || keptWasmTreeCount() !== 0) return;
    this.runtime.dispose();
    this.runtime = next;
    this.standby = undefined;
    this.renewalWanted = false;
    this.renewals++;
    this.prepareStandby();
  }

  /**
   * The runtime to parse a text of `length` characters with: renewed first when that is wanted,
   * it can be, and the text is short. A long text is parsed with the runtime whose memory is
   * already grown: a new one would grow its memory again (its pages faulted in again), and long
   * files come in groups (a project's generated or central modules).
   */
  private current(length = 0): Runtime {
    if (this.renewalWanted && length < RENEW_BEFORE_CHARS) this.renew();
    return this.runtime;
  }

  /** The version of the SDK installed at a location (config/projectSdk.ts finds them). */
  sdkVersion(host: SdkHost, at: SdkLocation): string | undefined {
    return sdkReaderFor(at.language).version(host, (l, t) => this.parse(l, t), at.dir);
  }

  /** The names an installed SDK declares, read with this language's parser. */
  sdkNames(host: SdkHost, at: SdkLocation, version: string): ProjectSdkNames {
    return sdkReaderFor(at.language).names(host, (l, t) => this.parse(l, t), at.dir, version);
  }

  /** A tree-sitter Edit of the current runtime, for `Tree.edit` of a tree parsed with `parser()`. */
  edit(change: TextEdit): Edit {
    return this.runtime.edit(change);
  }

  /** The parser of a language, in the current runtime (the benchmark's floor parses with it directly). */
  parser(lang: LanguageId): Parser {
    return this.current().parser(lang);
  }

  /**
   * The parse of `source` rewritten where the grammar misreads it (StatementSyntax.reread), when
   * the language has such a rewrite, it changes the text, and its parse has no error; else
   * undefined. Asked when the parse of `source` has an error; the tree's offsets are `source`'s.
   */
  private rewrittenParse(runtime: Runtime, lang: LanguageId, source: string): WasmTree | undefined {
    const rewritten = frontEndFor(lang).statements.reread?.(source);
    const again = rewritten === undefined ? null : runtime.parser(lang).parse(rewritten);
    if (!again || !again.rootNode.hasError) return again ?? undefined;
    again.delete();
    return undefined;
  }

  /** `wasm`, the parse of `source`, or, when it has an error, rewrittenParse's (the other one freed). */
  private reread(runtime: Runtime, lang: LanguageId, source: string, wasm: WasmTree | null): WasmTree {
    if (!wasm) throw new Error(`the ${lang} parser gave no tree`);
    const rewritten = wasm.rootNode.hasError ? this.rewrittenParse(runtime, lang, source) : undefined;
    if (!rewritten) return wasm;
    wasm.delete();
    return rewritten;
  }

  /** Parses text into a tree held in JavaScript; the WASM tree is freed before this returns. */
  parse(lang: LanguageId, text: string): Tree {
    const source = sourceOf(text);
    const runtime = this.current(source.length);
    const wasm = this.reread(runtime, lang, source, runtime.parser(lang).parse(source));
    try {
      return new SyntaxTree(source, this.grammar(lang), wasm);
    } finally {
      wasm.delete();
      // Renewed before the next short text (see current).
      if (this.renews && this.runtime.grownByParses() >= RENEW_AFTER_BYTES) this.renewalWanted = true;
    }
  }

  /**
   * Parses a new version of an editor buffer. The tree keeps its WASM tree (free it with
   * `release()`) so that the version after it parses incrementally. Given `previous`, the
   * buffer's last tree from this method, tree-sitter re-parses only around the change and the
   * subtrees it reused are copied from `previous` rather than read again. `previous` is
   * released here (its WASM tree was edited to the new text, so it serves no other parse).
   *
   * An edit inside one top-level statement parses only that statement's new text, on its own
   * (see `spliceStatement`), when that gives the tree the whole text would; and always when the
   * statement then has a syntax error. Why: while a keyword is half typed (`def` → `drefundef`),
   * tree-sitter's error recovery re-parses much of a large file, 25–60 ms a keystroke on the
   * editor benchmark's 3,000 lines, where the statement alone takes about one.
   *
   * Node ids are recorded only when there is a `previous`: the first version of a buffer may
   * well be the only one (the CLI sets each file once), and recording costs a call per node.
   */
  parseEdited(lang: LanguageId, text: string, previous?: Tree): Tree {
    const source = sourceOf(text);
    const grammar = this.grammar(lang);
    const base = previous?.grammar === grammar ? previous : undefined;
    const oldWasm = base?.wasmTree;
    let wasm: WasmTree | null = null;
    try {
      if (oldWasm) {
        const change = textChange(base!.source, source);
        if (change) {
          oldWasm.edit(this.runtime.edit(change));
          // Takes over the WASM tree of `previous` (then released below with nothing to free).
          const spliced = this.spliceStatement(lang, base!, source, change);
          if (spliced) return spliced;
        }
      }
      const runtime = this.current();
      wasm = runtime.parser(lang).parse(source, oldWasm);
      if (!wasm) throw new Error(`the ${lang} parser gave no tree`);
      const rewritten = wasm.rootNode.hasError ? this.rewrittenParse(runtime, lang, source) : undefined;
      if (rewritten) {
        // Not kept for the next version: its rows are the rewritten text's, not the buffer's.
        try {
          return new SyntaxTree(source, grammar, rewritten);
        } finally {
          rewritten.delete();
        }
      }
      // Built while the old WASM tree is alive: node ids are only comparable then.
      const tree = new SyntaxTree(source, grammar, wasm, { keepWasm: true, recordNodeIds: !!previous, reuse: base?.reusable ? base : undefined });
      wasm = null;
      return tree;
    } finally {
      wasm?.delete();
      previous?.release();
    }
  }

  /**
   * The tree of `source` made from `previous` by parsing only the top-level statement the
   * change is in, or undefined when that cannot stand for a parse of the whole text.
   *
   * It stands for one when the statement's new text parses on its own without an error and
   * the language says nothing around it joins it (StatementSyntax), every other statement having
   * been read without an error: the statements around are then read as they were. When the
   * text has a syntax error (in this statement or another), the tree is taken too, although the
   * whole text might then be read otherwise: tree-sitter's recovery can take in the statements
   * after the error, where this keeps them as they were until the text parses again.
   *
   * The "statement" is a run of top-level nodes: a statement with an error may come out in
   * pieces (a function's body as statements of their own), and where a piece cannot be parsed
   * from its start (Python's indented lines), the run starts at the piece before that can.
   */
  private spliceStatement(lang: LanguageId, previous: Tree, source: string, change: TextEdit): Tree | undefined {
    // A text tree-sitter could not read as a module at all (an error for its root) has no statements.
    if (previous.rootNode.isError) return undefined;
    // An error of the text that no statement holds (a hidden MISSING token between two, see
    // markHiddenErrors): the new root's flag is read again from a parse of all of it.
    if (previous.hasError(0) && !hasErrorBelow(previous, 0)) return undefined;
    const statements = frontEndFor(lang).statements;
    const start = change.startIndex;
    const end = change.oldEndIndex;
    const shift = source.length - previous.source.length;
    // The last top-level node that starts before the edit, and the run around it.
    let first = -1;
    for (let c = previous.firstChild(0); c >= 0 && previous.start[c] < start; c = previous.nextSibling(c)) first = c;
    if (first < 0) return undefined;
    let last = first;
    while (first >= 0 && !statements.parsesFrom(previous.source, previous.start[first])) first = previous.prevSibling(first);
    if (first < 0) return undefined;
    // On to the end of the edit (one between two statements takes in the one after), and over the pieces after it that cannot be parsed from their start.
    for (let n = previous.nextSibling(last); n >= 0 && (end > previous.end[last] || !statements.parsesFrom(previous.source, previous.start[n])); n = previous.nextSibling(n)) last = n;
    if (end > previous.end[last]) return undefined;
    // And to the end of its line: a comment at its end would take in the rest of the line.
    for (let n = previous.nextSibling(last); n >= 0 && !previous.source.slice(previous.end[last], previous.start[n]).includes('\n'); n = previous.nextSibling(n)) last = n;
    const from = previous.start[first];
    const statementEnd = previous.end[last] + shift;
    let to = statementEnd;
    // With its line break: a text cut between `\r` and `\n` would end in a lone `\r` (which ends a line, and grammars read otherwise).
    const lineEnd = source.indexOf('\n', to);
    if (lineEnd >= 0 && /^[ \t\f\v\r]*$/.test(source.slice(to, lineEnd))) to = lineEnd + 1;
    // Not for a statement that is most of the file: parsing it alone would save nothing.
    if ((to - from) * 2 > source.length) return undefined;
    // An edit at the statement's end could join it to what follows (`a;b` typed into): only with a space after.
    if (end === previous.end[last] && statementEnd < source.length && !/\s/.test(source.charAt(statementEnd))) return undefined;
    const part = this.parse(lang, source.slice(from, to));
    // A quoted string that a line break runs through is read as one string in the statement
    // alone, and as an error in the whole text (Python's scanner): the whole is parsed then.
    if (!part.rootNode.hasError && hasLineBrokenString(part)) return undefined;
    if (!part.rootNode.hasError) {
      let errorsAround = false;
      for (let c = previous.firstChild(0); c >= 0 && !errorsAround; c = previous.nextSibling(c)) errorsAround = (c < first || c > last) && previous.hasError(c);
      // With an error elsewhere in the text, the statements around are kept as they were, as for an error in this one.
      if (!errorsAround && !statements.standsAlone(previous.node(first)!, previous.node(last)!, source, statementEnd, start, shift)) return undefined;
    }
    return new SyntaxTree(source, this.grammar(lang), { previous, first, last, part, at: from });
  }
}

/** The node types of a quoted string (in both grammars: Python's also has its prefix and its quotes as children). */
const STRING_TYPES: ReadonlySet<string> = new Set(['string']);

/**
 * Whether a string in quotes (not triple quotes, not a template) holds a line break that no
 * backslash continues: invalid in Python and JavaScript alike, and tree-sitter's Python grammar
 * reads one differently in a statement parsed alone (one string) and in the whole text (an
 * error that its recovery takes further). An f-string whose braces run over lines is valid
 * Python and is taken here too: its statement is then parsed with the rest of the text.
 */
function hasLineBrokenString(tree: Tree): boolean {
  const mask = tree.typeMask(STRING_TYPES);
  for (let i = 0; i < tree.length; i++) {
    if (!mask[tree.typeId[i]]) continue;
    const text = tree.source.slice(tree.start[i], tree.end[i]);
    const quote = /^[A-Za-z]*("""|'''|["'])/.exec(text);
    if (quote && quote[1].length === 1 && /(^|[^\\])\n/.test(text)) return true;
  }
  return false;
}

/** Whether a child of node `i` has an error (its own flag may come from a hidden token). */
function hasErrorBelow(tree: Tree, i: number): boolean {
  for (let c = tree.firstChild(i); c >= 0; c = tree.nextSibling(c)) if (tree.hasError(c)) return true;
  return false;
}

/**
 * A lone \r ends a line for Python, JavaScript, editors and LineIndex, but the grammars take
 * it for a space (a file with old Mac line endings would be one comment line). The
 * same-length replacement keeps every offset.
 */
function sourceOf(text: string): string {
  return text.includes('\r') ? text.replace(/\r(?!\n)/g, '\n') : text;
}

/** What a tree-sitter `Edit` says (Tree.edit reads these fields). */
export type TextEdit = Pick<Edit, 'startIndex' | 'oldEndIndex' | 'newEndIndex' | 'startPosition' | 'oldEndPosition' | 'newEndPosition'>;

/**
 * The edit that turns `before` into `after`, for `Tree.edit`: the longest common prefix, then
 * the longest common suffix of the rest. undefined when the texts are equal.
 *
 * web-tree-sitter parses JavaScript strings as UTF-16, and indexes and columns are in UTF-16
 * code units in both directions (node positions read back the same way), so offsets into the
 * strings are the indexes and columns count code units since the last '\n' (tree-sitter
 * starts a row only at '\n'; sourceOf has already made each lone '\r' one).
 */
export function textChange(before: string, after: string): TextEdit | undefined {
  if (before === after) return undefined;
  let start = commonPrefix(before, after);
  // Never split a surrogate pair: both sides of the change must be whole characters.
  if (start > 0 && isHighSurrogate(before.charCodeAt(start - 1))) start--;
  let common = commonSuffix(before, after, Math.min(before.length, after.length) - start);
  if (common > 0 && isLowSurrogate(before.charCodeAt(before.length - common))) common--;
  const oldEnd = before.length - common;
  const newEnd = after.length - common;
  const startPosition = pointAt(before, 0, { row: 0, column: 0 }, start);
  return {
    startIndex: start,
    oldEndIndex: oldEnd,
    newEndIndex: newEnd,
    startPosition,
    oldEndPosition: pointAt(before, start, startPosition, oldEnd),
    newEndPosition: pointAt(after, start, startPosition, newEnd),
  };
}

/**
 * How many code units two texts have in common at their start. Equal stretches of halving
 * length first (a keystroke leaves nearly all of a file in common, and comparing two slices is
 * native: 130 KB in ~0.01 ms, where `startsWith`/`endsWith` of blocks took 0.2 ms), then
 * characters.
 */
export function commonPrefix(a: string, b: string): number {
  const shorter = Math.min(a.length, b.length);
  let n = 0;
  for (let size = 1 << 16; size >= 16; size >>= 2) while (n + size <= shorter && a.slice(n, n + size) === b.slice(n, n + size)) n += size;
  while (n < shorter && a.charCodeAt(n) === b.charCodeAt(n)) n++;
  return n;
}

/** How many code units, at most `most`, two texts have in common at their end (as commonPrefix). */
export function commonSuffix(a: string, b: string, most: number): number {
  let n = 0;
  for (let size = 1 << 16; size >= 16; size >>= 2) while (n + size <= most && a.slice(a.length - n - size, a.length - n) === b.slice(b.length - n - size, b.length - n)) n += size;
  while (n < most && a.charCodeAt(a.length - 1 - n) === b.charCodeAt(b.length - 1 - n)) n++;
  return n;
}

/** The point of offset `to` in text, counting on from `from` at point `at`. */
function pointAt(text: string, from: number, at: Point, to: number): Point {
  let row = at.row;
  let lineStart = from - at.column;
  for (let nl = text.indexOf('\n', from); nl >= 0 && nl < to; nl = text.indexOf('\n', nl + 1)) {
    row++;
    lineStart = nl + 1;
  }
  return { row, column: to - lineStart };
}

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

/** Python, or TypeScript, TSX and JavaScript: the languages one front end reads. */
export type LanguageFamily = 'python' | 'js';

/** The language family of a file, by its name. */
export function languageFamily(file: string): LanguageFamily | undefined {
  const lang = languageForPath(file);
  return lang === undefined ? undefined : lang === 'python' ? 'python' : 'js';
}

export function languageForPath(file: string): LanguageId | undefined {
  const ext = path.extname(file).toLowerCase();
  switch (ext) {
    case '.py':
    case '.pyi':
      return 'python';
    case '.ts':
    case '.mts':
    case '.cts':
      return 'typescript';
    case '.tsx':
      return 'tsx';
    case '.js':
    case '.jsx':
    case '.mjs':
    case '.cjs':
      return 'javascript';
    default:
      return undefined;
  }
}
