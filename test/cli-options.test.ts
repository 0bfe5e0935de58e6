/**
 * The CI options of `prefixlint check`, `prefixlint init`, the project configuration as the CLI
 * applies it, and the one-line errors, all through the built CLI as a user runs it.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { BAD_PY, CLI, GOOD_PY, MIXED_PY, SAFE_FIX_PY, gitInit, json, notebookOf, project, run, useCli } from './cli-harness';
import type { Run } from './cli-harness';

useCli();
// Every test runs the CLI, several times; a busy machine makes that slow.
vi.setConfig({ testTimeout: 180_000 });

/** stderr as lines (no trailing empty line). */
const errLines = (r: Run) => r.stderr.split('\n').filter(Boolean);

/** Exactly one line on stderr, which matches; nothing on stdout. */
function oneLineError(r: Run, code: number, pattern: RegExp) {
  expect(errLines(r), r.stderr).toHaveLength(1);
  expect(errLines(r)[0]).toMatch(pattern);
  expect(r.stdout).toBe('');
  expect(r.code).toBe(code);
}

describe('fail level, exit codes and warnings', () => {
  it('fails on warnings by default; --fail-level and failLevel in the configuration move the bar', () => {
    // unstable-serialization: a warning; with the configuration's "info" severity, an info finding.
    const dir = project({ 'app/mixed.py': MIXED_PY, 'lib/.prefixlintrc.json': '{"rules": {"unstable-serialization": "info"}, "failLevel": "info"}', 'lib/mixed.py': MIXED_PY });
    const only = ['--select', 'unstable-serialization'];
    expect(run(dir, ['check', 'app', ...only]).code).toBe(1);
    expect(run(dir, ['check', 'app', ...only, '--fail-level', 'error']).code).toBe(0);
    expect(run(dir, ['check', 'lib', ...only]).code).toBe(1); // info, but the configuration fails on info
    expect(run(dir, ['check', 'lib', ...only, '--fail-level', 'warning']).code).toBe(0); // the flag wins
    // Each file is held to its own configuration's level: lib/ fails on its info finding, app/ on its warning.
    const both = json(run(dir, ['check', '--format', 'json', ...only]));
    expect(both.map((f) => [f.file, f.severity]).sort()).toEqual([
      ['app/mixed.py', 'warning'],
      ['lib/mixed.py', 'info'],
    ]);
  });

  it('--max-warnings fails a run with more warnings than allowed, and --exit-zero always exits 0', () => {
    const dir = project({ 'mixed.py': MIXED_PY, 'also.py': MIXED_PY });
    const warnings = ['--select', 'unstable-serialization', '--fail-level', 'error'];
    const over = run(dir, ['check', ...warnings, '--max-warnings', '1']);
    expect(over.code).toBe(1);
    expect(errLines(over)).toEqual(['prefixlint: too many warnings: 2 (--max-warnings 1)']);
    expect(run(dir, ['check', ...warnings, '--max-warnings', '2']).code).toBe(0);
    const zero = run(dir, ['check', '--exit-zero']);
    expect(zero.code).toBe(0);
    expect(zero.stdout).toMatch(/Found 4 problems \(2 errors, 2 warnings, 0 infos\) in 2 files\./);
    expect(run(dir, ['check', '--exit-zero', '--max-warnings', '0']).code).toBe(0);
    for (const [option, value] of [['--fail-level', 'fatal'], ['--max-warnings', '-1'], ['--max-warnings', 'many']]) {
      const r = run(dir, ['check', `${option}=${value}`]);
      expect(r.code, option).toBe(2);
      expect(r.stderr).toContain(`prefixlint: error: ${option}: expected`);
    }
  });

  it('--quiet reports only what fails the run, without a summary', () => {
    const dir = project({ 'mixed.py': MIXED_PY, 'good.py': GOOD_PY });
    const all = run(dir, ['check', '--format', 'concise']);
    const quiet = run(dir, ['check', '--format', 'concise', '--quiet']);
    expect(quiet.code).toBe(all.code);
    expect(quiet.stdout.trimEnd().split('\n')).toEqual(all.stdout.split('\n').filter((l) => l.startsWith('mixed.py:')));
    expect(run(dir, ['check', '--quiet']).stdout).not.toContain('Found ');
    const errorsOnly = run(dir, ['check', '-q', '--format', 'concise', '--fail-level', 'error']);
    expect(errorsOnly.stdout.trimEnd().split('\n')).toEqual([expect.stringMatching(/^mixed\.py:\d+:\d+: volatile-system-prompt /)]);
    expect(json(run(dir, ['check', '--quiet', '--fail-level', 'error', '--format', 'json'])).map((f) => f.severity)).toEqual(['error']);
    const clean = run(dir, ['check', '--quiet', 'good.py']);
    expect([clean.code, clean.stdout, clean.stderr]).toEqual([0, '', '']);
  });

  it('--statistics counts the findings per rule, as text or JSON', () => {
    const dir = project({ 'a.py': MIXED_PY, 'b.py': BAD_PY, 'c.py': SAFE_FIX_PY });
    const text = run(dir, ['check', '--statistics']);
    expect(text.code).toBe(1);
    const [table, summary] = text.stdout.split('\n\n');
    // `fixable` counts the safe fixes (--fix applies them); moving the time and sorting keys are unsafe.
    expect(table.split('\n')).toEqual([
      expect.stringMatching(/^2 {2}volatile-system-prompt {2}error$/),
      expect.stringMatching(/^1 {2}removed-namespace {7}error {4}1 fixable$/),
      expect.stringMatching(/^1 {2}unstable-serialization {2}warning$/),
    ]);
    expect(summary).toContain('Found 4 problems (3 errors, 1 warning, 0 infos) in 3 files.');
    const stats = JSON.parse(run(dir, ['check', '--statistics', '--format', 'json']).stdout) as unknown;
    expect(stats).toEqual([
      { ruleId: 'volatile-system-prompt', severity: 'error', count: 2, fixable: 0 },
      { ruleId: 'removed-namespace', severity: 'error', count: 1, fixable: 1 },
      { ruleId: 'unstable-serialization', severity: 'warning', count: 1, fixable: 0 },
    ]);
    expect(run(dir, ['check', '--statistics', '--format', 'sarif']).code).toBe(2);
  });
});

describe('what to lint', () => {
  it('--stdin-filename lints standard input as that file, with its configuration; --fix prints the fixed text', () => {
    const dir = project({
      '.prefixlintrc.json': '{"overrides": [{"files": ["legacy/**"], "rules": {"volatile-system-prompt": "off"}}]}',
      'src/app.py': '# the file on disk is not read\n',
    });
    const r = run(dir, ['check', '--stdin-filename', 'src/app.py', '--format', 'json'], { input: BAD_PY });
    expect(r.code).toBe(1);
    const [f] = json(r);
    expect(f).toMatchObject({ file: 'src/app.py', ruleId: 'volatile-system-prompt', line: 12 });
    expect(run(dir, ['check', '--stdin-filename', 'legacy/app.py'], { input: BAD_PY }).code).toBe(0);

    const fixed = run(dir, ['check', '--stdin-filename', 'src/app.py', '--fix', '--unsafe-fixes'], { input: BAD_PY });
    expect(fixed.stdout).not.toBe(BAD_PY);
    expect(fixed.stdout).toContain('[time: {datetime.now()}]');
    expect(fixed.stderr).toContain('Fixed 1 problem in 1 file.');
    expect(fs.readFileSync(path.join(dir, 'src/app.py'), 'utf8')).toBe('# the file on disk is not read\n');
    // The fixed text is what --fix writes for the same file on disk.
    const onDisk = project({ 'src/app.py': BAD_PY });
    run(onDisk, ['check', '--fix', '--unsafe-fixes']);
    expect(fixed.stdout).toBe(fs.readFileSync(path.join(onDisk, 'src/app.py'), 'utf8'));
    // Nothing to fix: the text comes back unchanged.
    expect(run(dir, ['check', '--stdin-filename', 'ok.py', '--fix'], { input: GOOD_PY }).stdout).toBe(GOOD_PY);

    const nb = run(dir, ['check', '--stdin-filename', 'explore.ipynb', '--format', 'json'], { input: notebookOf([BAD_PY]) });
    expect(json(nb).map((x) => [x.file, x.cell])).toEqual([['explore.ipynb', 1]]);
    const binary = run(dir, ['check', '--stdin-filename', 'x.py'], { input: Buffer.from([0x78, 0x00, 0x01]) });
    expect(binary.code).toBe(0);
    expect(errLines(binary)).toEqual(['x.py: skipped: binary file']);
    const both = run(dir, ['check', '--stdin-filename', 'a.py', 'src']);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/^prefixlint: error: --stdin-filename lints standard input: it takes no paths/);
  });

  it('--files-from reads the paths to lint from a file or standard input', () => {
    const dir = project({ 'a.py': BAD_PY, 'b.py': BAD_PY, 'c.py': BAD_PY, 'list.txt': 'a.py\n\nb.py\n' });
    const files = (r: Run) => [...new Set(json(r).map((f) => f.file))].sort();
    expect(files(run(dir, ['check', '--format', 'json', '--files-from', 'list.txt']))).toEqual(['a.py', 'b.py']);
    expect(files(run(dir, ['check', '--format', 'json', '--files-from', '-', 'c.py'], { input: 'b.py\r\n' }))).toEqual(['b.py', 'c.py']);
    const empty = run(dir, ['check', '--files-from', '-'], { input: '' });
    expect([empty.code, empty.stdout.trim()]).toEqual([0, 'All checks passed.']);
    oneLineError(run(dir, ['check', '--files-from', '-'], { input: 'a.py\ngone.py\n' }), 2, /^prefixlint: error: gone\.py: no such file or directory$/);
    oneLineError(run(dir, ['check', '--files-from', 'nope.txt']), 2, /^prefixlint: error: --files-from: nope\.txt: no such file$/);
  });

  it('--changed-since lints what changed since a git ref: committed on the branch, changed, or new', () => {
    const dir = project({
      '.gitignore': 'ignored.py\n',
      'committed.py': GOOD_PY,
      'edited.py': GOOD_PY,
      'same.py': BAD_PY,
      'deleted.py': BAD_PY,
      'sub/edited.py': GOOD_PY,
    });
    const git = gitInit(dir);
    git('checkout', '-q', '-b', 'feature');
    fs.writeFileSync(path.join(dir, 'committed.py'), BAD_PY);
    git('commit', '-q', '-am', 'feature work');
    fs.writeFileSync(path.join(dir, 'edited.py'), BAD_PY);
    fs.writeFileSync(path.join(dir, 'sub/edited.py'), BAD_PY);
    fs.writeFileSync(path.join(dir, 'new.py'), BAD_PY);
    fs.writeFileSync(path.join(dir, 'ignored.py'), BAD_PY);
    fs.rmSync(path.join(dir, 'deleted.py'));
    const files = (r: Run) => [...new Set(json(r).map((f) => f.file))].sort();
    const r = run(dir, ['check', '--format', 'json', '--changed-since', 'main']);
    expect(r.stderr).toBe('');
    expect(files(r)).toEqual(['committed.py', 'edited.py', 'new.py', 'sub/edited.py']);
    expect(files(run(dir, ['check', '--format', 'json', '--changed-since', 'main', 'sub']))).toEqual(['sub/edited.py']);
    expect(files(run(path.join(dir, 'sub'), ['check', '--format', 'json', '--changed-since', 'HEAD']))).toEqual(['edited.py']);
    oneLineError(run(dir, ['check', '--changed-since', 'no-such-branch']), 2, /^prefixlint: error: --changed-since: 'no-such-branch' is not a commit, branch or tag in this repository$/);
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'prefixlint-nogit-'));
    try {
      oneLineError(run(outside, ['check', '--changed-since', 'main'], { env: { GIT_CEILING_DIRECTORIES: path.dirname(outside) } }), 2, /^prefixlint: error: --changed-since needs a git repository: .+ is not inside one$/);
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });
});

describe('the configuration in a CLI run', () => {
  it('is read from pyproject.toml and package.json too: exclude, include, overrides and known names', () => {
    const unknownBeta = GOOD_PY.replace('system=SYSTEM,', 'system=SYSTEM,\n        betas=["acme-tracing-2026-01-01"],').replace('client.messages.create', 'client.beta.messages.create');
    const dir = project({
      'py/pyproject.toml': '[tool.prefixlint]\nexclude = ["generated/"]\n\n[tool.prefixlint.known]\nbetas = ["acme-tracing-2026-01-01"]\n\n[[tool.prefixlint.overrides]]\nfiles = ["tests/**"]\nignore = ["cache"]\n',
      'py/app.py': BAD_PY,
      'py/beta.py': unknownBeta,
      'py/generated/out.py': BAD_PY,
      'py/tests/test_app.py': BAD_PY,
      'web/package.json': JSON.stringify({ name: 'web', prefixlint: { include: ['src/**'] } }),
      'web/src/a.py': BAD_PY,
      'web/scripts/b.py': BAD_PY,
      'other/beta.py': unknownBeta,
    });
    const found = json(run(dir, ['check', '--format', 'json']));
    expect([...new Set(found.map((f) => `${f.file}:${f.ruleId}`))].sort()).toEqual(['other/beta.py:unknown-beta', 'py/app.py:volatile-system-prompt', 'web/src/a.py:volatile-system-prompt']);
    // A file named on the command line is checked even when the configuration excludes it.
    expect(json(run(dir, ['check', '--format', 'json', 'py/generated/out.py'])).length).toBeGreaterThan(0);
  });

  it('yields to --select and --ignore', () => {
    const dir = project({ '.prefixlintrc.json': '{"ignore": ["volatile-system-prompt"], "rules": {"unstable-serialization": "off"}}', 'mixed.py': MIXED_PY });
    expect(run(dir, ['check']).code).toBe(0);
    expect(json(run(dir, ['check', '--format', 'json', '--select', 'cache'])).map((f) => f.ruleId).sort()).toEqual(['unstable-serialization', 'volatile-system-prompt']);
    expect(json(run(dir, ['check', '--format', 'json', '--select', 'cache', '--ignore', 'unstable-serialization'])).map((f) => f.ruleId)).toEqual(['volatile-system-prompt']);
  });

  it('prefixlint init writes a starter configuration that works, and never overwrites one', () => {
    const dir = project({ 'bad.py': BAD_PY });
    const r = run(dir, ['init']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Wrote \.prefixlintrc\.json\./);
    const written = fs.readFileSync(path.join(dir, '.prefixlintrc.json'), 'utf8');
    expect(Object.keys(JSON.parse(written) as object)).toEqual(['select', 'ignore', 'rules', 'include', 'exclude', 'failLevel', 'known', 'models', 'overrides']);
    expect(json(run(dir, ['check', '--format', 'json'])).map((f) => f.ruleId)).toEqual(['volatile-system-prompt']);
    fs.writeFileSync(path.join(dir, '.prefixlintrc.json'), '{"failLevel": "error"}\n');
    oneLineError(run(dir, ['init']), 2, /^prefixlint: error: \.prefixlintrc\.json already exists; it was left as it is$/);
    expect(fs.readFileSync(path.join(dir, '.prefixlintrc.json'), 'utf8')).toBe('{"failLevel": "error"}\n');
  });
});

describe('one-line errors and notices', () => {
  it('names the file and the key of a configuration error, and an unknown rule, with exit 2', () => {
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ '.prefixlintrc.json': '{"selct": ["cache"]}' }, /^prefixlint: error: \.prefixlintrc\.json: unknown key 'selct' \(did you mean 'select'\?\)$/],
      [{ 'pyproject.toml': '[tool.prefixlint.rules]\nvolatile-tool = "off"\n' }, /^prefixlint: error: pyproject\.toml: \[tool\.prefixlint\]: rules: unknown rule 'volatile-tool' \(did you mean 'volatile-tools'\?\)$/],
      [{ 'sub/package.json': '{"prefixlint": {"failLevel": "fatal"}}' }, /^prefixlint: error: sub\/package\.json: "prefixlint": failLevel: expected "error", "warning", "info", got "fatal"$/],
    ];
    for (const [files, pattern] of cases) {
      const dir = project({ ...files, 'sub/bad.py': BAD_PY });
      // The error is said once; the file it governs is not analysed, and the summary says so.
      const r = run(dir, ['check']);
      expect(errLines(r), r.stderr).toHaveLength(1);
      expect(errLines(r)[0]).toMatch(pattern);
      expect(r.stdout).toBe('Not analysed: 1 file (configuration error: 1).\n');
      expect(r.code).toBe(2);
    }
    const dir = project({ 'bad.py': BAD_PY });
    oneLineError(run(dir, ['check', '--ignore', 'volatile-sytem-prompt']), 2, /^prefixlint: error: unknown rule 'volatile-sytem-prompt' in --ignore \(did you mean 'volatile-system-prompt'\?\); 'prefixlint rules' lists them$/);
    oneLineError(run(dir, ['check', 'bad.py', 'missing.py']), 2, /^prefixlint: error: missing\.py: no such file or directory$/);
  });

  it('never says "All checks passed" when a file could not be analysed, or only in part: it counts them by reason', () => {
    const dir = project({
      'good.py': GOOD_PY,
      'data.py': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00]),
      'half.py': 'import anthropic\n\ndef ask(q:\n    return anthropic.Anthropic().messages.create(model="claude-sonnet-4-6", max_tokens=9, messages=[])\n',
    });
    const r = run(dir, ['check']);
    expect(r.stdout).toBe('No problems found in the 2 files analysed.\nNot analysed: 1 file (binary file: 1).\nAnalysed only in part: 1 file (syntax errors: 1).\n');
    // Files the tool could not read are notices, not failures of the tool: the exit code follows the findings.
    expect(r.code).toBe(0);
    const clean = run(project({ 'good.py': GOOD_PY }), ['check']);
    expect(clean.stdout).toBe('All checks passed.\n');
  });

  it('skips a binary file with a one-line notice; the exit code follows the other files', () => {
    const dir = project({ 'good.py': GOOD_PY, 'data.py': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00]) });
    const r = run(dir, ['check']);
    expect(errLines(r)).toEqual(['data.py: skipped: binary file']);
    expect(r.code).toBe(0);
  });

  it('skips a file it may not read with a one-line notice (run as an unprivileged user when root)', () => {
    const dir = project({ 'good.py': GOOD_PY, 'secret.py': BAD_PY });
    fs.chmodSync(path.join(dir, 'secret.py'), 0o000);
    const asRoot = process.getuid?.() === 0;
    if (!asRoot) {
      const r = run(dir, ['check']);
      expect(errLines(r)).toEqual(['secret.py: skipped: cannot read (permission denied)']);
      expect(r.code).toBe(0);
      return;
    }
    // Root reads any file, so the CLI runs as `nobody` (setpriv drops the privileges).
    const setpriv = spawnSync('setpriv', ['--version'], { encoding: 'utf8' });
    expect(setpriv.status, 'setpriv (util-linux) is needed to run this test as root').toBe(0);
    fs.chmodSync(dir, 0o755);
    for (let d = path.dirname(CLI); d !== path.dirname(d); d = path.dirname(d)) expect(fs.statSync(d).mode & 0o001, `${d} must be searchable`).toBe(1);
    const r = spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, CLI, 'check'], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1', HOME: os.tmpdir() },
    });
    expect(r.stderr.split('\n').filter(Boolean)).toEqual(['secret.py: skipped: cannot read (permission denied)']);
    expect(r.stdout.trim()).toBe('No problems found in the 1 file analysed.\nNot analysed: 1 file (cannot read (permission denied): 1).');
    expect(r.status).toBe(0);
  });
});
