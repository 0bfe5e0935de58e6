/**
 * The `prefixlint` command line: `check`, `rules`, `explain`, `diff`, `init`. Exit codes: 0
 * clean, 1 findings (at or above the fail level), 2 usage, configuration or internal error.
 */
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import type { ParseArgsConfig } from 'node:util';
import { isDynamicPattern } from 'tinyglobby';
import { version } from '../../package.json';
import { CONFIG_FILE, fails } from '../config/resolve';
import { Analyzer } from '../engine/analyzer';
import { ConfigError, Configuration } from '../engine/config';
import type { ConfigOverrides } from '../engine/config';
import { SEVERITIES, starterConfig } from '../config/schema';
import type { Severity } from '../core/diagnostic';
import { diffRequests } from '../core/requestDiff';
import type { Rule } from '../core/rule';
import { ruleTable } from '../engine/docs';
import { allRules } from '../engine/registry';
import { skippedOutcome } from './check';
import { RunStats } from './runStats';
import { cleanFileOutcome, FileLinter, isClean, lintInWorkers, runLintWorker, startLintWorkers, stopLintWorkers, walkInLintWorkers, walkInThisThread, WORKER_ROLE, workerCount } from './lint';
import type { EarlyWorker, LintJob, LintResult } from './lint';
import { applyBaseline, BaselineError, DEFAULT_BASELINE, readBaseline, serializeBaseline, updatedBaseline } from './baseline';
import type { Baseline } from './baseline';
import type { FileOutcome, Finding } from './check';
import { colorWanted, createColors } from './color';
import { formatDiff } from '../engine/diffReport';
import { isSourceFile, selectChanged, walkedFolders } from '../host/files';
import { heapCollector } from '../host/heap';
import type { Discovery } from '../host/files';
import type { WalkedFiles } from '../host/project';
import { applicableAcross, MAX_FIX_PASSES } from '../engine/fixpoint';
import { changedLines, changedSince } from '../host/git';
import type { ChangedLines } from '../host/git';
import { githubAnnotations } from './github';
import { displayPath, formatFindings, formatStatistics, formatSummary, statistics, toJson, totals } from './report';
import { explainRule, findRule, rulesJson, rulesTable, selectRules, splitList } from './rules';
import { toSarif } from './sarif';
import { formatText } from './text';
import { decodeSource, describeError, DiskHost } from '../host/source';

export const EXIT_CLEAN = 0;
export const EXIT_FINDINGS = 1;
export const EXIT_ERROR = 2;

const MAIN_HELP = `prefixlint ${version}: finds the mistakes that break Anthropic prompt caching

Usage:
  prefixlint check [options] [paths or globs...]   lint files (default: the current folder)
  prefixlint rules [--format text|json|markdown]  list the rules
  prefixlint explain <rule-id>                    show a rule's documentation
  prefixlint diff <a.json> <b.json>               where two request dumps stop sharing a cached prefix
  prefixlint init                                 write a starter .prefixlintrc.json
  prefixlint server [--stdio]                     the language server, for editors (LSP over stdio)
  prefixlint --version | --help

Run 'prefixlint <command> --help' for the options of a command.
`;

const CHECK_HELP = `Usage: prefixlint check [options] [paths or globs...]

Lints Python (.py .pyi), TypeScript (.ts .mts .cts .tsx), JavaScript (.js .jsx .mjs .cjs) and
Jupyter notebooks (.ipynb). Folders are walked; files ignored by .gitignore and the folders
node_modules, .git, dist, .venv, venv, __pycache__ and .ipynb_checkpoints are skipped, and so
is what the configuration's "exclude" (and "include") leave out. A file named explicitly is
always checked. Globs (quote them) are matched from the current folder.

Options:
  --format FORMAT        text (default), concise (one line per finding), json, sarif (SARIF
                         2.1.0) or github (Actions annotations)
  --fix                  apply safe fixes and write the files
  --unsafe-fixes         with --fix, apply unsafe fixes too; without it, show them as available
  --select ids           run only these rules (comma-separated rule ids or groups); replaces
                         the configuration's select, ignore and "off"
  --ignore ids           do not run these rules (comma-separated rule ids or groups)
  --fail-level LEVEL     exit 1 for findings of this severity or higher: error, warning or info
                         (default: the configuration's failLevel, else warning)
  --max-warnings N       also exit 1 when there are more than N warnings
  --exit-zero            exit 0 even when problems are found (usage and internal errors still exit 2)
  --quiet                report only the findings that fail the run (at or above the fail
                         level) and no summary; notices about skipped files still go to stderr
  --statistics           count the findings per rule instead of listing them (text, concise
                         and json)
  --stdin-filename PATH  lint standard input as the file PATH (its configuration and language);
                         with --fix, print the fixed text on stdout and the report on stderr
  --files-from FILE      also lint the paths listed in FILE, one per line ('-': standard input)
  --changed-since REF    only files changed since the git ref REF: committed on this branch
                         since it left REF, changed in the working tree, or new and not ignored
  --diff REF             only findings on lines changed since the branch left the git ref REF
                         (commits, staged and unstaged changes; every line of a new file)
  --baseline FILE        do not report the findings FILE records (per file and rule, as counts)
  --write-baseline       record this run's findings in the baseline (--baseline FILE, default
                         ${DEFAULT_BASELINE}) and exit 0; entries of files not checked are kept
  --threads N            lint with N threads (default: one per core, up to 8, and fewer
                         for few files); the output is the same with any number. Each
                         thread has a bounded heap and a deadline per file (a file past
                         the heap is linted again alone with a larger one; a file past
                         that, or the deadline, fails alone); --threads 1 and runs of few
                         files lint in the main thread, without those bounds
  --no-color             no colours (also: the NO_COLOR environment variable)
  -h, --help             show this help

Configuration: the nearest .prefixlintrc.json, [tool.prefixlint] in pyproject.toml or
"prefixlint" in package.json, from each file's folder up to the repository root. Command-line
options override it. 'prefixlint init' writes a starter .prefixlintrc.json.

Output:
  text    each finding with its severity, rule, message, location, the source line(s) with a
          marker under the range, where the values come from and the fix; then a summary
  concise path:line:column: rule-id [*] message        ([*]: --fix can fix it)
  json    an array, one object per finding: ruleId, severity, file, line, column, endLine,
          endColumn, message, url, fix (null or {title, applicability, edits, files}:
          files lists each file a fix edits, for fixes that reach other files); notebook
          findings add cell, cellLine, cellColumn, cellEndLine and cellEndColumn.
          With --statistics: [{ruleId, severity, count, fixable}].
  sarif   one run; tool.driver.rules has every rule with its docs (help) and page (helpUri);
          results carry ruleId, ruleIndex, level, locations and fixes.
  github  ::error file=...,line=...,col=...,endLine=...,endColumn=...,title=prefixlint (rule-id)::message
          (info findings are ::notice, warnings ::warning)
  Lines and columns are 1-based; columns count UTF-16 code units (a character outside the
  Basic Multilingual Plane, such as most emoji, counts as 2); an end column points just past
  the range. For a notebook, line and column point into the .ipynb file; cell is the 0-based
  index in the notebook's cell list and cellLine/cellColumn the position inside that cell.
  Files that cannot be checked (unreadable, binary, not UTF-8, over 5 MB, not parsable) get a
  one-line notice on stderr and the run goes on.

Exit codes: 0 no finding at or above the fail level, 1 findings at or above it (or more
warnings than --max-warnings), 2 usage, configuration or internal error.
`;

const RULES_HELP = `Usage: prefixlint rules [--format text|json|markdown] [--no-color]

Lists every rule: id, group, severity, fix availability and summary. --format markdown prints
the table in README.md, with each rule linked to its page.
`;

const EXPLAIN_HELP = `Usage: prefixlint explain <rule-id> [--no-color]

Prints a rule's documentation: what it finds, why it matters, an example, the fix.
`;

const INIT_HELP = `Usage: prefixlint init

Writes a starter ${CONFIG_FILE} in the current folder (never over an existing one), with
every setting at its default.
`;

const DIFF_HELP = `Usage: prefixlint diff [--format text|json] <a.json> <b.json>

Compares two dumped Messages API request bodies as the prompt cache sees them: the first
differing byte in render order (tools, system, messages), the JSON path of its block, and
an estimate of the tokens after it that are no longer read from the cache. A body as the SDK
sends it (extra fields such as betas are fine, a batch request's "params" too) and
json.dumps(..., sort_keys=True, indent=2) dumps are read; formatting does not count.

Exit codes: 0 the cached prefix is the same (or nothing is cached), 1 they differ inside the
cached prefix (before the last cache_control marker, or anywhere with a top-level
cache_control), 2 a file is missing or is not a request body.
`;

const SERVER_HELP = `Usage: prefixlint server [--stdio | --node-ipc | --socket=PORT]

Runs the prefixlint language server (the same engine as 'check', with the project's
configuration) for any editor that speaks the Language Server Protocol: Neovim, Helix, Zed,
VS Code. Standard input and output carry LSP messages (--stdio, the default).
`;

const COMMAND_HELP: Record<string, string> = { check: CHECK_HELP, rules: RULES_HELP, explain: EXPLAIN_HELP, init: INIT_HELP, diff: DIFF_HELP, server: SERVER_HELP };

/** A usage error; `hint` adds the line that points to --help. */
class UsageError extends Error {
  constructor(
    message: string,
    readonly hint = true,
  ) {
    super(message);
  }
}

interface Io {
  out(text: string): void;
  err(text: string): void;
  /** All of standard input. */
  readStdin(): Buffer;
  stdoutIsTTY: boolean;
  cwd: string;
}

function parse<T extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: T, allowPositionals: boolean) {
  try {
    return parseArgs({ args, options, allowPositionals, strict: true });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    // Node's message goes on about `--`; its first sentence is what the user needs.
    throw new UsageError(message.split(/\.\s/)[0].replace(/\.$/, ''));
  }
}

function format(value: string | undefined, allowed: readonly string[]): string {
  const f = value ?? 'text';
  if (!allowed.includes(f)) throw new UsageError(`unknown format '${f}' (expected ${allowed.slice(0, -1).join(', ')} or ${allowed[allowed.length - 1]})`);
  return f;
}

function severityOption(value: string | undefined, option: string): Severity | undefined {
  if (value === undefined) return undefined;
  if (!(SEVERITIES as readonly string[]).includes(value)) throw new UsageError(`${option}: expected error, warning or info, got '${value}'`);
  return value as Severity;
}

function countOption(value: string | undefined, option: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new UsageError(`${option}: expected a whole number of 0 or more, got '${value}'`);
  return Number(value);
}

/** The paths listed in a file (or on standard input for '-'): one per line, blank lines skipped. */
function readPathList(source: string, io: Io): string[] {
  let text: string;
  if (source === '-') text = io.readStdin().toString('utf8');
  else {
    try {
      text = fs.readFileSync(path.resolve(io.cwd, source), 'utf8');
    } catch (err) {
      throw new UsageError(`--files-from: ${source}: ${describeError(err)}`, false);
    }
  }
  return text
    .split(/\r?\n|\0/)
    .map((l) => l.trim())
    .filter(Boolean);
}

const CHECK_FORMATS = ['text', 'concise', 'json', 'sarif', 'github'];

async function check(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(
    args,
    {
      format: { type: 'string' },
      fix: { type: 'boolean' },
      'unsafe-fixes': { type: 'boolean' },
      select: { type: 'string', multiple: true },
      ignore: { type: 'string', multiple: true },
      'fail-level': { type: 'string' },
      'max-warnings': { type: 'string' },
      'exit-zero': { type: 'boolean' },
      quiet: { type: 'boolean', short: 'q' },
      statistics: { type: 'boolean' },
      'stdin-filename': { type: 'string' },
      'files-from': { type: 'string' },
      'changed-since': { type: 'string' },
      threads: { type: 'string' },
      diff: { type: 'string' },
      baseline: { type: 'string' },
      'write-baseline': { type: 'boolean' },
      'no-color': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    true,
  );
  if (values.help) {
    io.out(CHECK_HELP);
    return EXIT_CLEAN;
  }
  const fmt = format(values.format, CHECK_FORMATS);
  const failLevel = severityOption(values['fail-level'], '--fail-level');
  const maxWarnings = countOption(values['max-warnings'], '--max-warnings');
  const threadsOption = countOption(values.threads, '--threads');
  if (threadsOption === 0) throw new UsageError('--threads: expected a whole number of 1 or more, got 0');
  const quiet = values.quiet === true;
  if (values.statistics && (fmt === 'sarif' || fmt === 'github')) throw new UsageError(`--statistics works with --format text or json, not ${fmt}`);
  const stdinName = values['stdin-filename'];
  if (stdinName !== undefined && (positionals.length || values['files-from'] !== undefined || values['changed-since'] !== undefined)) {
    throw new UsageError('--stdin-filename lints standard input: it takes no paths, --files-from or --changed-since');
  }
  const diffRef = values.diff;
  if (diffRef !== undefined) {
    if (stdinName !== undefined || values['changed-since'] !== undefined) throw new UsageError('--diff takes the changed files from git: it does not go with --stdin-filename or --changed-since');
    if (values.fix) throw new UsageError('--diff reports the changed lines only, but --fix would change other lines too: run --fix without --diff');
  }
  if (values['write-baseline'] && (stdinName !== undefined || diffRef !== undefined)) throw new UsageError('--write-baseline records the findings of whole files: it does not go with --stdin-filename or --diff');
  const select = splitList(values.select);
  const ignore = splitList(values.ignore);
  const selected = selectRules(allRules, select, ignore);
  if ('error' in selected) throw new UsageError(selected.error, false);

  // The parser's runtime and grammars compile on V8's threads while the configuration is read, once
  // for every thread of the run (Parsers.compile). A file missing here is found missing again where
  // an engine loads, and reported there.
  const compiling = Analyzer.compileGrammars().catch(() => undefined);
  const host = new DiskHost();
  const config = new Configuration(host);
  // A broken configuration is an error (exit 2) for the files it governs, reported once; the
  // other files are linted. One in the current folder is reported even when nothing is linted.
  const configErrors = new Map<string, ConfigError>();
  const configFor = (file: string, over: ConfigOverrides) => {
    try {
      return config.configFor(file, over);
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      if (!configErrors.has(err.file)) {
        configErrors.set(err.file, err);
        io.err(`prefixlint: error: ${displayPath(err.file, io.cwd)}: ${err.detail}\n`);
      }
      return undefined;
    }
  };
  configFor(path.join(io.cwd, '_'), {});
  const excluded = (abs: string, isDir: boolean) => config.excluded(abs, isDir);

  const job: LintJob = {
    fix: values.fix === true,
    unsafeFixes: values['unsafe-fixes'] === true,
    write: stdinName === undefined,
    overrides: { select, ignore, failLevel },
    fileEdits: fmt === 'sarif',
    // PREFIXLINT_PREFILTER=0 analyses every file in full (to check that the prefilter changes nothing).
    prefilter: process.env.PREFIXLINT_PREFILTER !== '0',
    textsFromHost: stdinName === undefined,
  };
  /** Lint workers started while the walk runs (startLintWorkers). */
  let early: EarlyWorker[] = [];
  /** Whether this thread's start-up garbage was collected once the early workers started (collectStartupGarbage). */
  let collectedAtStart = false;
  let files: string[];
  /** What was walked whole, when the files are a walk of folders (not a list of changes or standard input). */
  let walked: WalkedFiles | undefined;
  const skippedInWalk: FileOutcome[] = [];
  let changed: Map<string, ChangedLines> | undefined;
  if (stdinName !== undefined) {
    const abs = path.resolve(io.cwd, stdinName);
    if (!isSourceFile(abs)) throw new UsageError(`--stdin-filename: ${stdinName}: not a file type prefixlint checks`, false);
    host.put(abs, decodeSource(io.readStdin()));
    files = [abs];
  } else {
    const listed = values['files-from'] !== undefined ? readPathList(values['files-from'], io) : undefined;
    const paths = [...positionals, ...(listed ?? [])];
    const missing = paths.filter((p) => !isDynamicPattern(p) && !fs.existsSync(path.resolve(io.cwd, p)) && !isSymlink(path.resolve(io.cwd, p)));
    if (missing.length) throw new UsageError(missing.map((p) => `${p}: no such file or directory`).join('\n'), false);
    if (listed !== undefined && paths.length === 0) {
      files = [];
    } else if (values['changed-since'] !== undefined) {
      const since = changedSince(values['changed-since'], io.cwd);
      if ('error' in since) throw new UsageError(since.error, false);
      files = selectChanged(since.files, paths, io.cwd, excluded);
    } else if (diffRef !== undefined) {
      const lines = changedLines(diffRef, io.cwd);
      if ('error' in lines) throw new UsageError(lines.error, false);
      changed = lines.files;
      files = selectChanged([...changed.keys()], paths, io.cwd, excluded);
    } else {
      // The lint workers walk when the run may use workers at all (see walkInLintWorkers): as many
      // as the run would use with enough files, each loading its engine meanwhile.
      const script = threadsOption === 1 ? undefined : workerScript();
      job.grammars = await compiling;
      if (script) early = startLintWorkers(script, job, threadsOption ?? workerCount(Infinity, undefined));
      if (early.length) {
        collectStartupGarbage();
        collectedAtStart = true;
      }
      const discovery = early.length ? await walkInLintWorkers(early, paths, io.cwd).catch(() => walkInThisThread(paths, io.cwd)) : walkInThisThread(paths, io.cwd);
      if (discovery.errors.length) {
        stopLintWorkers(early.splice(0));
        throw new UsageError(discovery.errors.join('\n'), false);
      }
      for (const w of discovery.warnings) io.err(`prefixlint: warning: ${w}\n`);
      for (const s of discovery.skipped) {
        io.err(`${displayPath(s.file, io.cwd)}: skipped: ${s.reason}\n`);
        skippedInWalk.push(skippedOutcome(s.file, s.reason));
      }
      files = discovery.files;
      walked = walkedScope(paths, io.cwd, discovery);
    }
  }

  job.project = walked;
  // PREFIXLINT_STATS=<file>: time and evaluation steps per file and the run's peak memory, as
  // JSON (for the real-code and benchmark runs; not part of the report).
  const statsFile = process.env.PREFIXLINT_STATS;
  const stats = statsFile ? new RunStats(files) : undefined;
  const runStarted = performance.now();
  /**
   * Each file's outcome in the order of the files, a clean file's as its path (cleanFileOutcome
   * makes its outcome again for the report): a run keeps a word per clean file while it lints,
   * not an object (and a fail level, which no finding of it asks for).
   */
  const delivered: Array<FileOutcome | string> = [];
  let outcomes: FileOutcome[] = [];
  const failLevels = new Map<FileOutcome, Severity>();
  const take = (file: string, r: LintResult) => {
    if (r.configError && !configErrors.has(r.configError.file)) {
      configErrors.set(r.configError.file, new ConfigError(r.configError.file, r.configError.detail));
      io.err(`prefixlint: error: ${displayPath(r.configError.file, io.cwd)}: ${r.configError.detail}\n`);
    }
    const o = r.outcome;
    stats?.note(file, r.ms, o.status.kind, o.steps ?? 0);
    for (const n of o.notices) io.err(`${displayPath(file, io.cwd)}: ${n}\n`);
    if (isClean(r)) {
      delivered.push(file);
      return;
    }
    delivered.push(o);
    failLevels.set(o, r.failLevel);
  };
  let linter: FileLinter | undefined;
  /**
   * Fixes whose edits reach other files, after every file had its own: applied one file at a
   * time in this thread (each fix to all its files or to none), then every file is checked
   * again, until no such fix is left or MAX_FIX_PASSES is reached.
   */
  const fixAcross = async () => {
    for (let pass = 0; pass < MAX_FIX_PASSES; pass++) {
      const pending = outcomes.filter((o) => o.findings.some((f) => applicableAcross(f.diagnostic, job.unsafeFixes)));
      if (!pending.length) return;
      linter ??= await FileLinter.create(job, host, config);
      let applied = 0;
      const fixedBy = new Map<string, number>();
      for (const o of pending) {
        const r = linter.fixAcross(o.file);
        for (const n of r.notices) io.err(`${displayPath(n.file, io.cwd)}: ${n.message}\n`);
        applied += r.appliedAcross;
        fixedBy.set(o.file, r.applied);
      }
      if (!applied) return;
      // Every file again: the files written, and those that import them, find what is left.
      const again = outcomes.splice(0);
      for (const o of again) {
        const r = linter.lint(o.file);
        r.outcome.fixed += o.fixed + (fixedBy.get(o.file) ?? 0);
        outcomes.push(r.outcome);
        failLevels.set(r.outcome, r.failLevel);
      }
    }
  };
  const workers = stdinName !== undefined ? 0 : workerCount(files.length, threadsOption, undefined, early.length > 0);
  const script = workerScript();
  job.grammars ??= await compiling;
  if (workers > 0 && script) {
    if (stats) stats.threads = workers;
    // Those started early beyond what the files pay for stop now; the others are taken over.
    stopLintWorkers(early.splice(workers));
    if (!collectedAtStart) collectStartupGarbage();
    await lintInWorkers(script, files, job, workers, (i, r) => take(files[i], r), early);
  } else {
    stopLintWorkers(early);
    linter = await FileLinter.create(job, host, config);
    let turnAt = performance.now();
    for (const file of files) {
      take(file, linter.lint(file));
      // The event loop runs now and then: the parser's next runtime is made there (Parsers.renew).
      if (performance.now() - turnAt > YIELD_EVERY_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        turnAt = performance.now();
      }
    }
  }
  outcomes = delivered.map((d) => (typeof d === 'string' ? cleanFileOutcome(d) : d));
  delivered.length = 0;
  if (job.fix && job.write) await fixAcross();
  outcomes.push(...skippedInWalk);
  if (stats && statsFile) stats.write(statsFile, (file) => displayPath(file, io.cwd), Math.round(performance.now() - runStarted), process.resourceUsage().maxRSS);

  const baselineFile = path.resolve(io.cwd, values.baseline ?? DEFAULT_BASELINE);
  const readRecorded = (): Baseline => {
    try {
      return readBaseline(baselineFile);
    } catch (err) {
      if (err instanceof BaselineError) throw new UsageError(`--baseline: ${displayPath(baselineFile, io.cwd)}: ${err.message}`, false);
      throw err;
    }
  };
  if (values['write-baseline']) {
    const next = updatedBaseline(fs.existsSync(baselineFile) ? readRecorded() : {}, outcomes, path.dirname(baselineFile));
    fs.writeFileSync(baselineFile, serializeBaseline(next));
    const recorded = Object.values(next).reduce((n, rules) => n + Object.values(rules).reduce((m, r) => m + r.count, 0), 0);
    io.err(`Recorded ${recorded} finding${recorded === 1 ? '' : 's'} of ${Object.keys(next).length} file${Object.keys(next).length === 1 ? '' : 's'} in ${displayPath(baselineFile, io.cwd)}; 'prefixlint check --baseline ${displayPath(baselineFile, io.cwd)}' reports only new ones.\n`);
    return outcomes.some((o) => o.crashed) ? EXIT_ERROR : EXIT_CLEAN;
  }
  let baselineShrunk = false;
  if (values.baseline !== undefined) {
    const r = applyBaseline(outcomes, readRecorded(), path.dirname(baselineFile));
    for (const line of r.grown) io.err(`prefixlint: baseline: ${line}\n`);
    if (r.shrunk.length) {
      baselineShrunk = true;
      io.err(`prefixlint: the baseline records findings that are gone; write it again (prefixlint check --write-baseline --baseline ${displayPath(baselineFile, io.cwd)}) so that a new finding cannot take their place:\n`);
      for (const line of r.shrunk) io.err(`  ${line}\n`);
    }
  }
  if (changed) for (const o of outcomes) o.findings = o.findings.filter((f) => onChangedLine(f, changed.get(o.file)));

  const failing = (o: FileOutcome, f: Finding) => fails(f.diagnostic.severity, failLevels.get(o)!);
  const shown = quiet ? outcomes.map((o) => ({ ...o, findings: o.findings.filter((f) => failing(o, f)) })) : outcomes;

  // With --stdin-filename --fix, stdout carries the fixed text and the report goes to stderr.
  const stdinFix = stdinName !== undefined && values.fix === true;
  const report = stdinFix ? io.err : io.out;
  if (stdinFix) {
    const [o] = outcomes;
    const read = host.read(files[0]);
    io.out(o?.fixedText ?? ('text' in read ? (read.bom ? '\ufeff' : '') + read.text : ''));
  }
  const t = totals(outcomes);
  if (fmt === 'json') {
    report(JSON.stringify(values.statistics ? statistics(shown) : toJson(shown, io.cwd), null, 2) + '\n');
    if (t.fixed && !quiet) io.err(`Fixed ${t.fixed} problem${t.fixed === 1 ? '' : 's'}.\n`);
  } else if (fmt === 'sarif') {
    report(JSON.stringify(toSarif({ outcomes: shown, rules: allRules, cwd: io.cwd, version }), null, 2) + '\n');
  } else if (fmt === 'github') {
    const lines = githubAnnotations(shown, io.cwd);
    if (lines.length) report(lines.join('\n') + '\n');
  } else {
    const c = createColors(colorWanted({ isTTY: io.stdoutIsTTY && !stdinFix }, values['no-color'] === true));
    const lines = values.statistics
      ? formatStatistics(statistics(shown), c)
      : fmt === 'concise'
        ? formatFindings(shown, io.cwd, c)
        : formatText(shown, io.cwd, c, { unsafeFixes: values['unsafe-fixes'] === true });
    if (!quiet) {
      if (lines.length) lines.push('');
      lines.push(...formatSummary(t, c));
    }
    if (lines.length) report(lines.join('\n') + '\n');
  }

  if (configErrors.size || outcomes.some((o) => o.crashed)) return EXIT_ERROR;
  if (values['exit-zero']) return EXIT_CLEAN;
  if (baselineShrunk) return EXIT_FINDINGS;
  if (maxWarnings !== undefined && t.bySeverity.warning > maxWarnings) {
    io.err(`prefixlint: too many warnings: ${t.bySeverity.warning} (--max-warnings ${maxWarnings})\n`);
    return EXIT_FINDINGS;
  }
  return outcomes.some((o) => o.findings.some((f) => failing(o, f))) ? EXIT_FINDINGS : EXIT_CLEAN;
}

/** The bundle this runs from, which also runs lint workers; undefined when running from sources (tests). */
function workerScript(): string | undefined {
  return typeof __filename === 'string' && __filename.endsWith('.js') ? __filename : undefined;
}

/** Whether a finding's range touches a line the branch changed. */
function onChangedLine(f: Finding, lines: ChangedLines | undefined): boolean {
  if (!lines) return false;
  if (lines === 'all') return true;
  const first = f.start.line + 1;
  // A range that ends at the start of a line does not touch that line.
  const last = f.end.line > f.start.line && f.end.column === 0 ? f.end.line : f.end.line + 1;
  for (let l = first; l <= last; l++) if (lines.has(l)) return true;
  return false;
}

function isSymlink(abs: string): boolean {
  try {
    return fs.lstatSync(abs).isSymbolicLink();
  } catch {
    return false;
  }
}

function init(args: string[], io: Io): number {
  const { values, positionals } = parse(args, { help: { type: 'boolean', short: 'h' } }, true);
  if (values.help) {
    io.out(INIT_HELP);
    return EXIT_CLEAN;
  }
  if (positionals.length) throw new UsageError(`unexpected argument '${positionals[0]}'`);
  const file = path.join(io.cwd, CONFIG_FILE);
  if (fs.existsSync(file)) throw new UsageError(`${CONFIG_FILE} already exists; it was left as it is`, false);
  fs.writeFileSync(file, JSON.stringify(starterConfig(), null, 2) + '\n', { flag: 'wx' });
  io.out(`Wrote ${CONFIG_FILE}. Every key is optional; 'prefixlint check --help' says how it is found.\n`);
  return EXIT_CLEAN;
}

function diff(args: string[], io: Io): number {
  const { values, positionals } = parse(args, { format: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, true);
  if (values.help) {
    io.out(DIFF_HELP);
    return EXIT_CLEAN;
  }
  const fmt = format(values.format, ['text', 'json']);
  if (positionals.length !== 2) throw new UsageError('diff takes two request dumps: prefixlint diff a.json b.json');
  const [a, b] = positionals.map((p) => {
    try {
      return { name: p, text: fs.readFileSync(path.resolve(io.cwd, p), 'utf8') };
    } catch (err) {
      throw new UsageError(`${p}: ${describeError(err)}`, false);
    }
  });
  const result = diffRequests(a, b);
  if ('error' in result) throw new UsageError(result.error, false);
  io.out(fmt === 'json' ? JSON.stringify(result, null, 2) + '\n' : formatDiff(result).join('\n') + '\n');
  return result.breaksCache ? EXIT_FINDINGS : EXIT_CLEAN;
}

const TRANSPORTS = /^--(stdio|node-ipc|socket=\d+|pipe=.+)$/;

/**
 * `prefixlint server`: loads the language server bundle that sits beside this one (dist/server.js),
 * which reads its transport from the command line. It runs until the editor ends it.
 */
async function languageServer(args: string[], io: Io): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    io.out(SERVER_HELP);
    return EXIT_CLEAN;
  }
  const unknown = args.find((a) => !TRANSPORTS.test(a));
  if (unknown) throw new UsageError(`server: unexpected argument '${unknown}'`);
  const bundle = path.join(__dirname, 'server.js');
  if (!fs.existsSync(bundle)) throw new UsageError(`the language server bundle is missing (${bundle}); run npm run build`, false);
  if (!args.length) process.argv.push('--stdio');
  createRequire(__filename)(bundle);
  return new Promise<number>(() => undefined);
}

function rules(args: string[], io: Io): number {
  const { values, positionals } = parse(
    args,
    { format: { type: 'string' }, 'no-color': { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    true,
  );
  if (values.help) {
    io.out(RULES_HELP);
    return EXIT_CLEAN;
  }
  if (positionals.length) throw new UsageError(`unexpected argument '${positionals[0]}'`);
  const fmt = format(values.format, ['text', 'json', 'markdown']);
  const c = createColors(colorWanted({ isTTY: io.stdoutIsTTY }, values['no-color'] === true));
  io.out(fmt === 'json' ? rulesJson(allRules) : fmt === 'markdown' ? ruleTable(allRules) : rulesTable(allRules, c));
  return EXIT_CLEAN;
}

function explain(args: string[], io: Io): number {
  const { values, positionals } = parse(args, { 'no-color': { type: 'boolean' }, help: { type: 'boolean', short: 'h' } }, true);
  if (values.help) {
    io.out(EXPLAIN_HELP);
    return EXIT_CLEAN;
  }
  if (positionals.length !== 1) throw new UsageError('explain takes one rule id');
  const rule: Rule | { error: string } = findRule(allRules, positionals[0]);
  if ('error' in rule) throw new UsageError(rule.error);
  io.out(explainRule(rule, createColors(colorWanted({ isTTY: io.stdoutIsTTY }, values['no-color'] === true))));
  return EXIT_CLEAN;
}

export async function main(argv: string[], io: Io): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'check':
        return await check(rest, io);
      case 'rules':
        return rules(rest, io);
      case 'explain':
        return explain(rest, io);
      case 'init':
        return init(rest, io);
      case 'diff':
        return diff(rest, io);
      case 'server':
        return await languageServer(rest, io);
      case '--version':
      case '-V':
        io.out(`prefixlint ${version}\n`);
        return EXIT_CLEAN;
      case '--help':
      case '-h':
      case 'help':
        io.out(COMMAND_HELP[rest[0]] ?? MAIN_HELP);
        return EXIT_CLEAN;
      case undefined:
        io.err(MAIN_HELP);
        return EXIT_ERROR;
      default:
        throw new UsageError(`unknown command '${command}' (expected check, rules, explain, diff, init or server)`);
    }
  } catch (err) {
    if (err instanceof UsageError) {
      io.err(`prefixlint: error: ${err.message}\n`);
      if (!err.hint) return EXIT_ERROR;
      if (command && command in COMMAND_HELP) io.err(`Run 'prefixlint ${command} --help' for usage.\n`);
      else io.err(`Run 'prefixlint --help' for usage.\n`);
      return EXIT_ERROR;
    }
    if (err instanceof ConfigError) {
      io.err(`prefixlint: error: ${displayPath(err.file, io.cwd)}: ${err.detail}\n`);
      return EXIT_ERROR;
    }
    const detail = process.env.PREFIXLINT_DEBUG && err instanceof Error ? err.stack : err instanceof Error ? err.message : String(err);
    io.err(`prefixlint: internal error: ${detail}\n`);
    return EXIT_ERROR;
  }
}

/**
 * What a run's walk covered, for the searches of callers and uses (WalkedFiles): the folders
 * given, and the files found when they are every source file of those folders — only folders were
 * given (no file, no glob) and the configuration left nothing out. Otherwise each thread that
 * searches walks the folders again (for a folder other than the current one that was ~0.5 s of
 * CPU a thread on the real-code corpus).
 */
export function walkedScope(paths: readonly string[], cwd: string, discovery: Pick<Discovery, 'files' | 'configExcluded'>): WalkedFiles {
  const folders = walkedFolders(paths, cwd);
  const whole = folders.length === Math.max(paths.length, 1) && !discovery.configExcluded;
  return whole ? { folders, files: discovery.files } : { folders };
}

/**
 * How much bytecode a function runs before V8 optimizes it (its `--interrupt-budget`; 132 KB by
 * default). A lint run goes over thousands of files once, and each thread optimizes the same
 * hot functions again; with the default, optimizing (and re-optimizing after deopts) took 6.5 s
 * of CPU in a 16 s one-thread run of the real-code corpus, on V8's helper threads that then
 * compete with the workers. With 1 MB only the functions that stay hot are optimized: measured
 * on that corpus with 2 threads, 26–30 s of CPU became 22–24 s, and the wall time 14.7–16.5 s
 * became 12.2–13.2 s. Set (with the heap growth below) in the main thread before any worker
 * starts, since V8's flags are the process's; the language server keeps the defaults, as an
 * editor wants its few hot paths optimized early.
 */
const OPTIMIZE_AFTER_BYTES = 1_000_000;

/**
 * Collects the main thread's whole heap once, when its start-up is done and the lint workers
 * have started (they do the linting; this thread then mostly waits for their results).
 *
 * Why: what this thread read to start (the CLI's bundle, the parser's runtime and grammars) was
 * read into page-backed memory (core/pageBacked.ts), which is given back only when the garbage
 * collector finds it dead, and this thread allocates so little once the workers run that V8 did
 * not collect its whole heap for ~8 s (its memory reducer): 5.3 MB held to the end of most runs,
 * through the workers' peak. Measured on the real-code corpus (2 threads): the collection takes
 * ~9 ms while the workers load their engines, and the main thread's memory outside the heap goes
 * from 7.4 to 1.7 MB.
 */
function collectStartupGarbage(): void {
  heapCollector()?.('full');
}

/** How long a run that lints in this thread goes on before it lets the event loop run. */
const YIELD_EVERY_MS = 100;

/**
 * How far a thread's heap grows past what a full garbage collection left live before the next
 * one starts (`--heap-growing-percent`). A worker's heap was capped at 96 MB (now 68, see
 * WORKER_HEAP_MB in lint.ts), and under a cap that small V8 lets the heap grow only 30% between
 * collections: a worker ran a full collection every ~150 ms, and marking its ~35 MB of live
 * objects again took ~5 s of CPU on the helper threads, which compete with the workers for the
 * cores. With 100%, on the real-code corpus with 2 threads:
 * 110 full collections → ~60, CPU 22–24 s → 19.5–21.5 s, wall 12.4–13.4 s → 11.0–12.2 s, peak
 * RSS ~285 → ~315 MB. A thread without a cap (`--threads 1`) grew its heap up to 4× instead, and
 * now peaks lower (370 → 280 MB).
 */
const HEAP_GROWTH_PERCENT = 100;

/**
 * The parts of garbage collection that a thread then does itself instead of handing them to
 * V8's helper threads: scavenging the young generation, and sweeping. A worker's young generation
 * is small (WORKER_YOUNG_MB), so it is scavenged hundreds of times a run, and each parallel
 * scavenge spreads a few hundred microseconds of work over helper threads that compete with the
 * workers for the same cores. Measured on the real-code corpus with 2 threads (5 alternating
 * runs each): wall 11.06 → 10.38 s, CPU 20.5 → 19.8 s, peak RSS +7 MB. (The marking flags of
 * `--single-threaded-gc` cannot be changed once the main thread's heap exists: V8 aborts.)
 */
const SERIAL_GC_FLAGS = ['--no-parallel-scavenge', '--no-concurrent-sweeping'];

if (!isMainThread && (workerData as { role?: string } | null)?.role === WORKER_ROLE) {
  const data = workerData as { job: LintJob; progress?: SharedArrayBuffer };
  void runLintWorker(parentPort!, data.job, data.progress);
} else if (require.main === module) {
  setFlagsFromString(`--interrupt-budget=${OPTIMIZE_AFTER_BYTES}`);
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWTH_PERCENT}`);
  for (const flag of SERIAL_GC_FLAGS) setFlagsFromString(flag);
  const io: Io = {
    out: (t) => process.stdout.write(t),
    err: (t) => process.stderr.write(t),
    readStdin: () => fs.readFileSync(0),
    stdoutIsTTY: process.stdout.isTTY === true,
    cwd: process.cwd(),
  };
  // A reader that stops early (`| head`) is not an error.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
    process.exit(process.exitCode ?? EXIT_CLEAN);
  });
  main(process.argv.slice(2), io).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      process.stderr.write(`prefixlint: internal error: ${String(err)}\n`);
      process.exitCode = EXIT_ERROR;
    },
  );
}
