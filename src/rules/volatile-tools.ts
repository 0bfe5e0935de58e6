import type { Fix } from '../core/fix';
import { param } from '../core/model';
import type { RequestCall } from '../core/model';
import { defineRule } from '../core/rule';
import type { RuleContext } from '../core/rule';
import type { Taint } from '../core/value';
import { allTaints } from '../core/value';
import { basename, cachesPrefix, changedDefinition, describe, inFile, paramSite, relatedFor, sortableListingAt, SORTED, UNCACHED_POLICY, uniqueTaints, usedAlsoBy, whereItEnters } from './util';

export default defineRule({
  meta: {
    id: 'volatile-tools',
    group: 'cache',
    severity: 'error',
    fix: 'sometimes',
    summary: 'A clock or random value in the tool definitions, or a tool list in unordered order, invalidates the whole cache.',
    docs: `## What it does
Finds clock and random values inside \`tools\` (names, descriptions, input schemas, enum lists), and tool lists whose order comes from an unordered source: a Python \`set\`, \`os.listdir\`, \`glob.glob\`, \`Path.iterdir\`, or \`fs.readdirSync\` without a sort. A value produced elsewhere and written into a tool's text is reported where it is written in (\`\${today}\` of a description), with where it is produced as a related place; an unordered list where it is made, which is where the sort goes. ${UNCACHED_POLICY}

## Why is this bad?
Tools render first, before the system prompt and the messages. Any byte that differs in a tool definition, or a different tool order, invalidates the tools, system and messages caches at once: every call is billed as a cold start. Python randomises string hashes per process, so iterating a set of tool names gives a different order in every worker.

## Example
\`\`\`python
import random
import anthropic

client = anthropic.Anthropic()
ENABLED = {"search", "calculator", "weather"}
REGISTRY = {"search": {"name": "search", "input_schema": {"type": "object"}}, "calculator": {"name": "calculator", "input_schema": {"type": "object"}}, "weather": {"name": "weather", "input_schema": {"type": "object"}}}

def run(question):
    tools = [REGISTRY[name] for name in ENABLED]
    return client.messages.create(
        model="claude-sonnet-4-6",
        max_tokens=1024,
        cache_control={"type": "ephemeral"},
        tools=tools,
        messages=[{"role": "user", "content": question}],
    )
\`\`\`

\`\`\`ts
import Anthropic from '@anthropic-ai/sdk';

const client = new Anthropic();

export async function run(question: string) {
  return client.messages.create({
    model: 'claude-sonnet-4-6',
    max_tokens: 1024,
    cache_control: { type: 'ephemeral' },
    tools: [{ name: 'lookup', description: \`Lookup (build \${Date.now()})\`, input_schema: { type: 'object' } }],
    messages: [{ role: 'user', content: question }],
  });
}
\`\`\`

## Use instead
Keep one fixed tool list in a fixed order (sorted by name) and put anything that changes in the user turn:
\`\`\`python
import anthropic

client = anthropic.Anthropic()
ENABLED = {"search", "calculator", "weather"}
REGISTRY = {"search": {"name": "search", "input_schema": {"type": "object"}}, "calculator": {"name": "calculator", "input_schema": {"type": "object"}}, "weather": {"name": "weather", "input_schema": {"type": "object"}}}

def run(question):
    tools = [REGISTRY[name] for name in sorted(ENABLED)]
    return client.messages.create(
        model="claude-sonnet-4-6",
        max_tokens=1024,
        cache_control={"type": "ephemeral"},
        tools=tools,
        messages=[{"role": "user", "content": question}],
    )
\`\`\`

\`\`\`ts
import Anthropic from '@anthropic-ai/sdk';

const client = new Anthropic();

export async function run(question: string) {
  return client.messages.create({
    model: 'claude-sonnet-4-6',
    max_tokens: 1024,
    cache_control: { type: 'ephemeral' },
    tools: [{ name: 'lookup', description: 'Lookup', input_schema: { type: 'object' } }],
    messages: [{ role: 'user', content: question }],
  });
}
\`\`\`

## Fix safety
A tool list ordered by a set or a directory listing gets \`sorted(...)\` around the set or the listing where it is iterated (\`[...x].sort()\` in JavaScript), so the tools come in the order of their names or files. Sorting a listing of names or paths (\`os.listdir\`, \`glob.glob\`, \`readdirSync\`; \`Path.iterdir\` / \`glob\` / \`rglob\` where a loop iterates them) is safe: the file system gives no order, and the sorted one is one it could already give. Sorting a set is safe when every item is a string written in the code (\`{"search", "weather"}\`), for the same reason; a set of anything else (\`set(names)\` of a parameter) gets an unsafe fix, since \`sorted\` raises \`TypeError\` on items that do not compare. Listings of \`DirEntry\` or \`Dirent\` objects (\`os.scandir\`, \`withFileTypes\`) and listings that return a Promise get no fix. When the list is built in a helper or constant of another module the request imports, the fix is made there when every use of it can be seen (the whole project walked, not a package's public module, no look-up by name): with the same safety when the request is its only use, and unsafe when other code uses it too (they get the sorted order as well), with those uses in its title. Clock and random values in a tool definition get no fix: what the tool should say instead depends on what the value was for.
`,
  },

  check(call, ctx) {
    if (!cachesPrefix(call, ctx)) return;
    const tools = param(call, 'tools');
    if (!tools) return;
    const volatile = uniqueTaints(allTaints(tools).filter((t) => t.cls === 'clock' || t.cls === 'random'));
    for (const t of volatile) {
      const at = whereItEnters(ctx, t, paramSite(call, 'tools'));
      if (!at) continue;
      ctx.report({
        message: t.daily
          ? `The tool definitions include ${describe(t)}, which changes every day; tools render first, so each day's first call invalidates the whole cache.`
          : `The tool definitions include ${describe(t)}, which changes on every call; tools render first, so the whole cache is invalidated.`,
        at,
        related: relatedFor(ctx, t, at),
      });
    }
    // The order of the list itself (taints on the list, not inside one tool).
    for (const t of uniqueTaints(tools.taints.filter((t) => t.kind === 'set-iteration' || t.kind === 'unsorted-listing'))) {
      const at = inFile(ctx, t.at, paramSite(call, 'tools'));
      if (!at) continue;
      const source = t.kind === 'set-iteration' ? 'a set, whose iteration order changes from process to process' : 'a directory listing, whose order the file system decides';
      ctx.report({
        message: `The tool list is ordered by \`${t.text}\`, ${source}; a different order invalidates the whole cache. Sort it.`,
        at,
        related: relatedFor(ctx, t, at),
        fix: sortFix(t, call, ctx),
      });
    }
  },
});

/**
 * Sorts what the tool list is built from, where it is written: `sorted(...)` around the set or
 * the listing (`[...x].sort()` in JavaScript). Safe when the result is one of the orders the
 * code could already send: a listing of names or paths, or a set of strings only (sorting
 * other items may raise); in another module, only when nothing else uses the definition it
 * changes. Otherwise unsafe, and in another module offered only when every use can be seen.
 */
function sortFix(t: Taint, call: RequestCall, ctx: RuleContext): Fix | undefined {
  if (!t.fixAt) return undefined;
  const listing = t.kind === 'unsorted-listing';
  if (listing && !sortableListingAt(ctx, t.fixAt)) return undefined;
  const title = listing ? 'Sort the listing' : 'Sort the set before iterating';
  const sortable = listing || !!t.sortable;
  if (t.fixAt.file === ctx.file) {
    const edits = ctx.edits.wrap(t.fixAt, SORTED);
    return edits ? { title, applicability: sortable ? 'safe' : 'unsafe', edits } : undefined;
  }
  const changed = changedDefinition(ctx, t.fixAt, call);
  const edits = changed && ctx.across.edits(t.fixAt.file)?.wrap(t.fixAt, SORTED);
  if (!changed || !edits) return undefined;
  return {
    title: `${title} (in \`${changed.def.name}\`, ${basename(t.fixAt.file)}${usedAlsoBy(ctx, changed.def, changed.others)})`,
    // What else reads the definition gets the sorted order too: never safe then.
    applicability: sortable && changed.others.length === 0 ? 'safe' : 'unsafe',
    edits: [],
    otherFiles: [{ file: t.fixAt.file, edits }],
  };
}
