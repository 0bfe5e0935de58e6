/** The rule registry as the surfaces see it: every rule, and a rule by its id. */
import type { Rule } from '../core/rule';
import { allRules } from '../rules';

export { allRules };

export function ruleById(id: string): Rule | undefined {
  return allRules.find((r) => r.meta.id === id);
}

/** Whether a name is a rule id or a rule group (what `select`, `ignore` and severities name). */
export function isRuleOrGroup(name: string): boolean {
  return allRules.some((r) => r.meta.id === name || r.meta.group === name);
}
