/**
 * The rule pages and the rule table, as markdown, from the rules' metadata and docs: the one
 * renderer behind `prefixlint explain` (rendered for a terminal by cli/rules.ts), the editor's
 * read-only views, `prefixlint rules --format markdown` (the table in README.md) and the pages in
 * the repository (docs/rules/, written by `npm run docs`), which every diagnostic links to.
 */
import { docsUrl, RULE_GROUPS, RULE_PAGES_DIR } from '../core/rule';
import type { Rule } from '../core/rule';
import { suppressionComment } from './suppressions';

/** The rules in the order the table lists them: by group (cache, context, api, state), then as registered. */
export function orderedRules(rules: readonly Rule[]): Rule[] {
  return RULE_GROUPS.flatMap((g) => rules.filter((r) => r.meta.group === g));
}

function fixWords(rule: Rule): string {
  return rule.meta.fix === 'none' ? 'none' : `${rule.meta.fix} available`;
}

export interface PageOptions {
  /** The last item of the header line, in markdown: where else the page is, or its source. */
  link?: string;
}

/** A rule's page: a header from its metadata, its docs, and how to configure or silence it. */
export function rulePage(rule: Rule, opts: PageOptions = {}): string {
  const m = rule.meta;
  const header = [`**Group:** ${m.group}`, `**Severity:** ${m.severity}`, `**Fix:** ${fixWords(rule)}`, ...(opts.link ? [opts.link] : [])].join(' · ');
  return [
    `# ${m.id}`,
    '',
    m.summary,
    '',
    header,
    '',
    m.docs.trim(),
    '',
    '## Configuration',
    '',
    `Change its severity or turn it off in \`.prefixlintrc.json\` (or \`[tool.prefixlint.rules]\` in pyproject.toml): \`"rules": { "${m.id}": "off" }\`.`,
    `Silence one finding: \`${suppressionComment('python', 'line', [m.id])} -- reason\` (Python) or \`${suppressionComment('typescript', 'line', [m.id])} -- reason\` (TypeScript / JavaScript).`,
    '',
  ].join('\n');
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|');
}

/**
 * The table of rules: id (linked to its page), group, severity, fix and what it catches. Pages
 * are the repository's, unless `href` says otherwise.
 */
export function ruleTable(rules: readonly Rule[], href: (rule: Rule) => string = (r) => docsUrl(r.meta.id)): string {
  const rows = orderedRules(rules).map((r) => `| [\`${r.meta.id}\`](${href(r)}) | ${r.meta.group} | ${r.meta.severity} | ${r.meta.fix === 'none' ? '—' : r.meta.fix} | ${cell(r.meta.summary)} |`);
  return ['| rule | group | severity | fix | what it catches |', '|---|---|---|---|---|', ...rows, ''].join('\n');
}

/** The editor's view of all rules. */
export function rulesPage(rules: readonly Rule[]): string {
  return `# prefixlint rules\n\n${ruleTable(rules)}`;
}

const TABLE_START = '<!-- The rule table: `prefixlint rules --format markdown` (npm run docs writes it here). -->\n';
const TABLE_END = '<!-- End of the rule table. -->';

/** README.md with the rule table between its markers replaced by the current one. */
export function readmeWithRuleTable(readme: string, rules: readonly Rule[]): string {
  const start = readme.indexOf(TABLE_START);
  const end = readme.indexOf(TABLE_END, start);
  if (start < 0 || end < 0) throw new Error('README.md has no rule table markers');
  return readme.slice(0, start + TABLE_START.length) + ruleTable(rules) + readme.slice(end);
}

/** The rule table in README.md, between its markers. */
export function readmeRuleTable(readme: string): string | undefined {
  const start = readme.indexOf(TABLE_START);
  const end = readme.indexOf(TABLE_END, start);
  return start < 0 || end < 0 ? undefined : readme.slice(start + TABLE_START.length, end);
}

const GENERATED = (source: string) => `<!-- Generated from ${source} by \`npm run docs\`. Edit that file, not this page. -->`;

/** Every page of docs/rules/ by its path in the repository: one per rule, and the index. */
export function repositoryPages(rules: readonly Rule[]): Map<string, string> {
  const pages = new Map<string, string>();
  for (const r of rules) {
    const source = `src/rules/${r.meta.id}.ts`;
    pages.set(`${RULE_PAGES_DIR}/${r.meta.id}.md`, `${GENERATED(source)}\n\n${rulePage(r, { link: `**Source:** [${source}](../../${source})` })}`);
  }
  pages.set(`${RULE_PAGES_DIR}/README.md`, `${GENERATED('src/rules/')}\n\n# Rules\n\n${ruleTable(rules, (r) => `${r.meta.id}.md`)}`);
  return pages;
}

/**
 * The text of src/rules/index.ts for the files of that folder: one import per rule file (every
 * `.ts` file but the registry and the rules' shared helpers), listed in file-name order. `npm run
 * docs` writes it, so that a new rule is its file and its fixtures.
 */
export function ruleRegistry(fileNames: readonly string[]): string {
  const ids = fileNames
    .filter((f) => f.endsWith('.ts') && f !== 'index.ts' && f !== 'util.ts')
    .map((f) => f.slice(0, -3))
    .sort();
  const name = (id: string) => id.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
  return [
    '/** The rule registry, written by `npm run docs` from the files of this folder (do not edit). */',
    "import type { Rule } from '../core/rule';",
    ...ids.map((id) => `import ${name(id)} from './${id}';`),
    '',
    'export const allRules: readonly Rule[] = [',
    ...ids.map((id) => `  ${name(id)},`),
    '];',
    '',
  ].join('\n');
}
