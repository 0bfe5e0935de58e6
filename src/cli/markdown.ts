/**
 * Renders a rule's markdown docs for a terminal: headings stand out, code blocks are indented,
 * inline markup is styled (with colour) or kept readable (without), links show their address.
 */
import type { Colors } from './color';

export function renderMarkdown(md: string, c: Colors): string {
  const out: string[] = [];
  let fence: string | undefined;
  for (const line of md.replace(/\r\n?/g, '\n').split('\n')) {
    const fenceMatch = /^\s*(```+|~~~+)\s*([\w+-]*)/.exec(line);
    if (fence !== undefined) {
      if (fenceMatch && fenceMatch[1][0] === fence[0] && fenceMatch[1].length >= fence.length && !fenceMatch[2]) {
        fence = undefined;
        continue;
      }
      out.push(line.trim() ? '    ' + c.green(line) : '');
      continue;
    }
    if (fenceMatch) {
      fence = fenceMatch[1];
      if (fenceMatch[2]) out.push(c.dim(`  ${fenceMatch[2]}:`));
      continue;
    }
    const heading = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      const text = inline(heading[2], c, false);
      if (c.enabled) out.push(c.bold(c.underline(text)));
      else out.push(text, (heading[1].length === 1 ? '=' : '-').repeat(text.length));
      continue;
    }
    const item = /^(\s*)[-*+]\s+(.*)$/.exec(line);
    if (item) {
      out.push(`${item[1]}  - ${inline(item[2], c, true)}`);
      continue;
    }
    out.push(inline(line, c, true));
  }
  // At most one blank line in a row, none at the ends.
  return out.join('\n').replace(/\n{3,}/g, '\n\n').trim() + '\n';
}

/** Inline code, bold, italics and links. Without colour, code keeps its backticks. */
function inline(text: string, c: Colors, styleCode: boolean): string {
  const parts = text.split(/(`[^`]+`)/);
  return parts
    .map((part, i) => {
      if (i % 2 === 1) return c.enabled && styleCode ? c.cyan(part.slice(1, -1)) : part;
      return part
        .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (_, label: string, url: string) => (label === url ? url : `${label} (${url})`))
        .replace(/\*\*([^*]+)\*\*|__([^_]+)__/g, (_, a?: string, b?: string) => c.bold(a ?? b ?? ''))
        .replace(/(^|[^\w*])\*([^*\s][^*]*)\*(?!\w)/g, (_, pre: string, body: string) => pre + body);
    })
    .join('');
}
