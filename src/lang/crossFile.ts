/**
 * The CrossFileView of src/core/crossFile.ts over the workspace: edit builders of other files,
 * the top-level definition around a value, and a search for every other use of it in the files
 * of its project. The search is by name over the text of every file of the project (a comment
 * or a string that names it counts too): it may refuse a fix that was safe, never the reverse.
 */
import type { CrossFileView, Definition, NeededImport, OtherUses } from '../core/crossFile';
import type { EditBuilder } from '../core/edits';
import type { Loc } from '../core/span';
import { editBuilderFor } from './edits';
import type { Node } from './parsers';
import type { Binding } from './syntax';
import type { FileUnit, Scope, SourceHost, Workspace } from './workspace';

function contains(outer: { start: number; end: number }, inner: { start: number; end: number }): boolean {
  return outer.start <= inner.start && inner.end <= outer.end;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Every place `name` is written as a whole word (identifiers may hold `$` in TS/JS). */
function wordsIn(text: string, name: string): number[] {
  const re = new RegExp(`(?<![\\w$])${escapeRegExp(name)}(?![\\w$])`, 'g');
  return [...text.matchAll(re)].map((m) => m.index);
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
  ) {}

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
    const others: Loc[] = [];
    for (const file of files) {
      const text = file === this.unit.file ? this.unit.text : file === def.file ? this.workspace.get(file)?.text : (this.host.projectText?.(file) ?? this.host.readFile(file));
      if (text === undefined) return { seen: false, why: `${file} cannot be read` };
      const found = wordsIn(text, def.name);
      // Parsed only when the name is written there, to leave out comments (a notebook is not: its mentions all count).
      const unit = found.length ? (file === this.unit.file ? this.unit : this.workspace.get(file)) : undefined;
      for (const start of found) {
        const at = { file, start, end: start + def.name.length };
        if (unit && unit.text === text && this.inComment(unit, start)) continue;
        if (file === def.file && start === def.nameAt.start) continue;
        if (file === this.unit.file && (contains(importAt, at) || contains(requestAt, at))) continue;
        others.push(at);
      }
    }
    // The request reads it exactly once.
    const inRequest = wordsIn(this.unit.text, def.name).filter((s) => contains(requestAt, { start: s, end: s + def.name.length }) && !this.inComment(this.unit, s));
    if (inRequest.length !== 1) return { seen: false, why: `the request does not read ${def.name} once` };
    return { seen: true, others };
  }

  private inComment(unit: FileUnit, offset: number): boolean {
    const node = unit.tree.rootNode.descendantForIndex(offset, offset + 1);
    return !!node && unit.adapter.isComment(node);
  }

  importsFor(at: Loc, into: Loc): NeededImport[] | undefined {
    const from = this.other(at.file);
    const node = from && this.node(from, at);
    const target = into.file === this.unit.file ? this.node(this.unit, into) : undefined;
    if (!from || !node || !target) return undefined;
    /** Bound in a function or class around `n` (a parameter, a local), not at the top level. */
    const boundLocally = (unit: FileUnit, n: Node, name: string) => {
      for (let s: Scope | undefined = unit.scopeOf(n); s && s !== unit.module; s = s.parent) if (s.bindings.has(name)) return true;
      return false;
    };
    const names = new Set<string>();
    // The names the expression reads, through the front end's normalised forms; any other construct (a lambda, a comprehension) is refused.
    const visit = (n: Node): boolean => {
      const e = from.adapter.expr(n);
      switch (e.k) {
        case 'ident':
          names.add(e.name);
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
    const needed: NeededImport[] = [];
    for (const name of names) {
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
    return needed;
  }
}
