import type { Diagnostic, Severity } from '../core/diagnostic';
import type { LanguageId } from '../core/model';
import { closeNames } from '../core/knownNames';
import { defineRule, RULE_GROUPS } from '../core/rule';
import type { Rule } from '../core/rule';
import { applySuppressions } from '../core/suppress';
import type { SuppressionDirective, SuppressionProblem } from '../core/suppress';

/**
 * Its findings come from the suppression pass that the analyzer runs after every other rule
 * (`suppressFindings` below), not from a check of its own: only then is it known what each
 * suppression comment silenced.
 */
const rule = defineRule({
  meta: {
    id: 'unused-suppression',
    group: 'api',
    severity: 'warning',
    fix: 'sometimes',
    summary: 'A suppression comment that silences nothing, names an unknown rule, or does not parse.',
    docs: `## What it does
Checks every suppression comment (\`# prefixlint: disable=...\`, \`disable-next-line=\`, \`disable-file=\` in Python; \`// prefixlint-disable-line ...\`, \`-disable-next-line\`, \`-disable-file\` in TypeScript and JavaScript, also in \`/* */\` and JSX \`{/* */}\`) and reports one that silences no finding, names a rule that does not exist (or a rule group, which a suppression cannot name), names a rule twice, or is malformed.

Only rules that ran are judged: a suppression of a rule that \`--select\`, \`--ignore\` or the configuration turned off is left alone.

## Why is this bad?
A suppression outlives the finding it was written for. Once the code is fixed it silences nothing, and later it hides a new, real finding on that line without anyone deciding so. A misspelled rule id silences nothing from the start, so the finding it was meant for is still reported (or, worse, someone believes it is handled).

## Example
\`\`\`python
import anthropic

client = anthropic.Anthropic()
SYSTEM = "You are a support agent."  # prefixlint: disable=volatile-system-prompt -- the clock was removed in March

response = client.messages.create(
    model="claude-sonnet-4-6",
    max_tokens=1024,
    system=SYSTEM,
    messages=[{"role": "user", "content": "Where is my order?"}],
)
\`\`\`

\`\`\`ts
import Anthropic from '@anthropic-ai/sdk';

const client = new Anthropic();

// prefixlint-disable-next-line volatile-tool
await client.messages.create({
  model: 'claude-sonnet-4-6',
  max_tokens: 1024,
  messages: [{ role: 'user', content: 'Where is my order?' }],
});
\`\`\`

## Use instead
\`\`\`python
import anthropic

client = anthropic.Anthropic()
SYSTEM = "You are a support agent."

response = client.messages.create(
    model="claude-sonnet-4-6",
    max_tokens=1024,
    system=SYSTEM,
    messages=[{"role": "user", "content": "Where is my order?"}],
)
\`\`\`

\`\`\`ts
import Anthropic from '@anthropic-ai/sdk';

const client = new Anthropic();

await client.messages.create({
  model: 'claude-sonnet-4-6',
  max_tokens: 1024,
  messages: [{ role: 'user', content: 'Where is my order?' }],
});
\`\`\`

## Fix safety
The fix removes the comment (the whole line when the comment is alone on it), or only the useless names when the comment names other rules that it does silence. It is safe: what it removes silences nothing, so the findings stay the same. A malformed comment gets no fix, since what it was meant to say is unclear.
`,
  },
});

export default rule;

export interface SuppressInput {
  file: string;
  language: LanguageId;
  /** The analysed text. */
  text: string;
  directives: readonly SuppressionDirective[];
  diagnostics: readonly Diagnostic[];
  /** The rules that ran on the file. */
  ran: readonly Rule[];
  /** Every rule there is. */
  all: readonly Rule[];
  /** The severity a finding of a rule is reported with (configuration overrides). */
  level(ruleId: string, severity: Severity): Severity;
  /** See SuppressionOptions.anchor. */
  anchor?(offset: number): { start: number; end: number };
}

/**
 * Drops the findings that suppression comments silence and, when this rule ran, adds a finding
 * for each suppression problem (unless a suppression of `unused-suppression` silences it).
 */
export function suppressFindings(input: SuppressInput): Diagnostic[] {
  if (input.directives.length === 0) return [...input.diagnostics];
  const ruleIds = new Set(input.all.map((r) => r.meta.id));
  const result = applySuppressions(input.text, input.directives, input.diagnostics, {
    ran: new Set(input.ran.map((r) => r.meta.id)),
    ruleIds,
    groups: new Set<string>(RULE_GROUPS),
    anchor: input.anchor,
  });
  if (!input.ran.includes(rule)) return result.kept;
  const severity = input.level(rule.meta.id, rule.meta.severity);
  const out = [...result.kept];
  for (const p of result.problems) {
    if (result.silences(rule.meta.id, p.at.start)) continue;
    out.push({
      ruleId: rule.meta.id,
      severity,
      message: message(p, ruleIds),
      at: { file: input.file, start: p.at.start, end: p.at.end },
      fix: p.kind === 'malformed' ? undefined : { title: fixTitle(p), applicability: 'safe', edits: p.fix },
      related: [],
    });
  }
  return out;
}

const WHERE = { line: 'on this line', 'next-line': 'on the next line', file: 'in this file' } as const;

function quoteList(names: readonly string[]): string {
  return names.map((n) => `\`${n}\``).join(', ');
}

function message(p: SuppressionProblem, ruleIds: ReadonlySet<string>): string {
  switch (p.kind) {
    case 'unused': {
      const ids = p.names.map((n) => n.name);
      return `Unused suppression: no ${quoteList(ids)} finding ${WHERE[p.directive.scope]} to silence.`;
    }
    case 'unknown': {
      const name = p.name.name;
      if (p.isGroup) return `\`${name}\` is a rule group; a suppression names rules (\`prefixlint rules\` lists them), so this one silences nothing.`;
      const close = closeNames(name, ruleIds, Math.max(2, Math.floor(name.length / 3)));
      const hint = close.length ? ` (did you mean \`${close[0]}\`?)` : '';
      return `Unknown rule \`${name}\` in a suppression${hint}: it silences nothing.`;
    }
    case 'duplicate':
      return `\`${p.name.name}\` is named twice in this suppression.`;
    case 'malformed':
      return `Malformed suppression comment: ${p.directive.malformed}.${p.directive.expected ? ` Expected ${p.directive.expected}.` : ''}`;
  }
}

function fixTitle(p: Exclude<SuppressionProblem, { kind: 'malformed' }>): string {
  const kept = p.fix.length === 1 ? p.fix[0].newText : '';
  return kept ? `Keep only ${quoteList(kept.split(/\s*,\s*/))} in the suppression` : 'Remove the suppression comment';
}
