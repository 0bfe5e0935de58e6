/**
 * Code actions, built from a diagnostic's `data` alone: the fix (preferred when safe), "Disable
 * <rule> for this line", "Disable <rule> for this file", "Show documentation for <rule>" (in the
 * client's view, or the rule's page through window/showDocument); and the minimal edit that
 * turns a document into what "fix all" (engine/fixpoint.ts) made of it. Fixes are dropped when a
 * document moved on.
 */
import type { CodeAction, Diagnostic as LspDiagnostic, WorkspaceEdit } from 'vscode-languageserver';
import { CodeActionKind, TextDocumentEdit } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { LanguageId } from '../core/model';
import { fileCommentLine, suppressionComment } from '../engine/suppressions';
import { CLIENT_COMMANDS, SERVER_COMMANDS } from '../shared/protocol';
import type { DiagnosticData, WireEdit } from '../shared/protocol';
import type { Unit } from './units';

export function isOurs(d: LspDiagnostic): d is LspDiagnostic & { data: DiagnosticData } {
  const data = d.data as DiagnosticData | undefined;
  return d.source === 'prefixlint' && !!data && typeof data.ruleId === 'string' && !!data.versions && typeof data.versions === 'object';
}

/** True when every document the data refers to is still at that version. */
export function current(data: DiagnosticData, version: (uri: string) => number | undefined): boolean {
  return Object.entries(data.versions).every(([uri, v]) => version(uri) === v);
}

/** The other files of a fix are as the analysis read them: open ones at that version, closed ones still closed. */
function othersCurrent(fix: NonNullable<DiagnosticData['fix']>, version: (uri: string) => number | undefined): boolean {
  return Object.entries(fix.otherDocuments ?? {}).every(([uri, v]) => version(uri) === (v ?? undefined));
}

/**
 * A fix as a workspace edit. One that also edits other files is a list of versioned document
 * changes when the client takes them (so that it refuses the edit if a document moved on), one
 * per file it touches; the versions of files not open are null.
 */
function fixEdit(data: DiagnosticData, fix: NonNullable<DiagnosticData['fix']>, documentChanges: boolean): WorkspaceEdit {
  if (!fix.otherDocuments || !documentChanges) return { changes: fix.changes };
  const versionOf = (uri: string): number | null => data.versions[uri] ?? fix.otherDocuments?.[uri] ?? null;
  return { documentChanges: Object.entries(fix.changes).map(([uri, edits]) => TextDocumentEdit.create({ uri, version: versionOf(uri) }, edits)) };
}

function eol(doc: TextDocument): string {
  return doc.getText().includes('\r\n') ? '\r\n' : '\n';
}

function lineText(doc: TextDocument, line: number): string {
  return doc.getText({ start: { line, character: 0 }, end: { line: line + 1, character: 0 } }).replace(/\r?\n$|\r$/, '');
}

/** Inserts a comment line above `line`, indented like it. */
function commentAbove(doc: TextDocument, line: number, comment: string): WorkspaceEdit {
  const indent = /^[ \t]*/.exec(lineText(doc, line))![0];
  return { changes: { [doc.uri]: [{ range: { start: { line, character: 0 }, end: { line, character: 0 } }, newText: indent + comment + eol(doc) }] } };
}

export interface ActionInput {
  /** The document the actions are asked for, at its current version. */
  doc: TextDocument;
  unit: Unit;
  language: LanguageId;
  version(uri: string): number | undefined;
  /** The line a next-line comment for a diagnostic starting at this position goes above. */
  commentLine(line: number, character: number): number;
  /**
   * How "Show documentation" opens the rule's page: the client's own view (VS Code), the page
   * in the repository through `window/showDocument`, or not at all (the hover links to it).
   */
  docs?: 'client' | 'showDocument' | 'none';
  /** The client applies versioned document changes (`workspace.workspaceEdit.documentChanges`). */
  documentChanges?: boolean;
}

export function quickFixes(diagnostics: readonly LspDiagnostic[], input: ActionInput): CodeAction[] {
  const fixes: CodeAction[] = [];
  const others: CodeAction[] = [];
  const seenRules = new Set<string>();
  for (const d of diagnostics) {
    if (!isOurs(d)) continue;
    const { ruleId, fix } = d.data;
    const fresh = current(d.data, input.version);
    if (fresh && fix && othersCurrent(fix, input.version)) {
      fixes.push({
        title: fix.applicability === 'safe' ? fix.title : `${fix.title} (unsafe fix)`,
        kind: CodeActionKind.QuickFix,
        diagnostics: [d],
        isPreferred: fix.applicability === 'safe',
        edit: fixEdit(d.data, fix, input.documentChanges ?? false),
      });
    }
    if (fresh) {
      const line = input.commentLine(d.range.start.line, d.range.start.character);
      others.push({
        title: `Disable ${ruleId} for this line`,
        kind: CodeActionKind.QuickFix,
        diagnostics: [d],
        edit: commentAbove(input.doc, line, suppressionComment(input.language, 'next-line', [ruleId])),
      });
    }
    if (seenRules.has(ruleId)) continue;
    seenRules.add(ruleId);
    const first = input.unit.firstDocument;
    if (fresh && first) {
      const lines = first.getText().split(/\r?\n|\r/);
      const at = fileCommentLine(input.language, lines);
      const edit: WorkspaceEdit = {
        changes: { [first.uri]: [{ range: { start: { line: at, character: 0 }, end: { line: at, character: 0 } }, newText: suppressionComment(input.language, 'file', [ruleId]) + eol(first) }] },
      };
      others.push({ title: `Disable ${ruleId} for this file`, kind: CodeActionKind.QuickFix, diagnostics: [d], edit });
    }
    const docs = input.docs ?? 'client';
    if (docs === 'none') continue;
    const title = `Show documentation for ${ruleId}`;
    others.push({
      title,
      kind: CodeActionKind.QuickFix,
      diagnostics: [d],
      command: docs === 'client' ? { title, command: CLIENT_COMMANDS.showDocumentation, arguments: [ruleId] } : { title, command: SERVER_COMMANDS.openRulePage, arguments: [ruleId] },
    });
  }
  return [...fixes, ...others];
}

/** The smallest single edit that turns `before` into `after`. */
export function minimalEdit(doc: TextDocument, after: string): WireEdit | undefined {
  const before = doc.getText();
  if (before === after) return undefined;
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start++;
  let endB = before.length;
  let endA = after.length;
  while (endB > start && endA > start && before[endB - 1] === after[endA - 1]) {
    endB--;
    endA--;
  }
  return { range: { start: doc.positionAt(start), end: doc.positionAt(endB) }, newText: after.slice(start, endA) };
}
