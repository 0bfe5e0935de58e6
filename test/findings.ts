/**
 * Findings as the CLI prints them with `--format json`, and LSP diagnostics turned into the same
 * shape, so that a test can compare what the editor shows with what `prefixlint check` reports.
 */
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Diagnostic, TextEdit } from 'vscode-languageserver/node';
import { main } from '../src/cli/main';
import type { JsonFinding as CliFinding } from '../src/cli/report';

/** A finding of `--format json` (src/cli/report.ts), with the LSP side's looser severity and edits. */
export type JsonFinding = Omit<CliFinding, 'severity' | 'fix'> & {
  severity: string;
  fix: null | { title: string; applicability: string; edits: Array<Record<string, unknown>> };
};

/** `prefixlint check --format json <args>` run from `cwd`: the findings and the exit code. */
export async function cliRun(cwd: string, args: readonly string[]): Promise<{ code: number; findings: JsonFinding[]; stderr: string }> {
  let out = '';
  let stderr = '';
  const io = { out: (t: string) => void (out += t), err: (t: string) => void (stderr += t), readStdin: () => Buffer.alloc(0), stdoutIsTTY: false, cwd };
  const code = await main(['check', '--format', 'json', ...args], io as Parameters<typeof main>[1]);
  return { code, findings: out ? (JSON.parse(out) as JsonFinding[]) : [], stderr };
}

/** The CLI's findings for a folder (`prefixlint check --format json .` run from it). */
export async function cliJsonOf(dir: string, args: readonly string[] = []): Promise<JsonFinding[]> {
  return (await cliRun(dir, [...args, '.'])).findings;
}

const SEVERITY_NAMES = ['', 'error', 'warning', 'info', 'hint'];

/** An LSP diagnostic in the CLI's JSON shape (1-based lines and columns; `file` relative to `base`, as the CLI run from `base` gives it). */
export function asJson(file: string, d: Diagnostic, base: string, cell?: number, cellOf?: (uri: string) => number): JsonFinding {
  const data = d.data as { fix?: { title: string; applicability: string; changes: Record<string, TextEdit[]> } };
  // The edits of the finding's own document (its cells, for a notebook); those of other files are the CLI's `fix.files`.
  const own = (uri: string) => (cellOf ? uri.startsWith('vscode-notebook-cell:') : uri === pathToFileURL(file).toString());
  const edits = Object.entries(data.fix?.changes ?? {}).filter(([uri]) => own(uri)).flatMap(([uri, list]) =>
    list.map((e) => {
      const at = { line: e.range.start.line + 1, column: e.range.start.character + 1, endLine: e.range.end.line + 1, endColumn: e.range.end.character + 1 };
      if (!cellOf) return { ...at, newText: e.newText };
      return { cell: cellOf(uri), cellLine: at.line, cellColumn: at.column, cellEndLine: at.endLine, cellEndColumn: at.endColumn, newText: e.newText };
    }),
  );
  const f: JsonFinding = {
    ruleId: String(d.code),
    severity: SEVERITY_NAMES[d.severity ?? 1],
    file: path.relative(base, file).split(path.sep).join('/'),
    line: d.range.start.line + 1,
    column: d.range.start.character + 1,
    endLine: d.range.end.line + 1,
    endColumn: d.range.end.character + 1,
    message: String(d.message),
    url: d.codeDescription?.href ?? '',
    fix: data.fix ? { title: data.fix.title, applicability: data.fix.applicability, edits } : null,
    related: (d.relatedInformation ?? []).map((r) => {
      const at = { line: r.location.range.start.line + 1, column: r.location.range.start.character + 1, endLine: r.location.range.end.line + 1, endColumn: r.location.range.end.character + 1 };
      // A notebook cell's place: compared by its cell position (the CLI's line/column point into the .ipynb).
      if (!r.location.uri.startsWith('file:')) return { file: path.relative(base, file).split(path.sep).join('/'), ...at, message: r.message, cell: cellOf?.(r.location.uri), cellLine: at.line, cellColumn: at.column, cellEndLine: at.endLine, cellEndColumn: at.endColumn };
      return { file: path.relative(base, fileURLToPath(r.location.uri)).split(path.sep).join('/'), ...at, message: r.message };
    }),
  };
  if (cell === undefined) return f;
  return { ...f, cell, cellLine: f.line, cellColumn: f.column, cellEndLine: f.endLine, cellEndColumn: f.endColumn };
}

/** For notebook findings the CLI's line/column point into the .ipynb: compare the cell positions. */
export function comparable(found: JsonFinding): Partial<JsonFinding> {
  // `fix.files` (the CLI's edits per file) has no LSP counterpart in this shape: the edits of a
  // fix across files are compared by test/server-crossfile.test.ts.
  const f = found.fix && 'files' in found.fix ? { ...found, fix: withoutFiles(found.fix) } : found;
  // Cell places lose their .ipynb line/column too (a partial shape, compared as is).
  const related = f.related.map((r) => (r.cell === undefined ? r : (({ line: _l, column: _c, endLine: _el, endColumn: _ec, ...rest }) => rest)(r))) as JsonFinding['related'];
  if (f.cell === undefined) return { ...f, related };
  const { line: _line, column: _column, endLine: _endLine, endColumn: _endColumn, fix, ...rest } = f;
  const edits = fix?.edits.map(({ line: _l, column: _c, endLine: _el, endColumn: _ec, ...e }) => e);
  return { ...rest, related, fix: fix && { ...fix, edits: edits! } };
}

function withoutFiles(fix: NonNullable<JsonFinding['fix']> & { files?: unknown }): NonNullable<JsonFinding['fix']> {
  const { files: _files, ...rest } = fix;
  return rest;
}

const sortKey = (f: Partial<JsonFinding>) => `${f.file}:${f.cell ?? ''}:${f.cellLine ?? f.line}:${f.cellColumn ?? f.column}:${f.ruleId}:${f.message}`;

/** Findings in a stable order, in the comparable shape. */
export function sorted(list: readonly JsonFinding[]): Array<Partial<JsonFinding>> {
  return list.map(comparable).sort((a, b) => sortKey(a).localeCompare(sortKey(b)));
}
