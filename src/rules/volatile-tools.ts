import { param } from '../core/model';
import { defineRule } from '../core/rule';
import { allTaints } from '../core/value';
import { cachesPrefix, describe, inFile, paramSite, relatedFor, UNCACHED_POLICY, uniqueTaints } from './util';

export default defineRule({
  meta: {
    id: 'volatile-tools',
    group: 'cache',
    severity: 'error',
    fix: 'none',
    summary: 'A clock or random value in the tool definitions, or a tool list in unordered order, invalidates the whole cache.',
    docs: `## What it does
Finds clock and random values inside \`tools\` (names, descriptions, input schemas, enum lists), and tool lists whose order comes from an unordered source: a Python \`set\`, \`os.listdir\`, \`glob.glob\`, \`Path.iterdir\`, or \`fs.readdirSync\` without a sort. ${UNCACHED_POLICY}

## Why is this bad?
Tools render first, before the system prompt and the messages. Any byte that differs in a tool definition, or a different tool order, invalidates the tools, system and messages caches at once: every call is billed as a cold start. Python randomises string hashes per process, so iterating a set of tool names gives a different order in every worker.

## Example
\`\`\`python
import random
import anthropic

client = anthropic.Anthropic()
ENABLED = {"search", "calculator", "weather"}
REGISTRY = {"search": {"name": "search", "input_schema": {"type": "object"}}, "calculator": {"name": "calculator", "input_schema": {"type": "object"}}, "weather": {"name": "weather", "input_schema": {"type": "object"}}}

def run(question):
    tools = [REGISTRY[name] for name in ENABLED]
    return client.messages.create(
        model="claude-sonnet-4-6",
        max_tokens=1024,
        cache_control={"type": "ephemeral"},
        tools=tools,
        messages=[{"role": "user", "content": question}],
    )
\`\`\`

\`\`\`ts
import Anthropic from '@anthropic-ai/sdk';

const client = new Anthropic();

export async function run(question: string) {
  return client.messages.create({
    model: 'claude-sonnet-4-6',
    max_tokens: 1024,
    cache_control: { type: 'ephemeral' },
    tools: [{ name: 'lookup', description: \`Lookup (build \${Date.now()})\`, input_schema: { type: 'object' } }],
    messages: [{ role: 'user', content: question }],
  });
}
\`\`\`

## Use instead
Keep one fixed tool list in a fixed order (sorted by name) and put anything that changes in the user turn:
\`\`\`python
import anthropic

client = anthropic.Anthropic()
ENABLED = {"search", "calculator", "weather"}
REGISTRY = {"search": {"name": "search", "input_schema": {"type": "object"}}, "calculator": {"name": "calculator", "input_schema": {"type": "object"}}, "weather": {"name": "weather", "input_schema": {"type": "object"}}}

def run(question):
    tools = [REGISTRY[name] for name in sorted(ENABLED)]
    return client.messages.create(
        model="claude-sonnet-4-6",
        max_tokens=1024,
        cache_control={"type": "ephemeral"},
        tools=tools,
        messages=[{"role": "user", "content": question}],
    )
\`\`\`

\`\`\`ts
import Anthropic from '@anthropic-ai/sdk';

const client = new Anthropic();

export async function run(question: string) {
  return client.messages.create({
    model: 'claude-sonnet-4-6',
    max_tokens: 1024,
    cache_control: { type: 'ephemeral' },
    tools: [{ name: 'lookup', description: 'Lookup', input_schema: { type: 'object' } }],
    messages: [{ role: 'user', content: question }],
  });
}
\`\`\`
`,
  },

  check(call, ctx) {
    if (!cachesPrefix(call, ctx)) return;
    const tools = param(call, 'tools');
    if (!tools) return;
    const volatile = uniqueTaints(allTaints(tools).filter((t) => t.cls === 'clock' || t.cls === 'random'));
    for (const t of volatile) {
      const at = inFile(ctx, t.at, paramSite(call, 'tools'));
      if (!at) continue;
      ctx.report({
        message: `The tool definitions include ${describe(t)}, which changes on every call; tools render first, so the whole cache is invalidated.`,
        at,
        related: relatedFor(ctx, t, at),
      });
    }
    // The order of the list itself (taints on the list, not inside one tool).
    for (const t of uniqueTaints(tools.taints.filter((t) => t.kind === 'set-iteration' || t.kind === 'unsorted-listing'))) {
      const at = inFile(ctx, t.at, paramSite(call, 'tools'));
      if (!at) continue;
      const source = t.kind === 'set-iteration' ? 'a set, whose iteration order changes from process to process' : 'a directory listing, whose order the file system decides';
      ctx.report({
        message: `The tool list is ordered by \`${t.text}\`, ${source}; a different order invalidates the whole cache. Sort it.`,
        at,
        related: relatedFor(ctx, t, at),
      });
    }
  },
});
