import { hasBreakpoint } from '../core/breakpoints';
import { hasFixedText, perRequestStrength } from '../core/evidence';
import { param } from '../core/model';
import type { RequestCall } from '../core/model';
import { defineRule } from '../core/rule';
import type { RuleContext } from '../core/rule';
import type { Taint } from '../core/value';
import { allTaints } from '../core/value';
import { caches, inFile, paramSite, relatedFor, UNCACHED_POLICY } from './util';

export default defineRule({
  meta: {
    id: 'per-user-prefix',
    group: 'cache',
    severity: 'warning',
    fix: 'none',
    summary: 'tools or system chosen per user or per request (a filtered tool list, a per-customer system prompt), so users do not share the cached prefix.',
    docs: `## What it does
Finds \`tools\` and \`system\` values that are picked per user or per request in a request that uses caching: a tool list filtered by the user's permissions (\`[t for t in TOOLS if t["name"] in user.scopes]\`, \`TOOLS.filter((t) => user.scopes.includes(t.name))\`), loaded for the user, or reranked against each prompt (\`reranker.rerank(prompt, TOOLS)\`, also when the agent that reranks them hands them to a provider class in another file), and a system prompt looked up by a request field (\`PROMPTS[customer.plan]\`, \`A if user.is_admin else B\`) or loaded per customer. A lookup among a few written variants is reported as info; a filtered tool list or a prompt loaded per user as a warning. Per-request text written into a fixed template is \`dynamic-content-before-breakpoint\`. ${UNCACHED_POLICY}

## Why is this bad?
Tools render first and the system prompt second, so they are position 0 of every cached prefix. When they differ between users, every user (or every combination of permissions) writes a private cache entry and pays the 1.25× write, and the conversation history after them can only hit that user's own entries. A fixed tool list and a fixed system prompt are shared by all traffic; the per-user part belongs in the user turn, and disallowed tools are better refused when the model calls them.

## Example
\`\`\`python
import anthropic
from acme.tools import ALL_TOOLS

client = anthropic.Anthropic()


def run(user, history):
    allowed = [t for t in ALL_TOOLS if t["name"] in user.scopes]
    return client.messages.create(
        model="claude-sonnet-4-6",
        max_tokens=1024,
        tools=allowed,
        messages=history,
        cache_control={"type": "ephemeral"},
    )
\`\`\`

\`\`\`ts
import Anthropic from '@anthropic-ai/sdk';
import { ALL_TOOLS } from './tools';

const client = new Anthropic();

export async function run(user: { scopes: string[] }, history: Anthropic.MessageParam[]) {
  return client.messages.create({
    model: 'claude-sonnet-4-6',
    max_tokens: 1024,
    tools: ALL_TOOLS.filter((t) => user.scopes.includes(t.name)),
    messages: history,
    cache_control: { type: 'ephemeral' },
  });
}
\`\`\`

## Use instead
Send every tool and check permissions when a tool is called:
\`\`\`python
import anthropic
from acme.tools import ALL_TOOLS

client = anthropic.Anthropic()


def run(user, history):
    return client.messages.create(
        model="claude-sonnet-4-6",
        max_tokens=1024,
        tools=ALL_TOOLS,
        messages=history,
        cache_control={"type": "ephemeral"},
    )
\`\`\`

\`\`\`ts
import Anthropic from '@anthropic-ai/sdk';
import { ALL_TOOLS } from './tools';

const client = new Anthropic();

export async function run(user: { scopes: string[] }, history: Anthropic.MessageParam[]) {
  return client.messages.create({
    model: 'claude-sonnet-4-6',
    max_tokens: 1024,
    tools: ALL_TOOLS,
    messages: history,
    cache_control: { type: 'ephemeral' },
  });
}
\`\`\`
`,
  },

  check(call, ctx) {
    if (!caches(call) || !hasBreakpoint(call, ctx.view, ctx.textOf)) return;
    checkSection(call, ctx, 'tools');
    checkSection(call, ctx, 'system');
  },
});

function checkSection(call: RequestCall, ctx: RuleContext, section: 'tools' | 'system'): void {
  const v = param(call, section);
  if (!v) return;
  const counts = (t: Taint) => perRequestStrength(ctx.view, t, call);
  const taints = allTaints(v);
  const filter = taints.find((t) => t.kind === 'filter' && counts(t) !== 'no');
  const selector = taints.find((t) => t.kind === 'selector' && counts(t) !== 'no');
  // The whole value comes per user (no fixed part to keep): `system=load_customer_prompt(id)`.
  const whole = !hasFixedText(v) ? taints.find((t) => !t.embed && (t.kind === 'retrieval' || t.kind === 'parameter') && counts(t) === 'certain') : undefined;
  const t = filter ?? whole ?? selector;
  if (!t) return;
  const at = inFile(ctx, v.at, paramSite(call, section));
  if (!at) return;
  const by = `\`${t.text}\``;
  let message: string;
  if (t === filter) {
    message =
      section === 'tools'
        ? `\`tools\` is filtered per request (by ${by}): every distinct tool set is a separate cache entry at position 0, so users with different permissions never share the cached prefix. Send one fixed tool list and refuse disallowed tool calls in code.`
        : `\`system\` is filtered per request (by ${by}): every distinct set of system blocks is a separate cache entry at the start of the prefix, so users who get different blocks never share the cached prefix. Send the same system blocks to everyone and put what differs per user in the user turn.`;
  } else if (t === whole) {
    message = `\`${section}\` is loaded per user or request (${by}): it sits at the start of the cached prefix, so every user writes a private cache entry. Keep \`${section}\` the same for everyone and put the per-user part in the user turn.`;
  } else {
    message = `\`${section}\` is picked per request (by ${by}): each variant is its own cache entry at the start of the prefix, so requests of different variants never share it. With a few variants this is fine; otherwise keep one \`${section}\` and put the variant's instructions in the user turn.`;
  }
  ctx.report({ message, at, related: relatedFor(ctx, t, at), severity: t === selector ? 'info' : 'warning' });
}

