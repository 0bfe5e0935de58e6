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
import type { FileResult } from '../core/result';
import type { AnalysisEngine, AnalyzeOptions } from './analyzer';
import type { FixableDocument } from './document';

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

/** Whether a finding's fix is applied: safe ones always, unsafe ones when asked. */
export function applicable(d: Diagnostic, unsafe: boolean): d is Diagnostic & { fix: Fix } {
  return !!d.fix && d.fix.edits.length > 0 && (d.fix.applicability === 'safe' || unsafe);
}

/** Fixing starts only on a text without syntax errors, so one afterwards is new. */
function parsesWorse(after: FileResult): boolean {
  return after.noticeKind === 'syntax' || after.noticeKind === 'internal';
}

/** Identifies a fix across passes (offsets move, so they are left out). */
function fixKey(d: Diagnostic): string {
  return [d.ruleId, d.message, d.fix?.title, ...(d.fix?.edits.map((e) => e.newText) ?? [])].join('\u0000');
}

/**
 * Fixes a document to a fixpoint. Every text tried is analysed under the document's path, and
 * the analyzer forgets them afterwards: none of them stands for the file (the caller writes the
 * fixed text, or the editor applies it, and that becomes the file's text).
 */
export function fixToFixpoint<D extends FixableDocument<D>>(engine: AnalysisEngine, document: D, opts: FixpointOptions): FixpointResult<D> {
  const analyse = (doc: D) => engine.analyze(doc.file, doc.analysedText, doc.language, opts.analyze);
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
