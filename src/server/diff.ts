/**
 * "Diff two request dumps" for the editor: the first difference in render order (tools, system,
 * messages) between two dumped request bodies, and roughly how many tokens after it lose the
 * cache. A stand-in until the CLI's `prefixlint diff` (issue 4) exists in the engine; the editor
 * command then calls that instead.
 */
import { textTokens } from '../core/tokens';

interface Block {
  path: string;
  json: string;
}

function blocks(body: Record<string, unknown>): Block[] {
  const out: Block[] = [];
  const add = (path: string, v: unknown) => out.push({ path, json: JSON.stringify(v) ?? 'null' });
  const list = (key: string, v: unknown) => (Array.isArray(v) ? v.forEach((x, i) => add(`${key}[${i}]`, x)) : v !== undefined && add(key, v));
  list('tools', body.tools);
  list('system', body.system);
  const messages = body.messages;
  if (Array.isArray(messages)) {
    messages.forEach((m, i) => {
      const content = (m as { content?: unknown })?.content;
      if (Array.isArray(content)) {
        add(`messages[${i}].role`, (m as { role?: unknown }).role);
        content.forEach((c, j) => add(`messages[${i}].content[${j}]`, c));
      } else add(`messages[${i}]`, m);
    });
  } else if (messages !== undefined) add('messages', messages);
  return out;
}

function parse(text: string, name: string): Record<string, unknown> | string {
  try {
    const v: unknown = JSON.parse(text);
    if (!v || typeof v !== 'object' || Array.isArray(v)) return `${name} is not a JSON object`;
    // A dump may wrap the body (`{"params": {...}}` or `{"body": {...}}`).
    const o = v as Record<string, unknown>;
    for (const k of ['params', 'body', 'request']) if (o[k] && typeof o[k] === 'object' && !('messages' in o)) return o[k] as Record<string, unknown>;
    return o;
  } catch (err) {
    return `${name} is not valid JSON (${err instanceof Error ? err.message : String(err)})`;
  }
}

export function diffMarkdown(aText: string, bText: string, aName = 'A', bName = 'B'): string {
  const a = parse(aText, aName);
  const b = parse(bText, bName);
  if (typeof a === 'string' || typeof b === 'string') return `# Request diff\n\n${[a, b].filter((x) => typeof x === 'string').join('\n\n')}\n`;
  const head = `# Request diff\n\n\`${aName}\` → \`${bName}\`\n\n`;
  if (a.model !== b.model) return `${head}The **model** differs (\`${String(a.model)}\` → \`${String(b.model)}\`): nothing is shared in the cache.\n`;
  const ab = blocks(a);
  const bb = blocks(b);
  for (let i = 0; i < Math.max(ab.length, bb.length); i++) {
    const x = ab[i];
    const y = bb[i];
    if (x && y && x.path === y.path && x.json === y.json) continue;
    const path = x?.path ?? y?.path ?? '';
    let at = 0;
    if (x && y) while (at < x.json.length && x.json[at] === y.json[at]) at++;
    const rest = bb.slice(i).map((blk) => blk.json).join('').slice(at);
    const before = x ? x.json.slice(Math.max(0, at - 30), at + 30) : '(missing)';
    const after = y ? y.json.slice(Math.max(0, at - 30), at + 30) : '(missing)';
    return `${head}First difference in render order: \`${path}\`, character ${at} of the block.\n\n- ${aName}: \`${before}\`\n- ${bName}: \`${after}\`\n\nAbout ${textTokens(rest).toLocaleString('en-US')} tokens after this point are not read from the cache.\n`;
  }
  return `${head}No difference in tools, system or messages: the prefix is byte-identical.\n`;
}
