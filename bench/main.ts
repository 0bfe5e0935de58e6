/**
 * `npm run bench`: prefixlint against the single-thread tree-sitter parse (the floor), ast-grep
 * and ESLint, side by side in one run, on the real-code corpus (`--corpus DIR`) or on a generated
 * corpus of agent code; plus the editor's change → diagnostics time and activation. Writes
 * bench/results/latest.json and latest.md, regenerates the README's speed section and prints the
 * table. Started by bench/run.mjs, which builds dist/ and this harness first. Options: see USAGE
 * in bench/report.ts (`npm run bench -- --help`).
 *
 * Every tool runs as a process over the whole corpus at once (one start-up each), on exactly the
 * files `prefixlint check` lints there: the list comes from prefixlint's own file discovery and
 * is checked against the files the CLI reports in its PREFIXLINT_STATS file.
 */
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { discoverFiles, DEFAULT_EXCLUDED_DIRS } from '../src/host/files';
import { DiskHost } from '../src/host/source';
import { ConfigResolver } from '../src/config/resolve';
import { allRules } from '../src/rules';
import { generateCorpus } from './corpus';
import { editorBench } from './editor';
import { writeReports } from './readme';
import type { ActivationResult, EditorLanguageResult, Measure, MeasureId, Options, Results, Run } from './report';
import { chunkArgs, othersLoad, parseOptions, renderMarkdown, round, USAGE, UsageError } from './report';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const WORK = path.join(ROOT, 'bench', '.work');
const DIST = path.join(ROOT, 'dist');
const RESULTS = path.join(ROOT, 'bench', 'results');
const TS_JS = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;
const CORES = os.availableParallelism();

const log = (line: string) => console.log(line);

// ---------------------------------------------------------------------------------------------
// Processes
// ---------------------------------------------------------------------------------------------

const GNU_TIME = ['/usr/bin/time', '/bin/time'].find((p) => {
  try {
    execFileSync(p, ['-f', '%M', 'true'], { stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
});

/** CPU seconds the whole machine has been busy (all cores), from /proc/stat; undefined elsewhere. */
function machineBusyS(): number | undefined {
  try {
    const f = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal (guest time is counted in user already)
    const busy = f[0] + f[1] + f[2] + f[5] + f[6] + (f[7] ?? 0);
    return busy / 100; // USER_HZ is 100 on Linux
  } catch {
    return undefined;
  }
}

interface ProcRun extends Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a command to completion and measures its wall time, peak RSS and CPU time: with GNU time
 * when it is installed (`apt-get install time`), otherwise by polling /proc/<pid>/status (VmHWM).
 */
function runProcess(cmd: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<ProcRun> {
  const rssFile = path.join(WORK, `time-${process.pid}.txt`);
  const [file, argv] = GNU_TIME ? [GNU_TIME, ['-o', rssFile, '-f', '%M %U %S', cmd, ...args]] : [cmd, args];
  return new Promise((resolve, reject) => {
    const busy0 = machineBusyS();
    const t0 = performance.now();
    const child = spawn(file, argv, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1', ...env } });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    let polledKb = 0;
    const poll = GNU_TIME
      ? undefined
      : setInterval(() => {
          try {
            const m = /VmHWM:\s+(\d+)/.exec(fs.readFileSync(`/proc/${child.pid}/status`, 'utf8'));
            if (m) polledKb = Math.max(polledKb, Number(m[1]));
          } catch {
            // exited between polls
          }
        }, 5);
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = performance.now() - t0;
      const busy1 = machineBusyS();
      if (poll) clearInterval(poll);
      let kb = polledKb;
      let cpuS: number | undefined;
      if (GNU_TIME) {
        const [m, u, s] = fs.readFileSync(rssFile, 'utf8').trim().split('\n').pop()!.split(' ').map(Number);
        kb = m;
        cpuS = u + s;
        fs.rmSync(rssFile, { force: true });
      }
      const others = busy0 !== undefined && busy1 !== undefined && cpuS !== undefined ? othersLoad(busy1 - busy0, cpuS, ms / 1000, CORES) : undefined;
      resolve({ ms, rssMb: kb / 1024, cpuS, othersLoad: others, code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') });
    });
  });
}

/** Runs the same command once per chunk of paths, one after another, as one run. */
async function runChunked(cmd: string, args: string[], paths: string[], cwd: string): Promise<ProcRun> {
  const parts: ProcRun[] = [];
  for (const chunk of chunkArgs(paths)) parts.push(await runProcess(cmd, [...args, ...chunk], cwd));
  const all = parts.every((p) => p.cpuS !== undefined && p.othersLoad !== undefined);
  const ms = parts.reduce((s, p) => s + p.ms, 0);
  return {
    ms,
    rssMb: Math.max(...parts.map((p) => p.rssMb)),
    cpuS: all ? parts.reduce((s, p) => s + p.cpuS!, 0) : undefined,
    othersLoad: all ? round(parts.reduce((s, p) => s + p.othersLoad! * p.ms, 0) / ms, 3) : undefined,
    code: parts.find((p) => p.code !== 0)?.code ?? 0,
    stdout: parts.map((p) => p.stdout).join(''),
    stderr: parts.map((p) => p.stderr).join(''),
  };
}

// ---------------------------------------------------------------------------------------------
// Corpus
// ---------------------------------------------------------------------------------------------

interface Corpus {
  dir: string;
  kind: 'real' | 'generated';
  description: string;
  repositories?: number;
  /** Relative to dir, sorted, with forward slashes: the files prefixlint lints. */
  files: string[];
  bytes: number;
  tsJs: string[];
  tsJsBytes: number;
}

function prepareWork(): void {
  fs.mkdirSync(path.join(WORK, 'lists'), { recursive: true });
  // Everything under bench/.work is generated: git and ESLint leave it alone.
  fs.writeFileSync(path.join(WORK, '.gitignore'), '*\n');
  fs.writeFileSync(path.join(WORK, 'eslint.config.mjs'), "// Generated by bench/main.ts: nothing here is linted.\nexport default [{ ignores: ['**/*'] }];\n");
}

function copyDir(from: string, to: string): void {
  if (fs.existsSync(from)) fs.cpSync(from, to, { recursive: true });
}

function generated(o: Options): { dir: string; description: string } {
  const dir = path.join(WORK, 'corpus');
  fs.rmSync(dir, { recursive: true, force: true });
  let n = 0;
  for (const f of generateCorpus({ seed: o.seed, files: o.files, bytes: o.bytes })) {
    const p = path.join(dir, f.path);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, f.text);
    n++;
  }
  copyDir(path.join(ROOT, 'examples'), path.join(dir, 'examples'));
  // The corpus is a project of its own (bench/.work is git-ignored, and prefixlint, like git,
  // skips ignored files): a .git folder makes it the root of its own repository.
  fs.mkdirSync(path.join(dir, '.git'), { recursive: true });
  return { dir, description: `generated (seed ${o.seed}, ${n} files of agent code + examples/)` };
}

/** The files `prefixlint check` finds in `dir`, found the way the CLI finds them. */
function prefixlintFiles(dir: string): string[] {
  const resolver = new ConfigResolver(new DiskHost(), allRules);
  const found = discoverFiles(['.'], dir, (abs, isDir) => resolver.excluded(abs, isDir)).files;
  return found.map((f) => path.relative(dir, f).split(path.sep).join('/'));
}

function loadCorpus(o: Options): Corpus {
  let dir: string;
  let description: string;
  let repositories: number | undefined;
  let kind: Corpus['kind'];
  if (o.corpus) {
    dir = path.resolve(o.corpus);
    if (!fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory()) throw new UsageError(`--corpus: ${o.corpus}: no such folder`);
    repositories = fs.readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory() && !DEFAULT_EXCLUDED_DIRS.includes(d.name)).length;
    // Never a machine path in the report (it is committed): the corpus is the one shared/realcode/README.md builds.
    description = `the real-code corpus of shared/realcode (${path.basename(dir)}/)`;
    kind = 'real';
  } else {
    ({ dir, description } = generated(o));
    kind = 'generated';
  }
  const files = prefixlintFiles(dir);
  if (!files.length) throw new UsageError(`${dir}: prefixlint finds no files to lint there`);
  const tsJs = files.filter((f) => TS_JS.test(f));
  const size = (list: string[]) => list.reduce((s, f) => s + fs.statSync(path.join(dir, f)).size, 0);
  return { dir, kind, description, repositories, files, bytes: size(files), tsJs, tsJsBytes: size(tsJs) };
}

function byExtension(files: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const f of files) {
    const ext = path.extname(f).toLowerCase();
    out[ext] = (out[ext] ?? 0) + 1;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Peers
// ---------------------------------------------------------------------------------------------

function astGrepBinary(): string {
  const platform = path.join(ROOT, 'node_modules', '@ast-grep', `cli-${process.platform}-${process.arch}-gnu`, 'ast-grep');
  if (fs.existsSync(platform)) return platform;
  return path.join(ROOT, 'node_modules', '@ast-grep', 'cli', process.platform === 'win32' ? 'ast-grep.exe' : 'ast-grep');
}

/** The ast-grep project: the committed rules plus their TSX and JavaScript copies. */
function astGrepConfig(): { config: string; rules: number } {
  const from = path.join(ROOT, 'bench', 'peers', 'ast-grep');
  const to = path.join(WORK, 'ast-grep');
  fs.rmSync(to, { recursive: true, force: true });
  copyDir(from, to);
  const ts = fs.readFileSync(path.join(to, 'rules', 'typescript.yml'), 'utf8');
  for (const [lang, prefix] of [
    ['Tsx', 'tsx'],
    ['JavaScript', 'js'],
  ]) {
    const copy = ts.replace(/^language: TypeScript$/gm, `language: ${lang}`).replace(/^id: ts-/gm, `id: ${prefix}-`);
    fs.writeFileSync(path.join(to, 'rules', `${prefix}.yml`), copy);
  }
  const rules = fs
    .readdirSync(path.join(to, 'rules'))
    .map((f) => (fs.readFileSync(path.join(to, 'rules', f), 'utf8').match(/^id: /gm) ?? []).length)
    .reduce((a, b) => a + b, 0);
  return { config: path.join(to, 'sgconfig.yml'), rules };
}

function versionOf(pkg: string): string {
  try {
    return JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', pkg, 'package.json'), 'utf8')).version;
  } catch {
    return 'not installed';
  }
}

function jsonArrayLength(text: string): number | undefined {
  try {
    const v = JSON.parse(text);
    return Array.isArray(v) ? v.length : undefined;
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------------

interface Proc {
  id: MeasureId;
  name: string;
  command: string;
  scope: Measure['scope'];
  files: number;
  bytes: number;
  repeats: number;
  run: () => Promise<ProcRun>;
  /** Checks a run's output and returns what it found; throws when the run failed. */
  check: (r: ProcRun) => number;
  runs: ProcRun[];
  note?: string;
}

async function main(): Promise<void> {
  let o: Options | 'help';
  try {
    o = parseOptions(process.argv.slice(2));
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    console.error(`bench: ${err.message}\n\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  if (o === 'help') {
    console.log(USAGE);
    return;
  }
  const started = performance.now();
  const loadAtStart = os.loadavg();
  prepareWork();
  const c = loadCorpus(o);
  const notebooks = c.files.filter((f) => f.toLowerCase().endsWith('.ipynb'));
  const sgFiles = c.files.filter((f) => !f.toLowerCase().endsWith('.ipynb'));
  const lists = { all: path.join(WORK, 'lists', 'all.txt'), tsJs: path.join(WORK, 'lists', 'ts-js.txt') };
  fs.writeFileSync(lists.all, c.files.join('\n') + '\n');
  fs.writeFileSync(lists.tsJs, c.tsJs.join('\n') + '\n');
  log(`prefixlint bench: ${c.description}: ${c.files.length} files, ${(c.bytes / 1e6).toFixed(1)} MB (TS/JS part ${c.tsJs.length} files); ${o.repeats} runs (slow ones ${o.slowRepeats}), budget ${o.budgetS} s`);
  // Read every file once, so that the first tool does not pay for a cold page cache.
  for (const f of c.files) fs.readFileSync(path.join(c.dir, f));

  let editor: EditorLanguageResult[] = [];
  let activation: ActivationResult | undefined;
  let editorS: number | undefined;
  if (!o.skip.has('editor')) {
    const t = performance.now();
    ({ editor, activation } = await editorBench({ work: WORK, dist: DIST, serverScript: path.join(WORK, 'build', 'editor-server.cjs'), seed: o.seed, edits: o.editorEdits, log }));
    editorS = round((performance.now() - t) / 1000, 0);
    log(`  editor: ${editorS} s`);
  }

  const node = process.execPath;
  const cli = path.join(DIST, 'cli.js');
  const sg = astGrepBinary();
  const sgProject = astGrepConfig();
  const rel = (p: string) => path.relative(ROOT, p);
  const statsFile = (id: string) => path.join(WORK, `stats-${id}.json`);
  const all = { files: c.files.length, bytes: c.bytes };
  const tsJs = { files: c.tsJs.length, bytes: c.tsJsBytes };
  let threadsUsed: number | undefined;

  /** prefixlint as a user runs it; checks that it linted exactly the corpus's file list. */
  const prefixlint = (id: MeasureId, args: string[], expected: readonly string[], env: Record<string, string> = {}) => ({
    run: () => runProcess(node, [cli, 'check', '--format', 'json', '--exit-zero', ...args], c.dir, { PREFIXLINT_STATS: statsFile(id), ...env }),
    check: (r: ProcRun) => {
      const n = jsonArrayLength(r.stdout);
      if (n === undefined) throw new Error(`${id}: exit ${r.code}, no JSON on stdout:\n${r.stderr.slice(0, 2000)}`);
      const stats = JSON.parse(fs.readFileSync(statsFile(id), 'utf8')) as { files: Array<{ file: string }>; threads: number };
      const linted = stats.files.map((f) => f.file).sort();
      const want = [...expected].sort();
      if (linted.length !== want.length || linted.some((f, i) => f !== want[i])) {
        const extra = linted.filter((f) => !want.includes(f)).slice(0, 5);
        const missing = want.filter((f) => !linted.includes(f)).slice(0, 5);
        throw new Error(`${id}: prefixlint linted ${linted.length} files, the bench's list has ${want.length} (extra: ${extra.join(', ')}; missing: ${missing.join(', ')})`);
      }
      if (id === 'prefixlint') threadsUsed = stats.threads;
      return n;
    },
  });
  const exitZeroOrOne = (name: string, r: ProcRun) => {
    if (r.code !== 0 && r.code !== 1) throw new Error(`${name} exited with ${r.code}:\n${r.stderr.slice(0, 2000)}`);
  };

  const procs: Proc[] = [];
  const add = (p: Omit<Proc, 'runs'>, step: Parameters<Options['skip']['has']>[0]) => {
    if (!o.skip.has(step)) procs.push({ ...p, runs: [] });
  };
  add({ id: 'prefixlint', name: 'prefixlint check (default threads)', command: 'prefixlint check --format json --exit-zero', scope: 'all', ...all, repeats: o.repeats, ...prefixlint('prefixlint', [], c.files) }, 'cli');
  add(
    {
      id: 'floor',
      name: 'tree-sitter parse of every file (floor), 1 thread',
      command: `node bench/.work/build/floor.cjs dist ${rel(lists.all)}`,
      scope: 'all',
      ...all,
      repeats: o.repeats,
      run: () => runProcess(node, [path.join(WORK, 'build', 'floor.cjs'), DIST, lists.all], c.dir),
      check: (r) => {
        if (r.code !== 0) throw new Error(`floor exited with ${r.code}:\n${r.stderr.slice(0, 2000)}`);
        const f = JSON.parse(r.stdout) as { files: number; withErrors: number; notParsed: number };
        if (f.files + f.notParsed !== c.files.length) throw new Error(`floor parsed ${f.files} + ${f.notParsed} not parsed of ${c.files.length}`);
        return f.withErrors;
      },
      note: 'found: trees with syntax errors',
    },
    'floor',
  );
  const sgCount = (r: ProcRun) => r.stdout.split('\n').filter(Boolean).length;
  add(
    {
      id: 'ast-grep-1-thread',
      name: `ast-grep scan -j 1, ${sgProject.rules} pattern rules`,
      command: `ast-grep scan -c bench/peers/ast-grep/sgconfig.yml -j 1 --json=stream <files>`,
      scope: 'all',
      files: sgFiles.length,
      bytes: c.bytes - notebooks.reduce((s, f) => s + fs.statSync(path.join(c.dir, f)).size, 0),
      repeats: o.slowRepeats,
      run: () => runChunked(sg, ['scan', '-c', sgProject.config, '-j', '1', '--json=stream'], sgFiles, c.dir),
      check: (r) => (exitZeroOrOne('ast-grep', r), sgCount(r)),
      note: `the files but the notebooks, given as paths (${chunkArgs(sgFiles).length} command line${chunkArgs(sgFiles).length === 1 ? '' : 's'}); found: matches`,
    },
    'ast-grep',
  );
  add(
    {
      id: 'ast-grep',
      name: `ast-grep scan (default threads), ${sgProject.rules} pattern rules`,
      command: `ast-grep scan -c bench/peers/ast-grep/sgconfig.yml --json=stream <files>`,
      scope: 'all',
      files: sgFiles.length,
      bytes: procs.find((p) => p.id === 'ast-grep-1-thread')?.bytes ?? c.bytes,
      repeats: o.repeats,
      run: () => runChunked(sg, ['scan', '-c', sgProject.config, '--json=stream'], sgFiles, c.dir),
      check: (r) => (exitZeroOrOne('ast-grep', r), sgCount(r)),
    },
    'ast-grep',
  );
  add(
    { id: 'prefixlint-1-thread', name: 'prefixlint check --threads 1', command: 'prefixlint check --format json --exit-zero --threads 1', scope: 'all', ...all, repeats: o.slowRepeats, ...prefixlint('prefixlint-1-thread', ['--threads', '1'], c.files) },
    'cli-1-thread',
  );
  add(
    {
      id: 'prefixlint-ts-js',
      name: 'prefixlint check (default threads), TS/JS part',
      command: `prefixlint check --format json --exit-zero --files-from ${rel(lists.tsJs)}`,
      scope: 'ts/js',
      ...tsJs,
      repeats: o.slowRepeats,
      ...prefixlint('prefixlint-ts-js', ['--files-from', lists.tsJs], c.tsJs),
    },
    'eslint',
  );
  add(
    {
      id: 'eslint',
      name: `ESLint + typescript-eslint, recommended (concurrency ${o.eslintConcurrency}), TS/JS part`,
      command: `node bench/peers/eslint-run.mjs ${rel(lists.tsJs)} ${o.eslintConcurrency}`,
      scope: 'ts/js',
      ...tsJs,
      repeats: o.slowRepeats,
      run: () => runProcess(node, [path.join(ROOT, 'bench', 'peers', 'eslint-run.mjs'), lists.tsJs, o.eslintConcurrency], c.dir),
      check: (r) => {
        if (r.code !== 0) throw new Error(`ESLint exited with ${r.code}:\n${r.stderr.slice(0, 2000)}`);
        const e = JSON.parse(r.stdout) as { files: number; messages: number; fatal: number };
        if (e.files !== c.tsJs.length) throw new Error(`ESLint linted ${e.files} files of ${c.tsJs.length}`);
        return e.messages;
      },
      note: 'bench/peers/eslint-recommended.config.mjs, no type information; found: messages',
    },
    'eslint',
  );
  // Every file analysed in full, once: the findings must be those of the default run, byte for byte.
  if (o.prefilterCheck && !o.skip.has('cli')) {
    add(
      {
        id: 'prefixlint-no-prefilter',
        name: 'prefixlint check, prefilter off',
        command: 'PREFIXLINT_PREFILTER=0 prefixlint check --format json --exit-zero',
        scope: 'all',
        ...all,
        repeats: 1,
        ...prefixlint('prefixlint-no-prefilter', [], c.files, { PREFIXLINT_PREFILTER: '0' }),
      },
      'cli',
    );
  }

  // Rounds: every measurement once, then again while the budget allows, interleaved so that
  // noise from the rest of the machine spreads over all of them.
  const rounds = Math.max(0, ...procs.map((p) => p.repeats));
  let done = 0;
  let cutByBudget = false;
  const phaseS: Record<string, number> = { ...(editorS === undefined ? {} : { editor: editorS }) };
  for (let i = 0; i < rounds; i++) {
    const due = procs.filter((p) => i < p.repeats);
    if (i > 0) {
      const estimate = due.reduce((s, p) => s + p.runs[p.runs.length - 1].ms, 0);
      const elapsed = performance.now() - started;
      if (elapsed + estimate > o.budgetS * 1000) {
        log(`  round ${i + 1} would end after ${Math.round((elapsed + estimate) / 1000)} s, past the budget of ${o.budgetS} s: stopping at ${i} round${i === 1 ? '' : 's'}`);
        cutByBudget = true;
        break;
      }
    }
    const roundStarted = performance.now();
    for (const p of due) {
      const r = await p.run();
      const found = p.check(r);
      p.runs.push(r);
      log(`  run ${i + 1}: ${p.name}: ${(r.ms / 1000).toFixed(2)} s, ${Math.round(r.rssMb)} MB, found ${found}${r.othersLoad !== undefined ? `, others ${Math.round(100 * r.othersLoad)}%` : ''}`);
    }
    done = i + 1;
    phaseS[`round ${done}`] = round((performance.now() - roundStarted) / 1000, 0);
  }

  const measures: Measure[] = procs.map((p) => ({
    id: p.id,
    name: p.id === 'prefixlint' && threadsUsed ? `prefixlint check (default: ${threadsUsed} threads)` : p.id === 'prefixlint-ts-js' && threadsUsed ? `prefixlint check (${threadsUsed} threads), TS/JS part` : p.name,
    command: p.command,
    scope: p.scope,
    files: p.files,
    bytes: p.bytes,
    runs: p.runs.map((r) => ({ ms: Math.round(r.ms), rssMb: round(r.rssMb, 1), cpuS: r.cpuS === undefined ? undefined : round(r.cpuS, 1), othersLoad: r.othersLoad })),
    findings: p.runs.length ? p.check(p.runs[p.runs.length - 1]) : undefined,
    note: p.note,
  }));
  const last = (id: MeasureId) => {
    const p = procs.find((x) => x.id === id);
    return p?.runs[p.runs.length - 1]?.stdout;
  };
  const same = (a?: string, b?: string) => (a === undefined || b === undefined ? undefined : a === b);

  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
    if (execFileSync('git', ['status', '--porcelain', '--', 'src'], { cwd: ROOT, encoding: 'utf8' }).trim()) commit += ' + local changes';
  } catch {
    // not a git checkout
  }
  const results: Results = {
    date: new Date().toISOString(),
    machine: {
      nproc: CORES,
      cpu: os.cpus()[0]?.model.trim() ?? 'unknown',
      memoryGb: Math.round(os.totalmem() / 2 ** 30),
      node: process.version,
      platform: `${process.platform}-${process.arch}`,
      loadAtStart: loadAtStart.map((x) => round(x)),
      loadAtEnd: os.loadavg().map((x) => round(x)),
    },
    versions: {
      prefixlint: JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version,
      'web-tree-sitter': versionOf('web-tree-sitter'),
      '@ast-grep/cli': versionOf('@ast-grep/cli'),
      eslint: versionOf('eslint'),
      'typescript-eslint': versionOf('typescript-eslint'),
    },
    commit,
    corpus: { kind: c.kind, description: c.description, repositories: c.repositories, files: c.files.length, bytes: c.bytes, byExtension: byExtension(c.files), tsJsFiles: c.tsJs.length, tsJsBytes: c.tsJsBytes },
    repeats: { requested: o.repeats, slowRequested: o.slowRepeats, rounds: done, budgetS: o.budgetS, cutByBudget },
    measures,
    editor,
    activation,
    identical: { threads: same(last('prefixlint'), last('prefixlint-1-thread')), prefilter: same(last('prefixlint'), last('prefixlint-no-prefilter')) },
    wallS: round((performance.now() - started) / 1000, 0),
    phaseS,
  };
  // A partial run (--quick, --skip) is kept beside the corpus, not as the latest results.
  const partial = o.quick || o.skip.size > 0;
  if (partial) {
    fs.writeFileSync(path.join(WORK, 'partial.json'), JSON.stringify(results, null, 2) + '\n');
    fs.writeFileSync(path.join(WORK, 'partial.md'), `# prefixlint benchmark (partial run)\n\n${renderMarkdown(results)}`);
  } else {
    fs.mkdirSync(RESULTS, { recursive: true });
    fs.writeFileSync(path.join(RESULTS, 'latest.json'), JSON.stringify(results, null, 2) + '\n');
    writeReports(ROOT);
  }
  console.log('\n' + renderMarkdown(results));
  console.log(partial ? 'written: bench/.work/partial.json and .md' : 'written: bench/results/latest.json and .md, and the speed section of README.md');
  console.log(`the whole run took ${results.wallS} s`);
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
