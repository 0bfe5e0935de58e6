import type { Fix } from '../core/fix';
import { betaToTypeSpelling, closeNames, LOOKS_DATED } from '../core/knownNames';
import { param, prefixBlocks } from '../core/model';
import { defineRule } from '../core/rule';
import type { RuleContext } from '../core/rule';
import type { StrValue, Value } from '../core/value';
import { getEntry } from '../core/value';

type Namespace = 'edit' | 'tool' | 'block';

const NAMESPACE_WORDS: Record<Namespace, string> = {
  edit: 'context-management edit type',
  tool: 'tool type',
  block: 'content block type',
};

export default defineRule({
  meta: {
    id: 'unknown-type',
    group: 'api',
    severity: 'error',
    fix: 'sometimes',
    summary: 'A `type` of a context-management edit, a tool or a content block that is not a known name.',
    docs: `## What it does
Checks the \`type\` of each \`context_management.edits\` entry, each \`tools\` entry and each content block in \`messages\` against the known names, and reports names that are dated but unknown, written in the beta-header spelling, or one or two letters away from a known name.

## Why is this bad?
Dated type names (\`compact_20260112\`, \`web_search_20250305\`) are checked only by the API. Python's TypedDicts accept any string at run time, so a wrong date or the header spelling (\`compact-2026-01-12\`) fails the request with a 400 on every call.

## Example
\`\`\`python
import anthropic

client = anthropic.Anthropic()

response = client.beta.messages.create(
    model="claude-opus-4-7",
    max_tokens=1024,
    betas=["compact-2026-01-12"],
    context_management={"edits": [{"type": "compact-2026-01-12"}]},
    messages=[{"role": "user", "content": "Hello"}],
)
\`\`\`

\`\`\`ts
import Anthropic from '@anthropic-ai/sdk';

const client = new Anthropic();

await client.messages.create({
  model: 'claude-sonnet-4-6',
  max_tokens: 1024,
  tools: [{ type: 'web_search_20250306', name: 'web_search' }],
  messages: [{ role: 'user', content: 'What happened today?' }],
});
\`\`\`

## Use instead
\`\`\`python
import anthropic

client = anthropic.Anthropic()

response = client.beta.messages.create(
    model="claude-opus-4-7",
    max_tokens=1024,
    betas=["compact-2026-01-12"],
    context_management={"edits": [{"type": "compact_20260112"}]},
    messages=[{"role": "user", "content": "Hello"}],
)
\`\`\`

\`\`\`ts
import Anthropic from '@anthropic-ai/sdk';

const client = new Anthropic();

await client.messages.create({
  model: 'claude-sonnet-4-6',
  max_tokens: 1024,
  tools: [{ type: 'web_search_20250305', name: 'web_search' }],
  messages: [{ role: 'user', content: 'What happened today?' }],
});
\`\`\`

## Fix safety
The fix replaces the type with the one known name it is closest to, and is offered only when there is exactly one. It is safe: the request with the unknown type fails on every call.
`,
  },

  check(call, ctx) {
    const edits = getEntry(param(call, 'context_management'), 'edits');
    if (edits?.kind === 'list') for (const e of edits.items) checkType(getEntry(e, 'type'), 'edit', ctx);
    const tools = param(call, 'tools');
    if (tools?.kind === 'list') for (const t of tools.items) checkType(getEntry(t, 'type'), 'tool', ctx);
    for (const block of prefixBlocks(call)) {
      if (block.section === 'messages' && block.value.kind === 'obj') checkType(getEntry(block.value, 'type'), 'block', ctx);
    }
  },
});

function knownFor(ns: Namespace, ctx: RuleContext): Set<string> {
  if (ns === 'edit') return new Set(ctx.known.editTypes.keys());
  if (ns === 'tool') return new Set(ctx.known.toolTypes.keys());
  return ctx.known.contentBlockTypes;
}

function checkType(v: Value | undefined, ns: Namespace, ctx: RuleContext) {
  if (v?.kind !== 'str' || !v.complete || !v.at || v.at.file !== ctx.file) return;
  const s: StrValue = v;
  const name = s.text;
  const known = knownFor(ns, ctx);
  if (known.has(name)) return;
  let suggestions: string[];
  let why: string;
  const asType = betaToTypeSpelling(name);
  if (asType && known.has(asType)) {
    suggestions = [asType];
    why = `\`${name}\` is the beta-header spelling; the ${NAMESPACE_WORDS[ns]} is \`${asType}\``;
  } else {
    const max = LOOKS_DATED.test(name) ? 3 : 2;
    suggestions = closeNames(name, known, max);
    if (!suggestions.length && !LOOKS_DATED.test(name)) return; // an undated name we know nothing about: not a guess we make
    why =
      suggestions.length === 1
        ? `Unknown ${NAMESPACE_WORDS[ns]} \`${name}\`; did you mean \`${suggestions[0]}\`?`
        : suggestions.length > 1
          ? `Unknown ${NAMESPACE_WORDS[ns]} \`${name}\`; close names: ${suggestions.map((x) => `\`${x}\``).join(', ')}`
          : `Unknown ${NAMESPACE_WORDS[ns]} \`${name}\``;
  }
  let fix: Fix | undefined;
  if (suggestions.length === 1) {
    const edits = ctx.edits.replaceStringContent(s.at!, suggestions[0]);
    if (edits) fix = { title: `Replace with \`${suggestions[0]}\``, applicability: 'safe', edits };
  }
  ctx.report({ message: `${why}${why.endsWith('?') ? '' : '.'} The API rejects it with a 400 (known names as of ${ctx.known.asOf}).`, at: s.at!, fix });
}
