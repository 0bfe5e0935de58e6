/**
 * `prefixlint check` for one file: read it, analyse it, and with `--fix` apply fixes to a
 * fixpoint, never writing a text that parses worse than the original.
 */
import type { AnalyzeOptions, FileResult } from '../analyzer';
import type { Diagnostic } from '../core/diagnostic';
import type { Fix } from '../core/fix';
import type { LanguageId } from '../core/model';
import { LineIndex } from '../core/span';
import { openDocument } from './document';
import type { Place, SourceDocument } from './document';
import type { DiskHost } from './source';

/** The part of the Analyzer the CLI uses. */
export interface Engine {
  analyze(file: string, text: string, language?: LanguageId, opts?: AnalyzeOptions): FileResult;
  invalidate(file: string): void;
}

export interface CheckOptions {
  /** Apply fixes and write the files. */
  fix: boolean;
  /** Unsafe fixes are applied (with `fix`) or shown as available (without). */
  unsafeFixes: boolean;
  /** Rules, known names and severities for this file (from its configuration). */
  analyze?: AnalyzeOptions;
  /** With `fix`: false keeps the fixed text in the outcome instead of writing the file. */
  write?: boolean;
}

/** Passes of fix, re-analyse, fix again before giving up on reaching a fixpoint. */
export const MAX_FIX_PASSES = 10;

export interface PlacedEdit {
  start: Place;
  end: Place;
  newText: string;
}

export interface Finding {
  diagnostic: Diagnostic;
  start: Place;
  end: Place;
  /** The fix, when it may be shown: safe ones always, unsafe ones with `--unsafe-fixes`. */
  fix?: {
    title: string;
    applicability: Fix['applicability'];
    /** Edits of the analysed text (for a notebook: cell text, placed in the file and the cell). */
    edits: PlacedEdit[];
    /** The same change as edits of the file's own text (for a notebook: of its JSON); computed on demand. */
    fileEdits(): PlacedEdit[];
  };
  /** The applicability of the diagnostic's fix, shown or not. */
  fixApplicability?: Fix['applicability'];
  /** Where the values behind the finding come from, in this file or another. */
  related: Array<{ file: string; at: Place; message: string }>;
}

export interface FileOutcome {
  file: string;
  findings: Finding[];
  /** One-line notices for stderr, without the path. */
  notices: string[];
  /** Fixes applied and written. */
  fixed: number;
  /** The file's text after fixes that were not written (`write: false`). */
  fixedText?: string;
  /** The analyzer threw: an internal error (exit 2) that did not stop the run. */
  crashed: boolean;
  /** The source line of a place (for showing findings in context); absent when the file was not analysed. */
  lineText?: (place: Place) => string;
}

export function checkFile(engine: Engine, host: DiskHost, file: string, opts: CheckOptions): FileOutcome {
  const outcome: FileOutcome = { file, findings: [], notices: [], fixed: 0, crashed: false };
  const read = host.read(file);
  if ('skipped' in read) {
    outcome.notices.push(`skipped: ${read.skipped}`);
    return outcome;
  }
  try {
    // Inside the try: a notebook or encoding the reader chokes on is this file's notice, not the run's end.
    const opened = openDocument(file, read.text);
    if ('notice' in opened) {
      outcome.notices.push(`skipped: ${opened.notice}`);
      return outcome;
    }
    let doc = opened;
    let result = engine.analyze(file, doc.analysedText, doc.language, opts.analyze);
    if (opts.fix && result.notice && result.diagnostics.some((d) => applicable(d.fix, opts))) {
      // A file that already has syntax errors cannot show that a fix keeps it parsing.
      outcome.notices.push('fixes not applied: the file did not parse cleanly before fixing');
    } else if (opts.fix) {
      const fixedRun = fixToFixpoint(engine, doc, result, opts, outcome.notices);
      if (fixedRun.applied > 0) {
        doc = fixedRun.doc;
        result = fixedRun.result;
        if (opts.write === false) outcome.fixedText = doc.text;
        else host.write(file, { text: doc.text, bom: read.bom });
        outcome.fixed = fixedRun.applied;
      }
      // Analyses of rejected or intermediate texts must not stand in for the file on disk.
      engine.invalidate(file);
    }
    if (result.notice) {
      outcome.notices.push(result.notice);
      if (INTERNAL_ERROR.test(result.notice)) outcome.crashed = true;
    }
    const placed = doc;
    outcome.lineText = (p) => placed.lineText(p);
    const otherFiles = new Map<string, LineIndex | undefined>();
    const locateIn = (file: string, offset: number): Place | undefined => {
      if (file === placed.file) return placed.locate(offset);
      if (!otherFiles.has(file)) {
        const text = host.readFile(file);
        otherFiles.set(file, text === undefined ? undefined : new LineIndex(text));
      }
      return otherFiles.get(file)?.position(offset);
    };
    outcome.findings = result.diagnostics
      .map((d) => place(placed, d, opts, locateIn))
      .sort((a, b) => a.start.line - b.start.line || a.start.column - b.start.column);
  } catch (err) {
    outcome.crashed = true;
    outcome.notices.push(`internal error: ${err instanceof Error ? err.message : String(err)}`);
  }
  return outcome;
}

function applicable(fix: Fix | undefined, opts: CheckOptions): fix is Fix {
  return !!fix && fix.edits.length > 0 && (fix.applicability === 'safe' || opts.unsafeFixes);
}

function place(doc: SourceDocument, d: Diagnostic, opts: CheckOptions, locateIn: (file: string, offset: number) => Place | undefined): Finding {
  const finding: Finding = {
    diagnostic: d,
    start: doc.locate(d.at.start),
    end: doc.locate(d.at.end),
    fixApplicability: d.fix && d.fix.edits.length > 0 ? d.fix.applicability : undefined,
    related: d.related.flatMap((r) => {
      const at = locateIn(r.at.file, r.at.start);
      return at ? [{ file: r.at.file, at, message: r.message }] : [];
    }),
  };
  if (applicable(d.fix, opts)) {
    const fix = d.fix;
    finding.fix = {
      title: d.fix.title,
      applicability: d.fix.applicability,
      edits: d.fix.edits.map((e) => ({ start: doc.locate(e.start), end: doc.locate(e.end), newText: e.newText })),
      fileEdits: () => doc.fileEdits(fix),
    };
  }
  return finding;
}

/**
 * A fixed text must not carry a notice (a syntax error, a partial analysis). Fixing only starts
 * on a file without one, so any notice afterwards is new.
 */
function parsesWorse(after: FileResult): boolean {
  return after.notice !== undefined;
}

/** The analyzer reports its own failures as a notice; they make the run exit with 2. */
const INTERNAL_ERROR = /^internal error/;

/** Identifies a fix across passes (offsets move, so they are left out). */
function fixKey(d: Diagnostic): string {
  return [d.ruleId, d.message, d.fix?.title, ...(d.fix?.edits.map((e) => e.newText) ?? [])].join('\u0000');
}

interface FixRun {
  doc: SourceDocument;
  result: FileResult;
  applied: number;
}

/**
 * Applies every applicable fix, re-analyses and repeats until nothing is left to fix or
 * MAX_FIX_PASSES is reached. When a pass's fixes together make the text parse worse, the fixes
 * are tried one by one and each one that does is skipped with a notice. `result` has no notice.
 */
function fixToFixpoint(engine: Engine, doc: SourceDocument, result: FileResult, opts: CheckOptions, notices: string[]): FixRun {
  const rejected = new Set<string>();
  let run: FixRun = { doc, result, applied: 0 };

  const attempt = (fixes: Fix[]): FixRun | 'worse' | undefined => {
    const next = run.doc.applyFixes(fixes);
    if (next.applied === 0 || next.text === run.doc.text) return undefined;
    const nextDoc = openDocument(run.doc.file, next.text);
    if ('notice' in nextDoc) return 'worse';
    engine.invalidate(run.doc.file);
    const nextResult = engine.analyze(nextDoc.file, nextDoc.analysedText, nextDoc.language, opts.analyze);
    if (parsesWorse(nextResult)) return 'worse';
    return { doc: nextDoc, result: nextResult, applied: run.applied + next.applied };
  };

  for (let pass = 0; pass < MAX_FIX_PASSES; pass++) {
    const candidates = run.result.diagnostics.filter((d) => applicable(d.fix, opts) && !rejected.has(fixKey(d)));
    if (candidates.length === 0) break;
    const all = attempt(candidates.map((d) => d.fix!));
    if (all === undefined) break;
    if (all !== 'worse') {
      run = all;
      continue;
    }
    // Find the fixes that break the text; take the first one that does not and go on.
    let progressed = false;
    for (const d of candidates) {
      const one = attempt([d.fix!]);
      if (one === 'worse') {
        rejected.add(fixKey(d));
        const at = run.doc.locate(d.at.start);
        notices.push(`${at.line + 1}:${at.column + 1}: fix for ${d.ruleId} not applied ("${d.fix!.title}"): the result would not parse`);
      } else if (one) {
        run = one;
        progressed = true;
        break;
      }
    }
    if (!progressed) break;
  }
  return run;
}
