import type { Fix } from '../core/fix';
import type { BetaInfo } from '../core/knownNames';
import { param } from '../core/model';
import type { RequestCall } from '../core/model';
import { defineRule } from '../core/rule';
import type { RuleContext } from '../core/rule';
import type { Loc, TextEdit } from '../core/span';
import type { Value } from '../core/value';
import { getEntry } from '../core/value';
import { inFile, paramSite } from './util';

/** Clients of other platforms, where a feature can reach general availability later than on the Claude API. */
const PLATFORM_CLIENT = /(Bedrock|Vertex|Foundry|AnthropicAws|AnthropicAWS)/;

export default defineRule({
  meta: {
    id: 'stale-beta',
    group: 'api',
    severity: 'info',
    fix: 'sometimes',
    summary: 'A beta name for a feature that is generally available now, or a deprecated one: not needed, and rejected on some routes.',
    docs: `## What it does
Finds beta names in \`betas=[...]\` / \`betas: [...]\` and in \`anthropic-beta\` headers (per call, on the client, or in LiteLLM's \`extra_headers\`) whose feature is generally available now — \`prompt-caching-2024-07-31\`, \`extended-cache-ttl-2025-04-11\`, \`token-counting-2024-11-01\`, \`message-batches-2024-09-24\`, \`pdfs-2024-09-25\`, … — and says since when. Which names are GA, and since when, comes from the known-names table (its date is in the message). Deprecated names that the API still accepts (\`token-efficient-tools-2025-02-19\`, \`mcp-client-2025-04-04\`, …) are reported too, with the name that replaces them. Names that are not known at all are \`unknown-beta\`'s findings, never this rule's: a stale name is never an error.


Names the pinned SDK no longer lists because they were retired or graduated earlier (\`tools-2024-04-04\`, \`tools-2024-05-16\`, the tool-use betas) come from a short hand-kept list in which each name has a source; the message names it.

## Why is this bad?
A stale name does nothing on the Claude API, but it is not harmless: some routes reject names they do not know any more (\`prompt-caching-2024-07-31\` sent through LiteLLM to Vertex answers 400 \`Unexpected value(s) for the anthropic-beta header\`), and every distinct set of beta headers is a different request shape for cache diagnostics. Copying it forward also keeps code on the beta client for no reason.

## Example
\`\`\`python
import anthropic

client = anthropic.Anthropic()

response = client.beta.messages.create(
    model="claude-sonnet-4-6",
    max_tokens=1024,
    betas=["prompt-caching-2024-07-31"],
    system=[{"type": "text", "text": "You review contracts.", "cache_control": {"type": "ephemeral", "ttl": "1h"}}],
    messages=[{"role": "user", "content": "Summarize clause 4."}],
)
\`\`\`

\`\`\`ts
import Anthropic from '@anthropic-ai/sdk';

const client = new Anthropic({ defaultHeaders: { 'anthropic-beta': 'extended-cache-ttl-2025-04-11' } });

await client.messages.create({
  model: 'claude-sonnet-4-6',
  max_tokens: 1024,
  system: [{ type: 'text', text: 'You review contracts.', cache_control: { type: 'ephemeral', ttl: '1h' } }],
  messages: [{ role: 'user', content: 'Summarize clause 4.' }],
});
\`\`\`

## Use instead
\`\`\`python
from pathlib import Path

import anthropic

client = anthropic.Anthropic()
CONTRACT_GUIDE = Path("contract-guide.md").read_text()

response = client.messages.create(
    model="claude-sonnet-4-6",
    max_tokens=1024,
    system=[{"type": "text", "text": CONTRACT_GUIDE, "cache_control": {"type": "ephemeral", "ttl": "1h"}}],
    messages=[{"role": "user", "content": "Summarize clause 4."}],
)
\`\`\`

\`\`\`ts
import Anthropic from '@anthropic-ai/sdk';
import { readFileSync } from 'node:fs';

const client = new Anthropic();
const contractGuide = readFileSync('contract-guide.md', 'utf8');

await client.messages.create({
  model: 'claude-sonnet-4-6',
  max_tokens: 1024,
  system: [{ type: 'text', text: contractGuide, cache_control: { type: 'ephemeral', ttl: '1h' } }],
  messages: [{ role: 'user', content: 'Summarize clause 4.' }],
});
\`\`\`

## Fix safety
The fix removes the name from the list (with its comma), or from the comma-separated header value (the whole header entry when it was the only name). It is safe on the Claude API: the feature works the same without the name. On the Bedrock, Vertex and Foundry clients the fix is unsafe, because a feature can become generally available there later than on the Claude API. It is unsafe too for \`files-api-2025-04-14\` and \`skills-2025-10-02\`, which select the beta response shapes (follow the migration guides first). A deprecated name is removed only when the SDK changelog says to delete it (\`token-efficient-tools-2025-02-19\`); one with a successor gets no fix. A \`betas\` list left empty stays in place; remove it, or switch back to \`client.messages\`, by hand.
`,
  },

  check(call, ctx) {
    const unsafe = !!call.client && PLATFORM_CLIENT.test(call.client);
    const betas = param(call, 'betas');
    if (betas?.kind === 'list') {
      for (const item of betas.items) {
        if (item.kind !== 'str' || !item.complete) continue;
        const info = staleInfo(item.text, ctx);
        if (!info) continue;
        const at = inFile(ctx, item.at, paramSite(call, 'betas'));
        if (!at) continue;
        const edits = at === item.at ? ctx.edits.removeListItem(item.at) : undefined;
        report(ctx, info, at, edits, unsafe);
      }
    }
    const seen = new Set<string>();
    for (const header of headerValues(call)) {
      if (header.kind !== 'str' || !header.complete || !header.at || header.at.file !== ctx.file) continue;
      const key = `${header.at.start}:${header.at.end}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const literal = ctx.textOf(header.at);
      let from = 0;
      for (const raw of header.text.split(',')) {
        const name = raw.trim();
        if (!name) continue;
        const offset = literal.indexOf(name, from);
        if (offset < 0) continue;
        from = offset + name.length;
        const info = staleInfo(name, ctx);
        if (!info) continue;
        const at: Loc = { file: ctx.file, start: header.at.start + offset, end: header.at.start + offset + name.length };
        report(ctx, info, at, removeHeaderName(ctx, header.at, header.text, name), unsafe);
      }
    }
  },
});

/** Header values: those the front end found, plus LiteLLM's `extra_headers` (passed through to the API). */
function headerValues(call: RequestCall): Value[] {
  const out = [...call.headerBetas];
  if (call.framework === 'litellm') {
    const h = getEntry(getEntry(call.params, 'extra_headers'), 'anthropic-beta');
    if (h) out.push(h);
  }
  return out;
}

function staleInfo(name: string, ctx: RuleContext): BetaInfo | undefined {
  const info = ctx.known.betas.get(name);
  return info?.status === 'ga' || info?.status === 'deprecated' ? info : undefined;
}

function report(ctx: RuleContext, info: BetaInfo, at: Loc, edits: TextEdit[] | undefined, platform: boolean) {
  const note = info.note ? `; ${info.note}` : '';
  const onPlatform = platform ? ' on the Claude API (check your platform before removing it)' : '';
  let what: string;
  if (info.status === 'ga') {
    const since = info.gaSince ? `has been generally available since ${info.gaSince}` : 'is generally available';
    what = `\`${info.name}\` is no longer needed: the feature ${since}${onPlatform}${note}`;
  } else {
    const since = info.deprecatedSince ? ` since ${info.deprecatedSince}` : '';
    const instead = info.supersededBy ? `; use \`${info.supersededBy}\` instead` : '';
    what = `\`${info.name}\` is deprecated${since}: the API still accepts it, but the SDKs are dropping it${instead}${note}`;
  }
  // GA names can go unless the table says otherwise; deprecated ones only when the table says so.
  const removal = info.removal ?? (info.status === 'ga' ? 'safe' : 'none');
  const applicability = removal === 'unsafe' || platform ? 'unsafe' : 'safe';
  const fix: Fix | undefined = edits && removal !== 'none' ? { title: `Remove \`${info.name}\``, applicability, edits } : undefined;
  // The names the SDK union no longer has are known from a page the user can open.
  const source = info.sources?.find((s) => /^https:\/\//.test(s));
  ctx.report({ message: `${what}${source ? ` (source: ${source})` : ''} (known names as of ${ctx.known.asOf}).`, at, fix });
}

/**
 * One name (and one comma next to it) out of a comma-separated \`anthropic-beta\` value; the
 * whole header entry when it is the only name.
 */
function removeHeaderName(ctx: RuleContext, literal: Loc, value: string, name: string): TextEdit[] | undefined {
  const parts = value.split(',');
  const names = parts.map((p) => p.trim());
  if (names.filter((n) => n === name).length !== 1) return undefined;
  if (names.filter(Boolean).length === 1) return ctx.edits.removeEntry(literal);
  const i = names.indexOf(name);
  let kept = parts.filter((_, j) => j !== i).join(',');
  if (i === 0) kept = kept.replace(/^\s+/, '');
  return ctx.edits.replaceString(literal, kept);
}
