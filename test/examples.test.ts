/**
 * The bundled examples are what a new user lints first, and reads in an editor: their findings
 * must equal examples/expected.tsv exactly (rule and range, and the range still covers the text
 * recorded there), every rule must show at least once in Python and at least once in TS/JS, the
 * `good*` files must be clean, and the TypeScript examples must type check (examples/tsconfig.json).
 * The files carry no test annotations. After a deliberate change to an example:
 * `PREFIXLINT_UPDATE_EXAMPLES=1 npx vitest run test/examples.test.ts` rewrites expected.tsv; review its diff.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Diagnostic } from '../src/core/diagnostic';
import { LineIndex } from '../src/core/span';
import { openDocument } from '../src/engine/document';
import { allRules } from '../src/rules';
import { analyzer, ROOT } from './helpers';

const EXAMPLES = path.join(ROOT, 'examples');
const EXPECTED = path.join(EXAMPLES, 'expected.tsv');
const SOURCE = /\.(py|ts|tsx|js|jsx|ipynb)$/;
const RULE_IDS = allRules.map((r) => r.meta.id);
const HEADER = ['file', 'cell', 'line', 'column', 'endLine', 'endColumn', 'rule', 'text'];
const update = process.env.PREFIXLINT_UPDATE_EXAMPLES === '1';

function files(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() && e.name !== 'node_modules' ? files(path.join(dir, e.name)) : SOURCE.test(e.name) ? [path.join(dir, e.name)] : []))
    .sort();
}

const escape = (s: string) => s.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\r/g, '\\r').replace(/\n/g, '\\n');

/** One row per finding: 1-based positions (in the cell, for a notebook) and the text of the range. */
async function rowsOf(file: string): Promise<{ rows: string[]; diagnostics: Diagnostic[]; notice?: string }> {
  const a = await analyzer();
  const raw = fs.readFileSync(file, 'utf8');
  const rel = path.relative(EXAMPLES, file).split(path.sep).join('/');
  if (file.endsWith('.ipynb')) {
    const nb = openDocument(file, raw);
    if ('notice' in nb) return { rows: [], diagnostics: [], notice: nb.notice };
    const virtual = nb.analysedText;
    const result = a.analyze(file, virtual, nb.language);
    const rows = result.diagnostics.map((d) => {
      const s = nb.locate(d.at.start).cell!;
      const e = nb.locate(d.at.end).cell!;
      return [rel, s.index, s.line + 1, s.column + 1, e.line + 1, e.column + 1, d.ruleId, escape(virtual.slice(d.at.start, d.at.end))].join('\t');
    });
    return { rows, diagnostics: result.diagnostics, notice: result.notice };
  }
  const result = a.analyze(file, raw);
  const index = new LineIndex(raw);
  const rows = result.diagnostics.map((d) => {
    const s = index.position(d.at.start);
    const e = index.position(d.at.end);
    return [rel, '', s.line + 1, s.column + 1, e.line + 1, e.column + 1, d.ruleId, escape(raw.slice(d.at.start, d.at.end))].join('\t');
  });
  return { rows, diagnostics: result.diagnostics, notice: result.notice };
}

const byPosition = (a: string, b: string) => {
  const [fa, ca, la, cola] = a.split('\t');
  const [fb, cb, lb, colb] = b.split('\t');
  return fa.localeCompare(fb) || Number(ca || 0) - Number(cb || 0) || Number(la) - Number(lb) || Number(cola) - Number(colb) || a.localeCompare(b);
};

function expectedRows(): string[] {
  const lines = fs.readFileSync(EXPECTED, 'utf8').split('\n').filter(Boolean);
  expect(lines[0]).toBe(HEADER.join('\t'));
  return lines.slice(1);
}

describe('examples', () => {
  const seen = { python: new Set<string>(), js: new Set<string>() };
  const all: string[] = [];
  const recorded = update ? [] : expectedRows();

  for (const file of files(EXAMPLES)) {
    const rel = path.relative(EXAMPLES, file).split(path.sep).join('/');
    it(rel, async () => {
      const { rows, diagnostics, notice } = await rowsOf(file);
      expect(notice).toBeUndefined();
      expect(fs.readFileSync(file, 'utf8'), 'no test annotations in what users read').not.toMatch(/(?:#|\/\/|\/\*)\s*(?:todo-expect|todo-ok|expect):/);
      all.push(...rows);
      if (!update) expect(rows.sort(byPosition)).toEqual(recorded.filter((r) => r.split('\t')[0] === rel).sort(byPosition));
      if (/^good[-_]/.test(path.basename(file))) expect(rows).toEqual([]);
      const bucket = /\.(py|ipynb)$/.test(file) ? seen.python : seen.js;
      for (const d of diagnostics) bucket.add(d.ruleId);
    });
  }

  it('expected.tsv names only files that exist', () => {
    if (update) return;
    const names = new Set(files(EXAMPLES).map((f) => path.relative(EXAMPLES, f).split(path.sep).join('/')));
    expect(recorded.map((r) => r.split('\t')[0]).filter((n) => !names.has(n))).toEqual([]);
  });

  it('show every rule in Python and in TS/JS', () => {
    for (const id of RULE_IDS) {
      expect(seen.python, `${id} in Python`).toContain(id);
      expect(seen.js, `${id} in TS/JS`).toContain(id);
    }
  });

  afterAll(() => {
    if (update) fs.writeFileSync(EXPECTED, [HEADER.join('\t'), ...all.sort(byPosition)].join('\n') + '\n');
  });
});

describe('the TypeScript examples', () => {
  it('type check with their tsconfig.json (tsc --noEmit), so an editor shows only what prefixlint finds', () => {
    const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const r = spawnSync(process.execPath, [tsc, '-p', path.join(EXAMPLES, 'tsconfig.json')], { encoding: 'utf8' });
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  }, 120_000);
});
