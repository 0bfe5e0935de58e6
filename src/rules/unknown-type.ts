import type { Fix } from '../core/fix';
import { betaToTypeSpelling, LOOKS_DATED, lookedUpIn } from '../core/knownNames';
import { judgeUnknownName } from '../core/namePolicy';
import { param, prefixBlocks } from '../core/model';
import { defineRule } from '../core/rule';
import type { RuleContext } from '../core/rule';
import type { StrValue, Value } from '../core/value';
import { getEntry } from '../core/value';

type Namespace = 'edit' | 'tool' | 'block';

const NAMESPACE_WORDS: Record<Namespace, string> = {
  edit: 'context-management edit type',
  tool: 'tool type',
  block: 'content block type',
};

export default defineRule({
  meta: {
    id: 'unknown-type',
    group: 'api',
    severity: 'error',
    fix: 'sometimes',
    summary: 'A `type` of a context-management edit, a tool or a content block that is not a known name.',
    docs: `## What it does
Checks the \`type\` of each \`context_management.edits\` entry, each \`tools\` entry and each content block in \`messages\` against the known names (prefixlint's table, \`known.toolTypes\` of the configuration, and the names of the project's own SDK when one is installed), and reports names that are dated but unknown, written in the beta-header spelling, or one or two letters away from a known name. A well-formed dated name near or after the table's date is a warning: it may be newer than the table.

Messages built through a framework are read in that framework's terms: the Vercel AI SDK's parts (\`tool-call\`, \`tool-result\`, \`file\`, \`reasoning\`) are the blocks its Anthropic provider makes of them, so an AI SDK name is never reported as a misspelled Messages API type.

A Managed Agents agent-configuration type in a Messages request's \`tools\` (\`agent_toolset_20260401\`, \`multiagent_20261001\`) is reported too: the SDK declares it for \`client.beta.agents.create\`, not for the Messages tool unions.

## Why is this bad?
Dated type names (\`compact_20260112\`, \`web_search_20250305\`) are checked only by the API. Python's TypedDicts accept any string at run time, so a wrong date or the header spelling (\`compact-2026-01-12\`) fails the request with a 400 on every call.

## Example
\`\`\`python
import anthropic

client = anthropic.Anthropic()

response = client.beta.messages.create(
    model="claude-opus-4-7",
    max_tokens=1024,
    betas=["compact-2026-01-12"],
    context_management={"edits": [{"type": "compact-2026-01-12"}]},
    messages=[{"role": "user", "content": "Hello"}],
)
\`\`\`

\`\`\`ts
import Anthropic from '@anthropic-ai/sdk';

const client = new Anthropic();

await client.messages.create({
  model: 'claude-sonnet-4-6',
  max_tokens: 1024,
  tools: [{ type: 'web_search_20250306', name: 'web_search' }],
  messages: [{ role: 'user', content: 'What happened today?' }],
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

await client.messages.create({
  model: 'claude-sonnet-4-6',
  max_tokens: 1024,
  tools: [{ type: 'web_search_20250305', name: 'web_search' }],
  messages: [{ role: 'user', content: 'What happened today?' }],
});
\`\`\`

## Fix safety
The fix replaces the type with the one known name it is closest to, and is offered only when there is exactly one. It is safe when it keeps the name's date (a misspelling, the beta-header spelling): the request with the unknown type fails on every call. A fix to a name with another date is unsafe — the type in the code may be a newer version than the table knows — and names that may be newer than the table get no fix.
`,
  },

  check(call, ctx) {
    const edits = getEntry(param(call, 'context_management'), 'edits');
    if (edits?.kind === 'list') for (const e of edits.items) checkType(getEntry(e, 'type'), 'edit', ctx);
    const tools = param(call, 'tools');
    if (tools?.kind === 'list') for (const t of tools.items) checkType(getEntry(t, 'type'), 'tool', ctx);
    for (const block of prefixBlocks(call)) {
      if (block.section === 'messages' && block.value.kind === 'obj') checkType(getEntry(block.value, 'type'), 'block', ctx);
    }
  },
});

function knownFor(ns: Namespace, ctx: RuleContext): Set<string> {
  if (ns === 'edit') return new Set(ctx.known.editTypes.keys());
  if (ns === 'tool') return new Set(ctx.known.toolTypes.keys());
  return ctx.known.contentBlockTypes;
}

function checkType(v: Value | undefined, ns: Namespace, ctx: RuleContext) {
  if (v?.kind !== 'str' || !v.complete || !v.at || v.at.file !== ctx.file) return;
  const s: StrValue = v;
  const name = s.text;
  const known = knownFor(ns, ctx);
  if (known.has(name)) return;
  const agentType = ns === 'tool' ? ctx.known.agentConfigTypes.get(name) : undefined;
  if (agentType) {
    // A real name in the wrong API: no Messages tool type stands for it, so there is no fix.
    const what = agentType.field === 'tools' ? `a Managed Agents tool type: it goes in the \`tools\` of an agent (\`client.beta.agents.create\`)` : `a Managed Agents agent-configuration type: it goes in an agent's \`${agentType.field}\` setting (\`client.beta.agents.create\`)`;
    ctx.report({ message: `\`${name}\` is ${what}, not in a Messages API request's \`tools\`. The Messages API rejects it with a 400.`, at: s.at! });
    return;
  }
  const dated = LOOKS_DATED.test(name);
  const verdict = judgeUnknownName(name, known, { spelling: 'type', asOf: ctx.known.asOf, maxDistance: dated ? 3 : 2, otherSpelling: betaToTypeSpelling });
  const [first] = verdict.suggestions;
  if (verdict.kind === 'unknown' && !verdict.suggestions.length && !dated) return; // an undated name we know nothing about: not a guess we make
  const what = NAMESPACE_WORDS[ns];
  const where = lookedUpIn(ctx.known);
  const rejected = 'The API rejects it with a 400';
  let message: string;
  switch (verdict.kind) {
    case 'respelled':
      message = betaToTypeSpelling(name) === first ? `\`${name}\` is the beta-header spelling; the ${what} is \`${first}\`. ${rejected}.` : `\`${name}\` is \`${first}\` with the date misspelled. ${rejected}.`;
      break;
    case 'misspelled':
      message = `Unknown ${what} \`${name}\`; did you mean \`${first}\`? ${rejected} (not in ${where}).`;
      break;
    case 'misdated':
      message = `Unknown ${what} \`${name}\`; did you mean \`${first}\` (another date)? ${rejected} (not in ${where}).`;
      break;
    case 'recent': {
      const close = verdict.suggestions.length ? ` (known names close to it: ${verdict.suggestions.map((x) => `\`${x}\``).join(', ')})` : '';
      const declare = ns === 'tool' ? 'declare it in `known.toolTypes` in the prefixlint configuration' : 'prefixlint does not know it yet';
      ctx.report({ message: `\`${name}\` is not in ${where}${close}. It may be a ${what} newer than the table: if it is, ${declare}; if not, the API answers 400.`, at: s.at!, severity: 'warning' });
      return;
    }
    default:
      message = `Unknown ${what} \`${name}\`${verdict.suggestions.length ? `; close names: ${verdict.suggestions.map((x) => `\`${x}\``).join(', ')}` : ''}. ${rejected} (not in ${where}).`;
  }
  let fix: Fix | undefined;
  if (verdict.fix && first) {
    const edits = ctx.edits.replaceString(s.at!, first);
    if (edits) fix = { title: verdict.fix === 'safe' ? `Replace with \`${first}\`` : `Replace with \`${first}\` (another date)`, applicability: verdict.fix, edits };
  }
  ctx.report({ message, at: s.at!, fix });
}
