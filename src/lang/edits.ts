/**
 * The EditBuilder of each language: the only place that writes Python or TS/JS text for fixes.
 */
import type { EditBuilder } from '../core/edits';
import type { Loc, TextEdit } from '../core/span';
import type { Node } from './parsers';
import type { FileUnit } from './workspace';

function nodeAt(unit: FileUnit, loc: Loc): Node | undefined {
  if (loc.file !== unit.file) return undefined;
  let n: Node | null = unit.tree.rootNode.descendantForIndex(loc.start, Math.max(loc.start, loc.end - 1));
  while (n && !(n.startIndex === loc.start && n.endIndex === loc.end)) {
    if (n.startIndex < loc.start || n.endIndex > loc.end) return undefined;
    n = n.parent;
  }
  return n ?? undefined;
}

function lineIndent(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))![0];
}

function isMultiline(text: string, a: number, b: number): boolean {
  return text.slice(a, b).includes('\n');
}

const PY_TRIM_HELPER = `

def trim_to_user_turn(messages, max_messages):
    """Keep at most max_messages, starting at a user turn that is not a tool_result.

    Cutting history by count alone can separate a tool_use from its tool_result,
    which the Messages API rejects with a 400.
    """
    start = max(0, len(messages) - max_messages)
    while start < len(messages):
        message = messages[start]
        content = message.get("content")
        is_tool_result = isinstance(content, list) and any(
            isinstance(block, dict) and block.get("type") == "tool_result" for block in content
        )
        if message.get("role") == "user" and not is_tool_result:
            break
        start += 1
    return messages[start:]
`;

const TS_TRIM_HELPER = `

/** Keeps at most maxMessages, starting at a user turn that is not a tool_result (a cut by count alone can separate a tool_use from its tool_result: 400). */
function trimToUserTurn<T extends { role: string; content: unknown }>(messages: T[], maxMessages: number): T[] {
  let start = Math.max(0, messages.length - maxMessages);
  while (start < messages.length) {
    const { role, content } = messages[start];
    const isToolResult = Array.isArray(content) && content.some((block) => (block as { type?: string } | null)?.type === 'tool_result');
    if (role === 'user' && !isToolResult) break;
    start++;
  }
  return messages.slice(start);
}
`;

const JS_TRIM_HELPER = `

/** Keeps at most maxMessages, starting at a user turn that is not a tool_result (a cut by count alone can separate a tool_use from its tool_result: 400). */
function trimToUserTurn(messages, maxMessages) {
  let start = Math.max(0, messages.length - maxMessages);
  while (start < messages.length) {
    const { role, content } = messages[start];
    const isToolResult = Array.isArray(content) && content.some((block) => block?.type === 'tool_result');
    if (role === 'user' && !isToolResult) break;
    start++;
  }
  return messages.slice(start);
}
`;

export class SyntaxEditBuilder implements EditBuilder {
  private readonly py: boolean;

  constructor(private readonly unit: FileUnit) {
    this.py = unit.language === 'python';
  }

  private get text(): string {
    return this.unit.text;
  }

  addSortKeys(jsonCall: Loc): TextEdit[] | undefined {
    const call = nodeAt(this.unit, jsonCall);
    const args = call?.childForFieldName('arguments');
    if (!this.py || !args || args.type !== 'argument_list') return undefined;
    return this.appendArgument(args, 'sort_keys=True');
  }

  /** Adds one argument (already written in the language) at the end of an argument list or object literal. */
  private appendArgument(container: Node, code: string): TextEdit[] {
    const items = container.namedChildren.filter((c): c is Node => !!c && c.type !== 'comment');
    const close = container.endIndex - 1;
    if (!items.length) return [{ start: close, end: close, newText: code }];
    const last = items[items.length - 1];
    const between = this.text.slice(last.endIndex, close);
    const multiline = isMultiline(this.text, container.startIndex, close);
    if (between.includes(',')) {
      const comma = last.endIndex + between.indexOf(',') + 1;
      const sep = multiline ? '\n' + lineIndent(this.text, last.startIndex) : ' ';
      return [{ start: comma, end: comma, newText: `${sep}${code},` }];
    }
    const sep = multiline ? ',\n' + lineIndent(this.text, last.startIndex) : ', ';
    return [{ start: last.endIndex, end: last.endIndex, newText: `${sep}${code}` }];
  }

  wrapSorted(expr: Loc): TextEdit[] | undefined {
    const node = nodeAt(this.unit, expr);
    if (!node) return undefined;
    if (this.py) {
      return [
        { start: node.startIndex, end: node.startIndex, newText: 'sorted(' },
        { start: node.endIndex, end: node.endIndex, newText: ')' },
      ];
    }
    return [
      { start: node.startIndex, end: node.startIndex, newText: '[...' },
      { start: node.endIndex, end: node.endIndex, newText: '].sort()' },
    ];
  }

  replaceStringContent(literal: Loc, newContent: string): TextEdit[] | undefined {
    if (!/^[\w.:/-]*$/.test(newContent)) return undefined;
    const node = nodeAt(this.unit, literal);
    const inner = node ? this.unit.adapter.stringLiteralRange(node) : undefined;
    if (inner) return [{ start: inner.start, end: inner.end, newText: newContent }];
    if (literal.file !== this.unit.file) return undefined;
    return [{ start: literal.start, end: literal.end, newText: newContent }];
  }

  private quote(container: Node): string {
    let q = this.py ? '"' : "'";
    for (const c of container.namedChildren) {
      if (c && c.type === 'string') {
        const ch = c.text.replace(/^[a-zA-Z]*/, '')[0];
        if (ch === '"' || ch === "'") q = ch;
        break;
      }
    }
    return q;
  }

  appendStringToList(list: Loc, item: string): TextEdit[] | undefined {
    const node = nodeAt(this.unit, list);
    if (!node || !(node.type === 'list' || node.type === 'array')) return undefined;
    const q = this.quote(node);
    return this.appendArgument(node, `${q}${item}${q}`);
  }

  addListArgument(args: Loc, name: string, items: string[]): TextEdit[] | undefined {
    const node = nodeAt(this.unit, args);
    if (!node) return undefined;
    if (this.py && node.type === 'argument_list') {
      return this.appendArgument(node, `${name}=[${items.map((i) => `"${i}"`).join(', ')}]`);
    }
    if (!this.py && node.type === 'object') {
      const q = this.quote(node);
      return this.appendArgument(node, `${name}: [${items.map((i) => `${q}${i}${q}`).join(', ')}]`);
    }
    return undefined;
  }

  moveInterpolationToUserTurn(embed: Loc, userContent: Loc): TextEdit[] | undefined {
    const interp = nodeAt(this.unit, embed);
    const content = nodeAt(this.unit, userContent);
    if (!interp || !content) return undefined;
    if (!(interp.type === 'interpolation' || interp.type === 'template_substitution')) return undefined;
    const exprNode = interp.namedChildren.find((c) => c && c.type !== 'comment' && c.type !== 'type_conversion' && c.type !== 'format_specifier');
    if (!exprNode) return undefined;
    const exprText = exprNode.text;
    // Remove "<label>: " written right before the interpolation, and one space before it.
    let start = interp.startIndex;
    const before = this.text.slice(Math.max(0, start - 80), start);
    const label = /( ?)([A-Za-z][A-Za-z ]{0,40}: ?)$/.exec(before);
    if (label && !before.slice(0, before.length - label[0].length).endsWith('{')) start -= label[0].length;
    const end = interp.endIndex;
    if (!label && this.text[start - 1] === ' ' && /[\s"'`]/.test(this.text[end] ?? '')) start -= 1;
    if (start < 0 || end > this.text.length) return undefined;
    const needsParens = !/^(identifier|string|call|attribute|subscript|template_string|member_expression|call_expression|subscript_expression|concatenated_string)$/.test(content.type);
    const contentText = needsParens ? `(${content.text})` : content.text;
    const prefix = this.py ? `f"[time: {${exprText}}] " + ` : `\`[time: \${${exprText}}] \` + `;
    void contentText;
    return [
      { start, end, newText: '' },
      { start: content.startIndex, end: content.startIndex, newText: needsParens ? prefix + '(' : prefix },
      ...(needsParens ? [{ start: content.endIndex, end: content.endIndex, newText: ')' }] : []),
    ];
  }

  replaceSliceWithTurnSafeTrim(slice: Loc): TextEdit[] | undefined {
    const node = nodeAt(this.unit, slice);
    if (!node) return undefined;
    const e = this.unit.adapter.expr(node);
    let listText: string;
    let countText: string | undefined;
    if (e.k === 'slice' && e.lower && !e.upper) {
      listText = e.object.text;
      countText = this.countFromLower(e.lower, listText);
    } else if (e.k === 'call') {
      const callee = this.unit.adapter.expr(e.callee);
      if (callee.k !== 'member' || callee.prop !== 'slice' || e.args.length !== 1) return undefined;
      listText = callee.object.text;
      countText = this.countFromLower(e.args[0].value, listText);
    } else return undefined;
    if (!countText || !/^[\w.]+$/.test(listText)) return undefined;
    const fnName = this.py ? 'trim_to_user_turn' : 'trimToUserTurn';
    const edits: TextEdit[] = [{ start: node.startIndex, end: node.endIndex, newText: `${fnName}(${listText}, ${countText})` }];
    const defined = this.py ? new RegExp(`^def ${fnName}\\(`, 'm') : new RegExp(`function ${fnName}\\b`);
    if (!defined.test(this.text)) {
      const at = this.afterImports();
      const helper = this.py ? PY_TRIM_HELPER : this.unit.language === 'javascript' ? JS_TRIM_HELPER : TS_TRIM_HELPER;
      edits.push({ start: at, end: at, newText: helper.replace(/\n/g, this.eol()) });
    }
    return edits;
  }

  private eol(): string {
    return this.text.includes('\r\n') ? '\r\n' : '\n';
  }

  /** `-10` -> `10`; `-k` -> `k`; `N` (drop the first N) -> `len(x) - N`. */
  private countFromLower(lower: Node, listText: string): string | undefined {
    const e = this.unit.adapter.expr(lower);
    if (e.k === 'num') return e.value < 0 ? String(-e.value) : this.py ? `len(${listText}) - ${e.value}` : `${listText}.length - ${e.value}`;
    if (e.k === 'neg') return /^[\w.]+$/.test(e.arg.text) ? e.arg.text : `(${e.arg.text})`;
    if (/^[\w.]+$/.test(lower.text)) return this.py ? `len(${listText}) - ${lower.text}` : `${listText}.length - ${lower.text}`;
    return undefined;
  }

  /** The end of the last top-level import statement, or 0. */
  private afterImports(): number {
    let at = 0;
    for (const c of this.unit.tree.rootNode.namedChildren) {
      if (!c) continue;
      if (/^(import_statement|import_from_statement|future_import_statement)$/.test(c.type)) at = c.endIndex;
      else if ((c.type === 'lexical_declaration' || c.type === 'variable_declaration') && /\brequire\(/.test(c.text)) at = c.endIndex;
    }
    return at;
  }

  useBetaNamespace(callee: Loc): TextEdit[] | undefined {
    const node = nodeAt(this.unit, callee);
    if (!node) return undefined;
    for (let n: Node | null | undefined = node; n; ) {
      const e = this.unit.adapter.expr(n);
      if (e.k !== 'member') return undefined;
      if (e.prop === 'messages') {
        const propNode = n.childForFieldName('attribute') ?? n.childForFieldName('property');
        if (!propNode) return undefined;
        return [{ start: propNode.startIndex, end: propNode.startIndex, newText: 'beta.' }];
      }
      n = e.object;
    }
    return undefined;
  }

  sameScope(a: Loc, b: Loc): boolean {
    const na = nodeAt(this.unit, a);
    const nb = nodeAt(this.unit, b);
    if (!na || !nb) return false;
    return this.unit.enclosingFunction(na).id === this.unit.enclosingFunction(nb).id;
  }
}
