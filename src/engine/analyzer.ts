/**
 * The engine's entry point for every surface (CLI, language server): parses files, builds
 * the request model through the language front ends and runs the rules. It touches no file
 * system itself; a SourceHost reads other workspace files when a value is imported.
 */
import type { Diagnostic, Severity } from '../core/diagnostic';
import type { KnownNames } from '../core/knownNames';
import type { LanguageId, OptionClass, RequestCall } from '../core/model';
import type { Rule } from '../core/rule';
import type { FileView } from '../core/fileView';
import { loadKnownNames } from '../core/knownNames';
import type { ReportInput, RuleContext, TextTest, TextTrigger } from '../core/rule';
import { runsOn, textTriggers, triggerTests } from '../core/rule';
import { ANY_WORDS, PatternGate } from '../core/literals';
import type { HeldWords } from '../core/literals';
import type { FileResult } from '../core/result';
import type { Loc } from '../core/span';
import { suppressFindings } from '../core/suppress';
import { hasEdits } from '../core/fix';
import { DEFAULT_LIMITS, EvalBudget, Evaluator } from '../lang/evaluate';
import type { EvalLimits } from '../lang/evaluate';
import { editBuilderFor } from '../lang/edits';
import { CrossFiles } from '../lang/crossFile';
import { commentAnchor, findSuppressions, suppressionAnchors } from '../lang/comments';
import { buildFileView } from '../lang/fileView';
import { frontEndFor } from '../lang/frontEnds';
import { Parsers, languageForPath } from '../lang/parsers';
import type { CompiledGrammars } from '../lang/parsers';
import { constructedRequests, optionClasses } from '../lang/constructed';
import { REQUEST_WORD_PATTERNS, findRequestCalls, mayHoldRequests, wordsMayHoldRequests } from '../lang/requests';
import { REACH_LIMITS, reachedRequests } from '../lang/reach';
import { callsTowardRequests } from '../lang/textReach';
import { RequestReuse } from '../lang/requestReuse';
import type { ReachedRequest } from '../core/model';
import { Workspace } from '../lang/workspace';
import type { SourceHost } from '../lang/workspace';
import { allRules } from '../rules';

export type { CompiledGrammars };

export type { FileResult, SourceHost };

export interface AnalyzeOptions {
  /** Rules to run; all registered rules by default. */
  rules?: readonly Rule[];
  known?: KnownNames;
  /** Severity per rule id over the rules' own (from configuration). */
  severity?: Readonly<Record<string, Severity>>;
  /**
   * How messages name the line of an offset of the analysed text, when it is not the text's own
   * line (a notebook's cell and line: FixableDocument.lineName); `line N` otherwise.
   */
  lineName?: (offset: number) => string | undefined;
}

export interface AnalyzerOptions extends AnalyzeOptions {
  /** Folder with the tree-sitter WASM files (defaults to the bundle's folder, then node_modules). */
  wasmDir?: string;
  /** The runtime and grammars compiled already (Parsers.compile): a lint worker shares the main thread's. */
  grammars?: CompiledGrammars;
  /**
   * Make the parser's runtime again after a long text, dropping its memory (Parsers.load's
   * `renew`): for a run that keeps no WASM tree between files (a command-line run).
   */
  renewParserRuntime?: boolean;
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
  /**
   * With `textsFromHost`: the host's texts do not change while the analyzer lives, and only
   * they are given to `analyze` (a command-line run that fixes nothing), so nothing is kept to
   * tell a file's later text from the one read before (see Workspace).
   */
  textsStay?: boolean;
  /**
   * Take an editor buffer's requests over from its last analysis where a change cannot reach
   * them (lang/requestReuse.ts; on by default when texts are not the host's). Off only to check
   * that it changes nothing.
   */
  reuseRequests?: boolean;
}

/** Suppression comments are judged in every file that has one (`prefixlint: disable=...`). */
const SUPPRESSION_WORD = /prefixlint/;

/** Whether a rule can report anything in this text (RuleMeta.triggers). */
function mayReport(rule: Rule, text: string | undefined, language: LanguageId, requestsPossible: boolean, reachesRequests?: () => boolean, held?: HeldWords): boolean {
  if (rule.check && requestsPossible) return true;
  if (!rule.checkFile) return false;
  const t = rule.meta.triggers;
  if (t === undefined) return true;
  // Per front end (one reads Python, one TypeScript, TSX and JavaScript).
  const own: TextTrigger = typeof t === 'object' && 'python' in t ? t[frontEndFor(language).sdk] : t;
  return textTriggers(own, text, requestsPossible, reachesRequests, held);
}

/**
 * The rules that can report anything in a text (the prefilter): every rule with `check` when
 * the text may hold request calls, and the file rules whose triggers the text holds. A text
 * for which this is empty (and that has no suppression comment) is not parsed. Given the
 * file, the rules that never run on it (RuleMeta.skips) are left out as well.
 */
export function triggeredRules(
  rules: readonly Rule[],
  text: string,
  language: LanguageId,
  file?: string,
  requestsPossible = mayHoldRequests(text),
  reachesRequests?: () => boolean,
  held?: HeldWords,
): Rule[] {
  const applicable = file === undefined ? rules : rulesFor(rules, file, language);
  // Asked once, when a rule needs it.
  let reaches: boolean | undefined;
  const ask = reachesRequests && (() => (reaches ??= reachesRequests()));
  return applicable.filter((r) => mayReport(r, text, language, requestsPossible, ask, held));
}

/**
 * The prefilter's patterns over a list of rules (their triggers, the request words, the
 * suppression word), for a PatternGate. A gate made from the analyzer's rules also serves an
 * analysis given a subset of them (a file's configuration): a pattern it does not know runs.
 */
function prefilterPatterns(rules: readonly Rule[]): TextTest[] {
  return [...REQUEST_WORD_PATTERNS, SUPPRESSION_WORD, ...rules.flatMap((r) => triggerTests(r.meta.triggers))];
}

/**
 * Whether any rule may report in a file of which only the words are known (`held`, read from its
 * bytes): what triggeredRules finds from its text, with every pattern whose words the text holds
 * taken to match and a file that holds no request taken to call toward one.
 */
function wordsMayTrigger(rules: readonly Rule[], file: string, language: LanguageId, held: HeldWords): boolean {
  const requestsPossible = wordsMayHoldRequests(held);
  return rulesFor(rules, file, language).some((r) => mayReport(r, undefined, language, requestsPossible, undefined, held));
}

/** The rules that run on a file at all (RuleMeta.skips). */
function rulesFor(rules: readonly Rule[], file: string, language: LanguageId): readonly Rule[] {
  if (!rules.some((r) => r.meta.skips)) return rules;
  const testFile = frontEndFor(language).modules.isTestFile(file);
  return rules.filter((r) => runsOn(r, file, testFile));
}

/** Syntax trees deeper than this are not analysed (a one-line notice says so). */
export const MAX_NESTING = 1000;

const NO_FILES: SourceHost = { readFile: () => undefined };

/**
 * What the surfaces and the fix loop use of the analyzer: the one interface it is seen through
 * (tests give a scripted one).
 */
export interface AnalysisEngine {
  /**
   * `opts` (rules, known names, severities) apply to this call instead of the analyzer's own;
   * `words`: what wordsToAnalyse read of the same text's bytes.
   */
  analyze(file: string, text: string, language?: LanguageId, opts?: AnalyzeOptions, words?: HeldWords): FileResult;
  /**
   * The words of a file's text, read from its UTF-8 bytes as on disk, when some rule may report
   * in it; undefined when no rule can and it holds no suppression comment: analyze() of that text
   * would say nothing, and the text need not even be decoded. An engine without it is given every text.
   */
  wordsToAnalyse?(file: string, bytes: Uint8Array, language: LanguageId, opts?: AnalyzeOptions): HeldWords | undefined;
  /** Drops what is cached for a file (its text changed on disk or in an editor). */
  invalidate(file: string): void;
  /**
   * Makes the engine read `text` for a file that another file imports, instead of its host's
   * text, until called again with undefined (the fix loop across files holds the texts it is
   * about to write). An engine without it applies no fix across files.
   */
  overlay?(file: string, text: string | undefined): void;
  /** Whether a text parses without syntax errors (an analysis skips parsing a file no rule needs, so it cannot say). */
  parsesCleanly?(file: string, text: string, language?: LanguageId): boolean;
}

export class Analyzer implements AnalysisEngine {
  private readonly workspace: Workspace;
  private readonly rules: readonly Rule[];
  private readonly known: KnownNames;
  private readonly limits?: EvalLimits;
  private readonly prefilter: boolean;
  /** The prefilter's PatternGate, made at the first analysis (reading the patterns' words takes a few milliseconds). */
  private gate?: PatternGate;
  private readonly textsFromHost: boolean;
  private readonly reuseRequests: boolean;
  /** Texts held through `overlay`, read instead of the host's until released. */
  private readonly held = new Map<string, string>();
  /** The requests kept per editor buffer between its analyses (requestReuse.ts); the buffer last analysed only. */
  private requestsKept?: { file: string; reuse: RequestReuse };

  /** Requests taken over from a buffer's previous analysis so far (requestReuse.ts): for tests and the editor probe. */
  get requestsReused(): number {
    return this.reusedTotal + (this.requestsKept?.reuse.reused ?? 0);
  }
  private reusedTotal = 0;

  private reusedRequests(file: string): RequestReuse {
    if (this.requestsKept?.file !== file) {
      this.forgetRequests();
      this.requestsKept = { file, reuse: new RequestReuse() };
    }
    return this.requestsKept!.reuse;
  }

  private forgetRequests(): void {
    this.reusedTotal += this.requestsKept?.reuse.reused ?? 0;
    this.requestsKept = undefined;
  }

  private constructor(
    readonly parsers: Parsers,
    opts: AnalyzerOptions,
  ) {
    // A command-line run sets each file's text once: no WASM tree is kept for an incremental re-parse.
    this.workspace = new Workspace(parsers, opts.host ?? NO_FILES, opts.textsFromHost ? 0 : undefined, undefined, !!(opts.textsFromHost && opts.textsStay));
    this.rules = opts.rules ?? allRules;
    this.known = opts.known ?? loadKnownNames();
    this.limits = opts.limits;
    this.prefilter = opts.prefilter ?? true;
    this.textsFromHost = opts.textsFromHost ?? false;
    this.reuseRequests = !this.textsFromHost && (opts.reuseRequests ?? true);
  }

  /** The parser's runtime and grammars compiled, to give to every Analyzer.create of the process (a thread of its own shares them). */
  static compileGrammars(wasmDir?: string): Promise<CompiledGrammars> {
    return Parsers.compile(wasmDir);
  }

  static async create(opts: AnalyzerOptions = {}): Promise<Analyzer> {
    return new Analyzer(await Parsers.load(opts.wasmDir, opts.grammars, { renew: opts.renewParserRuntime }), opts);
  }

  /** Drops what is cached for a file (its text changed on disk or in an editor). */
  invalidate(file: string): void {
    this.forgetRequests();
    this.workspace.invalidate(file);
    const held = this.held.get(file);
    if (held !== undefined) this.workspace.setOverlay(file, held);
  }

  /**
   * An open buffer's text changed (a keystroke): what was read from its text is dropped, and what
   * its text does not decide is kept — which files exist, where the imports of other modules
   * lead, what their texts say (invalidate, for a file created, deleted or changed on disk,
   * forgets all of that, and every keystroke then read the imported modules again); a new file
   * or one that is not source code drops it all (Workspace.edited). A text held through
   * `overlay` stays what the file reads as.
   */
  edited(file: string, text: string, language?: LanguageId): void {
    // Another buffer changed: the requests kept may have read values from it.
    if (this.requestsKept?.file !== file) this.forgetRequests();
    this.workspace.edited(file, this.held.get(file) ?? text, language);
  }

  overlay(file: string, text: string | undefined): void {
    this.forgetRequests();
    if (text === undefined) {
      if (!this.held.delete(file)) return;
      this.workspace.invalidate(file);
    } else {
      this.held.set(file, text);
      this.workspace.invalidate(file);
      this.workspace.setOverlay(file, text);
    }
  }

  /** True when the text parses without syntax errors. */
  parsesCleanly(file: string, text: string, language?: LanguageId): boolean {
    const lang = language ?? languageForPath(file);
    if (!lang) return true;
    return !this.parsers.parse(lang, text).rootNode.hasError;
  }

  /**
   * Where a next-line suppression comment for a finding at an offset of `text` must go above:
   * the start of a multi-line string around it (a comment line inside the string would become
   * part of it), else the offset. The text is parsed on the first call only.
   */
  suppressionAnchors(text: string, language: LanguageId): (offset: number) => number {
    let tree: ReturnType<Parsers['parse']> | undefined;
    return (offset) => commentAnchor(language, (tree ??= this.parsers.parse(language, text)).rootNode.descendantForIndex(offset), offset);
  }

  /** `opts` (rules, known names, severities) apply to this call instead of the analyzer's own. */
  analyze(file: string, text: string, language?: LanguageId, opts: AnalyzeOptions = {}, words?: HeldWords): FileResult {
    // What the previous analysis made of the parsed files (its result is the caller's by now).
    this.workspace.dropViews();
    try {
      return this.analyzeText(file, text, language, opts, words);
    } finally {
      if (this.textsFromHost && !this.held.has(file)) this.workspace.forgetText(file);
    }
  }

  /**
   * Most files of a repository hold none of the words of any rule's triggers: told from their
   * bytes, they are never decoded into a string (which was most of what a run allocated for them).
   */
  wordsToAnalyse(file: string, bytes: Uint8Array, language: LanguageId, opts: AnalyzeOptions = {}): HeldWords | undefined {
    if (!this.prefilter) return ANY_WORDS;
    const held = this.patternGate().heldInBytes(bytes);
    if (held.mayMatch(SUPPRESSION_WORD) || wordsMayTrigger(opts.rules ?? this.rules, file, language, held)) return held;
    // As analyze() does before it finds nothing to run.
    this.workspace.dropViews();
    return undefined;
  }

  /** The prefilter's PatternGate, over the analyzer's rules (a subset given to one analysis is gated by it as well). */
  private patternGate(): PatternGate {
    return (this.gate ??= new PatternGate(prefilterPatterns(this.rules)));
  }

  private analyzeText(file: string, text: string, language: LanguageId | undefined, opts: AnalyzeOptions, words: HeldWords | undefined): FileResult {
    const lang = language ?? languageForPath(file) ?? 'python';
    const rules = opts.rules ?? this.rules;
    const known = opts.known ?? this.known;
    const level = (ruleId: string, severity: Severity): Severity => opts.severity?.[ruleId] ?? severity;
    try {
      // Only the rules that can report in this text run, and a text no rule needs is not parsed
      // (most files of a repository build no request and write no state file).
      // The words of the prefilter's patterns that the text holds, read in one pass when first asked.
      const held = this.prefilter ? (words ?? this.patternGate().held(text)) : ANY_WORDS;
      const requestsPossible = !this.prefilter || mayHoldRequests(text, held);
      // Whether the file calls something it imports that may lead to a request: asked by the
      // trigger (of a file that holds none itself) and by the reach search, answered once.
      let callsOut: boolean | undefined;
      const callsOutward = () => (callsOut ??= !frontEndFor(lang).modules.isTestFile(file) && callsTowardRequests(this.workspace, file, text, lang, false));
      const reaches = () => requestsPossible || callsOutward();
      const active = this.prefilter ? triggeredRules(rules, text, lang, file, requestsPossible, reaches, held) : rulesFor(rules, file, lang);
      if (!active.length && !(held.mayMatch(SUPPRESSION_WORD) && SUPPRESSION_WORD.test(text))) {
        // A text read from the host (a command-line run) is what the workspace would read for
        // the file: nothing to tell it. (Telling it listed the file's folder to see that the file
        // exists, and dropped what was read of it for other files.)
        if (!this.textsFromHost || this.held.has(file)) this.workspace.setOverlay(file, text, lang);
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
      // An editor's buffer: the requests its last analysis read are kept for the calls a keystroke cannot have changed.
      const reuse = this.reuseRequests ? this.reusedRequests(file) : undefined;
      reuse?.begin(unit);
      const calls = requestsPossible ? findRequestCalls(unit, evaluator, reuse) : [];
      reuse?.end(budget);
      const edits = editBuilderFor(unit);
      let view: FileView | undefined;
      let across: CrossFiles | undefined;
      let constructedCalls: RequestCall[] | undefined;
      let optionClassList: OptionClass[] | undefined;
      const limits = this.limits ?? DEFAULT_LIMITS;
      const workspace = this.workspace;
      let diagnostics: Diagnostic[] = [];
      const seen = new Set<string>();
      const reached = new Map<string, readonly ReachedRequest[]>();
      const unitOf = (f: string) => (f === file ? unit : this.workspace.get(f));
      const textOf = (at: Loc) => unitOf(at.file)?.text.slice(at.start, at.end) ?? '';
      const lineRef = (at: Loc) => {
        const named = at.file === file ? opts.lineName?.(at.start) : undefined;
        if (named !== undefined) return named;
        const t = unitOf(at.file)?.text ?? '';
        let line = 1;
        for (let nl = t.indexOf('\n'); nl !== -1 && nl < at.start; nl = t.indexOf('\n', nl + 1)) line++;
        return `line ${line}`;
      };
      for (const rule of active) {
        const ctx: RuleContext = {
          file,
          language: lang,
          known,
          edits,
          get across() {
            return (across ??= new CrossFiles(workspace, workspace.host, unit, evaluator));
          },
          get view() {
            return (view ??= buildFileView(unit, evaluator));
          },
          calls,
          reached(classes) {
            const key = [...classes].sort().join(',');
            let found = reached.get(key);
            // An evaluator of its own: the search spends its own budget, never the one the file's other findings need.
            if (!found) reached.set(key, (found = reachedRequests(unit, new Evaluator(new EvalBudget(REACH_LIMITS)), new Set(classes), callsOutward)));
            return found;
          },
          reachedFrom(other, classes) {
            if (other === file) return this.reached(classes);
            const key = `${other}\u0000${[...classes].sort().join(',')}`;
            let found = reached.get(key);
            if (!found) {
              const otherUnit = workspace.get(other);
              // With an evaluator and budget of its own, as that file's own analysis reads it.
              found = otherUnit ? reachedRequests(otherUnit, new Evaluator(new EvalBudget(REACH_LIMITS)), new Set(classes)) : [];
              reached.set(key, found);
            }
            return found;
          },
          get constructedCalls() {
            // Only in a text that may hold requests, with the prefilter on or off (a file that
            // builds an instance but names no request is not read for requests at all). Its own
            // evaluator and budget: reading a class again per instance must not use up what the
            // file's own requests may spend (past its bound, its values are unknown).
            if (constructedCalls) return constructedCalls;
            // Nor in a test file: the instances a test builds exercise the class (with every
            // option in turn), they are not how the program is configured.
            if (!mayHoldRequests(text) || unit.frontEnd.modules.isTestFile(file)) return (constructedCalls = []);
            const share = () => new EvalBudget({ ...limits, steps: Math.min(limits.steps, CONSTRUCTED_STEPS), timeMs: limits.timeMs / 4 });
            return (constructedCalls = constructedRequests(unit, new Evaluator(share()), new Evaluator(share(), true)));
          },
          get optionClasses() {
            // As for constructedCalls: not in tests (they build the class with every option in
            // turn on purpose), each reading with its own evaluator and budget.
            if (optionClassList) return optionClassList;
            if (!mayHoldRequests(text) || unit.frontEnd.modules.isTestFile(file)) return (optionClassList = []);
            const own = () => new Evaluator(new EvalBudget({ ...limits, steps: Math.min(limits.steps, CONSTRUCTED_STEPS), timeMs: limits.timeMs / 4 }));
            return (optionClassList = optionClasses(unit, own));
          },
          testFile: unit.frontEnd.modules.isTestFile(file),
          textOf,
          lineRef,
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
              fix: input.fix && hasEdits(input.fix) ? input.fix : undefined,
              related: input.related ?? [],
            });
          },
        };
        if (rule.check) for (const call of calls) rule.check(call, ctx);
        rule.checkFile?.(ctx);
      }
      // Suppression comments silence findings; the ones that silence nothing are findings too.
      const directives = findSuppressions(unit.tree, text, lang);
      const anchor = suppressionAnchors(lang, unit.tree);
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

/**
 * Evaluation steps that reading the requests of the classes a file builds, once per instance,
 * may spend (RuleContext.constructedCalls), for each of its two readings: a share of a file's
 * own bound (and a quarter of its time).
 */
const CONSTRUCTED_STEPS = 20_000;

function limitNotice(budget: EvalBudget): string {
  const l = budget.limits;
  const what = budget.hit === 'steps' ? `${l.steps.toLocaleString('en-US')} evaluation steps` : budget.hit === 'depth' ? `${l.depth} nested evaluations` : `${l.timeMs / 1000} s`;
  return `analysis stopped at its limit of ${what}; values past it are unknown`;
}
