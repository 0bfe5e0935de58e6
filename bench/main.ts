/**
 * `npm run bench`: prefixlint against the tree-sitter parse floor, ast-grep and ESLint on a
 * generated corpus, plus editor latency. Writes bench/results/latest.json and latest.md and
 * prints the table. Started by bench/run.mjs, which builds this file and dist/ first.
 *
 * Options (after `npm run bench --`):
 *   --repeats N      runs of each measurement (median reported; default 5, ESLint 3)
 *   --quick          a small corpus and 2 runs, to try the harness (a partial run's results
 *                    go to bench/.work/partial.*, not to bench/results/latest.*)
 *   --seed N         corpus seed (default 20261129)
 *   --files N        corpus file count (default 2000)
 *   --mb N           corpus size in MB (default 20)
 *   --skip a,b       skip measurements: floor, cli, ast-grep, eslint, editor
 */
import { spawn, execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Analyzer } from '../src/engine/analyzer';
import { checkFile } from '../src/cli/check';
import { discoverFiles } from '../src/host/files';
import { DiskHost } from '../src/host/source';
import { loadKnownNames } from '../src/core/knownNames';
import type { LanguageId } from '../src/core/model';
import { estimateRequest } from '../src/core/tokens';
import { Parsers } from '../src/lang/parsers';
import type { Tree } from 'web-tree-sitter';
import { Edit as TreeEdit } from 'web-tree-sitter';
import { editorFile, generateCorpus, Rng } from './corpus';
import { parseAll } from './floor';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const WORK = path.join(ROOT, 'bench', '.work');
const DIST = path.join(ROOT, 'dist');
const RESULTS = path.join(ROOT, 'bench', 'results');
const TS_JS = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;
const TS_JS_GLOB = '**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs}';

// ---------------------------------------------------------------------------------------------
// Options
// ---------------------------------------------------------------------------------------------

interface Options {
  repeats: number;
  eslintRepeats: number;
  quick: boolean;
  seed: number;
  files: number;
  bytes: number;
  skip: Set<string>;
}

function options(argv: string[]): Options {
  const get = (name: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const quick = argv.includes('--quick');
  const repeats = Number(get('repeats') ?? (quick ? 2 : 5));
  return {
    repeats,
    eslintRepeats: Math.min(repeats, Number(get('repeats') ?? (quick ? 1 : 3))),
    quick,
    seed: Number(get('seed') ?? 20261129),
    files: Number(get('files') ?? (quick ? 200 : 2000)),
    bytes: Number(get('mb') ?? (quick ? 2 : 19.5)) * 1e6,
    skip: new Set((get('skip') ?? '').split(',').filter(Boolean)),
  };
}

// ---------------------------------------------------------------------------------------------
// Statistics and processes
// ---------------------------------------------------------------------------------------------

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

const GNU_TIME = ['/usr/bin/time', '/bin/time'].find((p) => {
  try {
    execFileSync(p, ['-f', '%M', 'true'], { stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
});

interface ProcRun {
  ms: number;
  /** Peak resident set size in MB. */
  rssMb: number;
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a command to completion and measures its wall time and peak RSS: with GNU time when it
 * is installed (`apt-get install time`), otherwise by polling /proc/<pid>/status (VmHWM).
 */
function runProcess(cmd: string, args: string[], cwd: string): Promise<ProcRun> {
  const rssFile = path.join(WORK, `rss-${process.pid}.txt`);
  const [file, argv] = GNU_TIME ? [GNU_TIME, ['-o', rssFile, '-f', '%M', cmd, ...args]] : [cmd, args];
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(file, argv, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
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
      if (poll) clearInterval(poll);
      let kb = polledKb;
      if (GNU_TIME) {
        kb = Number(fs.readFileSync(rssFile, 'utf8').trim().split('\n').pop());
        fs.rmSync(rssFile, { force: true });
      }
      resolve({ ms, rssMb: kb / 1024, code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') });
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Corpus
// ---------------------------------------------------------------------------------------------

interface Corpus {
  dir: string;
  files: string[];
  tsJs: string[];
  bytes: number;
  tsJsBytes: number;
  generated: number;
  fromExamples: number;
}

function prepareWork(): void {
  fs.mkdirSync(WORK, { recursive: true });
  // Everything under bench/.work is generated: git and ESLint leave it alone.
  fs.writeFileSync(path.join(WORK, '.gitignore'), '*\n');
  fs.writeFileSync(path.join(WORK, 'eslint.config.mjs'), "// Generated by bench/main.ts: nothing here is linted.\nexport default [{ ignores: ['**/*'] }];\n");
}

function copyDir(from: string, to: string): number {
  let n = 0;
  if (!fs.existsSync(from)) return 0;
  for (const e of fs.readdirSync(from, { withFileTypes: true })) {
    const a = path.join(from, e.name);
    const b = path.join(to, e.name);
    if (e.isDirectory()) n += copyDir(a, b);
    else if (e.isFile()) {
      fs.mkdirSync(to, { recursive: true });
      fs.copyFileSync(a, b);
      n++;
    }
  }
  return n;
}

function buildCorpus(o: Options): Corpus {
  const dir = path.join(WORK, 'corpus');
  fs.rmSync(dir, { recursive: true, force: true });
  let generated = 0;
  for (const f of generateCorpus({ seed: o.seed, files: o.files, bytes: o.bytes })) {
    const p = path.join(dir, f.path);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, f.text);
    generated++;
  }
  copyDir(path.join(ROOT, 'examples'), path.join(dir, 'examples'));
  // The corpus is a project of its own (bench/.work is git-ignored, and prefixlint, like git,
  // skips ignored files): a .git folder makes it the root of its own repository.
  fs.mkdirSync(path.join(dir, '.git'), { recursive: true });
  const files = discoverFiles(['.'], dir).files;
  const tsJs = files.filter((f) => TS_JS.test(f));
  const size = (list: string[]) => list.reduce((s, f) => s + fs.statSync(f).size, 0);
  return { dir, files, tsJs, bytes: size(files), tsJsBytes: size(tsJs), generated, fromExamples: files.length - generated };
}

// ---------------------------------------------------------------------------------------------
// Measurements
// ---------------------------------------------------------------------------------------------

interface Measure {
  name: string;
  scope: 'all' | 'ts/js';
  runs: number[];
  medianMs: number;
  rssMb?: number;
  files: number;
  bytes: number;
  note?: string;
  /** Findings or matches reported, as a sanity check. */
  findings?: number;
}

function gc(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

function measure(name: string, scope: Measure['scope'], c: Corpus, runs: number[], extra: Partial<Measure> = {}): Measure {
  const files = scope === 'all' ? c.files.length : c.tsJs.length;
  const bytes = scope === 'all' ? c.bytes : c.tsJsBytes;
  return { name, scope, runs: runs.map((r) => Math.round(r)), medianMs: Math.round(median(runs)), files, bytes, ...extra };
}

async function inProcessFloor(c: Corpus, files: string[], repeats: number): Promise<number[]> {
  const parsers = await Parsers.load(DIST);
  parseAll(parsers, files.slice(0, 50));
  const runs: number[] = [];
  for (let i = 0; i < repeats; i++) {
    gc();
    const t0 = performance.now();
    const r = parseAll(parsers, files);
    runs.push(performance.now() - t0);
    if (r.withErrors && i === 0) console.log(`  note: ${r.withErrors} files parse with errors`);
  }
  return runs;
}

/** The CLI's per-file work (read, checks, analyse, positions) in this process, without start-up. */
async function inProcessLint(files: string[], repeats: number): Promise<{ runs: number[]; findings: number; notices: number }> {
  const runs: number[] = [];
  let findings = 0;
  let notices = 0;
  for (let i = 0; i < repeats; i++) {
    gc();
    const host = new DiskHost();
    const analyzer = await Analyzer.create({ host, wasmDir: DIST });
    const t0 = performance.now();
    findings = 0;
    notices = 0;
    for (const f of files) {
      const o = checkFile(analyzer, host, f, { fix: false, unsafeFixes: false });
      findings += o.findings.length;
      notices += o.notices.length;
    }
    runs.push(performance.now() - t0);
  }
  return { runs, findings, notices };
}

function countJsonArray(text: string): number {
  try {
    const v = JSON.parse(text);
    return Array.isArray(v) ? v.length : -1;
  } catch {
    return -1;
  }
}

// ---- editor latency --------------------------------------------------------------------------

interface EditorResult {
  language: LanguageId;
  lines: number;
  bytes: number;
  calls: number;
  edits: number;
  /** Text change to fresh diagnostics (Analyzer.analyze: full reparse + analysis). */
  analyzeP50: number;
  analyzeP95: number;
  analyzeMax: number;
  /** Token-estimate lenses (estimateRequest for every call site) after each edit. */
  lensP50: number;
  lensP95: number;
  /** The parse alone: full reparse vs tree-sitter incremental reparse (tree.edit + parse(text, old)). */
  fullParseP50: number;
  fullParseP95: number;
  incrementalParseP50: number;
  incrementalParseP95: number;
}

interface Edit {
  start: number;
  end: number;
  text: string;
}

/**
 * 200 edits as typing produces them: bursts of single-character inserts at a spot (inside a
 * string, a comment or after a name), then deleting what was typed; some keystrokes leave the
 * file with a syntax error for a moment, as real typing does.
 */
function editScript(text: string, rng: Rng, count: number): Edit[] {
  const edits: Edit[] = [];
  let current = text;
  const word = 'refund';
  while (edits.length < count) {
    // A spot at the end of a random line's first word or inside a string.
    const lineStarts: number[] = [0];
    for (let i = 0; i < current.length; i++) if (current.charCodeAt(i) === 10) lineStarts.push(i + 1);
    const line = rng.int(0, lineStarts.length - 2);
    const lineText = current.slice(lineStarts[line], lineStarts[line + 1] - 1);
    const quote = lineText.search(/["'`]/);
    const col = quote >= 0 ? quote + 1 : Math.max(0, lineText.search(/\S/)) + (lineText.trim().length ? 1 : 0);
    let at = lineStarts[line] + col;
    const burst = Math.min(word.length, count - edits.length);
    for (let i = 0; i < burst && edits.length < count; i++) {
      const e = { start: at, end: at, text: word[i] };
      edits.push(e);
      current = current.slice(0, at) + word[i] + current.slice(at);
      at++;
    }
    for (let i = 0; i < burst && edits.length < count; i++) {
      at--;
      edits.push({ start: at, end: at + 1, text: '' });
      current = current.slice(0, at) + current.slice(at + 1);
    }
  }
  return edits;
}

function pointAt(text: string, index: number): { row: number; column: number } {
  let row = 0;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < index; i = text.indexOf('\n', i + 1)) {
    row++;
    lineStart = i + 1;
  }
  return { row, column: index - lineStart };
}

async function editorLatency(language: 'python' | 'typescript', seed: number, count: number): Promise<EditorResult> {
  const file = path.join(WORK, 'editor', language === 'python' ? 'editor.py' : 'editor.ts');
  const original = editorFile(language, seed);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, original);
  const analyzer = await Analyzer.create({ wasmDir: DIST });
  const known = loadKnownNames();
  const parsers = await Parsers.load(DIST);
  const first = analyzer.analyze(file, original, language);
  // Warm up the JIT on the same code paths.
  for (let i = 0; i < 5; i++) analyzer.analyze(file, original + '\n'.repeat(i + 1), language);

  const edits = editScript(original, new Rng(seed), count);
  const analyze: number[] = [];
  const lens: number[] = [];
  const full: number[] = [];
  const incremental: number[] = [];
  let text = original;
  // Raw tree-sitter trees: the parse alone, full and incremental, as a reference for the analysis.
  const parser = parsers.parser(language);
  let oldTree: Tree = parser.parse(text)!;
  for (const e of edits) {
    const next = text.slice(0, e.start) + e.text + text.slice(e.end);
    let t0 = performance.now();
    const result = analyzer.analyze(file, next, language);
    analyze.push(performance.now() - t0);
    t0 = performance.now();
    for (const call of result.calls) estimateRequest(call, known);
    lens.push(performance.now() - t0);

    t0 = performance.now();
    parser.parse(next)!.delete();
    full.push(performance.now() - t0);
    t0 = performance.now();
    oldTree.edit(
      new TreeEdit({
      startIndex: e.start,
      oldEndIndex: e.end,
      newEndIndex: e.start + e.text.length,
      startPosition: pointAt(text, e.start),
      oldEndPosition: pointAt(text, e.end),
      newEndPosition: pointAt(next, e.start + e.text.length),
      }),
    );
    const newTree = parser.parse(next, oldTree)!;
    incremental.push(performance.now() - t0);
    oldTree.delete();
    oldTree = newTree;
    text = next;
  }
  oldTree.delete();
  const r2 = (x: number) => Math.round(x * 100) / 100;
  return {
    language,
    lines: original.split('\n').length - 1,
    bytes: original.length,
    calls: first.calls.length,
    edits: edits.length,
    analyzeP50: r2(percentile(analyze, 50)),
    analyzeP95: r2(percentile(analyze, 95)),
    analyzeMax: r2(Math.max(...analyze)),
    lensP50: r2(percentile(lens, 50)),
    lensP95: r2(percentile(lens, 95)),
    fullParseP50: r2(percentile(full, 50)),
    fullParseP95: r2(percentile(full, 95)),
    incrementalParseP50: r2(percentile(incremental, 50)),
    incrementalParseP95: r2(percentile(incremental, 95)),
  };
}

// ---- peers -----------------------------------------------------------------------------------

function astGrepBinary(): string {
  const platform = path.join(ROOT, 'node_modules', '@ast-grep', `cli-${process.platform}-${process.arch}-gnu`, 'ast-grep');
  if (fs.existsSync(platform)) return platform;
  return path.join(ROOT, 'node_modules', '@ast-grep', 'cli', process.platform === 'win32' ? 'ast-grep.exe' : 'ast-grep');
}

/** The ast-grep project: the committed rules plus their TSX and JavaScript copies. */
function astGrepConfig(): string {
  const from = path.join(ROOT, 'bench', 'peers', 'ast-grep');
  const to = path.join(WORK, 'ast-grep');
  fs.rmSync(to, { recursive: true, force: true });
  copyDir(from, to);
  const ts = fs.readFileSync(path.join(to, 'rules', 'typescript.yml'), 'utf8');
  for (const [lang, prefix] of [['Tsx', 'tsx'], ['JavaScript', 'js']]) {
    const copy = ts.replace(/^language: TypeScript$/gm, `language: ${lang}`).replace(/^id: ts-/gm, `id: ${prefix}-`);
    fs.writeFileSync(path.join(to, 'rules', `${prefix}.yml`), copy);
  }
  return path.join(to, 'sgconfig.yml');
}

function versionOf(pkg: string): string {
  try {
    return JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', pkg, 'package.json'), 'utf8')).version;
  } catch {
    return 'not installed';
  }
}

// ---------------------------------------------------------------------------------------------
// Report
// ---------------------------------------------------------------------------------------------

interface Results {
  date: string;
  machine: { nproc: number; cpu: string; memoryGb: number; node: string; platform: string };
  versions: Record<string, string>;
  commit: string;
  corpus: { seed: number; files: number; generated: number; fromExamples: number; mb: number; tsJsFiles: number; tsJsMb: number };
  repeats: number;
  measures: Measure[];
  editor: EditorResult[];
  ratios: Record<string, number | null>;
  targets: Array<{ target: string; value: string; met: boolean | null }>;
}

function fmtS(ms: number): string {
  return (ms / 1000).toFixed(2);
}

function table(r: Results): string {
  const lines: string[] = [];
  lines.push(`Measured ${r.date.slice(0, 10)} on ${r.machine.nproc} cores (${r.machine.cpu}), ${r.machine.memoryGb} GB, Node ${r.machine.node}; prefixlint ${r.commit}.`);
  lines.push(
    `Corpus: ${r.corpus.files} files, ${r.corpus.mb.toFixed(1)} MB (${r.corpus.generated} generated with seed ${r.corpus.seed} + ${r.corpus.fromExamples} from examples/); TS/JS part: ${r.corpus.tsJsFiles} files, ${r.corpus.tsJsMb.toFixed(1)} MB. Median of ${r.repeats} runs (ESLint: fewer, see runs).`,
  );
  lines.push('');
  lines.push('| Measurement | Files | Median (s) | MB/s | Peak RSS (MB) | Runs (s) |');
  lines.push('| --- | ---: | ---: | ---: | ---: | --- |');
  for (const m of r.measures) {
    lines.push(
      `| ${m.name}${m.scope === 'ts/js' ? ' (TS/JS part)' : ''} | ${m.files} | ${fmtS(m.medianMs)} | ${(m.bytes / 1e6 / (m.medianMs / 1000)).toFixed(1)} | ${m.rssMb === undefined ? '' : Math.round(m.rssMb)} | ${m.runs.map(fmtS).join(', ')} |`,
    );
  }
  if (r.editor.length) {
    lines.push('');
    lines.push('| Editor (in-process, 200 edits) | Lines | Calls | Change → diagnostics p50 / p95 (ms) | Lenses p50 / p95 (ms) | Full parse p50 / p95 (ms) | Incremental parse p50 / p95 (ms) |');
    lines.push('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
    for (const e of r.editor) {
      lines.push(
        `| ${e.language} | ${e.lines} | ${e.calls} | ${e.analyzeP50} / ${e.analyzeP95} | ${e.lensP50} / ${e.lensP95} | ${e.fullParseP50} / ${e.fullParseP95} | ${e.incrementalParseP50} / ${e.incrementalParseP95} |`,
      );
    }
  }
  lines.push('');
  lines.push('| Target | Measured | Met |');
  lines.push('| --- | --- | :---: |');
  for (const t of r.targets) lines.push(`| ${t.target} | ${t.value} | ${t.met === null ? 'n/a' : t.met ? 'yes' : 'no'} |`);
  return lines.join('\n') + '\n';
}

// ---------------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const o = options(process.argv.slice(2));
  prepareWork();
  const runSteps = (name: string) => !o.skip.has(name);
  console.log(`prefixlint bench: ${o.quick ? 'quick, ' : ''}${o.repeats} runs (ESLint ${o.eslintRepeats})`);

  const t = performance.now();
  const c = buildCorpus(o);
  console.log(`corpus: ${c.files.length} files, ${(c.bytes / 1e6).toFixed(1)} MB in ${c.dir} (${Math.round(performance.now() - t)} ms to generate)`);

  const measures: Measure[] = [];
  const cli = path.join(DIST, 'cli.js');
  const node = process.execPath;

  // In-process: floor and lint, all files and the TS/JS part.
  if (runSteps('floor')) {
    measures.push(measure('tree-sitter parse (floor), in-process', 'all', c, await inProcessFloor(c, c.files, o.repeats)));
    console.log(`  ${measures.at(-1)!.name}: ${fmtS(measures.at(-1)!.medianMs)} s`);
  }
  if (runSteps('cli')) {
    const lint = await inProcessLint(c.files, o.repeats);
    measures.push(measure('prefixlint check, in-process', 'all', c, lint.runs, { findings: lint.findings, note: `${lint.notices} notices` }));
    console.log(`  ${measures.at(-1)!.name}: ${fmtS(measures.at(-1)!.medianMs)} s, ${lint.findings} findings`);
  }
  if (runSteps('floor')) {
    measures.push(measure('tree-sitter parse (floor), in-process', 'ts/js', c, await inProcessFloor(c, c.tsJs, o.repeats)));
  }
  if (runSteps('cli')) {
    const lint = await inProcessLint(c.tsJs, o.repeats);
    measures.push(measure('prefixlint check, in-process', 'ts/js', c, lint.runs, { findings: lint.findings }));
  }

  // Processes, interleaved run by run so that machine noise spreads evenly.
  const sg = astGrepBinary();
  const sgConfig = astGrepConfig();
  const eslintBin = path.join(ROOT, 'node_modules', 'eslint', 'bin', 'eslint.js');
  const eslintConfig = path.join(ROOT, 'bench', 'peers', 'eslint.config.mjs');
  const floorJs = path.join(WORK, 'build', 'floor.cjs');
  interface Proc {
    name: string;
    scope: Measure['scope'];
    step: string;
    cmd: string;
    args: string[];
    repeats: number;
    count?: (r: ProcRun) => number;
    runs: ProcRun[];
  }
  const procs = (
    [
    { name: 'tree-sitter parse (floor), process', scope: 'all', step: 'floor', cmd: node, args: [floorJs, c.dir, DIST], repeats: o.repeats, runs: [] },
    { name: 'prefixlint check (CLI)', scope: 'all', step: 'cli', cmd: node, args: [cli, 'check', '.', '--format', 'json'], repeats: o.repeats, count: (r) => countJsonArray(r.stdout), runs: [] },
    { name: 'ast-grep scan, 1 thread', scope: 'all', step: 'ast-grep', cmd: sg, args: ['scan', '-c', sgConfig, '-j', '1', '--json=stream', '.'], repeats: o.repeats, count: (r) => r.stdout.split('\n').filter(Boolean).length, runs: [] },
    { name: `ast-grep scan, ${os.cpus().length} threads`, scope: 'all', step: 'ast-grep', cmd: sg, args: ['scan', '-c', sgConfig, '--json=stream', '.'], repeats: o.repeats, count: (r) => r.stdout.split('\n').filter(Boolean).length, runs: [] },
    { name: 'tree-sitter parse (floor), process', scope: 'ts/js', step: 'floor', cmd: node, args: [floorJs, c.dir, DIST, TS_JS_GLOB], repeats: o.repeats, runs: [] },
    { name: 'prefixlint check (CLI)', scope: 'ts/js', step: 'cli', cmd: node, args: [cli, 'check', TS_JS_GLOB, '--format', 'json'], repeats: o.repeats, count: (r) => countJsonArray(r.stdout), runs: [] },
    {
      name: 'ESLint + typescript-eslint parser',
      scope: 'ts/js',
      step: 'eslint',
      cmd: node,
      args: [eslintBin, '-c', eslintConfig, '--no-cache', '--format', 'json', TS_JS_GLOB],
      repeats: o.eslintRepeats,
      count: (r) => {
        try {
          return (JSON.parse(r.stdout) as Array<{ messages: unknown[] }>).reduce((n, f) => n + f.messages.length, 0);
        } catch {
          return -1;
        }
      },
      runs: [],
    },
    ] as Proc[]
  ).filter((p) => runSteps(p.step));
  const maxRepeats = Math.max(0, ...procs.map((p) => p.repeats));
  for (let i = 0; i < maxRepeats; i++) {
    for (const p of procs) {
      if (i >= p.repeats) continue;
      const r = await runProcess(p.cmd, p.args, c.dir);
      if (r.code !== 0 && r.code !== 1) throw new Error(`${p.name} exited with ${r.code}:\n${r.stderr.slice(0, 2000)}`);
      p.runs.push(r);
      console.log(`  run ${i + 1}: ${p.name}${p.scope === 'ts/js' ? ' (TS/JS)' : ''}: ${fmtS(r.ms)} s, ${Math.round(r.rssMb)} MB`);
    }
  }
  for (const p of procs) {
    const last = p.runs[p.runs.length - 1];
    measures.push(
      measure(p.name, p.scope, c, p.runs.map((r) => r.ms), {
        rssMb: Math.max(...p.runs.map((r) => r.rssMb)),
        findings: p.count ? p.count(last) : undefined,
      }),
    );
  }

  const editor: EditorResult[] = [];
  if (runSteps('editor')) {
    for (const lang of ['python', 'typescript'] as const) {
      editor.push(await editorLatency(lang, o.seed, 200));
      const e = editor.at(-1)!;
      console.log(`  editor ${lang}: analyze p50 ${e.analyzeP50} ms, p95 ${e.analyzeP95} ms; lenses p95 ${e.lensP95} ms`);
    }
  }

  // Ratios and targets.
  const find = (name: string, scope: Measure['scope']) => measures.find((m) => m.name === name && m.scope === scope);
  const ratio = (a?: Measure, b?: Measure) => (a && b ? Math.round((a.medianMs / b.medianMs) * 100) / 100 : null);
  const lintIn = find('prefixlint check, in-process', 'all');
  const floorIn = find('tree-sitter parse (floor), in-process', 'all');
  const cliAll = find('prefixlint check (CLI)', 'all');
  const floorProc = find('tree-sitter parse (floor), process', 'all');
  const sg1 = find('ast-grep scan, 1 thread', 'all');
  const sgN = measures.find((m) => m.name.startsWith('ast-grep scan,') && m !== sg1);
  const cliTs = find('prefixlint check (CLI)', 'ts/js');
  const eslint = find('ESLint + typescript-eslint parser', 'ts/js');
  const ratios = {
    'prefixlint/floor, in-process': ratio(lintIn, floorIn),
    'prefixlint/floor, process': ratio(cliAll, floorProc),
    'prefixlint CLI/ast-grep 1 thread': ratio(cliAll, sg1),
    'prefixlint CLI/ast-grep default threads': ratio(cliAll, sgN),
    'ESLint/prefixlint CLI, TS/JS': ratio(eslint, cliTs),
  };
  const maxEditorP95 = editor.length ? Math.max(...editor.map((e) => e.analyzeP95)) : null;
  const show = (x: number | null, unit = '×') => (x === null ? 'not measured' : `${x}${unit}`);
  const targets = [
    { target: 'lint ≤ 1.5× floor (in-process)', value: show(ratios['prefixlint/floor, in-process']), met: ratios['prefixlint/floor, in-process'] === null ? null : ratios['prefixlint/floor, in-process'] <= 1.5 },
    { target: 'lint ≤ 1.5× floor (process, end to end)', value: show(ratios['prefixlint/floor, process']), met: ratios['prefixlint/floor, process'] === null ? null : ratios['prefixlint/floor, process'] <= 1.5 },
    { target: 'within 1.5× of ast-grep (1 thread)', value: show(ratios['prefixlint CLI/ast-grep 1 thread']), met: ratios['prefixlint CLI/ast-grep 1 thread'] === null ? null : ratios['prefixlint CLI/ast-grep 1 thread'] <= 1.5 },
    { target: `within 1.5× of ast-grep (${os.cpus().length} threads)`, value: show(ratios['prefixlint CLI/ast-grep default threads']), met: ratios['prefixlint CLI/ast-grep default threads'] === null ? null : ratios['prefixlint CLI/ast-grep default threads'] <= 1.5 },
    { target: '≥ 10× faster than ESLint (TS/JS)', value: show(ratios['ESLint/prefixlint CLI, TS/JS']), met: ratios['ESLint/prefixlint CLI, TS/JS'] === null ? null : ratios['ESLint/prefixlint CLI, TS/JS'] >= 10 },
    { target: 'editor p95 ≤ 30 ms', value: show(maxEditorP95, ' ms'), met: maxEditorP95 === null ? null : maxEditorP95 <= 30 },
    { target: 'CLI peak RSS ≤ 250 MB', value: cliAll?.rssMb === undefined ? 'not measured' : `${Math.round(cliAll.rssMb)} MB`, met: cliAll?.rssMb === undefined ? null : cliAll.rssMb <= 250 },
  ];

  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
    if (execFileSync('git', ['status', '--porcelain', '--', 'src'], { cwd: ROOT, encoding: 'utf8' }).trim()) commit += ' + local changes';
  } catch {
    // not a git checkout
  }
  const results: Results = {
    date: new Date().toISOString(),
    machine: { nproc: os.cpus().length, cpu: os.cpus()[0]?.model.trim() ?? 'unknown', memoryGb: Math.round(os.totalmem() / 2 ** 30), node: process.version, platform: `${process.platform}-${process.arch}` },
    versions: {
      prefixlint: JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version,
      'web-tree-sitter': versionOf('web-tree-sitter'),
      '@ast-grep/cli': versionOf('@ast-grep/cli'),
      eslint: versionOf('eslint'),
      'typescript-eslint': versionOf('typescript-eslint'),
    },
    commit,
    corpus: { seed: o.seed, files: c.files.length, generated: c.generated, fromExamples: c.fromExamples, mb: c.bytes / 1e6, tsJsFiles: c.tsJs.length, tsJsMb: c.tsJsBytes / 1e6 },
    repeats: o.repeats,
    measures,
    editor,
    ratios,
    targets,
  };
  const md = table(results);
  // A partial run (--quick, --skip) is kept beside the corpus, not as the latest results.
  const out = o.quick || o.skip.size ? WORK : RESULTS;
  const base = o.quick || o.skip.size ? 'partial' : 'latest';
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(path.join(out, `${base}.json`), JSON.stringify(results, null, 2) + '\n');
  fs.writeFileSync(path.join(out, `${base}.md`), `# prefixlint benchmark\n\n${md}`);
  console.log('\n' + md);
  console.log(`written: ${path.relative(ROOT, path.join(out, base))}.json and .md (${Math.round((performance.now() - t) / 1000)} s in all)`);
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
