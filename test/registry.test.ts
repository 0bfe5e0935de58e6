/** Rule metadata is consistent with the fixtures: ids, languages, and declared fix availability. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { allRules } from '../src/rules';
import { BETA_NAME_SHAPE, DATED_TYPE_SHAPE, loadKnownNames, modelInfo } from '../src/core/knownNames';
import { FIXTURES } from './helpers';

const LANGS = ['py', 'ts', 'tsx', 'js', 'ipynb'];

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

    it(`${id}: declared fix availability matches the fixtures`, () => {
      const names = fs.readdirSync(path.join(FIXTURES, id));
      const fixed = names.filter((n) => /\.(unsafe-)?fixed\./.test(n));
      if (fix === 'none') expect(fixed).toEqual([]);
      else expect(fixed.length, `${id} declares fix '${fix}' but has no fixed fixture`).toBeGreaterThan(0);
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
