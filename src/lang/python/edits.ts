/** The edit primitives (src/core/edits.ts) in Python's syntax: keyword arguments, dicts, f-strings, imports. */
import type { HelperImport, PerLanguage, ShapeKind } from '../../core/edits';
import { SyntaxEdits } from '../syntaxEdits';
import type { Interpolation, StringLiteral } from '../syntaxEdits';
import type { Node } from '../parsers';

const PRIMARY = new Set([
  'identifier',
  'attribute',
  'subscript',
  'call',
  'string',
  'concatenated_string',
  'parenthesized_expression',
  'list',
  'dictionary',
  'set',
  'list_comprehension',
  'set_comprehension',
  'dictionary_comprehension',
  'generator_expression',
  'true',
  'false',
  'none',
]);
const IMPORTS = new Set(['import_statement', 'import_from_statement', 'future_import_statement']);
const COMPREHENSIONS = new Set(['list_comprehension', 'set_comprehension', 'generator_expression']);
const GROUPING = new Set(['argument_list', 'keyword_argument', 'with_clause', 'with_item', 'as_pattern', 'expression_statement']);

function named(n: Node): Node[] {
  return n.namedChildren.filter((c): c is Node => !!c && c.type !== 'comment');
}

export class PythonEdits extends SyntaxEdits {
  protected pick<T>(values: PerLanguage<T>): T | undefined {
    return values.python;
  }

  protected isComment(node: Node): boolean {
    return node.type === 'comment';
  }

  protected isPrimary(node: Node): boolean {
    return PRIMARY.has(node.type);
  }

  protected isList(node: Node): boolean {
    return node.type === 'list';
  }

  protected isMapping(node: Node): boolean {
    return node.type === 'dictionary';
  }

  protected argumentContainer(node: Node): Node | undefined {
    if (node.type === 'argument_list') return node;
    const args = node.type === 'call' ? node.childForFieldName('arguments') : null;
    return args?.type === 'argument_list' ? args : undefined;
  }

  protected entryOf(node: Node): Node | undefined {
    const parent = node.parent;
    if (!parent) return undefined;
    if (parent.type === 'pair' && (parent.childForFieldName('key')?.id === node.id || parent.childForFieldName('value')?.id === node.id)) return parent;
    if (parent.type === 'keyword_argument' && (parent.childForFieldName('name')?.id === node.id || parent.childForFieldName('value')?.id === node.id)) return parent;
    return undefined;
  }

  protected keywordArgument(_container: Node, name: string, value: string): string | undefined {
    return /^[A-Za-z_]\w*$/.test(name) ? `${name}=${value}` : undefined;
  }

  protected entry(container: Node, key: string, value: string): string | undefined {
    return `${this.literal(key, this.loc(container))}: ${value}`;
  }

  protected stringLiteral(node: Node): StringLiteral | undefined {
    if (node.type !== 'string') return undefined;
    const open = node.children.find((c) => c?.type === 'string_start');
    const close = node.children.find((c) => c?.type === 'string_end');
    if (!open || !close) return undefined;
    const prefix = /^[A-Za-z]*/.exec(open.text)![0].toLowerCase();
    return {
      inner: { start: open.endIndex, end: close.startIndex },
      quote: open.text.slice(prefix.length),
      raw: prefix.includes('r'),
      interpolating: prefix.includes('f') || prefix.includes('t'),
      interpolated: node.children.some((c) => c?.type === 'interpolation'),
    };
  }

  protected defaultQuote(): string {
    return '"';
  }

  protected scalar(value: number | boolean): string {
    return typeof value === 'boolean' ? (value ? 'True' : 'False') : String(value);
  }

  protected interpolation(node: Node): Interpolation | undefined {
    if (node.type !== 'interpolation') return undefined;
    const expr = node.namedChildren.find((c) => c && c.type !== 'comment' && c.type !== 'type_conversion' && c.type !== 'format_specifier');
    // The whole field, conversion and format spec included (`{t:.0f}` stays `{t:.0f}`).
    return expr ? { expression: node.text.slice(1, -1) } : undefined;
  }

  protected importsEnd(): number {
    let at = 0;
    for (const c of this.unit.tree.rootNode.namedChildren) if (c && IMPORTS.has(c.type)) at = c.endIndex;
    return at;
  }

  protected importLine(imp: HelperImport): string {
    return imp.module === imp.name ? `import ${imp.module}` : `import ${imp.module} as ${imp.name}`;
  }

  protected definesTopLevel(name: string): boolean {
    return this.unit.tree.rootNode.namedChildren.some((c) => {
      const def = c?.type === 'decorated_definition' ? c.childForFieldName('definition') : c;
      return (def?.type === 'function_definition' || def?.type === 'class_definition') && def.childForFieldName('name')?.text === name;
    });
  }

  protected isGrouping(node: Node): boolean {
    return GROUPING.has(node.type);
  }

  protected memberName(node: Node): Node | undefined {
    return node.type === 'attribute' ? (node.childForFieldName('attribute') ?? undefined) : undefined;
  }

  protected unwrapStatement(node: Node): Node | undefined {
    if (node.type !== 'expression_statement') return undefined;
    const parts = named(node);
    return parts.length === 1 ? parts[0] : undefined;
  }

  protected ownShape(node: Node): ShapeKind | undefined {
    const l = (n: Node) => this.loc(n);
    if (node.type === 'comparison_operator') {
      const operands = named(node);
      const ops = node.childrenForFieldName('operators').filter((c): c is Node => !!c);
      if (operands.length !== 2 || ops.length !== 1) return { kind: 'other' };
      return { kind: 'compare', operator: ops[0].text.replace(/\s+/g, ' '), left: l(operands[0]), right: l(operands[1]) };
    }
    if (node.type === 'await') {
      const operand = named(node)[0];
      return operand ? { kind: 'await', operand: l(operand) } : { kind: 'other' };
    }
    if (COMPREHENSIONS.has(node.type)) {
      const body = node.childForFieldName('body');
      const parts = named(node);
      const fors = parts.filter((c) => c.type === 'for_in_clause');
      const target = fors[0]?.childForFieldName('left');
      const iterable = fors[0]?.childForFieldName('right');
      if (!body || fors.length !== 1 || !iterable) return { kind: 'other' };
      const filters: Node[] = [];
      const clauses: Array<{ start: number; end: number }> = [];
      parts.forEach((c, i) => {
        if (c.type !== 'if_clause') return;
        const cond = named(c)[0];
        if (cond) filters.push(cond);
        clauses.push({ start: parts[i - 1]?.endIndex ?? c.startIndex, end: c.endIndex });
      });
      return {
        kind: 'comprehension',
        element: l(body),
        item: target?.type === 'identifier' ? target.text : undefined,
        iterable: l(iterable),
        filters: filters.map(l),
        clauses: clauses.map((c) => ({ file: this.unit.file, ...c })),
      };
    }
    if (node.type === 'lambda') {
      const params = node.childForFieldName('parameters');
      const body = node.childForFieldName('body');
      const names = params ? named(params).map((p) => (p.type === 'identifier' ? p.text : '')) : [];
      return names.every(Boolean) ? { kind: 'function', params: names, body: body ? l(body) : undefined } : { kind: 'other' };
    }
    if (node.type === 'with_statement') {
      const clause = named(node).find((c) => c.type === 'with_clause');
      const block = node.childForFieldName('body');
      if (!clause || !block) return { kind: 'other' };
      const items = named(clause).map((item) => {
        const value = item.childForFieldName('value') ?? named(item)[0];
        if (value?.type !== 'as_pattern') return { value: l(value ?? item) };
        const alias = value.childForFieldName('alias');
        const target = alias?.type === 'as_pattern_target' ? named(alias)[0] : alias;
        const resource = named(value)[0];
        return { value: l(resource ?? value), name: target?.type === 'identifier' ? target.text : undefined };
      });
      return { kind: 'with', items, body: named(block).map(l) };
    }
    return undefined;
  }
}
