/**
 * The syntax of prefixlint's suppression comments, per language: the one place that writes and
 * reads it, shared by the editor's "Disable <rule> for this line/file" actions and the
 * suppression pass of the analyzer (core/suppress.ts decides what a directive silences).
 *
 *   Python:  # prefixlint: disable=<rule-id>[,<rule-id>...] [-- reason]             (this line)
 *            # prefixlint: disable-next-line=<rule-id>[,<rule-id>...] [-- reason]
 *            # prefixlint: disable-file=<rule-id>[,<rule-id>...] [-- reason]
 *   TS/JS:   // prefixlint-disable-line <rule-id>[, <rule-id>...] [-- reason]
 *            // prefixlint-disable-next-line <rule-id>[, <rule-id>...] [-- reason]
 *            // prefixlint-disable-file <rule-id>[, <rule-id>...] [-- reason]
 *            (also as a block comment, `/* ... *\/`, and in JSX as `{/* ... *\/}`)
 *
 * A Python directive may share its comment with another one (`# type: ignore  # prefixlint:
 * disable=x`); only the directive's part is its own.
 */
import type { LanguageId } from '../core/model';
import type { SuppressionDirective, SuppressionName, SuppressionScope } from '../core/suppress';
import type { Node, Tree } from './parsers';
import { walk } from './walk';

export type { SuppressionScope };

/** The comment (without indentation or line break) that suppresses `ruleIds` for a scope. */
export function suppressionComment(language: LanguageId, scope: SuppressionScope, ruleIds: readonly string[]): string {
  if (language === 'python') return `# prefixlint: ${PY_KEYWORD[scope]}=${ruleIds.join(',')}`;
  return `// prefixlint-${TS_KEYWORD[scope]} ${ruleIds.join(', ')}`;
}

/**
 * Where a file-level comment goes: after a shebang line, and in Python after an encoding
 * declaration (which must stay on line 1 or 2). Returns the 0-based line to insert before.
 */
export function fileCommentLine(language: LanguageId, lines: readonly string[]): number {
  let line = 0;
  if (lines[0]?.startsWith('#!')) line = 1;
  if (language === 'python') {
    for (let i = line; i < Math.min(2, lines.length); i++) {
      if (/^[ \t\f]*#.*?coding[:=][ \t]*[-\w.]+/.test(lines[i])) line = i + 1;
    }
  }
  return line;
}

const PY_KEYWORD: Record<SuppressionScope, string> = { line: 'disable', 'next-line': 'disable-next-line', file: 'disable-file' };
const TS_KEYWORD: Record<SuppressionScope, string> = { line: 'disable-line', 'next-line': 'disable-next-line', file: 'disable-file' };

/** Literals that can span lines and cannot hold a comment: a directive goes before or after them. */
const STRING_NODES = new Set(['string', 'template_string']);

/**
 * The outermost string or template literal around `node` that spans more than one line: a
 * finding inside one is silenced by a next-line directive above the line where it starts, or a
 * same-line directive on the line where it ends.
 */
export function multilineLiteral(node: Node | null): { start: number; end: number } | undefined {
  let found: { start: number; end: number } | undefined;
  for (let n = node; n; n = n.parent) {
    if (STRING_NODES.has(n.type) && n.startPosition.row !== n.endPosition.row) found = { start: n.startIndex, end: n.endIndex };
  }
  return found;
}

/**
 * Where the line of a "disable for this line" comment is anchored for a finding at `offset`
 * (`node` is the smallest node there): the start of a multi-line literal around it, else `offset`.
 */
export function commentAnchor(node: Node | null, offset: number): number {
  return multilineLiteral(node)?.start ?? offset;
}

/** For each finding start: the range whose first line a next-line and last line a same-line directive name. */
export function suppressionAnchors(tree: Tree): (offset: number) => { start: number; end: number } {
  return (offset) => multilineLiteral(tree.rootNode.descendantForIndex(offset)) ?? { start: offset, end: offset };
}

/** Every suppression directive in a parsed file, in text order. */
export function findSuppressions(tree: Tree, text: string, language: LanguageId): SuppressionDirective[] {
  if (!text.includes('prefixlint')) return [];
  const out: SuppressionDirective[] = [];
  walk(tree.rootNode, (node) => {
    if (node.type !== 'comment' || !node.text.includes('prefixlint')) return;
    const d = language === 'python' ? parsePython(node.text, node.startIndex) : parseScript(node.text, node.startIndex, jsxContainer(node));
    if (d) out.push(d);
  });
  return out;
}

/** `{/* ... *\/}` holding only this comment: removing the directive removes the braces too. */
function jsxContainer(comment: Node): { start: number; end: number } | undefined {
  const parent = comment.parent;
  if (parent?.type !== 'jsx_expression' || parent.namedChildren.length !== 1) return undefined;
  return { start: parent.startIndex, end: parent.endIndex };
}

const NAME_LIST = /^[A-Za-z0-9_-]+(?:[ \t]*,[ \t]*[A-Za-z0-9_-]+)*/;

function names(list: string, offset: number): SuppressionName[] {
  return [...list.matchAll(/[A-Za-z0-9_-]+/g)].map((m) => ({ name: m[0], start: offset + m.index, end: offset + m.index + m[0].length }));
}

const PY_SCOPES: Record<string, SuppressionScope> = { disable: 'line', 'disable-next-line': 'next-line', 'disable-file': 'file' };

/** `# prefixlint: disable=a,b -- reason`, possibly after or before another comment on the line. */
function parsePython(comment: string, offset: number): SuppressionDirective | undefined {
  const head = /(?:^|[ \t])(#[ \t]*prefixlint:[ \t]*)([A-Za-z-]*)/.exec(comment);
  if (!head) return undefined;
  const at = head.index + head[0].length - head[1].length - head[2].length;
  const start = offset + at;
  const keyword = head[2];
  let rest = comment.slice(at + head[1].length + keyword.length);
  let pos = at + head[1].length + keyword.length;
  const malformed = (why: string, end = comment.length): SuppressionDirective => ({
    scope: 'line',
    unit: { start, end: offset + end },
    text: comment.slice(at, end),
    names: [],
    list: { start: offset + end, end: offset + end },
    separator: ',',
    malformed: why,
  });
  const scope = PY_SCOPES[keyword];
  if (!scope) return malformed(keyword ? `unknown directive \`${keyword}\`` : 'no directive after `prefixlint:`');
  const eq = /^[ \t]*=[ \t]*/.exec(rest);
  if (!eq) return malformed(`\`${keyword}\` needs \`=\` and the rule ids to suppress`);
  pos += eq[0].length;
  rest = rest.slice(eq[0].length);
  const list = NAME_LIST.exec(rest);
  if (!list) return malformed(`\`${keyword}=\` needs the rule ids to suppress`);
  const listStart = pos;
  pos += list[0].length;
  rest = rest.slice(list[0].length);
  let end = comment.length;
  let reason: string | undefined;
  const why = /^[ \t]+--(?:[ \t]+|$)/.exec(rest);
  if (why) reason = rest.slice(why[0].length).trim() || undefined;
  else if (/^[ \t]+#/.test(rest)) end = pos;
  else if (rest.trim() !== '') return malformed('unexpected text after the rule ids (a reason goes after ` -- `)');
  return {
    scope,
    unit: { start, end: offset + end },
    text: comment.slice(at, end),
    names: names(list[0], offset + listStart),
    list: { start: offset + listStart, end: offset + pos },
    separator: ',',
    reason,
  };
}

const TS_SCOPES: Record<string, SuppressionScope> = { 'disable-line': 'line', 'disable-next-line': 'next-line', 'disable-file': 'file' };

/** `// prefixlint-disable-line a, b -- reason` or the same in a block comment. */
function parseScript(comment: string, offset: number, container?: { start: number; end: number }): SuppressionDirective | undefined {
  const block = comment.startsWith('/*');
  const bodyStart = 2;
  const bodyEnd = block && comment.endsWith('*/') ? comment.length - 2 : comment.length;
  const body = comment.slice(bodyStart, bodyEnd);
  const head = /^[ \t]*prefixlint-(disable[A-Za-z-]*)/.exec(body);
  if (!head) return undefined;
  const unit = container ?? { start: offset, end: offset + comment.length };
  const keyword = head[1];
  const malformed = (why: string): SuppressionDirective => ({
    scope: 'line',
    unit,
    text: comment,
    names: [],
    list: { start: offset + bodyEnd, end: offset + bodyEnd },
    separator: ', ',
    malformed: why,
  });
  const scope = TS_SCOPES[keyword];
  if (keyword === 'disable') return malformed('`prefixlint-disable` needs a scope: `-line`, `-next-line` or `-file`');
  if (!scope) return malformed(`unknown directive \`prefixlint-${keyword}\``);
  let pos = head[0].length;
  const gap = /^[ \t]+/.exec(body.slice(pos));
  const list = gap && NAME_LIST.exec(body.slice(pos + gap[0].length));
  if (!gap || !list) return malformed(`\`prefixlint-${keyword}\` needs the rule ids to suppress`);
  pos += gap[0].length;
  const listStart = pos;
  pos += list[0].length;
  const rest = body.slice(pos);
  let reason: string | undefined;
  const why = /^\s+--(?:\s+|$)/.exec(rest);
  if (why) reason = rest.slice(why[0].length).replace(/[\s*]+$/, '').trim() || undefined;
  else if (rest.trim() !== '') return malformed('unexpected text after the rule ids (a reason goes after ` -- `)');
  return {
    scope,
    unit,
    text: comment,
    names: names(list[0], offset + bodyStart + listStart),
    list: { start: offset + bodyStart + listStart, end: offset + bodyStart + pos },
    separator: ', ',
    reason,
  };
}
