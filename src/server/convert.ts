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
import type { DiagnosticData, WireEdit } from '../shared/protocol';
import { hasEdits } from '../core/fix';
import type { FileEdits } from '../core/fix';
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
  /** The open document's URI, text and version for a path, or the file on disk (no version). */
  lookup(file: string): { uri: string; text: string; version?: number } | undefined;
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

/** The edits of other files as LSP edits, by URI, with the versions of the open ones; undefined when one cannot be read. */
function otherChanges(parts: readonly FileEdits[], texts: TextLookup): { changes: Record<string, WireEdit[]>; versions: Record<string, number | null> } | undefined {
  const changes: Record<string, WireEdit[]> = {};
  const versions: Record<string, number | null> = {};
  for (const part of parts) {
    if (!part.edits.length) continue;
    const other = texts.lookup(part.file);
    if (!other) return undefined;
    const uri = other.uri || uriOf(part.file);
    const index = new LineIndex(other.text);
    const at = (offset: number) => {
      const p = index.position(offset);
      return { line: p.line, character: p.column };
    };
    changes[uri] = part.edits.map((e) => ({ range: { start: at(e.start), end: at(e.end) }, newText: e.newText }));
    versions[uri] = other.version ?? null;
  }
  return { changes, versions };
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
    if (d.fix && hasEdits(d.fix)) {
      const changes = d.fix.edits.length ? unit.changes(d.fix.edits) : {};
      const others = otherChanges(d.fix.otherFiles ?? [], texts);
      if (changes && others) {
        data.fix = { title: d.fix.title, applicability: d.fix.applicability, changes: { ...changes, ...others.changes } };
        if (Object.keys(others.versions).length) data.fix.otherDocuments = others.versions;
      }
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
