import type { Fix } from '../core/fix';
import { param, prefixBlocks } from '../core/model';
import type { RequestCall } from '../core/model';
import { defineRule } from '../core/rule';
import type { RuleContext } from '../core/rule';
import type { Taint } from '../core/value';
import { allTaints } from '../core/value';
import { cachesPrefix, inFile, paramSite, relatedFor, UNCACHED_POLICY, uniqueTaints } from './util';

const ORDER_KINDS = new Set(['unsorted-json', 'set-iteration', 'unsorted-listing']);

export default defineRule({
  meta: {
    id: 'unstable-serialization',
    group: 'cache',
    severity: 'warning',
    fix: 'sometimes',
    summary: 'JSON without sorted keys, or text built by iterating a set or a directory listing, lands in the cached prefix.',
    docs: `## What it does
Finds \`json.dumps(x)\` without \`sort_keys=True\` (where \`x\` is not a literal written in a fixed order) and text built by iterating a \`set\` of strings or an unsorted directory listing, when the result lands in \`tools\`, \`system\`, or a message block at or before the last cache breakpoint. In JavaScript, \`JSON.stringify\` keeps insertion order, so it is reported only when the object is built from an unordered source such as \`fs.readdirSync\`. ${UNCACHED_POLICY}

## Why is this bad?
The cache matches bytes. The same dictionary can serialise with its keys in a different order when it is built from different code paths, loaded from another source, or merged; iterating a set of strings gives a different order in every Python process (hash randomisation); directory listings come in file-system order. Each variant is a different prefix, so the cache misses without any error.

## Example
\`\`\`python
import json
import anthropic

client = anthropic.Anthropic()
with open("policies.json") as f:
    POLICIES = json.load(f)

def ask(question):
    return client.messages.create(
        model="claude-sonnet-4-6",
        max_tokens=1024,
        cache_control={"type": "ephemeral"},
        system="Follow these policies:\\n" + json.dumps(POLICIES),
        messages=[{"role": "user", "content": question}],
    )
\`\`\`

\`\`\`ts
import Anthropic from '@anthropic-ai/sdk';
import * as fs from 'node:fs';

const client = new Anthropic();
const docs = Object.fromEntries(fs.readdirSync('docs').map((f) => [f, fs.statSync('docs/' + f).size]));

export async function ask(question: string) {
  return client.messages.create({
    model: 'claude-sonnet-4-6',
    max_tokens: 1024,
    cache_control: { type: 'ephemeral' },
    system: 'Known documents: ' + JSON.stringify(docs),
    messages: [{ role: 'user', content: question }],
  });
}
\`\`\`

## Use instead
\`\`\`python
import json
import anthropic

client = anthropic.Anthropic()
with open("policies.json") as f:
    POLICIES = json.load(f)

def ask(question):
    return client.messages.create(
        model="claude-sonnet-4-6",
        max_tokens=1024,
        cache_control={"type": "ephemeral"},
        system="Follow these policies:\\n" + json.dumps(POLICIES, sort_keys=True),
        messages=[{"role": "user", "content": question}],
    )
\`\`\`

\`\`\`ts
import Anthropic from '@anthropic-ai/sdk';
import * as fs from 'node:fs';

const client = new Anthropic();
const docs = Object.fromEntries([...fs.readdirSync('docs')].sort().map((f) => [f, fs.statSync('docs/' + f).size]));

export async function ask(question: string) {
  return client.messages.create({
    model: 'claude-sonnet-4-6',
    max_tokens: 1024,
    cache_control: { type: 'ephemeral' },
    system: 'Known documents: ' + JSON.stringify(docs),
    messages: [{ role: 'user', content: question }],
  });
}
\`\`\`

## Fix safety
Adding \`sort_keys=True\` or wrapping the iterated value in \`sorted(...)\` (\`[...x].sort()\` in JavaScript) only fixes the order, which is what the rule reports, so the fix is safe. \`JSON.stringify\` has no sorting option; sort the source instead (no automatic fix).
`,
  },

  check(call, ctx) {
    if (!cachesPrefix(call, ctx)) return;
    const taints: Array<{ t: Taint; site?: ReturnType<typeof paramSite> }> = [];
    const tools = param(call, 'tools');
    if (tools) {
      // The order of the tool list itself belongs to volatile-tools.
      const own = new Set(tools.taints);
      for (const t of allTaints(tools)) if (!own.has(t)) taints.push({ t, site: paramSite(call, 'tools') });
    }
    const system = param(call, 'system');
    if (system) for (const t of allTaints(system)) taints.push({ t, site: paramSite(call, 'system') });
    for (const block of cachedMessageBlocks(call)) for (const t of allTaints(block)) taints.push({ t, site: paramSite(call, 'messages') });

    const seen = new Set<Taint>();
    for (const { t, site } of taints) {
      if (!ORDER_KINDS.has(t.kind) || seen.has(t)) continue;
      seen.add(t);
      const at = inFile(ctx, t.at, site);
      if (!at) continue;
      ctx.report({ message: messageFor(t), at, related: relatedFor(ctx, t, at), fix: fixFor(t, ctx) });
    }
    void uniqueTaints;
  },
});

/** Message blocks at or before the last explicit cache breakpoint in the messages. */
function cachedMessageBlocks(call: RequestCall) {
  const blocks = prefixBlocks(call).filter((b) => b.section === 'messages');
  let last = -1;
  blocks.forEach((b, i) => {
    if (b.cacheControl) last = i;
  });
  return blocks.slice(0, last + 1).map((b) => b.value);
}

function messageFor(t: Taint): string {
  switch (t.kind) {
    case 'unsorted-json':
      return t.text.startsWith('JSON.')
        ? `\`${t.text}\` serialises an object built from an unordered source; its key order can differ between calls and break the cached prefix.`
        : `\`${t.text}\` serialises without \`sort_keys=True\`; the key order can differ between calls and break the cached prefix.`;
    case 'set-iteration':
      return `\`${t.text}\` is a set: its iteration order changes from process to process, so the cached prefix differs. Sort it.`;
    default:
      return `\`${t.text}\` lists files in file-system order, which is not stable; the cached prefix differs. Sort it.`;
  }
}

function fixFor(t: Taint, ctx: RuleContext): Fix | undefined {
  if (!t.fixAt || t.fixAt.file !== ctx.file) return undefined;
  if (t.kind === 'unsorted-json') {
    const edits = ctx.edits.addSortKeys(t.fixAt);
    return edits ? { title: 'Add sort_keys=True', applicability: 'safe', edits } : undefined;
  }
  const edits = ctx.edits.wrapSorted(t.fixAt);
  return edits ? { title: 'Sort before iterating', applicability: 'safe', edits } : undefined;
}
