import type { Fix } from '../core/fix';
import type { RequestCall } from '../core/model';
import { defineRule } from '../core/rule';
import type { RuleContext } from '../core/rule';
import type { TextEdit } from '../core/span';
import { paramEntry } from './util';

/**
 * Parameters that only `client.beta.messages.*` takes (facts §3.2), with the beta each one
 * needs when there is exactly one. `context_management` is left to beta-not-enabled, which
 * knows the beta each edit type needs.
 */
const BETA_ONLY_PARAMS: ReadonlyMap<string, string | undefined> = new Map([
  ['betas', undefined],
  ['mcp_servers', 'mcp-client-2025-11-20'],
  ['diagnostics', 'cache-diagnosis-2026-04-07'],
  ['speed', 'fast-mode-2026-02-01'],
  ['fallbacks', undefined],
  ['output_format', undefined],
]);

const METHODS = new Set(['create', 'stream', 'count_tokens', 'parse']);

export default defineRule({
  meta: {
    id: 'beta-param-on-ga-client',
    group: 'api',
    severity: 'error',
    fix: 'sometimes',
    summary: 'A beta-only parameter (`betas`, `mcp_servers`, `speed`, …) passed to the non-beta `messages.create` / `stream` / `count_tokens`.',
    docs: `## What it does
Finds \`betas\` and the other parameters that only the beta client takes — \`mcp_servers\`, \`diagnostics\`, \`fallbacks\`, \`speed\`, \`output_format\` — passed to the non-beta \`client.messages.create\`, \`stream\`, \`parse\` or \`count_tokens\` / \`countTokens\`.

\`context_management\` on the non-beta client is reported by \`beta-not-enabled\`, which also knows which beta each edit type needs; this rule does not report it again. Requests built through LiteLLM, LangChain or the Vercel AI SDK are not checked: those libraries choose the client themselves.

## Why is this bad?
\`betas\` is not a parameter of the non-beta method: the Python SDK raises \`TypeError: create() got an unexpected keyword argument 'betas'\` before anything is sent, and the TypeScript types reject it (plain JavaScript sends it, and the API answers 400 \`betas: Extra inputs are not permitted\`). The same holds for the other beta-only parameters. The call fails on every run.

## Example
\`\`\`python
import anthropic

client = anthropic.Anthropic()

response = client.messages.create(
    model="claude-opus-4-7",
    max_tokens=1024,
    betas=["fast-mode-2026-02-01"],
    speed="fast",
    messages=[{"role": "user", "content": "Hello"}],
)
\`\`\`

\`\`\`ts
import Anthropic from '@anthropic-ai/sdk';

const client = new Anthropic();

await client.messages.create({
  model: 'claude-opus-4-7',
  max_tokens: 1024,
  betas: ['fast-mode-2026-02-01'],
  speed: 'fast',
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
    betas=["fast-mode-2026-02-01"],
    speed="fast",
    messages=[{"role": "user", "content": "Hello"}],
)
\`\`\`

\`\`\`ts
import Anthropic from '@anthropic-ai/sdk';

const client = new Anthropic();

await client.beta.messages.create({
  model: 'claude-opus-4-7',
  max_tokens: 1024,
  betas: ['fast-mode-2026-02-01'],
  speed: 'fast',
  messages: [{ role: 'user', content: 'Hello' }],
});
\`\`\`

## Fix safety
The fix switches the call to \`client.beta.messages\` and, for \`mcp_servers\`, \`diagnostics\` and \`speed\`, adds the beta they need to \`betas\` when it is missing. It is unsafe: the beta method returns the beta types (\`BetaMessage\`), which code that reads the response may not expect. No fix is offered for \`fallbacks\` or \`output_format\` without a \`betas\` list (use \`output_config.format\` instead of \`output_format\`).
`,
  },

  check(call, ctx) {
    if (call.beta || call.framework || !METHODS.has(call.method)) return;
    const found = [...BETA_ONLY_PARAMS.keys()].map((k) => paramEntry(call, k)).filter((e) => !!e?.keyAt && e.keyAt.file === ctx.file);
    if (!found.length) return;
    const fix = switchFix(call, ctx);
    const method = call.calleeText.replace(/^.*\bmessages\./, 'messages.');
    const beta = call.calleeText.replace(/\bmessages\./, 'beta.messages.');
    const failure = call.language === 'python' ? 'the SDK raises TypeError before sending' : 'the SDK types reject it, and the API answers 400 when it is sent';
    for (const entry of found) {
      const hint = entry!.key === 'output_format' ? ' (or use `output_config.format`)' : '';
      ctx.report({
        message: `\`${entry!.key}\` is a beta-only parameter that the non-beta \`${method}\` does not take: ${failure}. Call \`${beta}\`${hint}.`,
        at: entry!.keyAt!,
        fix,
      });
    }
  },
});

/** `client.messages.X` -> `client.beta.messages.X`, plus the betas the beta-only parameters need. */
function switchFix(call: RequestCall, ctx: RuleContext): Fix | undefined {
  if (call.callee.file !== ctx.file) return undefined;
  const betasEntry = paramEntry(call, 'betas');
  const listed = new Set<string>();
  if (betasEntry) {
    if (betasEntry.value.kind !== 'list') return undefined;
    for (const b of betasEntry.value.items) if (b.kind === 'str' && b.complete) listed.add(b.text);
  }
  const needed: string[] = [];
  for (const [key, beta] of BETA_ONLY_PARAMS) {
    if (key === 'betas' || !paramEntry(call, key)) continue;
    if (!beta) {
      if (!betasEntry) return undefined;
      continue;
    }
    if (!listed.has(beta) && !needed.includes(beta)) needed.push(beta);
  }
  const edits: TextEdit[] = [];
  const switchEdits = ctx.edits.useBetaNamespace(call.callee);
  if (!switchEdits) return undefined;
  edits.push(...switchEdits);
  if (needed.length) {
    if (betasEntry) {
      if (!betasEntry.valueAt || betasEntry.valueAt.file !== ctx.file) return undefined;
      for (const b of needed) {
        const e = ctx.edits.appendStringToList(betasEntry.valueAt, b);
        if (!e) return undefined;
        edits.push(...e);
      }
      if (needed.length > 1) return undefined;
    } else {
      if (!call.argsAt || call.argsAt.file !== ctx.file) return undefined;
      const e = ctx.edits.addListArgument(call.argsAt, 'betas', needed);
      if (!e) return undefined;
      edits.push(...e);
    }
  }
  const title = needed.length ? `Use client.beta.messages with betas ${needed.join(', ')}` : 'Use client.beta.messages';
  return { title, applicability: 'unsafe', edits };
}
