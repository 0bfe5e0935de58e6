/**
 * Rule metadata is consistent with the fixtures: ids, languages, the declared fix availability,
 * where each fixed file comes from, and the messages users read.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Diagnostic } from '../src/core/diagnostic';
import { LineIndex } from '../src/core/span';
import { allRules } from '../src/rules';
import { BETA_NAME_SHAPE, DATED_TYPE_SHAPE, loadKnownNames, modelInfo } from '../src/core/knownNames';
import { analyseFixture, analyzer, diagnosticKey, FIXTURES, parseExpectations } from './helpers';
import type { Expectation } from './helpers';

const LANGS = ['py', 'ts', 'tsx', 'js', 'ipynb'];
const BAD = /^bad(-[\w-]+)?\.(py|ts|tsx|js|jsx|mjs|ipynb)$/;

interface BadFixture {
  name: string;
  file: string;
  /** Diagnostics of every rule, by `rule@range` key. */
  diagnostics: Array<Diagnostic & { key: string }>;
  expectations: Expectation[];
}

/** Each rule's bad fixtures, analysed once. */
const analysed = new Map<string, BadFixture[]>();

beforeAll(async () => {
  const a = await analyzer();
  for (const rule of allRules) {
    const dir = path.join(FIXTURES, rule.meta.id);
    const out: BadFixture[] = [];
    for (const name of fs.readdirSync(dir).filter((n) => BAD.test(n)).sort()) {
      const file = path.join(dir, name);
      const { text, diagnostics } = analyseFixture(a, file);
      const index = new LineIndex(text);
      out.push({ name, file, diagnostics: diagnostics.map((d) => ({ ...d, key: diagnosticKey(index, d) })), expectations: parseExpectations(text) });
    }
    analysed.set(rule.meta.id, out);
  }
}, 120_000);

function fixedPath(file: string, kind: 'fixed' | 'unsafe-fixed'): string {
  const ext = path.extname(file);
  return file.slice(0, -ext.length) + `.${kind}${ext}`;
}

describe('registry', () => {
  it('ids are unique and kebab-case', () => {
    const ids = allRules.map((r) => r.meta.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z]+(-[a-z]+)*$/);
  });

  for (const rule of allRules) {
    const { id, fix } = rule.meta;
    it(`${id}: a bad and a good fixture in every language`, () => {
      const names = fs.readdirSync(path.join(FIXTURES, id));
      for (const ext of LANGS) {
        expect(names, `bad.${ext}`).toContain(`bad.${ext}`);
        if (ext !== 'ipynb') expect(names, `good.${ext}`).toContain(`good.${ext}`);
      }
    });

    it(`${id}: fix '${fix}' is what its bad fixtures show`, () => {
      const own = analysed.get(id)!.flatMap((f) => f.diagnostics.filter((d) => d.ruleId === id).map((d) => ({ ...d, fixture: f.name })));
      expect(own.length, `no finding of ${id} in its bad fixtures`).toBeGreaterThan(0);
      const fixed = own.filter((d) => d.fix);
      const unfixed = own.filter((d) => !d.fix).map((d) => `${d.fixture} ${d.key}`);
      if (fix === 'none') expect(fixed.map((d) => `${d.fixture} ${d.key}`), `${id} declares no fix`).toEqual([]);
      if (fix === 'always') expect(unfixed, `${id} declares a fix for every finding`).toEqual([]);
      if (fix === 'sometimes') {
        expect(fixed.length, `${id} declares 'sometimes' but no finding in its bad fixtures has a fix`).toBeGreaterThan(0);
        expect(unfixed.length, `${id} declares 'sometimes' but every finding in its bad fixtures has a fix: show where it has none, or declare 'always'`).toBeGreaterThan(0);
      }
    });

    it(`${id}: each fixed file in its folder comes from a fix of ${id}`, () => {
      const names = fs.readdirSync(path.join(FIXTURES, id));
      const fixedFiles = names.filter((n) => /\.(unsafe-)?fixed\./.test(n));
      if (fix === 'none') expect(fixedFiles).toEqual([]);
      const sources = new Map(analysed.get(id)!.map((f) => [f.name, f]));
      for (const name of fixedFiles) {
        const source = sources.get(name.replace(/\.(unsafe-)?fixed\./, '.'));
        expect(source, `${name} has no bad fixture of its own`).toBeDefined();
        const applicability = /\.unsafe-fixed\./.test(name) ? 'unsafe' : 'safe';
        const own = source!.diagnostics.filter((d) => d.ruleId === id && d.fix?.applicability === applicability);
        expect(own.length, `${name}: no ${applicability} fix of ${id} in ${source!.name} (the file belongs in the folder of the rule whose fix makes it)`).toBeGreaterThan(0);
      }
      for (const f of analysed.get(id)!) {
        for (const applicability of ['safe', 'unsafe'] as const) {
          const own = f.diagnostics.some((d) => d.ruleId === id && d.fix?.applicability === applicability);
          if (own) expect(fs.existsSync(fixedPath(f.file, applicability === 'safe' ? 'fixed' : 'unsafe-fixed')), `${f.name}: a ${applicability} fix of ${id}, but no fixed file`).toBe(true);
        }
      }
    });
  }
});

describe('messages users read', () => {
  for (const rule of allRules) {
    const { id } = rule.meta;
    it(`${id}: annotated message fragments match, and at least one finding's message is pinned`, () => {
      let pinned = 0;
      for (const f of analysed.get(id)!) {
        for (const e of f.expectations) {
          if (!e.message || e.kind !== 'expect') continue;
          const messages = f.diagnostics.filter((d) => d.key === e.key).map((d) => d.message);
          expect(messages.some((m) => m.includes(e.message!)), `${f.name}:${e.line} ${e.key}: no message contains "${e.message}" (got ${JSON.stringify(messages)})`).toBe(true);
          if (e.ruleId === id) pinned++;
        }
        // What a template renders when a value is missing (`of undefined (reading` quotes a TypeError).
        for (const d of f.diagnostics) expect(d.message, `${f.name} ${d.key}`).not.toMatch(/\[object Object\]|\bNaN\b|\bundefined\b(?! \(reading)/);
      }
      expect(pinned, `no "message fragment" on a finding of ${id} in its bad fixtures`).toBeGreaterThan(0);
    });
  }
});

describe('known names', () => {
  const known = loadKnownNames();
  it('is dated', () => expect(known.asOf).toMatch(/^\d{4}-\d{2}-\d{2}$/));
  it('betas are spelled feature-name-YYYY-MM-DD', () => {
    for (const name of known.betas.keys()) expect(name).toMatch(BETA_NAME_SHAPE);
  });
  it('dated tool and edit types are spelled feature_name_YYYYMMDD', () => {
    for (const name of [...known.toolTypes.keys(), ...known.editTypes.keys()]) {
      // Undated aliases (`tool_search_tool_bm25`, `mcp_toolset`) are snake_case without a date.
      if (/\d{8}$/.test(name)) expect(name).toMatch(DATED_TYPE_SHAPE);
      else expect(name).toMatch(/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/);
    }
  });
  it('every beta a type needs is a known beta', () => {
    for (const t of [...known.toolTypes.values(), ...known.editTypes.values()]) for (const beta of t.betas ?? []) expect(known.betas.has(beta), beta).toBe(true);
  });
  it('models have a minimum cacheable length, or say that no source confirms one', () => {
    for (const m of known.models) {
      if (m.minCacheable === undefined) expect(m.note, m.id).toMatch(/minimum cacheable length not confirmed/);
      else expect(m.minCacheable, m.id).toBeGreaterThan(0);
    }
  });
  it('model ids are unique across ids and aliases, and no id is a prefix match away from another', () => {
    const ids = known.models.flatMap((m) => [m.id, ...(m.aliases ?? [])]);
    expect(new Set(ids).size).toBe(ids.length);
    for (const m of known.models) for (const id of [m.id, ...(m.aliases ?? [])]) expect(modelInfo(known, id)?.id, id).toBe(m.id);
  });
  it('lifecycle and release dates are YYYY-MM-DD, prices have every field, rejections name known tool types', () => {
    for (const m of known.models) {
      for (const d of [m.released, m.deprecated, m.retires]) if (d !== undefined) expect(d, m.id).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      for (const p of [m.price, m.longPrompt]) if (p) for (const k of ['input', 'write5m', 'write1h', 'read'] as const) expect(p[k], `${m.id} ${k}`).toBeGreaterThan(0);
      for (const r of m.rejects?.toolTypes ?? []) expect(known.toolTypes.has(r.type), r.type).toBe(true);
      if (m.rejects) expect([...(m.rejects.toolTypes ?? []).flatMap((r) => r.sources), ...(m.rejects.forcedToolChoice?.sources ?? [])].length, m.id).toBeGreaterThan(0);
    }
  });
  it('undocumented betas are their own class, each with a source', () => {
    for (const u of known.undocumentedBetas.values()) {
      expect(known.betas.has(u.name), u.name).toBe(false);
      expect(u.sources.length, u.name).toBeGreaterThan(0);
    }
  });
  it('deprecated betas name their successor or say that removing them is safe', () => {
    for (const b of known.betas.values()) if (b.status === 'deprecated') expect(!!b.supersededBy || b.removal === 'safe', b.name).toBe(true);
  });
});
