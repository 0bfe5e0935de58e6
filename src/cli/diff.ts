/** `prefixlint diff a.json b.json` as text: the engine's RequestDiff in a few lines. */
import type { RequestDiff } from '../core/requestDiff';

const n = (x: number) => x.toLocaleString('en-US');

const SECTION_OF: Record<string, string> = {
  tool_choice: 'the first message',
  thinking: 'the first message',
  output_config: 'the first message',
  output_format: 'the first message',
  context_management: 'the first message',
  speed: 'the system prompt',
};

export function formatDiff(d: RequestDiff): string[] {
  const lines: string[] = [];
  const breakpoint = d.automatic ? 'automatic caching (top-level cache_control)' : d.lastBreakpoint ? `last breakpoint: ${d.lastBreakpoint}` : undefined;
  const diff = d.difference;
  if (!diff) {
    lines.push(`No difference in tools, system or messages: the cached prefix is reused.`);
  } else {
    if (diff.reason === 'model') {
      lines.push(`The model differs: caches are per model, so nothing is read from the cache.`);
    } else if (diff.reason === 'parameter') {
      lines.push(`\`${diff.path}\` differs: that invalidates the cache from ${SECTION_OF[diff.path] ?? 'here'} on (byte ${n(diff.byte)} in render order).`);
    } else {
      const where = diff.pathB ? `${diff.path} (in ${d.b}: ${diff.pathB})` : diff.detail !== diff.path ? `${diff.path}, at ${diff.detail}` : diff.path;
      lines.push(`First difference in render order at byte ${n(diff.byte)}: ${where}, byte ${n(diff.offsetInBlock)} of the block.`);
    }
    lines.push(`  ${d.a}: ${diff.before}`, `  ${d.b}: ${diff.after}`);
    if (!breakpoint) lines.push(`${d.a} has no cache_control marker: it cached nothing that ${d.b} could read.`);
    else if (d.breaksCache) lines.push(`It is inside the cached prefix (${breakpoint}): about ${n(d.tokensLost)} tokens from there on are no longer read from the cache (estimate).`);
    else lines.push(`It is after the cached prefix (${breakpoint}): the prefix is reused; about ${n(d.tokensAfter)} tokens after it are new (estimate).`);
  }
  if (d.keyOrder === 'ignored') lines.push(`Key order is not compared: ${d.sortedDump} has sorted keys (json.dumps(..., sort_keys=True)).`);
  if (d.otherChanges.length) lines.push(`Also different, without effect on the cached bytes: ${d.otherChanges.join(', ')}.`);
  return lines;
}
