/**
 * The EditBuilder of each language: the only place that writes Python or TS/JS text for fixes.
 */
import type { EditBuilder } from '../core/edits';
import type { Loc, TextEdit } from '../core/span';
import type { Node } from './parsers';
import { keepBlocksWithPlaceholder, replaceWithAtomicWrite } from './rewrites';
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
    """Keep about max_messages, starting at a user turn that is not a tool_result.

    Cutting history by count alone can separate a tool_use from its tool_result,
    which the Messages API rejects with a 400.
    """
    start = max(0, len(messages) - max_messages)
    # Move the cut back to the nearest user turn that is not a tool result.
    while start > 0:
        message = messages[start]
        content = message.get("content")
        is_tool_result = isinstance(content, list) and any(
            isinstance(block, dict) and block.get("type") == "tool_result" for block in content
        )
        if message.get("role") == "user" and not is_tool_result:
            break
        start -= 1
    return messages[start:]
`;

const TS_TRIM_HELPER = `

/** Keeps about maxMessages, starting at a user turn that is not a tool_result (a cut by count alone can separate a tool_use from its tool_result: 400). */
function trimToUserTurn<T extends { role: string; content: unknown }>(messages: T[], maxMessages: number): T[] {
  let start = Math.max(0, messages.length - maxMessages);
  // Move the cut back to the nearest user turn that is not a tool result.
  while (start > 0) {
    const { role, content } = messages[start];
    const isToolResult = Array.isArray(content) && content.some((block) => (block as { type?: string } | null)?.type === 'tool_result');
    if (role === 'user' && !isToolResult) break;
    start--;
  }
  return messages.slice(start);
}
`;

const JS_TRIM_HELPER = `

/** Keeps about maxMessages, starting at a user turn that is not a tool_result (a cut by count alone can separate a tool_use from its tool_result: 400). */
function trimToUserTurn(messages, maxMessages) {
  let start = Math.max(0, messages.length - maxMessages);
  // Move the cut back to the nearest user turn that is not a tool result.
  while (start > 0) {
    const { role, content } = messages[start];
    const isToolResult = Array.isArray(content) && content.some((block) => block?.type === 'tool_result');
    if (role === 'user' && !isToolResult) break;
    start--;
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
    // The whole field, conversion and format spec included (`{t:.0f}` stays `{t:.0f}`).
    const exprText = this.py ? interp.text.slice(1, -1) : exprNode.text;
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
    // A quote the field does not use, so the new f-string also parses before Python 3.12.
    const q = exprText.includes('"') ? (exprText.includes("'") ? undefined : "'") : '"';
    if (this.py && !q) return undefined;
    const prefix = this.py ? `f${q}[time: {${exprText}}] ${q} + ` : `\`[time: \${${exprText}}] \` + `;
    void contentText;
    return [
      { start, end, newText: '' },
      { start: content.startIndex, end: content.startIndex, newText: needsParens ? prefix + '(' : prefix },
      ...(needsParens ? [{ start: content.endIndex, end: content.endIndex, newText: ')' }] : []),
    ];
  }

  moveInterpolationToUserTurnAs(embed: Loc, userContent: Loc, label: string): TextEdit[] | undefined {
    const interp = nodeAt(this.unit, embed);
    const content = nodeAt(this.unit, userContent);
    if (!interp || !content || !/^[\w ]+$/.test(label)) return undefined;
    if (!(interp.type === 'interpolation' || interp.type === 'template_substitution')) return undefined;
    const exprNode = interp.namedChildren.find((c) => c && c.type !== 'comment' && c.type !== 'type_conversion' && c.type !== 'format_specifier');
    if (!exprNode || exprNode.text.includes('\\')) return undefined;
    const exprText = exprNode.text;
    // Remove the interpolation with a label written right before it ("Known about the user: ")
    // and the line break or space that separated it from the stable text.
    let start = interp.startIndex;
    const end = interp.endIndex;
    const before = this.text.slice(Math.max(0, start - 120), start);
    const m = /(?:\\n|\n|[ \t])*(?:[A-Za-z][A-Za-z '-]{0,60}:(?:\\n|\n|[ \t])*)?$/.exec(before);
    if (m && !before.slice(0, before.length - m[0].length).endsWith('{')) start -= m[0].length;
    // Only a value that stands on its own (after a label, on its own line, or alone) can move;
    // one in the middle of a sentence ("You work for {company}.") would leave a broken sentence.
    const own = !!m && (m[0].includes(':') || /\\n|\n/.test(m[0]) || /["'`]$/.test(this.text.slice(0, start)));
    if (!own) return undefined;
    if (start < 0 || end > this.text.length) return undefined;
    const needsParens = !/^(identifier|string|call|attribute|subscript|template_string|member_expression|call_expression|subscript_expression|concatenated_string)$/.test(content.type);
    let prefix: string;
    if (this.py) {
      const q = exprText.includes('"') ? "'" : '"';
      if (exprText.includes(q)) return undefined;
      prefix = `f${q}[${label}]\\n{${exprText}}\\n\\n${q} + `;
    } else {
      if (exprText.includes('`')) return undefined;
      prefix = `\`[${label}]\\n\${${exprText}}\\n\\n\` + `;
    }
    return [
      { start, end, newText: '' },
      { start: content.startIndex, end: content.startIndex, newText: needsParens ? prefix + '(' : prefix },
      ...(needsParens ? [{ start: content.endIndex, end: content.endIndex, newText: ')' }] : []),
    ];
  }

  /** The node that holds a `key: value` entry whose key is written at `key`. */
  private entryNode(key: Loc): Node | undefined {
    let n = nodeAt(this.unit, key);
    if (n && (n.type === 'string_content' || n.type === 'string_fragment')) n = n.parent ?? undefined;
    const parent = n?.parent;
    if (!n || !parent) return undefined;
    if (parent.type === 'pair' && parent.childForFieldName('key')?.id === n.id) return parent;
    if (parent.type === 'keyword_argument' && parent.childForFieldName('name')?.id === n.id) return parent;
    return undefined;
  }

  /** Deletes one element of a comma-separated container together with the separator next to it. */
  private removeElement(el: Node): TextEdit[] | undefined {
    const container = el.parent;
    if (!container) return undefined;
    const items = container.namedChildren.filter((c): c is Node => !!c && c.type !== 'comment');
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

  removeProperty(key: Loc): TextEdit[] | undefined {
    const entry = this.entryNode(key);
    return entry ? this.removeElement(entry) : undefined;
  }

  copyPropertyTo(key: Loc, target: Loc): TextEdit[] | undefined {
    const entry = this.entryNode(key);
    const to = nodeAt(this.unit, target);
    if (!entry || entry.type !== 'pair' || !to || !(to.type === 'dictionary' || to.type === 'object')) return undefined;
    if (to.startIndex <= entry.startIndex && entry.endIndex <= to.endIndex) return undefined;
    return this.appendArgument(to, entry.text);
  }

  removeListItem(item: Loc): TextEdit[] | undefined {
    const node = nodeAt(this.unit, item);
    if (!node || !(node.parent?.type === 'list' || node.parent?.type === 'array')) return undefined;
    return this.removeElement(node);
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

  removeHeaderName(literal: Loc, name: string): TextEdit[] | undefined {
    const node = nodeAt(this.unit, literal);
    const inner = node ? this.unit.adapter.stringLiteralRange(node) : undefined;
    if (!node || !inner || node.namedChildren.some((c) => c?.type === 'interpolation' || c?.type === 'template_substitution')) return undefined;
    const content = this.text.slice(inner.start, inner.end);
    if (/[\\{}$]/.test(content)) return undefined;
    const parts = content.split(',');
    const names = parts.map((p) => p.trim());
    if (names.filter((n) => n === name).length !== 1) return undefined;
    if (names.filter(Boolean).length === 1) {
      // The only name: drop the whole `"anthropic-beta": "..."` entry.
      const pair = node.parent;
      return pair?.type === 'pair' ? this.removeElement(pair) : undefined;
    }
    const i = names.indexOf(name);
    let kept = parts.filter((_, j) => j !== i).join(',');
    if (i === 0) kept = kept.replace(/^\s+/, '');
    return [{ start: inner.start, end: inner.end, newText: kept }];
  }

  moveListItemFirst(item: Loc): TextEdit[] | undefined {
    const node = nodeAt(this.unit, item);
    const list = node?.parent;
    if (!node || !list || !(list.type === 'list' || list.type === 'array')) return undefined;
    const items = list.namedChildren.filter((c): c is Node => !!c && c.type !== 'comment');
    const i = items.findIndex((c) => c.id === node.id);
    if (i <= 0) return undefined;
    const removal = this.removeElement(node);
    if (!removal) return undefined;
    const first = items[0];
    const sep = isMultiline(this.text, first.startIndex, node.startIndex) ? ',' + this.eol() + lineIndent(this.text, first.startIndex) : ', ';
    return [{ start: first.startIndex, end: first.startIndex, newText: node.text + sep }, ...removal];
  }

  replaceNumber(literal: Loc, value: number): TextEdit[] | undefined {
    const node = nodeAt(this.unit, literal);
    if (!node || !/^(integer|float|number)$/.test(node.type) || !Number.isFinite(value)) return undefined;
    const plain = String(value);
    const text = node.text.includes('_') && Number.isInteger(value) ? plain.replace(/\B(?=(\d{3})+(?!\d))/g, '_') : plain;
    return [{ start: node.startIndex, end: node.endIndex, newText: text }];
  }

  removeCalleeSegments(callee: Loc, segments: string[]): TextEdit[] | undefined {
    const edits: TextEdit[] = [];
    const found = new Set<string>();
    for (let n: Node | undefined = nodeAt(this.unit, callee); n; ) {
      const e = this.unit.adapter.expr(n);
      if (e.k !== 'member') break;
      if (segments.includes(e.prop)) {
        if (found.has(e.prop)) return undefined;
        found.add(e.prop);
        edits.push({ start: e.object.endIndex, end: n.endIndex, newText: '' });
      }
      n = e.object;
    }
    return found.size === segments.length ? edits : undefined;
  }

  replaceWithMember(target: Loc, object: Loc, member: string): TextEdit[] | undefined {
    const t = nodeAt(this.unit, target);
    const o = nodeAt(this.unit, object);
    if (!t || !o || !/^\w+$/.test(member) || o.startIndex < t.startIndex || o.endIndex > t.endIndex) return undefined;
    const simple = /^(identifier|attribute|member_expression|subscript|subscript_expression|call|call_expression|parenthesized_expression|this)$/.test(o.type);
    return [{ start: t.startIndex, end: t.endIndex, newText: `${simple ? o.text : `(${o.text})`}.${member}` }];
  }

  keepBlocksWithPlaceholder(filter: Loc, type: string, placeholder: string): TextEdit[] | undefined {
    const node = nodeAt(this.unit, filter);
    return node ? keepBlocksWithPlaceholder(this.unit, node, type, placeholder) : undefined;
  }

  replaceWithAtomicWrite(write: Loc): TextEdit[] | undefined {
    const node = nodeAt(this.unit, write);
    return node ? replaceWithAtomicWrite(this.unit, node, this.afterImports(), this.eol()) : undefined;
  }
}
