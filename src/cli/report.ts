/**
 * What `prefixlint check` prints: findings as text (ruff/eslint style) or JSON, and the summary.
 * Lines and columns are 1-based; columns count UTF-16 code units; an end column points just
 * past the last character.
 */
import * as path from 'node:path';
import type { Severity } from '../core/diagnostic';
import { SEVERITY_RANK } from '../core/diagnostic';
import { docsUrl } from '../core/rule';
import type { FileOutcome, Finding, PlacedEdit } from './check';
import type { Colors } from './color';
import type { Place } from '../engine/document';
import { toPosix } from '../host/files';

export function displayPath(file: string, cwd: string): string {
  const rel = path.relative(cwd, file);
  return toPosix(rel === '' ? path.basename(file) : rel);
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

const SEVERITY_COLOR: Record<Severity, keyof Pick<Colors, 'red' | 'yellow' | 'cyan'>> = {
  error: 'red',
  warning: 'yellow',
  info: 'cyan',
};

function cellSuffix(p: Place): string {
  return p.cell ? ` (cell index ${p.cell.index}, line ${p.cell.line + 1})` : '';
}

/** One line per finding, e.g. `src/app.py:12:5: volatile-system-prompt [*] The system prompt ...`. */
export function formatFindings(outcomes: readonly FileOutcome[], cwd: string, c: Colors): string[] {
  const lines: string[] = [];
  for (const o of outcomes) {
    if (!o.findings.length) continue;
    const file = displayPath(o.file, cwd);
    for (const f of o.findings) {
      const d = f.diagnostic;
      const where = `${c.bold(file)}${c.dim(`:${f.start.line + 1}:${f.start.column + 1}:`)}`;
      const id = c[SEVERITY_COLOR[d.severity]](c.bold(d.ruleId));
      const marker = f.fix ? ` ${c.cyan('[*]')}` : '';
      lines.push(`${where} ${id}${marker} ${d.message}${c.dim(cellSuffix(f.start))}`);
    }
  }
  return lines;
}

export interface Totals {
  problems: number;
  bySeverity: Record<Severity, number>;
  files: number;
  /** Findings with a safe fix (`--fix` applies it). */
  safeFixes: number;
  /** Findings with an unsafe fix (`--fix --unsafe-fixes` applies it). */
  unsafeFixes: number;
  fixed: number;
  fixedFiles: number;
  /** Files checked (found and attempted). */
  checked: number;
  /** Files not analysed at all, by reason (`an internal error`, `binary file`, ...). */
  notAnalysed: Map<string, number>;
  /** Files analysed only in part, by reason (`syntax errors`, `an analysis limit`). */
  partial: Map<string, number>;
}

export function totals(outcomes: readonly FileOutcome[]): Totals {
  const t: Totals = { problems: 0, bySeverity: { error: 0, warning: 0, info: 0 }, files: 0, safeFixes: 0, unsafeFixes: 0, fixed: 0, fixedFiles: 0, checked: outcomes.length, notAnalysed: new Map(), partial: new Map() };
  const count = (m: Map<string, number>, reason: string) => m.set(reason, (m.get(reason) ?? 0) + 1);
  for (const o of outcomes) {
    if (o.status.kind === 'failed' || o.status.kind === 'skipped') count(t.notAnalysed, o.status.reason);
    else if (o.status.kind === 'partial') count(t.partial, o.status.reason);
    if (o.findings.length) t.files++;
    if (o.fixed) {
      t.fixed += o.fixed;
      t.fixedFiles++;
    }
    for (const f of o.findings) {
      t.problems++;
      t.bySeverity[f.diagnostic.severity]++;
      if (f.fixApplicability === 'safe') t.safeFixes++;
      if (f.fixApplicability === 'unsafe') t.unsafeFixes++;
    }
  }
  return t;
}

/** `3 files (internal error: 2, binary file: 1)`: counts by reason, most first. */
function byReason(m: Map<string, number>): string {
  const total = [...m.values()].reduce((a, b) => a + b, 0);
  const parts = [...m].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([reason, n]) => `${reason}: ${n}`);
  return `${plural(total, 'file')} (${parts.join(', ')})`;
}

/**
 * The last lines of a text report. "All checks passed." only when every file was analysed
 * whole and nothing was found; files that could not be analysed, or only in part, are always
 * counted with their reasons, so a clean-looking run never hides them.
 */
export function formatSummary(t: Totals, c: Colors): string[] {
  const lines: string[] = [];
  if (t.fixed) lines.push(c.green(`Fixed ${plural(t.fixed, 'problem')} in ${plural(t.fixedFiles, 'file')}.`));
  const incomplete = t.notAnalysed.size > 0 || t.partial.size > 0;
  const analysed = t.checked - [...t.notAnalysed.values()].reduce((a, b) => a + b, 0);
  if (t.problems === 0) {
    if (!incomplete) lines.push(c.green('All checks passed.'));
    else if (analysed > 0) lines.push(c.bold(`No problems found in the ${plural(analysed, 'file')} analysed.`));
  } else {
    const s = t.bySeverity;
    let line = `Found ${plural(t.problems, 'problem')} (${plural(s.error, 'error')}, ${plural(s.warning, 'warning')}, ${plural(s.info, 'info')}) in ${plural(t.files, 'file')}.`;
    if (t.safeFixes) line += ` ${t.safeFixes} fixable with --fix.`;
    if (t.unsafeFixes) line += ` ${t.unsafeFixes} ${t.safeFixes ? 'more ' : ''}fixable with --fix --unsafe-fixes.`;
    lines.push(c.bold(line));
  }
  if (t.notAnalysed.size) lines.push(c.yellow(`Not analysed: ${byReason(t.notAnalysed)}.`));
  if (t.partial.size) lines.push(c.yellow(`Analysed only in part: ${byReason(t.partial)}.`));
  return lines;
}

// ---------------------------------------------------------------------------------------------
// JSON
// ---------------------------------------------------------------------------------------------

/** A range in the file (1-based), and for notebooks in the cell as well. */
export interface JsonRange {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  cell?: number;
  cellLine?: number;
  cellColumn?: number;
  cellEndLine?: number;
  cellEndColumn?: number;
}

export interface JsonEdit extends JsonRange {
  newText: string;
}

/** Another place a finding is about: where a value comes from, the request that sends it. */
export interface JsonRelated extends JsonRange {
  file: string;
  message: string;
}

export interface JsonFinding extends JsonRange {
  ruleId: string;
  severity: Severity;
  file: string;
  message: string;
  url: string;
  /** `edits` are in this finding's file; `files` lists every file the fix changes with its edits (it is applied to all of them or none). */
  fix: null | { title: string; applicability: 'safe' | 'unsafe'; edits: JsonEdit[]; files: Array<{ file: string; edits: JsonEdit[] }> };
  related: JsonRelated[];
}

/** Positions of a range: in the file, and for notebooks in the cell (the end clamped to the start's cell). */
function rangeFields(start: Place, end: Place) {
  const fields = { line: start.line + 1, column: start.column + 1, endLine: end.line + 1, endColumn: end.column + 1 };
  if (!start.cell) return fields;
  const sameCell = end.cell && end.cell.index === start.cell.index;
  return {
    ...fields,
    cell: start.cell.index,
    cellLine: start.cell.line + 1,
    cellColumn: start.cell.column + 1,
    cellEndLine: (sameCell ? end.cell!.line : start.cell.line) + 1,
    cellEndColumn: (sameCell ? end.cell!.column : start.cell.column) + 1,
  };
}

function jsonEdit(e: PlacedEdit): JsonEdit {
  return { ...rangeFields(e.start, e.end), newText: e.newText };
}

export function toJson(outcomes: readonly FileOutcome[], cwd: string): JsonFinding[] {
  const out: JsonFinding[] = [];
  for (const o of outcomes) {
    // (Most files have none: their path is not made relative, which took ~20 MB of allocation on a 20,000-file run.)
    if (!o.findings.length) continue;
    const file = displayPath(o.file, cwd);
    for (const f of o.findings) out.push(jsonFinding(f, file, cwd));
  }
  return out;
}

function jsonFinding(f: Finding, file: string, cwd: string): JsonFinding {
  const d = f.diagnostic;
  const { line, column, endLine, endColumn, ...cell } = rangeFields(f.start, f.end);
  return {
    ruleId: d.ruleId,
    severity: d.severity,
    file,
    line,
    column,
    endLine,
    endColumn,
    message: d.message,
    url: docsUrl(d.ruleId),
    fix: f.fix
      ? {
          title: f.fix.title,
          applicability: f.fix.applicability,
          edits: f.fix.edits.map(jsonEdit),
          files: [
            ...(f.fix.edits.length ? [{ file, edits: f.fix.edits.map(jsonEdit) }] : []),
            ...(f.fix.otherFiles ?? []).map((p) => ({ file: displayPath(p.file, cwd), edits: p.edits.map(jsonEdit) })),
          ],
        }
      : null,
    related: f.related.map((r) => ({ file: displayPath(r.file, cwd), ...rangeFields(r.at, r.end), message: r.message })),
    ...cell,
  };
}

// ---------------------------------------------------------------------------------------------
// --statistics
// ---------------------------------------------------------------------------------------------

export interface RuleStatistics {
  ruleId: string;
  /** The highest severity among its findings. */
  severity: Severity;
  count: number;
  /** Findings with a safe fix (`--fix` applies it). */
  fixable: number;
}

/** Findings counted per rule, most frequent first. */
export function statistics(outcomes: readonly FileOutcome[]): RuleStatistics[] {
  const byRule = new Map<string, RuleStatistics>();
  for (const o of outcomes) {
    for (const f of o.findings) {
      const d = f.diagnostic;
      const s = byRule.get(d.ruleId) ?? { ruleId: d.ruleId, severity: d.severity, count: 0, fixable: 0 };
      s.count++;
      if (f.fixApplicability === 'safe') s.fixable++;
      if (SEVERITY_RANK[d.severity] > SEVERITY_RANK[s.severity]) s.severity = d.severity;
      byRule.set(d.ruleId, s);
    }
  }
  return [...byRule.values()].sort((a, b) => b.count - a.count || a.ruleId.localeCompare(b.ruleId));
}

/** `  3  volatile-system-prompt  error    2 fixable`, one line per rule. */
export function formatStatistics(stats: readonly RuleStatistics[], c: Colors): string[] {
  const countWidth = Math.max(0, ...stats.map((s) => String(s.count).length));
  const idWidth = Math.max(0, ...stats.map((s) => s.ruleId.length));
  return stats.map((s) => {
    const fixable = s.fixable ? `  ${c.cyan(`${s.fixable} fixable`)}` : '';
    return `${String(s.count).padStart(countWidth)}  ${c[SEVERITY_COLOR[s.severity]](s.ruleId.padEnd(idWidth))}  ${s.severity.padEnd(7)}${fixable}`.trimEnd();
  });
}
