/**
 * Engine diagnostics as LSP diagnostics, the one place they are built (open documents, notebook
 * cells and the closed files "lint workspace" pushes): source `prefixlint`, code = rule id, a link
 * to the rule's page, the severity the configuration gave, related locations (where a volatile
 * value was produced, in this file or another), and the fix in `data` so that a code action needs
 * no server state.
 */
import type { Diagnostic as LspDiagnostic, DiagnosticRelatedInformation } from 'vscode-languageserver';
import { DiagnosticSeverity, DiagnosticTag } from 'vscode-languageserver';
import type { Diagnostic, Severity } from '../core/diagnostic';
import { docsUrl } from '../core/rule';
import { LineIndex } from '../core/span';
import type { Loc } from '../core/span';
import type { DiagnosticData } from '../shared/protocol';
import type { DocPosition, Unit } from './units';
import { uriOf } from './units';

/** Rules whose findings mark code that does nothing (shown faded): unused suppressions. */
export const UNNECESSARY_RULES: ReadonlySet<string> = new Set(['unused-suppression']);

export const SEVERITY: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  info: DiagnosticSeverity.Information,
};

/** Texts of other files, for related locations outside the unit. */
export interface TextLookup {
  /** The open document's URI and text for a path, or the file on disk. */
  lookup(file: string): { uri: string; text: string } | undefined;
}

function rangeOf(unit: Unit, loc: { start: number; end: number }): { start: DocPosition; end: DocPosition } | undefined {
  const start = unit.position(loc.start);
  let end = unit.position(loc.end);
  if (!start) return undefined;
  // A range never leaves the document (cell) it starts in.
  if (!end || end.uri !== start.uri) {
    const doc = unit.documents.find((d) => d.uri === start.uri);
    end = { uri: start.uri, ...(doc ? doc.positionAt(doc.getText().length) : start) };
  }
  return { start, end };
}

export function relatedInformation(unit: Unit, d: Diagnostic, texts: TextLookup): DiagnosticRelatedInformation[] {
  const out: DiagnosticRelatedInformation[] = [];
  for (const r of d.related) {
    const location = locationOf(unit, r.at, texts);
    if (location) out.push({ location, message: r.message });
  }
  return out;
}

export function locationOf(unit: Unit, at: Loc, texts: TextLookup) {
  if (at.file === unit.file) {
    const range = rangeOf(unit, at);
    return range && { uri: range.start.uri, range: { start: strip(range.start), end: strip(range.end) } };
  }
  const other = texts.lookup(at.file);
  if (!other) return undefined;
  const index = new LineIndex(other.text);
  const s = index.position(at.start);
  const e = index.position(at.end);
  return { uri: other.uri || uriOf(at.file), range: { start: { line: s.line, character: s.column }, end: { line: e.line, character: e.column } } };
}

function strip(p: DocPosition) {
  return { line: p.line, character: p.character };
}

/** LSP diagnostics of a unit, grouped by document URI (every document of the unit has an entry). */
export function toLspDiagnostics(unit: Unit, diagnostics: readonly Diagnostic[], texts: TextLookup): Map<string, LspDiagnostic[]> {
  const out = new Map<string, LspDiagnostic[]>(unit.documents.map((d) => [d.uri, []]));
  for (const d of diagnostics) {
    const range = rangeOf(unit, d.at);
    if (!range) continue;
    const data: DiagnosticData = { ruleId: d.ruleId, versions: unit.versions };
    if (d.fix && d.fix.edits.length) {
      const changes = unit.changes(d.fix.edits);
      if (changes) data.fix = { title: d.fix.title, applicability: d.fix.applicability, changes };
    }
    const lsp: LspDiagnostic = {
      range: { start: strip(range.start), end: strip(range.end) },
      severity: SEVERITY[d.severity],
      code: d.ruleId,
      codeDescription: { href: docsUrl(d.ruleId) },
      source: 'prefixlint',
      message: d.message,
      data,
    };
    const related = relatedInformation(unit, d, texts);
    if (related.length) lsp.relatedInformation = related;
    if (UNNECESSARY_RULES.has(d.ruleId)) lsp.tags = [DiagnosticTag.Unnecessary];
    out.get(range.start.uri)?.push(lsp);
  }
  return out;
}
