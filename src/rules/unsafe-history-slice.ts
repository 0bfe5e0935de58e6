import { param } from '../core/model';
import { defineRule } from '../core/rule';
import type { Trim, Value } from '../core/value';
import { inFile, paramSite } from './util';

export default defineRule({
  meta: {
    id: 'unsafe-history-slice',
    group: 'context',
    severity: 'warning',
    fix: 'sometimes',
    summary: 'Trimming the message history by a count can separate a tool_use from its tool_result: a 400 on some conversations.',
    docs: `## What it does
Finds history trimmed by a count — \`messages[-N:]\`, \`history[N:]\`, \`messages.slice(-N)\`, \`splice(0, k)\`, \`shift()\`, \`pop(0)\`, \`del messages[:k]\` — when the list is sent as a request's \`messages\`. Code that already moves the cut to a user turn, or checks \`tool_use\`/\`tool_result\` pairs, is left alone.

## Why is this bad?
A count does not know where turns begin. The cut can land between an assistant message with a \`tool_use\` and the user message with its \`tool_result\`; the API then answers 400 (\`unexpected tool_use_id found in tool_result blocks\`) — only on the conversations where the cut lands there, so it passes tests and fails in production. Every cut also rewrites the cached prefix.

## Example
\`\`\`python
import anthropic

client = anthropic.Anthropic()

def reply(history):
    return client.messages.create(
        model="claude-sonnet-4-6",
        max_tokens=1024,
        messages=history[-10:],
    )
\`\`\`

\`\`\`ts
import Anthropic from '@anthropic-ai/sdk';

const client = new Anthropic();

export async function reply(history: Anthropic.MessageParam[]) {
  return client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 1024, messages: history.slice(-10) });
}
\`\`\`

## Use instead
Cut only before a user message that is not a tool result:
\`\`\`python
import anthropic

client = anthropic.Anthropic()

def reply(history):
    start = max(0, len(history) - 10)
    while start < len(history) and history[start]["role"] != "user":
        start += 1
    return client.messages.create(
        model="claude-sonnet-4-6",
        max_tokens=1024,
        messages=history[start:],
    )
\`\`\`

\`\`\`ts
import Anthropic from '@anthropic-ai/sdk';

const client = new Anthropic();

export async function reply(history: Anthropic.MessageParam[]) {
  let start = Math.max(0, history.length - 10);
  while (start < history.length && history[start].role !== 'user') start++;
  return client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 1024, messages: history.slice(start) });
}
\`\`\`

## Fix safety
The fix replaces the slice with a call to \`trim_to_user_turn\` / \`trimToUserTurn\`, a helper it adds to the file once, which keeps at most N messages starting at a user turn that is not a tool result. It is unsafe: the model may see fewer messages than before.
`,
  },

  check(call, ctx) {
    const messages = param(call, 'messages');
    if (!messages) return;
    for (const trim of trimsOf(messages)) {
      if (trim.guarded) continue;
      const at = inFile(ctx, trim.at, paramSite(call, 'messages'));
      if (!at) continue;
      const edits = trim.kind === 'slice' && at === trim.at ? ctx.edits.replaceSliceWithTurnSafeTrim(trim.at) : undefined;
      ctx.report({
        message: `\`${trim.text}\` trims the history by count; the cut can separate a tool_use from its tool_result and the API answers 400 on those conversations. Cut at a user turn instead.`,
        at,
        fix: edits ? { title: 'Trim at a user turn', applicability: 'unsafe', edits } : undefined,
      });
    }
  },
});

function trimsOf(v: Value): Trim[] {
  const out: Trim[] = [...(v.trims ?? [])];
  if (v.kind === 'list') for (const item of v.items) if (item.trims) out.push(...item.trims);
  return out;
}
