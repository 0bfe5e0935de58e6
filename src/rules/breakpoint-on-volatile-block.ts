import type { Marker } from '../core/breakpoints';
import { displayPath, explicitMarkers, isMessageLiteral, messageList } from '../core/breakpoints';
import { perRequestStrength } from '../core/evidence';
import type { Fix } from '../core/fix';
import type { RequestCall } from '../core/model';
import { prefixBlocks } from '../core/model';
import { defineRule } from '../core/rule';
import type { RuleContext } from '../core/rule';
import type { Taint } from '../core/value';
import { allTaints, getEntryRecord, stabilityOf } from '../core/value';
import { contains } from '../core/span';
import { caches, describe, inFile, relatedFor, sameScope } from './util';

export default defineRule({
  meta: {
    id: 'breakpoint-on-volatile-block',
    group: 'cache',
    severity: 'warning',
    fix: 'sometimes',
    summary: 'A cache_control marker on a message block whose content changes on every request: it writes a cache entry every call and never reads one.',
    docs: `## What it does
Finds a \`cache_control\` marker on a message block whose content the next request will not send again: the current time, a random id, retrieved documents, or request data in a request that is built fresh on every call (no history is resent). A marker on the newest message of a conversation whose history is resent on the next turn is the documented pattern and is not reported: the next request repeats those bytes and reads the entry. Nor is a value computed once when the module is loaded (a top-level \`STAMP = datetime.now()\`): every call of the process sends the same bytes and reads the entry the first one wrote. Nor is a block that another request of the same function call sends again (speculative caching: a warm-up request with \`max_tokens=1\`, then a copy of the message with the question appended): that request reads the entry. Markers on \`system\` and \`tools\` are left to \`volatile-system-prompt\`, \`volatile-tools\` and \`dynamic-content-before-breakpoint\`, which report the changing value itself.

## Why is this bad?
A breakpoint writes one cache entry: the hash of everything up to and including the marked block. When that block differs on every call, every request pays the cache write (1.25× the input price, 2× for the 1-hour TTL) and no request ever finds the entry, because the lookup never reaches back to a position where an earlier request wrote one. The stable prefix before it (the system prompt, the reference documents) is never cached either.

## Example
\`\`\`python
from pathlib import Path

import anthropic

client = anthropic.Anthropic()
HANDBOOK = Path("handbook.md").read_text()


def answer(question, search_index):
    passages = search_index.search(question, k=5)
    return client.messages.create(
        model="claude-sonnet-4-6",
        max_tokens=1024,
        messages=[
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": HANDBOOK},
                    {"type": "text", "text": f"Relevant passages:\\n{passages}", "cache_control": {"type": "ephemeral"}},
                    {"type": "text", "text": question},
                ],
            }
        ],
    )
\`\`\`

\`\`\`ts
import Anthropic from '@anthropic-ai/sdk';
import { readFileSync } from 'node:fs';

const client = new Anthropic();
const HANDBOOK = readFileSync('handbook.md', 'utf8');

export async function answer(question: string) {
  return client.messages.create({
    model: 'claude-sonnet-4-6',
    max_tokens: 1024,
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: HANDBOOK },
          { type: 'text', text: \`Asked at \${new Date().toISOString()}\`, cache_control: { type: 'ephemeral' } },
          { type: 'text', text: question },
        ],
      },
    ],
  });
}
\`\`\`

## Use instead
Put the marker on the last block that stays the same:
\`\`\`python
from pathlib import Path

import anthropic

client = anthropic.Anthropic()
HANDBOOK = Path("handbook.md").read_text()


def answer(question, search_index):
    passages = search_index.search(question, k=5)
    return client.messages.create(
        model="claude-sonnet-4-6",
        max_tokens=1024,
        messages=[
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": HANDBOOK, "cache_control": {"type": "ephemeral"}},
                    {"type": "text", "text": f"Relevant passages:\\n{passages}"},
                    {"type": "text", "text": question},
                ],
            }
        ],
    )
\`\`\`

\`\`\`ts
import Anthropic from '@anthropic-ai/sdk';
import { readFileSync } from 'node:fs';

const client = new Anthropic();
const HANDBOOK = readFileSync('handbook.md', 'utf8');

export async function answer(question: string) {
  return client.messages.create({
    model: 'claude-sonnet-4-6',
    max_tokens: 1024,
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: HANDBOOK, cache_control: { type: 'ephemeral' } },
          { type: 'text', text: \`Asked at \${new Date().toISOString()}\` },
          { type: 'text', text: question },
        ],
      },
    ],
  });
}
\`\`\`

## Fix safety
The fix moves the \`cache_control\` entry from the changing block to the last unchanging block before it (or only removes it when that block is already marked). The model sees the same prompt; only what is cached and billed changes. It is safe when both blocks are written in the function that sends the request, and unsafe when the target block is written elsewhere (a module-level constant shared by other requests, which would then carry the marker too). No fix is offered when the move would put a marker without \`ttl: "1h"\` before one with it (the API rejects that order).
`,
  },

  check(call, ctx) {
    if (!caches(call)) return;
    const list = messageList(call);
    if (!list) return;
    const callFn = ctx.view.enclosingFunction(call.at);
    // Built here on every call (no history resent): nothing of it is repeated by the next request.
    const fresh = list.complete && !!list.at && list.at.file === ctx.file && ctx.view.enclosingFunction(list.at) === callFn && list.items.every(isMessageLiteral);
    const lastKnown = list.complete || list.tailKnown ? list.items.length - 1 : -1;
    for (const m of explicitMarkers(call)) {
      if (m.section !== 'messages' || m.repeated || m.messageIndex === undefined || !m.block) continue;
      const newest = m.messageIndex === lastKnown;
      // The newest turn of a resent history is read back by the next turn.
      if (!fresh && (newest || m.messageIndex >= list.items.length - 1)) continue;
      if (!fresh && !isMessageLiteral(list.items[m.messageIndex])) continue;
      const blocks = prefixBlocks(call);
      const isLast = fresh && blocks[blocks.length - 1]?.path === m.path;
      const t = volatileTaint(m, call, ctx, isLast);
      if (!t) continue;
      // The same marked block sent again by another request of the same function call (a warm-up
      // request, then the real one with the question appended to a copy): that one reads the entry.
      if (sentAgainInCall(call, m, ctx, callFn)) continue;
      const at = inFile(ctx, m.at);
      if (!at) continue;
      const why = t.daily ? 'changes every day' : t.cls === 'clock' || t.cls === 'random' ? 'changes on every call' : 'is different for every request';
      const cost = t.daily
        ? "each day's first call writes a new cache entry (1.25× input price) for everything up to it, and no request of a later day reads it"
        : 'every call writes a new cache entry (1.25× input price) and no later request reads it';
      ctx.report({
        message: `The \`cache_control\` marker on \`${displayPath(call, m.path)}\` sits on a block that ${why} (${describe(t)}): ${cost}. Mark the last block that stays the same instead.`,
        at,
        related: relatedFor(ctx, t, at),
        fix: moveMarker(call, m, ctx),
      });
    }
  },
});

/** Another request of the function around `call` marks the block `m` marks (the same block as written: a copy of the message counts). */
function sentAgainInCall(call: RequestCall, m: Marker, ctx: RuleContext, fn: ReturnType<RuleContext['view']['enclosingFunction']>): boolean {
  const at = m.block?.value.at;
  if (!fn || !at) return false;
  return ctx.calls.some(
    (other) =>
      other !== call &&
      ctx.view.enclosingFunction(other.at) === fn &&
      explicitMarkers(other).some((o) => o.section === 'messages' && o.block?.value.at && o.block.value.at.file === at.file && o.block.value.at.start === at.start && o.block.value.at.end === at.end),
  );
}

/**
 * What makes the marked block differ on the next call: the clock or a random value, data
 * retrieved for this request, the item of a loop that sends one request each; request fields
 * only when the block is the last one of a request built fresh each call (the new question).
 * A request field earlier in the prompt may well repeat (the same document, asked again).
 */
function volatileTaint(m: Marker, call: RequestCall, ctx: RuleContext, isLast: boolean): Taint | undefined {
  const block = m.block!.value;
  const own = block.kind === 'obj' ? block.entries.filter((e) => e.key !== 'cache_control').flatMap((e) => allTaints(e.value)) : allTaints(block);
  // A value computed when the module is loaded (`const stamped = \`At ${new Date().toISOString()}: ...\``
  // at the top level) is the same for every call of the process: the next call reads the entry.
  const clock = own.find((t) => (t.cls === 'clock' || t.cls === 'random') && !t.once);
  if (clock) return clock;
  const strong = own.find((t) => (t.kind === 'retrieval' || t.kind === 'loop-variable') && perRequestStrength(ctx.view, t, call) === 'certain');
  if (strong || !isLast) return strong;
  return own.find((t) => perRequestStrength(ctx.view, t, call) !== 'no');
}

/** Moves the marker to the last block before it that is constant and written as a literal. */
function moveMarker(call: RequestCall, m: Marker, ctx: RuleContext): Fix | undefined {
  const block = m.block!.value;
  const entry = block.kind === 'obj' ? getEntryRecord(block, 'cache_control') : undefined;
  const key = entry?.keyAt;
  if (!entry?.valueAt || !key || key.file !== ctx.file) return undefined;
  const blocks = prefixBlocks(call);
  const i = blocks.findIndex((b) => b.path === m.path);
  for (let j = i - 1; j >= 0; j--) {
    const b = blocks[j];
    // Stable: nothing in it changes between calls (content read from a file counts, as unknown but untainted).
    if (!['constant', 'unknown', 'environment'].includes(stabilityOf(b.value))) continue;
    if (b.value.kind !== 'obj' || !b.value.at || b.value.at.file !== ctx.file) return undefined;
    // A marker that is not '1h', moved before a '1h' one, breaks the TTL order: a 400.
    const between = new Set(blocks.slice(j + 1, i).map((x) => x.path));
    if (m.ttl !== '1h' && explicitMarkers(call).some((o) => between.has(o.path) && o.ttl !== '5m')) return undefined;
    const remove = ctx.edits.removeEntry(key);
    if (!remove) return undefined;
    // A block written elsewhere (a constant other requests share) would carry the marker into them too.
    const safe = sameScope(ctx, b.value.at, call.at) && sameScope(ctx, key, call.at);
    const applicability = safe ? 'safe' : 'unsafe';
    if (b.cacheControl) return { title: `Remove the marker (\`${displayPath(call, b.path)}\` is already marked)`, applicability, edits: remove };
    if (contains(b.value.at, key)) return undefined;
    const copy = ctx.edits.addEntry(b.value.at, 'cache_control', ctx.textOf(entry.valueAt));
    if (!copy) return undefined;
    return { title: `Move the marker to \`${displayPath(call, b.path)}\``, applicability, edits: [...copy, ...remove] };
  }
  return undefined;
}
