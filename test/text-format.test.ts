/**
 * The default text format (src/cli/text.ts) on findings made here: markers under one-line,
 * multi-line, zero-width and far-right ranges, tabs, notebook cells, related places, fixes, and
 * the known-names date said once per run instead of on every finding.
 */
import { describe, expect, it } from 'vitest';
import type { FileOutcome, Finding } from '../src/cli/check';
import { createColors } from '../src/cli/color';
import type { Place } from '../src/engine/document';
import { formatText, wrap } from '../src/cli/text';
import type { Severity } from '../src/core/diagnostic';

const CWD = '/work/project';
const plain = createColors(false);

function finding(start: Place, end: Place, extra: Partial<Finding> & { message?: string; ruleId?: string; severity?: Severity } = {}): Finding {
  const { message = 'Something is wrong.', ruleId = 'some-rule', severity = 'warning', ...rest } = extra;
  return {
    diagnostic: { ruleId, severity, message, at: { file: `${CWD}/app.py`, start: 0, end: 0 }, related: [] },
    start,
    end,
    related: [],
    ...rest,
  };
}

function outcome(text: string, findings: Finding[], file = `${CWD}/app.py`): FileOutcome {
  const lines = Object.fromEntries(text.split('\n').map((l, i) => [String(i), l]));
  return { file, findings, notices: [], fixed: 0, crashed: false, status: { kind: 'analysed' }, lines };
}

const at = (line: number, column: number): Place => ({ line, column });

describe('--format text', () => {
  it('marks a range inside one line, with the gutter as wide as the line number', () => {
    const text = 'a = 1\n'.repeat(99) + 'x = call(time.time())\n';
    const out = formatText([outcome(text, [finding(at(99, 9), at(99, 20), { severity: 'error' })])], CWD, plain, { unsafeFixes: false });
    expect(out).toEqual([
      'error[some-rule]: Something is wrong.',
      '   --> app.py:100:10',
      '    |',
      '100 | x = call(time.time())',
      '    |          ^^^^^^^^^^^',
      '    |',
    ]);
  });

  it('marks every line of a multi-line range from its first character; long ranges show their ends', () => {
    const text = 'system = (\n    "a"\n    "b"\n)\n';
    const [head, , , ...lines] = formatText([outcome(text, [finding(at(0, 9), at(3, 1))])], CWD, plain, { unsafeFixes: false });
    expect(head).toBe('warning[some-rule]: Something is wrong.');
    expect(lines).toEqual(['1 | system = (', '  |          ^', '2 |     "a"', '  |     ^^^', '3 |     "b"', '  |     ^^^', '4 | )', '  | ^', '  |']);
    const long = 'x = [\n' + '    1,\n'.repeat(10) + ']\n';
    const shown = formatText([outcome(long, [finding(at(0, 4), at(11, 1))])], CWD, plain, { unsafeFixes: false });
    expect(shown.filter((l) => /^\s*\d+ \|/.test(l)).map((l) => l.trim().split(' ')[0])).toEqual(['1', '2', '12']);
    expect(shown).toContain('...');
  });

  it('gives a zero-width range one marker, and a range that ends at the start of a line ends on the line before', () => {
    const text = 'a = f()\nb = 2\n';
    expect(formatText([outcome(text, [finding(at(0, 4), at(0, 4))])], CWD, plain, { unsafeFixes: false })).toContain('  |     ^');
    const out = formatText([outcome(text, [finding(at(0, 0), at(1, 0))])], CWD, plain, { unsafeFixes: false });
    expect(out.filter((l) => /^\d+ \|/.test(l))).toEqual(['1 | a = f()']);
  });

  it('expands tabs and cuts a long line around the range', () => {
    const tabbed = formatText([outcome('\tx = now()\n', [finding(at(0, 5), at(0, 10))])], CWD, plain, { unsafeFixes: false });
    expect(tabbed).toContain('1 |     x = now()');
    expect(tabbed).toContain('  |         ^^^^^');
    const filler = 'y'.repeat(150);
    const line = `value = "${filler}" + now()`;
    const col = line.indexOf('now()');
    const cut = formatText([outcome(line + '\n', [finding(at(0, col), at(0, col + 5))])], CWD, plain, { unsafeFixes: false });
    const source = cut.find((l) => l.startsWith('1 | '))!;
    const marker = cut.find((l) => l.includes('^'))!;
    expect(source.startsWith('1 | …')).toBe(true);
    expect(source.length).toBeLessThanOrEqual(100);
    expect(source.slice(marker.indexOf('^'), marker.lastIndexOf('^') + 1)).toBe('now()');
  });

  it("shows a notebook cell's own line, numbered as in the cell, and the raw position", () => {
    const cellLines = ['import json', 'prompt = json.dumps(schema)'];
    const start: Place = { line: 40, column: 20, cell: { index: 3, line: 1, column: 9 } };
    const end: Place = { line: 40, column: 38, cell: { index: 3, line: 1, column: 27 } };
    const nb: FileOutcome = {
      file: `${CWD}/nb/explore.ipynb`,
      findings: [finding(start, end)],
      notices: [],
      fixed: 0,
      crashed: false,
      status: { kind: 'analysed' },
      lines: Object.fromEntries(cellLines.map((l, i) => [`3:${i}`, l])),
    };
    expect(formatText([nb], CWD, plain, { unsafeFixes: false }).slice(1, 5)).toEqual([
      ' --> nb/explore.ipynb:41:21 (cell index 3, line 2, column 10)',
      '  |',
      '2 | prompt = json.dumps(schema)',
      '  |          ^^^^^^^^^^^^^^^^^^',
    ]);
  });

  it('says where the values come from and what the fix does, safe or unsafe', () => {
    const related = [
      { file: `${CWD}/app.py`, at: at(2, 4), end: at(2, 18), message: "`datetime.now()` is produced here" },
      { file: `${CWD}/lib/prompts.py`, at: at(7, 0), end: at(7, 6), message: "assigned here" },
    ];
    const safe = { title: 'Move the time into the user message', applicability: 'safe' as const, edits: [], fileEdits: () => [] };
    const out = formatText([outcome('x\ny\nz\n', [finding(at(0, 0), at(0, 1), { related, fix: safe, fixApplicability: 'safe' })])], CWD, plain, { unsafeFixes: false });
    expect(out.slice(-3)).toEqual([
      '  = note: line 3: `datetime.now()` is produced here',
      '  = note: lib/prompts.py:8: assigned here',
      '  = fix: Move the time into the user message (safe: applied by --fix)',
    ]);
    const hidden = formatText([outcome('x\n', [finding(at(0, 0), at(0, 1), { fixApplicability: 'unsafe' })])], CWD, plain, { unsafeFixes: false });
    expect(hidden.at(-1)).toBe('  = fix: an unsafe fix is available (--unsafe-fixes shows it)');
    const unsafe = { ...safe, applicability: 'unsafe' as const };
    const shown = formatText([outcome('x\n', [finding(at(0, 0), at(0, 1), { fix: unsafe, fixApplicability: 'unsafe' })])], CWD, plain, { unsafeFixes: true });
    expect(shown.at(-1)).toBe('  = fix: Move the time into the user message (unsafe: applied by --fix --unsafe-fixes)');
  });

  it('says the date of the known-names table once per run, not in every message', () => {
    const f = (message: string) => finding(at(0, 0), at(0, 1), { message, severity: 'error' });
    const out = formatText(
      [outcome('x\n', [f('Unknown beta `a`. The API rejects unknown betas with a 400 on every call (known names as of 2026-08-21).'), f('`b` is stale (known names as of 2026-08-21).')])],
      CWD,
      plain,
      { unsafeFixes: false },
    );
    expect(out.filter((l) => l.includes('2026-08-21'))).toHaveLength(1);
    expect(out).toContain('error[some-rule]: Unknown beta `a`. The API rejects unknown betas with a 400 on every call.');
    expect(out).toContain('error[some-rule]: `b` is stale.');
    expect(out.join(' ')).toContain("note: names of betas and types are checked against prefixlint's table of API names as of 2026-08-21; add newer ones");
  });

  it('wraps messages at spaces, keeping the indentation of the first line', () => {
    expect(wrap('  = note: ' + 'word '.repeat(30).trim(), 40, '    ')).toEqual([
      '  = note: word word word word word word',
      '    word word word word word word word',
      '    word word word word word word word',
      '    word word word word word word word',
      '    word word word',
    ]);
  });
});
