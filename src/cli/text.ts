/**
 * `--format text` (the default): each finding as a short block in the manner of ruff and rustc,
 *
 *   error[volatile-system-prompt]: The system prompt includes the current time (`datetime.now()`),
 *     which changes on every call; the cached prefix is rewritten each time and never read.
 *     --> app.py:12:45
 *      |
 *   12 |         system=f"You are a helpful assistant. Current time: {datetime.now()}",
 *      |                                                              ^^^^^^^^^^^^^^
 *      |
 *      = fix: Move the time into the newest user turn (safe: applied by --fix)
 *
 * with the severity always written out, the message wrapped, the source line(s) with a marker
 * under the range, where the values come from, and the fix. Text that many messages repeat (the
 * date of the known-names table) is said once, after the findings. `--format concise` keeps the
 * one-line form (report.ts).
 */
import type { Severity } from '../core/diagnostic';
import { lineKey } from './check';
import type { FileOutcome, Finding } from './check';
import type { Colors } from './color';
import type { Place } from '../engine/document';
import { displayPath } from './report';

/** Messages are wrapped to this many characters; source lines are cut around the range to it. */
const WIDTH = 100;
const TAB = '    ';
/** A range over more lines than this shows its first and last lines only. */
const MAX_SNIPPET_LINES = 4;

const SEVERITY_COLOR: Record<Severity, keyof Pick<Colors, 'red' | 'yellow' | 'cyan'>> = { error: 'red', warning: 'yellow', info: 'cyan' };

/** The known-names parenthetical that unknown/stale name findings end with. */
const KNOWN_NAMES_NOTE = /\s*\(known names as of ([^)]+)\)/;

export interface TextOptions {
  /** Unsafe fixes are shown (`--unsafe-fixes`). */
  unsafeFixes: boolean;
}

export function formatText(outcomes: readonly FileOutcome[], cwd: string, c: Colors, opts: TextOptions): string[] {
  const blocks: string[][] = [];
  const knownAsOf = new Set<string>();
  for (const o of outcomes) {
    for (const f of o.findings) {
      let message = f.diagnostic.message;
      const note = KNOWN_NAMES_NOTE.exec(message);
      if (note) {
        knownAsOf.add(note[1]);
        message = message.replace(KNOWN_NAMES_NOTE, '');
      }
      blocks.push(findingBlock(o, f, message, cwd, c, opts));
    }
  }
  const lines = blocks.flatMap((b, i) => (i ? ['', ...b] : b));
  if (knownAsOf.size) {
    lines.push(
      '',
      ...wrap(
        `${c.bold('note')}: names of betas and types are checked against prefixlint's table of API names as of ${[...knownAsOf].sort().join(', ')}; add newer ones under "known" in the configuration.`,
        WIDTH,
        '',
      ),
    );
  }
  return lines;
}

function findingBlock(o: FileOutcome, f: Finding, message: string, cwd: string, c: Colors, opts: TextOptions): string[] {
  const d = f.diagnostic;
  const color = c[SEVERITY_COLOR[d.severity]];
  const out = wrap(`${color(c.bold(d.severity))}${c.bold(`[${d.ruleId}]`)}: ${message}`, WIDTH, '  ');
  const lineNumbers = [f.start.cell ? f.start.cell.line : f.start.line, f.end.cell ? f.end.cell.line : f.end.line];
  const gutter = String(Math.max(...lineNumbers) + 1).length;
  const pad = ' '.repeat(gutter);
  const bar = c.dim('|');
  out.push(`${pad}${c.dim('-->')} ${location(o.file, f.start, cwd)}`);
  const snippet = o.lines ? snippetLines(o, f) : [];
  if (snippet.length) {
    out.push(`${pad} ${bar}`);
    for (const s of snippet) {
      if (s.gap) {
        out.push(`${c.dim('...')}`);
        continue;
      }
      out.push(`${c.dim(String(s.number).padStart(gutter))} ${bar} ${s.text}`.trimEnd());
      if (s.marker) out.push(`${pad} ${bar} ${' '.repeat(s.marker.from)}${color('^'.repeat(s.marker.width))}`);
    }
    out.push(`${pad} ${bar}`);
  }
  for (const r of f.related) out.push(...wrap(`${pad} ${c.dim('=')} ${c.bold('note')}: ${relatedPlace(o.file, r, cwd)}: ${r.message}`, WIDTH, `${pad}   `));
  const fix = fixLine(f, opts);
  if (fix) out.push(...wrap(`${pad} ${c.dim('=')} ${c.bold('fix')}: ${fix}`, WIDTH, `${pad}   `));
  return out;
}

function location(file: string, p: Place, cwd: string): string {
  const at = `${displayPath(file, cwd)}:${p.line + 1}:${p.column + 1}`;
  return p.cell ? `${at} (cell index ${p.cell.index}, line ${p.cell.line + 1}, column ${p.cell.column + 1})` : at;
}

function relatedPlace(file: string, r: Finding['related'][number], cwd: string): string {
  if (r.file !== file) return `${displayPath(r.file, cwd)}:${r.at.line + 1}`;
  return r.at.cell ? `cell index ${r.at.cell.index}, line ${r.at.cell.line + 1}` : `line ${r.at.line + 1}`;
}

function fixLine(f: Finding, opts: TextOptions): string | undefined {
  if (f.fix) {
    const others = (f.fix.otherFiles ?? []).map((p) => p.file.replace(/\\/g, '/').split('/').pop());
    const also = others.length ? `; it edits ${others.join(', ')} too` : '';
    return `${f.fix.title} (${f.fix.applicability === 'safe' ? 'safe: applied by --fix' : 'unsafe: applied by --fix --unsafe-fixes'}${also})`;
  }
  if (f.fixApplicability === 'unsafe' && !opts.unsafeFixes) return 'an unsafe fix is available (--unsafe-fixes shows it)';
  return undefined;
}

interface SnippetLine {
  number: number;
  text: string;
  marker?: { from: number; width: number };
  gap?: boolean;
}

/** The lines of a finding's range with markers, as the user reads them (a notebook: the cell's lines). */
function snippetLines(o: FileOutcome, f: Finding): SnippetLine[] {
  const cellOf = (p: Place) => (p.cell ? { line: p.cell.line, column: p.cell.column } : { line: p.line, column: p.column });
  const start = cellOf(f.start);
  let end = cellOf(f.end);
  // A range ends in the start's cell; one that ends at the start of a line ends on the line before.
  if (f.start.cell && (!f.end.cell || f.end.cell.index !== f.start.cell.index)) end = { line: start.line, column: Number.MAX_SAFE_INTEGER };
  const text = (line: number) => o.lines?.[lineKey(f.start.cell ? { line, column: 0, cell: { index: f.start.cell.index, line, column: 0 } } : { line, column: 0 })] ?? '';
  if (end.line > start.line && end.column === 0) end = { line: end.line - 1, column: Number.MAX_SAFE_INTEGER };
  const numbers: number[] = [];
  for (let l = start.line; l <= end.line; l++) numbers.push(l);
  const shown = numbers.length > MAX_SNIPPET_LINES ? [...numbers.slice(0, 2), -1, ...numbers.slice(-1)] : numbers;
  return shown.map((line) => {
    if (line < 0) return { number: 0, text: '', gap: true };
    const raw = text(line);
    const from = line === start.line ? start.column : raw.length - raw.trimStart().length;
    const to = line === end.line ? Math.min(end.column, raw.length) : raw.length;
    return { number: line + 1, ...display(raw, from, Math.max(from, to)) };
  });
}

/** A source line for the terminal: tabs expanded, cut to WIDTH around the marked range. */
function display(raw: string, from: number, to: number): { text: string; marker: { from: number; width: number } } {
  const expand = (s: string) => s.replace(/\t/g, TAB);
  // Columns count UTF-16 units; the terminal shows code points.
  const width = (s: string) => [...expand(s)].length;
  let text = expand(raw);
  let markFrom = width(raw.slice(0, from));
  let markWidth = Math.max(1, width(raw.slice(from, to)));
  const room = WIDTH - 8;
  if (markFrom + markWidth > room && text.length > room) {
    const cut = Math.max(0, Math.min(markFrom - 20, [...text].length - room));
    text = '…' + [...text].slice(cut + 1).join('');
    markFrom -= cut;
  }
  if ([...text].length > room) text = [...text].slice(0, room - 1).join('') + '…';
  markWidth = Math.max(1, Math.min(markWidth, [...text].length - markFrom));
  return { text, marker: { from: markFrom, width: markWidth } };
}

/** Wraps at spaces to `width` visible characters; continuation lines start with `indent`. */
export function wrap(text: string, width: number, indent: string): string[] {
  // eslint-disable-next-line no-control-regex
  const visible = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, '').length;
  const lead = /^ */.exec(text)![0];
  const words = text.slice(lead.length).split(' ');
  const lines: string[] = [];
  let line = lead + words[0];
  for (const w of words.slice(1)) {
    if (visible(line) + 1 + visible(w) > width && line.trim()) {
      lines.push(line);
      line = indent + w;
    } else line = `${line} ${w}`;
  }
  lines.push(line);
  return lines;
}
