import type { Fix } from '../core/fix';
import { closeNames, typeToBetaSpelling } from '../core/knownNames';
import { param } from '../core/model';
import type { RequestCall } from '../core/model';
import { defineRule } from '../core/rule';
import type { RuleContext } from '../core/rule';
import type { Loc } from '../core/span';
import { getEntry } from '../core/value';
import { addBetas, betaNamespace, paramEntry } from './util';

interface Need {
  /** The betas that enable the feature (any one of them); the first is the one a fix adds. */
  betas: string[];
  feature: string;
  at: Loc;
}

export default defineRule({
  meta: {
    id: 'beta-not-enabled',
    group: 'api',
    severity: 'error',
    fix: 'sometimes',
    summary: 'A beta-only feature (context management, compaction, a beta tool type) used without its beta.',
    docs: `## What it does
Finds beta-only features — \`context_management\` edits (\`clear_tool_uses_20250919\`, \`clear_thinking_20251015\`, \`compact_20260112\`), beta tool types (\`computer_20251124\`, \`mcp_toolset\`, \`advisor_20260301\`, …) — on a request that does not enable their beta: the non-beta client (\`client.messages.create\`), or \`client.beta.messages.create\` without the name in \`betas\` or an \`anthropic-beta\` header.

The other beta-only parameters on the non-beta client — \`betas\` itself, \`mcp_servers\`, \`diagnostics\`, \`fallbacks\`, \`speed\`, \`output_format\` — are \`beta-param-on-ga-client\`'s findings; this rule reports \`context_management\` and beta tool types, so one call can get one finding from each.

## Why is this bad?
Without the beta the API answers 400 (\`context_management: Extra inputs are not permitted\`), and the Python SDK's non-beta \`messages.create\` raises \`TypeError\` for \`context_management\` before sending anything. Compaction needs \`compact-2026-01-12\`, not the context-editing beta.

## Example
\`\`\`python
import anthropic

client = anthropic.Anthropic()

response = client.beta.messages.create(
    model="claude-opus-4-7",
    max_tokens=1024,
    context_management={"edits": [{"type": "clear_tool_uses_20250919"}]},
    messages=[{"role": "user", "content": "Hello"}],
)
\`\`\`

\`\`\`ts
import Anthropic from '@anthropic-ai/sdk';

const client = new Anthropic();

await client.beta.messages.create({
  model: 'claude-opus-4-7',
  max_tokens: 1024,
  context_management: { edits: [{ type: 'compact_20260112' }] },
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
    context_management={"edits": [{"type": "clear_tool_uses_20250919"}]},
    messages=[{"role": "user", "content": "Hello"}],
    betas=["context-management-2025-06-27"],
)
\`\`\`

\`\`\`ts
import Anthropic from '@anthropic-ai/sdk';

const client = new Anthropic();

await client.beta.messages.create({
  model: 'claude-opus-4-7',
  max_tokens: 1024,
  context_management: { edits: [{ type: 'compact_20260112' }] },
  messages: [{ role: 'user', content: 'Hello' }],
  betas: ['compact-2026-01-12'],
});
\`\`\`

## Fix safety
On the beta client the fix adds the name to \`betas\` (or adds \`betas\`): safe when one beta enables the feature, since the request fails without it and nothing else changes; unsafe when several do (\`mcp_toolset\` takes \`mcp-client-2025-11-20\` or \`mcp-client-2026-09-15\`), since the fix then picks one. On the non-beta client it also switches the call to \`client.beta.messages\`, which changes the SDK method and its return types: unsafe.
`,
  },

  check(call, ctx) {
    const needs = collectNeeds(call, ctx);
    if (!needs.length) return;
    if (call.beta) {
      const enabled = enabledBetas(call);
      if (!enabled) return; // betas we cannot see (a variable list, client headers built elsewhere)
      // A misspelled or wrong-namespace name that stands for the needed beta is unknown-beta's finding.
      const meant = new Set([...enabled].map((name) => (ctx.known.betas.has(name) ? name : meantBeta(name, ctx))).filter((b): b is string => !!b));
      const missing = needs.filter((n) => !n.betas.some((b) => enabled.has(b) || meant.has(b)));
      for (const need of missing) {
        ctx.report({
          message: `${need.feature} needs the beta ${anyOf(need.betas)}, which this request does not enable; the API answers 400.`,
          at: need.at,
          // Rejected without it; with a choice of betas, the fix would make it for you.
          fix: addBetaFix(call, [need.betas[0]], ctx, need.betas.length === 1 ? 'safe' : 'unsafe'),
        });
      }
      return;
    }
    const betas = [...new Set(needs.map((n) => n.betas[0]))];
    for (const need of needs) {
      const switchEdits = betaNamespace(ctx, call.callee);
      const add = addBetaFix(call, betas, ctx, 'unsafe');
      const fix: Fix | undefined = switchEdits && add ? { title: `Use client.beta.messages with betas ${betas.join(', ')}`, applicability: 'unsafe', edits: [...switchEdits, ...add.edits] } : undefined;
      ctx.report({
        message: `${need.feature} is a beta feature, but \`${call.calleeText}\` is the non-beta client; use \`client.beta.messages\` with ${anyOf(need.betas)} in betas.`,
        at: need.at,
        fix,
      });
    }
  },
});

/** \`a\` or \`a\` (or \`b\`). */
function anyOf(betas: string[]): string {
  return `\`${betas[0]}\`${betas.length > 1 ? ` (or ${betas.slice(1).map((b) => `\`${b}\``).join(', ')})` : ''}`;
}

function meantBeta(name: string, ctx: RuleContext): string | undefined {
  const asBeta = typeToBetaSpelling(name);
  if (asBeta && ctx.known.betas.has(asBeta)) return asBeta;
  const close = closeNames(name, ctx.known.betas.keys(), 4);
  return close.length === 1 ? close[0] : undefined;
}

function collectNeeds(call: RequestCall, ctx: RuleContext): Need[] {
  const needs: Need[] = [];
  const cm = paramEntry(call, 'context_management');
  if (cm && cm.keyAt?.file === ctx.file) {
    const edits = getEntry(cm.value, 'edits');
    const types = new Set<string>();
    if (edits?.kind === 'list') {
      for (const e of edits.items) {
        const t = getEntry(e, 'type');
        if (t?.kind === 'str' && t.complete) {
          const info = ctx.known.editTypes.get(t.text);
          const key = info?.betas?.join(',');
          if (info?.betas?.length && key && !types.has(key)) {
            types.add(key);
            needs.push({ betas: info.betas, feature: `\`context_management\` with \`${t.text}\``, at: cm.keyAt });
          }
        }
      }
    }
  }
  const tools = param(call, 'tools');
  if (tools?.kind === 'list') {
    for (const tool of tools.items) {
      const t = getEntry(tool, 'type');
      if (t?.kind !== 'str' || !t.complete || !t.at || t.at.file !== ctx.file) continue;
      const info = ctx.known.toolTypes.get(t.text);
      if (info?.betas?.length) needs.push({ betas: info.betas, feature: `The tool type \`${t.text}\``, at: t.at });
    }
  }
  return needs;
}

/** Every beta the request enables, or undefined when some could be hidden from us. */
function enabledBetas(call: RequestCall): Set<string> | undefined {
  const names = new Set<string>();
  const betas = param(call, 'betas');
  if (betas) {
    if (betas.kind !== 'list' || !betas.complete) return undefined;
    for (const b of betas.items) {
      if (b.kind !== 'str' || !b.complete) return undefined;
      names.add(b.text);
    }
  }
  for (const h of call.headerBetas) {
    if (h.kind !== 'str' || !h.complete) return undefined;
    for (const n of h.text.split(',')) names.add(n.trim());
  }
  if (!call.clientHeadersKnown) return undefined;
  if (!call.params.complete) return undefined;
  return names;
}

function addBetaFix(call: RequestCall, betas: string[], ctx: RuleContext, applicability: Fix['applicability']): Fix | undefined {
  const edits = addBetas(ctx, call, betas);
  return edits ? { title: `Add ${betas.map((b) => `\`${b}\``).join(', ')} to betas`, applicability, edits } : undefined;
}
