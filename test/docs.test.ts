/**
 * The docs are the rule files' `docs` text: required headings in order ("Fix safety" for every
 * rule that some fixture of its own shows offering an unsafe fix), and every code block under
 * "Example" must raise the rule while every block under "Use instead" raises nothing.
 * The pages in docs/rules/ are generated from them and must be up to date, and every rule URL
 * must name one of those pages.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { docsUrl, REPOSITORY_URL, RULE_PAGES_DIR } from '../src/core/rule';
import { allRules } from '../src/rules';
import { repositoryPages } from '../src/engine/docs';
import pkg from '../package.json';
import { analyseFixture, analyzer, FIXTURES, ROOT } from './helpers';

const REQUIRED = ['What it does', 'Why is this bad?', 'Example', 'Use instead'];
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'prefixlint-docs-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function sections(md: string): Map<string, string> {
  const out = new Map<string, string>();
  const parts = md.split(/^## /m).slice(1);
  for (const p of parts) {
    const nl = p.indexOf('\n');
    out.set(p.slice(0, nl).trim(), p.slice(nl + 1));
  }
  return out;
}

function codeBlocks(md: string): Array<{ lang: string; code: string }> {
  return [...md.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1], code: m[2] }));
}

const EXT: Record<string, string> = { python: '.py', ts: '.ts', typescript: '.ts', js: '.js', javascript: '.js', tsx: '.tsx' };

describe('rule docs', () => {
  for (const rule of allRules) {
    const { id, docs } = rule.meta;
    it(`${id}: headings`, async () => {
      const headings = [...docs.matchAll(/^## (.+)$/gm)].map((m) => m[1].trim());
      const required = headings.filter((h) => REQUIRED.includes(h));
      expect(required).toEqual(REQUIRED);
      // What the fixtures show, not what the docs say: an unsafe fix must be explained.
      const a = await analyzer();
      const dir = path.join(FIXTURES, id);
      const unsafe = fs
        .readdirSync(dir)
        .filter((n) => /^bad(-[\w-]+)?\.(py|ts|tsx|js|jsx|mjs|ipynb)$/.test(n))
        .filter((n) => analyseFixture(a, path.join(dir, n)).diagnostics.some((d) => d.ruleId === id && d.fix?.applicability === 'unsafe'));
      if (unsafe.length) expect(headings, `${id} offers an unsafe fix in ${unsafe.join(', ')}`).toContain('Fix safety');
    });

    it(`${id}: examples fire, "use instead" is silent`, async () => {
      const a = await analyzer();
      const s = sections(docs);
      const examples = codeBlocks(s.get('Example') ?? '');
      const good = codeBlocks(s.get('Use instead') ?? '');
      expect(examples.length).toBeGreaterThan(0);
      expect(good.length).toBeGreaterThan(0);
      expect(new Set(examples.map((b) => b.lang))).toEqual(new Set(['python', 'ts']));
      let n = 0;
      for (const [blocks, shouldFire] of [[examples, true], [good, false]] as const) {
        for (const b of blocks) {
          const file = path.join(tmp, `${id}-${n++}${EXT[b.lang]}`);
          fs.writeFileSync(file, b.code);
          const result = a.analyze(file, b.code);
          expect(result.notice).toBeUndefined();
          const ids = result.diagnostics.map((d) => d.ruleId);
          if (shouldFire) expect(ids, `example block ${n} of ${id}`).toContain(id);
          else expect(ids, `"use instead" block ${n} of ${id}`).toEqual([]);
        }
      }
    });
  }
});

describe('rule pages (docs/rules/, npm run docs)', () => {
  it('hold exactly the generated pages, up to date with the rule files', () => {
    const pages = repositoryPages(allRules);
    const onDisk = fs.readdirSync(path.join(ROOT, RULE_PAGES_DIR)).map((n) => `${RULE_PAGES_DIR}/${n}`).sort();
    expect(onDisk, 'run npm run docs').toEqual([...pages.keys()].sort());
    for (const [rel, text] of pages) expect(fs.readFileSync(path.join(ROOT, rel), 'utf8'), `${rel} is out of date: run npm run docs`).toBe(text);
  });

  it('every rule URL names a page that exists in the repository, on its default branch', () => {
    expect(REPOSITORY_URL).toBe(pkg.repository.url.replace(/^git\+/, '').replace(/\.git$/, ''));
    expect(REPOSITORY_URL).toMatch(/^https:\/\/github\.com\/[\w.-]+\/[\w.-]+$/);
    const prefix = `${REPOSITORY_URL}/blob/main/`;
    for (const rule of allRules) {
      const url = docsUrl(rule.meta.id);
      expect(url.startsWith(prefix), url).toBe(true);
      const rel = url.slice(prefix.length);
      expect(fs.existsSync(path.join(ROOT, rel)), `${url}: ${rel} does not exist`).toBe(true);
      expect(fs.readFileSync(path.join(ROOT, rel), 'utf8')).toContain(`# ${rule.meta.id}\n`);
    }
  });
});
