import type { Fix } from '../core/fix';
import { param, prefixBlocks } from '../core/model';
import type { RequestCall } from '../core/model';
import { defineRule } from '../core/rule';
import type { RuleContext } from '../core/rule';
import type { Taint } from '../core/value';
import { allTaints } from '../core/value';
import type { Loc } from '../core/span';
import { basename, cachesPrefix, changedDefinition, inFile, paramSite, relatedFor, sortableListingAt, SORTED, UNCACHED_POLICY, uniqueTaints, usedAlsoBy } from './util';

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
Wrapping a directory listing in \`sorted(...)\` (\`[...x].sort()\` in JavaScript) is safe: the file system gives no order, so the sorted one is an order the code could already get, of the same names. It is offered for listings of names and paths (\`os.listdir\`, \`glob.glob\`, \`readdirSync\`, \`glob.sync\`; \`glob.iglob\` and \`Path.iterdir\` / \`glob\` / \`rglob\` only where a loop iterates them, since \`sorted\` returns a list, not an iterator); \`os.scandir\`, \`os.walk\`, \`withFileTypes\` listings and listings that return a Promise get no fix.

Wrapping a set in \`sorted(...)\` is safe when every item of the set is a string written in the code (\`{"sso", "audit_log"}\`): its order was not defined, and the sorted one is one of its orders. For any other set it is unsafe: \`sorted\` raises \`TypeError\` when the items do not compare (\`{"a", 1}\`). Adding \`sort_keys=True\` is unsafe: the keys were in the order the dict was built, which Python keeps, and the model now reads them in another one. \`JSON.stringify\` has no sorting option; sort the source instead (no automatic fix). When the \`json.dumps\`, the set or the listing is written in a helper or constant of another module the request imports, the same fix is made there when every use of that helper can be seen (as for volatile-system-prompt: the whole project walked, not a package's public module, no look-up by name); it keeps its safety when the request is the helper's only use, and is unsafe when other code uses it too, since they get the change as well: its title lists those uses (\`…; admin.py:6 also uses it\`).
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
      ctx.report({ message: messageFor(t), at, related: relatedFor(ctx, t, at), fix: fixFor(t, call, ctx) });
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

function fixFor(t: Taint, call: RequestCall, ctx: RuleContext): Fix | undefined {
  if (t.fixAt && t.fixAt.file !== ctx.file) return fixInOtherFile(t, t.fixAt, call, ctx);
  if (!t.fixAt) return undefined;
  if (t.kind === 'unsorted-json') {
    // The model reads the keys in another order: unsafe (core/fix.ts).
    const edits = ctx.edits.addArgument(t.fixAt, 'sort_keys', ctx.edits.literal(true));
    return edits ? { title: 'Add sort_keys=True', applicability: 'unsafe', edits } : undefined;
  }
  if (t.kind === 'unsorted-listing') {
    if (!sortableListingAt(ctx, t.fixAt)) return undefined;
    // A listing's order is not defined: sorted is one the code could already get, of the same names.
    const edits = ctx.edits.wrap(t.fixAt, SORTED);
    return edits ? { title: 'Sort the listing', applicability: 'safe', edits } : undefined;
  }
  // A set's order is not defined either; sorted() gives one of its orders when its items are all
  // strings, and raises TypeError on items that do not compare.
  const edits = ctx.edits.wrap(t.fixAt, SORTED);
  return edits ? { title: 'Sort before iterating', applicability: t.sortable ? 'safe' : 'unsafe', edits } : undefined;
}

/**
 * The `json.dumps`, the set or the listing is written in another file (a helper or constant of
 * a module the request imports): the same fix there, offered when every use of that definition
 * can be seen. When other code uses it too, the fix is unsafe (it changes what they get as
 * well) and its title names them.
 */
function fixInOtherFile(t: Taint, fixAt: Loc, call: RequestCall, ctx: RuleContext): Fix | undefined {
  if (t.kind !== 'unsorted-json' && t.kind !== 'set-iteration' && t.kind !== 'unsorted-listing') return undefined;
  if (t.kind === 'unsorted-listing' && !sortableListingAt(ctx, fixAt)) return undefined;
  const changed = changedDefinition(ctx, fixAt, call);
  const there = changed && ctx.across.edits(fixAt.file);
  if (!changed || !there) return undefined;
  const edits = t.kind === 'unsorted-json' ? there.addArgument(fixAt, 'sort_keys', there.literal(true)) : there.wrap(fixAt, SORTED);
  const what = t.kind === 'unsorted-json' ? 'Add sort_keys=True' : t.kind === 'set-iteration' ? 'Sort before iterating' : 'Sort the listing';
  const title = `${what} (in \`${changed.def.name}\`, ${basename(fixAt.file)}${usedAlsoBy(ctx, changed.def, changed.others)})`;
  // As in the request's own file (core/fix.ts); and a change other code reads too is never safe.
  const safe = changed.others.length === 0 && (t.kind === 'unsorted-listing' || (t.kind === 'set-iteration' && !!t.sortable));
  return edits ? { title, applicability: safe ? 'safe' : 'unsafe', edits: [], otherFiles: [{ file: fixAt.file, edits }] } : undefined;
}
