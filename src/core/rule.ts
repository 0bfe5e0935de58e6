/**
 * A rule is one file: metadata, messages, fix title, docs text, the check and the fix.
 */
import type { Diagnostic, Related, Severity } from './diagnostic';
import type { EditBuilder } from './edits';
import type { FileView } from './fileView';
import type { Fix } from './fix';
import type { KnownNames } from './knownNames';
import type { RequestCall } from './model';
import type { Loc } from './span';
import type { LanguageId } from './model';

export const RULE_GROUPS = ['cache', 'context', 'api', 'state'] as const;
export type RuleGroup = (typeof RULE_GROUPS)[number];

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
   * there — words of its own (a regex; with several, each must match), or `'requests'` when it
   * reports only about the file's request calls. The engine skips the rule in other files (and
   * parses no file that no rule needs). A rule with only `check` needs none: it runs where
   * request calls are found.
   */
  triggers?: RegExp | readonly RegExp[] | 'requests';
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
  /** Calls, functions, loops and conditions of the whole file, for rules that look beyond one request. */
  readonly view: FileView;
  /** Every request call site of the file. */
  readonly calls: readonly RequestCall[];
  /** The source text of a location in any analysed file (for messages). */
  textOf(at: Loc): string;
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


/** The one place that decides where a rule's page lives. */
export function docsUrl(id: string): string {
  return `https://prefixlint.dev/rules/${id}`;
}

export type { Diagnostic };
