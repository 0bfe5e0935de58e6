/**
 * `prefixlint check` for one file: read it, analyse it, and with `--fix` apply fixes to a
 * fixpoint (engine/fixpoint.ts), never writing a text that parses worse than the original.
 */
import type { Diagnostic } from '../core/diagnostic';
import type { Fix } from '../core/fix';
import { LineIndex } from '../core/span';
import type { AnalysisEngine, AnalyzeOptions } from '../engine/analyzer';
import { analyzeOptionsFor, openDocument, plainSourceLanguage } from '../engine/document';
import type { Place, PlacedEdit, SourceDocument } from '../engine/document';
import { fixToFixpoint, offered } from '../engine/fixpoint';
import { hasEdits } from '../core/fix';
import { decodeSource } from '../host/source';
import type { DiskHost, ReadResult } from '../host/source';
import type { HeldWords } from '../core/literals';

export type { PlacedEdit };

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
    /** Edits of other files that are part of the same fix (it is applied to all of them or none), placed in each file's text. */
    otherFiles?: Array<{ file: string; edits: PlacedEdit[] }>;
  };
  /** The applicability of the diagnostic's fix, shown or not. */
  fixApplicability?: Fix['applicability'];
  /** Where the values behind the finding come from, in this file or another. */
  related: Array<{ file: string; at: Place; end: Place; message: string }>;
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
  /** The analyzer threw, or the file's configuration is broken: an error (exit 2) that did not stop the run. */
  crashed: boolean;
  /**
   * The source lines of the findings' ranges (for showing findings in context), by
   * `lineKey(place)`: plain data, so that an outcome can cross threads.
   */
  lines?: Record<string, string>;
  /** How far the file was analysed; the summary counts the files that were not, by reason. */
  status: FileStatus;
  /** Evaluation steps of the (last) analysis. */
  steps?: number;
}

/**
 * `analysed`: wholly. `partial`: syntax errors or an analysis limit left part of it unknown.
 * `skipped`: not source text prefixlint can read (binary, too large, a broken notebook).
 * `failed`: an internal error or a broken configuration.
 */
export type FileStatus =
  | { kind: 'analysed' }
  | { kind: 'partial'; reason: 'syntax errors' | 'analysis limit' }
  | { kind: 'skipped'; reason: string }
  | { kind: 'failed'; reason: 'internal error' | 'configuration error' };

/** A file passed over before it was read (found while walking a folder). */
export function skippedOutcome(file: string, reason: string): FileOutcome {
  return { file, findings: [], notices: [], fixed: 0, crashed: false, status: { kind: 'skipped', reason } };
}

/** The outcome of a file whose configuration could not be read: nothing is analysed. */
export function configFailure(file: string): FileOutcome {
  return { file, findings: [], notices: [], fixed: 0, crashed: true, status: { kind: 'failed', reason: 'configuration error' } };
}

export function checkFile(engine: AnalysisEngine, host: DiskHost, file: string, opts: CheckOptions): FileOutcome {
  const outcome: FileOutcome = { file, findings: [], notices: [], fixed: 0, crashed: false, status: { kind: 'analysed' } };
  // Not kept in the host's cache: most files are read only to be linted, and a kept text outlives
  // the young generation (a parsed file's text stays with its parse; another file's import reads
  // it again from disk). Objects promoted in a 2-thread corpus run: ~950 → ~810 MB; reads +1.6%.
  let words: HeldWords | undefined;
  let read: ReadResult | undefined;
  // A source file (not a notebook, whose text is read out of JSON) is first screened from its
  // bytes: most files hold no word any rule looks for, and are not even decoded.
  const language = engine.wordsToAnalyse ? plainSourceLanguage(file) : undefined;
  const raw = language && host.readBytes(file);
  if (raw && 'bytes' in raw) {
    words = engine.wordsToAnalyse!(file, raw.bytes, language!, opts.analyze);
    if (!words) {
      outcome.steps = 0;
      outcome.lines = {};
      return outcome;
    }
    read = decodeSource(raw.bytes);
  } else read = raw || host.read(file, true);
  if ('skipped' in read) {
    outcome.notices.push(`skipped: ${read.skipped}`);
    outcome.status = { kind: 'skipped', reason: read.skipped };
    return outcome;
  }
  try {
    // Inside the try: a notebook or encoding the reader chokes on is this file's notice, not the run's end.
    const opened = openDocument(file, read.text);
    if ('notice' in opened) {
      outcome.notices.push(`skipped: ${opened.notice}`);
      outcome.status = { kind: 'skipped', reason: opened.notice };
      return outcome;
    }
    let doc = opened;
    let result = engine.analyze(file, doc.analysedText, doc.language, analyzeOptionsFor(doc, opts.analyze), words);
    if (opts.fix) {
      const fixed = fixToFixpoint(engine, doc, { unsafe: opts.unsafeFixes, analyze: opts.analyze, result });
      // A file that already has syntax errors cannot show that a fix keeps it parsing.
      if (fixed.notParsing) outcome.notices.push('fixes not applied: the file did not parse cleanly before fixing');
      for (const r of fixed.rejected) {
        const at = r.document.locate(r.diagnostic.at.start);
        outcome.notices.push(`${at.line + 1}:${at.column + 1}: fix for ${r.diagnostic.ruleId} not applied ("${r.diagnostic.fix.title}"): the result would not parse`);
      }
      if (fixed.applied > 0) {
        doc = fixed.document;
        result = fixed.result;
        if (opts.write === false) outcome.fixedText = doc.text;
        else host.write(file, { text: doc.text, bom: read.bom });
        outcome.fixed = fixed.applied;
      }
    }
    outcome.steps = result.steps;
    if (result.notice) {
      outcome.notices.push(result.notice);
      if (result.noticeKind === 'internal') {
        outcome.crashed = true;
        outcome.status = { kind: 'failed', reason: 'internal error' };
      } else {
        outcome.status = { kind: 'partial', reason: result.noticeKind === 'syntax' ? 'syntax errors' : 'analysis limit' };
      }
    }
    const placed = doc;
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
    outcome.lines = {};
    for (const f of outcome.findings) {
      // The range's lines, in the start's cell for a notebook (a snippet never leaves it).
      const first = f.start.cell ? f.start.cell.line : f.start.line;
      const last = f.end.cell && f.start.cell && f.end.cell.index === f.start.cell.index ? f.end.cell.line : f.start.cell ? first : f.end.line;
      for (let line = first; line <= last; line++) {
        const p: Place = f.start.cell ? { line, column: 0, cell: { index: f.start.cell.index, line, column: 0 } } : { line, column: 0 };
        outcome.lines[lineKey(p)] ??= placed.lineText(p);
      }
    }
  } catch (err) {
    outcome.crashed = true;
    outcome.status = { kind: 'failed', reason: 'internal error' };
    outcome.notices.push(`internal error: ${err instanceof Error ? err.message : String(err)}`);
  }
  return outcome;
}

/** The key of a line in FileOutcome.lines: its cell (for a notebook) and its line there. */
export function lineKey(p: Place): string {
  return p.cell ? `${p.cell.index}:${p.cell.line}` : String(p.line);
}

function place(doc: SourceDocument, d: Diagnostic, opts: CheckOptions, locateIn: (file: string, offset: number) => Place | undefined): Finding {
  const finding: Finding = {
    diagnostic: d,
    start: doc.locate(d.at.start),
    end: doc.locate(d.at.end),
    fixApplicability: d.fix && hasEdits(d.fix) ? d.fix.applicability : undefined,
    related: d.related.flatMap((r) => {
      const at = locateIn(r.at.file, r.at.start);
      const end = locateIn(r.at.file, r.at.end) ?? at;
      return at && end ? [{ file: r.at.file, at, end, message: r.message }] : [];
    }),
  };
  if (offered(d, opts.unsafeFixes)) {
    const fix = d.fix;
    const otherFiles = (fix.otherFiles ?? []).map((part) => ({
      file: part.file,
      edits: part.edits.flatMap((e) => {
        const start = locateIn(part.file, e.start);
        const end = locateIn(part.file, e.end);
        return start && end ? [{ start, end, newText: e.newText }] : [];
      }),
    }));
    // A fix whose other files cannot be placed is not shown: it could only be shown in part.
    if (otherFiles.every((p, i) => p.edits.length === fix.otherFiles![i].edits.length)) {
      finding.fix = {
        title: fix.title,
        applicability: fix.applicability,
        edits: fix.edits.map((e) => ({ start: doc.locate(e.start), end: doc.locate(e.end), newText: e.newText })),
        fileEdits: () => (fix.edits.length ? doc.fileEdits({ ...fix, otherFiles: undefined }) : []),
        otherFiles,
      };
    }
  }
  return finding;
}
