/**
 * A baseline for adopting prefixlint on an existing code base, shaped like ESLint's bulk
 * suppressions (eslint-suppressions.json): the findings of today, counted per file and rule,
 *
 *   { "src/agent.py": { "volatile-system-prompt": { "count": 2 } } }
 *
 * with paths relative to the baseline file's folder. Counts instead of positions, so that
 * edits around a recorded finding do not bring it back. A later run hides a file's findings of a
 * rule while there are no more of them than recorded; when there are more, all of them are shown
 * (any of them may be the new one). When there are fewer, the freed count could hide a new
 * finding later, so the run says so and fails until the baseline is written again.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FileOutcome } from './check';
import { toPosix } from '../host/files';

export const DEFAULT_BASELINE = 'prefixlint-baseline.json';

export type Baseline = Record<string, Record<string, { count: number }>>;

export class BaselineError extends Error {}

export function readBaseline(file: string): Baseline {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new BaselineError(code === 'ENOENT' ? 'no such file (prefixlint check --write-baseline writes it)' : `cannot read it (${code ?? String(err)})`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new BaselineError(`not valid JSON (${err instanceof Error ? err.message : String(err)})`);
  }
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!isObject(data)) throw new BaselineError('expected an object of files');
  for (const [file, rules] of Object.entries(data)) {
    if (!isObject(rules)) throw new BaselineError(`${file}: expected an object of rules`);
    for (const [rule, entry] of Object.entries(rules)) {
      if (!isObject(entry) || !Number.isInteger(entry.count) || (entry.count as number) < 0) throw new BaselineError(`${file}: ${rule}: expected {"count": <whole number>}`);
    }
  }
  return data as Baseline;
}

function key(file: string, baselineDir: string): string {
  return toPosix(path.relative(baselineDir, file));
}

export interface BaselineResult {
  /** Findings hidden because the baseline records them. */
  hidden: number;
  /** One line each: a file and rule with more findings than recorded (all of them are shown). */
  grown: string[];
  /** One line each: a file and rule with fewer findings than recorded: the baseline should be written again. */
  shrunk: string[];
}

/**
 * Removes the recorded findings from the outcomes (in place). Only files of this run are
 * compared, so a run over part of the tree judges only that part.
 */
export function applyBaseline(outcomes: FileOutcome[], baseline: Baseline, baselineDir: string): BaselineResult {
  const result: BaselineResult = { hidden: 0, grown: [], shrunk: [] };
  for (const o of outcomes) {
    const name = key(o.file, baselineDir);
    const recorded = baseline[name] ?? {};
    const counts = new Map<string, number>();
    for (const f of o.findings) counts.set(f.diagnostic.ruleId, (counts.get(f.diagnostic.ruleId) ?? 0) + 1);
    const hide = new Set<string>();
    for (const [rule, n] of counts) {
      const allowed = recorded[rule]?.count ?? 0;
      if (n <= allowed) {
        hide.add(rule);
        result.hidden += n;
        if (n < allowed) result.shrunk.push(`${name}: ${rule}: ${n} of ${allowed} recorded`);
      } else if (allowed > 0) result.grown.push(`${name}: ${rule}: ${n} findings, ${allowed} recorded: all are shown`);
    }
    // A file that could not be analysed says nothing about its recorded findings.
    if (o.status.kind === 'analysed' || o.status.kind === 'partial') for (const [rule, entry] of Object.entries(recorded)) if (!counts.has(rule) && entry.count > 0) result.shrunk.push(`${name}: ${rule}: 0 of ${entry.count} recorded`);
    o.findings = o.findings.filter((f) => !hide.has(f.diagnostic.ruleId));
  }
  return result;
}

/**
 * The baseline after this run: the findings of every file in it (files without findings drop
 * out), and the entries of other files kept as they were unless the file no longer exists.
 */
export function updatedBaseline(previous: Baseline, outcomes: readonly FileOutcome[], baselineDir: string): Baseline {
  const next: Baseline = {};
  const checked = new Set(outcomes.map((o) => key(o.file, baselineDir)));
  for (const [file, rules] of Object.entries(previous)) if (!checked.has(file) && fs.existsSync(path.resolve(baselineDir, file))) next[file] = rules;
  for (const o of outcomes) {
    if (!o.findings.length) continue;
    const rules: Record<string, { count: number }> = (next[key(o.file, baselineDir)] = {});
    for (const f of o.findings) rules[f.diagnostic.ruleId] = { count: (rules[f.diagnostic.ruleId]?.count ?? 0) + 1 };
  }
  return next;
}

/** Sorted keys, so that the file changes only where the findings do. */
export function serializeBaseline(b: Baseline): string {
  const sorted: Baseline = {};
  for (const file of Object.keys(b).sort()) {
    sorted[file] = {};
    for (const rule of Object.keys(b[file]).sort()) sorted[file][rule] = { count: b[file][rule].count };
  }
  return JSON.stringify(sorted, null, 2) + '\n';
}
