import type { Marker } from '../core/breakpoints';
import { displayPath, explicitMarkers, lastBlock, topLevelMarker } from '../core/breakpoints';
import { defineRule } from '../core/rule';
import { caches, inFile } from './util';

const API_ERROR =
  "a ttl='1h' cache_control block must not come after a ttl='5m' cache_control block. Note that blocks are processed in the following order: `tools`, `system`, `messages`.";

export default defineRule({
  meta: {
    id: 'ttl-order',
    group: 'cache',
    severity: 'error',
    fix: 'none',
    summary: "A ttl '1h' cache_control marker after a '5m' (or default) marker in render order: the API rejects it.",
    docs: `## What it does
Reads the \`ttl\` of every \`cache_control\` marker of a request in render order (tools → system → messages, then the top-level automatic one, which lands on the last block) and reports a \`ttl: "1h"\` marker that comes after a \`ttl: "5m"\` marker or after a marker without \`ttl\` (which means 5 minutes).

## Why is this bad?
Entries with the 1-hour lifetime must come before 5-minute ones: the longer-lived prefix has to be the shorter one. The API answers a request that breaks this order with a 400: "${API_ERROR}" The common way to get there is a default (5-minute) marker on the tools and a \`"1h"\` marker on the system prompt or the conversation.

## Example
\`\`\`python
from pathlib import Path

import anthropic

client = anthropic.Anthropic()
POLICY = Path("order-policy.md").read_text()
TOOLS = [{"name": "lookup_order", "description": "Find an order by id.", "input_schema": {"type": "object", "properties": {"id": {"type": "string"}}}, "cache_control": {"type": "ephemeral"}}]


def answer(question):
    return client.messages.create(
        model="claude-sonnet-4-6",
        max_tokens=1024,
        tools=TOOLS,
        system=[{"type": "text", "text": POLICY, "cache_control": {"type": "ephemeral", "ttl": "1h"}}],
        messages=[{"role": "user", "content": question}],
    )
\`\`\`

\`\`\`ts
import Anthropic from '@anthropic-ai/sdk';
import { readFileSync } from 'node:fs';

const client = new Anthropic();
const POLICY = readFileSync('order-policy.md', 'utf8');

export async function answer(question: string) {
  return client.messages.create({
    model: 'claude-sonnet-4-6',
    max_tokens: 1024,
    system: [
      { type: 'text', text: "You are Acme's order assistant.", cache_control: { type: 'ephemeral', ttl: '5m' } },
      { type: 'text', text: POLICY, cache_control: { type: 'ephemeral', ttl: '1h' } },
    ],
    messages: [{ role: 'user', content: question }],
  });
}
\`\`\`

## Use instead
Give the earlier markers the longer lifetime (or drop the \`"1h"\` from the later one):
\`\`\`python
from pathlib import Path

import anthropic

client = anthropic.Anthropic()
POLICY = Path("order-policy.md").read_text()
TOOLS = [{"name": "lookup_order", "description": "Find an order by id.", "input_schema": {"type": "object", "properties": {"id": {"type": "string"}}}, "cache_control": {"type": "ephemeral", "ttl": "1h"}}]


def answer(question):
    return client.messages.create(
        model="claude-sonnet-4-6",
        max_tokens=1024,
        tools=TOOLS,
        system=[{"type": "text", "text": POLICY, "cache_control": {"type": "ephemeral", "ttl": "1h"}}],
        messages=[{"role": "user", "content": question}],
    )
\`\`\`

\`\`\`ts
import Anthropic from '@anthropic-ai/sdk';
import { readFileSync } from 'node:fs';

const client = new Anthropic();
const POLICY = readFileSync('order-policy.md', 'utf8');

export async function answer(question: string) {
  return client.messages.create({
    model: 'claude-sonnet-4-6',
    max_tokens: 1024,
    system: [
      { type: 'text', text: "You are Acme's order assistant.", cache_control: { type: 'ephemeral', ttl: '1h' } },
      { type: 'text', text: POLICY, cache_control: { type: 'ephemeral', ttl: '5m' } },
    ],
    messages: [{ role: 'user', content: question }],
  });
}
\`\`\`
`,
  },

  check(call, ctx) {
    if (!caches(call)) return;
    const markers: Marker[] = explicitMarkers(call).map((m) => ({ ...m, path: displayPath(call, m.path) }));
    const top = topLevelMarker(call);
    // On a last block that is already marked, a TTL mismatch is automatic-breakpoint-conflict's.
    if (top && !lastBlock(call)?.cacheControl) markers.push(top);
    let short: Marker | undefined;
    for (const m of markers) {
      if (m.ttl === '5m') {
        short ??= m;
        continue;
      }
      if (m.ttl !== '1h' || !short) continue;
      const at = inFile(ctx, m.at, call.callee);
      if (!at) continue;
      const where = m.topLevel ? 'The top-level (automatic) `cache_control`, which lands on the last block,' : `The marker on \`${m.path}\``;
      const before = short.value.kind === 'obj' && short.value.entries.some((e) => e.key === 'ttl') ? `a ttl '5m' marker on \`${short.path}\`` : `the marker on \`${short.path}\` (no \`ttl\`, so 5m)`;
      ctx.report({
        message: `${where} has ttl '1h' but comes after ${before} in render order; the API answers 400: "${API_ERROR}"`,
        at,
        related: short.at && short.at.file === ctx.file ? [{ at: short.at, message: `the earlier 5-minute marker on \`${short.path}\`` }] : [],
      });
    }
  },
});
