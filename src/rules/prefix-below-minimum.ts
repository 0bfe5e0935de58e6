import { displayPath, explicitMarkers, keyedMarkers, topLevelMarker } from '../core/breakpoints';
import { defineRule } from '../core/rule';
import type { RuleContext } from '../core/rule';
import { estimateRequest } from '../core/tokens';
import { getEntry } from '../core/value';
import { caches, inFile } from './util';

/** Markers already reported in a file (one analysis = one context). */
const reported = new WeakMap<RuleContext, Set<string>>();

/** Estimates are rough: report only when the prefix is clearly below the minimum. */
const MARGIN = 0.9;

export default defineRule({
  meta: {
    id: 'prefix-below-minimum',
    group: 'cache',
    severity: 'info',
    fix: 'none',
    summary: "The estimated tokens up to the last cache breakpoint are below the model's minimum cacheable length: nothing is cached.",
    docs: `## What it does
Estimates the tokens of the cached prefix (tools, the hidden tool-use system prompt for the request's \`tool_choice\`, system and message blocks up to the last \`cache_control\` marker, or the whole request with automatic caching) and compares it with the minimum cacheable length of the model. It reports only when every part of the prefix is resolved statically and the model is written as a known literal, and only when the estimate is clearly below the minimum (under 90% of it). The estimate counts characters per token for the model's tokenizer generation (Claude Opus 4.7 and later produce about 30% more tokens for the same text); the message gives both numbers.

## Why is this bad?
A prefix shorter than the model's minimum is silently not cached: the request succeeds, \`cache_creation_input_tokens\` and \`cache_read_input_tokens\` stay 0, and every call pays full price. The minimum depends on the model (512 tokens for Claude Opus 5, 1,024 for Sonnet 4.5, 4,096 for Haiku 4.5 and Opus 4.5/4.6, as of the known-names table), so a breakpoint that works on one model does nothing on another.

## Example
\`\`\`python
import anthropic

client = anthropic.Anthropic()
SYSTEM = [
    {
        "type": "text",
        "text": "You are a terse assistant for Acme's internal wiki. Answer in one sentence.",
        "cache_control": {"type": "ephemeral"},
    }
]


def ask(question):
    return client.messages.create(
        model="claude-haiku-4-5",
        max_tokens=300,
        system=SYSTEM,
        messages=[{"role": "user", "content": question}],
    )
\`\`\`

\`\`\`ts
import Anthropic from '@anthropic-ai/sdk';

const client = new Anthropic();

export async function ask(question: string) {
  return client.messages.create({
    model: 'claude-sonnet-4-6',
    max_tokens: 300,
    system: [{ type: 'text', text: "You are a terse assistant for Acme's internal wiki.", cache_control: { type: 'ephemeral' } }],
    messages: [{ role: 'user', content: question }],
  });
}
\`\`\`

## Use instead
Drop the marker when the stable part is this short (or put it after enough shared content, such as the tool definitions and reference documents, to reach the minimum):
\`\`\`python
import anthropic

client = anthropic.Anthropic()
SYSTEM = "You are a terse assistant for Acme's internal wiki. Answer in one sentence."


def ask(question):
    return client.messages.create(
        model="claude-haiku-4-5",
        max_tokens=300,
        system=SYSTEM,
        messages=[{"role": "user", "content": question}],
    )
\`\`\`

\`\`\`ts
import Anthropic from '@anthropic-ai/sdk';

const client = new Anthropic();

export async function ask(question: string) {
  return client.messages.create({
    model: 'claude-sonnet-4-6',
    max_tokens: 300,
    system: "You are a terse assistant for Acme's internal wiki.",
    messages: [{ role: 'user', content: question }],
  });
}
\`\`\`
`,
  },

  check(call, ctx) {
    if (!caches(call)) return;
    const explicit = explicitMarkers(call);
    const top = topLevelMarker(call);
    if (!explicit.length && !top) return;
    // Markers set by assignment move the end of the prefix to a place the estimate cannot see.
    if (keyedMarkers(call, ctx.view, ctx.textOf).length) return;
    // A marker on an empty text block is a 400 (empty-text-breakpoint), not a small prefix.
    if (explicit.some((m) => { const t = getEntry(m.block?.value, 'text'); return t?.kind === 'str' && t.complete && t.text === ''; })) return;
    const e = estimateRequest(call, ctx.known);
    if (!e.prefixComplete || !e.modelInfo || e.minCacheable === undefined) return;
    if (e.prefix >= e.minCacheable * MARGIN) return;
    const last = top ?? explicit[explicit.length - 1];
    const at = inFile(ctx, last.at, call.callee);
    if (!at) return;
    // A marker shared by several requests (a module-level system block) is reported once.
    const seen = reported.get(ctx) ?? new Set<string>();
    reported.set(ctx, seen);
    if (seen.has(`${at.start}:${at.end}`)) return;
    seen.add(`${at.start}:${at.end}`);
    const toolPrompt = e.tools > 0 && e.blocks.some((b) => b.section === 'tools') ? e.tools - e.blocks.filter((b) => b.section === 'tools').reduce((n, b) => n + b.tokens, 0) : 0;
    const parts = toolPrompt > 0 ? `, including about ${toolPrompt.toLocaleString('en-US')} tokens of the hidden tool-use system prompt` : '';
    const where = top ? 'The cached prefix (the whole request, with automatic caching)' : `The prefix up to the last breakpoint (\`${displayPath(call, last.path)}\`)`;
    ctx.report({
      message: `${where} is about ${e.prefix.toLocaleString('en-US')} tokens (estimate${parts}), below the ${e.minCacheable.toLocaleString('en-US')}-token minimum cacheable length of ${e.modelInfo.family}: nothing is cached and no error is returned.`,
      at,
    });
  },
});
