/**
 * Writing suppression comments, for the editor's "Disable <rule> for this line / file" actions:
 * the comment a language uses and the line a file-level one goes on. The syntax is the language
 * front end's (lang/comments.ts), which also reads the comments for the suppression pass.
 */
export { fileCommentLine, suppressionComment } from '../lang/comments';
export type { SuppressionScope } from '../lang/comments';
