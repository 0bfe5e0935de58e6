/**
 * Whole workspaces in the shapes that broke prefixlint on real repositories, linted through the
 * CLI as a user would (`prefixlint check --format json .` at the workspace's root, which holds
 * `.git`): modules that import themselves or a sibling named like a library, import cycles
 * through package `__init__` files, `export *` loops, values that double at every step,
 * dozens of mutually recursive functions, broken configuration files of other tools, and a
 * broken configuration of prefixlint's own.
 *
 * Each folder of test/robustness/workspaces/ is one case: its source files carry the usual
 * `expect:` annotations (test/fixtures/README.md), and `expected.json` gives the exit code and
 * the lines stderr must hold (`notices`, regexes, each matching one line; no other line is
 * allowed except those matching `allowedNotices`) and, optionally, a regex for the summary line
 * of the text output.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { json, project, run, useCli } from './cli-harness';
import { parseExpectations, ROOT } from './helpers';

const CASES = path.join(ROOT, 'test', 'robustness', 'workspaces');
const SOURCE = /\.(py|ts|tsx|js|jsx)$/;

interface Expected {
  exit: number;
  notices: string[];
  allowedNotices?: string[];
  summary?: string;
}

function filesOf(dir: string, rel = ''): Record<string, Buffer> {
  const out: Record<string, Buffer> = {};
  for (const entry of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const r = path.posix.join(rel, entry.name);
    if (entry.isDirectory()) Object.assign(out, filesOf(dir, r));
    else if (r !== 'expected.json') out[r] = fs.readFileSync(path.join(dir, r));
  }
  return out;
}

useCli();

describe('real-code shapes, linted whole', () => {
  for (const name of fs.readdirSync(CASES).sort()) {
    it(name, () => {
      const files = filesOf(path.join(CASES, name));
      const expected = JSON.parse(fs.readFileSync(path.join(CASES, name, 'expected.json'), 'utf8')) as Expected;
      const dir = project({ ...files, '.git/HEAD': 'ref: refs/heads/main\n' });

      const r = run(dir, ['check', '--format', 'json', '.']);
      expect(r.code, r.stderr).toBe(expected.exit);
      const got = json(r)
        .map((f) => `${f.file}:${f.ruleId}@${f.line}:${f.column}-${f.endLine}:${f.endColumn}`)
        .sort();
      const want = Object.entries(files)
        .filter(([file]) => SOURCE.test(file))
        .flatMap(([file, content]) => {
          const text = content.toString('utf8');
          return parseExpectations(text)
            .filter((e) => e.kind === 'expect')
            .map((e) => `${file}:${e.key}`);
        })
        .sort();
      expect(got).toEqual(want);

      const lines = r.stderr.split('\n').filter(Boolean);
      const allowed = (expected.allowedNotices ?? []).map((p) => new RegExp(p));
      const required = expected.notices.map((p) => new RegExp(p));
      for (const re of required) expect(lines.some((l) => re.test(l)), `stderr has a line matching ${re}:\n${r.stderr}`).toBe(true);
      const unexpected = lines.filter((l) => !required.some((re) => re.test(l)) && !allowed.some((re) => re.test(l)));
      expect(unexpected).toEqual([]);

      if (expected.summary) {
        const text = run(dir, ['check', '.']);
        expect(text.stdout).toMatch(new RegExp(expected.summary));
        expect(text.stdout).not.toMatch(/All checks passed/);
      }
    });
  }

  it('every case has annotated findings or an expected error, so that each can fail', () => {
    for (const name of fs.readdirSync(CASES)) {
      const files = filesOf(path.join(CASES, name));
      const annotated = Object.entries(files).some(([f, c]) => SOURCE.test(f) && parseExpectations(c.toString('utf8')).length > 0);
      expect(annotated, name).toBe(true);
    }
  });
});
