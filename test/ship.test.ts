/**
 * Shipping, as a user installs prefixlint: the npm tarball (`npm pack`) holds only what runs and
 * installs offline, with no dependencies, into an empty project where `npx prefixlint check`
 * works; a release tag's tree (scripts/release-tree.mjs) is installed by `pre-commit try-repo`
 * and runs both hooks on a temporary repository; the GitHub Action's step (action.yml) runs
 * locally as the runner would run it, with the inputs of the README's workflow.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import type { SpawnSyncOptions } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CodeAction, PublishDiagnosticsParams } from 'vscode-languageserver/node';
import { createProtocolConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-languageserver/node';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parse as parseYaml } from 'yaml';
import pkg from '../package.json';
import { BAD_PY, ensureBuilt, GOOD_PY, MIXED_PY, ROOT, SAFE_FIX_PY } from './cli-harness';
import { editorCommands } from './editors';

vi.setConfig({ testTimeout: 180_000 });

const temps: string[] = [];
const tmp = (prefix: string) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `prefixlint-ship-${prefix}-`));
  temps.push(dir);
  return dir;
};
afterAll(() => {
  for (const t of temps.splice(0)) fs.rmSync(t, { recursive: true, force: true });
});

/** The environment of a user's shell: none of the settings `npm run` hands to its children. */
function userEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k) && k !== 'INIT_CWD' && k !== 'NODE') env[k] = v;
  return { ...env, NO_COLOR: '1', npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false', ...extra };
}

function sh(cmd: string, args: string[], opts: SpawnSyncOptions = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', ...opts, env: opts.env ?? userEnv() });
  return { code: r.status, stdout: String(r.stdout ?? ''), stderr: String(r.stderr ?? ''), error: r.error };
}

function gitRepo(dir: string): (...args: string[]) => string {
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=prefixlint tests', '-c', 'user.email=tests@prefixlint.invalid', '-c', 'commit.gpgsign=false', '-c', 'tag.gpgsign=false', ...args], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  git('init', '-q', '-b', 'main');
  return git;
}

let tarball: string;
/** The empty project the tarball was installed into, and its offline environment. */
let consumer: { project: string; env: NodeJS.ProcessEnv } | undefined;
let packed: { entryCount: number; size: number; unpackedSize: number; files: Array<{ path: string; size: number }> };
/** A release tag's tree, committed and tagged v<version> in a repository of its own. */
let releaseRepo: string;
/** A checkout of the tag. */
let actionCheckout: string;
const TAG = `v${pkg.version}`;

beforeAll(async () => {
  ensureBuilt();
  const out = tmp('pack');
  // The bundles were just built from the sources (prepack would build them again).
  const r = sh('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', out], { cwd: ROOT });
  expect(r.code, r.stderr).toBe(0);
  packed = JSON.parse(r.stdout)[0];
  tarball = path.join(out, (JSON.parse(r.stdout)[0] as { filename: string }).filename);

  // The release as the workflow makes it: in a clone, the tree committed on top of HEAD and tagged.
  releaseRepo = path.join(tmp('release'), 'prefixlint');
  execFileSync('git', ['clone', '-q', ROOT, releaseRepo], { stdio: 'pipe' });
  const tree = path.join(tmp('tree'), 'release');
  const made = sh(process.execPath, [path.join(ROOT, 'scripts', 'release-tree.mjs'), tree, '--tarball', tarball, '--tag'], {
    cwd: releaseRepo,
    env: userEnv({ GIT_AUTHOR_NAME: 'release', GIT_AUTHOR_EMAIL: 'release@prefixlint.invalid', GIT_COMMITTER_NAME: 'release', GIT_COMMITTER_EMAIL: 'release@prefixlint.invalid' }),
  });
  expect(made.code, made.stderr).toBe(0);
  // What the runner checks out for `uses: prefixlint/prefixlint@<tag>`.
  actionCheckout = path.join(tmp('action'), 'prefixlint');
  execFileSync('git', ['clone', '-q', '--branch', TAG, releaseRepo, actionCheckout], { stdio: 'pipe' });
}, 180_000);

describe('the npm package', () => {
  it('holds the bundles, the WASM grammars, README, CHANGELOG and LICENSE, and nothing else', () => {
    const files = packed.files.map((f) => f.path).sort();
    expect(files).toEqual([
      'CHANGELOG.md',
      'LICENSE',
      'README.md',
      'dist/anthropic-sdk.js',
      'dist/cli-main.js',
      'dist/cli.js',
      'dist/server-core.js',
      'dist/server.js',
      'dist/tree-sitter-javascript.wasm',
      'dist/tree-sitter-python.wasm',
      'dist/tree-sitter-tsx.wasm',
      'dist/tree-sitter-typescript.wasm',
      'dist/web-tree-sitter.cjs',
      'dist/web-tree-sitter.wasm',
      'package.json',
    ]);
    // No tests, benchmarks, sources or source maps; a few MB, not tens.
    expect(files.filter((f) => /^(test|bench|src|examples|scripts)\/|\.map$|\.ts$/.test(f))).toEqual([]);
    expect(packed.unpackedSize).toBeLessThan(10 * 1024 * 1024);
    console.log(`npm package: ${packed.entryCount} files, ${(packed.size / 1e6).toFixed(2)} MB packed, ${(packed.unpackedSize / 1e6).toFixed(2)} MB unpacked`);
  });

  it('declares no dependencies (dist/ bundles them) and is not private', () => {
    const manifest = JSON.parse(execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' })) as Record<string, unknown>;
    expect(manifest.private).toBeUndefined();
    expect(manifest.dependencies ?? {}).toEqual({});
    expect(manifest.optionalDependencies ?? {}).toEqual({});
    expect(manifest.peerDependencies ?? {}).toEqual({});
    expect(manifest.bin).toEqual({ prefixlint: 'dist/cli.js' });
    // Installing from the registry or a tarball runs no script.
    const scripts = (manifest.scripts ?? {}) as Record<string, string>;
    for (const s of ['preinstall', 'install', 'postinstall', 'prepare']) expect(scripts[s], s).toBeUndefined();
  });

  it('installs offline into an empty project with zero dependencies, and `npx prefixlint check` works there', () => {
    const project = tmp('consumer');
    fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }, null, 2));
    // No registry can be reached, and the cache starts empty: everything comes from the tarball.
    const env = userEnv({ npm_config_offline: 'true', npm_config_registry: 'http://127.0.0.1:9/', npm_config_cache: path.join(project, '.npm-cache') });
    const install = sh('npm', ['install', '--no-audit', '--no-fund', tarball], { cwd: project, env });
    expect(install.code, install.stderr).toBe(0);
    expect(install.stdout).toMatch(/added 1 package/);
    expect(fs.readdirSync(path.join(project, 'node_modules')).filter((n) => !n.startsWith('.')).sort()).toEqual(['prefixlint']);
    consumer = { project, env };

    fs.mkdirSync(path.join(project, 'src'));
    fs.writeFileSync(path.join(project, 'src', 'agent.py'), BAD_PY);
    fs.writeFileSync(path.join(project, 'src', 'good.py'), GOOD_PY);
    const check = sh('npx', ['--offline', 'prefixlint', 'check'], { cwd: project, env });
    expect(check.code, check.stderr).toBe(1);
    expect(check.stdout).toContain('error[volatile-system-prompt]: The system prompt includes the current time');
    expect(check.stdout).toContain('  --> src/agent.py:12:62');
    expect(check.stdout).toContain('Found 1 problem (1 error, 0 warnings, 0 infos) in 1 file.');
    const json = JSON.parse(sh('npx', ['--offline', 'prefixlint', 'check', '--format', 'json', 'src'], { cwd: project, env }).stdout) as Array<{ ruleId: string; url: string }>;
    expect(json.map((f) => f.ruleId)).toEqual(['volatile-system-prompt']);
    expect(json[0].url).toBe('https://github.com/prefixlint/prefixlint/blob/main/docs/rules/volatile-system-prompt.md');
    expect(sh('npx', ['--offline', 'prefixlint', '--version'], { cwd: project, env }).stdout).toBe(`prefixlint ${pkg.version}\n`);
    const fixed = sh('npx', ['--offline', 'prefixlint', 'check', '--fix', '--unsafe-fixes', 'src'], { cwd: project, env });
    expect(fixed.code, fixed.stderr).toBe(0);
    expect(fs.readFileSync(path.join(project, 'src', 'agent.py'), 'utf8')).not.toBe(BAD_PY);
  });
});

describe('the installed package as a language server', () => {
  it("starts as the README's Neovim, Helix and Zed setups start it, and serves an editor that does not pull: pushed diagnostics and quick fixes", async () => {
    expect(consumer, 'the install test ran first').toBeDefined();
    const { project, env } = consumer!;
    const commands = editorCommands(fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8'), fs.readFileSync(path.join(ROOT, 'editors', 'zed', 'src', 'lib.rs'), 'utf8'));
    const [command, ...args] = commands.helix;
    expect(commands.neovim).toEqual(commands.helix);
    expect(commands.zed).toEqual(commands.helix);
    const file = path.join(project, 'src', 'served.py');
    fs.writeFileSync(file, BAD_PY);
    // The package's bin on PATH, as after `npm install --global prefixlint`.
    const onPath = { ...env, PATH: `${path.join(project, 'node_modules', '.bin')}${path.delimiter}${env.PATH}` };
    const child = spawn(command, args, { cwd: project, env: onPath, stdio: ['pipe', 'pipe', 'inherit'] });
    const conn = createProtocolConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
    const pushed = new Promise<PublishDiagnosticsParams>((resolve) => conn.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
      if (p.diagnostics.length) resolve(p);
    }));
    conn.onNotification('window/logMessage', () => undefined);
    conn.onNotification('prefixlint/status', () => undefined);
    conn.listen();
    try {
      await conn.sendRequest('initialize', {
        processId: process.pid,
        rootUri: pathToFileURL(project).toString(),
        capabilities: { textDocument: { publishDiagnostics: { relatedInformation: true }, codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix'] } } } } },
        workspaceFolders: null,
      });
      await conn.sendNotification('initialized', {});
      const uri = pathToFileURL(file).toString();
      await conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'python', version: 1, text: BAD_PY } });
      const p = await pushed;
      expect(p.uri).toBe(uri);
      expect(p.diagnostics.map((d) => [d.code, d.range.start.line + 1, d.range.start.character + 1])).toEqual([['volatile-system-prompt', 12, 62]]);
      const actions = (await conn.sendRequest('textDocument/codeAction', { textDocument: { uri }, range: p.diagnostics[0].range, context: { diagnostics: p.diagnostics } })) as CodeAction[];
      // Moving the time is an unsafe fix: offered, not preferred.
      const fix = actions.find((a) => a.title === 'Move the time into the user message (unsafe fix)')!;
      expect(fix.isPreferred).toBe(false);
      expect(Object.keys(fix.edit!.changes!)).toEqual([uri]);
      await conn.sendRequest('shutdown');
      await conn.sendNotification('exit');
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      expect(code).toBe(0);
    } finally {
      conn.dispose();
      child.kill();
    }
  });
});

describe('a release tag', () => {
  it("is the npm package plus action.yml and .pre-commit-hooks.yaml, on top of the branch's head, with a package.json that runs no script", () => {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: releaseRepo, encoding: 'utf8' }).trim();
    const files = git('ls-tree', '-r', '--name-only', TAG).split('\n').sort();
    expect(files).toEqual(['.pre-commit-hooks.yaml', 'action.yml', ...packed.files.map((f) => f.path)].sort());
    expect(git('rev-parse', `${TAG}^`)).toBe(git('rev-parse', 'HEAD'));
    // The branch itself is left as it was: no generated file in it.
    expect(git('ls-tree', '-r', '--name-only', 'HEAD').split('\n').filter((f) => f.startsWith('dist/'))).toEqual([]);
    expect(git('status', '--porcelain')).toBe('');
    const manifest = JSON.parse(git('show', `${TAG}:package.json`)) as Record<string, unknown>;
    expect([manifest.scripts, manifest.devDependencies, manifest.dependencies]).toEqual([undefined, undefined, undefined]);
    expect(manifest.version).toBe(pkg.version);
    expect(git('show', `${TAG}:.pre-commit-hooks.yaml`)).toBe(fs.readFileSync(path.join(ROOT, '.pre-commit-hooks.yaml'), 'utf8').trimEnd());
  });

  it('is what the release workflow makes and pushes, from the tarball it publishes', () => {
    const workflow = parseYaml(fs.readFileSync(path.join(ROOT, '.github', 'workflows', 'release.yml'), 'utf8')) as { jobs: Record<string, { steps: Array<{ run?: string }> }> };
    const runs = Object.values(workflow.jobs).flatMap((j) => j.steps.map((st) => st.run ?? '')).join('\n');
    expect(runs).toMatch(/node scripts\/release-tree\.mjs "\$RUNNER_TEMP\/release" --tarball "\$RUNNER_TEMP\/out\/prefixlint-\$VERSION\.tgz" --tag/);
    expect(runs).toContain('git push origin "v$VERSION"');
    expect(runs).toContain('npm publish "$RUNNER_TEMP/out/prefixlint-$VERSION.tgz"');
  });
});

describe('pre-commit', () => {
  const version = sh('pre-commit', ['--version']);
  if (version.error && process.getuid?.() === 0 && fs.existsSync('/usr/bin/apt-get')) {
    // As on CI (root on Debian): Debian packages pre-commit, with nodeenv.
    sh('bash', ['-c', 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq pre-commit'], { timeout: 300_000 });
  }
  const available = !sh('pre-commit', ['--version']).error;
  if (!available) console.log('SKIPPED the pre-commit tests: pre-commit is not installed and cannot be installed here (apt-get as root); pip install pre-commit runs them');

  /** A user's repository with these files staged. */
  function userRepo(files: Record<string, string>): string {
    const dir = tmp('user');
    const git = gitRepo(dir);
    for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
    git('add', '-A');
    return dir;
  }

  const tryRepo = (cwd: string, hook: string) =>
    sh('pre-commit', ['try-repo', releaseRepo, hook, '--ref', TAG, '--all-files', '--color', 'never'], {
      cwd,
      // Its own store, and no network: the hook installs from the tag's checkout alone.
      env: userEnv({ PRE_COMMIT_HOME: path.join(cwd, '.pre-commit-home'), npm_config_offline: 'true', npm_config_registry: 'http://127.0.0.1:9/' }),
      timeout: 300_000,
    });

  it.skipIf(!available)("`pre-commit try-repo` installs the release tag's hook from its git checkout and runs it on a temporary repository", () => {
    const dir = userRepo({ 'agent.py': BAD_PY, 'good.py': GOOD_PY, 'notes.md': '# not linted\n' });
    const r = tryRepo(dir, 'prefixlint');
    console.log(`pre-commit ${sh('pre-commit', ['--version']).stdout.trim()}`);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toMatch(/^prefixlint\.+Failed$/m);
    expect(r.stdout).toContain('error[volatile-system-prompt]');
    expect(r.stdout).toContain('--> agent.py:12:62');
    expect(r.stdout).toContain('Found 1 problem (1 error, 0 warnings, 0 infos) in 1 file.');
    const clean = userRepo({ 'good.py': GOOD_PY });
    const passed = tryRepo(clean, 'prefixlint');
    expect(passed.code, passed.stdout + passed.stderr).toBe(0);
    expect(passed.stdout).toMatch(/^prefixlint\.+Passed$/m);
  });

  it.skipIf(!available)('the prefixlint-fix hook applies the safe fixes to the staged files', () => {
    const dir = userRepo({ 'agent.py': SAFE_FIX_PY, 'clock.py': BAD_PY });
    const r = tryRepo(dir, 'prefixlint-fix');
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toContain('Fixed 1 problem in 1 file.');
    expect(r.stdout).toContain('files were modified by this hook');
    expect(fs.readFileSync(path.join(dir, 'agent.py'), 'utf8')).toBe(SAFE_FIX_PY.replace('client.beta.prompt_caching.messages.create', 'client.messages.create'));
    // Only the safe fixes: the unsafe one (moving the time) is left to the user.
    expect(fs.readFileSync(path.join(dir, 'clock.py'), 'utf8')).toBe(BAD_PY);
  });
});

describe('the GitHub Action (action.yml)', () => {
  interface Step {
    id?: string;
    shell?: string;
    run?: string;
    uses?: string;
    env?: Record<string, string>;
    'working-directory'?: string;
  }
  interface ActionFile {
    inputs: Record<string, { default?: string }>;
    outputs: Record<string, { value: string }>;
    runs: { using: string; steps: Step[] };
  }
  const action = parseYaml(fs.readFileSync(path.join(ROOT, 'action.yml'), 'utf8')) as ActionFile;

  /** `${{ inputs.x }}` and nothing else: what the action's expressions may use. */
  const expand = (text: string, inputs: Record<string, string>) =>
    text.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_, expr: string) => {
      const m = /^inputs\.([\w-]+)$/.exec(expr);
      if (!m || !(m[1] in action.inputs)) throw new Error(`action.yml: unexpected expression \${{ ${expr} }}`);
      return inputs[m[1]];
    });

  /** Runs the action's steps as the runner does (bash -e -o pipefail, GITHUB_* files), from a release checkout. */
  function runAction(workspace: string, with_: Record<string, string>) {
    const inputs: Record<string, string> = {};
    for (const [name, spec] of Object.entries(action.inputs)) inputs[name] = with_[name] ?? spec.default ?? '';
    for (const name of Object.keys(with_)) expect(action.inputs, `input ${name}`).toHaveProperty(name);
    const outputs = path.join(workspace, '.github-output');
    fs.writeFileSync(outputs, '');
    let last = { code: 0 as number | null, stdout: '', stderr: '' };
    for (const step of action.runs.steps) {
      expect(step.uses, 'the action runs no other action').toBeUndefined();
      expect(step.shell).toBe('bash');
      const env = userEnv({ GITHUB_ACTION_PATH: actionCheckout, GITHUB_OUTPUT: outputs, GITHUB_WORKSPACE: workspace });
      for (const [k, v] of Object.entries(step.env ?? {})) env[k] = expand(v, inputs);
      const script = path.join(workspace, '.step.sh');
      fs.writeFileSync(script, expand(step.run!, inputs));
      const cwd = path.resolve(workspace, expand(step['working-directory'] ?? '.', inputs));
      last = sh('bash', ['--noprofile', '--norc', '-e', '-o', 'pipefail', script], { cwd, env });
      if (last.code !== 0) break;
    }
    const out = Object.fromEntries(
      fs
        .readFileSync(outputs, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split('=')),
    ) as Record<string, string>;
    return { ...last, outputs: out };
  }

  /** The workflow in the README's GitHub Actions section. */
  function readmeWorkflow(): { jobs: Record<string, { steps: Array<{ uses?: string; with?: Record<string, string>; if?: string }> }> } {
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const block = [...readme.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]).find((b) => b.includes('uses: prefixlint/prefixlint@'));
    expect(block, 'a workflow that uses the action in README.md').toBeDefined();
    return parseYaml(block!);
  }

  it("runs the README's workflow step: SARIF written to the file that the next step uploads, the step failing on findings", () => {
    const steps = Object.values(readmeWorkflow().jobs).flatMap((j) => j.steps);
    const ours = steps.findIndex((s) => s.uses?.startsWith('prefixlint/prefixlint@'));
    expect(steps[ours].uses).toBe(`prefixlint/prefixlint@${TAG}`);
    const upload = steps.find((s) => s.uses?.startsWith('github/codeql-action/upload-sarif@'))!;
    expect(steps.indexOf(upload)).toBeGreaterThan(ours);
    expect(upload.if).toBe('always()');
    expect(steps[ours].with?.format).toBe('sarif');
    expect(upload.with?.sarif_file).toBe(steps[ours].with?.output);

    const workspace = tmp('workspace');
    fs.mkdirSync(path.join(workspace, 'src'));
    fs.writeFileSync(path.join(workspace, 'src', 'agent.py'), BAD_PY);
    const r = runAction(workspace, steps[ours].with!);
    expect(r.code, r.stderr).toBe(1);
    expect(r.outputs['exit-code']).toBe('1');
    const sarif = JSON.parse(fs.readFileSync(path.join(workspace, upload.with!.sarif_file), 'utf8')) as { version: string; runs: Array<{ results: Array<{ ruleId: string; locations: Array<{ physicalLocation: { artifactLocation: { uri: string } } }> }> }> };
    expect(sarif.version).toBe('2.1.0');
    expect(sarif.runs[0].results.map((x) => [x.ruleId, x.locations[0].physicalLocation.artifactLocation.uri])).toEqual([['volatile-system-prompt', 'src/agent.py']]);
  });

  it('annotates by default, takes paths (globs unexpanded), the fail level and more options, and reports the exit code', () => {
    const workspace = tmp('workspace');
    fs.mkdirSync(path.join(workspace, 'app', 'deep'), { recursive: true });
    fs.writeFileSync(path.join(workspace, 'app', 'deep', 'mixed.py'), MIXED_PY);
    fs.writeFileSync(path.join(workspace, 'app', 'agent.py'), BAD_PY);
    fs.writeFileSync(path.join(workspace, 'other.py'), BAD_PY);
    const annotated = runAction(workspace, { paths: 'app/**/*.py' });
    expect(annotated.code).toBe(1);
    const lines = annotated.stdout.trim().split('\n');
    expect(lines.every((l) => l.startsWith('::'))).toBe(true);
    expect(new Set(lines.map((l) => /file=([^,]+)/.exec(l)![1]))).toEqual(new Set(['app/agent.py', 'app/deep/mixed.py']));

    const warningsOnly = runAction(workspace, { paths: 'app/deep', 'fail-level': 'error', args: '--select unstable-serialization' });
    expect([warningsOnly.code, warningsOnly.outputs['exit-code']]).toEqual([0, '0']);
    expect(warningsOnly.stdout).toMatch(/^::warning file=app\/deep\/mixed\.py,/);

    const concise = runAction(workspace, { paths: 'other.py\napp/agent.py', format: 'concise' });
    expect(concise.stdout.split('\n').filter((l) => l.includes('volatile-system-prompt')).map((l) => l.split(':')[0])).toEqual(['app/agent.py', 'other.py']);

    const inFolder = runAction(workspace, { 'working-directory': 'app', format: 'json' });
    expect((JSON.parse(inFolder.stdout) as Array<{ file: string }>).map((f) => f.file).sort()).toEqual(['agent.py', 'deep/mixed.py', 'deep/mixed.py']);

    const usage = runAction(workspace, { 'fail-level': 'fatal' });
    expect([usage.code, usage.outputs['exit-code']]).toEqual([2, '2']);
  });

  it('says what is wrong when the checkout has no build (a branch, not a release tag)', () => {
    const workspace = tmp('workspace');
    const step = action.runs.steps[0];
    const env = userEnv({ GITHUB_ACTION_PATH: workspace, GITHUB_OUTPUT: path.join(workspace, 'out') });
    for (const [k, v] of Object.entries(step.env ?? {})) env[k] = v.replace(/\$\{\{[^}]+\}\}/g, '');
    const script = path.join(workspace, 'step.sh');
    fs.writeFileSync(script, step.run!);
    const r = sh('bash', ['--noprofile', '--norc', '-e', '-o', 'pipefail', script], { cwd: workspace, env });
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(/^::error title=prefixlint::.*dist\/cli\.js is missing: use a release tag of the action/);
  });
});
