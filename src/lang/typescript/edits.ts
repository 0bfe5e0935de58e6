/** The edit primitives (src/core/edits.ts) in TypeScript's and JavaScript's syntax: object literals, template literals, ES and CommonJS imports. */
import type { HelperImport, PerLanguage, ShapeKind } from '../../core/edits';
import { SyntaxEdits } from '../syntaxEdits';
import type { Interpolation, StringLiteral } from '../syntaxEdits';
import type { Node } from '../parsers';

const PRIMARY = new Set([
  'identifier',
  'this',
  'member_expression',
  'subscript_expression',
  'call_expression',
  'string',
  'template_string',
  'parenthesized_expression',
  'array',
  'true',
  'false',
  'null',
  'undefined',
]);
const COMPARISONS = new Set(['==', '!=', '===', '!==', '<', '>', '<=', '>=', 'in', 'instanceof']);
const DECLARATIONS = new Set(['function_declaration', 'generator_function_declaration', 'class_declaration']);
const VARIABLES = new Set(['lexical_declaration', 'variable_declaration']);

function named(n: Node): Node[] {
  return n.namedChildren.filter((c): c is Node => !!c && c.type !== 'comment');
}

/** `const x = require('m')`: a CommonJS import. */
function isRequire(decl: Node): boolean {
  return named(decl).some((d) => {
    const value = d.type === 'variable_declarator' ? d.childForFieldName('value') : null;
    const callee = value?.type === 'call_expression' ? value.childForFieldName('function') : null;
    return callee?.type === 'identifier' && callee.text === 'require';
  });
}

export class TypeScriptEdits extends SyntaxEdits {
  protected pick<T>(values: PerLanguage<T>): T | undefined {
    return this.unit.language === 'javascript' ? (values.javascript ?? values.typescript) : values.typescript;
  }

  protected isComment(node: Node): boolean {
    return node.type === 'comment';
  }

  protected isPrimary(node: Node): boolean {
    return PRIMARY.has(node.type);
  }

  protected isList(node: Node): boolean {
    return node.type === 'array';
  }

  protected isMapping(node: Node): boolean {
    return node.type === 'object';
  }

  protected argumentContainer(node: Node): Node | undefined {
    if (node.type === 'object') return node;
    const args = node.type === 'call_expression' ? node.childForFieldName('arguments') : node.type === 'arguments' ? node : null;
    const objects = args ? named(args) : [];
    return objects.length === 1 && objects[0].type === 'object' ? objects[0] : undefined;
  }

  protected entryOf(node: Node): Node | undefined {
    let n: Node = node;
    if (n.type === 'string_fragment' && n.parent?.type === 'string') n = n.parent;
    const parent = n.parent;
    if (parent?.type === 'pair' && (parent.childForFieldName('key')?.id === n.id || parent.childForFieldName('value')?.id === n.id)) return parent;
    return undefined;
  }

  protected keywordArgument(container: Node, name: string, value: string): string | undefined {
    return this.entry(container, name, value);
  }

  protected entry(container: Node, key: string, value: string): string | undefined {
    const written = /^[A-Za-z_$][\w$]*$/.test(key) ? key : this.literal(key, this.loc(container));
    return `${written}: ${value}`;
  }

  protected stringLiteral(node: Node): StringLiteral | undefined {
    if (node.type === 'string') {
      return { inner: { start: node.startIndex + 1, end: node.endIndex - 1 }, quote: node.text[0], raw: false, interpolating: false, interpolated: false };
    }
    if (node.type === 'template_string') {
      const interpolated = node.namedChildren.some((c) => c?.type === 'template_substitution');
      return { inner: { start: node.startIndex + 1, end: node.endIndex - 1 }, quote: '`', raw: false, interpolating: true, interpolated };
    }
    return undefined;
  }

  protected defaultQuote(): string {
    return "'";
  }

  protected scalar(value: number | boolean): string {
    return String(value);
  }

  protected interpolation(node: Node): Interpolation | undefined {
    if (node.type !== 'template_substitution') return undefined;
    const expr = named(node)[0];
    return expr ? { expression: expr.text } : undefined;
  }

  protected importsEnd(): number {
    let at = 0;
    for (const c of this.unit.tree.rootNode.namedChildren) {
      if (!c) continue;
      if (c.type === 'import_statement' || (VARIABLES.has(c.type) && isRequire(c))) at = c.endIndex;
    }
    return at;
  }

  protected importLine(imp: HelperImport): string {
    // A JavaScript file without ES imports is CommonJS; TypeScript compiles either way.
    const esm = this.unit.language !== 'javascript' || this.unit.tree.rootNode.namedChildren.some((c) => c?.type === 'import_statement');
    return esm ? `import * as ${imp.name} from '${imp.module}';` : `const ${imp.name} = require('${imp.module}');`;
  }

  protected definesTopLevel(name: string): boolean {
    return this.unit.tree.rootNode.namedChildren.some((c) => {
      const decl = c?.type === 'export_statement' ? c.childForFieldName('declaration') : c;
      if (!decl) return false;
      if (DECLARATIONS.has(decl.type)) return decl.childForFieldName('name')?.text === name;
      return VARIABLES.has(decl.type) && named(decl).some((d) => d.childForFieldName('name')?.text === name);
    });
  }

  protected isGrouping(node: Node): boolean {
    return node.type === 'arguments' || node.type === 'expression_statement';
  }

  protected memberName(node: Node): Node | undefined {
    return node.type === 'member_expression' ? (node.childForFieldName('property') ?? undefined) : undefined;
  }

  protected unwrapStatement(node: Node): Node | undefined {
    if (node.type !== 'expression_statement') return undefined;
    const parts = named(node);
    return parts.length === 1 ? parts[0] : undefined;
  }

  protected ownShape(node: Node): ShapeKind | undefined {
    const l = (n: Node) => this.loc(n);
    if (node.type === 'binary_expression') {
      const op = node.childForFieldName('operator')?.text;
      const left = node.childForFieldName('left');
      const right = node.childForFieldName('right');
      return op && COMPARISONS.has(op) && left && right ? { kind: 'compare', operator: op, left: l(left), right: l(right) } : undefined;
    }
    if (node.type === 'await_expression') {
      const operand = named(node)[0];
      return operand ? { kind: 'await', operand: l(operand) } : { kind: 'other' };
    }
    if (node.type === 'arrow_function' || node.type === 'function_expression' || node.type === 'function') {
      const single = node.childForFieldName('parameter');
      const list = node.childForFieldName('parameters');
      const names = single ? [single.text] : list ? named(list).map((p) => (p.childForFieldName('pattern') ?? p)).map((p) => (p.type === 'identifier' ? p.text : '')) : [];
      if (!names.every(Boolean)) return { kind: 'other' };
      const body = node.childForFieldName('body');
      return { kind: 'function', params: names, body: body && body.type !== 'statement_block' ? l(body) : undefined };
    }
    return undefined;
  }
}
