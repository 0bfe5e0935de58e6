/**
 * Code actions, built from a diagnostic's `data` alone: the fix (preferred when safe), "Disable
 * <rule> for this line", "Disable <rule> for this file", "Show documentation for <rule>" (in the
 * client's view, or the rule's page through window/showDocument); and
 * the edit of "fix all" (safe fixes only). Fixes are dropped when a document moved on.
 */
import type { CodeAction, Diagnostic as LspDiagnostic, WorkspaceEdit } from 'vscode-languageserver';
import { CodeActionKind } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Diagnostic } from '../core/diagnostic';
import { applyFixes } from '../core/fix';
import type { Fix } from '../core/fix';
import type { LanguageId } from '../core/model';
import type { TextEdit } from '../core/span';
import { fileCommentLine, suppressionComment } from '../lang/comments';
import { CLIENT_COMMANDS, SERVER_COMMANDS } from './protocol';
import type { DiagnosticData, WireEdit } from './protocol';
import type { Unit } from './units';

export function isOurs(d: LspDiagnostic): d is LspDiagnostic & { data: DiagnosticData } {
  const data = d.data as DiagnosticData | undefined;
  return d.source === 'prefixlint' && !!data && typeof data.ruleId === 'string' && !!data.versions && typeof data.versions === 'object';
}

/** True when every document the data refers to is still at that version. */
export function current(data: DiagnosticData, version: (uri: string) => number | undefined): boolean {
  return Object.entries(data.versions).every(([uri, v]) => version(uri) === v);
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
}

export function quickFixes(diagnostics: readonly LspDiagnostic[], input: ActionInput): CodeAction[] {
  const fixes: CodeAction[] = [];
  const others: CodeAction[] = [];
  const seenRules = new Set<string>();
  for (const d of diagnostics) {
    if (!isOurs(d)) continue;
    const { ruleId, fix } = d.data;
    const fresh = current(d.data, input.version);
    if (fresh && fix) {
      fixes.push({
        title: fix.applicability === 'safe' ? fix.title : `${fix.title} (unsafe fix)`,
        kind: CodeActionKind.QuickFix,
        diagnostics: [d],
        isPreferred: fix.applicability === 'safe',
        edit: { changes: fix.changes },
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

/** The parts of a syntax node `commentAnchor` reads (a web-tree-sitter Node fits). */
export interface SyntaxNodeLike {
  type: string;
  startIndex: number;
  parent: SyntaxNodeLike | null;
}

/**
 * Where a next-line comment for a finding at `offset` can go: the start of the outermost string
 * or template literal around `offset` (a comment line inserted inside a multi-line string would
 * become part of the string), else `offset` itself.
 */
export function commentAnchor(nodeAtOffset: SyntaxNodeLike | null, offset: number): number {
  let anchor = offset;
  for (let n = nodeAtOffset; n; n = n.parent) if (/string|template/.test(n.type) && n.startIndex < anchor) anchor = n.startIndex;
  return anchor;
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

/** Passes of fix, re-analyse, fix again before giving up on a fixpoint (as the CLI). */
export const MAX_FIX_PASSES = 10;

/** The part of the Analyzer that fixing needs. */
export interface FixEngine {
  analyze(file: string, text: string, language?: LanguageId): { diagnostics: Diagnostic[]; notice?: string };
  parsesCleanly(file: string, text: string, language?: LanguageId): boolean;
}

const fixKey = (d: Diagnostic) => [d.ruleId, d.message, d.fix?.title, ...(d.fix?.edits.map((e) => e.newText) ?? [])].join('\u0000');

/**
 * Safe fixes to a fixpoint, as `prefixlint check --fix` applies them: all at once, and when
 * together they make the text parse worse, one by one, skipping each fix that does. A text that
 * does not parse cleanly to begin with is left alone.
 */
export function fixToFixpoint(engine: FixEngine, file: string, text: string, language: LanguageId, keep: (d: Diagnostic) => boolean): string {
  if (!engine.parsesCleanly(file, text, language)) return text;
  const rejected = new Set<string>();
  let current = text;
  const attempt = (fixes: Fix[]): string | 'worse' | undefined => {
    const next = applyFixes(current, fixes);
    if (!next.applied || next.text === current) return undefined;
    return engine.parsesCleanly(file, next.text, language) ? next.text : 'worse';
  };
  for (let pass = 0; pass < MAX_FIX_PASSES; pass++) {
    const candidates = engine.analyze(file, current, language).diagnostics.filter((d) => d.fix?.applicability === 'safe' && d.fix.edits.length > 0 && keep(d) && !rejected.has(fixKey(d)));
    if (!candidates.length) break;
    const all = attempt(candidates.map((d) => d.fix!));
    if (all === undefined) break;
    if (all !== 'worse') {
      current = all;
      continue;
    }
    let progressed = false;
    for (const d of candidates) {
      const one = attempt([d.fix!]);
      if (one === 'worse') rejected.add(fixKey(d));
      else if (one) {
        current = one;
        progressed = true;
        break;
      }
    }
    if (!progressed) break;
  }
  return current;
}

/** Non-overlapping safe fixes, first come first served (one pass; for notebooks). */
export function safeFixEdits(diagnostics: readonly Diagnostic[], keep: (d: Diagnostic) => boolean): TextEdit[] {
  const taken: TextEdit[] = [];
  const overlaps = (a: TextEdit, b: TextEdit) => (a.start === a.end && b.start === b.end ? a.start === b.start : a.start < b.end && b.start < a.end);
  for (const d of diagnostics) {
    const fix: Fix | undefined = d.fix;
    if (!fix || fix.applicability !== 'safe' || !keep(d)) continue;
    if (fix.edits.some((e) => taken.some((t) => overlaps(e, t)))) continue;
    taken.push(...fix.edits);
  }
  return taken;
}
