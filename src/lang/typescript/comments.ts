/**
 * The suppression comments of TypeScript and JavaScript:
 *
 *   // prefixlint-disable-line <rule-id>[, <rule-id>...] [-- reason]
 *   // prefixlint-disable-next-line <rule-id>[, <rule-id>...] [-- reason]
 *   // prefixlint-disable-file <rule-id>[, <rule-id>...] [-- reason]
 *
 * also as a block comment, `/* ... *\/`, and in JSX as `{/* ... *\/}`.
 */
import type { SuppressionDirective, SuppressionScope } from '../../core/suppress';
import type { CommentSyntax } from '../frontEnd';
import type { Node } from '../parsers';
import { NAME_LIST, suppressionNames as names } from '../suppressionNames';

const KEYWORD: Record<SuppressionScope, string> = { line: 'disable-line', 'next-line': 'disable-next-line', file: 'disable-file' };
const EXPECTED = '`// prefixlint-disable-line <rule-id>[, <rule-id>...] [-- reason]` (or `-disable-next-line`, `-disable-file`)';

/** `{/* ... *\/}` holding only this comment: removing the directive removes the braces too. */
function jsxContainer(comment: Node): { start: number; end: number } | undefined {
  const parent = comment.parent;
  if (parent?.type !== 'jsx_expression' || parent.namedChildren.length !== 1) return undefined;
  return { start: parent.startIndex, end: parent.endIndex };
}


const SCOPES: Record<string, SuppressionScope> = { 'disable-line': 'line', 'disable-next-line': 'next-line', 'disable-file': 'file' };

/** `// prefixlint-disable-line a, b -- reason` or the same in a block comment. */
function parse(comment: string, offset: number, container?: { start: number; end: number }): SuppressionDirective | undefined {
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
    expected: EXPECTED,
  });
  const scope = SCOPES[keyword];
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

export const typescriptComments: CommentSyntax = {
  comment: (scope, ruleIds) => `// prefixlint-${KEYWORD[scope]} ${ruleIds.join(', ')}`,
  // After a shebang line.
  fileCommentLine: (lines) => (lines[0]?.startsWith('#!') ? 1 : 0),
  directive: (node: Node) => parse(node.text, node.startIndex, jsxContainer(node)),
  isMultilineLiteral: (node) => (node.type === 'string' || node.type === 'template_string') && node.startPosition.row !== node.endPosition.row,
};
