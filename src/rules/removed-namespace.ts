import { defineRule } from '../core/rule';
import type { RuleContext } from '../core/rule';
import type { Loc, TextEdit } from '../core/span';
import { paramEntry } from './util';

/** Parameters that keep a call on the beta client after the old namespace is removed. */
const BETA_ONLY = ['betas', 'context_management', 'mcp_servers', 'diagnostics', 'fallbacks', 'speed', 'output_format'];

export default defineRule({
  meta: {
    id: 'removed-namespace',
    group: 'api',
    severity: 'error',
    // Reported only for a callee written in this file, whose segments the fix can always cut.
    fix: 'always',
    summary: '`client.beta.prompt_caching.messages` / `client.beta.promptCaching.messages`: removed when prompt caching went GA.',
    docs: `## What it does
Finds calls through the old prompt-caching namespace: \`client.beta.prompt_caching.messages.create\` (Python) and \`client.beta.promptCaching.messages.create\` (TypeScript), and their \`stream\` forms.

## Why is this bad?
The namespace was removed when prompt caching became generally available (Python SDK 0.41.0, TypeScript SDK 0.33.0, 2024-12-17). On any newer SDK the call fails before a request is sent: \`AttributeError: 'Beta' object has no attribute 'prompt_caching'\` in Python, \`TypeError: Cannot read properties of undefined (reading 'messages')\` in JavaScript. Caching needs no beta anymore: \`cache_control\` works on \`client.messages.create\`.

## Example
\`\`\`python
import anthropic

client = anthropic.Anthropic()

response = client.beta.prompt_caching.messages.create(
    model="claude-sonnet-4-6",
    max_tokens=1024,
    system=[{"type": "text", "text": "You review contracts.", "cache_control": {"type": "ephemeral"}}],
    messages=[{"role": "user", "content": "Summarize clause 4."}],
)
\`\`\`

\`\`\`ts
import Anthropic from '@anthropic-ai/sdk';

const client = new Anthropic();

await client.beta.promptCaching.messages.create({
  model: 'claude-sonnet-4-6',
  max_tokens: 1024,
  system: [{ type: 'text', text: 'You review contracts.', cache_control: { type: 'ephemeral' } }],
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
    system=[{"type": "text", "text": CONTRACT_GUIDE, "cache_control": {"type": "ephemeral"}}],
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
  system: [{ type: 'text', text: contractGuide, cache_control: { type: 'ephemeral' } }],
  messages: [{ role: 'user', content: 'Summarize clause 4.' }],
});
\`\`\`

## Fix safety
The fix removes \`beta.prompt_caching\` (\`beta.promptCaching\`) from the call, leaving \`client.messages.create\`; when the call also passes a beta-only parameter (\`betas\`, \`context_management\`, …) it removes only \`prompt_caching\`, leaving \`client.beta.messages.create\`. It is safe: the old call fails on every run with any SDK released since December 2024, the request body stays the same, and the API has accepted \`cache_control\` without a beta since caching went GA. A \`prompt-caching-2024-07-31\` name left in \`betas\` is then reported by \`stale-beta\`.
`,
  },

  check(call, ctx) {
    const m = /\.(prompt_caching|promptCaching)\./.exec(call.calleeText);
    if (!m || !call.beta || call.callee.file !== ctx.file) return;
    const keepBeta = BETA_ONLY.some((k) => paramEntry(call, k));
    const segments = keepBeta ? [m[1]] : ['beta', m[1]];
    const edits = removeSegments(ctx, call.callee, segments);
    const target = call.calleeText.replace(keepBeta ? `.${m[1]}` : `.beta.${m[1]}`, '');
    const error = call.sdk === 'python' ? "AttributeError ('Beta' object has no attribute 'prompt_caching')" : "TypeError (Cannot read properties of undefined (reading 'messages'))";
    ctx.report({
      message: `\`${call.calleeText}\` was removed when prompt caching went GA (Python SDK 0.41.0 / TS SDK 0.33.0, 2024-12-17): the call raises ${error} before sending. Call \`${target}\`.`,
      at: call.callee,
      fix: edits ? { title: `Call \`${target}\``, applicability: 'safe', edits } : undefined,
    });
  },
});

/** `client.beta.prompt_caching.messages.create` minus `beta` and `prompt_caching`: each `.segment` deleted, each found once. */
function removeSegments(ctx: RuleContext, callee: Loc, segments: readonly string[]): TextEdit[] | undefined {
  const edits: TextEdit[] = [];
  const found = new Set<string>();
  let s = ctx.edits.shape(callee);
  while (s?.kind === 'member') {
    if (segments.includes(s.name)) {
      if (found.has(s.name)) return undefined;
      found.add(s.name);
      const cut = ctx.edits.replace({ file: s.at.file, start: s.object.end, end: s.at.end }, '');
      if (!cut) return undefined;
      edits.push(...cut);
    }
    // `(client.beta).prompt_caching`: the chain goes on inside the parentheses.
    s = ctx.edits.shape(s.object);
    if (s?.kind === 'parenthesized') s = ctx.edits.shape(s.inner);
  }
  return found.size === segments.length ? edits : undefined;
}
