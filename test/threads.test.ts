/**
 * Linting with worker threads, through the built CLI: the same output with one thread as with
 * several, and a worker that fails on a file (stops, runs out of memory, hangs) costs that file
 * only: it is reported as an internal error, the run goes on, and exits 2.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cleanFileOutcome, FileLinter, isClean, startLintWorkers, lintInWorkers, stopLintWorkers, walkInLintWorkers } from '../src/cli/lint';
import { Configuration } from '../src/engine/config';
import { discoverFiles } from '../src/host/files';
import { DiskHost } from '../src/host/source';
import type { EarlyWorker, LintJob, LintResult } from '../src/cli/lint';
import { CLI, project, run, useCli } from './cli-harness';
import { FIXTURES, ROOT } from './helpers';

/**
 * One lint worker started early with `failpoint` in its environment (a worker copies the
 * environment when it starts): `lost:loaded` stops it once its engine has loaded, `lost:walk` in
 * the walk. Terminating a worker here instead could take this process down while V8 still
 * compiles its grammars.
 */
function startLosing(failpoint: 'lost:loaded' | 'lost:walk', job: LintJob): EarlyWorker {
  const before = process.env.PREFIXLINT_WORKER_FAILPOINT;
  process.env.PREFIXLINT_WORKER_FAILPOINT = failpoint;
  try {
    return startLintWorkers(CLI, job, 1)[0];
  } finally {
    if (before === undefined) delete process.env.PREFIXLINT_WORKER_FAILPOINT;
    else process.env.PREFIXLINT_WORKER_FAILPOINT = before;
  }
}

/** Resolves once an early worker has stopped. */
function stopped(e: EarlyWorker): Promise<void> {
  return new Promise((resolve) => (e.lost !== undefined ? resolve() : e.worker.once('exit', () => resolve())));
}

const SOURCE = /^(bad|good)[\w-]*\.(py|ts|tsx|js|jsx|ipynb)$/;

useCli();

let dir: string;
let files: number;
beforeAll(() => {
  // Every rule's fixtures, each folder a package of the project: well over the files that pay for workers.
  const all: Record<string, Buffer> = {};
  for (const rule of fs.readdirSync(FIXTURES)) {
    const d = path.join(FIXTURES, rule);
    if (!fs.statSync(d).isDirectory() || rule.startsWith('_')) continue;
    for (const name of fs.readdirSync(d)) if (SOURCE.test(name) || name.startsWith('_')) all[`${rule}/${name}`] = fs.readFileSync(path.join(d, name));
  }
  all['.git/HEAD'] = Buffer.from('ref: refs/heads/main\n');
  // Folders the walk leaves out, by .gitignore and by the configuration: the walk of a run with
  // workers runs in the lint workers, each with a configuration of its own (cli/lint.ts).
  const bad = all['volatile-system-prompt/bad.py'];
  all['.gitignore'] = Buffer.from('/ignored-by-git/\n');
  all['ignored-by-git/bad.py'] = bad;
  all['.prefixlintrc.json'] = Buffer.from('{"exclude": ["excluded-by-config/"]}\n');
  all['excluded-by-config/bad.py'] = bad;
  dir = project(all);
  files = Object.keys(all).filter((f) => SOURCE.test(path.basename(f)) && !/^(ignored|excluded)-by/.test(f)).length;
});

/** The job of a plain `check` run (no fixes), for the tests that drive the workers directly. */
function lintJob(): LintJob {
  return { fix: false, unsafeFixes: false, write: false, overrides: {}, fileEdits: false, prefilter: true, textsFromHost: true };
}

describe('threads', () => {
  it('have enough files to use workers', () => {
    expect(files).toBeGreaterThan(200);
  });

  for (const format of ['json', 'sarif', 'text']) {
    it(`give the same ${format} output, notices and exit code with 1, 2 and 3 threads`, () => {
      const one = run(dir, ['check', '--format', format, '--threads', '1', '.']);
      expect(one.code).toBe(1);
      expect(one.stdout).not.toMatch(/ignored-by-git|excluded-by-config/);
      for (const n of ['2', '3']) {
        const many = run(dir, ['check', '--format', format, '--threads', n, '.']);
        expect(many.stdout).toBe(one.stdout);
        expect(many.stderr).toBe(one.stderr);
        expect(many.code).toBe(one.code);
      }
    }, 120_000);
  }

  const victim = 'volatile-system-prompt/bad.py';
  for (const [what, why] of [
    ['exit', /internal error: the worker stopped/],
    ['oom', /internal error: the analysis ran out of memory/],
    ['hang', /internal error: the analysis did not finish within 5 s/],
  ] as const) {
    it(`a worker that ${what === 'exit' ? 'stops' : what === 'oom' ? 'runs out of memory' : 'hangs'} on a file fails that file only`, () => {
      // The short deadline is the hang's: a file that runs out of memory fills the 68 MB heap and then,
      // alone, the 1 GB one (~2.5 s on a quiet machine, more than 5 s on a loaded one).
      const env = { PREFIXLINT_WORKER_FAILPOINT: `${what}:${victim}`, ...(what === 'hang' ? { PREFIXLINT_FILE_DEADLINE_MS: '5000' } : {}) };
      const healthy = run(dir, ['check', '--format', 'json', '--threads', '1', '.']);
      const r = run(dir, ['check', '--format', 'json', '--threads', '2', '.'], { env });
      expect(r.code).toBe(2);
      // That file fails; every other file gives what it gives in a healthy run.
      expect(r.stderr.split('\n').filter((l) => why.test(l))).toEqual([`${victim}: ${r.stderr.split(`${victim}: `)[1]?.split('\n')[0]}`]);
      const others = (out: string) => (JSON.parse(out) as Array<{ file: string }>).filter((f) => f.file !== victim);
      expect(others(r.stdout)).toEqual(others(healthy.stdout));
      expect(others(healthy.stdout).length).toBeLessThan((JSON.parse(healthy.stdout) as unknown[]).length);
    }, 180_000);
  }

  it('lints a file that runs out of a worker\'s heap again alone, in a worker with a larger heap', () => {
    const env = { PREFIXLINT_WORKER_FAILPOINT: `oom-shared:${victim}` };
    const healthy = run(dir, ['check', '--format', 'json', '--threads', '1', '.']);
    const r = run(dir, ['check', '--format', 'json', '--threads', '2', '.'], { env });
    expect(r.stderr).not.toMatch(/internal error/);
    expect(r.code).toBe(healthy.code);
    expect(r.stdout).toBe(healthy.stdout);
    expect((JSON.parse(r.stdout) as Array<{ file: string }>).some((f) => f.file === victim)).toBe(true);
  }, 180_000);

  // One core (taskset pins the run to one; libuv counts the cores it may run on): the default is
  // one worker, not the main thread, so that a file that never finishes fails alone.
  it('on a machine of one core, a file that hangs fails alone', () => {
    const env = { ...process.env, NO_COLOR: '1', PREFIXLINT_WORKER_FAILPOINT: `hang:${victim}`, PREFIXLINT_FILE_DEADLINE_MS: '5000' };
    const cores = spawnSync('taskset', ['-c', '0', process.execPath, '-p', 'require("node:os").availableParallelism()'], { encoding: 'utf8' });
    expect(cores.stdout.trim()).toBe('1');
    const healthy = run(dir, ['check', '--format', 'json', '--threads', '1', '.']);
    const r = spawnSync('taskset', ['-c', '0', process.execPath, CLI, 'check', '--format', 'json', '.'], { cwd: dir, encoding: 'utf8', env, maxBuffer: 64 * 1024 * 1024, timeout: 120_000 });
    expect(r.status).toBe(2);
    expect(r.stderr.split('\n').filter((l) => /internal error: the analysis did not finish within 5 s/.test(l))).toEqual([`${victim}: internal error: the analysis did not finish within 5 s`]);
    const others = (out: string) => (JSON.parse(out) as Array<{ file: string }>).filter((f) => f.file !== victim);
    expect(others(r.stdout)).toEqual(others(healthy.stdout));
  }, 180_000);

  // A run of fewer files than pay for a worker lints in one of the workers started for its walk:
  // a file that never finishes fails alone there too, and the others give what they give in this thread.
  it('in a run of few files, a file that hangs fails alone', () => {
    const few = project({
      'bad.py': fs.readFileSync(path.join(dir, victim)),
      'other.py': fs.readFileSync(path.join(dir, 'retired-model/bad-default.py')),
      'clean.py': Buffer.from('print("hello")\n'),
      '.git/HEAD': Buffer.from('ref: refs/heads/main\n'),
    });
    const env = { PREFIXLINT_WORKER_FAILPOINT: 'hang:bad.py', PREFIXLINT_FILE_DEADLINE_MS: '5000' };
    const healthy = run(few, ['check', '--format', 'json', '--threads', '1', '.']);
    const r = run(few, ['check', '--format', 'json', '.'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n').filter((l) => /internal error/.test(l))).toEqual(['bad.py: internal error: the analysis did not finish within 5 s']);
    const others = (out: string) => (JSON.parse(out) as Array<{ file: string }>).filter((f) => f.file !== 'bad.py');
    expect(others(r.stdout)).toEqual(others(healthy.stdout));
    expect(others(healthy.stdout).length).toBeGreaterThan(0);
  }, 120_000);

  // Workers start while the walk runs (startLintWorkers); one that stops before it is given any
  // work is replaced, and the walk's result reaches every worker, the replacement too.
  it('replaces a worker started early that stopped before it got work', async () => {
    const sources = fs.readdirSync(path.join(dir, 'volatile-system-prompt')).filter((f) => SOURCE.test(f)).map((f) => path.join(dir, 'volatile-system-prompt', f));
    const job = lintJob();
    const early = [startLosing('lost:loaded', job), ...startLintWorkers(CLI, job, 1)];
    await stopped(early[0]);
    expect(early[0].lost).toBe('the worker stopped');
    job.project = { folders: [dir], files: sources };
    const got: LintResult[] = [];
    await lintInWorkers(CLI, sources, job, 2, (i, r) => (got[i] = r), early);
    stopLintWorkers(early);
    expect(early).toEqual([]);
    expect(got.map((r) => r.outcome.crashed)).toEqual(sources.map(() => false));
    expect(got.map((r) => r.outcome.findings.length).reduce((a, b) => a + b)).toBeGreaterThan(0);
  }, 60_000);

  // A worker started early that the run does not need (few files, or fewer workers) is asked to
  // stop, and stops itself once its grammars are compiled (exit code 0): terminated while V8 still
  // compiled them, a worker took the whole process down now and then (SIGSEGV).
  it('stops a worker started early that is not needed by asking it, before or after the walk', async () => {
    const job = lintJob();
    const exits = (early: ReturnType<typeof startLintWorkers>) => early.map((e) => new Promise<number>((resolve) => e.worker.once('exit', resolve)));
    const fresh = startLintWorkers(CLI, job, 2);
    const freshExits = exits(fresh);
    stopLintWorkers(fresh);
    expect(await Promise.all(freshExits)).toEqual([0, 0]);
    const walking = startLintWorkers(CLI, job, 2);
    const walkingExits = exits(walking);
    await walkInLintWorkers(walking, ['.'], dir);
    stopLintWorkers(walking);
    expect(await Promise.all(walkingExits)).toEqual([0, 0]);
  }, 60_000);

  // The lint workers started early walk the project (walkInLintWorkers), each taking entries of
  // the folders given, while their engines load; then they lint what was found.
  for (const threads of [1, 2, 3]) {
    it(`${threads} lint worker${threads > 1 ? 's' : ''} walk the project as this thread does, then lint its files`, async () => {
      const host = new DiskHost();
      const config = new Configuration(host);
      const alone = discoverFiles(['.'], dir, (abs, isDir) => config.excluded(abs, isDir));
      expect(alone.files.some((f) => f.includes('ignored-by-git') || f.includes('excluded-by-config'))).toBe(false);
      const job = lintJob();
      const early = startLintWorkers(CLI, job, threads);
      const walked = await walkInLintWorkers(early, ['.'], dir);
      expect(walked.files).toEqual(alone.files);
      expect(walked.configExcluded).toBe(alone.configExcluded);
      job.project = { folders: [dir], files: walked.files };
      const sources = walked.files.filter((f) => f.includes(`${path.sep}volatile-system-prompt${path.sep}`));
      const got: LintResult[] = [];
      await lintInWorkers(CLI, sources, job, threads, (i, r) => (got[i] = r), early);
      expect(early).toEqual([]);
      expect(got.map((r) => r.outcome.crashed)).toEqual(sources.map(() => false));
      expect(got.map((r) => r.outcome.findings.length).reduce((a, b) => a + b)).toBeGreaterThan(0);
    }, 60_000);
  }

  // A clean file's result waits for its turn as numbers (PendingResults) and is made again when
  // delivered: the same outcome, fail level and steps as this thread's lint gives, in file order.
  it('deliver every file\'s result in order, a clean file\'s as this thread lints it', async () => {
    const host = new DiskHost();
    const config = new Configuration(host);
    const walk = discoverFiles(['.'], dir, (abs, isDir) => config.excluded(abs, isDir));
    const job = lintJob();
    job.project = { folders: [dir], files: walk.files };
    // Files of two rules' fixtures, clean ones (good-*) among those with findings, in walk order.
    const sources = walk.files.filter((f) => /[\\/](volatile-system-prompt|unknown-beta)[\\/]/.test(f));
    const inThread = await FileLinter.create({ ...job });
    const want = sources.map((f) => inThread.lint(f));
    expect(want.filter(isClean).length).toBeGreaterThan(3);
    expect(want.filter((r) => !isClean(r)).length).toBeGreaterThan(3);
    const got: Array<[number, LintResult]> = [];
    await lintInWorkers(CLI, sources, job, 2, (i, r) => got.push([i, r]));
    expect(got.map(([i]) => i)).toEqual(sources.map((_, i) => i));
    // Steps depend on what the thread read before (its caches), so only their presence is compared.
    const shape = (r: LintResult) => ({ ...r.outcome, findings: r.outcome.findings.map((f) => [f.diagnostic.ruleId, f.start, f.end]), failLevel: r.failLevel, steps: typeof r.outcome.steps });
    expect(got.map(([, r]) => shape(r))).toEqual(want.map(shape));
    // The clean ones, as the report makes them again from the path alone.
    for (const [i, r] of got) if (isClean(r)) expect({ ...cleanFileOutcome(sources[i]), steps: r.outcome.steps }).toEqual(r.outcome);
  }, 60_000);

  it('a walk with a worker that stopped is refused (the run then walks in this thread)', async () => {
    const job = lintJob();
    const early = [...startLintWorkers(CLI, job, 1), startLosing('lost:loaded', job)];
    await stopped(early[1]);
    await expect(walkInLintWorkers(early, ['.'], dir)).rejects.toThrow(/the worker stopped/);
    stopLintWorkers(early);
  }, 60_000);

  // A walk given up because one worker stopped in it: the run walks in this thread, and the other
  // worker's answer to the walk, which comes after that, does not disturb its linting.
  it('a walk given up while another worker still walks leaves that worker able to lint', async () => {
    const job = lintJob();
    const early = [...startLintWorkers(CLI, job, 1), startLosing('lost:walk', job)];
    await expect(walkInLintWorkers(early, ['.'], dir)).rejects.toThrow(/stopped during the walk/);
    const sources = fs.readdirSync(path.join(dir, 'volatile-system-prompt')).filter((f) => SOURCE.test(f)).map((f) => path.join(dir, 'volatile-system-prompt', f));
    job.project = { folders: [dir], files: sources };
    const got: LintResult[] = [];
    await lintInWorkers(CLI, sources, job, 2, (i, r) => (got[i] = r), early);
    expect(got.map((r) => r.outcome.crashed)).toEqual(sources.map(() => false));
    expect(got.map((r) => r.outcome.findings.length).reduce((a, b) => a + b)).toBeGreaterThan(0);
  }, 60_000);

  // A broken install: the bundle without the parser's runtime and grammars beside it. The workers
  // walk, then cannot load their engine; every file fails with the reason (the runtime's script,
  // the first file looked for), none hangs, and the run exits 2.
  it('a bundle without its grammars fails every file with the reason, with workers', () => {
    const bin = project({ 'cli.js': fs.readFileSync(CLI), 'cli-main.js': fs.readFileSync(path.join(path.dirname(CLI), 'cli-main.js')) });
    const sources: Record<string, string> = {};
    for (let i = 0; i < 60; i++) sources[`pkg/m${i}.py`] = `import json\n\n\ndef f${i}():\n    return json.dumps({})\n`;
    const where = project(sources);
    const r = spawnSync(process.execPath, [path.join(bin, 'cli.js'), 'check', '--format', 'json', '.'], { cwd: where, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, timeout: 60_000 });
    expect(r.status).toBe(2);
    expect(JSON.parse(r.stdout)).toEqual([]);
    const failed = r.stderr.split('\n').filter((l) => l.includes('internal error: cannot find web-tree-sitter.cjs'));
    expect(failed.map((l) => l.split(':')[0]).sort()).toEqual(Object.keys(sources).sort());
  }, 60_000);

  it('rejects --threads 0', () => {
    const r = run(dir, ['check', '--threads', '0', '.']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--threads/);
  });
});

// The help lists the option.
it('check --help documents --threads', () => {
  const r = run(ROOT, ['check', '--help']);
  expect(r.stdout).toMatch(/--threads N/);
});
