/**
 * The rule registry as the CLI shows it: selection by id or group, the `rules` table, and the
 * `explain` page (engine/docs.ts's page, rendered for a terminal).
 */
import { closeNames } from '../core/knownNames';
import { docsUrl } from '../core/rule';
import type { Rule } from '../core/rule';
import { matches } from '../engine/config';
import { orderedRules, rulePage } from '../engine/docs';
import type { Colors } from './color';
import { renderMarkdown } from './markdown';

/** Splits repeated, comma-separated option values: `--select a,b --select c` -> [a, b, c]. */
export function splitList(values: readonly string[] | undefined): string[] {
  return (values ?? []).flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean);
}

/** "unknown rule 'x' (did you mean 'y'?)" with the closest rule id, if one is close. */
function unknownRule(name: string, rules: readonly Rule[], where = ''): string {
  const close = closeNames(name, rules.map((r) => r.meta.id), Math.max(2, Math.floor(name.length / 3)));
  const hint = close.length ? ` (did you mean '${close[0]}'?)` : '';
  return `unknown rule '${name}'${where}${hint}; 'prefixlint rules' lists them`;
}

/**
 * The rules to run: all, or those `--select` names, minus those `--ignore` names. A name is a
 * rule id or a group (`cache`, `context`, `api`, `state`).
 */
export function selectRules(
  rules: readonly Rule[],
  select: readonly string[],
  ignore: readonly string[],
): { rules: Rule[] } | { error: string } {
  const groups = new Set(rules.map((r) => r.meta.group as string));
  for (const [option, names] of [
    ['--select', select],
    ['--ignore', ignore],
  ] as const) {
    for (const n of names) if (!groups.has(n) && !rules.some((r) => r.meta.id === n)) return { error: unknownRule(n, rules, ` in ${option}`) };
  }
  return { rules: rules.filter((r) => (select.length === 0 || matches(r, select)) && !matches(r, ignore)) };
}

export function findRule(rules: readonly Rule[], id: string): Rule | { error: string } {
  const rule = rules.find((r) => r.meta.id === id);
  if (rule) return rule;
  return { error: unknownRule(id, rules) };
}

export function rulesTable(rules: readonly Rule[], c: Colors): string {
  const header = ['RULE', 'GROUP', 'SEVERITY', 'FIX', 'SUMMARY'];
  const rows = orderedRules(rules).map((r) => [r.meta.id, r.meta.group, r.meta.severity, r.meta.fix, r.meta.summary]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [c.bold(line(header)), ...rows.map(line)].join('\n') + '\n';
}

export function rulesJson(rules: readonly Rule[]): string {
  const list = rules.map((r) => ({
    id: r.meta.id,
    group: r.meta.group,
    severity: r.meta.severity,
    fix: r.meta.fix,
    summary: r.meta.summary,
    url: docsUrl(r.meta.id),
  }));
  return JSON.stringify(list, null, 2) + '\n';
}

/** `prefixlint explain <id>`: the rule's page, rendered for a terminal. */
export function explainRule(rule: Rule, c: Colors): string {
  return renderMarkdown(rulePage(rule, { link: `**Docs:** ${docsUrl(rule.meta.id)}` }), c);
}
