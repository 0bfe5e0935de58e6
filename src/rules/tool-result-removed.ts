import type { Shape } from '../core/edits';
import type { FilterView } from '../core/fileView';
import { defineRule } from '../core/rule';
import type { RuleContext } from '../core/rule';
import type { Loc, TextEdit } from '../core/span';

const PLACEHOLDER = '[tool result removed]';

/**
 * What may stand between a comparison's operator and the literal it compares with: space, line
 * continuations and comments (each to the end of its line); PY_ITEMS adds brackets and the other
 * strings of a tuple, list or set (`== ("tool_result")`, `in ("text", "tool_result")`). Each part
 * matches a stretch of text one way only, so that a failing match stays linear.
 */
const PY_GAP = String.raw`(?:\s|\\|#[^\n]*(?=\n|$))*`;
const PY_STRING = String.raw`[rRbBuU]*(?:"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')`;
const PY_ITEMS = String.raw`(?:${PY_GAP}(?:[([{]|${PY_STRING}\s*,))*${PY_GAP}`;
/** A Python comparison with the literal `tool_result`: `== "tool_result"`, `in ("tool_result", ...)`, `"tool_result" != t`. */
const PY_TOOL_RESULT_TEST = new RegExp(String.raw`(?:[!=]=|\bis(?:\s+not)?|\bin)${PY_ITEMS}["']tool_result["']|["']tool_result["'](?:${PY_GAP}[)\]}])*${PY_GAP}(?:[!=]=|\bis\b)`);
const TS_COMMENT = String.raw`\/\/[^\n]*(?=\n|$)|\/\*(?:[^*]|\*(?!\/))*\*\/`;
/** The same in TypeScript and JavaScript: `=== 'tool_result'`, `'tool_result' !== t`; `['tool_result'].includes(t)` below. */
const TS_TOOL_RESULT_TEST = new RegExp(String.raw`[!=]==?(?:\s|\(|${TS_COMMENT})*["'\x60]tool_result["'\x60]|["'\x60]tool_result["'\x60](?:\s|\)|${TS_COMMENT})*[!=]==?`);

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
    // The filters it reports compare a block's type with the literal `tool_result` (a string
    // literal on one side of the comparison, or in the list that `.includes` the type), or test
    // for LangChain's `ToolMessage`; a filter is a comprehension with an `if` clause or a
    // `filter(...)` call in Python, an array's `.filter(...)` in TypeScript and JavaScript.
    triggers: {
      // The plain word first (found fast) before the patterns that start at every operator.
      python: [{ anyOf: [[/tool_result/, PY_TOOL_RESULT_TEST], /\bToolMessage\b/] }, /\b(?:if|filter)\b/],
      typescript: [/tool_result/, { anyOf: [TS_TOOL_RESULT_TEST, [/["'\x60]tool_result["'\x60]/, /\.\s*includes\b/]] }, /\bfilter\b/],
    },
    summary: 'Filtering `tool_result` blocks out of the history leaves their `tool_use` unanswered: a 400.',
    docs: `## What it does
Finds filters that drop \`tool_result\` blocks from message content — \`[b for b in msg["content"] if b["type"] != "tool_result"]\`, \`content.filter((b) => b.type !== 'tool_result')\`, \`filter(lambda b: ..., content)\` — or drop whole messages that hold one (\`not any(b["type"] == "tool_result" for b in m["content"])\`, LangChain's \`not isinstance(m, ToolMessage)\`), when the result is kept: assigned to a variable, attribute or key (\`message["content"] = ...\`), written as a dict/object entry, or returned. A filter that drops \`tool_use\` blocks together with their results is left alone, and so is one half of a partition: the same function also keeps the \`tool_result\` blocks of that content (\`results = content.filter((b) => b.type === 'tool_result')\`, to send them in a message of their own or first), and so is one whose result is only printed, counted, or assigned to a name that says it is for display (\`text\`, \`lines\`, \`preview\`, \`shown\`).

A file that sends its history to another provider — it imports that provider's SDK (OpenAI, Ollama, Gemini, Mistral, …), builds no Messages API request and imports nothing that reaches Claude — is left alone: the pairing is the Messages API's rule, not theirs.

Conditions joined with \`or\` / \`||\` are read for what either side keeps: \`b["type"] != "tool_result" or <test>\` drops the results that fail the test, and is reported, unless the test keeps a result whenever its \`tool_use\` stays (\`b["tool_use_id"] in kept_ids\`). A type read with a fallback (\`b.get("type") or ""\`, \`b.type ?? 'text'\`) is the block's type.

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
The fix turns the filter into a map that keeps each \`tool_result\` block (with its \`tool_use_id\`) and replaces its content with \`"${PLACEHOLDER}"\`. It is offered for a filter whose only condition is the type comparison, and it is unsafe: the placeholder is the fix's choice (keeping the real content, or dropping the answered \`tool_use\` blocks too, are other repairs), and the model reads it, with a few more tokens in every request. Filters that drop whole messages get no fix.
`,
  },

  checkFile(ctx) {
    if (sendsToAnotherProvider(ctx)) return;
    for (const f of ctx.view.filters) {
      if (!storesHistory(f)) continue;
      const keepsToolUse = !f.dropsTypes.includes('tool_use') && !f.dropsSometimes.includes('tool_use');
      const always = f.dropsTypes.includes('tool_result');
      // `b.type != "tool_result" or <test>`: the blocks that fail the test are dropped.
      const some = !always && f.dropsSometimes.includes('tool_result');
      const blocks = (always || some) && keepsToolUse;
      const messages = f.dropsHolding.includes('tool_result') && !f.dropsHolding.includes('tool_use');
      if (!blocks && !messages) continue;
      // A partition: the same function also takes the `tool_result` blocks of that content
      // (`results = content.filter((b) => b.type === "tool_result")`) to send on their own.
      if (blocks && !some && resultsTakenApart(ctx, f)) continue;
      const edits = blocks ? keepWithPlaceholder(ctx, f.at) : undefined;
      ctx.report({
        message: some
          ? 'This filter drops the `tool_result` blocks that fail the rest of its condition but keeps the `tool_use` blocks they answer; once it drops one, the API rejects every later request of the conversation with a 400. Keep the block and replace its content.'
          : blocks
          ? 'This filter drops `tool_result` blocks but keeps the `tool_use` blocks they answer; the API rejects every later request of the conversation with a 400. Keep the block and replace its content.'
          : 'This filter drops the messages that hold `tool_result` blocks but keeps the assistant `tool_use` blocks they answer; the API rejects every later request of the conversation with a 400.',
        at: f.at,
        fix: edits ? { title: `Keep tool_result blocks with "${PLACEHOLDER}" as content`, applicability: 'unsafe', edits } : undefined,
      });
    }
  },
});

/**
 * The function around a filter also takes the `tool_result` blocks of the same content and keeps
 * them (`results = content.filter((b) => b.type === "tool_result")`, not only counted): the
 * filter is one half of a partition, and the results go on in the other half (moved to a message
 * of their own, or in front of the rest).
 */
function resultsTakenApart(ctx: RuleContext, f: FilterView): boolean {
  const fn = ctx.view.enclosingFunction(f.at);
  if (!fn) return false;
  const iter = f.iterText.replace(/\s+/g, '');
  return ctx.view.filters.some((g) => g !== f && g.keepsOnly.includes('tool_result') && g.iterText.replace(/\s+/g, '') === iter && g.usedAs.kind !== 'other' && ctx.view.enclosingFunction(g.at) === fn);
}

/** The SDKs of other model providers, whose chat APIs do not pair `tool_use` with `tool_result` blocks. */
const OTHER_PROVIDERS = /^(?:openai|ollama|google\.generativeai|google\.genai|mistralai|cohere|groq|together|fireworks|@google\/generative-ai|@google\/genai|@mistralai\/mistralai|cohere-ai|groq-sdk|together-ai)(?:[./]|$)/;
/** Modules that send to Claude (the SDK, the frameworks prefixlint reads, anything named for it). */
const CLAUDE_MODULE = /anthropic|claude|litellm|instructor|agno|smolagents|@ai-sdk\//i;

/**
 * The file sends its history to another provider: it imports that provider's SDK, builds no
 * Messages API request, and imports nothing that reaches Claude. The API's tool pairing rule is
 * not that provider's.
 */
function sendsToAnotherProvider(ctx: RuleContext): boolean {
  if (ctx.calls.length) return false;
  const imports = ctx.view.imports;
  return imports.some((m) => OTHER_PROVIDERS.test(m)) && !imports.some((m) => CLAUDE_MODULE.test(m));
}

/** `item["type"]`, `item.type`, `item.get("type")`. */
function isTypeOf(ctx: RuleContext, at: Loc, item: string): boolean {
  const s = ctx.edits.shape(at);
  const isItem = (l: Loc) => {
    const o = ctx.edits.shape(l);
    return o?.kind === 'name' && o.name === item;
  };
  const isString = (l: Loc, value: string) => {
    const o = ctx.edits.shape(l);
    return o?.kind === 'string' && o.value === value;
  };
  if (s?.kind === 'member') return s.name === 'type' && isItem(s.object);
  if (s?.kind === 'index') return isString(s.index, 'type') && isItem(s.object);
  if (s?.kind !== 'call' || s.args.length !== 1 || s.args[0].name || s.args[0].spread) return false;
  const callee = ctx.edits.shape(s.callee);
  return callee?.kind === 'member' && callee.name === 'get' && isItem(callee.object) && isString(s.args[0].at, 'type');
}

/** `item["type"] != "tool_result"` (either way round) as the test that keeps the block instead: `item["type"] == "tool_result"`. */
function keepTest(ctx: RuleContext, condition: Shape | undefined, item: string): { test: string; literal: Loc } | undefined {
  const c = condition?.kind === 'parenthesized' ? ctx.edits.shape(condition.inner) : condition;
  if (c?.kind !== 'compare' || !(c.operator === '!=' || c.operator === '!==')) return undefined;
  const [access, literal] = isTypeOf(ctx, c.left, item) ? [c.left, c.right] : isTypeOf(ctx, c.right, item) ? [c.right, c.left] : [];
  const value = literal ? ctx.edits.shape(literal) : undefined;
  if (!access || !literal || value?.kind !== 'string' || value.value !== 'tool_result') return undefined;
  const equals = c.operator === '!==' ? '===' : '==';
  return { test: `${ctx.textOf(access)} ${equals} ${ctx.textOf(literal)}`, literal };
}

/**
 * The filter turned into a map that keeps each tool_result block with the placeholder as its content:
 * `[b for b in c if b["type"] != "tool_result"]` -> `[{**b, "content": "…"} if b["type"] == "tool_result" else b for b in c]`;
 * `c.filter((b) => b.type !== 'tool_result')` -> `c.map((b) => (b.type === 'tool_result' ? { ...b, content: '…' } : b))`.
 */
function keepWithPlaceholder(ctx: RuleContext, filter: Loc): TextEdit[] | undefined {
  const s = ctx.edits.shape(filter);
  if (s?.kind === 'comprehension') {
    const element = ctx.edits.shape(s.element);
    if (!s.item || element?.kind !== 'name' || element.name !== s.item || s.filters.length !== 1) return undefined;
    const keep = keepTest(ctx, ctx.edits.shape(s.filters[0]), s.item);
    if (!keep) return undefined;
    const content = `${ctx.edits.literal('content', keep.literal)}: ${ctx.edits.literal(PLACEHOLDER, keep.literal)}`;
    const each = ctx.edits.replace(s.element, { python: `{**${s.item}, ${content}} if ${keep.test} else ${s.item}` });
    const drop = ctx.edits.replace(s.clauses[0], '');
    return each && drop ? [...each, ...drop] : undefined;
  }
  if (s?.kind !== 'call' || s.args.length !== 1) return undefined;
  const callee = ctx.edits.shape(s.callee);
  const callback = ctx.edits.shape(s.args[0].at);
  if (callee?.kind !== 'member' || callee.name !== 'filter' || callback?.kind !== 'function' || callback.params.length !== 1 || !callback.body) return undefined;
  const item = callback.params[0];
  const keep = keepTest(ctx, ctx.edits.shape(callback.body), item);
  if (!keep) return undefined;
  const map = ctx.edits.replace(callee.nameAt, { typescript: 'map' });
  const each = ctx.edits.replace(callback.body, { typescript: `(${keep.test} ? { ...${item}, content: ${ctx.edits.literal(PLACEHOLDER, keep.literal)} } : ${item})` });
  return map && each ? [...map, ...each] : undefined;
}
