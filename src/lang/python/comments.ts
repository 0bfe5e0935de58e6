/**
 * Python's suppression comments:
 *
 *   # prefixlint: disable=<rule-id>[,<rule-id>...] [-- reason]             (this line)
 *   # prefixlint: disable-next-line=<rule-id>[,<rule-id>...] [-- reason]
 *   # prefixlint: disable-file=<rule-id>[,<rule-id>...] [-- reason]
 *
 * A directive may share its comment with another one (`# type: ignore  # prefixlint:
 * disable=x`); only the directive's part is its own.
 */
import type { SuppressionDirective, SuppressionScope } from '../../core/suppress';
import type { CommentSyntax } from '../frontEnd';
import type { Node } from '../parsers';
import { NAME_LIST, suppressionNames as names } from '../suppressionNames';

const KEYWORD: Record<SuppressionScope, string> = { line: 'disable', 'next-line': 'disable-next-line', file: 'disable-file' };
const EXPECTED = '`# prefixlint: disable=<rule-id>[,<rule-id>...] [-- reason]` (or `disable-next-line=`, `disable-file=`)';

const SCOPES: Record<string, SuppressionScope> = { disable: 'line', 'disable-next-line': 'next-line', 'disable-file': 'file' };

/** `# prefixlint: disable=a,b -- reason`, possibly after or before another comment on the line. */
function parse(comment: string, offset: number): SuppressionDirective | undefined {
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
    expected: EXPECTED,
  });
  const scope = SCOPES[keyword];
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


export const pythonComments: CommentSyntax = {
  comment: (scope, ruleIds) => `# prefixlint: ${KEYWORD[scope]}=${ruleIds.join(',')}`,
  fileCommentLine(lines) {
    // After a shebang line and an encoding declaration (which must stay on line 1 or 2).
    let line = lines[0]?.startsWith('#!') ? 1 : 0;
    for (let i = line; i < Math.min(2, lines.length); i++) {
      if (/^[ \t\f]*#.*?coding[:=][ \t]*[-\w.]+/.test(lines[i])) line = i + 1;
    }
    return line;
  },
  directive: (node: Node) => parse(node.text, node.startIndex),
  isMultilineLiteral: (node) => node.type === 'string' && node.startPosition.row !== node.endPosition.row,
};
