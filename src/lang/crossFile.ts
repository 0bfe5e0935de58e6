/**
 * The CrossFileView of src/core/crossFile.ts over the workspace: edit builders of other files,
 * the top-level definition around a value, a search for every other use of it in the files of
 * its project, and an expression of another file rewritten for the request's file. The search
 * is by name over the text of every file of the project: a comment or a docstring that names it
 * is no use, code that names it (an import beside it) is a use, and a string that names it or
 * an import under another name means that not every use can be seen. It may call something a
 * use that was none, or refuse a fix that was possible; never the reverse.
 */
import type { CrossFileView, Definition, NeededImport, OtherUses, Transplant, Use } from '../core/crossFile';
import type { EditBuilder } from '../core/edits';
import type { FileView } from '../core/fileView';
import type { LanguageId } from '../core/model';
import { contains } from '../core/span';
import { wholeNameOffsets } from '../core/words';
import type { Loc } from '../core/span';
import { editBuilderFor } from './edits';
import type { Evaluator } from './evaluate';
import { buildFileView } from './fileView';
import { isNotebook } from './notebook';
import type { Node } from './parsers';
import type { Binding } from './syntax';
import type { FileUnit, Scope, SourceHost, Workspace } from './workspace';

type Mention = 'comment' | 'docstring' | 'string' | 'import' | 'renamed-import' | 'code';

/** Whether a name written at `offset` is an identifier of the code (not a word of a string or a comment). */
function identifierAt(unit: FileUnit, offset: number, length: number): boolean {
  const leaf = unit.tree.rootNode.descendantForIndex(offset, offset + length);
  return !!leaf && leaf.startIndex === offset && leaf.endIndex === offset + length && unit.adapter.expr(leaf).k === 'ident';
}

/** The 1-based line of an offset. */
function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

function base(file: string): string {
  return file.replace(/\\/g, '/').split('/').pop() ?? file;
}

function dir(file: string): string {
  const p = file.replace(/\\/g, '/');
  return p.slice(0, p.lastIndexOf('/'));
}

export class CrossFiles implements CrossFileView {
  constructor(
    private readonly workspace: Workspace,
    private readonly host: SourceHost,
    /** The file being analysed. */
    private readonly unit: FileUnit,
    private readonly evaluator: Evaluator,
  ) {}

  private readonly views = new Map<string, { view: FileView; language: LanguageId } | undefined>();

  view(file: string): { view: FileView; language: LanguageId } | undefined {
    if (!this.views.has(file)) {
      const unit = this.other(file);
      this.views.set(file, unit && { view: buildFileView(unit, this.evaluator), language: unit.language });
    }
    return this.views.get(file);
  }

  private other(file: string): FileUnit | undefined {
    return file === this.unit.file ? undefined : this.workspace.get(file);
  }

  edits(file: string): EditBuilder | undefined {
    const unit = this.other(file);
    return unit && !unit.tree.rootNode.hasError ? editBuilderFor(unit) : undefined;
  }

  private node(unit: FileUnit, at: Loc): Node | undefined {
    const n = unit.tree.rootNode.descendantForIndex(at.start, Math.max(at.start, at.end - 1));
    return n ?? undefined;
  }

  definitionAround(at: Loc): Definition | undefined {
    const unit = this.other(at.file);
    const node = unit && this.node(unit, at);
    if (!unit || !node) return undefined;
    const fn = unit.enclosingFunction(node);
    let best: Binding | undefined;
    for (const list of unit.module.bindings.values()) {
      for (const b of list) {
        if (b.kind !== 'function' && b.kind !== 'assign') continue;
        if (!contains({ start: b.at.startIndex, end: b.at.endIndex }, at)) continue;
        if (!best || b.at.endIndex - b.at.startIndex < best.at.endIndex - best.at.startIndex) best = b;
      }
    }
    if (!best) return undefined;
    // The value is the definition's own: in the function's body (not a function inside it), or in a constant at the top level.
    const own = best.kind === 'function' ? [best.value?.id, best.at.id].includes(fn.id) : fn.id === unit.tree.rootNode.id;
    if (!own) return undefined;
    // Bound more than once (assigned again, defined twice): which value a use reads is not one place.
    if ((unit.module.bindings.get(best.name) ?? []).length !== 1) return undefined;
    return { file: unit.file, name: best.name, kind: best.kind === 'function' ? 'function' : 'constant', at: unit.loc(best.at), nameAt: unit.loc(best.nameNode) };
  }

  /** Why a module's names may be used by code no project file shows: it is a package's public module. */
  private publicModule(file: string, projectFiles: readonly string[]): string | undefined {
    if (base(file) === '__init__.py') return `${base(file)} is a package's public module`;
    const stem = file.replace(/\.[cm]?[jt]sx?$/, '');
    for (let d = dir(file); d && projectFiles.some((f) => f.startsWith(d + '/')); d = dir(d)) {
      const text = this.host.readFile(`${d}/package.json`);
      if (text === undefined) continue;
      let pkg: Record<string, unknown>;
      try {
        pkg = JSON.parse(text) as Record<string, unknown>;
      } catch {
        return `${d}/package.json cannot be read`;
      }
      const entries = JSON.stringify([pkg.main, pkg.module, pkg.types, pkg.typings, pkg.exports, pkg.bin] .filter((x) => x !== undefined));
      const rel = stem.slice(d.length + 1);
      if (entries.includes(rel)) return `${d}/package.json names it as an entry of the package`;
      return undefined;
    }
    return undefined;
  }

  otherUses(def: Definition, requestAt: Loc): OtherUses {
    const files = this.host.projectFiles?.(def.file);
    if (!files) return { seen: false, why: `not every file of the project of ${def.file} is checked` };
    if (!files.includes(this.unit.file)) return { seen: false, why: `${this.unit.file} is not in the project of ${def.file}` };
    const pub = this.publicModule(def.file, files);
    if (pub) return { seen: false, why: pub };
    // The request file must import the name itself from the defining file.
    const imports = (this.unit.module.bindings.get(def.name) ?? []).filter((b) => b.kind === 'import');
    const own = imports.filter((b) => b.importFrom?.name === def.name && this.workspace.modulePath(this.unit, b.importFrom.module) === def.file);
    if (own.length !== 1 || imports.length !== 1 || (this.unit.module.bindings.get(def.name) ?? []).length !== 1) {
      return { seen: false, why: `${this.unit.file} does not import ${def.name} from ${def.file} by name` };
    }
    const importAt = { start: own[0].at.startIndex, end: own[0].at.endIndex };
    const others: Use[] = [];
    for (const file of files) {
      const text = file === this.unit.file ? this.unit.text : file === def.file ? this.workspace.get(file)?.text : (this.host.projectText?.(file) ?? this.host.readFile(file));
      if (text === undefined) return { seen: false, why: `${file} cannot be read` };
      const found = wholeNameOffsets(text, def.name);
      // Parsed only when the name is written there, to tell code from comments and strings (a notebook is not: its mentions all count).
      const unit = found.length ? (file === this.unit.file ? this.unit : this.workspace.get(file)) : undefined;
      const parsed = unit && unit.text === text ? unit : undefined;
      const inFile: Array<{ use: Use; kind: Mention }> = [];
      for (const start of found) {
        const at = { file, start, end: start + def.name.length };
        if (file === def.file && start === def.nameAt.start) continue;
        if (file === this.unit.file && (contains(importAt, at) || contains(requestAt, at))) continue;
        const kind = parsed ? this.mention(parsed, start, def.name) : 'code';
        if (kind === 'comment' || kind === 'docstring') continue;
        const where = isNotebook(file) ? file : `${file}:${lineOf(text, start)}`;
        // A name in a string may be looked up by it (`getattr(prompts, "name")`), and one imported under another name is used under that one.
        if (kind === 'string') return { seen: false, why: `${where} names ${def.name} in a string` };
        if (kind === 'renamed-import') return { seen: false, why: `${where} imports ${def.name} under another name` };
        // A notebook's lines (its JSON, or its cells joined) are not lines its reader sees.
        inFile.push({ use: isNotebook(file) ? at : { ...at, line: lineOf(text, start) }, kind });
      }
      if (inFile.length && file !== def.file && this.publicModule(file, files)) return { seen: false, why: `${file} is a public module that names ${def.name}` };
      // An import is listed only when the file does nothing else with the name (a re-export).
      const code = inFile.filter((m) => m.kind === 'code');
      others.push(...(code.length ? code : inFile).map((m) => m.use));
    }
    // The request reads it exactly once.
    const inRequest = wholeNameOffsets(this.unit.text, def.name).filter((s) => contains(requestAt, { start: s, end: s + def.name.length }) && !this.inComment(this.unit, s));
    if (inRequest.length !== 1) return { seen: false, why: `the request does not read ${def.name} once` };
    return { seen: true, others };
  }

  /** What the name written at `offset` is part of: a comment, a string on its own (a docstring), another string, an import, or code. */
  private mention(unit: FileUnit, offset: number, name: string): Mention {
    const leaf = unit.tree.rootNode.descendantForIndex(offset, offset + name.length);
    if (!leaf) return 'code';
    if (unit.adapter.isComment(leaf)) return 'comment';
    // An import statement (of the module or of a function) that binds it: under its own name, or another.
    for (const scope of unit.scopes.values()) {
      for (const list of scope.bindings.values()) {
        for (const b of list) {
          if (b.kind !== 'import' || !(b.at.startIndex <= offset && offset < b.at.endIndex)) continue;
          return b.importFrom?.name === name && b.name !== name ? 'renamed-import' : 'import';
        }
      }
    }
    // `export { name as other }`, `name as Other`: used under another name, or as something the search cannot follow.
    if (/^\s+as\s/.test(unit.text.slice(offset + name.length, offset + name.length + 8))) return 'renamed-import';
    // `f"{name()}"` / `${name()}`: code inside a string.
    if (unit.adapter.expr(leaf).k === 'ident') return 'code';
    for (let n: Node | null = leaf, depth = 0; n && depth < 4; depth++, n = n.parent) {
      const k = unit.adapter.expr(n).k;
      if (k === 'str' || k === 'template') return unit.adapter.isBareString(n) ? 'docstring' : 'string';
    }
    return 'code';
  }

  private inComment(unit: FileUnit, offset: number): boolean {
    const node = unit.tree.rootNode.descendantForIndex(offset, offset + 1);
    return !!node && unit.adapter.isComment(node);
  }

  importsFor(at: Loc, into: Loc): NeededImport[] | undefined {
    return this.transplant(at, into)?.imports;
  }

  transplant(at: Loc, into: Loc, call?: Loc): Transplant | undefined {
    const from = this.other(at.file);
    const node = from && this.node(from, at);
    const target = into.file === this.unit.file ? this.node(this.unit, into) : undefined;
    if (!from || !node || !target) return undefined;
    /** Bound in a function or class around `n` (a parameter, a local), not at the top level. */
    const boundLocally = (unit: FileUnit, n: Node, name: string) => {
      for (let s: Scope | undefined = unit.scopeOf(n); s && s !== unit.module; s = s.parent) if (s.bindings.has(name)) return true;
      return false;
    };
    const names = new Map<string, Node[]>();
    // The names the expression reads, through the front end's normalised forms; any other construct (a lambda, a comprehension) is refused.
    const visit = (n: Node): boolean => {
      const e = from.adapter.expr(n);
      switch (e.k) {
        case 'ident':
          names.set(e.name, [...(names.get(e.name) ?? []), n]);
          return true;
        case 'str':
        case 'num':
        case 'bool':
        case 'null':
          return true;
        case 'member':
          return visit(e.object);
        case 'index':
          return visit(e.object) && visit(e.index);
        case 'call':
        case 'new':
          return visit(e.callee) && e.args.every((a) => visit(a.value));
        case 'binary':
          return visit(e.left) && visit(e.right);
        case 'neg':
          return visit(e.arg);
        case 'wrap':
          return visit(e.inner);
        case 'template':
          return e.parts.every((p) => !('expr' in p) || visit(p.expr));
        default:
          return false;
      }
    };
    // An interpolation (`{x:%H}`, `${x}`) holds the expression as its first part.
    const expression = from.adapter.expr(node).k === 'other' ? node.namedChildren[0] : node;
    if (!expression || !visit(expression)) return undefined;
    const arguments_ = call ? this.argumentsOf(from, node, call, target) : undefined;
    const needed: NeededImport[] = [];
    const replace: Transplant['replace'] = [];
    for (const [name, uses] of names) {
      const passed = arguments_?.get(name);
      if (passed !== undefined) {
        for (const u of uses) replace.push({ start: u.startIndex, end: u.endIndex, text: passed });
        continue;
      }
      const theirs = from.module.bindings.get(name) ?? [];
      const ours = this.unit.module.bindings.get(name) ?? [];
      // A name bound inside a function (a parameter, a local) means something else where the expression goes.
      if (boundLocally(from, node, name) || boundLocally(this.unit, target, name)) return undefined;
      if (theirs.length === 0) {
        // A builtin or global (`Date`, `len`): it means the same where nothing shadows it.
        if (ours.length) return undefined;
        continue;
      }
      if (theirs.length !== 1 || theirs[0].kind !== 'import' || !theirs[0].importFrom) return undefined;
      const imp = theirs[0].importFrom;
      if (imp.module.startsWith('.') && dir(from.file) !== dir(this.unit.file)) return undefined;
      if (ours.length) {
        if (ours.length === 1 && ours[0].kind === 'import' && ours[0].importFrom?.module === imp.module && ours[0].importFrom.name === imp.name) continue;
        return undefined;
      }
      const statement = from.text.slice(theirs[0].at.startIndex, theirs[0].at.endIndex);
      // A statement that imports other names too binds them here as well: only names this file leaves free.
      const alsoBinds = [...from.module.bindings.values()].flat().filter((b) => b.at.id === theirs[0].at.id && b.name !== name);
      if (alsoBinds.some((b) => this.unit.module.bindings.has(b.name)) || /[\r\n]/.test(statement)) return undefined;
      if (!needed.some((n) => n.statement === statement)) needed.push({ statement });
    }
    return { imports: needed, replace: replace.sort((a, b) => a.start - b.start) };
  }

  /**
   * What `call` (a call, in the analysed file, of the top-level function of another file whose
   * body holds `inner`) passes for each of the function's parameters, as written, when each
   * such argument reads the same again at `target`: a name or attribute read, in the same scope
   * as `target`. Parameters assigned again or changed in place in the function, and calls with
   * spread arguments, give nothing.
   */
  private argumentsOf(from: FileUnit, inner: Node, call: Loc, target: Node): Map<string, string> | undefined {
    if (call.file !== this.unit.file) return undefined;
    const fn = from.enclosingFunction(inner);
    if (fn.id === from.tree.rootNode.id || from.enclosingFunction(fn).id !== from.tree.rootNode.id || from.enclosingClass(fn)) return undefined;
    const callNode = this.node(this.unit, call);
    const e = callNode && this.unit.adapter.expr(callNode);
    if (!callNode || e?.k !== 'call' || e.args.some((a) => a.spread)) return undefined;
    if (this.unit.scopeOf(callNode) !== this.unit.scopeOf(target)) return undefined;
    const info = from.adapter.functionInfo(fn);
    if (info.receiver) return undefined;
    const scope = from.scopes.get(fn.id);
    const positional = e.args.filter((a) => !a.name);
    const out = new Map<string, string>();
    for (const p of info.params) {
      if (p.rest || p.kwrest || p.key !== undefined || p.index < 0) continue;
      const bindings = scope?.bindings.get(p.name) ?? [];
      if (bindings.length !== 1 || bindings[0].kind !== 'param' || bindings[0].key !== undefined || scope?.mutations.has(p.name)) continue;
      // Read anywhere else in the function (assigned again, changed in place, tested): the text may not be what the caller passed.
      const elsewhere = wholeNameOffsets(from.text.slice(fn.startIndex, fn.endIndex), p.name)
        .map((i) => i + fn.startIndex)
        .some((i) => i !== bindings[0].nameNode.startIndex && !(inner.startIndex <= i && i < inner.endIndex) && identifierAt(from, i, p.name.length));
      if (elsewhere) continue;
      // A parameter after `*args` is keyword-only.
      const afterRest = info.params.some((q) => q.rest && q.index < p.index);
      const arg = e.args.find((a) => a.name === p.name) ?? (afterRest ? undefined : positional[p.index]);
      if (arg && this.rereadable(arg.value)) out.set(p.name, arg.value.text);
    }
    return out;
  }

  /** A name, or an attribute read of one: reading it again gives the same value. */
  private rereadable(n: Node): boolean {
    const e = this.unit.adapter.expr(n);
    if (e.k === 'ident' || e.k === 'self') return true;
    return e.k === 'member' && this.rereadable(e.object) && !/[\r\n]/.test(n.text);
  }
}
