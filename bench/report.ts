/**
 * The benchmark's pure parts: its command line, the statistics, the ratios and targets the
 * speed issue asks for, and the markdown written to bench/results/latest.md and to the README.
 * No process, file or clock in here (bench/main.ts does the measuring), so that a unit test
 * can check all of it quickly.
 */
import { parseArgs } from 'node:util';

// ---------------------------------------------------------------------------------------------
// Options
// ---------------------------------------------------------------------------------------------

/** Measurements that `--skip` can leave out. */
export const STEPS = ['floor', 'cli', 'cli-1-thread', 'prefilter', 'ast-grep', 'eslint', 'editor'] as const;
export type Step = (typeof STEPS)[number];

export interface Options {
  /** A real-code corpus: one folder per repository. Without it, a generated corpus. */
  corpus?: string;
  /** Runs of the measurements the targets are on (floor, prefixlint, ast-grep on every core); the median is reported. */
  repeats: number;
  /** Runs of the others (ESLint and prefixlint on the TS/JS part, prefixlint --threads 1, ast-grep -j 1). */
  slowRepeats: number;
  /** Seconds the whole run may take: no further round of runs starts when it would not fit. */
  budgetS: number;
  /** Edits per language in the editor benchmark. */
  editorEdits: number;
  /** ESLint's `concurrency` option: off (its default), auto or a number of threads. */
  eslintConcurrency: string;
  /** Also lint once with the prefilter off and compare the findings (a full run does; --quick only when asked). */
  prefilterCheck: boolean;
  quick: boolean;
  seed: number;
  files: number;
  bytes: number;
  skip: Set<Step>;
}

export class UsageError extends Error {}

export const USAGE = `Usage: npm run bench -- [options]

  --corpus DIR            the real-code corpus (one folder per repository, owner+name);
                          default: a generated corpus of agent code
  --repeats N             runs of the floor, prefixlint and ast-grep on every core (median;
                          default 5, --quick 2): the machine's speed can move by 15-20%
                          within minutes, and the median of 3 moved the ratios by as much
  --slow-repeats N        runs of ESLint and prefixlint on the TS/JS part, prefixlint --threads 1
                          and ast-grep -j 1 (default 1)
  --budget SECONDS        the whole run's time budget (default 600): a further round of runs
                          starts only when it fits; the results say how many runs were made
  --editor-edits N        edits per language in the editor benchmark (default 200, --quick 40)
  --eslint-concurrency X  ESLint's concurrency: off (default, also what auto gives on 2 cores),
                          auto or a number
  --prefilter-check       with --quick, also lint once with PREFIXLINT_PREFILTER=0 and compare the
                          findings (a full run always does; --skip prefilter leaves it out)
  --quick                 a small generated corpus and fewer runs, to try the harness
  --seed N, --files N, --mb N   the generated corpus (default 20261129, 2000 files, 19.5 MB)
  --skip a,b              leave out: ${STEPS.join(', ')}
  -h, --help              this text

A run with --quick or --skip writes bench/.work/partial.{json,md}; a full run writes
bench/results/latest.{json,md} and regenerates the README's speed section from it.
`;

function whole(name: string, value: string | undefined, fallback: number, min = 1): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < min) throw new UsageError(`--${name}: expected a whole number of ${min} or more, got '${value}'`);
  return Number(value);
}

function positive(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || !(n > 0)) throw new UsageError(`--${name}: expected a number above 0, got '${value}'`);
  return n;
}

/** Parses the bench's arguments; throws UsageError on anything it does not know. */
export function parseOptions(argv: readonly string[]): Options | 'help' {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        corpus: { type: 'string' },
        repeats: { type: 'string' },
        'slow-repeats': { type: 'string' },
        budget: { type: 'string' },
        'editor-edits': { type: 'string' },
        'eslint-concurrency': { type: 'string' },
        'prefilter-check': { type: 'boolean' },
        quick: { type: 'boolean' },
        seed: { type: 'string' },
        files: { type: 'string' },
        mb: { type: 'string' },
        skip: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const v = parsed.values;
  if (v.help) return 'help';
  const quick = v.quick === true;
  const skip = new Set<Step>();
  for (const s of (v.skip ?? '').split(',').map((x) => x.trim()).filter(Boolean)) {
    if (!(STEPS as readonly string[]).includes(s)) throw new UsageError(`--skip: unknown measurement '${s}' (known: ${STEPS.join(', ')})`);
    skip.add(s as Step);
  }
  const concurrency = v['eslint-concurrency'] ?? 'off';
  if (!/^(off|auto|[1-9]\d*)$/.test(concurrency)) throw new UsageError(`--eslint-concurrency: expected off, auto or a number, got '${concurrency}'`);
  if (v.corpus !== undefined && (v.seed !== undefined || v.files !== undefined || v.mb !== undefined)) {
    throw new UsageError('--seed, --files and --mb shape the generated corpus: they do not go with --corpus');
  }
  if (v.corpus === '') throw new UsageError('--corpus: expected a folder');
  return {
    corpus: v.corpus,
    repeats: whole('repeats', v.repeats, quick ? 2 : 5),
    slowRepeats: whole('slow-repeats', v['slow-repeats'], 1),
    budgetS: positive('budget', v.budget, 600),
    editorEdits: whole('editor-edits', v['editor-edits'], quick ? 40 : 200, 10),
    eslintConcurrency: concurrency,
    prefilterCheck: !skip.has('prefilter') && (v['prefilter-check'] === true || !quick),
    quick,
    seed: whole('seed', v.seed, 20261129, 0),
    files: whole('files', v.files, quick ? 200 : 2000),
    bytes: positive('mb', v.mb, quick ? 2 : 19.5) * 1e6,
    skip,
  };
}

// ---------------------------------------------------------------------------------------------
// Statistics
// ---------------------------------------------------------------------------------------------

export function median(xs: readonly number[]): number {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Nearest-rank percentile: the smallest sample with at least p% of the samples at or below it. */
export function percentile(xs: readonly number[], p: number): number {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

export function round(x: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

/** a / b rounded to two digits; null when either is missing or b is 0. */
export function ratio(a: number | undefined, b: number | undefined): number | null {
  const x = exactRatio(a, b);
  return x === null ? null : round(x);
}

/** a / b unrounded; null when either is missing or not finite, or b is 0. */
function exactRatio(a: number | undefined, b: number | undefined): number | null {
  if (a === undefined || b === undefined || !Number.isFinite(a) || !Number.isFinite(b) || b === 0) return null;
  return a / b;
}

// ---------------------------------------------------------------------------------------------
// Results
// ---------------------------------------------------------------------------------------------

/** One run of a tool as a process. */
export interface Run {
  ms: number;
  rssMb: number;
  /** User + system CPU seconds of the process (undefined without GNU time). */
  cpuS?: number;
  /** CPU seconds other processes used on the machine during the run, per core-second of wall time (0..1). */
  othersLoad?: number;
}

export type MeasureId = 'floor' | 'prefixlint' | 'prefixlint-1-thread' | 'prefixlint-no-prefilter' | 'ast-grep-1-thread' | 'ast-grep' | 'prefixlint-ts-js' | 'eslint';

export interface Measure {
  id: MeasureId;
  name: string;
  /** The command, for the reader. */
  command: string;
  scope: 'all' | 'ts/js';
  files: number;
  bytes: number;
  runs: Run[];
  /** Findings, matches or messages the tool reported (last run), as a sanity check. */
  findings?: number;
  note?: string;
}

export interface EditorLanguageResult {
  language: 'python' | 'typescript';
  lines: number;
  bytes: number;
  edits: number;
  /** Diagnostics of the file as opened. */
  diagnostics: number;
  /** didChange → the pulled diagnostics, server without quiet time (ms). */
  changeP50: number;
  changeP95: number;
  changeMax: number;
  /** The code lenses asked for after the diagnostics (ms). */
  lensP50: number;
  lensP95: number;
  /** The same with dist/server.js as shipped, its quiet time after a change included. */
  shippedEdits: number;
  shippedP50: number;
  shippedP95: number;
  /** The plain tree-sitter parse of the file, full and incremental, as a reference. */
  fullParseP50: number;
  incrementalParseP50: number;
}

export interface ActivationResult {
  /** Server starts measured (extension loads: 5). */
  runs: number;
  /** Loading dist/extension.js (with the vscode module stubbed), median ms. */
  extensionLoadMs: number;
  /** Spawning dist/server.js --stdio until its initialize result, median ms (how other editors start it). */
  serverInitializeMs: number;
  /**
   * Starting dist/server.js in a worker thread until its initialize result, median ms: how the
   * VS Code extension starts it. Absent in results from before the extension did so.
   */
  workerInitializeMs?: number;
  /** Worker starts measured. */
  workerRuns?: number;
  /**
   * Loading dist/extension.js and running its activate() until it resolves (its `vscode` module
   * stubbed), median ms: the extension's activation once activate() no longer waits for the
   * server, which starts in the background. Absent in results from before.
   */
  activateMs?: number;
  /** Spawning it until the first diagnostics of the 3,000-line file, median ms per language. */
  firstDiagnosticsMs: { python: number; typescript: number };
}

export interface Results {
  date: string;
  machine: { nproc: number; cpu: string; memoryGb: number; node: string; platform: string; loadAtStart: number[]; loadAtEnd: number[] };
  versions: Record<string, string>;
  commit: string;
  corpus: {
    kind: 'real' | 'generated';
    /** The corpus folder (real) or seed and shape (generated). */
    description: string;
    repositories?: number;
    files: number;
    bytes: number;
    /** Files per extension, as prefixlint found them. */
    byExtension: Record<string, number>;
    tsJsFiles: number;
    tsJsBytes: number;
  };
  repeats: { requested: number; slowRequested: number; rounds: number; budgetS: number; cutByBudget: boolean };
  measures: Measure[];
  editor: EditorLanguageResult[];
  activation?: ActivationResult;
  /** Same findings (byte-identical JSON) with 1 and N threads; with the prefilter off. */
  identical: { threads?: boolean; prefilter?: boolean };
  wallS: number;
  /** Seconds per part of the run: the editor, each round of runs. */
  phaseS: Record<string, number>;
}

export function medianMs(m: Measure | undefined): number | undefined {
  return m && m.runs.length ? median(m.runs.map((r) => r.ms)) : undefined;
}

export function peakRssMb(m: Measure | undefined): number | undefined {
  return m && m.runs.length ? Math.max(...m.runs.map((r) => r.rssMb)) : undefined;
}

export interface Target {
  target: string;
  value: string;
  met: boolean | null;
}

export function medianCpuS(m: Measure | undefined): number | undefined {
  return m && m.runs.length && m.runs.every((r) => r.cpuS !== undefined) ? median(m.runs.map((r) => r.cpuS!)) : undefined;
}

export interface Ratio {
  name: string;
  /** Of the median wall times. */
  value: number | null;
  /** Of the median CPU times (user + system): less sensitive to other processes, blind to waiting and to idle cores. */
  cpu: number | null;
  target: string | null;
}

/** The ratios the speed issue's "Done when" asks for, and a few for context (target null). */
export function ratios(r: Pick<Results, 'measures'>): Ratio[] {
  const get = (id: MeasureId) => r.measures.find((x) => x.id === id);
  const both = (name: string, a: MeasureId, b: MeasureId, target: string | null): Ratio => ({
    name,
    value: ratio(medianMs(get(a)), medianMs(get(b))),
    cpu: ratio(medianCpuS(get(a)), medianCpuS(get(b))),
    target,
  });
  return [
    both('prefixlint / floor', 'prefixlint', 'floor', '≤ 0.5'),
    both('prefixlint / ast-grep (default threads)', 'prefixlint', 'ast-grep', '≤ 1.0'),
    both('prefixlint --threads 1 / ast-grep -j 1', 'prefixlint-1-thread', 'ast-grep-1-thread', null),
    both('prefixlint --threads 1 / floor', 'prefixlint-1-thread', 'floor', null),
    both('ESLint / prefixlint, TS/JS part', 'eslint', 'prefixlint-ts-js', '≥ 10'),
  ];
}

export function targets(r: Pick<Results, 'measures' | 'editor' | 'activation' | 'identical'>): Target[] {
  const out: Target[] = [];
  const show = (x: number | null | undefined, unit: string) => (x === null || x === undefined ? 'not measured' : `${x}${unit}`);
  const medianOf = (id: MeasureId) => medianMs(r.measures.find((x) => x.id === id));
  /**
   * A target is met by the ratio itself, not by its rounding (0.503 is not ≤ 0.5); it is shown
   * with a third decimal when two would say otherwise.
   */
  const byRatio = (a: MeasureId, b: MeasureId, label: string, ok: (x: number) => boolean) => {
    const v = exactRatio(medianOf(a), medianOf(b));
    const shown = v === null ? null : ok(round(v)) === ok(v) ? round(v) : round(v, 3);
    out.push({ target: label, value: show(shown, '×'), met: v === null ? null : ok(v) });
  };
  byRatio('prefixlint', 'floor', 'prefixlint ≤ 0.5× the single-thread tree-sitter parse', (x) => x <= 0.5);
  byRatio('prefixlint', 'ast-grep', 'prefixlint ≤ 1.0× ast-grep on every core', (x) => x <= 1.0);
  byRatio('eslint', 'prefixlint-ts-js', 'ESLint + typescript-eslint ≥ 10× prefixlint (TS/JS part)', (x) => x >= 10);
  const rss = peakRssMb(r.measures.find((x) => x.id === 'prefixlint'));
  out.push({ target: 'prefixlint peak RSS ≤ 250 MB', value: show(rss === undefined ? undefined : Math.round(rss), ' MB'), met: rss === undefined ? null : rss <= 250 });
  const same = (v: boolean | undefined) => (v === undefined ? 'not compared' : v ? 'identical' : 'DIFFERENT');
  out.push({ target: 'same findings with 1 and N threads', value: same(r.identical.threads), met: r.identical.threads ?? null });
  out.push({ target: 'same findings with the prefilter off', value: same(r.identical.prefilter), met: r.identical.prefilter ?? null });
  for (const e of r.editor) out.push({ target: `editor change → diagnostics p95 ≤ 30 ms (${e.language})`, value: `${e.changeP95} ms`, met: e.changeP95 <= 30 });
  const a = r.activation;
  // The extension's activation: its load and activate(); before activate() left the server to
  // start in the background, its load and then the server's start (a worker thread; a process before).
  const activation = a ? (a.activateMs ?? round(a.extensionLoadMs + (a.workerInitializeMs ?? a.serverInitializeMs), 0)) : undefined;
  const what = a?.activateMs !== undefined ? 'extension load + activate()' : 'extension load + server initialize';
  out.push({ target: 'activation ≤ 100 ms', value: activation === undefined ? 'not measured' : `${activation} ms (${what})`, met: activation === undefined ? null : activation <= 100 });
  return out;
}

// ---------------------------------------------------------------------------------------------
// Markdown
// ---------------------------------------------------------------------------------------------

const s2 = (ms: number) => (ms / 1000).toFixed(2);

function extensions(byExtension: Record<string, number>): string {
  return Object.entries(byExtension)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([ext, n]) => `${n} ${ext}`)
    .join(', ');
}

/** The results as markdown: the machine and corpus, the measurements, the editor, the targets. */
export function renderMarkdown(r: Results): string {
  const L: string[] = [];
  const m = r.machine;
  const load = (xs: number[]) => xs.map((x) => x.toFixed(1)).join(' / ');
  L.push(
    `Measured ${r.date.slice(0, 16).replace('T', ' ')} UTC on ${m.nproc} cores (${m.cpu}), ${m.memoryGb} GB, Node ${m.node}, ${m.platform}; prefixlint ${r.commit}. ` +
      `Load average (1/5/15 min) ${load(m.loadAtStart)} at the start, ${load(m.loadAtEnd)} at the end. ` +
      `The whole run took ${Math.round(r.wallS)} s${Object.keys(r.phaseS ?? {}).length ? ` (${Object.entries(r.phaseS).map(([k, v]) => `${k} ${v} s`).join(', ')})` : ''}.`,
  );
  const c = r.corpus;
  L.push('');
  L.push(
    `Corpus: ${c.description}${c.repositories ? `, ${c.repositories} repositories` : ''}: ${c.files} files prefixlint lints (.gitignore and its default excluded folders respected), ${(c.bytes / 1e6).toFixed(1)} MB — ${extensions(c.byExtension)}. ` +
      `TS/JS part: ${c.tsJsFiles} files, ${(c.tsJsBytes / 1e6).toFixed(1)} MB. Every tool gets exactly these files (ast-grep all but the notebooks, ESLint the TS/JS part), in one process over the whole corpus.`,
  );
  const rp = r.repeats;
  L.push('');
  L.push(
    `Median of ${rp.rounds} run${rp.rounds === 1 ? '' : 's'} (${rp.requested} asked${rp.cutByBudget ? `; fewer to stay within the ${rp.budgetS} s budget` : ''}) for the floor, prefixlint and ast-grep on every core; ` +
      `${Math.min(rp.slowRequested, rp.rounds)} for the others. Peak RSS is the largest of the runs; CPU is user + system seconds. ` +
      '"Others" is the CPU share other processes took of the machine during the runs: above a few % the times are noisy.',
  );
  L.push('');
  L.push('| Measurement | Files | Median (s) | MB/s | Peak RSS (MB) | CPU (s) | Others | Runs (s) | Found |');
  L.push('| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: |');
  for (const x of r.measures) {
    const med = medianMs(x)!;
    const cpu = medianCpuS(x)?.toFixed(1) ?? '';
    const others = x.runs.every((y) => y.othersLoad !== undefined) ? `${Math.round(100 * median(x.runs.map((y) => y.othersLoad!)))}%` : '';
    L.push(
      `| ${x.name} | ${x.files} | ${s2(med)} | ${(x.bytes / 1e6 / (med / 1000)).toFixed(1)} | ${Math.round(peakRssMb(x)!)} | ${cpu} | ${others} | ${x.runs.map((y) => s2(y.ms)).join(', ')} | ${x.findings ?? ''} |`,
    );
  }
  L.push('');
  L.push('Commands, run in the corpus folder (paths from the repository root):');
  L.push('');
  for (const x of r.measures) L.push(`- ${x.name}: \`${x.command}\`${x.note ? ` — ${x.note}` : ''}`);
  if (r.editor.length) {
    const e0 = r.editor[0];
    L.push('');
    L.push(
      `Editor: the language server as VS Code drives it (pull diagnostics, incremental changes), ${e0.edits} single-character edits per language typed into a ${e0.lines.toLocaleString('en-US')}-line file, ` +
        'each waited for. "Change → diagnostics" runs the server\'s code without its quiet time after a change; "as shipped" is dist/server.js, quiet time included.',
    );
    L.push('');
    L.push('| Editor | Lines | Diagnostics | Change → diagnostics p50 / p95 / max (ms) | Lenses p50 / p95 (ms) | As shipped p50 / p95 (ms) | Parse alone, full / incremental p50 (ms) |');
    L.push('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
    for (const e of r.editor) {
      L.push(
        `| ${e.language} | ${e.lines} | ${e.diagnostics} | ${e.changeP50} / ${e.changeP95} / ${e.changeMax} | ${e.lensP50} / ${e.lensP95} | ${e.shippedP50} / ${e.shippedP95} (${e.shippedEdits} edits) | ${e.fullParseP50} / ${e.incrementalParseP50} |`,
      );
    }
  }
  if (r.activation) {
    const a = r.activation;
    L.push('');
    const worker =
      a.workerInitializeMs === undefined
        ? ''
        : `dist/server.js in a worker thread, as the extension starts it, from its start to its initialize result ${a.workerInitializeMs} ms (median of ${a.workerRuns ?? 5}); `;
    L.push(
      `Activation: loading dist/extension.js ${a.extensionLoadMs} ms (median of 5, outside VS Code, its \`vscode\` module stubbed); ${worker}dist/server.js --stdio${worker ? ' (as other editors start it)' : ''} from spawn to its initialize result ${a.serverInitializeMs} ms ` +
        `(median of ${a.runs} starts), to the first diagnostics of the 3,000-line file ${a.firstDiagnosticsMs.python} ms (Python) and ${a.firstDiagnosticsMs.typescript} ms (TypeScript). ` +
        (a.activateMs !== undefined
          ? `Loading dist/extension.js and running its activate() (\`vscode\` stubbed) until it resolves: ${a.activateMs} ms (median of 5); the server starts in the background meanwhile.`
          : `The extension's activate() awaits the server's initialize result.`),
    );
  }
  L.push('');
  L.push('The targets are on wall time; the CPU-time ratio is given beside it because it moves less when other processes share the machine.');
  L.push('');
  L.push('| Ratio | Wall time | CPU time | Target |');
  L.push('| --- | ---: | ---: | --- |');
  const x2 = (v: number | null) => (v === null ? 'not measured' : `${v}×`);
  for (const x of ratios(r)) L.push(`| ${x.name} | ${x2(x.value)} | ${x2(x.cpu)} | ${x.target ?? '—'} |`);
  L.push('');
  L.push('| Target | Measured | Met |');
  L.push('| --- | --- | :---: |');
  for (const t of targets(r)) L.push(`| ${t.target} | ${t.value} | ${t.met === null ? 'n/a' : t.met ? 'yes' : 'no'} |`);
  return L.join('\n') + '\n';
}

export const README_START = '<!-- speed table: generated from bench/results/latest.json by `npm run bench:readme`; do not edit by hand -->';
export const README_END = '<!-- end of speed table -->';

/** The README with its speed section replaced by `body`; throws when the markers are missing. */
export function replaceReadmeSection(readme: string, body: string): string {
  const start = readme.indexOf(README_START);
  const end = readme.indexOf(README_END);
  if (start < 0 || end < start) throw new Error(`README.md has no speed section between "${README_START}" and "${README_END}"`);
  return readme.slice(0, start + README_START.length) + '\n\n' + body.trimEnd() + '\n\n' + readme.slice(end);
}

/** The README's speed section as written: the text between the markers, trimmed. */
export function readmeSection(readme: string): string | undefined {
  const start = readme.indexOf(README_START);
  const end = readme.indexOf(README_END);
  if (start < 0 || end < start) return undefined;
  return readme.slice(start + README_START.length, end).trim();
}

// ---------------------------------------------------------------------------------------------
// Argument chunks
// ---------------------------------------------------------------------------------------------

/**
 * Splits paths into command lines of at most `maxBytes` of arguments each (Linux allows about
 * 2 MB of arguments and environment together), keeping the order.
 */
export function chunkArgs(paths: readonly string[], maxBytes = 512 * 1024): string[][] {
  const out: string[][] = [];
  let current: string[] = [];
  let size = 0;
  for (const p of paths) {
    const n = Buffer.byteLength(p) + 1 + 8;
    if (current.length && size + n > maxBytes) {
      out.push(current);
      current = [];
      size = 0;
    }
    current.push(p);
    size += n;
  }
  if (current.length) out.push(current);
  return out;
}

/** CPU seconds other processes used during a run, per core-second of its wall time, clamped to 0..1. */
export function othersLoad(machineBusyS: number, toolCpuS: number, wallS: number, cores: number): number {
  if (!(wallS > 0) || !(cores > 0)) return 0;
  return round(Math.min(1, Math.max(0, (machineBusyS - toolCpuS) / (wallS * cores))), 3);
}
