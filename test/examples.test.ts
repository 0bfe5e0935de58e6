/**
 * The bundled examples are what a new user lints first: their findings must equal their
 * annotations, every rule must show at least once in Python and at least once in TS/JS, and the
 * `good*` files must be clean.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LineIndex } from '../src/core/span';
import { analyzeNotebook } from '../src/lang/notebook';
import { allRules } from '../src/rules';
import { analyzer, diagnosticKey, parseExpectations, ROOT } from './helpers';

const EXAMPLES = path.join(ROOT, 'examples');
const SOURCE = /\.(py|ts|tsx|js|jsx|ipynb)$/;
const RULE_IDS = allRules.map((r) => r.meta.id);

function files(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : SOURCE.test(e.name) ? [path.join(dir, e.name)] : []))
    .sort();
}

describe('examples', () => {
  const seen = { python: new Set<string>(), js: new Set<string>() };

  for (const file of files(EXAMPLES)) {
    const rel = path.relative(EXAMPLES, file);
    it(rel, async () => {
      const a = await analyzer();
      const raw = fs.readFileSync(file, 'utf8');
      let text = raw;
      let result;
      if (file.endsWith('.ipynb')) {
        const nb = analyzeNotebook(a, file, raw);
        expect(nb.notebook, nb.result.notice).toBeDefined();
        text = nb.notebook!.virtualText;
        result = nb.result;
      } else result = a.analyze(file, raw);
      expect(result.notice).toBeUndefined();
      const index = new LineIndex(text);
      const expected = parseExpectations(text).filter((e) => e.kind === 'expect').map((e) => e.key).sort();
      const actual = result.diagnostics.map((d) => diagnosticKey(index, d)).sort();
      expect(actual).toEqual(expected);
      if (/^good[-_]/.test(path.basename(file))) expect(actual).toEqual([]);
      const bucket = /\.(py|ipynb)$/.test(file) ? seen.python : seen.js;
      for (const d of result.diagnostics) bucket.add(d.ruleId);
    });
  }

  it('show every rule in Python and in TS/JS', () => {
    for (const id of RULE_IDS) {
      expect(seen.python, `${id} in Python`).toContain(id);
      expect(seen.js, `${id} in TS/JS`).toContain(id);
    }
  });
});
