/**
 * The one fix loop, for `prefixlint check --fix`, the editor's "fix all" (files and notebooks)
 * and the tests of the `.fixed` files: analyse, apply every applicable fix that does not overlap
 * one taken before it, analyse again, and repeat until nothing is left to fix or MAX_FIX_PASSES
 * is reached. A pass whose fixes together make the text parse worse is retried fix by fix: each
 * fix that alone makes it parse worse is rejected (and reported), the first one that does not is
 * kept, and the loop goes on. A document that does not parse cleanly to begin with is not fixed
 * at all, since nothing could show that a fix keeps it parsing.
 */
import type { Diagnostic } from '../core/diagnostic';
import type { Fix } from '../core/fix';
import { fixFiles, hasEdits, isCrossFile } from '../core/fix';
import type { FileResult } from '../core/result';
import type { AnalysisEngine, AnalyzeOptions } from './analyzer';
import { analyzeOptionsFor } from './document';
import type { FixableDocument } from './document';
import { isNotebook } from '../lang/notebook';

/** Passes of fix, re-analyse, fix again before giving up on reaching a fixpoint. */
export const MAX_FIX_PASSES = 10;

export interface FixpointOptions {
  /** Apply unsafe fixes as well as safe ones. */
  unsafe: boolean;
  /** Rules, known names and severities (the document's configuration). */
  analyze?: AnalyzeOptions;
  /** The analysis of the document as it is, when the caller has it already. */
  result?: FileResult;
}

export interface RejectedFix<D> {
  diagnostic: Diagnostic & { fix: Fix };
  /** The document the fix was tried on (its offsets are offsets of this one). */
  document: D;
}

export interface FixpointResult<D> {
  /** The fixed document; the given one when nothing was applied. */
  document: D;
  /** The analysis of `document`. */
  result: FileResult;
  /** Fixes applied over all passes. */
  applied: number;
  /** Fixes that were not applied because the text would not parse with them. */
  rejected: Array<RejectedFix<D>>;
  /** Set when fixes were offered but not applied because the document had syntax errors before fixing. */
  notParsing?: boolean;
}

/** Whether a finding's fix may be applied (safe ones always, unsafe ones when asked), in this file or across files. */
export function offered(d: Diagnostic, unsafe: boolean): d is Diagnostic & { fix: Fix } {
  return !!d.fix && hasEdits(d.fix) && (d.fix.applicability === 'safe' || unsafe);
}

/** Whether the one-document fix loop applies a finding's fix: offered, and with edits in the finding's file only. */
export function applicable(d: Diagnostic, unsafe: boolean): d is Diagnostic & { fix: Fix } {
  return offered(d, unsafe) && !isCrossFile(d.fix);
}

/** Whether a finding's fix is offered and changes other files too (fixAcrossFiles applies it). */
export function applicableAcross(d: Diagnostic, unsafe: boolean): d is Diagnostic & { fix: Fix } {
  return offered(d, unsafe) && isCrossFile(d.fix);
}

/** Fixing starts only on a text without syntax errors, so one afterwards is new. */
function parsesWorse(after: FileResult): boolean {
  return after.noticeKind === 'syntax' || after.noticeKind === 'internal';
}

/** Identifies a fix across passes (offsets move, so they are left out). */
function fixKey(d: Diagnostic): string {
  const files = d.fix ? fixFiles(d.fix, '') : [];
  return [d.ruleId, d.message, d.fix?.title, ...files.flatMap((f) => [f.file, ...f.edits.map((e) => e.newText)])].join('\u0000');
}

/**
 * Fixes a document to a fixpoint. Every text tried is analysed under the document's path, and
 * the analyzer forgets them afterwards: none of them stands for the file (the caller writes the
 * fixed text, or the editor applies it, and that becomes the file's text).
 */
export function fixToFixpoint<D extends FixableDocument<D>>(engine: AnalysisEngine, document: D, opts: FixpointOptions): FixpointResult<D> {
  const analyse = (doc: D) => engine.analyze(doc.file, doc.analysedText, doc.language, analyzeOptionsFor(doc, opts.analyze));
  const first = opts.result ?? analyse(document);
  let run = { document, result: first, applied: 0 };
  const rejected: Array<RejectedFix<D>> = [];
  if (!first.diagnostics.some((d) => applicable(d, opts.unsafe))) return { ...run, rejected };
  if (first.noticeKind === 'syntax') return { ...run, rejected, notParsing: true };

  const rejectedKeys = new Set<string>();
  let tried = false;
  const attempt = (fixes: Fix[]): typeof run | 'worse' | undefined => {
    const next = run.document.applyFixes(fixes);
    if ('notice' in next) return 'worse';
    if (next.applied === 0 || next.document.analysedText === run.document.analysedText) return undefined;
    tried = true;
    engine.invalidate(document.file);
    const result = analyse(next.document);
    if (parsesWorse(result)) return 'worse';
    return { document: next.document, result, applied: run.applied + next.applied };
  };

  try {
    for (let pass = 0; pass < MAX_FIX_PASSES; pass++) {
      const candidates = run.result.diagnostics.filter((d): d is Diagnostic & { fix: Fix } => applicable(d, opts.unsafe) && !rejectedKeys.has(fixKey(d)));
      if (candidates.length === 0) break;
      const all = attempt(candidates.map((d) => d.fix));
      if (all === undefined) break;
      if (all !== 'worse') {
        run = all;
        continue;
      }
      // Find the fixes that break the text; take the first one that does not and go on.
      let progressed = false;
      for (const d of candidates) {
        const one = attempt([d.fix]);
        if (one === 'worse') {
          rejectedKeys.add(fixKey(d));
          rejected.push({ diagnostic: d, document: run.document });
        } else if (one) {
          run = one;
          progressed = true;
          break;
        }
      }
      if (!progressed) break;
    }
  } finally {
    if (tried) engine.invalidate(document.file);
  }
  return { ...run, rejected };
}

export interface CrossFixResult<D> {
  /** The documents as fixed: the start document and every other file a fix changed (unchanged ones are the given ones). */
  documents: Map<string, D>;
  /** The analysis of the start document as fixed. */
  result: FileResult;
  /** Fixes applied over all passes, in-file and cross-file. */
  applied: number;
  /** Cross-file fixes applied. */
  appliedAcross: number;
  rejected: Array<RejectedFix<D>>;
  /** Cross-file fixes not applied, and why (a file that cannot be read, a text that would not parse). */
  rejectedAcross: Array<{ diagnostic: Diagnostic & { fix: Fix }; reason: string }>;
  notParsing?: boolean;
}

/**
 * Fixes a document to a fixpoint across files: its own fixes (fixToFixpoint), then one fix
 * whose edits reach other files, applied to every file it names or to none, then its own again,
 * and so on. While it runs the engine reads the changed texts of the other files (they are held
 * as overlays), so each analysis sees the files as they would be written; afterwards it reads
 * them from its host again. A cross-file fix is applied only when every file it touches parsed
 * cleanly before and still does after, and when each of its edits lands. Nothing is written:
 * the caller writes every document that changed, all of them or none.
 */
export function fixAcrossFiles<D extends FixableDocument<D>>(
  engine: AnalysisEngine,
  start: D,
  open: (file: string) => D | undefined,
  opts: FixpointOptions,
): CrossFixResult<D> {
  const documents = new Map<string, D>([[start.file, start]]);
  const held = new Set<string>();
  const rejected: Array<RejectedFix<D>> = [];
  const rejectedAcross: CrossFixResult<D>['rejectedAcross'] = [];
  const rejectedKeys = new Set<string>();
  const analyse = (doc: D) => engine.analyze(doc.file, doc.analysedText, doc.language, analyzeOptionsFor(doc, opts.analyze));
  let applied = 0;
  let appliedAcross = 0;
  let result = opts.result;
  let notParsing = false;
  const overlay = engine.overlay?.bind(engine);
  const parses = (doc: D) => engine.parsesCleanly?.(doc.file, doc.analysedText, doc.language) ?? false;
  const hold = (doc: D) => {
    held.add(doc.file);
    overlay?.(doc.file, doc.analysedText);
  };
  try {
    for (let pass = 0; pass < MAX_FIX_PASSES; pass++) {
      const own = fixToFixpoint(engine, documents.get(start.file)!, { ...opts, result });
      documents.set(start.file, own.document);
      applied += own.applied;
      rejected.push(...own.rejected);
      result = own.result;
      if (own.notParsing) {
        notParsing = true;
        break;
      }
      const d = result.diagnostics.find((x): x is Diagnostic & { fix: Fix } => applicableAcross(x, opts.unsafe) && !rejectedKeys.has(fixKey(x)));
      if (!d || !overlay || !engine.parsesCleanly) break;
      rejectedKeys.add(fixKey(d));
      const reject = (reason: string) => rejectedAcross.push({ diagnostic: d, reason });
      // Every file's new text, or the reason the fix cannot be applied whole.
      const next = new Map<string, D>();
      let failure: string | undefined;
      for (const part of fixFiles(d.fix, start.file)) {
        const doc = documents.get(part.file) ?? open(part.file);
        if (!doc) {
          failure = `${part.file} cannot be read`;
          break;
        }
        if (part.file !== start.file && isNotebook(part.file)) {
          failure = `${part.file} is not a plain source file`;
          break;
        }
        if (!parses(doc)) {
          failure = `${part.file} did not parse cleanly before fixing`;
          break;
        }
        const changed = doc.applyFixes([{ ...d.fix, edits: part.edits, otherFiles: undefined }]);
        if ('notice' in changed || changed.applied !== 1 || changed.document.analysedText === doc.analysedText) {
          failure = `its edits do not apply to ${part.file}`;
          break;
        }
        next.set(part.file, changed.document);
      }
      if (failure) {
        reject(failure);
        continue;
      }
      // The other files first, so that the analysis of the start document reads their new text.
      const previous = new Map<string, D | undefined>();
      for (const [file, doc] of next) if (file !== start.file) {
        previous.set(file, documents.get(file));
        if (!parses(doc)) failure ??= `${file} would not parse`;
        hold(doc);
      }
      const startNext = next.get(start.file) ?? documents.get(start.file)!;
      engine.invalidate(start.file);
      const after = failure || !parses(startNext) ? undefined : analyse(startNext);
      if (!after || after.noticeKind === 'syntax' || after.noticeKind === 'internal') {
        reject(failure ?? `${start.file} would not parse`);
        for (const [file, doc] of previous) {
          if (doc) hold(doc);
          else {
            held.delete(file);
            overlay?.(file, undefined);
          }
        }
        engine.invalidate(start.file);
        result = analyse(documents.get(start.file)!);
        continue;
      }
      for (const [file, doc] of next) documents.set(file, doc);
      result = after;
      applied++;
      appliedAcross++;
    }
  } finally {
    for (const file of held) overlay?.(file, undefined);
    engine.invalidate(start.file);
  }
  return { documents, result: result ?? analyse(start), applied, appliedAcross, rejected, rejectedAcross, ...(notParsing ? { notParsing } : {}) };
}
