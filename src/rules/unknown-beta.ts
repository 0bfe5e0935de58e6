import type { Fix } from '../core/fix';
import { lookedUpIn, typeToBetaSpelling } from '../core/knownNames';
import { judgeUnknownName } from '../core/namePolicy';
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
Checks every name in \`betas=[...]\` / \`betas: [...]\` and in \`anthropic-beta\` headers (per call or on the client) against the known beta names — prefixlint's table (generated from the SDK it pins), the \`known.betas\` of the configuration, and the names of the project's own SDK when one is installed (\`node_modules/@anthropic-ai/sdk\`, or \`anthropic\` in \`.venv\` / \`venv\`) — and suggests the closest one.

- A name that is a known one misspelled, with the same date, or a type name (\`compact_20260112\`) used as a beta, or a date written wrongly (\`2025-5-14\`): error.
- A name a few letters from a known one with another date (\`interleaved-thinking-2025-04-14\`): error.
- A well-formed name dated near or after the table's date that none of them knows: a **warning** — the table may simply be older than the beta. Declare it in \`known.betas\`.
- A name that Claude Code and many proxies send but no doc lists (\`prompt-caching-scope-2026-01-05\`, \`claude-code-20250219\`, …): a warning that names the routes known to reject it.

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
The fix replaces the name with the one known name it is closest to, and is offered only when there is exactly one. It is safe when it keeps the feature and the date (a misspelling, the type spelling, a badly written date): the request with the unknown name fails on every call. When the known name has another date the fix is unsafe: the name in the code may be a newer beta than the table knows, and the fix would turn it into an older one. Names that may be newer than the table get no fix at all.
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
  const where = lookedUpIn(known);
  const declare = 'declare it in `known.betas` in the prefixlint configuration';
  const undocumented = known.undocumentedBetas.get(name);
  if (undocumented) {
    const routes = undocumented.rejectedOn?.length ? `, but ${undocumented.rejectedOn.join(' and ')} answer 400 for it` : '; other routes (Vertex AI, Bedrock, gateways) may reject it';
    ctx.report({
      message: `\`${name}\` is not a documented beta: it is ${undocumented.seen}. The Claude API accepts it${routes} (${undocumented.sources.join(', ')}). Send it only to the Claude API, or ${declare}.`,
      at,
      severity: 'warning',
    });
    return;
  }
  const verdict = judgeUnknownName(name, known.betas, {
    spelling: 'beta',
    asOf: known.asOf,
    maxDistance: Math.min(4, Math.max(2, Math.floor(name.length / 6))),
    otherSpelling: typeToBetaSpelling,
  });
  const [first] = verdict.suggestions;
  const rejected = 'The API rejects beta names it does not know with a 400 on every call';
  let message: string;
  switch (verdict.kind) {
    case 'respelled':
      message = typeToBetaSpelling(name) === first ? `\`${name}\` is a type name (underscores); the beta header is \`${first}\`. ${rejected}.` : `\`${name}\` is \`${first}\` with the date misspelled. ${rejected}.`;
      break;
    case 'misspelled':
      message = `Unknown beta \`${name}\`; did you mean \`${first}\`? It is not in ${where}. ${rejected}.`;
      break;
    case 'misdated':
      message = `Unknown beta \`${name}\`; did you mean \`${first}\` (another date)? It is not in ${where}. ${rejected}.`;
      break;
    case 'recent': {
      const same = verdict.suggestions.length ? ` (known names close to it: ${verdict.suggestions.map((x) => `\`${x}\``).join(', ')})` : '';
      ctx.report({
        message: `\`${name}\` is not in ${where}${same}. It may be a beta newer than the table: if it is, ${declare}; if not, the API answers 400 on every call.`,
        at,
        severity: 'warning',
      });
      return;
    }
    default:
      message = `Unknown beta \`${name}\`${verdict.suggestions.length ? `; close names: ${verdict.suggestions.map((x) => `\`${x}\``).join(', ')}` : ''}. It is not in ${where}; if it is a real beta, ${declare}. ${rejected}.`;
  }
  let fix: Fix | undefined;
  if (verdict.fix && first && fixAt) {
    const edits = ctx.edits.replaceString(fixAt, first);
    if (edits) fix = { title: verdict.fix === 'safe' ? `Replace with \`${first}\`` : `Replace with \`${first}\` (another date)`, applicability: verdict.fix, edits };
  }
  ctx.report({ message, at, fix });
}
