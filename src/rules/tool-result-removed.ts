import type { FilterView } from '../core/fileView';
import { defineRule } from '../core/rule';

const PLACEHOLDER = '[tool result removed]';

/** Where a filter's result is kept as history or message content (not printed, counted or searched). */
function storesHistory(f: FilterView): boolean {
  const u = f.usedAs;
  if (u.kind === 'return') return true;
  // Assigned to a variable, attribute or key: history unless it is named for display (`text`, `lines`, `preview`).
  if (u.kind === 'key' || u.kind === 'name') return !/text|line|display|preview|print|render|summary|shown/i.test(u.name ?? '');
  return false;
}

export default defineRule({
  meta: {
    id: 'tool-result-removed',
    group: 'context',
    severity: 'error',
    fix: 'sometimes',
    // The filters it reports compare a block's type with the literal `tool_result`, or test for LangChain's `ToolMessage`.
    triggers: /tool_result|ToolMessage/,
    summary: 'Filtering `tool_result` blocks out of the history leaves their `tool_use` unanswered: a 400.',
    docs: `## What it does
Finds filters that drop \`tool_result\` blocks from message content — \`[b for b in msg["content"] if b["type"] != "tool_result"]\`, \`content.filter((b) => b.type !== 'tool_result')\`, \`filter(lambda b: ..., content)\` — or drop whole messages that hold one (\`not any(b["type"] == "tool_result" for b in m["content"])\`, LangChain's \`not isinstance(m, ToolMessage)\`), when the result is kept: assigned to a variable, attribute or key (\`message["content"] = ...\`), written as a dict/object entry, or returned. A filter that drops \`tool_use\` blocks together with their results is left alone, and so is one whose result is only printed, counted, or assigned to a name that says it is for display (\`text\`, \`lines\`, \`preview\`, \`shown\`).

## Why is this bad?
Every \`tool_use\` block in an assistant message must be answered by a \`tool_result\` with the same id in the next user message. Remove the result and keep the call, and the API answers 400 (\`tool_use ids were found without tool_result blocks immediately after\`) on every later request of that conversation. To save tokens, keep the block and shrink its content; or let the API clear old results with context editing (\`clear_tool_uses_20250919\`).

## Example
\`\`\`python
def drop_tool_output(messages):
    for message in messages:
        if isinstance(message["content"], list):
            message["content"] = [b for b in message["content"] if b["type"] != "tool_result"]
    return messages
\`\`\`

\`\`\`ts
import type Anthropic from '@anthropic-ai/sdk';

export function dropToolOutput(messages: Anthropic.MessageParam[]) {
  for (const message of messages) {
    if (Array.isArray(message.content)) message.content = message.content.filter((b) => b.type !== 'tool_result');
  }
  return messages;
}
\`\`\`

## Use instead
\`\`\`python
def drop_tool_output(messages):
    for message in messages:
        if isinstance(message["content"], list):
            message["content"] = [
                {**b, "content": "[tool result removed]"} if b["type"] == "tool_result" else b
                for b in message["content"]
            ]
    return messages
\`\`\`

\`\`\`ts
import type Anthropic from '@anthropic-ai/sdk';

export function dropToolOutput(messages: Anthropic.MessageParam[]) {
  for (const message of messages) {
    if (Array.isArray(message.content)) {
      message.content = message.content.map((b) => (b.type === 'tool_result' ? { ...b, content: '[tool result removed]' } : b));
    }
  }
  return messages;
}
\`\`\`

## Fix safety
The fix turns the filter into a map that keeps each \`tool_result\` block (with its \`tool_use_id\`) and replaces its content with \`"${PLACEHOLDER}"\`. It is offered for a filter whose only condition is the type comparison, and it is unsafe: the model now sees a placeholder where it saw nothing, and the request carries a few more tokens. Filters that drop whole messages get no fix.
`,
  },

  checkFile(ctx) {
    for (const f of ctx.view.filters) {
      if (!storesHistory(f)) continue;
      const blocks = f.dropsTypes.includes('tool_result') && !f.dropsTypes.includes('tool_use');
      const messages = f.dropsHolding.includes('tool_result') && !f.dropsHolding.includes('tool_use');
      if (!blocks && !messages) continue;
      const edits = blocks ? ctx.edits.keepBlocksWithPlaceholder(f.at, 'tool_result', PLACEHOLDER) : undefined;
      ctx.report({
        message: blocks
          ? 'This filter drops `tool_result` blocks but keeps the `tool_use` blocks they answer; the API rejects every later request of the conversation with a 400. Keep the block and replace its content.'
          : 'This filter drops the messages that hold `tool_result` blocks but keeps the assistant `tool_use` blocks they answer; the API rejects every later request of the conversation with a 400.',
        at: f.at,
        fix: edits ? { title: `Keep tool_result blocks with "${PLACEHOLDER}" as content`, applicability: 'unsafe', edits } : undefined,
      });
    }
  },
});
