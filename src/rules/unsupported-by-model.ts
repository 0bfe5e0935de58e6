import { modelInfo } from '../core/knownNames';
import { param } from '../core/model';
import { defineRule } from '../core/rule';
import { getEntry } from '../core/value';
import { platformName, requestPlatform } from './util';

export default defineRule({
  meta: {
    id: 'unsupported-by-model',
    group: 'api',
    severity: 'error',
    fix: 'none',
    summary: 'A request feature that the chosen model rejects: forced `tool_choice` on Claude Opus 5.5 and the Fable/Mythos 5.1 and 5.2 models, `computer_20251124` on Opus 5.5, Sonnet 5.5 and Fable 5.2.',
    docs: `## What it does
Checks requests against what the known-names table records that a model rejects, each with its source (the model's overview or "what's new" page):

- \`tool_choice\` of type \`any\` or \`tool\` on Claude Opus 5.5, Fable 5.1, Fable 5.2, Mythos 5.1 and Mythos 5.2;
- the \`computer_20251124\` tool on Claude Opus 5.5 and Sonnet 5.5 (Claude API and Google Cloud) and on Claude Fable 5.2 (everywhere but Amazon Bedrock).

A tool rejection is reported only when the platform is known from the client (or a platform spelling of the model id).

## Why is this bad?
The request is valid for other models, so it passes review and tests that use another model; switching the model turns it into a 400 on every call. Forcing a tool is also what pre-warming with \`max_tokens: 0\` and many agent loops do by habit.

## Example
\`\`\`python
import anthropic

client = anthropic.Anthropic()

response = client.messages.create(
    model="claude-opus-5-5",
    max_tokens=1024,
    tools=[{"name": "lookup_order", "description": "Find an order by id.", "input_schema": {"type": "object", "properties": {"id": {"type": "string"}}}}],
    tool_choice={"type": "tool", "name": "lookup_order"},
    messages=[{"role": "user", "content": "Where is order 4417?"}],
)
\`\`\`

\`\`\`ts
import Anthropic from '@anthropic-ai/sdk';

const client = new Anthropic();

await client.beta.messages.create({
  model: 'claude-sonnet-5-5',
  max_tokens: 1024,
  betas: ['computer-use-2025-11-24'],
  tools: [{ type: 'computer_20251124', name: 'computer', display_width_px: 1280, display_height_px: 800 }],
  messages: [{ role: 'user', content: 'Open the settings page.' }],
});
\`\`\`

## Use instead
\`\`\`python
import anthropic

client = anthropic.Anthropic()

response = client.messages.create(
    model="claude-opus-5-5",
    max_tokens=1024,
    tools=[{"name": "lookup_order", "description": "Find an order by id.", "input_schema": {"type": "object", "properties": {"id": {"type": "string"}}}}],
    tool_choice={"type": "auto"},
    messages=[{"role": "user", "content": "Where is order 4417?"}],
)
\`\`\`

\`\`\`ts
import Anthropic from '@anthropic-ai/sdk';

const client = new Anthropic();

await client.beta.messages.create({
  model: 'claude-opus-4-7',
  max_tokens: 1024,
  betas: ['computer-use-2025-11-24'],
  tools: [{ type: 'computer_20251124', name: 'computer', display_width_px: 1280, display_height_px: 800 }],
  messages: [{ role: 'user', content: 'Open the settings page.' }],
});
\`\`\`

No fix is offered: whether to let the model choose (\`auto\`), use another model or another tool version is the author's decision.
`,
  },

  check(call, ctx) {
    const model = param(call, 'model');
    if (model?.kind !== 'str' || !model.complete) return;
    const info = modelInfo(ctx.known, model.text);
    const rejects = info?.rejects;
    if (!info || !rejects) return;
    if (rejects.forcedToolChoice) {
      const type = getEntry(param(call, 'tool_choice'), 'type');
      if (type?.kind === 'str' && type.complete && (type.text === 'any' || type.text === 'tool') && type.at?.file === ctx.file) {
        ctx.report({
          message: `${info.family} rejects \`tool_choice\` of type \`${type.text}\`: the API answers 400 (${rejects.forcedToolChoice.sources.join(', ')}). Use \`auto\` and say in the prompt which tool to use, or another model.`,
          at: type.at,
        });
      }
    }
    const tools = param(call, 'tools');
    if (rejects.toolTypes?.length && tools?.kind === 'list') {
      const platform = requestPlatform(call, model.text);
      if (!platform) return;
      for (const tool of tools.items) {
        const type = getEntry(tool, 'type');
        if (type?.kind !== 'str' || !type.complete || type.at?.file !== ctx.file) continue;
        const rule = rejects.toolTypes.find((r) => r.type === type.text && r.platforms.includes(platform));
        if (!rule) continue;
        ctx.report({
          message: `${info.family} does not take the \`${type.text}\` tool on ${platformName(platform)}: the API answers 400 (${rule.sources.join(', ')}). Use the tool version this model documents, or another model.`,
          at: type.at,
        });
      }
    }
  },
});
