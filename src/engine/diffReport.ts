/**
 * The request diff (core/requestDiff.ts) for people: the same sentences as plain text for
 * `prefixlint diff` and as markdown for the editor's "Diff Two Request Dumps" view.
 */
import { diffRequests } from '../core/requestDiff';
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

export type DiffStyle = 'text' | 'markdown';

/** Inline code in markdown that survives backticks inside it. */
function code(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return longest ? `${fence} ${text} ${fence}` : `${fence}${text}${fence}`;
}

/** The diff in a few lines: where the cached prefix breaks (if it does), and what else differs. */
export function formatDiff(d: RequestDiff, style: DiffStyle = 'text'): string[] {
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
    if (style === 'markdown') lines.push(`- ${code(d.a)}: ${code(diff.before)}\n- ${code(d.b)}: ${code(diff.after)}`);
    else lines.push(`  ${d.a}: ${diff.before}`, `  ${d.b}: ${diff.after}`);
    if (!breakpoint) lines.push(`${d.a} has no cache_control marker: it cached nothing that ${d.b} could read.`);
    else if (d.breaksCache) lines.push(`It is inside the cached prefix (${breakpoint}): about ${n(d.tokensLost)} tokens from there on are no longer read from the cache (estimate).`);
    else lines.push(`It is after the cached prefix (${breakpoint}): the prefix is reused; about ${n(d.tokensAfter)} tokens after it are new (estimate).`);
  }
  if (d.keyOrder === 'ignored') lines.push(`Key order is not compared: ${d.sortedDump} has sorted keys (json.dumps(..., sort_keys=True)).`);
  if (d.otherChanges.length) lines.push(`Also different, without effect on the cached bytes: ${d.otherChanges.join(', ')}.`);
  return lines;
}

/** The editor's view of two dumps: a heading, the names, then the diff as paragraphs (or why they cannot be compared). */
export function diffMarkdown(aText: string, bText: string, aName = 'A', bName = 'B'): string {
  const result = diffRequests({ name: aName, text: aText }, { name: bName, text: bText });
  const head = `# Request diff\n\n${code(aName)} → ${code(bName)}\n\n`;
  if ('error' in result) return `${head}${result.error}\n`;
  return `${head}${formatDiff(result, 'markdown').join('\n\n')}\n`;
}
