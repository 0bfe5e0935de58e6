/**
 * The engine's entry point for every surface (CLI, language server): parses files, builds
 * the request model through the language front ends and runs the rules. It touches no file
 * system itself; a SourceHost reads other workspace files when a value is imported.
 */
import type { Diagnostic, Severity } from './core/diagnostic';
import type { KnownNames } from './core/knownNames';
import type { LanguageId, RequestCall } from './core/model';
import type { Rule } from './core/rule';
import type { FileView } from './core/fileView';
import { applyFixes } from './core/fix';
import { loadKnownNames } from './core/knownNames';
import type { ReportInput, RuleContext } from './core/rule';
import type { Loc } from './core/span';
import { EvalBudget, Evaluator } from './lang/evaluate';
import type { EvalLimits } from './lang/evaluate';
import { editBuilderFor } from './lang/edits';
import { findSuppressions, suppressionAnchors } from './lang/comments';
import { buildFileView } from './lang/fileView';
import { Parsers, languageForPath } from './lang/parsers';
import { findRequestCalls, mayHoldRequests } from './lang/requests';
import { Workspace } from './lang/workspace';
import { allRules } from './rules';
import { suppressFindings } from './rules/unused-suppression';

export interface SourceHost {
  /** The text of another workspace file, or undefined when it does not exist or cannot be read. */
  readFile(absPath: string): string | undefined;
  /** Whether a file exists (cheaper than reading it); readFile answers when absent. */
  exists?(absPath: string): boolean;
}

export interface AnalyzeOptions {
  /** Rules to run; all registered rules by default. */
  rules?: readonly Rule[];
  known?: KnownNames;
  /** Severity per rule id over the rules' own (from configuration). */
  severity?: Readonly<Record<string, Severity>>;
}

export interface FileResult {
  file: string;
  language: LanguageId;
  diagnostics: Diagnostic[];
  calls: RequestCall[];
  /** Set when the file could not be analysed (or only partly): one line for the user. */
  notice?: string;
  /** What the notice is about: syntax errors (analysed what parsed) or an internal failure (nothing analysed). */
  noticeKind?: 'syntax' | 'internal' | 'limit';
  /** Evaluation steps the analysis took (of its budget), for benchmarks and the real-code runs. */
  steps?: number;
}

export interface AnalyzerOptions extends AnalyzeOptions {
  /** Folder with the tree-sitter WASM files (defaults to the bundle's folder, then node_modules). */
  wasmDir?: string;
  host?: SourceHost;
  /** Bounds on one file's analysis (the defaults keep every file well under a second). */
  limits?: EvalLimits;
  /**
   * Skip the rules a file's text cannot trigger, and the parse of files no rule needs (on by
   * default). Off only to check that it changes no finding.
   */
  prefilter?: boolean;
  /**
   * The texts given to `analyze` are the files' texts on the host (a command-line run), so the
   * analyzer need not keep them for other files that import them: it reads those from the host.
   * An editor gives unsaved buffers and keeps the default.
   */
  textsFromHost?: boolean;
}

/** Suppression comments are judged in every file that has one (`prefixlint: disable=...`). */
const SUPPRESSION_WORD = /prefixlint/;

/** Whether a rule can report anything in this text (RuleMeta.triggers). */
function mayReport(rule: Rule, text: string, requestsPossible: boolean): boolean {
  if (rule.check && requestsPossible) return true;
  if (!rule.checkFile) return false;
  const t = rule.meta.triggers;
  if (t === undefined) return true;
  if (t === 'requests') return requestsPossible;
  return t instanceof RegExp ? t.test(text) : t.every((re) => re.test(text));
}

/** Syntax trees deeper than this are not analysed (a one-line notice says so). */
export const MAX_NESTING = 1000;

const NO_FILES: SourceHost = { readFile: () => undefined };

export class Analyzer {
  private readonly workspace: Workspace;
  private readonly rules: readonly Rule[];
  private readonly known: KnownNames;
  private readonly limits?: EvalLimits;
  private readonly prefilter: boolean;
  private readonly textsFromHost: boolean;

  private constructor(
    readonly parsers: Parsers,
    opts: AnalyzerOptions,
  ) {
    this.workspace = new Workspace(parsers, opts.host ?? NO_FILES);
    this.rules = opts.rules ?? allRules;
    this.known = opts.known ?? loadKnownNames();
    this.limits = opts.limits;
    this.prefilter = opts.prefilter ?? true;
    this.textsFromHost = opts.textsFromHost ?? false;
  }

  static async create(opts: AnalyzerOptions = {}): Promise<Analyzer> {
    return new Analyzer(await Parsers.load(opts.wasmDir), opts);
  }

  /** Drops what is cached for a file (its text changed on disk or in an editor). */
  invalidate(file: string): void {
    this.workspace.invalidate(file);
  }

  /** True when the text parses without syntax errors. */
  parsesCleanly(file: string, text: string, language?: LanguageId): boolean {
    const lang = language ?? languageForPath(file);
    if (!lang) return true;
    return !this.parsers.parse(lang, text).rootNode.hasError;
  }

  /** `opts` (rules, known names, severities) apply to this call instead of the analyzer's own. */
  analyze(file: string, text: string, language?: LanguageId, opts: AnalyzeOptions = {}): FileResult {
    try {
      return this.analyzeText(file, text, language, opts);
    } finally {
      if (this.textsFromHost) this.workspace.forgetText(file);
    }
  }

  private analyzeText(file: string, text: string, language: LanguageId | undefined, opts: AnalyzeOptions): FileResult {
    const lang = language ?? languageForPath(file) ?? 'python';
    const rules = opts.rules ?? this.rules;
    const known = opts.known ?? this.known;
    const level = (ruleId: string, severity: Severity): Severity => opts.severity?.[ruleId] ?? severity;
    try {
      // Only the rules that can report in this text run, and a text no rule needs is not parsed
      // (most files of a repository build no request and write no state file).
      const requestsPossible = !this.prefilter || mayHoldRequests(text);
      const active = this.prefilter ? rules.filter((r) => mayReport(r, text, requestsPossible)) : rules;
      if (!active.length && !SUPPRESSION_WORD.test(text)) {
        this.workspace.setOverlay(file, text, lang);
        return { file, language: lang, diagnostics: [], calls: [], steps: 0 };
      }
      const unit = this.workspace.setText(file, text, lang);
      if (unit.depth > MAX_NESTING) {
        // Real code nests a few dozen levels; thousands come from generated code, and the
        // analysis of such a tree would be slow (some look-ups are linear in the depth).
        return { file, language: lang, diagnostics: [], calls: [], notice: `not analysed: the code nests ${unit.depth} levels deep (the limit is ${MAX_NESTING})`, noticeKind: 'limit' };
      }
      const budget = new EvalBudget(this.limits);
      const evaluator = new Evaluator(budget);
      const calls = requestsPossible ? findRequestCalls(unit, evaluator) : [];
      const edits = editBuilderFor(unit);
      let view: FileView | undefined;
      let diagnostics: Diagnostic[] = [];
      const seen = new Set<string>();
      const textOf = (at: Loc) => {
        const u = at.file === file ? unit : this.workspace.get(at.file);
        return u ? u.text.slice(at.start, at.end) : '';
      };
      for (const rule of active) {
        const ctx: RuleContext = {
          file,
          language: lang,
          known,
          edits,
          get view() {
            return (view ??= buildFileView(unit, evaluator));
          },
          calls,
          textOf,
          report: (input: ReportInput) => {
            if (input.at.file !== file) return;
            const key = `${rule.meta.id}:${input.at.start}:${input.at.end}:${input.message}`;
            if (seen.has(key)) return;
            seen.add(key);
            diagnostics.push({
              ruleId: rule.meta.id,
              severity: level(rule.meta.id, input.severity ?? rule.meta.severity),
              message: input.message,
              at: input.at,
              fix: input.fix && input.fix.edits.length ? input.fix : undefined,
              related: input.related ?? [],
            });
          },
        };
        if (rule.check) for (const call of calls) rule.check(call, ctx);
        rule.checkFile?.(ctx);
      }
      // Suppression comments silence findings; the ones that silence nothing are findings too.
      const directives = findSuppressions(unit.tree, text, lang);
      const anchor = suppressionAnchors(unit.tree);
      diagnostics = suppressFindings({ file, language: lang, text, directives, diagnostics, ran: rules, all: allRules, level, anchor });
      diagnostics.sort((a, b) => a.at.start - b.at.start || a.at.end - b.at.end || a.ruleId.localeCompare(b.ruleId));
      const notices: string[] = [];
      let noticeKind: FileResult['noticeKind'];
      if (unit.tree.rootNode.hasError) {
        notices.push('has syntax errors; analysed what could be parsed');
        noticeKind = 'syntax';
      }
      if (budget.hit) {
        notices.push(limitNotice(budget));
        noticeKind = 'limit';
      }
      const failed = [...budget.failedImports].filter((f) => f !== file);
      if (failed.length) notices.push(`values imported from ${failed.length === 1 ? failed[0] : `${failed.length} files`} are unknown (internal error while analysing ${failed.length === 1 ? 'it' : 'them'})`);
      if (!notices.length) return { file, language: lang, diagnostics, calls, steps: budget.steps };
      return { file, language: lang, diagnostics, calls, notice: notices.join('; '), noticeKind: noticeKind ?? 'limit', steps: budget.steps };
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      return { file, language: lang, diagnostics: [], calls: [], notice: `internal error while analysing: ${message.split('\n')[0]}`, noticeKind: 'internal' };
    }
  }
}

function limitNotice(budget: EvalBudget): string {
  const l = budget.limits;
  const what = budget.hit === 'steps' ? `${l.steps.toLocaleString('en-US')} evaluation steps` : budget.hit === 'depth' ? `${l.depth} nested evaluations` : `${l.timeMs / 1000} s`;
  return `analysis stopped at its limit of ${what}; values past it are unknown`;
}

export interface FixAllResult {
  text: string;
  /** Fixes applied over all passes. */
  applied: number;
  passes: number;
}

/**
 * Applies fixes to a fixpoint: analyse, apply every non-overlapping fix, repeat (fixes that
 * overlapped an applied one get their turn in the next pass). Never returns a text that
 * parses with errors when the input did not.
 */
export function fixAll(analyzer: Analyzer, file: string, text: string, opts: { unsafe?: boolean; language?: LanguageId; maxPasses?: number } = {}): FixAllResult {
  const cleanBefore = analyzer.parsesCleanly(file, text, opts.language);
  let current = text;
  let applied = 0;
  let passes = 0;
  for (; passes < (opts.maxPasses ?? 10); passes++) {
    const result = analyzer.analyze(file, current, opts.language);
    const fixes = result.diagnostics.flatMap((d) => (d.fix && (opts.unsafe || d.fix.applicability === 'safe') ? [d.fix] : []));
    if (!fixes.length) break;
    const next = applyFixes(current, fixes);
    if (!next.applied || next.text === current) break;
    if (cleanBefore && !analyzer.parsesCleanly(file, next.text, opts.language)) break;
    current = next.text;
    applied += next.applied;
  }
  if (current !== text) analyzer.analyze(file, current, opts.language);
  return { text: current, applied, passes };
}
