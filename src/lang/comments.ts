/**
 * prefixlint's suppression comments: the one place that writes and finds them, shared by the
 * editor's "Disable <rule> for this line/file" actions and the suppression pass of the analyzer
 * (core/suppress.ts decides what a directive silences). Each language's syntax is in its front
 * end (src/lang/<language>/comments.ts).
 */
import type { LanguageId } from '../core/model';
import type { SuppressionDirective, SuppressionScope } from '../core/suppress';
import { frontEndFor } from './frontEnds';
import type { Node, Tree } from './parsers';
import { walkTypes } from './walk';

export type { SuppressionScope };

/** The comment (without indentation or line break) that suppresses `ruleIds` for a scope. */
export function suppressionComment(language: LanguageId, scope: SuppressionScope, ruleIds: readonly string[]): string {
  return frontEndFor(language).comments.comment(scope, ruleIds);
}

/** Where a file-level comment goes (after a shebang line, or an encoding declaration): the 0-based line to insert before. */
export function fileCommentLine(language: LanguageId, lines: readonly string[]): number {
  return frontEndFor(language).comments.fileCommentLine(lines);
}

/**
 * The outermost string or template literal around `node` that spans more than one line: a
 * finding inside one is silenced by a next-line directive above the line where it starts, or a
 * same-line directive on the line where it ends.
 */
export function multilineLiteral(language: LanguageId, node: Node | null): { start: number; end: number } | undefined {
  const comments = frontEndFor(language).comments;
  let found: { start: number; end: number } | undefined;
  for (let n = node; n; n = n.parent) if (comments.isMultilineLiteral(n)) found = { start: n.startIndex, end: n.endIndex };
  return found;
}

/**
 * Where the line of a "disable for this line" comment is anchored for a finding at `offset`
 * (`node` is the smallest node there): the start of a multi-line literal around it, else `offset`.
 */
export function commentAnchor(language: LanguageId, node: Node | null, offset: number): number {
  return multilineLiteral(language, node)?.start ?? offset;
}

/** For each finding start: the range whose first line a next-line and last line a same-line directive name. */
export function suppressionAnchors(language: LanguageId, tree: Tree): (offset: number) => { start: number; end: number } {
  return (offset) => multilineLiteral(language, tree.rootNode.descendantForIndex(offset)) ?? { start: offset, end: offset };
}

/** Every suppression directive in a parsed file, in text order. */
export function findSuppressions(tree: Tree, text: string, language: LanguageId): SuppressionDirective[] {
  if (!text.includes('prefixlint')) return [];
  const fe = frontEndFor(language);
  const out: SuppressionDirective[] = [];
  walkTypes(tree.rootNode, fe.adapter.commentTypes, (node) => {
    if (!fe.adapter.isComment(node) || !node.text.includes('prefixlint')) return;
    const d = fe.comments.directive(node);
    if (d) out.push(d);
  });
  return out;
}
