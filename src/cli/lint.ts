/**
 * Linting a list of files: one engine per thread (a host, a configuration resolver and an
 * analyzer) that checks one file at a time, in this thread or in worker threads.
 *
 * Workers are used when there are enough files to pay for starting them. Each has its own
 * parsers and caches, a bounded heap, and a deadline per file: a worker that runs out of memory
 * or does not finish a file in time is replaced; the file that ran out of memory is linted again
 * alone, in a worker with a larger heap, and only a file past that or the deadline is reported as
 * failed.
 * Results arrive as plain data and are delivered in the order of the files, whatever the
 * order they finish in, so the output is the same with one thread or several.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as v8 from 'node:v8';
import { receiveMessageOnPort, Worker } from 'node:worker_threads';
import type { Severity } from '../core/diagnostic';
import { Analyzer } from '../engine/analyzer';
import type { CompiledGrammars } from '../engine/analyzer';
import { ConfigError, Configuration } from '../engine/config';
import type { ConfigOverrides } from '../engine/config';
import { SEVERITIES } from '../config/schema';
import { checkFile, configFailure } from './check';
import type { FileOutcome, FileStatus, Finding, PlacedEdit } from './check';
import { DiskHost } from '../host/source';
import type { SourceText } from '../host/source';
import type { WalkedFiles } from '../host/project';
import { discoverFiles } from '../host/files';
import type { Discovery, WalkShare } from '../host/files';
import { openDocument } from '../engine/document';
import type { SourceDocument } from '../engine/document';
import { fixAcrossFiles } from '../engine/fixpoint';

export interface LintJob {
  fix: boolean;
  unsafeFixes: boolean;
  /** With `fix`: write the fixed files (false keeps the text in the outcome). */
  write: boolean;
  overrides: ConfigOverrides;
  /** Compute each fix's edits of the file's own text (SARIF needs them; for notebooks they differ). */
  fileEdits: boolean;
  prefilter: boolean;
  /** The texts analysed are the files on disk (not standard input). */
  textsFromHost: boolean;
  /** The folders walked and the files found: fixes across files search every use of what they change in these. */
  project?: WalkedFiles;
  /** The runtime and grammars compiled once for the run (Parsers.compile): every thread shares them. */
  grammars?: CompiledGrammars;
}

/** What fixing one file across files did. */
export interface CrossFixOutcome {
  /** Files written (the file itself and the others its fixes changed). */
  written: string[];
  /** Fixes applied: those across files and the in-file ones the loop applied between them. */
  applied: number;
  appliedAcross: number;
  /** One-line notices for stderr, by file. */
  notices: Array<{ file: string; message: string }>;
}

export interface LintResult {
  outcome: FileOutcome;
  failLevel: Severity;
  /** The file's configuration could not be read: which file and why (reported once per file by the caller). */
  configError?: { file: string; detail: string };
  /** Time spent on the file in its thread. */
  ms: number;
}

/** Checks files one at a time with one thread's host, configuration and analyzer. */
export class FileLinter {
  private constructor(
    private readonly job: LintJob,
    private readonly host: DiskHost,
    private readonly config: Configuration,
    private readonly analyzer: Analyzer,
  ) {}

  static async create(job: LintJob, host = new DiskHost(), config = new Configuration(host)): Promise<FileLinter> {
    host.useProject(job.project);
    // A run that fixes nothing reads every file as it is on disk for the whole run.
    const analyzer = await Analyzer.create({ host, grammars: job.grammars, prefilter: job.prefilter, textsFromHost: job.textsFromHost, textsStay: job.textsFromHost && !job.fix, renewParserRuntime: true });
    config.useParsers(analyzer.parsers);
    return new FileLinter(job, host, config, analyzer);
  }

  /** The folders walked and the files found, when they become known after the linter was made (a worker started during the walk). */
  useProject(project: WalkedFiles | undefined): void {
    this.host.useProject(project);
  }

  lint(file: string): LintResult {
    const started = performance.now();
    let config;
    try {
      config = this.config.configFor(file, this.job.overrides);
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      return { outcome: configFailure(file), failLevel: 'error', configError: { file: err.file, detail: err.detail }, ms: performance.now() - started };
    }
    const outcome = checkFile(this.analyzer, this.host, file, {
      fix: this.job.fix,
      unsafeFixes: this.job.unsafeFixes,
      analyze: config.analyze,
      write: this.job.write,
    });
    return { outcome, failLevel: config.failLevel, ms: performance.now() - started };
  }

  /**
   * Applies the fixes of a file that reach other files (engine/fixpoint.ts, fixAcrossFiles) and
   * writes every file they change: all of them or, when one cannot be written, none (each is
   * written to a temporary file first, then renamed over the original).
   */
  fixAcross(file: string): CrossFixOutcome {
    const out: CrossFixOutcome = { written: [], applied: 0, appliedAcross: 0, notices: [] };
    let analyze;
    try {
      analyze = this.config.configFor(file, this.job.overrides).analyze;
    } catch (err) {
      if (err instanceof ConfigError) return out;
      throw err;
    }
    const reads = new Map<string, SourceText>();
    const open = (f: string): SourceDocument | undefined => {
      const read = this.host.read(f);
      if ('skipped' in read) return undefined;
      reads.set(f, read);
      const doc = openDocument(f, read.text);
      return 'notice' in doc ? undefined : doc;
    };
    const start = open(file);
    if (!start) return out;
    const fixed = fixAcrossFiles(this.analyzer, start, open, { unsafe: this.job.unsafeFixes, analyze });
    for (const r of fixed.rejectedAcross) out.notices.push({ file, message: `fix for ${r.diagnostic.ruleId} not applied ("${r.diagnostic.fix.title}"): ${r.reason}` });
    if (fixed.appliedAcross === 0) return out;
    const changed = [...fixed.documents].filter(([f, doc]) => doc.text !== reads.get(f)?.text);
    const temps: Array<{ file: string; temp: string }> = [];
    try {
      for (const [f, doc] of changed) {
        const temp = `${f}.prefixlint-${process.pid}.tmp`;
        fs.writeFileSync(temp, (reads.get(f)?.bom ? '\ufeff' : '') + doc.text, 'utf8');
        temps.push({ file: f, temp });
      }
    } catch (err) {
      for (const t of temps) fs.rmSync(t.temp, { force: true });
      out.notices.push({ file, message: `fixes across files not applied: ${err instanceof Error ? err.message : String(err)}` });
      return out;
    }
    for (const t of temps) {
      fs.renameSync(t.temp, t.file);
      this.host.pin(t.file, { text: fixed.documents.get(t.file)!.text, bom: reads.get(t.file)?.bom ?? false });
      this.analyzer.invalidate(t.file);
    }
    out.written = changed.map(([f]) => f);
    out.applied = fixed.applied;
    out.appliedAcross = fixed.appliedAcross;
    return out;
  }
}

// ---------------------------------------------------------------------------------------------
// Worker threads
// ---------------------------------------------------------------------------------------------

/** Files per worker below which starting one costs more than it saves (a worker takes ~0.1 s to start). */
const FILES_PER_WORKER = 40;
/**
 * A worker's heap: its caches (1 M characters of parsed files, 1 M of texts) and one file's
 * analysis (bounded by the evaluation budget) fit below it; a file whose analysis does not is
 * linted again alone, in a worker of LARGE_FILE_HEAP_MB (lintInWorkers). Measured on a
 * 4,300-file repository, 2 workers peaked at 265 MB with these limits and at 410 MB with Node's
 * defaults.
 *
 * The bound is a trade of memory for garbage collection. V8 starts a full collection when the
 * old generation reaches about halfway from what the last one left live to the bound (its
 * heap-growing factor, HEAP_GROWTH_PERCENT, allows more): a worker holds 30–40 MB after one, so
 * with 68 MB it collects again at ~49–54 MB. On the real-code corpus (2 threads), with 96 MB: 47
 * full collections a run and a peak of 326–331 MB; with 80: 61 and 304–308 MB; with 72: 75 and
 * 293–295 MB. Each takes its marking on V8's helper threads: their share of the run's CPU went
 * from ~14% to ~16% with 80, ~18% with 72. No file of the corpus needs more. (Measured since,
 * with WORKER_YOUNG_MB at 6, in 6–8 alternating runs: 72 MB takes ~6 MB off the peak for ~2%
 * more time, 64 MB ~20 MB for ~12% more; single runs with 56 and 48 MB peaked at 254 and 239 MB,
 * each slower again.) Since room is made for a file before its parse (Workspace.evictUnits), on
 * the same corpus: 80 MB peaked at 247–255 MB in 6 alternating runs, 72 MB at 239–246 (and at
 * 239–246 in 7 more), for 0.8–1.7% more time. Since names are found in module texts without a
 * pattern per name (core/words.ts: less code in the heap, 1.7% less time), in alternating runs
 * against 72 MB: 68 MB peaked at 232–242 MB and 234–235 (4 and 5 runs) against 235–248 and
 * 237–245, for 1.1–1.6% more time; 64 MB at 231–247 for 2.3–2.7% more. The peak is the sum of
 * both workers' heaps just before a full collection, the bound decides where that is, and a
 * user's CI runner has a memory limit: 68.
 */
const WORKER_HEAP_MB = 68;
/**
 * The heap of the worker that lints alone a file that ran out of WORKER_HEAP_MB: the largest
 * files read (5 MB of code, MAX_FILE_BYTES) take a few hundred MB to analyse.
 */
const LARGE_FILE_HEAP_MB = 1024;
/**
 * The young generation of a lint worker among several: small, since each worker's is resident
 * whole (both semi-spaces) and the workers' add up, and large enough that a file's garbage mostly
 * dies in it. V8 gives a third of it to each semi-space. On the real-code corpus (20,000 files,
 * 2 workers), alternating runs against 3 MB (3–8 rounds each): 4 and 5 MB −2% to −4% wall time,
 * 6 MB −5% to −7% for +3 to +8 MB of peak RSS, 8 MB −6% for +11 MB, 16 MB −3% for +25 MB,
 * 32 MB −4% to −7% for +56 to +63 MB. With 3 MB a worker scavenged ~1,850 times a run (1.4 s of
 * pauses), with 6 MB ~920 times (1.1 s); what they promoted to the old generation hardly changed
 * (330–450 MB a worker: a file's trees and values outlive a few megabytes of allocation), nor
 * did the number of full collections (22–27).
 */
const WORKER_YOUNG_MB = 6;
/**
 * The young generation of a worker that lints alone (one core, or few files): one worker's
 * memory is well within the bound above with a larger one, and a file's garbage then dies young.
 * Measured on one core (skyvern, gptme and agno, 4,700 files): 16.0–16.6 s with 4 MB, 14.5 s with
 * 32 MB (the main thread took 12.4–13.3 s, without bounds); peak RSS 194–207 MB, 227–235 MB (the
 * main thread: 338–344 MB).
 */
const SINGLE_WORKER_YOUNG_MB = 32;
/**
 * A file that takes longer than this in a worker is given up (the analysis bounds make this a
 * last resort). PREFIXLINT_FILE_DEADLINE_MS sets it, for tests.
 */
const FILE_DEADLINE_MS = Number(process.env.PREFIXLINT_FILE_DEADLINE_MS) || 60_000;

export const WORKER_ROLE = 'prefixlint-lint-worker';
/** What a walker is asked to walk: discoverFiles's arguments, and its share of the walk. */
interface DiscoveryJob {
  args: string[];
  cwd: string;
  /** Walkers sharing the walk: the next entry of each folder argument to hand out (WalkShare), and this walker's number. */
  share?: { next: SharedArrayBuffer; walker: number };
}

/**
 * The walk of a run that lints in this thread (`--threads 1`, or when a worker's walk failed):
 * with a host and configuration of the walk's own, as a lint worker walks (walkShare), so that
 * the configuration asks the walk's listings whether its files exist in each folder instead of
 * the disk. The run's own host lives on into the fix loop, which writes files, so it keeps no
 * listings. Measured on the real-code corpus (one thread): ~17,300 existence checks, 36–69 ms.
 */
export function walkInThisThread(args: readonly string[], cwd: string): Discovery {
  return walkShare({ args: [...args], cwd });
}

/** One walk, or a walker's share of one (discoverFiles), as plain data. */
function walkShare(job: DiscoveryJob): Discovery {
  // A host of the walk's own: it answers from the folders the walk lists.
  const host = new DiskHost();
  const config = new Configuration(host);
  const next = job.share ? new Int32Array(job.share.next) : undefined;
  const share: WalkShare | undefined = next && { claim: (k) => Atomics.add(next, k, 1), first: job.share!.walker === 0 };
  return discoverFiles(job.args, job.cwd, (abs, isDir) => config.excluded(abs, isDir), (folder, names) => host.folderListed(folder, names), share);
}

/**
 * Finds the files to check (discoverFiles) in the lint workers started for the run
 * (startLintWorkers), each walking its share of the entries of the folders given while its engine
 * loads. The walk's garbage goes with the workers' bounded young generations, instead of growing
 * the main thread's for the rest of the run, and no thread is started only to walk (each compiled the
 * whole bundle first). Measured on the real-code corpus (2 threads, 6 alternating runs against
 * two walker threads): the first files go to the workers at ~655 ms instead of ~770 ms, with ~180 ms
 * less CPU spent by then. Rejects when a worker fails or stops; the caller then walks in its own
 * thread (and the run replaces the worker).
 */
export function walkInLintWorkers(early: readonly EarlyWorker[], args: readonly string[], cwd: string): Promise<Discovery> {
  const next = early.length > 1 ? new SharedArrayBuffer(4 * Math.max(1, args.length)) : undefined;
  const one = (e: EarlyWorker, walker: number) =>
    new Promise<Discovery>((resolve, reject) => {
      // One that stopped already would never answer (its 'exit' is past).
      if (e.lost !== undefined) return reject(new Error(e.lost));
      const onMessage = (m: WalkedMessage) => {
        done();
        resolve(m.discovery);
      };
      const onError = (err: Error) => {
        done();
        reject(err);
      };
      const onExit = () => {
        done();
        reject(new Error('the worker stopped during the walk'));
      };
      const done = () => {
        e.worker.off('message', onMessage);
        e.worker.off('error', onError);
        e.worker.off('exit', onExit);
      };
      e.worker.once('message', onMessage);
      e.worker.once('error', onError);
      e.worker.once('exit', onExit);
      e.worker.postMessage({ kind: 'walk', job: { args: [...args], cwd, ...(next ? { share: { next, walker } } : {}) } } satisfies WalkMessage);
    });
  return Promise.all(early.map(one)).then(mergeDiscoveries);
}

/** The walk of several walkers (WalkShare): their files together, sorted; what the first said of the arguments. */
function mergeDiscoveries(parts: Discovery[]): Discovery {
  if (parts.length === 1) return parts[0];
  const files = [...new Set(parts.flatMap((p) => p.files))].sort();
  return { ...parts[0], files, configExcluded: parts.some((p) => p.configExcluded) };
}

/**
 * The worker threads to lint `files` files with; 0: in this thread. `requested` (--threads), else
 * the machine's cores up to 8, never more than the files pay for. `--threads 1`, and a run of few
 * files that started no worker for its walk (files from git, standard input), lint in this thread
 * (no worker to start); a run of few files that did (`startedForWalk`) uses one of those. Otherwise at
 * least one worker, also on a machine of one core: only a worker gives each file a bounded heap and
 * a deadline, so that a file that would exhaust memory or never finish fails alone instead of the run.
 */
export function workerCount(files: number, requested: number | undefined, cores = os.availableParallelism(), startedForWalk = false): number {
  if (requested === 1 || files === 0) return 0;
  // The walk's workers have been loading their engines meanwhile: one of them costs no more than
  // this thread (a 6-file folder: 0.37 s either way), and gives each file a bounded heap and a deadline.
  if (files < FILES_PER_WORKER) return startedForWalk ? 1 : 0;
  const wanted = requested ?? Math.min(cores, 8);
  return Math.max(1, Math.min(wanted, Math.ceil(files / FILES_PER_WORKER)));
}

/** Files to lint, in this order. */
type ToWorker = { kind: 'lint'; files: Array<{ id: number; file: string }> };
/**
 * What was walked (LintJob.project), known only after the worker started: its first message, or
 * the one after its share of the walk (WalkMessage). Its files come before it in parts
 * (ProjectFilesMessage) when there are many: see postProject.
 */
export type ProjectMessage = { kind: 'project'; project: WalkedFiles | undefined; inParts?: true };
/** Some of the walked files, in order: the project message that follows has the rest of what was walked. */
export type ProjectFilesMessage = { kind: 'project-files'; files: string[] };

/**
 * Walked files per message. Why in parts: a message is copied through one buffer of its size
 * from malloc, and freeing a large one keeps memory from the process (pageBacked.ts): the files
 * of the real-code corpus made a 2 MB message, ~100 characters a path. 2,000 paths are ~200 KB.
 */
export const PROJECT_FILES_PER_MESSAGE = 2000;

/** The messages that tell a worker what was walked: the project message, after its files in parts when there are many. */
export function projectMessages(project: WalkedFiles | undefined): Array<ProjectMessage | ProjectFilesMessage> {
  const files = project?.files;
  if (!project || !files || files.length <= PROJECT_FILES_PER_MESSAGE) return [{ kind: 'project', project }];
  const out: Array<ProjectMessage | ProjectFilesMessage> = [];
  for (let i = 0; i < files.length; i += PROJECT_FILES_PER_MESSAGE) out.push({ kind: 'project-files', files: files.slice(i, i + PROJECT_FILES_PER_MESSAGE) });
  out.push({ kind: 'project', project: { ...project, files: undefined }, inParts: true });
  return out;
}

/** What was walked, from its project message and the files that came in parts before it (projectMessages). */
export function walkedProject(message: ProjectMessage, parts: readonly string[]): WalkedFiles | undefined {
  return message.project && message.inParts ? { ...message.project, files: parts } : message.project;
}

function postProject(worker: Worker, project: WalkedFiles | undefined): void {
  for (const m of projectMessages(project)) worker.postMessage(m);
}
/** The run's walk, or this worker's share of it (walkInLintWorkers): asked before the project, answered with a WalkedMessage. */
type WalkMessage = { kind: 'walk'; job: DiscoveryJob };
type WalkedMessage = { kind: 'walked'; discovery: Discovery };
/** No work for this worker (stopLintWorkers): it stops once its engine has loaded. */
type StopMessage = { kind: 'stop' };
/** What a worker says of one file. */
type Reply =
  | { kind: 'result'; id: number; result: PlainResult }
  /** A file with nothing to say (no finding, notice or fix, analysed whole): what is left of its result. */
  | { kind: 'clean'; id: number; steps?: number; failLevel: Severity; ms: number }
  | { kind: 'failed'; id: number; message: string };
/**
 * What a worker sends the run: that it is ready, the replies of consecutive files in the order
 * they were given, or its share of the walk (walkInLintWorkers; one that comes after the walk was
 * given up, when another worker failed in it and this thread walked, is let go).
 */
type FromWorker = { kind: 'ready' } | { kind: 'replies'; replies: Reply[] } | WalkedMessage;

/**
 * A worker's progress, shared with the main thread: the index of the file it is on (slot 0 of
 * an Int32Array over the buffer) and when it started it (Date.now(), slot 1 of a Float64Array).
 * Replies travel in batches, so the main thread learns from this which file a deadline is for.
 */
const PROGRESS_BYTES = 16;

/**
 * A worker holds back the replies of clean files for at most this long (or until a file has
 * something to say, or nothing is queued): one message for a run of small files instead of one
 * per file — each costs the worker ~80 µs, 1.7 s on a 20,000-file corpus. Shorter than what is
 * queued (QUEUED_MS), so that the main thread tops the queue up before it runs out.
 */
const REPLY_EVERY_MS = 25;

/** Whether a result says nothing but that the file was analysed whole (most files of a repository). */
export function isClean(r: LintResult): boolean {
  const o = r.outcome;
  return !o.findings.length && !o.notices.length && !o.fixed && !o.crashed && o.fixedText === undefined && o.status.kind === 'analysed' && !r.configError && (!o.lines || !Object.keys(o.lines).length);
}

const NOTHING: readonly never[] = Object.freeze([]);
const ANALYSED: FileStatus = Object.freeze({ kind: 'analysed' });
const NO_LINES: Readonly<Record<string, string>> = Object.freeze({});

/**
 * The outcome of a clean file, made again where it is needed (a delivery, the report): its empty
 * lists and its status are shared by every clean file (nothing changes them once made).
 */
export function cleanFileOutcome(file: string, steps?: number): FileOutcome {
  // `steps` in the literal: added after, it went to a property array of its own (an object more a file).
  return { file, findings: NOTHING as never[], notices: NOTHING as never[], fixed: 0, crashed: false, lines: NO_LINES as Record<string, string>, status: ANALYSED, steps };
}

/**
 * The results that came before their turn (lintInWorkers delivers in the order of the files):
 * a clean file's as three numbers, any other's as it is. Each worker lints a run of consecutive
 * files, so the results of the second worker's run wait until the first worker's is done. Kept
 * as objects (a result, its outcome, a number for its time, a property array for its steps and a
 * string for its fail level, copied from the message), ~240 bytes a file: 9.5 s into a run over
 * the real-code corpus (2 threads) the main thread held 4.8 MB of them, for ~20,000 files.
 */
class PendingResults {
  private readonly results: Array<LintResult | undefined>;
  /** For a clean file waiting: its fail level's index in SEVERITIES + 1 (0: none waiting). */
  private readonly cleanLevel: Uint8Array;
  private readonly cleanMs: Float64Array;
  /** NaN: no steps given. */
  private readonly cleanSteps: Float64Array;

  constructor(private readonly files: readonly string[]) {
    this.results = new Array(files.length);
    this.cleanLevel = new Uint8Array(files.length);
    this.cleanMs = new Float64Array(files.length);
    this.cleanSteps = new Float64Array(files.length);
  }

  has(index: number): boolean {
    return this.results[index] !== undefined || this.cleanLevel[index] !== 0;
  }

  put(index: number, result: LintResult | Extract<Reply, { kind: 'clean' }>): void {
    if ('outcome' in result) {
      this.results[index] = result;
      return;
    }
    const level = SEVERITIES.indexOf(result.failLevel);
    if (level < 0) {
      // Were its fail level none of the known ones, it is kept whole rather than lost.
      this.results[index] = { outcome: cleanFileOutcome(this.files[index], result.steps), failLevel: result.failLevel, ms: result.ms };
      return;
    }
    this.cleanLevel[index] = level + 1;
    this.cleanMs[index] = result.ms;
    this.cleanSteps[index] = result.steps ?? NaN;
  }

  /** The result waiting at `index`, taken out; undefined when none is (nor past the last file). */
  take(index: number): LintResult | undefined {
    const r = this.results[index];
    if (r) {
      this.results[index] = undefined;
      return r;
    }
    const level = this.cleanLevel[index];
    if (!level) return undefined;
    this.cleanLevel[index] = 0;
    const steps = this.cleanSteps[index];
    return { outcome: cleanFileOutcome(this.files[index], Number.isNaN(steps) ? undefined : steps), failLevel: SEVERITIES[level - 1], ms: this.cleanMs[index] };
  }
}

/** A LintResult as it crosses threads: fixes carry their file edits as data, not as a function. */
type PlainResult = Omit<LintResult, 'outcome'> & { outcome: Omit<FileOutcome, 'findings'> & { findings: PlainFinding[] } };
type PlainFinding = Omit<Finding, 'fix'> & { fix?: Omit<NonNullable<Finding['fix']>, 'fileEdits'> & { fileEdits: PlacedEdit[] } };

function toPlain(r: LintResult, fileEdits: boolean): PlainResult {
  // Most files have no finding: their result is plain data already.
  if (!r.outcome.findings.length) return r as Omit<LintResult, 'outcome'> & { outcome: Omit<FileOutcome, 'findings'> & { findings: [] } };
  return {
    ...r,
    outcome: {
      ...r.outcome,
      findings: r.outcome.findings.map((f) => ({ ...f, fix: f.fix ? { ...f.fix, fileEdits: fileEdits ? f.fix.fileEdits() : [] } : undefined })),
    },
  };
}

/**
 * A result as it arrived from a worker, completed in place (the message is this thread's own
 * copy): fixes get their file edits back as a function, and the file's name is the string this
 * thread already holds, not a copy of it kept for every file to the end of the run.
 */
function fromPlain(r: PlainResult, file: string): LintResult {
  const outcome = r.outcome as Omit<FileOutcome, 'findings'> & { findings: Array<PlainFinding | Finding> };
  outcome.file = file;
  if (outcome.findings.length) {
    outcome.findings = r.outcome.findings.map((f): Finding => {
      if (!f.fix) return { ...f, fix: undefined };
      const edits = f.fix.fileEdits;
      return { ...f, fix: { ...f.fix, fileEdits: () => edits } };
    });
  }
  return r as unknown as LintResult;
}

/**
 * PREFIXLINT_WORKER_FAILPOINT=<what>:<file name>, for the tests of what happens when a worker
 * fails on a file: `exit` stops the worker, `oom` exhausts its heap, `oom-shared` exhausts it in a
 * worker of WORKER_HEAP_MB only, `hang` never returns.
 */
function failpoint(file: string): void {
  const spec = process.env.PREFIXLINT_WORKER_FAILPOINT;
  if (!spec) return;
  const [what, name] = spec.split(':');
  if (!file.endsWith(`/${name}`) && !file.endsWith(`\\${name}`)) return;
  if (what === 'exit') process.exit(1);
  if (what === 'hang') for (;;);
  if (what === 'oom' || (what === 'oom-shared' && v8.getHeapStatistics().heap_size_limit < (LARGE_FILE_HEAP_MB / 2) * 1024 * 1024)) {
    // 8 MB at a time: a heap of LARGE_FILE_HEAP_MB fills in a few hundred steps.
    const hold: number[][] = [];
    for (;;) hold.push(new Array(1 << 20).fill(1));
  }
}

/**
 * PREFIXLINT_WORKER_FAILPOINT=lost:loaded (or lost:walk), for the tests of a worker lost before it
 * is given work: the worker stops by itself once its engine has loaded (or, in the walk, without
 * answering it) — the tests once terminated such a worker, which can take the process down while
 * V8 still compiles its grammars.
 */
function lostFailpoint(): 'loaded' | 'walk' | undefined {
  const spec = process.env.PREFIXLINT_WORKER_FAILPOINT;
  return spec === 'lost:loaded' ? 'loaded' : spec === 'lost:walk' ? 'walk' : undefined;
}

/**
 * The body of a lint worker: checks the files it is sent, one at a time, and answers for runs of
 * them (see REPLY_EVERY_MS); before each file it writes which one it is on into `progress`.
 */
export async function runLintWorker(port: import('node:worker_threads').MessagePort, job: LintJob, progress?: SharedArrayBuffer): Promise<void> {
  // The engine loads while this worker walks (from the grammars the main thread compiled, LintJob.grammars).
  const creating = FileLinter.create(job);
  const lost = lostFailpoint();
  /** Stops this worker once its engine has loaded (a worker stopped while V8 compiles its grammars takes the process down: see stopLintWorkers). */
  const leaveWhenLoaded = (code: number) => {
    const leave = () => process.exit(code);
    void creating.then(leave, leave);
  };
  if (lost === 'loaded') return leaveWhenLoaded(1);
  const next = () => new Promise<WalkMessage | ProjectMessage | ProjectFilesMessage | StopMessage>((resolve) => port.once('message', resolve));
  // A worker started during the walk first takes its share of it (walkInLintWorkers); then comes
  // what was walked, or that it is not needed.
  let first = await next();
  if (first.kind === 'walk') {
    if (lost === 'walk') return leaveWhenLoaded(1);
    port.postMessage({ kind: 'walked', discovery: walkShare(first.job) } satisfies WalkedMessage);
    first = await next();
  }
  // The walked files sent in parts (postProject), then the project message.
  const walkedFiles: string[] = [];
  while (first.kind === 'project-files') {
    for (const f of first.files) walkedFiles.push(f);
    first = await next();
  }
  // Once the grammars are compiled (see stopLintWorkers); a failure to load is the same.
  if (first.kind === 'stop') return leaveWhenLoaded(0);
  const linter = await creating;
  linter.useProject(first.kind === 'project' ? walkedProject(first, walkedFiles) : undefined);
  const onFile = progress ? new Int32Array(progress, 0, 1) : undefined;
  const startedAt = progress ? new Float64Array(progress, 8, 1) : undefined;
  const lintOne = (m: { id: number; file: string }): Reply => {
    if (onFile && startedAt) {
      startedAt[0] = Date.now();
      Atomics.store(onFile, 0, m.id);
    }
    failpoint(m.file);
    try {
      const r = linter.lint(m.file);
      return isClean(r) ? { kind: 'clean', id: m.id, steps: r.outcome.steps, failLevel: r.failLevel, ms: r.ms } : { kind: 'result', id: m.id, result: toPlain(r, job.fileEdits) };
    } catch (err) {
      return { kind: 'failed', id: m.id, message: err instanceof Error ? err.message : String(err) };
    }
  };
  port.on('message', (first: ToWorker) => {
    let replies: Reply[] = [];
    let since = performance.now();
    const send = () => {
      port.postMessage({ kind: 'replies', replies } satisfies FromWorker);
      replies = [];
      since = performance.now();
    };
    // The files already queued are linted in this turn: their replies can wait for each other.
    for (let m: ToWorker | undefined = first; m; m = receiveMessageOnPort(port)?.message as ToWorker | undefined) {
      for (const f of m.files) {
        const reply = lintOne(f);
        replies.push(reply);
        if (reply.kind !== 'clean' || performance.now() - since >= REPLY_EVERY_MS) send();
      }
    }
    if (replies.length) send();
  });
  port.postMessage({ kind: 'ready' } satisfies FromWorker);
}

/** What a worker's reply says of its file. */
function replyResult(r: Reply, file: string): LintResult | Extract<Reply, { kind: 'clean' }> {
  return r.kind === 'clean' ? r : r.kind === 'result' ? fromPlain(r.result, file) : failedOutcome(file, r.message);
}

/** Why a file failed: it ran past the deadline, or out of a heap of `heapMb`. */
const PAST_DEADLINE = `the analysis did not finish within ${FILE_DEADLINE_MS / 1000} s`;
const outOfMemory = (heapMb: number) => `the analysis ran out of memory (${heapMb} MB)`;

function failedOutcome(file: string, message: string): LintResult {
  return {
    outcome: { file, findings: [], notices: [`internal error: ${message}`], fixed: 0, crashed: true, status: { kind: 'failed', reason: 'internal error' } },
    failLevel: 'error',
    ms: 0,
  };
}

/**
 * Which file each worker lints next. The files (sorted, so a folder's files are together) are
 * split into one run of consecutive files per worker: files that import each other mostly sit
 * in one folder, and a worker that lints them all parses each module once, in its own caches.
 * Files a lost worker had been given and not finished are handed out again first.
 *
 * Given the files' paths, runs are cut, and taken over, where the paths part highest up (between
 * two repositories of a folder of repositories, two top-level folders of a repository): what a
 * worker learns of a project (its modules' imports and definitions, the index of the names its
 * files call, the modules parsed for what they export) is its own, and a project two workers
 * lint is read by both. So a run is cut near the middle at such a parting; a worker lints the
 * projects (the parts between those partings) of its run largest first; and a worker that has
 * finished its own takes, of the worker with the most files left, whole projects from the end
 * of its list, up to half of what it has left, or, when that is one project (the one it is in),
 * the second half of it (cut at the highest parting in its middle half). On the real-code corpus
 * (2 threads) the middle of the files was inside agno, whose last files the first worker's run
 * ended with: the second worker linted 747 of its 4,333 files, and 91 of cua's as well.
 */
/** Consecutive files, from `next` (the next to hand out) to before `end`. */
type Run = { next: number; end: number };

export class Schedule {
  /** Per worker, the runs of consecutive files it is to lint, in the order it lints them. */
  private readonly queues: Run[][] = [];
  private readonly again: number[] = [];
  /** For each file but the first, the path segments it shares with the one before it (fewer: the paths part higher up). */
  private readonly shared?: Uint16Array;
  /** The fewest segments any two neighbouring paths share: where projects part. */
  private readonly parting: number = 0;

  constructor(files: number, workers: number, paths?: readonly string[]) {
    if (paths && paths.length === files && files > 1) {
      const shared = (this.shared = sharedSegments(paths));
      // (A loop: spread into Math.min, a list of 200,000 files would overflow the stack.)
      let parting = shared[1];
      for (let i = 2; i < files; i++) if (shared[i] < parting) parting = shared[i];
      this.parting = parting;
    }
    let start = 0;
    for (let w = 0; w < workers; w++) {
      const end = w === workers - 1 ? files : Math.max(start, this.cut(start, files, Math.floor((files * (w + 1)) / workers), Math.floor(files / workers)));
      this.queues.push(this.projects(start, end));
      start = end;
    }
  }

  /** The files from `lo` to `hi` as runs, one per project, largest first (in order of place among equals). */
  private projects(lo: number, hi: number): Run[] {
    const out: Run[] = [];
    let from = lo;
    for (let i = lo + 1; i <= hi; i++) {
      if (i < hi && !(this.shared && this.shared[i] <= this.parting)) continue;
      out.push({ next: from, end: i });
      from = i;
    }
    return out.sort((a, b) => b.end - b.next - (a.end - a.next) || a.next - b.next);
  }

  /**
   * Where to end a run that is to end near `at`: the place within `span / 4` of it (and after
   * `lo`, before `hi`) where the paths part highest up, the nearest to `at` among those.
   */
  private cut(lo: number, hi: number, at: number, span: number): number {
    const shared = this.shared;
    if (!shared) return at;
    const reach = Math.floor(span / 4);
    let best = at;
    for (let i = Math.max(lo + 1, at - reach); i <= Math.min(hi - 1, at + reach); i++) {
      if (shared[i] < shared[best] || (shared[i] === shared[best] && Math.abs(i - at) < Math.abs(best - at))) best = i;
    }
    return best;
  }

  /** The next file for the worker in slot `w` (a replacement keeps its slot), or undefined when none is left. */
  take(w: number): number | undefined {
    if (this.again.length) return this.again.shift();
    const own = this.queues[w];
    while (own.length && own[0].next >= own[0].end) own.shift();
    if (!own.length && !this.takeOver(own)) return undefined;
    return own[0].next++;
  }

  /** Gives `own` (empty) files of the worker with the most left; false when no worker has any. */
  private takeOver(own: Run[]): boolean {
    let victim: Run[] | undefined;
    let most = 0;
    for (const q of this.queues) {
      const left = q.reduce((n, r) => n + r.end - r.next, 0);
      if (left > most) [victim, most] = [q, left];
    }
    if (!victim) return false;
    // Whole projects from the end of its list (the smallest it has left), up to half of what it has left.
    let taken = 0;
    while (victim.length > 1) {
      const last = victim[victim.length - 1];
      if (taken + last.end - last.next > most / 2) break;
      taken += last.end - last.next;
      own.unshift(victim.pop()!);
    }
    if (taken) return true;
    // Else the second half of the largest of its runs.
    let largest = victim[0];
    for (const r of victim) if (r.end - r.next > largest.end - largest.next) largest = r;
    const left = largest.end - largest.next;
    const mid = left < 4 ? largest.next + Math.floor(left / 2) : this.cut(largest.next, largest.end, largest.next + Math.floor(left / 2), left);
    own.push({ next: mid, end: largest.end });
    largest.end = mid;
    return true;
  }

  /** How many files are not handed out yet (to any worker). */
  left(): number {
    let n = this.again.length;
    for (const q of this.queues) for (const r of q) n += r.end - r.next;
    return n;
  }

  /** Files to hand out again before any other (in this order). */
  giveBack(files: readonly number[]): void {
    this.again.unshift(...files);
  }

  /** Every file not handed out yet (and no longer to be). */
  drain(): number[] {
    const out = this.again.splice(0);
    for (const q of this.queues) for (const r of q) for (; r.next < r.end; r.next++) out.push(r.next);
    return out.sort((a, b) => a - b);
  }
}

/** For each path but the first, how many of its leading segments (folders) it shares with the path before it. */
export function sharedSegments(paths: readonly string[]): Uint16Array {
  const out = new Uint16Array(paths.length);
  for (let i = 1; i < paths.length; i++) {
    const a = paths[i - 1];
    const b = paths[i];
    let segments = 0;
    for (let k = 0; k < a.length && k < b.length && a.charCodeAt(k) === b.charCodeAt(k); k++) {
      const c = a.charCodeAt(k);
      if (c === 0x2f /* / */ || c === 0x5c /* \ */) segments++;
    }
    out[i] = Math.min(segments, 0xffff);
  }
  return out;
}

/**
 * Files a worker is given ahead, so that it never waits for the main thread between files: the
 * next ones wait in its queue while it lints the current one. As many as it lints in about
 * QUEUED_MS at the pace of its last files (a run of small files goes over in one message each
 * way), at least QUEUED_MIN; not many more, since a file in one worker's queue is not given to
 * another (near the run's end, fewer: queueTarget). With 10 ms a worker emptied its
 * queue every few files and then waited for the main thread to wake and answer: 0.2–0.5 s a
 * worker over the real-code corpus (2 threads), and ~800 messages each way; with 60 ms, 30–75 ms
 * and ~300 (5 alternating runs: wall −0.24 s, CPU −0.35 s).
 */
const QUEUED_MIN = 2;
const QUEUED_MAX = 192;
const QUEUED_MS = 60;

/**
 * How many files a worker's queue is filled up to (see QUEUED_MS): as many as it lints in
 * QUEUED_MS at `pace` (milliseconds a file), and, near the end of the run, no more than its
 * share of the `left` files not handed out yet among `threads` workers. Why the share: a file in
 * one worker's queue is not given to another, so when nothing else is left, the others wait for
 * the longest queue. On the real-code corpus (2 threads) the second worker still had 130–180
 * files of small scripts queued when the first ran out, and finished 180 ms after it.
 */
export function queueTarget(pace: number, left: number, threads: number): number {
  const paced = Math.ceil(QUEUED_MS / Math.max(pace, 0.01));
  return Math.max(QUEUED_MIN, Math.min(QUEUED_MAX, paced, Math.ceil(left / threads)));
}

/** A lint worker started before its files were known (startLintWorkers). */
export interface EarlyWorker {
  worker: Worker;
  progress: SharedArrayBuffer;
  /** Why it stopped before it was given work, if it did. */
  lost?: string;
  /** Its listeners until lintInWorkers takes it over. */
  onError: (err: Error) => void;
  onExit: () => void;
}

function newLintWorker(script: string, job: LintJob, threads: number, heapMb = WORKER_HEAP_MB): { worker: Worker; progress: SharedArrayBuffer } {
  const progress = new SharedArrayBuffer(PROGRESS_BYTES);
  new Int32Array(progress, 0, 1)[0] = -1;
  // The project goes in the first message (ProjectMessage), not in workerData: the same for a worker started during the walk.
  const worker = new Worker(script, {
    workerData: { role: WORKER_ROLE, job: { ...job, project: undefined }, progress },
    resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: threads === 1 ? SINGLE_WORKER_YOUNG_MB : WORKER_YOUNG_MB },
  });
  return { worker, progress };
}

/**
 * Starts `threads` lint workers before the files are known (LintJob.project is then unknown and
 * not used): they walk (walkInLintWorkers) while their engines load (~85 ms a worker), which then
 * overlaps the walk instead of following it. lintInWorkers takes them over; one it does not take
 * does not keep the process alive.
 */
export function startLintWorkers(script: string, job: LintJob, threads: number): EarlyWorker[] {
  const out: EarlyWorker[] = [];
  for (let i = 0; i < threads; i++) {
    const { worker, progress } = newLintWorker(script, job, threads);
    worker.unref();
    const early: EarlyWorker = {
      worker,
      progress,
      onError: (err) => (early.lost ??= err.message),
      onExit: () => (early.lost ??= 'the worker stopped'),
    };
    worker.on('error', early.onError);
    worker.on('exit', early.onExit);
    out.push(early);
  }
  return out;
}

/**
 * Stops the workers started early that lintInWorkers did not take (a run that lints in this
 * thread, or fewer workers). Each is asked to stop, and stops itself once its engine has loaded;
 * until then it keeps the process alive. Why not `terminate()`: a worker stopped while V8 still
 * compiles its grammars in the background takes the process down (SIGSEGV in the compile job that
 * calls back into the isolate being torn down), and so does the process's exit, which stops the
 * workers left (with few files this thread is done before they have loaded). Measured on a 6-file
 * project, 4 runs at a time: 3 crashes in 600 runs, none with `--threads 1` (no worker) in 600.
 * One that has not stopped after STOP_GRACE_MS is terminated.
 */
export function stopLintWorkers(early: readonly EarlyWorker[]): void {
  for (const e of early) {
    if (e.lost !== undefined) {
      void e.worker.terminate();
      continue;
    }
    e.worker.ref();
    const fallback = setTimeout(() => void e.worker.terminate(), STOP_GRACE_MS);
    e.worker.once('exit', () => clearTimeout(fallback));
    e.worker.postMessage({ kind: 'stop' } satisfies StopMessage);
  }
}

/** How long a worker asked to stop (stopLintWorkers) may take to load its engine and stop. */
const STOP_GRACE_MS = 10_000;

/**
 * Lints `files` with `threads` workers running `script` (the bundle), calling `deliver` with each
 * result in the order of `files`. Workers started early (startLintWorkers, the same job) are used
 * first, and taken out of `early`.
 */
export function lintInWorkers(script: string, files: readonly string[], job: LintJob, threads: number, deliver: (index: number, result: LintResult) => void, early: EarlyWorker[] = []): Promise<void> {
  return new Promise((resolve) => {
    const pending = new PendingResults(files);
    const schedule = new Schedule(files.length, threads, files);
    let delivered = 0;

    const flush = () => {
      for (let r = pending.take(delivered); r; r = pending.take(delivered)) deliver(delivered++, r);
      if (delivered === files.length) resolve();
    };
    const settle = (index: number, result: LintResult | Extract<Reply, { kind: 'clean' }>) => {
      if (pending.has(index) || index < delivered) return;
      pending.put(index, result);
      flush();
    };

    /**
     * Lints a file that ran out of a worker's heap again, alone, in a worker of its own with
     * LARGE_FILE_HEAP_MB (and the same deadline): the heap of the other workers stays small, and
     * the largest files are still analysed. A file that runs out of that one too fails.
     */
    const lintAlone = (index: number) => {
      const file = files[index];
      const { worker } = newLintWorker(script, job, threads, LARGE_FILE_HEAP_MB);
      let timer: NodeJS.Timeout | undefined;
      let done = false;
      const finish = (result: LintResult | Extract<Reply, { kind: 'clean' }>) => {
        if (done) return;
        done = true;
        if (timer) clearTimeout(timer);
        void worker.terminate();
        settle(index, result);
      };
      postProject(worker, job.project);
      worker.on('message', (m: FromWorker) => {
        if (m.kind === 'ready') {
          worker.postMessage({ kind: 'lint', files: [{ id: index, file }] } satisfies ToWorker);
          timer = setTimeout(() => finish(failedOutcome(file, PAST_DEADLINE)), FILE_DEADLINE_MS);
          return;
        }
        if (m.kind !== 'replies') return;
        for (const r of m.replies) {
          if (r.id === index) finish(replyResult(r, file));
        }
      });
      worker.on('error', (err: Error & { code?: string }) => finish(failedOutcome(file, err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? outOfMemory(LARGE_FILE_HEAP_MB) : err.message)));
      worker.on('exit', () => finish(failedOutcome(file, 'the worker stopped')));
    };

    const start = (slot: number) => {
      // A worker started early is taken when it is still there (else it is stopped and a new one started).
      let taken = early.shift();
      if (taken) {
        taken.worker.off('error', taken.onError);
        taken.worker.off('exit', taken.onExit);
        if (taken.lost !== undefined) {
          void taken.worker.terminate();
          taken = undefined;
        } else taken.worker.ref();
      }
      const { worker, progress } = taken ?? newLintWorker(script, job, threads);
      const onFile = new Int32Array(progress, 0, 1);
      const startedAt = new Float64Array(progress, 8, 1);
      postProject(worker, job.project);
      /** The files given to it and not answered for, in the order it lints them. */
      const given: number[] = [];
      /** The deadline of the file it is on. */
      let timer: NodeJS.Timeout | undefined;
      let ready = false;
      /** No more work for it (all files given out, or it was given up). */
      let retired = false;
      let gone = false;
      /** Milliseconds per file, a moving average over its last files. */
      let pace = 1;
      /** Where in `given` the file it is on sits (the first when it is on none of them): replies come in runs, so those before it may be done and not yet answered for. */
      const current = () => Math.max(0, given.indexOf(Atomics.load(onFile, 0)));
      /**
       * Fails the file it is on (or, `alone`, lints it again in a worker of its own: lintAlone),
       * and gives every other file it had back to the schedule: those before it were done, but
       * their results were still with it.
       */
      const failCurrent = (why: string, alone = false) => {
        if (!given.length) return;
        const done = given.splice(0, current());
        const index = given.shift()!;
        if (alone) lintAlone(index);
        else settle(index, failedOutcome(files[index], why));
        schedule.giveBack([...done, ...given.splice(0)]);
      };
      const deadline = () => {
        timer = undefined;
        if (!given.length) return;
        const left = FILE_DEADLINE_MS - (Date.now() - startedAt[0]);
        if (given.includes(Atomics.load(onFile, 0)) && left > 0) {
          timer = setTimeout(deadline, left);
          return;
        }
        failCurrent(PAST_DEADLINE);
        retired = true;
        void worker.terminate();
        start(slot);
      };
      const watch = () => {
        if (timer) clearTimeout(timer);
        timer = given.length ? setTimeout(deadline, FILE_DEADLINE_MS) : undefined;
      };
      const give = () => {
        const wanted = queueTarget(pace, schedule.left(), threads);
        const batch: ToWorker['files'] = [];
        while (given.length < wanted) {
          const index = schedule.take(slot);
          if (index === undefined) break;
          given.push(index);
          batch.push({ id: index, file: files[index] });
        }
        if (batch.length) {
          const idle = given.length === batch.length;
          worker.postMessage({ kind: 'lint', files: batch } satisfies ToWorker);
          if (idle) watch();
        }
        if (!given.length) {
          retired = true;
          void worker.terminate();
        }
      };
      worker.on('message', (m: FromWorker) => {
        if (m.kind === 'ready') {
          ready = true;
          return give();
        }
        if (m.kind === 'walked') return;
        if (retired && !given.length) return;
        for (const r of m.replies) {
          if (r.id !== given[0]) return;
          given.shift();
          if (r.kind === 'clean') pace = 0.9 * pace + 0.1 * r.ms;
          else if (r.kind === 'result') pace = 0.9 * pace + 0.1 * r.result.ms;
          settle(r.id, replyResult(r, files[r.id]));
        }
        watch();
        give();
      });
      /** `outOfMemory`: the file it was on is linted again alone (lintAlone) instead of failing. */
      const lost = (why: string, outOfMemory = false) => {
        if (gone) return;
        gone = true;
        if (timer) clearTimeout(timer);
        timer = undefined;
        // The file it was on fails (or is linted alone); the others it had been given are linted by another worker.
        failCurrent(why, outOfMemory && ready);
        if (retired) return;
        if (!ready) {
          // A worker that cannot even start would fail again: the files left fail with its reason.
          for (const index of schedule.drain()) settle(index, failedOutcome(files[index], why));
          return;
        }
        // A worker that stopped in the middle of its work is replaced; the files left go on.
        start(slot);
      };
      worker.on('error', (err: Error & { code?: string }) => (err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? lost(outOfMemory(WORKER_HEAP_MB), true) : lost(err.message)));
      worker.on('exit', () => lost('the worker stopped'));
    };
    if (files.length === 0) return resolve();
    for (let slot = 0; slot < threads; slot++) start(slot);
  });
}
