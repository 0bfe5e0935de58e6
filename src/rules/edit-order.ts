import { defineRule } from '../core/rule';
import type { RuleContext } from '../core/rule';
import type { Loc, TextEdit } from '../core/span';
import type { Value } from '../core/value';
import { getEntry } from '../core/value';
import { inFile, paramSite } from './util';

const CLEAR_THINKING = 'clear_thinking_20251015';

function typeOf(edit: Value): string | undefined {
  const t = getEntry(edit, 'type');
  return t?.kind === 'str' && t.complete ? t.text : undefined;
}

export default defineRule({
  meta: {
    id: 'edit-order',
    group: 'context',
    severity: 'error',
    fix: 'sometimes',
    summary: '`clear_thinking_20251015` not first in `context_management.edits`, or a compaction trigger below the documented minimum.',
    docs: `## What it does
Checks the strategies in \`context_management.edits\`: \`clear_thinking_20251015\` must come first when there are several, and a \`compact_20260112\` trigger must be at least the documented minimum (50,000 input tokens; the minimum is kept in the known-names table).

## Why is this bad?
The API validates the list: with \`clear_thinking_20251015\` after another strategy, or a compaction trigger below the minimum, the request is rejected with a 400 — on every call, but only once the code path with context management runs, which is often a long conversation no test reaches.

## Example
\`\`\`python
import anthropic

client = anthropic.Anthropic()

response = client.beta.messages.create(
    model="claude-opus-4-7",
    max_tokens=4096,
    betas=["context-management-2025-06-27"],
    thinking={"type": "enabled", "budget_tokens": 2048},
    context_management={
        "edits": [
            {"type": "clear_tool_uses_20250919"},
            {"type": "clear_thinking_20251015", "keep": {"type": "thinking_turns", "value": 2}},
        ]
    },
    messages=[{"role": "user", "content": "Plan the migration."}],
)
\`\`\`

\`\`\`ts
import Anthropic from '@anthropic-ai/sdk';

const client = new Anthropic();

await client.beta.messages.create({
  model: 'claude-opus-4-7',
  max_tokens: 4096,
  betas: ['compact-2026-01-12'],
  context_management: { edits: [{ type: 'compact_20260112', trigger: { type: 'input_tokens', value: 20000 } }] },
  messages: [{ role: 'user', content: 'Plan the migration.' }],
});
\`\`\`

## Use instead
\`\`\`python
import anthropic

client = anthropic.Anthropic()

response = client.beta.messages.create(
    model="claude-opus-4-7",
    max_tokens=4096,
    betas=["context-management-2025-06-27"],
    thinking={"type": "enabled", "budget_tokens": 2048},
    context_management={
        "edits": [
            {"type": "clear_thinking_20251015", "keep": {"type": "thinking_turns", "value": 2}},
            {"type": "clear_tool_uses_20250919"},
        ]
    },
    messages=[{"role": "user", "content": "Plan the migration."}],
)
\`\`\`

\`\`\`ts
import Anthropic from '@anthropic-ai/sdk';

const client = new Anthropic();

await client.beta.messages.create({
  model: 'claude-opus-4-7',
  max_tokens: 4096,
  betas: ['compact-2026-01-12'],
  context_management: { edits: [{ type: 'compact_20260112', trigger: { type: 'input_tokens', value: 60000 } }] },
  messages: [{ role: 'user', content: 'Plan the migration.' }],
});
\`\`\`

## Fix safety
Moving \`clear_thinking_20251015\` to the front is safe: the request is rejected on every call as it is, that is the only order the API accepts, and the strategies do the same work in it. Raising a trigger to the minimum is unsafe: the request is rejected as it is too, but the fix chooses the number — compaction then starts at the minimum, which may not be what the code meant (a larger value, or another strategy).
`,
  },

  check(call, ctx) {
    const edits = getEntry(getEntry(call.params, 'context_management'), 'edits');
    if (edits?.kind !== 'list') return;
    const fallback = paramSite(call, 'context_management');
    edits.items.forEach((edit, i) => {
      const type = typeOf(edit);
      if (!type) return;
      if (type === CLEAR_THINKING && i > 0) {
        // Only when what comes before it is a known strategy (not a spread we cannot see).
        const first = typeOf(edits.items[0]);
        if (!first || first === CLEAR_THINKING) return;
        const at = inFile(ctx, getEntry(edit, 'type')?.at, fallback);
        if (!at) return;
        const move = edit.at && edits.at ? moveFirst(ctx, edits.at, edit.at) : undefined;
        ctx.report({
          message: `\`${CLEAR_THINKING}\` must be the first strategy in \`context_management.edits\` (here it comes after \`${first}\`); the API rejects the request with a 400.`,
          at,
          fix: move ? { title: `Move \`${CLEAR_THINKING}\` first`, applicability: 'safe', edits: move } : undefined,
        });
      }
      const min = ctx.known.editTypes.get(type)?.minTrigger;
      if (min === undefined) return;
      const trigger = getEntry(edit, 'trigger');
      const triggerType = getEntry(trigger, 'type');
      if (triggerType && !(triggerType.kind === 'str' && triggerType.complete && triggerType.text === 'input_tokens')) return;
      const value = getEntry(trigger, 'value');
      if (value?.kind !== 'num' || typeof value.value !== 'number' || value.value >= min) return;
      const at = inFile(ctx, value.at, fallback);
      if (!at) return;
      const replace = at === value.at ? replaceNumber(ctx, value.at, min) : undefined;
      ctx.report({
        message: `The \`${type}\` trigger of ${value.value.toLocaleString('en-US')} input tokens is below the documented minimum of ${min.toLocaleString('en-US')}; the API rejects the request with a 400.`,
        at,
        fix: replace ? { title: `Raise the trigger to ${min.toLocaleString('en-US')}`, applicability: 'unsafe', edits: replace } : undefined,
      });
    });
  },
});

/** The item written at `item` moved to the front of the list at `list`. */
function moveFirst(ctx: RuleContext, list: Loc, item: Loc): TextEdit[] | undefined {
  if (list.file !== ctx.file || item.file !== ctx.file) return undefined;
  const add = ctx.edits.addListItem(list, ctx.textOf(item), 0);
  const remove = ctx.edits.removeListItem(item);
  return add && remove ? [...add, ...remove] : undefined;
}

/** The number literal at `at` set to `value`, in its digit grouping (`1_000` stays grouped). */
function replaceNumber(ctx: RuleContext, at: Loc, value: number): TextEdit[] | undefined {
  if (ctx.edits.shape(at)?.kind !== 'number' || !Number.isInteger(value)) return undefined;
  const grouped = ctx.textOf(at).includes('_');
  return ctx.edits.replace(at, grouped ? String(value).replace(/\B(?=(\d{3})+(?!\d))/g, '_') : String(value));
}
