/**
 * A rule is one file: metadata, messages, fix title, docs text, the check and the fix.
 */
import type { Diagnostic, Related, Severity } from './diagnostic';
import type { CrossFileView } from './crossFile';
import type { EditBuilder } from './edits';
import type { FileView } from './fileView';
import type { Fix } from './fix';
import type { KnownNames } from './knownNames';
import type { OptionClass, ReachedRequest, RequestCall } from './model';
import type { TaintClass } from './value';
import type { Loc } from './span';
import { ANY_WORDS } from './literals';
import type { HeldWords } from './literals';
import type { LanguageId } from './model';
import { repository } from '../../package.json';

export const RULE_GROUPS = ['cache', 'context', 'api', 'state'] as const;
export type RuleGroup = (typeof RULE_GROUPS)[number];

/**
 * Text a file must hold: a regex matches it (or a test that reads the text otherwise says
 * so); `'requests'`: it may hold request calls (the engine's request words); `'reaches-requests'`:
 * it may hold them, or it calls a function it imports whose text may lead to them (through the
 * functions it calls, a few calls deep, read from the modules' texts: lang/textReach.ts), and it
 * is no test file (what a test passes to the code it tests is the test's own data); every item of
 * a list holds; one of `anyOf` holds.
 */
export type TextTrigger = TextTest | 'requests' | 'reaches-requests' | readonly TextTrigger[] | { readonly anyOf: readonly TextTrigger[] };

/** What a RegExp answers (`test`): a trigger that reads the text in a way a pattern cannot. */
export interface TextTest {
  test(text: string): boolean;
}

/**
 * Whether a text holds a trigger; `requestsPossible` answers `'requests'`, `reachesRequests`
 * (asked when needed; true when not given: the other modules are not known) `'reaches-requests'`;
 * `held` skips the patterns none of whose words the text holds (PatternGate). With no text (only
 * its words known, `held`), whether it may: every pattern whose words it holds may match.
 */
export function textTriggers(trigger: TextTrigger, text: string | undefined, requestsPossible: boolean, reachesRequests?: () => boolean, held: HeldWords = ANY_WORDS): boolean {
  if (trigger === 'requests') return requestsPossible;
  if (trigger === 'reaches-requests') return requestsPossible || !reachesRequests || reachesRequests();
  if ('test' in trigger) return held.mayMatch(trigger) && (text === undefined || trigger.test(text));
  if ('anyOf' in trigger) return trigger.anyOf.some((t) => textTriggers(t, text, requestsPossible, reachesRequests, held));
  return trigger.every((t) => textTriggers(t, text, requestsPossible, reachesRequests, held));
}

/** The tests (patterns) of a trigger, in both languages' variants. */
export function triggerTests(trigger: RuleMeta['triggers']): TextTest[] {
  if (trigger === undefined || trigger === 'requests' || trigger === 'reaches-requests') return [];
  if ('test' in trigger) return [trigger];
  if ('anyOf' in trigger) return trigger.anyOf.flatMap(triggerTests);
  if ('python' in trigger) return [...triggerTests(trigger.python), ...triggerTests(trigger.typescript)];
  return (trigger as readonly TextTrigger[]).flatMap(triggerTests);
}

export interface RuleMeta {
  /** Kebab-case, names the mistake; equals the file name and the fixture folder. */
  id: string;
  group: RuleGroup;
  severity: Severity;
  /** Whether the rule offers a fix: always, sometimes (depends on the code), or none. */
  fix: 'always' | 'sometimes' | 'none';
  /** One sentence for `prefixlint rules` and the docs header. */
  summary: string;
  /**
   * Markdown with, in this order: `## What it does`, `## Why is this bad?`, `## Example`,
   * `## Use instead`, and `## Fix safety` when any fix can be unsafe.
   */
  docs: string;
  /**
   * For a rule with `checkFile`: what a file's text must hold for the rule to report anything
   * there — words of its own (a TextTrigger; one per language family when the languages name
   * things differently), `'requests'` when it reports only about the file's request calls.
   * The engine skips the rule in other files (and parses no file that no rule needs), so a
   * trigger must hold in every text where the check can report: the prefilter test compares
   * the findings with the prefilter on and off. A rule with only `check` needs none: it runs
   * where request calls are found.
   */
  triggers?: TextTrigger | { readonly python: TextTrigger; readonly typescript: TextTrigger };
  /**
   * Files the rule never reports in, whatever they hold: `tests`, the language's test files
   * (RuleContext.testFile), and files whose path matches `paths`. The engine runs neither its
   * `check` nor its `checkFile` there, so it parses no such file for the rule.
   */
  skips?: { readonly tests?: boolean; readonly paths?: RegExp };
}

/** Whether a rule runs on a file at all (RuleMeta.skips); `testFile` as in RuleContext. */
export function runsOn(rule: Rule, file: string, testFile: boolean): boolean {
  const s = rule.meta.skips;
  return !s || !((s.tests && testFile) || s.paths?.test(file));
}

export interface ReportInput {
  message: string;
  at: Loc;
  fix?: Fix;
  related?: Related[];
  severity?: Severity;
}

export interface RuleContext {
  readonly file: string;
  readonly language: LanguageId;
  readonly known: KnownNames;
  readonly edits: EditBuilder;
  /** Other files of the project, for fixes whose cause is written there. */
  readonly across: CrossFileView;
  /** Calls, functions, loops and conditions of the whole file, for rules that look beyond one request. */
  readonly view: FileView;
  /** Every request call site of the file. */
  readonly calls: readonly RequestCall[];
  /**
   * Requests in other files that this file's calls reach with a value carrying a taint of one
   * of `classes` produced here (a date passed down to a wrapper that caches it), read with the
   * values passed (see ReachedRequest). Asked by a `checkFile`.
   */
  reached(classes: readonly TaintClass[]): readonly ReachedRequest[];
  /**
   * What `reached` gives in the analysis of another file of the workspace (a caller that passes
   * a value down to a request here reports it in its own file); empty when it cannot be read.
   */
  reachedFrom(file: string, classes: readonly TaintClass[]): readonly ReachedRequest[];
  /**
   * The requests of the workspace classes this file builds instances of, each read for the
   * instance built here (RequestCall.instance): what a class sends with the options it is
   * given. Read on demand; the request calls of the file itself are in `calls`.
   */
  readonly constructedCalls: readonly RequestCall[];
  /**
   * The classes of this file whose requests depend on options with a written `True`/`False`
   * default, to read those requests for other combinations of them (OptionClass). Read on
   * demand; none in test files and files that may hold no request.
   */
  readonly optionClasses: readonly OptionClass[];
  /**
   * The file is a test by its language's conventions (`tests/`, `test_*.py`, `*.test.ts`,
   * `__tests__/`, `conftest.py`): its files, sessions and fixtures are not the program's.
   */
  readonly testFile: boolean;
  /** The source text of a location in any analysed file (for messages). */
  textOf(at: Loc): string;
  /**
   * How a message names the line of a place it points at (`line 12`): in a notebook, the code
   * cell and its line (`cell index 3, line 2`, as the report names cells), since the lines of the
   * analysed text run across cells and match no line the user sees.
   */
  lineRef(at: Loc): string;
  report(input: ReportInput): void;
}

export interface Rule {
  meta: RuleMeta;
  /** Called once for each request call site. */
  check?(call: RequestCall, ctx: RuleContext): void;
  /** Called once per file, for rules that are not about one request (state files, handlers). */
  checkFile?(ctx: RuleContext): void;
}

export function defineRule(rule: Rule): Rule {
  return rule;
}

/** The repository's web address, from package.json (`git+https://host/o/r.git` -> `https://host/o/r`). */
export const REPOSITORY_URL = repository.url.replace(/^git\+/, '').replace(/\.git$/, '');

/** Where the rule pages are in the repository (generated by `npm run docs`). */
export const RULE_PAGES_DIR = 'docs/rules';

/**
 * The one place that decides where a rule's page lives: the generated page in the repository,
 * on the default branch, so every link in diagnostics, SARIF and JSON opens a file that exists.
 */
export function docsUrl(id: string): string {
  return `${REPOSITORY_URL}/blob/main/${RULE_PAGES_DIR}/${id}.md`;
}

export type { Diagnostic };
