/**
 * The only module that imports web-tree-sitter. Loads the runtime and the grammar WASM
 * files once, from the folder next to the bundle (dist/) or from node_modules in development.
 */
import * as path from 'node:path';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import { Edit, Language, Parser } from 'web-tree-sitter';
import type { Point, Tree as WasmTree } from 'web-tree-sitter';
import type { SdkHost, SdkLocation } from '../core/knownNames';
import type { ProjectSdkNames } from '../core/knownNames';
import type { LanguageId } from '../core/model';
import { frontEndFor, sdkReaderFor } from './frontEnds';
import type { GrammarTables } from './syntaxTree';
import { SyntaxNode, SyntaxTree, useCursorBinding } from './syntaxTree';

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

function findWasm(pkg: string, file: string, wasmDir?: string): string {
  const candidates: string[] = [];
  if (wasmDir) candidates.push(path.join(wasmDir, file));
  if (typeof __dirname !== 'undefined') candidates.push(path.join(__dirname, file));
  const dir = packageDir(pkg);
  if (dir) candidates.push(path.join(dir, file));
  for (const c of candidates) if (fs.existsSync(c)) return c;
  throw new Error(`cannot find ${file} (looked in ${candidates.join(', ')})`);
}

/** A compiled WebAssembly module, as web-tree-sitter takes one. */
type WasmModule = Parameters<typeof Language.loadSync>[0];

/** The part of the WebAssembly API used here (TypeScript declares it only in the DOM's library). */
const Wasm = (globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<WasmModule>; Instance: new (module: WasmModule, imports: object) => { exports: object } } }).WebAssembly;

/** The runtime and grammar modules compiled once (Parsers.compile): posted to workers, they share the compiled code. */
export interface CompiledGrammars {
  runtime: WasmModule;
  grammars: Record<LanguageId, WasmModule>;
}

/**
 * The thread's parser runtime, started once however many Parsers load at the same time.
 * web-tree-sitter keeps one runtime per thread, but it looks for it before it awaits making one
 * (`Module ??= await ...`): Parser.init calls in flight together each made a runtime, with
 * memory of its own, and the last to finish became the one every later call goes to. The
 * grammars a load had read into an earlier one's memory were then handed, by address, to parsers
 * made in the last one; they parsed only while both runtimes happened to hold the same grammars
 * at the same addresses. A language server loading from the grammar files while a command-line
 * run in the same thread loaded from the compiled modules (as the unit suite runs them) failed
 * on every file: "Incompatible language version", "memory access out of bounds".
 */
let runtimeStarted: Promise<void> | undefined;

function startRuntime(module: Record<string, unknown>): Promise<void> {
  runtimeStarted ??= Parser.init(module).then(
    () => useCursorBinding(module),
    (err: unknown) => {
      // A start that failed (a missing file) may be tried again.
      runtimeStarted = undefined;
      throw err;
    },
  );
  return runtimeStarted;
}

export class Parsers {
  private readonly parsers = new Map<LanguageId, Parser>();
  private readonly tables = new Map<LanguageId, GrammarTables>();

  private constructor(private readonly languages: Map<LanguageId, Language>) {}

  private grammar(lang: LanguageId): GrammarTables {
    let t = this.tables.get(lang);
    if (!t) {
      const language = this.languages.get(lang)!;
      const types = language.types;
      const named = new Uint8Array(types.length);
      for (let id = 0; id < types.length; id++) named[id] = language.nodeTypeIsNamed(id) ? 1 : 0;
      const fieldIds = new Map<string, number>();
      language.fields.forEach((name, id) => {
        if (name) fieldIds.set(name, id);
      });
      t = { types, fields: language.fields, fieldIds, named };
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
  static async compile(wasmDir?: string): Promise<CompiledGrammars> {
    const compile = (pkg: string, file: string) => Wasm.compile(fs.readFileSync(findWasm(pkg, file, wasmDir)));
    const [runtime, ...grammars] = await Promise.all([compile('web-tree-sitter', 'web-tree-sitter.wasm'), ...GRAMMARS.map(([, g]) => compile(g.pkg, g.file))]);
    return { runtime, grammars: Object.fromEntries(GRAMMARS.map(([id], i) => [id, grammars[i]])) as Record<LanguageId, WasmModule> };
  }

  /** Loads the runtime and the grammars: from `compiled` when given (Parsers.compile, in any thread), else from their files. */
  static async load(wasmDir?: string, compiled?: CompiledGrammars): Promise<Parsers> {
    const runtime = compiled ? undefined : findWasm('web-tree-sitter', 'web-tree-sitter.wasm', wasmDir);
    // The options object becomes web-tree-sitter's module (see useCursorBinding); the thread's first load's only (startRuntime).
    const module: Record<string, unknown> = compiled
      ? {
          // Emscripten's hook for a module compiled elsewhere: it is handed the instance made here.
          instantiateWasm(imports: object, receive: (instance: { exports: object }, module: WasmModule) => void) {
            const runtime = compiled.runtime;
            const instance = new Wasm.Instance(runtime, imports);
            receive(instance, runtime);
            return instance.exports;
          },
        }
      : { locateFile: () => runtime };
    await startRuntime(module);
    // From their files, the grammars compile side by side (WebAssembly compiles off the main thread).
    const loaded = compiled ? GRAMMARS.map(([id]) => Language.loadSync(compiled.grammars[id])) : await Promise.all(GRAMMARS.map(([, g]) => Language.load(findWasm(g.pkg, g.file, wasmDir))));
    return new Parsers(new Map(GRAMMARS.map(([id], i) => [id, loaded[i]])));
  }

  /** The version of the SDK installed at a location (config/projectSdk.ts finds them). */
  sdkVersion(host: SdkHost, at: SdkLocation): string | undefined {
    return sdkReaderFor(at.language).version(host, (l, t) => this.parse(l, t), at.dir);
  }

  /** The names an installed SDK declares, read with this language's parser. */
  sdkNames(host: SdkHost, at: SdkLocation, version: string): ProjectSdkNames {
    return sdkReaderFor(at.language).names(host, (l, t) => this.parse(l, t), at.dir, version);
  }

  parser(lang: LanguageId): Parser {
    let p = this.parsers.get(lang);
    if (!p) {
      p = new Parser();
      p.setLanguage(this.languages.get(lang)!);
      this.parsers.set(lang, p);
    }
    return p;
  }

  /**
   * The parse of `source` rewritten where the grammar misreads it (StatementSyntax.reread), when
   * the language has such a rewrite, it changes the text, and its parse has no error; else
   * undefined. Asked when the parse of `source` has an error; the tree's offsets are `source`'s.
   */
  private rewrittenParse(lang: LanguageId, source: string): WasmTree | undefined {
    const rewritten = frontEndFor(lang).statements.reread?.(source);
    const again = rewritten === undefined ? null : this.parser(lang).parse(rewritten);
    if (!again || !again.rootNode.hasError) return again ?? undefined;
    again.delete();
    return undefined;
  }

  /** `wasm`, the parse of `source`, or, when it has an error, rewrittenParse's (the other one freed). */
  private reread(lang: LanguageId, source: string, wasm: WasmTree | null): WasmTree {
    if (!wasm) throw new Error(`the ${lang} parser gave no tree`);
    const rewritten = wasm.rootNode.hasError ? this.rewrittenParse(lang, source) : undefined;
    if (!rewritten) return wasm;
    wasm.delete();
    return rewritten;
  }

  /** Parses text into a tree held in JavaScript; the WASM tree is freed before this returns. */
  parse(lang: LanguageId, text: string): Tree {
    const source = sourceOf(text);
    const wasm = this.reread(lang, source, this.parser(lang).parse(source));
    try {
      return new SyntaxTree(source, this.grammar(lang), wasm);
    } finally {
      wasm.delete();
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
          oldWasm.edit(change);
          // Takes over the WASM tree of `previous` (then released below with nothing to free).
          const spliced = this.spliceStatement(lang, base!, source, change);
          if (spliced) return spliced;
        }
      }
      wasm = this.parser(lang).parse(source, oldWasm);
      if (!wasm) throw new Error(`the ${lang} parser gave no tree`);
      const rewritten = wasm.rootNode.hasError ? this.rewrittenParse(lang, source) : undefined;
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
  private spliceStatement(lang: LanguageId, previous: Tree, source: string, change: Edit): Tree | undefined {
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
    if (!part.rootNode.hasError) {
      let errorsAround = false;
      for (let c = previous.firstChild(0); c >= 0 && !errorsAround; c = previous.nextSibling(c)) errorsAround = (c < first || c > last) && previous.hasError(c);
      // With an error elsewhere in the text, the statements around are kept as they were, as for an error in this one.
      if (!errorsAround && !statements.standsAlone(previous.node(first)!, previous.node(last)!, source, statementEnd, start, shift)) return undefined;
    }
    return new SyntaxTree(source, this.grammar(lang), { previous, first, last, part, at: from });
  }
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

/**
 * The edit that turns `before` into `after`, for `Tree.edit`: the longest common prefix, then
 * the longest common suffix of the rest. undefined when the texts are equal.
 *
 * web-tree-sitter parses JavaScript strings as UTF-16, and indexes and columns are in UTF-16
 * code units in both directions (node positions read back the same way), so offsets into the
 * strings are the indexes and columns count code units since the last '\n' (tree-sitter
 * starts a row only at '\n'; sourceOf has already made each lone '\r' one).
 */
export function textChange(before: string, after: string): Edit | undefined {
  if (before === after) return undefined;
  let start = commonPrefix(before, after);
  // Never split a surrogate pair: both sides of the change must be whole characters.
  if (start > 0 && isHighSurrogate(before.charCodeAt(start - 1))) start--;
  let common = commonSuffix(before, after, Math.min(before.length, after.length) - start);
  if (common > 0 && isLowSurrogate(before.charCodeAt(before.length - common))) common--;
  const oldEnd = before.length - common;
  const newEnd = after.length - common;
  const startPosition = pointAt(before, 0, { row: 0, column: 0 }, start);
  return new Edit({
    startIndex: start,
    oldEndIndex: oldEnd,
    newEndIndex: newEnd,
    startPosition,
    oldEndPosition: pointAt(before, start, startPosition, oldEnd),
    newEndPosition: pointAt(after, start, startPosition, newEnd),
  });
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
