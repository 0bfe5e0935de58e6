import type { Fix } from '../core/fix';
import { closeNames, typeToBetaSpelling } from '../core/knownNames';
import { param } from '../core/model';
import type { RequestCall } from '../core/model';
import { defineRule } from '../core/rule';
import type { RuleContext } from '../core/rule';
import type { Loc } from '../core/span';
import type { Value } from '../core/value';
import { inFile, paramSite } from './util';

export default defineRule({
  meta: {
    id: 'unknown-beta',
    group: 'api',
    severity: 'error',
    fix: 'sometimes',
    summary: 'A beta name that the API does not know: misspelled, misdated, or a type name used as a beta.',
    docs: `## What it does
Checks every name in \`betas=[...]\` / \`betas: [...]\` and in \`anthropic-beta\` headers (per call or on the client) against the known beta names, and suggests the closest one.

## Why is this bad?
The SDK types accept any string for a beta, so a typo passes every check until the request is sent, and then every call fails with 400 \`Unexpected value(s) … for the anthropic-beta header\`. Names exist in two spellings in two namespaces: \`compact-2026-01-12\` is the beta, \`compact_20260112\` is the edit type, and a swap is rejected at run time.

## Example
\`\`\`python
import anthropic

client = anthropic.Anthropic()

response = client.beta.messages.create(
    model="claude-opus-4-7",
    max_tokens=1024,
    betas=["compact_20260112"],
    context_management={"edits": [{"type": "compact_20260112"}]},
    messages=[{"role": "user", "content": "Hello"}],
)
\`\`\`

\`\`\`ts
import Anthropic from '@anthropic-ai/sdk';

const client = new Anthropic();

await client.beta.messages.create({
  model: 'claude-opus-4-7',
  max_tokens: 1024,
  betas: ['interleaved-thinking-2025-04-14'],
  messages: [{ role: 'user', content: 'Hello' }],
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

await client.beta.messages.create({
  model: 'claude-opus-4-7',
  max_tokens: 1024,
  betas: ['interleaved-thinking-2025-05-14'],
  messages: [{ role: 'user', content: 'Hello' }],
});
\`\`\`

## Fix safety
The fix replaces the name with the one known name it is closest to, and is offered only when there is exactly one. It is safe: the request with the unknown name fails on every call.
`,
  },

  check(call, ctx) {
    const betas = param(call, 'betas');
    if (betas?.kind === 'list') {
      for (const item of betas.items) {
        if (item.kind !== 'str' || !item.complete) continue;
        const at = inFile(ctx, item.at, paramSite(call, 'betas'));
        if (at) checkName(item.text, at, at === item.at ? item.at : undefined, call, ctx);
      }
    }
    for (const header of call.headerBetas) checkHeader(header, call, ctx);
  },
});

/** `"a,b"` in an anthropic-beta header: each name is reported at its own range inside the string. */
function checkHeader(header: Value, call: RequestCall, ctx: RuleContext) {
  if (header.kind !== 'str' || !header.complete || !header.at || header.at.file !== ctx.file) return;
  const literal = ctx.textOf(header.at);
  let from = 0;
  for (const raw of header.text.split(',')) {
    const name = raw.trim();
    if (!name) continue;
    const offset = literal.indexOf(name, from);
    if (offset < 0) continue;
    from = offset + name.length;
    const at: Loc = { file: ctx.file, start: header.at.start + offset, end: header.at.start + offset + name.length };
    checkName(name, at, at, call, ctx);
  }
}

function checkName(name: string, at: Loc, fixAt: Loc | undefined, _call: RequestCall, ctx: RuleContext) {
  const known = ctx.known;
  if (known.betas.has(name)) return;
  let suggestions: string[];
  let why: string;
  const asBeta = typeToBetaSpelling(name);
  if (asBeta && known.betas.has(asBeta)) {
    suggestions = [asBeta];
    why = `\`${name}\` is a type name (underscores); the beta header is \`${asBeta}\``;
  } else {
    suggestions = closeNames(name, known.betas.keys(), Math.min(4, Math.max(2, Math.floor(name.length / 6))));
    why = suggestions.length === 1 ? `Unknown beta \`${name}\`; did you mean \`${suggestions[0]}\`?` : suggestions.length > 1 ? `Unknown beta \`${name}\`; close names: ${suggestions.map((s) => `\`${s}\``).join(', ')}` : `Unknown beta \`${name}\``;
  }
  const message = `${why}${why.endsWith('?') ? '' : '.'} The API rejects unknown betas with a 400 on every call (known names as of ${known.asOf}).`;
  let fix: Fix | undefined;
  if (suggestions.length === 1 && fixAt) {
    const edits = ctx.edits.replaceStringContent(fixAt, suggestions[0]);
    if (edits) fix = { title: `Replace with \`${suggestions[0]}\``, applicability: 'safe', edits };
  }
  ctx.report({ message, at, fix });
}
