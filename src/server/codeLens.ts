/**
 * The token-count CodeLens above a request call site: tools / system / messages tokens, the
 * cached prefix against the model's minimum, and the price of one call cold and warm. Offline
 * estimates are labelled "≈"; an exact count from count_tokens replaces the total when enabled.
 */
import type { KnownNames } from '../core/knownNames';
import type { RequestCall } from '../core/model';
import { estimateRequest, PLACEHOLDER } from '../core/tokens';
import type { TokenEstimate } from '../core/tokens';
import { str } from '../core/value';
import type { ExactState } from './exactTokens';
import type { Settings } from './settings';

const n = (x: number) => Math.round(x).toLocaleString('en-US');

export function dollars(x: number): string {
  if (x === 0) return '$0';
  if (x >= 1) return `$${x.toFixed(2)}`;
  return `$${x.toPrecision(2).replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '')}`;
}

/** The call as the settings want it counted: the model override applied. */
export function countedCall(call: RequestCall, settings: Settings): RequestCall {
  if (!settings.tokens.model) return call;
  const model = { key: 'model', value: str(settings.tokens.model) };
  return { ...call, params: { ...call.params, entries: [...call.params.entries, model] } };
}

/** The names table with the price override applied to the model counted. */
export function pricedNames(known: KnownNames, settings: Settings): KnownNames {
  const price = settings.tokens.price;
  if (!price) return known;
  return { ...known, models: known.models.map((m) => ({ ...m, price, longPrompt: undefined })) };
}

export function estimate(call: RequestCall, known: KnownNames, settings: Settings): TokenEstimate {
  return estimateRequest(countedCall(call, settings), pricedNames(known, settings));
}

/** What the exact count adds to the title (undefined in estimate mode). */
export interface ExactView {
  state: ExactState;
  placeholders: number;
}

export function lensTitle(e: TokenEstimate, exact?: ExactView): string {
  const parts: string[] = [];
  const sections = `tools ${n(e.tools)} · system ${n(e.system)} · messages ${n(e.messages)}`;
  const plus = e.complete ? '' : '+';
  if (exact?.state.kind === 'counted') {
    const unresolved = exact.placeholders ? `, ${exact.placeholders} unresolved part${exact.placeholders === 1 ? '' : 's'} sent as ${PLACEHOLDER}` : '';
    parts.push(`${n(exact.state.tokens)} tokens (exact${unresolved}); ≈ ${sections}`);
  } else {
    parts.push(`≈ ${n(e.total)}${plus} tokens: ${sections}`);
  }
  if (e.breakpoints === 0) parts.push('no cache breakpoint');
  else if (e.minCacheable === undefined) parts.push(`cached prefix ≈ ${n(e.prefix)}`);
  else if (e.reachesMinimum) parts.push(`cached prefix ≈ ${n(e.prefix)} ≥ ${n(e.minCacheable)} min ✓`);
  else parts.push(`cached prefix ≈ ${n(e.prefix)} < ${n(e.minCacheable)} min: not cached`);
  if (e.costCold !== undefined && e.costWarm !== undefined) parts.push(`${dollars(e.costCold)} cold / ${dollars(e.costWarm)} warm`);
  else if (!e.model) parts.push('model unknown');
  if (exact?.state.kind === 'pending') parts.push('counting exactly…');
  if (exact?.state.kind === 'failed') parts.push(`exact count unavailable: ${exact.state.reason}`);
  return parts.join(' | ');
}

function blockLabel(b: TokenEstimate['blocks'][number]): string {
  const name = b.name ? ` ${b.name}` : '';
  const unresolved = b.complete === false ? ' (not resolved statically: counted as written)' : '';
  return `\`${b.path}\`${name}${unresolved}`;
}

/**
 * The breakdown as plain text, for an editor without a markdown view (the lens's command there
 * shows it as a message): the sections, the tool-use prompt inside `tools`, the prefix and cost.
 */
export function breakdownText(call: RequestCall, e: TokenEstimate, exact?: ExactView): string {
  const tools = e.blocks.filter((b) => b.section === 'tools').map((b) => `${b.name ?? b.path} ${n(b.tokens)}`);
  if (e.toolPrompt) tools.unshift(`tool-use system prompt ${n(e.toolPrompt)}`);
  const lines = [
    `${call.calleeText} (${e.model ? `model ${e.model}` : 'model not known statically'}): ${lensTitle(e, exact)}`,
    `tools ${n(e.tools)}${tools.length ? ` = ${tools.join(' + ')}` : ''}`,
    `system ${n(e.system)}, messages ${n(e.messages)}, cached prefix ${n(e.prefix)}${e.minCacheable !== undefined ? ` (minimum ${n(e.minCacheable)})` : ''}`,
    'Estimates: the real count can differ by 10-20%.',
  ];
  return lines.join('\n');
}

/** The breakdown shown when the lens is clicked. */
export function breakdownMarkdown(call: RequestCall, e: TokenEstimate, exact?: ExactView): string {
  const lines = [
    `# Tokens of \`${call.calleeText}\``,
    '',
    `Model: ${e.model ? `\`${e.model}\`` : 'unknown'}${e.complete ? '' : ' · some parts could not be resolved statically and count as nothing'}`,
    '',
  ];
  if (exact?.state.kind === 'counted') lines.push(`**Exact count (count_tokens): ${n(exact.state.tokens)} tokens.**${exact.placeholders ? ` ${exact.placeholders} unresolved part(s) were sent as \`${PLACEHOLDER}\`.` : ''}`, '');
  if (exact?.state.kind === 'failed') lines.push(`Exact count unavailable: ${exact.state.reason}.`, '');
  lines.push('| section | block | ≈ tokens | breakpoint |', '|---|---|---:|:---:|');
  const lastTool = e.blocks.map((b) => b.section).lastIndexOf('tools');
  e.blocks.forEach((b, i) => {
    lines.push(`| ${b.section} | ${blockLabel(b)} | ${n(b.tokens)} | ${b.breakpoint ? '●' : ''} |`);
    if (i === lastTool && e.toolPrompt) lines.push(`| tools | tool-use system prompt (the API adds it whenever tools are sent) | ${n(e.toolPrompt)} | |`);
  });
  lines.push(
    '',
    `| | ≈ tokens |`,
    `|---|---:|`,
    `| tools (with the hidden tool prompt) | ${n(e.tools)} |`,
    `| system | ${n(e.system)} |`,
    `| messages | ${n(e.messages)} |`,
    `| **total** | **${n(e.total)}** |`,
    `| cached prefix (up to the last breakpoint) | ${n(e.prefix)} |`,
  );
  if (e.minCacheable !== undefined) lines.push(`| minimum cacheable for this model | ${n(e.minCacheable)} |`);
  if (e.costCold !== undefined) lines.push(`| one call, cold cache | ${dollars(e.costCold)} |`);
  if (e.costWarm !== undefined) lines.push(`| one call, warm cache | ${dollars(e.costWarm)} |`);
  lines.push('', 'Estimates count characters per token for the model\'s tokenizer generation; the real count can differ by 10–20%.');
  return lines.join('\n') + '\n';
}
