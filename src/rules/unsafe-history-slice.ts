import type { Shape } from '../core/edits';
import { param } from '../core/model';
import type { RequestCall } from '../core/model';
import { defineRule } from '../core/rule';
import type { RuleContext } from '../core/rule';
import type { Loc, TextEdit } from '../core/span';
import type { Trim, Value } from '../core/value';
import { fileText, inFile, paramSite } from './util';

export default defineRule({
  meta: {
    id: 'unsafe-history-slice',
    group: 'context',
    severity: 'warning',
    fix: 'sometimes',
    summary: 'Trimming the message history by a count can separate a tool_use from its tool_result: a 400 on some conversations.',
    docs: `## What it does
Finds history trimmed by a count — \`messages[-N:]\`, \`history[N:]\`, \`messages.slice(-N)\`, \`splice(0, k)\`, \`shift()\`, \`pop(0)\`, \`del messages[:k]\` — when the list is sent as a request's \`messages\`. Code that already moves the cut to a user turn, or checks \`tool_use\`/\`tool_result\` pairs, is left alone.

Two cuts are not trims of the conversation and are not reported:
- \`messages[1:]\` / \`messages.slice(1)\` that takes off a leading system entry: the list's first item is written as a \`system\` (or \`developer\`) message, or the function reads that first item itself (\`system=messages[0]["content"]\`, the OpenAI-style list converted to the Messages API).
- A cut in a request that can hold no tool blocks: it sends no \`tools\`, \`tool_choice\` or \`mcp_servers\` (and no parameter is hidden behind \`**kwargs\` or a spread), and neither the file that sends it nor the file that trims it builds or reads tool blocks. The API rejects \`tool_use\`/\`tool_result\` blocks in a request without tools, so such a cut cannot separate a pair, and the Claude API accepts a history that starts with an assistant turn (Amazon Bedrock does not: there, cut at a user turn anyway).

## Why is this bad?
A count does not know where turns begin. The cut can land between an assistant message with a \`tool_use\` and the user message with its \`tool_result\`; the API then answers 400 (\`unexpected tool_use_id found in tool_result blocks\`) — only on the conversations where the cut lands there, so it passes tests and fails in production. Every cut also rewrites the cached prefix.

## Example
\`\`\`python
import anthropic

client = anthropic.Anthropic()

def reply(history, tools):
    return client.messages.create(
        model="claude-sonnet-4-6",
        max_tokens=1024,
        tools=tools,
        messages=history[-10:],
    )
\`\`\`

\`\`\`ts
import Anthropic from '@anthropic-ai/sdk';

const client = new Anthropic();

export async function reply(history: Anthropic.MessageParam[], tools: Anthropic.Tool[]) {
  return client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 1024, tools, messages: history.slice(-10) });
}
\`\`\`

## Use instead
Cut only before a user message that is not a tool result:
\`\`\`python
import anthropic

client = anthropic.Anthropic()

def reply(history, tools):
    start = max(0, len(history) - 10)
    while start < len(history) and history[start]["role"] != "user":
        start += 1
    return client.messages.create(
        model="claude-sonnet-4-6",
        max_tokens=1024,
        tools=tools,
        messages=history[start:],
    )
\`\`\`

\`\`\`ts
import Anthropic from '@anthropic-ai/sdk';

const client = new Anthropic();

export async function reply(history: Anthropic.MessageParam[], tools: Anthropic.Tool[]) {
  let start = Math.max(0, history.length - 10);
  while (start < history.length && history[start].role !== 'user') start++;
  return client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 1024, tools, messages: history.slice(start) });
}
\`\`\`

## Fix safety
The fix replaces the slice with a call to \`trim_to_user_turn\` / \`trimToUserTurn\`, a helper it adds to the file once, which keeps about N messages starting at a user turn that is not a tool result. It is unsafe: the cut moves back to that turn, so the model can see more messages than the N the code asked for — also on the conversations where the old cut did no harm.
`,
  },

  check(call, ctx) {
    const messages = param(call, 'messages');
    if (!messages) return;
    for (const trim of trimsOf(messages)) {
      if (trim.guarded || holdsNoToolBlocks(call, trim, ctx)) continue;
      const at = inFile(ctx, trim.at, paramSite(call, 'messages'));
      if (!at) continue;
      const edits = trim.kind === 'slice' && at === trim.at ? trimAtUserTurn(trim.at, ctx) : undefined;
      ctx.report({
        message: `\`${trim.text}\` trims the history by count; the cut can separate a tool_use from its tool_result and the API answers 400 on those conversations. Cut at a user turn instead.`,
        at,
        fix: edits ? { title: 'Trim at a user turn', applicability: 'unsafe', edits } : undefined,
      });
    }
  },
});

/** Words of code that builds, reads or converts tool blocks (Anthropic's, or another provider's tool calls turned into them). */
const TOOL_BLOCK_WORD = /tool_use|tool_result|tool-use|tool-result|toolUse|toolResult|tool_call|toolCall|function_call|functionCall/;
/** Parameters that give a request tools, whose blocks a history can then hold. */
const TOOL_PARAMS = ['tools', 'tool_choice', 'mcp_servers'];

/**
 * A conversation that can hold no tool blocks: the request sends no tools (and no parameter is
 * hidden from us), and neither the file that sends it nor the file that trims it has code that
 * builds or reads tool blocks. The API rejects tool_use and tool_result blocks in a request
 * without tools, so a cut there cannot separate a pair, and the first-party API accepts a history
 * that starts with an assistant turn.
 */
function holdsNoToolBlocks(call: RequestCall, trim: Trim, ctx: RuleContext): boolean {
  if (call.framework || call.method === 'tool_runner' || call.method === 'batch' || !call.params.complete) return false;
  if (TOOL_PARAMS.some((k) => param(call, k))) return false;
  for (const file of new Set([call.file, trim.at.file])) {
    if (TOOL_BLOCK_WORD.test(fileText(ctx, file))) return false;
  }
  return true;
}

function trimsOf(v: Value): Trim[] {
  const out: Trim[] = [...(v.trims ?? [])];
  if (v.kind === 'list') for (const item of v.items) if (item.trims) out.push(...item.trims);
  return out;
}

const PYTHON_TRIM = `def trim_to_user_turn(messages, max_messages):
    """Keep about max_messages, starting at a user turn that is not a tool_result.

    Cutting history by count alone can separate a tool_use from its tool_result,
    which the Messages API rejects with a 400.
    """
    start = max(0, len(messages) - max_messages)
    # Move the cut back to the nearest user turn that is not a tool result.
    while start > 0:
        message = messages[start]
        content = message.get("content")
        is_tool_result = isinstance(content, list) and any(
            isinstance(block, dict) and block.get("type") == "tool_result" for block in content
        )
        if message.get("role") == "user" and not is_tool_result:
            break
        start -= 1
    return messages[start:]
`;

const TYPESCRIPT_TRIM = `/** Keeps about maxMessages, starting at a user turn that is not a tool_result (a cut by count alone can separate a tool_use from its tool_result: 400). */
function trimToUserTurn<T extends { role: string; content: unknown }>(messages: T[], maxMessages: number): T[] {
  let start = Math.max(0, messages.length - maxMessages);
  // Move the cut back to the nearest user turn that is not a tool result.
  while (start > 0) {
    const { role, content } = messages[start];
    const isToolResult = Array.isArray(content) && content.some((block) => (block as { type?: string } | null)?.type === 'tool_result');
    if (role === 'user' && !isToolResult) break;
    start--;
  }
  return messages.slice(start);
}
`;

const JAVASCRIPT_TRIM = `/** Keeps about maxMessages, starting at a user turn that is not a tool_result (a cut by count alone can separate a tool_use from its tool_result: 400). */
function trimToUserTurn(messages, maxMessages) {
  let start = Math.max(0, messages.length - maxMessages);
  // Move the cut back to the nearest user turn that is not a tool result.
  while (start > 0) {
    const { role, content } = messages[start];
    const isToolResult = Array.isArray(content) && content.some((block) => block?.type === 'tool_result');
    if (role === 'user' && !isToolResult) break;
    start--;
  }
  return messages.slice(start);
}
`;

const HELPER = { python: 'trim_to_user_turn', typescript: 'trimToUserTurn' } as const;

/** A name or a chain of names (`history`, `self.messages`): written twice in the fix without being evaluated twice differently. */
function plain(s: Shape | undefined, ctx: RuleContext): boolean {
  if (s?.kind === 'name') return true;
  return s?.kind === 'member' && plain(ctx.edits.shape(s.object), ctx);
}

/** How many messages a slice keeps: `-10` -> `10`, `-k` -> `k`, `N` (drop the first N) -> `len(x) - N` / `x.length - N`. */
function countOf(lower: Loc, list: string, ctx: RuleContext): { python: string; typescript: string } | undefined {
  const s = ctx.edits.shape(lower);
  const rest = (n: string) => ({ python: `len(${list}) - ${n}`, typescript: `${list}.length - ${n}` });
  if (s?.kind === 'number') return s.value < 0 ? { python: String(-s.value), typescript: String(-s.value) } : rest(String(s.value));
  if (s?.kind === 'negative') {
    const n = ctx.textOf(s.operand);
    const written = plain(ctx.edits.shape(s.operand), ctx) ? n : `(${n})`;
    return { python: written, typescript: written };
  }
  return plain(s, ctx) ? rest(ctx.textOf(lower)) : undefined;
}

/** `history[-10:]` / `history.slice(-10)` -> `trim_to_user_turn(history, 10)` / `trimToUserTurn(history, 10)`, with the helper added once. */
function trimAtUserTurn(slice: Loc, ctx: RuleContext): TextEdit[] | undefined {
  const s = ctx.edits.shape(slice);
  let list: Loc;
  let lower: Loc;
  if (s?.kind === 'slice' && s.lower && !s.upper) {
    list = s.object;
    lower = s.lower;
  } else if (s?.kind === 'call' && s.args.length === 1 && !s.args[0].spread && !s.args[0].name) {
    const callee = ctx.edits.shape(s.callee);
    if (callee?.kind !== 'member' || callee.name !== 'slice') return undefined;
    list = callee.object;
    lower = s.args[0].at;
  } else return undefined;
  if (!plain(ctx.edits.shape(list), ctx)) return undefined;
  const listText = ctx.textOf(list);
  const count = countOf(lower, listText, ctx);
  if (!count) return undefined;
  const call = ctx.edits.replace(slice, { python: `${HELPER.python}(${listText}, ${count.python})`, typescript: `${HELPER.typescript}(${listText}, ${count.typescript})` });
  const helper = ctx.edits.ensureHelper(HELPER, { python: PYTHON_TRIM, typescript: TYPESCRIPT_TRIM, javascript: JAVASCRIPT_TRIM });
  return call && helper ? [...call, ...helper] : undefined;
}
