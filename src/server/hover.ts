/**
 * Hovers: on a flagged value, why it matters and the chain of assignments that made it
 * volatile; on a request call site, what the request caches and what it costs.
 */
import type { Diagnostic } from '../core/diagnostic';
import type { RequestCall } from '../core/model';
import { param } from '../core/model';
import { docsUrl } from '../core/rule';
import type { Rule } from '../core/rule';
import type { TokenEstimate } from '../core/tokens';
import { stabilityOf } from '../core/value';
import { lensTitle } from './codeLens';

const STABILITY_WORDS: Record<string, string> = {
  constant: 'constant',
  environment: 'set per environment',
  'per-request': 'changes per request',
  unordered: 'unordered (order can change between processes)',
  random: 'random on every call',
  clock: 'changes with the clock',
  unknown: 'not known statically',
};

/**
 * The hover on a flagged value: the rule and why it matters, where the value comes from, and
 * the rule's page. `repeat: false` leaves out the message and the related locations, for a
 * client whose own hover on the diagnostic already shows them (VS Code). `where(loc)` says where
 * a location is, e.g. "line 12" or "prompts.py:4".
 */
export function diagnosticHover(d: Diagnostic, rule: Rule | undefined, where: (d: Diagnostic['related'][number]) => string, opts: { repeat: boolean } = { repeat: true }): string {
  const lines = [opts.repeat ? `**prefixlint** · \`${d.ruleId}\`: ${d.message}` : `**prefixlint** · \`${d.ruleId}\``];
  if (rule) lines.push('', rule.meta.summary);
  if (opts.repeat && d.related.length) {
    lines.push('', 'Where the value comes from:');
    for (const r of d.related) lines.push(`- ${where(r)}: ${r.message}`);
  }
  lines.push('', `[Rule documentation](${docsUrl(d.ruleId)})`);
  return lines.join('\n');
}

export function callHover(call: RequestCall, e: TokenEstimate): string {
  const describe = (key: string) => {
    const v = param(call, key);
    return v ? STABILITY_WORDS[stabilityOf(v)] ?? stabilityOf(v) : 'not set';
  };
  const model = e.model ? `model \`${e.model}\`` : 'model not known statically';
  return [
    `**Messages API request** \`${call.calleeText}\` (${model}${call.framework ? `, via ${call.framework}` : ''})`,
    '',
    `The cache reuses the prefix tools → system → messages up to the last breakpoint only when every byte is identical. Tools: ${describe('tools')}; system: ${describe('system')}; ${e.breakpoints} breakpoint${e.breakpoints === 1 ? '' : 's'}.`,
    '',
    lensTitle(e),
  ].join('\n');
}
