/**
 * Markdown for a rule's documentation: the editor's read-only views (rendered offline from the
 * rule's metadata and docs), the table of all rules, and the pages in the repository
 * (docs/rules/<id>.md, written by `npm run docs`), which every diagnostic links to.
 */
import { docsUrl, RULE_PAGES_DIR } from '../core/rule';
import type { Rule } from '../core/rule';

function fixWords(rule: Rule): string {
  return rule.meta.fix === 'none' ? 'none' : `${rule.meta.fix} available`;
}

export function ruleMarkdown(rule: Rule): string {
  const m = rule.meta;
  return [
    `# ${m.id}`,
    '',
    m.summary,
    '',
    `**Group:** ${m.group} · **Severity:** ${m.severity} · **Fix:** ${fixWords(rule)} · [Page in the repository](${docsUrl(m.id)})`,
    '',
    m.docs.trim(),
    '',
  ].join('\n');
}

export function rulesMarkdown(rules: readonly Rule[]): string {
  const rows = sorted(rules).map((r) => `| [${r.meta.id}](${docsUrl(r.meta.id)}) | ${r.meta.group} | ${r.meta.severity} | ${r.meta.fix} | ${cell(r.meta.summary)} |`);
  return ['# prefixlint rules', '', '| rule | group | severity | fix | summary |', '|---|---|---|---|---|', ...rows, ''].join('\n');
}

function sorted(rules: readonly Rule[]): Rule[] {
  return [...rules].sort((a, b) => a.meta.group.localeCompare(b.meta.group) || a.meta.id.localeCompare(b.meta.id));
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|');
}

const GENERATED = (source: string) => `<!-- Generated from ${source} by \`npm run docs\`. Edit that file, not this page. -->`;

/** A rule's page in the repository: the header from its metadata, its docs, and how to turn it off. */
export function rulePage(rule: Rule): string {
  const m = rule.meta;
  return [
    GENERATED(`src/rules/${m.id}.ts`),
    '',
    `# ${m.id}`,
    '',
    m.summary,
    '',
    `**Group:** ${m.group} · **Severity:** ${m.severity} · **Fix:** ${fixWords(rule)} · **Source:** [src/rules/${m.id}.ts](../../src/rules/${m.id}.ts)`,
    '',
    m.docs.trim(),
    '',
    '## Configuration',
    '',
    `Change its severity or turn it off in \`.prefixlintrc.json\` (or \`[tool.prefixlint.rules]\` in pyproject.toml): \`"rules": { "${m.id}": "off" }\`.`,
    `Silence one finding: \`# prefixlint: disable=${m.id} -- reason\` (Python) or \`// prefixlint-disable-line ${m.id} -- reason\` (TypeScript / JavaScript).`,
    '',
  ].join('\n');
}

/** docs/rules/README.md: every rule with its group, severity, fix and summary. */
export function rulePagesIndex(rules: readonly Rule[]): string {
  const rows = sorted(rules).map((r) => `| [${r.meta.id}](${r.meta.id}.md) | ${r.meta.group} | ${r.meta.severity} | ${r.meta.fix} | ${cell(r.meta.summary)} |`);
  return [GENERATED('src/rules/'), '', '# Rules', '', '| rule | group | severity | fix | what it catches |', '|---|---|---|---|---|', ...rows, ''].join('\n');
}

/** Every generated page, by its path in the repository. */
export function rulePages(rules: readonly Rule[]): Map<string, string> {
  const pages = new Map<string, string>();
  for (const r of rules) pages.set(`${RULE_PAGES_DIR}/${r.meta.id}.md`, rulePage(r));
  pages.set(`${RULE_PAGES_DIR}/README.md`, rulePagesIndex(rules));
  return pages;
}
