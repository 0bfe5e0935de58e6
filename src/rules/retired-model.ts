import type { Related } from '../core/diagnostic';
import type { ModelInfo } from '../core/knownNames';
import { modelInfo } from '../core/knownNames';
import type { RequestCall } from '../core/model';
import { defineRule } from '../core/rule';
import type { RuleContext } from '../core/rule';
import type { Entry, Value } from '../core/value';
import { fileText, platformName, requestPlatform } from './util';

export default defineRule({
  meta: {
    id: 'retired-model',
    group: 'api',
    severity: 'error',
    fix: 'none',
    summary: 'A model id the Claude API has retired (every request fails), or one that is deprecated and will be.',
    docs: `## What it does
Checks the \`model\` of each request against the lifecycle dates in the known-names table (from the SDK's deprecated-models data and the docs): a model whose end of life is on or before the table's date is an error, a deprecated model that is still served is reported as info with the date it goes away. Dated snapshots (\`claude-sonnet-4-5-20250929\`) count as their model.

The table keeps the models the pinned SDK no longer lists (Claude 3.x, 2.x, Instant 1.x), with the dates from the deprecations page and the release notes. Their ids (\`claude-3-5-sonnet-20240620\`, \`claude-3-opus-20240229\`) and \`-latest\` aliases match exactly, never by prefix onto another model; a model known to be retired without a documented date is reported without one. A model id set in another file of the workspace (a settings module), or passed in by the callers of the function that sends the request, is reported where the request uses it, with the place it is set. A loop that sends each id of a written list (\`for model_id in ["claude-3-opus-20240229", ...]:\` then \`model=model_id\`) sends every one of them: each retired or deprecated id is reported in the list. A model that is not known but falls back to a written one — a parameter's default, \`options.model ?? "claude-…"\`, \`model or DEFAULT_MODEL\`, a class field that the constructor keeps unless it is given another — is reported at that default, as the model used when none is given: every request that relies on it fails.

Only requests to the Claude API are checked — a client from \`anthropic\` / \`@anthropic-ai/sdk\`, LangChain's \`ChatAnthropic\`, LiteLLM's \`anthropic/\` models, the Vercel AI SDK's \`@ai-sdk/anthropic\` (its \`anthropic(...)\` and a provider made with \`createAnthropic({...})\`, unless its \`baseURL\` is a Microsoft Foundry, Bedrock or Vertex AI address), agno's \`Claude\` (\`agno.models.anthropic\`) in an agent that is run, an instructor client that wraps an Anthropic client: Bedrock and Vertex AI retire models on their own dates. A client picked by a condition the code decides (\`if provider == Provider.ANTHROPIC:\` with the provider every caller passes) is the one that branch creates. A request in a file that imports the SDK whose client is not resolved (kept in an attribute, returned by a getter: \`self.get_client().messages.create(...)\`) is checked when the file creates Claude API clients (\`Anthropic()\`, \`new Anthropic()\`) and no other platform's; a client that comes from a caller in a file that also creates Bedrock, Vertex AI or Foundry clients is not.

## Why is this bad?
A retired model id is rejected on every call: the code that worked yesterday fails today, with nothing in the code to show why. Deprecation is announced months ahead; the date is the time to move.

## Example
\`\`\`python
import anthropic

client = anthropic.Anthropic()

response = client.messages.create(
    model="claude-sonnet-4-5",
    max_tokens=1024,
    messages=[{"role": "user", "content": "Hello"}],
)
\`\`\`

\`\`\`ts
import Anthropic from '@anthropic-ai/sdk';

const client = new Anthropic();

await client.messages.create({
  model: 'claude-sonnet-4-5-20250929',
  max_tokens: 1024,
  messages: [{ role: 'user', content: 'Hello' }],
});
\`\`\`

## Use instead
\`\`\`python
import anthropic

client = anthropic.Anthropic()

response = client.messages.create(
    model="claude-sonnet-4-6",
    max_tokens=1024,
    messages=[{"role": "user", "content": "Hello"}],
)
\`\`\`

\`\`\`ts
import Anthropic from '@anthropic-ai/sdk';

const client = new Anthropic();

await client.messages.create({
  model: 'claude-sonnet-4-6',
  max_tokens: 1024,
  messages: [{ role: 'user', content: 'Hello' }],
});
\`\`\`

No fix is offered: another model answers differently, costs differently and has another minimum cacheable length, so choosing it is a decision for the author.
`,
  },

  check(call, ctx) {
    const entry = modelEntry(call);
    // A model that is not known but falls back to a written one (`options.model ?? "claude-…"`,
    // a parameter's default, a field the constructor keeps unless given another): every
    // request that relies on the default sends it.
    const fallback = entry?.value.kind === 'unknown' ? entry.value.fallback : undefined;
    const v = fallback ?? entry?.value;
    if (v?.kind === 'str') return checkModel(call, ctx, entry, v, !!fallback);
    // A loop over written model ids that sends each (`for name in ["claude-3-opus-20240229", ...]:`
    // then `model=name`): every one of them is a request's model.
    for (const item of loopedModels(call, ctx, entry)) checkModel(call, ctx, entry, item, false);
  },
});

/** The written model ids of the loop around the request whose variable is the request's `model`. */
function loopedModels(call: RequestCall, ctx: RuleContext, entry: Entry | undefined): Array<Extract<Value, { kind: 'str' }>> {
  if (!entry?.valueAt || entry.valueAt.file !== ctx.file) return [];
  const loop = ctx.view.enclosingLoop(call.at);
  const name = ctx.textOf(entry.valueAt).trim();
  if (!loop?.targetText || !loop.iter || loop.targetText.replace(/^(const|let|var)\s+/, '').trim() !== name) return [];
  const items = loop.iter();
  return items.kind === 'list' && items.complete ? items.items.filter((i): i is Extract<Value, { kind: 'str' }> => i.kind === 'str') : [];
}

/** Reports a model id the request sends (`fallback`: the default used when none is given) when it is retired or deprecated. */
function checkModel(call: RequestCall, ctx: RuleContext, entry: Entry | undefined, v: Extract<Value, { kind: 'str' }>, fallback: boolean): void {
  if (!v.complete || !v.at) return;
  // A model id set in another file (a settings module), or passed in by the callers of the
  // function that sends the request, is reported where this request uses it.
  const written = v.passedFrom ?? v.at;
  const use = entry?.valueAt?.file === ctx.file ? entry.valueAt : undefined;
  const at = v.passedFrom && use ? use : v.at.file === ctx.file ? v.at : use;
  if (!at) return;
  const related: Related[] = at === written ? [] : [{ at: written, message: `\`${v.text}\` is set here` }];
  const info = modelInfo(ctx.known, v.text);
  if (!info || (!info.retired && !info.retires && !info.deprecated)) return;
  // A client that cannot be resolved (`self.get_client().messages.create(...)`) in a file that
  // creates Claude API clients and no other platform's sends a model id in the Claude API's form
  // there (Bedrock and Vertex ids have forms of their own).
  const platform = requestPlatform(call, v.text) ?? (createsOnlyClaudeApiClients(fileText(ctx)) ? 'anthropic' : undefined);
  if (platform !== 'anthropic') return;
  const name = (info.family === info.id ? `\`${v.text}\`` : `\`${v.text}\` (${info.family})`) + (fallback ? ', the model used when none is given,' : '');
  if (isRetired(info, ctx)) {
    const when = info.retires ? ` on ${info.retires}` : '';
    const elsewhere = info.retiresExcept?.length ? ` (it stays on ${info.retiresExcept.map(platformName).join(' and ')})` : '';
    ctx.report({
      message: `${name} was retired${when}: the Claude API rejects every request for it${elsewhere}. Move to a current model (known lifecycle as of ${ctx.known.asOf}).`,
      at,
      related,
    });
    return;
  }
  const since = info.deprecated ? ` since ${info.deprecated}` : '';
  const until = info.retires ? `; the Claude API rejects it from ${info.retires}` : '';
  ctx.report({ message: `${name} is deprecated${since}${until}. Move to a current model before then.`, at, related, severity: 'info' });
}

/** The file constructs `Anthropic` / `AsyncAnthropic` clients and no Bedrock, Vertex AI or Foundry one. */
function createsOnlyClaudeApiClients(text: string): boolean {
  // The client classes under their own names or an alias (`from anthropic import Anthropic as AnthropicClient`).
  const names = new Set(['Anthropic', 'AsyncAnthropic']);
  for (const m of text.matchAll(/\b(?:Async)?Anthropic\s+as\s+([A-Za-z_$][\w$]*)/g)) names.add(m[1]);
  const creates = [...names].some((n) => new RegExp(`(?<![\\w$.])${n}\\s*\\(`).test(text));
  return creates && !/(Bedrock|Vertex|Foundry)\w*\s*\(/.test(text);
}

/** The request's `model` entry (the last one written wins). */
function modelEntry(call: RequestCall): Entry | undefined {
  const entries = call.params.entries;
  for (let i = entries.length - 1; i >= 0; i--) if (entries[i].key === 'model') return entries[i];
  return undefined;
}

function isRetired(info: ModelInfo, ctx: RuleContext): boolean {
  return !!info.retired || (!!info.retires && info.retires <= ctx.known.asOf);
}
