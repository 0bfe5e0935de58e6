/**
 * Suppression comments: which findings they silence, and which of them silence nothing.
 *
 * The language front end (lang/comments.ts) finds the comments and parses them into
 * directives; this module is pure text logic. A directive names rules and has a scope:
 *
 *   line       the findings that start on the comment's line
 *   next-line  the findings that start on the next line that is not only suppression comments
 *              (so stacked comments above one line all apply to it)
 *
 * A finding inside a string or template literal that spans lines (where no comment can go)
 * counts as starting on the literal's first line for a next-line directive, and on its first
 * or last line for a same-line one.
 *   file       every finding of the file
 *
 * A name of a rule that did not run is not judged (it may run with another selection). Every
 * other name that silences nothing, an unknown name, a rule group, a repeated name and a
 * malformed comment become problems; each comes with the edit that removes what is useless.
 */
import type { Diagnostic, Severity } from './diagnostic';
import { closeNames } from './knownNames';
import type { LanguageId } from './model';
import { RULE_GROUPS } from './rule';
import type { Rule } from './rule';
import { LineIndex } from './span';
import type { TextEdit } from './span';

export type SuppressionScope = 'line' | 'next-line' | 'file';

export interface Range {
  start: number;
  end: number;
}

export interface SuppressionName extends Range {
  name: string;
}

export interface SuppressionDirective {
  scope: SuppressionScope;
  /**
   * What the directive occupies in the text: the comment (or the part of a Python comment that
   * is the directive, when another comment shares the line), or a JSX `{/* ... *\/}` container.
   */
  unit: Range;
  /** The text of the directive, for messages. */
  text: string;
  names: SuppressionName[];
  /** The range of the name list, replaced when only some names go. */
  list: Range;
  /** How names are joined when the list is rewritten. */
  separator: string;
  reason?: string;
  /** Set when the comment looks like a suppression but does not parse: what is wrong. */
  malformed?: string;
  /** With `malformed`: the form the language's suppression comments take, for the message. */
  expected?: string;
}

export type SuppressionProblem =
  | { kind: 'unused'; directive: SuppressionDirective; names: SuppressionName[]; at: Range; fix: TextEdit[] }
  | { kind: 'unknown'; directive: SuppressionDirective; name: SuppressionName; isGroup: boolean; at: Range; fix: TextEdit[] }
  | { kind: 'duplicate'; directive: SuppressionDirective; name: SuppressionName; at: Range; fix: TextEdit[] }
  | { kind: 'malformed'; directive: SuppressionDirective; at: Range };

export interface SuppressionOptions {
  /** Rules that ran on the file: only their names are judged. */
  ran: ReadonlySet<string>;
  /** Every rule id there is. */
  ruleIds: ReadonlySet<string>;
  /** Rule group names (a suppression names rules, not groups). */
  groups: ReadonlySet<string>;
  /**
   * The range a finding starting at `offset` is anchored to: a multi-line string around it, whose
   * first line a next-line directive and last line a same-line directive must name. By default
   * the finding's start.
   */
  anchor?(offset: number): Range;
}

export interface SuppressionResult {
  /** The findings that no directive silences. */
  kept: Diagnostic[];
  /** How many findings were silenced. */
  suppressed: number;
  problems: SuppressionProblem[];
  /**
   * Whether a finding of `ruleId` starting at `offset` is silenced; for findings made after the
   * pass (the unused-suppression findings themselves). Such a directive is never reported.
   */
  silences(ruleId: string, offset: number): boolean;
}

export function applySuppressions(text: string, directives: readonly SuppressionDirective[], diagnostics: readonly Diagnostic[], opts: SuppressionOptions): SuppressionResult {
  const lines = new LineIndex(text);
  const targets = directives.map((d) => targetLine(d, directives, lines));
  const used = directives.map(() => new Set<string>());

  const matching = (ruleId: string, offset: number): number[] => {
    const at = opts.anchor?.(offset) ?? { start: offset, end: offset };
    const first = lines.position(at.start).line;
    const last = lines.position(at.end).line;
    const found: number[] = [];
    directives.forEach((d, i) => {
      if (d.malformed || !d.names.some((n) => n.name === ruleId)) return;
      if (d.scope === 'file' || (d.scope === 'next-line' && targets[i] === first) || (d.scope === 'line' && (targets[i] === first || targets[i] === last))) found.push(i);
    });
    return found;
  };

  const kept: Diagnostic[] = [];
  let suppressed = 0;
  for (const diag of diagnostics) {
    const by = matching(diag.ruleId, diag.at.start);
    if (by.length === 0) {
      kept.push(diag);
      continue;
    }
    suppressed++;
    for (const i of by) used[i].add(diag.ruleId);
  }

  const problems: SuppressionProblem[] = [];
  directives.forEach((d, i) => {
    if (d.malformed) {
      problems.push({ kind: 'malformed', directive: d, at: d.unit });
      return;
    }
    const seen = new Set<string>();
    const useless: Array<{ name: SuppressionName; kind: 'unused' | 'unknown' | 'duplicate' }> = [];
    for (const n of d.names) {
      if (seen.has(n.name)) useless.push({ name: n, kind: 'duplicate' });
      else if (!opts.ruleIds.has(n.name)) useless.push({ name: n, kind: 'unknown' });
      else if (opts.ran.has(n.name) && !used[i].has(n.name) && !SELF.has(n.name)) useless.push({ name: n, kind: 'unused' });
      seen.add(n.name);
    }
    if (useless.length === 0) return;
    const remaining = d.names.filter((n) => !useless.some((u) => u.name === n));
    const fix = remaining.length ? [{ start: d.list.start, end: d.list.end, newText: remaining.map((n) => n.name).join(d.separator) }] : removeUnit(text, d.unit);
    const whole = remaining.length === 0;
    const unused = useless.filter((u) => u.kind === 'unused').map((u) => u.name);
    if (unused.length) problems.push({ kind: 'unused', directive: d, names: unused, at: whole && useless.length === unused.length ? d.unit : span(unused), fix });
    for (const u of useless) {
      if (u.kind === 'unknown') problems.push({ kind: 'unknown', directive: d, name: u.name, isGroup: opts.groups.has(u.name.name), at: u.name, fix });
      if (u.kind === 'duplicate') problems.push({ kind: 'duplicate', directive: d, name: u.name, at: u.name, fix });
    }
  });
  problems.sort((a, b) => a.at.start - b.at.start);

  return {
    kept,
    suppressed,
    problems,
    silences: (ruleId, offset) => matching(ruleId, offset).length > 0,
  };
}

/** The rule whose findings are the suppression problems. */
export const UNUSED_SUPPRESSION = 'unused-suppression';

/** Names that are never reported as unused: a suppression of the unused-suppression finding itself. */
const SELF = new Set([UNUSED_SUPPRESSION]);

function span(names: readonly Range[]): Range {
  return { start: Math.min(...names.map((n) => n.start)), end: Math.max(...names.map((n) => n.end)) };
}

/** The 0-based line a directive applies to (-1 for a file directive). */
function targetLine(d: SuppressionDirective, all: readonly SuppressionDirective[], lines: LineIndex): number {
  if (d.scope === 'file') return -1;
  const own = lines.position(d.unit.start).line;
  if (d.scope === 'line') return own;
  let line = lines.position(d.unit.end).line + 1;
  while (line < lines.lineCount && onlySuppressions(line, all, lines)) line++;
  return line;
}

/** True when a line holds nothing but suppression directives (and white space). */
function onlySuppressions(line: number, all: readonly SuppressionDirective[], lines: LineIndex): boolean {
  const start = lines.lineStart(line);
  let rest = lines.lineText(line);
  const units = all.filter((d) => d.unit.start >= start && d.unit.start < start + rest.length).sort((a, b) => b.unit.start - a.unit.start);
  if (units.length === 0) return false;
  for (const d of units) rest = rest.slice(0, d.unit.start - start) + rest.slice(Math.min(d.unit.end - start, rest.length));
  return rest.trim() === '';
}

/**
 * The edit that removes a directive: the whole line when the directive is all there is on it,
 * else the directive and the white space that separates it from the code.
 */
export function removeUnit(text: string, unit: Range): TextEdit[] {
  let lineStart = unit.start;
  while (lineStart > 0 && text[lineStart - 1] !== '\n' && text[lineStart - 1] !== '\r') lineStart--;
  let lineEnd = unit.end;
  while (lineEnd < text.length && text[lineEnd] !== '\n' && text[lineEnd] !== '\r') lineEnd++;
  const before = text.slice(lineStart, unit.start);
  const after = text.slice(unit.end, lineEnd);
  if (before.trim() === '' && after.trim() === '') {
    // The line and its line break; the last line of the text takes the break before it instead.
    let next = lineEnd;
    if (text[next] === '\r' && text[next + 1] === '\n') next += 2;
    else if (next < text.length) next += 1;
    if (next > lineEnd || lineStart === 0) return [{ start: lineStart, end: next, newText: '' }];
    let prev = lineStart - 1;
    if (text[prev] === '\n' && text[prev - 1] === '\r') prev--;
    return [{ start: prev, end: lineEnd, newText: '' }];
  }
  if (after.trim() === '') {
    // A trailing directive: also the white space between the code and it.
    let start = unit.start;
    while (start > lineStart && (text[start - 1] === ' ' || text[start - 1] === '\t')) start--;
    return [{ start, end: lineEnd, newText: '' }];
  }
  // Code (or another comment) follows: the directive and the white space after it.
  let end = unit.end;
  while (end < lineEnd && (text[end] === ' ' || text[end] === '\t')) end++;
  return [{ start: unit.start, end, newText: '' }];
}

// ---------------------------------------------------------------------------------------------
// The pass over a file's findings
// ---------------------------------------------------------------------------------------------

export interface SuppressInput {
  file: string;
  language: LanguageId;
  /** The analysed text. */
  text: string;
  directives: readonly SuppressionDirective[];
  diagnostics: readonly Diagnostic[];
  /** The rules that ran on the file. */
  ran: readonly Rule[];
  /** Every rule there is. */
  all: readonly Rule[];
  /** The severity a finding of a rule is reported with (configuration overrides). */
  level(ruleId: string, severity: Severity): Severity;
  /** See SuppressionOptions.anchor. */
  anchor?(offset: number): { start: number; end: number };
}

/**
 * The suppression pass, after every rule has run: drops the findings that suppression comments
 * silence and, when the unused-suppression rule ran, adds a finding of it for each suppression
 * problem (unless a suppression of `unused-suppression` silences it). The rule's file holds its
 * metadata and docs; its findings can only come from here, once it is known what each comment
 * silenced.
 */
export function suppressFindings(input: SuppressInput): Diagnostic[] {
  if (input.directives.length === 0) return [...input.diagnostics];
  const ruleIds = new Set(input.all.map((r) => r.meta.id));
  const result = applySuppressions(input.text, input.directives, input.diagnostics, {
    ran: new Set(input.ran.map((r) => r.meta.id)),
    ruleIds,
    groups: new Set<string>(RULE_GROUPS),
    anchor: input.anchor,
  });
  const rule = input.ran.find((r) => r.meta.id === UNUSED_SUPPRESSION);
  if (!rule) return result.kept;
  const severity = input.level(rule.meta.id, rule.meta.severity);
  const out = [...result.kept];
  for (const p of result.problems) {
    if (result.silences(rule.meta.id, p.at.start)) continue;
    out.push({
      ruleId: rule.meta.id,
      severity,
      message: message(p, ruleIds),
      at: { file: input.file, start: p.at.start, end: p.at.end },
      fix: p.kind === 'malformed' ? undefined : { title: fixTitle(p), applicability: 'safe', edits: p.fix },
      related: [],
    });
  }
  return out;
}

const WHERE = { line: 'on this line', 'next-line': 'on the next line', file: 'in this file' } as const;

function quoteList(names: readonly string[]): string {
  return names.map((n) => `\`${n}\``).join(', ');
}

function message(p: SuppressionProblem, ruleIds: ReadonlySet<string>): string {
  switch (p.kind) {
    case 'unused': {
      const ids = p.names.map((n) => n.name);
      return `Unused suppression: no ${quoteList(ids)} finding ${WHERE[p.directive.scope]} to silence.`;
    }
    case 'unknown': {
      const name = p.name.name;
      if (p.isGroup) return `\`${name}\` is a rule group; a suppression names rules (\`prefixlint rules\` lists them), so this one silences nothing.`;
      const close = closeNames(name, ruleIds, Math.max(2, Math.floor(name.length / 3)));
      const hint = close.length ? ` (did you mean \`${close[0]}\`?)` : '';
      return `Unknown rule \`${name}\` in a suppression${hint}: it silences nothing.`;
    }
    case 'duplicate':
      return `\`${p.name.name}\` is named twice in this suppression.`;
    case 'malformed':
      return `Malformed suppression comment: ${p.directive.malformed}.${p.directive.expected ? ` Expected ${p.directive.expected}.` : ''}`;
  }
}

function fixTitle(p: Exclude<SuppressionProblem, { kind: 'malformed' }>): string {
  const kept = p.fix.length === 1 ? p.fix[0].newText : '';
  return kept ? `Keep only ${quoteList(kept.split(/\s*,\s*/))} in the suppression` : 'Remove the suppression comment';
}
