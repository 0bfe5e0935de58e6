/**
 * The configuration module (src/config/) through an in-memory host, as the CLI and the
 * language server use it: where configuration is found, precedence, per-path overrides,
 * include/exclude, known names, and errors that name the file and the key. The CLI side
 * (flags over configuration, one-line errors, exit codes) is in cli-options.test.ts.
 */
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_FILE_NAMES, ConfigError, ConfigResolver, DEFAULT_FAIL_LEVEL } from '../src/config/resolve';
import { CONFIG_FILE_NAMES as WATCHED_NAMES } from '../src/shared/protocol';
import type { ConfigHost, ConfigOverrides, FileConfig } from '../src/config/resolve';
import { starterConfig } from '../src/config/schema';
import { modelInfo } from '../src/core/knownNames';
import { allRules } from '../src/rules';

const ROOT = path.resolve('/repo');

/** The configuration for one file, resolved once. */
function resolveConfig(file: string, h: ConfigHost, over: ConfigOverrides = {}): FileConfig {
  return new ConfigResolver(h, allRules).forFile(file, over);
}

function host(files: Record<string, string>): ConfigHost & { reads: string[] } {
  const abs = new Map(Object.entries(files).map(([k, v]) => [path.join(ROOT, k), v]));
  const reads: string[] = [];
  return {
    reads,
    readFile(p) {
      reads.push(p);
      return abs.get(p);
    },
    exists(p) {
      return abs.has(p) || [...abs.keys()].some((k) => k.startsWith(p + path.sep));
    },
  };
}

const at = (rel: string) => path.join(ROOT, rel);
const ruleIds = (c: { rules: Array<{ meta: { id: string } }> }) => c.rules.map((r) => r.meta.id).sort();
const ALL = allRules.map((r) => r.meta.id).sort();

function error(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error('no ConfigError');
}

describe('finding the configuration', () => {
  it('uses defaults without a configuration, and stops looking at the repository root', () => {
    const h = host({ '.git/HEAD': '', 'app/x.py': '', '../.prefixlintrc.json': '{"ignore": ["cache"]}' });
    const c = resolveConfig(at('app/x.py'), h);
    expect(c.project).toBeUndefined();
    expect(ruleIds(c)).toEqual(ALL);
    expect(c.failLevel).toBe(DEFAULT_FAIL_LEVEL);
    expect(c.severity).toEqual({});
    expect(h.reads.some((r) => r === path.join(path.dirname(ROOT), '.prefixlintrc.json'))).toBe(false);
  });

  it('takes the nearest folder with a configuration, from the file up', () => {
    const h = host({
      '.git/HEAD': '',
      '.prefixlintrc.json': '{"ignore": ["cache"]}',
      'services/billing/pyproject.toml': '[tool.prefixlint]\nignore = ["api"]\n',
      'services/billing/src/app.py': '',
      'services/web/package.json': '{"name": "web"}',
      'services/web/pyproject.toml': '[tool.ruff]\nline-length = 100\n',
    });
    const r = new ConfigResolver(h, allRules);
    const billing = r.forFile(at('services/billing/src/app.py'));
    expect(billing.project?.root).toBe(at('services/billing'));
    expect(billing.rules.some((x) => x.meta.group === 'api')).toBe(false);
    expect(billing.rules.some((x) => x.meta.group === 'cache')).toBe(true);
    // package.json without "prefixlint" and pyproject.toml without [tool.prefixlint] do not count.
    const web = r.forFile(at('services/web/index.ts'));
    expect(web.project?.root).toBe(ROOT);
    expect(web.rules.some((x) => x.meta.group === 'cache')).toBe(false);
  });

  it('merges the files of one folder: .prefixlintrc.json over pyproject.toml over package.json', () => {
    const h = host({
      '.prefixlintrc.json': '// JSON with comments\n{"failLevel": "error", "rules": {"volatile-tools": "info"},}',
      'pyproject.toml': '[tool.prefixlint]\nfailLevel = "info"\nignore = ["state"]\n[tool.prefixlint.rules]\nvolatile-tools = "warning"\nunknown-beta = "warning"\n',
      'package.json': '{"name": "x", "prefixlint": {"ignore": ["context"], "exclude": ["generated/"], "rules": {"unknown-type": "off"}}}',
    });
    const c = resolveConfig(at('x.py'), h);
    expect(c.project?.files.map((f) => path.basename(f))).toEqual(['.prefixlintrc.json', 'pyproject.toml', 'package.json']);
    expect(c.failLevel).toBe('error');
    expect(c.severity['volatile-tools']).toBe('info');
    expect(c.severity['unknown-beta']).toBe('warning');
    expect(c.rules.some((r) => r.meta.id === 'unknown-type')).toBe(false);
    // A key set in a higher file replaces the lower one: pyproject's ignore wins over package.json's.
    expect(c.project?.settings.ignore).toEqual(['state']);
    expect(c.project?.settings.exclude).toEqual(['generated/']);
  });

  it('gives command-line options the last word', () => {
    const h = host({ '.prefixlintrc.json': '{"select": ["api"], "ignore": ["unknown-beta"], "rules": {"unknown-type": "off"}, "failLevel": "error"}' });
    const r = new ConfigResolver(h, allRules);
    expect(ruleIds(r.forFile(at('x.py')))).toEqual(allRules.filter((x) => x.meta.group === 'api' && !['unknown-beta', 'unknown-type'].includes(x.meta.id)).map((x) => x.meta.id).sort());
    const cli = r.forFile(at('x.py'), { select: ['unknown-beta', 'unknown-type', 'volatile-tools'], ignore: ['volatile-tools'], failLevel: 'info' });
    expect(ruleIds(cli)).toEqual(['unknown-beta', 'unknown-type']);
    expect(cli.failLevel).toBe('info');
  });
});

describe('per-path settings', () => {
  const h = host({
    '.prefixlintrc.json': JSON.stringify({
      rules: { 'volatile-system-prompt': 'warning' },
      include: ['src/**', '*.ipynb'],
      exclude: ['generated/', '*_pb2.py'],
      overrides: [
        { files: ['tests/**', 'src/**/test_*.py'], ignore: ['context'], rules: { 'volatile-system-prompt': 'off', 'volatile-tools': 'info' } },
        { files: ['src/scripts/*.py'], select: ['api'] },
      ],
    }),
  });
  const r = new ConfigResolver(h, allRules);

  it('applies the overrides whose globs match, in order', () => {
    expect(r.forFile(at('src/app.py')).severity).toEqual({ 'volatile-system-prompt': 'warning' });
    const test = r.forFile(at('src/pkg/test_app.py'));
    expect(test.rules.some((x) => x.meta.id === 'volatile-system-prompt' || x.meta.group === 'context')).toBe(false);
    expect(test.severity['volatile-tools']).toBe('info');
    expect(r.forFile(at('tests/deep/x.ts')).severity['volatile-tools']).toBe('info');
    expect(r.forFile(at('src/scripts/run.py')).rules.every((x) => x.meta.group === 'api')).toBe(true);
  });

  it('leaves out what exclude names and what include does not, relative to the configuration', () => {
    expect(r.excluded(at('generated'), true)).toBe(true);
    expect(r.excluded(at('src/generated'), true)).toBe(true);
    expect(r.excluded(at('src/api_pb2.py'), false)).toBe(true);
    expect(r.excluded(at('src/app.py'), false)).toBe(false);
    expect(r.excluded(at('notes/explore.ipynb'), false)).toBe(false);
    expect(r.excluded(at('scripts/tool.py'), false)).toBe(true);
    expect(r.excluded(at('scripts'), true)).toBe(false);
  });
});

describe('known names', () => {
  it('adds betas and tool types, and overrides model figures (a new model too)', () => {
    const h = host({
      'pyproject.toml': [
        '[tool.prefixlint.known]',
        'betas = ["acme-internal-2026-01-01"]',
        'toolTypes = ["acme_search_20260101"]',
        '[tool.prefixlint.models.claude-sonnet-4-6]',
        'minCacheable = 4096',
        'price = { input = 2.5 }',
        '[tool.prefixlint.models.acme-tuned]',
        'minCacheable = 512',
        'tokenizer = 2',
      ].join('\n'),
    });
    const known = resolveConfig(at('x.py'), h).known;
    expect(known.betas.has('acme-internal-2026-01-01')).toBe(true);
    expect(known.betas.has('context-management-2025-06-27')).toBe(true);
    expect(known.toolTypes.has('acme_search_20260101')).toBe(true);
    const sonnet = modelInfo(known, 'claude-sonnet-4-6');
    expect(sonnet?.minCacheable).toBe(4096);
    expect(sonnet?.price?.input).toBe(2.5);
    expect(sonnet?.price?.read).toBeGreaterThan(0); // the table's other prices stay
    expect(modelInfo(known, 'acme-tuned-v2')).toMatchObject({ minCacheable: 512, tokenizer: 2 });
  });
});

describe('errors name the file and the key', () => {
  const cases: Array<[string, Record<string, string>, RegExp]> = [
    ['unknown key', { '.prefixlintrc.json': '{"selct": ["cache"]}' }, /^unknown key 'selct' \(did you mean 'select'\?\)$/],
    ['unknown nested key', { '.prefixlintrc.json': '{"overrides": [{"files": ["a"], "rule": {}}]}' }, /^unknown key 'overrides\[0\]\.rule' \(did you mean 'rules'\?\)$/],
    ['unknown rule', { '.prefixlintrc.json': '{"rules": {"volatile-tool": "off"}}' }, /^rules: unknown rule 'volatile-tool' \(did you mean 'volatile-tools'\?\)$/],
    ['unknown rule in select', { 'package.json': '{"prefixlint": {"select": ["cach"]}}' }, /^"prefixlint": select: unknown rule or group 'cach' \(did you mean 'cache'\?\)$/],
    ['unknown rule in an override', { 'pyproject.toml': '[[tool.prefixlint.overrides]]\nfiles = ["x"]\nignore = ["nope-rule"]\n' }, /^\[tool\.prefixlint\]: overrides\[0\]\.ignore: unknown rule or group 'nope-rule'$/],
    ['bad level', { '.prefixlintrc.json': '{"rules": {"volatile-tools": "fatal"}}' }, /^rules\.volatile-tools: expected "error", "warning", "info", "off", got "fatal"$/],
    ['bad fail level', { 'pyproject.toml': '[tool.prefixlint]\nfailLevel = 2\n' }, /^\[tool\.prefixlint\]: failLevel: expected "error", "warning", "info", got 2$/],
    ['bad type', { '.prefixlintrc.json': '{"exclude": "dist"}' }, /^exclude: expected a list of strings, got "dist"$/],
    ['override without files', { '.prefixlintrc.json': '{"overrides": [{"ignore": ["cache"]}]}' }, /^overrides\[0\]: 'files' is required/],
    ['bad model figure', { '.prefixlintrc.json': '{"models": {"claude-x": {"minCacheable": -1}}}' }, /^models\.claude-x\.minCacheable: expected a whole number of 0 or more, got -1$/],
    ['invalid JSON', { '.prefixlintrc.json': '{\n  "select": [\n}' }, /^invalid JSON at line 3, column 1 \(ValueExpected\)$/],
    ['empty file', { '.prefixlintrc.json': '' }, /^the file is empty/],
    ['invalid TOML', { 'pyproject.toml': '[tool.prefixlint]\nselect = [\n' }, /^invalid TOML at line \d+, column \d+ \(.+\)$/],
    ['invalid package.json that configures prefixlint', { 'package.json': '{"name": "x", "prefixlint": {"ignore": []},}' }, /^invalid JSON at line 1, column \d+/],
    ['invalid pyproject.toml that configures prefixlint', { 'pyproject.toml': '[project]\nname = "x\n[tool.prefixlint]\nignore = []\n' }, /^invalid TOML at line \d+, column \d+/],
  ];
  for (const [name, files, detail] of cases) {
    it(name, () => {
      const e = error(() => resolveConfig(at('x.py'), host(files)));
      expect(e.file).toBe(at(Object.keys(files)[0]));
      expect(e.detail).toMatch(detail);
      expect(e.detail).not.toContain('\n');
    });
  }

  it('passes over a pyproject.toml or package.json of another tool that does not parse (templated, control characters)', () => {
    const broken = {
      'pyproject.toml': '[project]\nname = "task-\u0001"\n',
      'package.json': '{\n  "name": "{{ project_name }}",\n  {% if ts %}"types": "x.d.ts",{% endif %}\n}\n',
    };
    const c = resolveConfig(at('x.py'), host(broken));
    expect(c.project).toBeUndefined();
    expect(ruleIds(c)).toEqual(ALL);
    // The nearest configuration that does parse still applies above them.
    const nested = host({ ...Object.fromEntries(Object.entries(broken).map(([k, v]) => [`sub/${k}`, v])), '.prefixlintrc.json': '{"ignore": ["cache"]}' });
    expect(resolveConfig(at('sub/x.py'), nested).project?.root).toBe(at(''));
  });

  it('accepts the starter configuration that `prefixlint init` writes, and it changes nothing', () => {
    const c = resolveConfig(at('x.py'), host({ '.prefixlintrc.json': JSON.stringify(starterConfig(), null, 2) }));
    expect(ruleIds(c)).toEqual(ALL);
    expect(c.severity).toEqual({});
    expect(c.failLevel).toBe(DEFAULT_FAIL_LEVEL);
  });
});

describe('configuration file names', () => {
  it('are the ones the editor client watches (src/shared/protocol.ts)', () => {
    expect([...WATCHED_NAMES]).toEqual([...CONFIG_FILE_NAMES]);
    expect(CONFIG_FILE_NAMES).toEqual(['.prefixlintrc.json', 'pyproject.toml', 'package.json']);
  });
});
