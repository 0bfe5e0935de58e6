/**
 * The linted project's own SDK: its names count as known. Two fixture projects carry an SDK
 * newer than the one prefixlint pins (test/fixtures/_projects/*: `node_modules/@anthropic-ai/sdk`,
 * and `anthropic` in `.venv`), and get no finding on names only that SDK knows; the tree-sitter
 * reader used at lint time reads the pinned SDK exactly as the generator's TypeScript reader does.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Analyzer } from '../src/engine/analyzer';
import { findSdkLocations, ProjectSdkReader } from '../src/config/projectSdk';
import type { SdkHost } from '../src/config/projectSdk';
import { ConfigResolver } from '../src/config/resolve';
import type { Diagnostic } from '../src/core/diagnostic';
import { loadKnownNames } from '../src/core/knownNames';
import type { KnownNames } from '../src/core/knownNames';
import { LineIndex } from '../src/core/span';
import { allRules } from '../src/rules';
import { main } from '../src/cli/main';
import { Configuration } from '../src/engine/config';
import { readSdkNames, sdkPackageDir } from '../scripts/known-names/readSdk';
import { analyzer, diagnosticKey, FIXTURES, parseExpectations, ROOT } from './helpers';

const PROJECTS = path.join(FIXTURES, '_projects');
const NODE_PROJECT = path.join(PROJECTS, 'newer-node-sdk');
const PY_PROJECT = path.join(PROJECTS, 'newer-python-sdk');

const disk: SdkHost = {
  readFile: (p) => {
    try {
      return fs.readFileSync(p, 'utf8');
    } catch {
      return undefined;
    }
  },
  exists: (p) => fs.existsSync(p),
  listDir: (p) => {
    try {
      return fs.readdirSync(p);
    } catch {
      return undefined;
    }
  },
};

/** An in-memory file system: files by absolute path; folders exist when a file is under them. */
function memoryHost(files: Record<string, string>, listable = true): SdkHost {
  const has = (p: string) => p in files || Object.keys(files).some((f) => f.startsWith(p + '/'));
  return {
    readFile: (p) => files[p],
    exists: has,
    listDir: listable ? (p) => [...new Set(Object.keys(files).filter((f) => f.startsWith(p + '/')).map((f) => f.slice(p.length + 1).split('/')[0]))] : undefined,
  };
}

async function resolver(): Promise<ConfigResolver> {
  const a = await analyzer();
  return new ConfigResolver(disk, allRules).useParsers(a.parsers);
}

function check(a: Analyzer, file: string, known: KnownNames): { diagnostics: Diagnostic[]; expected: string[]; actual: string[] } {
  const text = fs.readFileSync(file, 'utf8');
  const result = a.analyze(file, text, undefined, { known });
  expect(result.notice).toBeUndefined();
  const index = new LineIndex(text);
  return {
    diagnostics: result.diagnostics,
    expected: parseExpectations(text).filter((e) => e.kind === 'expect').map((e) => e.key).sort(),
    actual: result.diagnostics.map((d) => diagnosticKey(index, d)).sort(),
  };
}

const NAME_RULES = new Set(['unknown-beta', 'unknown-type', 'beta-not-enabled', 'retired-model', 'unsupported-by-model']);

describe('the lint-time reader', () => {
  it('reads the pinned SDK in node_modules exactly as the generator does', async () => {
    const a = await analyzer();
    const fromTs = readSdkNames(sdkPackageDir(ROOT));
    const dir = sdkPackageDir(ROOT);
    const fromTreeSitter = new ProjectSdkReader(a.parsers).read(disk, { language: 'javascript', dir })!;
    const sorted = (xs: string[]) => [...new Set(xs)].sort();
    expect(fromTreeSitter.version).toBe(fromTs.version);
    expect(fromTreeSitter.apiVersion).toBe(fromTs.apiVersion);
    expect(sorted(fromTreeSitter.betas)).toEqual(sorted([...fromTs.betas, ...fromTs.sentBetas]));
    expect(sorted(fromTreeSitter.models)).toEqual(sorted(fromTs.models));
    expect(sorted(fromTreeSitter.toolTypes)).toEqual(sorted([...fromTs.toolTypes, ...fromTs.betaToolTypes]));
    expect(sorted(fromTreeSitter.editTypes)).toEqual(sorted(fromTs.editTypes));
    expect(sorted(fromTreeSitter.contentBlockTypes)).toEqual(sorted([...fromTs.contentBlockTypes, ...fromTs.betaContentBlockTypes]));
  });
});

describe('a project with its own newer @anthropic-ai/sdk (node_modules)', () => {
  it('finds it from the file upwards and reads its names and default API version', async () => {
    const known = (await resolver()).forFile(path.join(NODE_PROJECT, 'src', 'release-notes.ts')).known;
    expect(known.projectSdks.map((s) => `${s.package}@${s.version}:${s.apiVersion}`)).toEqual(['@anthropic-ai/sdk@1.20.0:2026-10-21']);
    for (const b of ['tool-hints-2026-03-02', 'context-hints-2026-12-04', 'media-clearing-2026-12-01']) expect(known.betas.get(b)?.origin, b).toBe('project');
    expect(known.toolTypes.get('web_search_20261201')?.origin).toBe('project');
    expect(known.toolTypes.get('browser_toolset_20261115')?.origin).toBe('project');
    expect(known.editTypes.get('clear_media_20261201')?.origin).toBe('project');
    expect(known.contentBlockTypes.has('media_reference')).toBe(true);
    expect(known.contentBlockTypes.has('tool_suggestion')).toBe(true);
    expect(known.models.some((m) => m.id === 'claude-opus-6')).toBe(true);
    // The table's facts about a name it knows stay the table's.
    expect(known.betas.get('prompt-caching-2024-07-31')?.status).toBe('ga');
  });

  it('gets no finding on names only that SDK knows; the table alone reports them', async () => {
    const a = await analyzer();
    const file = path.join(NODE_PROJECT, 'src', 'release-notes.ts');
    const withSdk = check(a, file, (await resolver()).forFile(file).known);
    expect(withSdk.actual).toEqual(withSdk.expected);
    expect(withSdk.actual).toEqual([]);
    const tableOnly = check(a, file, loadKnownNames());
    const ids = tableOnly.diagnostics.map((d) => d.ruleId);
    expect(ids.filter((id) => id === 'unknown-beta').length).toBe(3);
    expect(ids.filter((id) => id === 'unknown-type').length).toBeGreaterThanOrEqual(3);
    expect(tableOnly.diagnostics.some((d) => d.severity === 'error')).toBe(true);
  });

  it('rejected-by-api-version uses the SDK default that the project installed', async () => {
    const a = await analyzer();
    const file = path.join(NODE_PROJECT, 'src', 'summary.ts');
    const withSdk = check(a, file, (await resolver()).forFile(file).known);
    expect(withSdk.actual).toEqual(withSdk.expected);
    expect(withSdk.diagnostics.find((d) => d.ruleId === 'rejected-by-api-version')?.message).toContain("this project's @anthropic-ai/sdk 1.20.0");
    // Without the project's SDK the version is not proved: silent.
    expect(check(a, file, loadKnownNames()).actual).toEqual([]);
  });
});

describe('a project with its own newer anthropic (.venv)', () => {
  it('finds .venv/lib/python3.12/site-packages/anthropic and reads its names', async () => {
    const known = (await resolver()).forFile(path.join(PY_PROJECT, 'ticket_bot.py')).known;
    const py = known.projectSdks.find((s) => s.language === 'python');
    expect(py && `${py.package}@${py.version}:${py.apiVersion}`).toBe('anthropic@2.3.0:2026-10-21');
    for (const b of ['tool-hints-2026-03-02', 'ticket-routing-2026-12-03']) expect(known.betas.get(b)?.origin, b).toBe('project');
    expect(known.toolTypes.get('ticket_triage_20261120')?.origin).toBe('project');
    expect(known.toolTypes.get('web_search_20261201')?.origin).toBe('project');
    expect(known.editTypes.get('clear_resolved_tickets_20261201')?.origin).toBe('project');
    expect(known.contentBlockTypes.has('ticket_reference')).toBe(true);
  });

  it('gets no finding on names only that SDK knows; the table alone reports them', async () => {
    const a = await analyzer();
    const file = path.join(PY_PROJECT, 'ticket_bot.py');
    const withSdk = check(a, file, (await resolver()).forFile(file).known);
    expect(withSdk.actual).toEqual([]);
    const tableOnly = check(a, file, loadKnownNames()).diagnostics.filter((d) => NAME_RULES.has(d.ruleId));
    expect(tableOnly.filter((d) => d.ruleId === 'unknown-beta').length).toBe(2);
    expect(tableOnly.filter((d) => d.ruleId === 'unknown-type').length).toBeGreaterThanOrEqual(2);
  });

  it('the default API version of the installed anthropic is used, and a version in the code wins', async () => {
    const a = await analyzer();
    const file = path.join(PY_PROJECT, 'sentiment.py');
    const withSdk = check(a, file, (await resolver()).forFile(file).known);
    expect(withSdk.actual).toEqual(withSdk.expected);
    expect(withSdk.actual.length).toBe(1);
  });

  it('messages name where names were looked up', async () => {
    const a = await analyzer();
    const file = path.join(PY_PROJECT, 'old_beta.py');
    const text = 'import anthropic\nclient = anthropic.Anthropic()\ndef f(q: str):\n    return client.beta.messages.create(model="claude-opus-6", max_tokens=9, betas=["ticket-routing-2025-02-03"], messages=[{"role": "user", "content": q}])\n';
    const known = (await resolver()).forFile(file).known;
    const d = a.analyze(file, text, 'python', { known }).diagnostics.find((x) => x.ruleId === 'unknown-beta');
    expect(d?.message).toContain("not in prefixlint's table (SDK 1.14.0, as of 2026-12-01) nor in this project's anthropic 2.3.0");
  });
});

describe('both surfaces', () => {
  it('the CLI lints the fixture projects with their SDKs (files under node_modules and .venv are not linted)', async () => {
    for (const dir of [NODE_PROJECT, PY_PROJECT]) {
      let out = '';
      const io = { out: (t: string) => void (out += t), err: () => undefined, readStdin: () => Buffer.alloc(0), stdoutIsTTY: false, cwd: dir };
      await main(['check', '--format', 'json', '--exit-zero', '.'], io as Parameters<typeof main>[1]);
      const findings = JSON.parse(out) as Array<{ ruleId: string; file: string }>;
      expect(findings.filter((f) => NAME_RULES.has(f.ruleId))).toEqual([]);
      expect(findings.map((f) => f.ruleId)).toEqual(['rejected-by-api-version']);
      expect(findings.every((f) => !/node_modules|\.venv/.test(f.file))).toBe(true);
    }
  });

  it('the language server gets the same names through the one configuration path (engine/config.ts)', async () => {
    const a = await analyzer();
    const config = new Configuration(disk);
    const file = path.join(PY_PROJECT, 'ticket_bot.py');
    expect(config.configFor(file).analyze.known.projectSdks ?? []).toEqual([]);
    config.useParsers(a.parsers);
    const known = config.configFor(file).analyze.known;
    expect(known?.projectSdks.find((s) => s.language === 'python')?.version).toBe('2.3.0');
    expect(check(a, file, known!).actual).toEqual([]);
  });
});

describe('finding Python environments', () => {
  const sdkFiles = (site: string) => ({
    [`${site}/anthropic/_version.py`]: '__version__ = "2.4.1"\n',
    [`${site}/anthropic/types/anthropic_beta_param.py`]: 'from typing import Union\nfrom typing_extensions import Literal, TypeAlias\n\nAnthropicBetaParam: TypeAlias = Union[str, Literal["queue-hints-2026-11-30"]]\n',
  });

  it('a configured interpreter (relative to the configuration) comes before .venv', async () => {
    const a = await analyzer();
    const files = {
      '/repo/.git/HEAD': 'ref: refs/heads/main\n',
      '/repo/pyproject.toml': '[tool.prefixlint.python]\ninterpreter = "envs/prod/bin/python3.11"\n',
      ...sdkFiles('/repo/envs/prod/lib/python3.11/site-packages'),
      '/repo/.venv/pyvenv.cfg': 'version = 3.12.1\n',
      '/repo/.venv/lib/python3.12/site-packages/anthropic/_version.py': '__version__ = "0.121.0"\n',
      '/repo/app.py': '',
    };
    const known = new ConfigResolver(memoryHost(files), allRules).useParsers(a.parsers).forFile('/repo/app.py').known;
    expect(known.projectSdks.map((s) => `${s.package} ${s.version}`)).toEqual(['anthropic 2.4.1']);
    expect(known.betas.has('queue-hints-2026-11-30')).toBe(true);
  });

  it('Windows layout, pyvenv.cfg without a listing, a listing without pyvenv.cfg', () => {
    const win = memoryHost({ '/p/.git/x': '', ...sdkFiles('/p/venv/Lib/site-packages') }, false);
    expect(findSdkLocations(win, '/p')).toEqual([{ language: 'python', dir: '/p/venv/Lib/site-packages/anthropic' }]);
    const cfgOnly = memoryHost({ '/p/.git/x': '', '/p/.venv/pyvenv.cfg': 'home = /usr/bin\nversion_info = 3.13.0.final.0\n', ...sdkFiles('/p/.venv/lib/python3.13/site-packages') }, false);
    expect(findSdkLocations(cfgOnly, '/p/src/pkg')).toEqual([{ language: 'python', dir: '/p/.venv/lib/python3.13/site-packages/anthropic' }]);
    const listed = memoryHost({ '/p/.git/x': '', ...sdkFiles('/p/.venv/lib/python3.10/site-packages') });
    expect(findSdkLocations(listed, '/p')).toEqual([{ language: 'python', dir: '/p/.venv/lib/python3.10/site-packages/anthropic' }]);
  });

  it('stops at the repository root, and a broken or foreign package gives no names and no failure', async () => {
    const a = await analyzer();
    const outside = memoryHost({ '/w/node_modules/@anthropic-ai/sdk/package.json': '{"name":"@anthropic-ai/sdk","version":"9.0.0"}', '/w/repo/.git/HEAD': '' });
    expect(findSdkLocations(outside, '/w/repo/src')).toEqual([]);
    const reader = new ProjectSdkReader(a.parsers);
    const broken = memoryHost({ '/r/node_modules/@anthropic-ai/sdk/package.json': '{ not json', '/r/node_modules/@anthropic-ai/sdk/resources/beta/beta.d.ts': 'export type AnthropicBeta = ' });
    expect(reader.read(broken, { language: 'javascript', dir: '/r/node_modules/@anthropic-ai/sdk' })).toBeUndefined();
    const foreign = memoryHost({ '/r/node_modules/@anthropic-ai/sdk/package.json': '{"name":"left-pad","version":"1.0.0"}' });
    expect(reader.read(foreign, { language: 'javascript', dir: '/r/node_modules/@anthropic-ai/sdk' })).toBeUndefined();
    const garbage = memoryHost({
      '/r/node_modules/@anthropic-ai/sdk/package.json': '{"name":"@anthropic-ai/sdk","version":"2.0.0"}',
      '/r/node_modules/@anthropic-ai/sdk/resources/beta/beta.d.ts': 'export type AnthropicBeta = (string & {}) | 42 | {{{ ',
    });
    const names = reader.read(garbage, { language: 'javascript', dir: '/r/node_modules/@anthropic-ai/sdk' });
    expect(names?.version).toBe('2.0.0');
    expect(names?.betas).toEqual([]);
  });
});
