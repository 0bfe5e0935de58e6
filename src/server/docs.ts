/**
 * Markdown for the editor's read-only views: a rule's page (rendered offline from the rule's
 * metadata and docs) and the table of all rules.
 */
import { docsUrl } from '../core/rule';
import type { Rule } from '../core/rule';

export function ruleMarkdown(rule: Rule): string {
  const m = rule.meta;
  const fix = m.fix === 'none' ? 'none' : `${m.fix} available`;
  return [
    `# ${m.id}`,
    '',
    m.summary,
    '',
    `**Group:** ${m.group} · **Severity:** ${m.severity} · **Fix:** ${fix} · [Online page](${docsUrl(m.id)})`,
    '',
    m.docs.trim(),
    '',
  ].join('\n');
}

export function rulesMarkdown(rules: readonly Rule[]): string {
  const rows = [...rules]
    .sort((a, b) => a.meta.group.localeCompare(b.meta.group) || a.meta.id.localeCompare(b.meta.id))
    .map((r) => `| [${r.meta.id}](${docsUrl(r.meta.id)}) | ${r.meta.group} | ${r.meta.severity} | ${r.meta.fix} | ${r.meta.summary.replace(/\|/g, '\\|')} |`);
  return ['# prefixlint rules', '', '| rule | group | severity | fix | summary |', '|---|---|---|---|---|', ...rows, ''].join('\n');
}
