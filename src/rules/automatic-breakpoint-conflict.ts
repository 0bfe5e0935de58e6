import type { Applicability } from '../core/fix';
import { displayPath, explicitMarkers, keyedMarkers, lastBlock, topLevelMarker } from '../core/breakpoints';
import { defineRule } from '../core/rule';
import { caches, inFile, sameScope } from './util';

export default defineRule({
  meta: {
    id: 'automatic-breakpoint-conflict',
    group: 'cache',
    severity: 'error',
    fix: 'sometimes',
    summary: 'A top-level (automatic) cache_control with no breakpoint slot left, or with a different TTL than the marker already on the last block.',
    docs: `## What it does
Checks requests that use automatic caching (a \`cache_control\` at the top level of the request) against the explicit markers on their blocks: it reports the top-level marker when the request already has 4 explicit markers, and when the last block already carries an explicit marker with a different \`ttl\`.

## Why is this bad?
The automatic breakpoint is placed on the last cacheable block and takes one of the 4 breakpoint slots. With 4 explicit markers there is no slot left, and the API answers 400 (\`A maximum of 4 blocks with cache_control may be provided. Found 5.\`). An explicit marker on the last block with the same TTL makes automatic caching a no-op; one with a different TTL (\`"1h"\` on the block, the default 5 minutes at the top level, or the reverse) is a 400 too.

## Example
\`\`\`python
import anthropic

client = anthropic.Anthropic()


def chat(history, question):
    return client.messages.create(
        model="claude-sonnet-4-6",
        max_tokens=1024,
        cache_control={"type": "ephemeral"},
        messages=[
            *history,
            {"role": "user", "content": [{"type": "text", "text": question, "cache_control": {"type": "ephemeral", "ttl": "1h"}}]},
        ],
    )
\`\`\`

\`\`\`ts
import Anthropic from '@anthropic-ai/sdk';

const client = new Anthropic();
const mark = { type: 'ephemeral' as const };

export async function grade(rubric: string, policy: string, examples: string, style: string, essay: string) {
  return client.messages.create({
    model: 'claude-sonnet-4-6',
    max_tokens: 1024,
    cache_control: { type: 'ephemeral' },
    system: [
      { type: 'text', text: rubric, cache_control: mark },
      { type: 'text', text: policy, cache_control: mark },
      { type: 'text', text: examples, cache_control: mark },
      { type: 'text', text: style, cache_control: mark },
    ],
    messages: [{ role: 'user', content: essay }],
  });
}
\`\`\`

## Use instead
Use either automatic caching or explicit markers on the blocks, not both at the same place:
\`\`\`python
import anthropic

client = anthropic.Anthropic()


def chat(history, question):
    return client.messages.create(
        model="claude-sonnet-4-6",
        max_tokens=1024,
        cache_control={"type": "ephemeral"},
        messages=[*history, {"role": "user", "content": [{"type": "text", "text": question}]}],
    )
\`\`\`

\`\`\`ts
import Anthropic from '@anthropic-ai/sdk';

const client = new Anthropic();
const mark = { type: 'ephemeral' as const };

export async function grade(rubric: string, policy: string, examples: string, style: string, essay: string) {
  return client.messages.create({
    model: 'claude-sonnet-4-6',
    max_tokens: 1024,
    cache_control: { type: 'ephemeral' },
    system: [
      { type: 'text', text: rubric },
      { type: 'text', text: policy },
      { type: 'text', text: examples, cache_control: mark },
      { type: 'text', text: style, cache_control: mark },
    ],
    messages: [{ role: 'user', content: essay }],
  });
}
\`\`\`

## Fix safety
The fix removes the top-level \`cache_control\` and keeps the explicit markers. It is safe: the request is rejected on every call as it is, and the fixed one gives the model the same prompt. What is cached changes — the automatic breakpoint no longer follows the end of the conversation, and with a TTL conflict the TTL of the explicit marker wins — but a request that never ran cached nothing; review the markers if the automatic one is what you wanted. It is unsafe when the top-level \`cache_control\` is written outside the function that sends the request (settings other requests share), since they would lose automatic caching too. No fix is offered when it is not written as an entry of its own (\`{ cache_control, … }\` in TypeScript).
`,
  },

  check(call, ctx) {
    if (!caches(call)) return;
    const top = topLevelMarker(call);
    if (!top) return;
    const explicit = explicitMarkers(call);
    if (explicit.some((m) => m.repeated)) return;
    const keyed = keyedMarkers(call, ctx.view, ctx.textOf);
    if (keyed.some((k) => k.repeat && k.repeat.count === undefined)) return;
    const count = explicit.length + keyed.reduce((n, k) => n + (k.repeat?.count ?? 1), 0);
    const at = inFile(ctx, top.at, call.callee);
    if (!at) return;
    const edits = top.at ? ctx.edits.removeEntry(top.at) : undefined;
    // The request is rejected as it is, and no cache_control is something the model reads; but
    // one written outside the request's function (shared settings) is other requests' caching too.
    const applicability: Applicability = top.at && sameScope(ctx, top.at, call.at) ? 'safe' : 'unsafe';
    const fix = edits ? { title: 'Remove the top-level cache_control', applicability, edits } : undefined;
    const related = explicit.filter((m) => m.at?.file === ctx.file).map((m) => ({ at: m.at!, message: `explicit marker on \`${displayPath(call, m.path)}\`` }));

    if (count === 4) {
      ctx.report({
        message: `Automatic caching needs a free breakpoint slot, but this request already has 4 explicit \`cache_control\` markers; the automatic one would be the 5th and the API answers 400: \`A maximum of 4 blocks with cache_control may be provided. Found 5.\``,
        at,
        related,
        fix,
      });
      return;
    }
    const last = lastBlock(call);
    if (!last?.cacheControl || count > 4) return;
    const onLast = explicit.find((m) => m.path === last.path);
    if (!onLast?.ttl || !top.ttl || onLast.ttl === top.ttl) return;
    ctx.report({
      message: `The last block (\`${displayPath(call, last.path)}\`) already has a \`cache_control\` with ttl '${onLast.ttl}', and the top-level (automatic) one asks for '${top.ttl}' at the same block; the API answers 400 when the two TTLs differ.`,
      at,
      related: onLast.at?.file === ctx.file ? [{ at: onLast.at, message: `marker with ttl '${onLast.ttl}' on the last block` }] : [],
      fix,
    });
  },
});
