/**
 * The edit primitives of src/core/edits.ts, written once over the syntax tree: finding the
 * node a location names, comma-separated containers (adding and removing items with their
 * separators, keeping one item per line where the file does), indentation and line endings.
 * What a grammar calls its nodes, how it quotes, imports and interpolates, is asked of the
 * language (src/lang/python/edits.ts, src/lang/typescript/edits.ts); src/lang/edits.ts picks it.
 */
import type { EditBuilder, HelperImport, InterpolationOptions, LiteralValue, PerLanguage, Shape, ShapeArg, ShapeKind, Source } from '../core/edits';
import type { Loc, TextEdit } from '../core/span';
import type { Node } from './parsers';
import type { FileUnit } from './workspace';

/** A string literal as the language writes it. */
export interface StringLiteral {
  /** The content between the quotes. */
  inner: { start: number; end: number };
  quote: string;
  /** Backslash escapes are not read (`r"…"`): a value that needs one cannot be written. */
  raw: boolean;
  /** Braces are interpolation (`f"…"`, `` `…` ``): literal braces would need escaping. */
  interpolating: boolean;
  /** It holds interpolations now. */
  interpolated: boolean;
}

export interface Interpolation {
  /** The expression as written (Python: the whole field with its conversion and format spec). */
  expression: string;
}

export abstract class SyntaxEdits implements EditBuilder {
  constructor(protected readonly unit: FileUnit) {}

  protected get text(): string {
    return this.unit.text;
  }

  // What each language says about its grammar.
  /** This language's value of a per-language table. */
  protected abstract pick<T>(values: PerLanguage<T>): T | undefined;
  protected abstract isComment(node: Node): boolean;
  protected abstract isPrimary(node: Node): boolean;
  protected abstract isList(node: Node): boolean;
  protected abstract isMapping(node: Node): boolean;
  /** The container `addArgument` writes into, for a call or an argument list (Python) / the object literal argument (TS). */
  protected abstract argumentContainer(node: Node): Node | undefined;
  /** The `key: value` / `name=value` entry whose key or value is `node`. */
  protected abstract entryOf(node: Node): Node | undefined;
  protected abstract keywordArgument(container: Node, name: string, value: string): string | undefined;
  protected abstract entry(container: Node, key: string, value: string): string | undefined;
  protected abstract stringLiteral(node: Node): StringLiteral | undefined;
  /** The quote a new string takes when nothing near says. */
  protected abstract defaultQuote(): string;
  protected abstract scalar(value: number | boolean): string;
  protected abstract interpolation(node: Node): Interpolation | undefined;
  /** The end of the last top-level import, or 0. */
  protected abstract importsEnd(): number;
  protected abstract importLine(imp: HelperImport): string;
  protected abstract definesTopLevel(name: string): boolean;
  /** The language's own shapes (comparisons, await, comprehensions, functions, with); undefined for the others. */
  protected abstract ownShape(node: Node): ShapeKind | undefined;
  /** Nodes that only group (argument lists, with-clauses, `as` patterns, expression statements): `parent` looks through them. */
  protected abstract isGrouping(node: Node): boolean;
  /** Expression statements and the like: `shape` describes what they hold. */
  protected abstract unwrapStatement(node: Node): Node | undefined;
  /** The name node of a member access (`b` in `a.b`). */
  protected abstract memberName(node: Node): Node | undefined;

  // Locations.
  protected nodeAt(loc: Loc): Node | undefined {
    if (loc.file !== this.unit.file) return undefined;
    let n: Node | null = this.unit.tree.rootNode.descendantForIndex(loc.start, Math.max(loc.start, loc.end - 1));
    while (n && !(n.startIndex === loc.start && n.endIndex === loc.end)) {
      if (n.startIndex < loc.start || n.endIndex > loc.end) return undefined;
      n = n.parent;
    }
    return n ?? undefined;
  }

  protected loc(node: { startIndex: number; endIndex: number }): Loc {
    return this.unit.loc(node);
  }

  protected eol(): string {
    return this.text.includes('\r\n') ? '\r\n' : '\n';
  }

  protected lineIndent(offset: number): string {
    const lineStart = this.text.lastIndexOf('\n', offset - 1) + 1;
    return /^[ \t]*/.exec(this.text.slice(lineStart))![0];
  }

  protected source(text: Source): string | undefined {
    return typeof text === 'string' ? text : this.pick(text);
  }

  protected items(container: Node): Node[] {
    return container.namedChildren.filter((c): c is Node => !!c && !this.isComment(c));
  }

  // Edits.
  replace(at: Loc, text: Source): TextEdit[] | undefined {
    const code = this.source(text);
    if (code === undefined || at.file !== this.unit.file || at.end > this.text.length) return undefined;
    return [{ start: at.start, end: at.end, newText: code }];
  }

  insertBefore(at: Loc, text: Source): TextEdit[] | undefined {
    const code = this.source(text);
    if (code === undefined || at.file !== this.unit.file || at.start > this.text.length) return undefined;
    return [{ start: at.start, end: at.start, newText: code }];
  }

  wrap(at: Loc, around: PerLanguage<readonly [string, string]>, options: { parenthesize?: boolean } = {}): TextEdit[] | undefined {
    const node = this.nodeAt(at);
    const pair = this.pick(around);
    if (!node || !pair) return undefined;
    const parens = options.parenthesize && !this.isPrimary(node);
    return [
      { start: node.startIndex, end: node.startIndex, newText: pair[0] + (parens ? '(' : '') },
      { start: node.endIndex, end: node.endIndex, newText: (parens ? ')' : '') + pair[1] },
    ];
  }

  replaceString(at: Loc, value: string): TextEdit[] | undefined {
    if (at.file !== this.unit.file) return undefined;
    const node = this.nodeAt(at);
    const own = node ? this.stringLiteral(node) : undefined;
    if (own) {
      const escaped = this.escape(value, own);
      return escaped === undefined ? undefined : [{ start: own.inner.start, end: own.inner.end, newText: escaped }];
    }
    // A part of one string's content (a name inside a comma-separated header value).
    for (let n: Node | null = this.unit.tree.rootNode.descendantForIndex(at.start, Math.max(at.start, at.end - 1)); n; n = n.parent) {
      const s = this.stringLiteral(n);
      if (!s) continue;
      if (s.interpolated || at.start < s.inner.start || at.end > s.inner.end) return undefined;
      const escaped = this.escape(value, s);
      return escaped === undefined ? undefined : [{ start: at.start, end: at.end, newText: escaped }];
    }
    return undefined;
  }

  /** The value as string content between `s`'s quotes, or undefined when it cannot be written there. */
  private escape(value: string, s: StringLiteral): string | undefined {
    if (s.interpolated) return undefined;
    if (s.interpolating && /[{}$`]/.test(value)) return undefined;
    const needs = /[\\\r\n]/.test(value) || value.includes(s.quote[0]);
    if (!needs) return value;
    if (s.raw || s.quote.length === 3) return undefined;
    return value.replace(/\\/g, '\\\\').replace(/\r/g, '\\r').replace(/\n/g, '\\n').split(s.quote).join('\\' + s.quote);
  }

  addArgument(args: Loc, name: string, value: Source): TextEdit[] | undefined {
    const node = this.nodeAt(args);
    const container = node ? this.argumentContainer(node) : undefined;
    const code = this.source(value);
    const written = container && code !== undefined ? this.keywordArgument(container, name, code) : undefined;
    return container && written ? this.insertElement(container, written) : undefined;
  }

  addEntry(object: Loc, key: string, value: Source): TextEdit[] | undefined {
    const node = this.nodeAt(object);
    const code = this.source(value);
    if (!node || !this.isMapping(node) || code === undefined) return undefined;
    const written = this.entry(node, key, code);
    return written ? this.insertElement(node, written) : undefined;
  }

  removeEntry(at: Loc): TextEdit[] | undefined {
    const node = this.nodeAt(at);
    const entry = node ? this.entryOf(node) : undefined;
    return entry ? this.removeElement(entry) : undefined;
  }

  addListItem(list: Loc, item: Source, index?: number): TextEdit[] | undefined {
    const node = this.nodeAt(list);
    const code = this.source(item);
    if (!node || !this.isList(node) || code === undefined) return undefined;
    return this.insertElement(node, code, index);
  }

  removeListItem(item: Loc): TextEdit[] | undefined {
    const node = this.nodeAt(item);
    if (!node?.parent || !this.isList(node.parent)) return undefined;
    return this.removeElement(node);
  }

  removeInterpolation(embed: Loc, options: InterpolationOptions = {}): { edits: TextEdit[]; expression: string } | undefined {
    const node = this.nodeAt(embed);
    const interp = node ? this.interpolation(node) : undefined;
    if (!node || !interp) return undefined;
    const text = this.text;
    let start = node.startIndex;
    const end = node.endIndex;
    const before = text.slice(Math.max(0, start - 120), start);
    // A label (`Current time: `, `Known about the user:\n`) and the separator before it; not a
    // field's own name before a nested format spec (`{value:{width}}`).
    const label = options.label ? /(?:\\n|\n|[ \t])*[A-Za-z][A-Za-z '-]{0,60}:(?:\\n|\n|[ \t])*$/.exec(before) : null;
    if (label && !before.slice(0, before.length - label[0].length).endsWith('{')) {
      start -= label[0].length;
    } else {
      const gap = /(?:\\n|\n|[ \t])*$/.exec(before)![0];
      const lineStart = /\\n|\n/.test(gap) || /["'`]$/.test(text.slice(0, start - gap.length));
      if (options.standalone && !lineStart) return undefined;
      if (lineStart) start -= gap.length;
      else if (gap.endsWith(' ') && /[\s"'`]/.test(text[end] ?? '')) start -= 1;
    }
    return { edits: [{ start, end, newText: '' }], expression: interp.expression };
  }

  ensureHelper(name: Source, code: PerLanguage<string>, imports: PerLanguage<readonly HelperImport[]> = {}): TextEdit[] | undefined {
    const helper = this.pick(code);
    const fn = this.source(name);
    if (helper === undefined || fn === undefined) return undefined;
    if (this.definesTopLevel(fn)) return [];
    const eol = this.eol();
    const body = helper.replace(/\r?\n/g, eol);
    const lines = (this.pick(imports) ?? []).map((i) => this.importLine(i));
    const at = this.importsEnd();
    if (at === 0) {
      const head = lines.length ? lines.join(eol) + eol + eol : '';
      return [{ start: 0, end: 0, newText: head + body + (body.endsWith(eol) ? eol : eol + eol) }];
    }
    return [{ start: at, end: at, newText: lines.map((l) => eol + l).join('') + eol + eol + body }];
  }

  addImport(statement: string): TextEdit[] | undefined {
    const at = this.importsEnd();
    if (at === 0 || /[\r\n]/.test(statement.trim())) return undefined;
    return [{ start: at, end: at, newText: this.eol() + statement.trim() }];
  }

  // Questions.
  literal(value: LiteralValue, near?: Loc): string {
    if (typeof value === 'number' || typeof value === 'boolean') return this.scalar(value);
    const q = this.quoteNear(near);
    const one = (s: string) => q + s.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').split(q).join('\\' + q) + q;
    return typeof value === 'string' ? one(value) : `[${value.map(one).join(', ')}]`;
  }

  /** The quote of the first string literal written directly in the container at `near` (or `near` itself), else the language's. */
  private quoteNear(near?: Loc): string {
    const node = near ? this.nodeAt(near) : undefined;
    for (const n of node ? [node, ...this.items(node)] : []) {
      const s = this.stringLiteral(n);
      if (s && (s.quote[0] === '"' || s.quote[0] === "'")) return s.quote[0];
    }
    return this.defaultQuote();
  }

  shape(at: Loc): Shape | undefined {
    let node = this.nodeAt(at);
    if (!node) return undefined;
    node = this.unwrapStatement(node) ?? node;
    const base = { at: this.loc(node), primary: this.isPrimary(node), parent: this.parentLoc(node) };
    const own = this.ownShape(node);
    if (own) return { ...base, ...own } as Shape;
    const e = this.unit.adapter.expr(node);
    const l = (n: Node) => this.loc(n);
    switch (e.k) {
      case 'str':
        return { ...base, kind: 'string', value: e.value };
      case 'num':
        return { ...base, kind: 'number', value: e.value };
      case 'ident':
        return { ...base, kind: 'name', name: e.name };
      case 'self':
        return { ...base, kind: 'name', name: node.text };
      case 'member': {
        const nameNode = this.memberName(node);
        return nameNode ? { ...base, kind: 'member', object: l(e.object), name: e.prop, nameAt: l(nameNode) } : { ...base, kind: 'other' };
      }
      case 'index':
        return { ...base, kind: 'index', object: l(e.object), index: l(e.index) };
      case 'slice':
        return { ...base, kind: 'slice', object: l(e.object), lower: e.lower && l(e.lower), upper: e.upper && l(e.upper) };
      case 'call': {
        const args: ShapeArg[] = e.args.map((a) => ({ name: a.name, at: l(a.value), spread: !!a.spread || undefined }));
        return { ...base, kind: 'call', callee: l(e.callee), args };
      }
      case 'neg':
        return { ...base, kind: 'negative', operand: l(e.arg) };
      case 'wrap':
        return { ...base, kind: 'parenthesized', inner: l(e.inner) };
      default:
        return { ...base, kind: 'other' };
    }
  }

  private parentLoc(node: Node): Loc | undefined {
    let p = node.parent;
    while (p && this.isGrouping(p)) p = p.parent;
    return p && p.parent ? this.loc(p) : undefined;
  }

  // Comma-separated containers.
  /** Inserts one element (already written in the language) at `index` (default: the end) of an argument list, list, dict or object literal. */
  protected insertElement(container: Node, code: string, index?: number): TextEdit[] {
    const items = this.items(container);
    const close = container.endIndex - 1;
    if (!items.length) return [{ start: close, end: close, newText: code }];
    const multiline = this.text.slice(container.startIndex, close).includes('\n');
    if (index !== undefined && index < items.length) {
      const next = items[Math.max(0, index)];
      const sep = multiline ? ',' + this.eol() + this.lineIndent(next.startIndex) : ', ';
      return [{ start: next.startIndex, end: next.startIndex, newText: code + sep }];
    }
    const last = items[items.length - 1];
    const between = this.text.slice(last.endIndex, close);
    if (between.includes(',')) {
      const comma = last.endIndex + between.indexOf(',') + 1;
      const sep = multiline ? '\n' + this.lineIndent(last.startIndex) : ' ';
      return [{ start: comma, end: comma, newText: `${sep}${code},` }];
    }
    const sep = multiline ? ',\n' + this.lineIndent(last.startIndex) : ', ';
    return [{ start: last.endIndex, end: last.endIndex, newText: `${sep}${code}` }];
  }

  /** Deletes one element of a comma-separated container together with the separator next to it. */
  protected removeElement(el: Node): TextEdit[] | undefined {
    const container = el.parent;
    if (!container) return undefined;
    const items = this.items(container);
    const i = items.findIndex((c) => c.id === el.id);
    if (i < 0) return undefined;
    // On a line of its own in a multi-line container: remove the whole line, with its comma and trailing comment.
    const own = items.length > 1 ? this.ownLines(el) : undefined;
    if (own) return [{ ...own, newText: '' }];
    if (i < items.length - 1) return [{ start: el.startIndex, end: items[i + 1].startIndex, newText: '' }];
    if (i > 0) return [{ start: items[i - 1].endIndex, end: el.endIndex, newText: '' }];
    // The only element: empty the container (keeping its brackets).
    return [{ start: container.startIndex + 1, end: container.endIndex - 1, newText: '' }];
  }

  /** The lines an element occupies when nothing else is on them (apart from its comma and a comment). */
  private ownLines(el: Node): { start: number; end: number } | undefined {
    const text = this.text;
    const lineStart = text.lastIndexOf('\n', el.startIndex - 1) + 1;
    if (lineStart === 0 || !/^[ \t]*$/.test(text.slice(lineStart, el.startIndex))) return undefined;
    const rest = /^[ \t]*,?[ \t]*(?:(?:#|\/\/)[^\n]*)?\r?\n/.exec(text.slice(el.endIndex));
    return rest ? { start: lineStart, end: el.endIndex + rest[0].length } : undefined;
  }
}
