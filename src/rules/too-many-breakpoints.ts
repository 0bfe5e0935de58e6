import type { Related } from '../core/diagnostic';
import type { KeyedMarker, Marker } from '../core/breakpoints';
import { displayPath, explicitMarkers, keyedMarkers } from '../core/breakpoints';
import { defineRule } from '../core/rule';
import type { RuleContext } from '../core/rule';
import type { Loc } from '../core/span';
import { caches, inFile } from './util';

const LIMIT = 4;

export default defineRule({
  meta: {
    id: 'too-many-breakpoints',
    group: 'cache',
    severity: 'error',
    fix: 'none',
    summary: 'More than 4 cache_control markers in one request: the API rejects it.',
    docs: `## What it does
Counts the \`cache_control\` markers of each request in render order (every tool, every system block, every message block), including markers set by assignment (\`block["cache_control"] = {...}\`, \`block.cache_control = ...\`) in the request's function or in a helper it calls, and markers written inside a loop, a comprehension or a \`.map\` callback. It reports a request with more than 4 markers, and a marker that is repeated once per item or once per turn, where the count depends on the data: with 5 parallel tool results, a marker on every tool result is 5 markers. The message says where each marker comes from. The top-level (automatic) \`cache_control\` is checked by \`automatic-breakpoint-conflict\`. Requests sent through the Vercel AI SDK are not reported: its Anthropic provider sends the first 4 markers and drops the others with a warning, so the request does not fail.

## Why is this bad?
The Messages API accepts at most 4 cache breakpoints per request and answers anything more with a 400: \`A maximum of 4 blocks with cache_control may be provided. Found 5.\` A marker set in a loop passes every test with one tool call and fails in production on the first turn with several parallel tool calls; a marker added to the newest message on every turn and never taken off fails from the fifth turn on.

## Example
\`\`\`python
import anthropic

client = anthropic.Anthropic()
EPHEMERAL = {"type": "ephemeral"}


def next_turn(messages, tool_uses, run_tool, tools, system):
    results = [
        {"type": "tool_result", "tool_use_id": t.id, "content": run_tool(t), "cache_control": EPHEMERAL}
        for t in tool_uses
    ]
    messages.append({"role": "user", "content": results})
    return client.messages.create(
        model="claude-sonnet-4-6", max_tokens=1024, tools=tools, system=system, messages=messages
    )
\`\`\`

\`\`\`ts
import Anthropic from '@anthropic-ai/sdk';

const client = new Anthropic();
const ephemeral = { type: 'ephemeral' as const };

export async function review(diff: string, guide: string, glossary: string, examples: string, rules: string) {
  return client.messages.create({
    model: 'claude-sonnet-4-6',
    max_tokens: 2048,
    system: [
      { type: 'text', text: guide, cache_control: ephemeral },
      { type: 'text', text: glossary, cache_control: ephemeral },
      { type: 'text', text: examples, cache_control: ephemeral },
      { type: 'text', text: rules, cache_control: ephemeral },
    ],
    messages: [{ role: 'user', content: [{ type: 'text', text: diff, cache_control: ephemeral }] }],
  });
}
\`\`\`

## Use instead
Mark only the last block that stays the same (one marker covers everything before it), or let automatic caching (a top-level \`cache_control\`) place one breakpoint on the last block:
\`\`\`python
import anthropic

client = anthropic.Anthropic()
EPHEMERAL = {"type": "ephemeral"}


def next_turn(messages, tool_uses, run_tool, tools, system):
    results = [{"type": "tool_result", "tool_use_id": t.id, "content": run_tool(t)} for t in tool_uses]
    messages.append({"role": "user", "content": results})
    # Automatic caching: one breakpoint on the last block, moved forward every turn.
    return client.messages.create(
        model="claude-sonnet-4-6",
        max_tokens=1024,
        tools=tools,
        system=system,
        messages=messages,
        cache_control=EPHEMERAL,
    )
\`\`\`

\`\`\`ts
import Anthropic from '@anthropic-ai/sdk';

const client = new Anthropic();
const ephemeral = { type: 'ephemeral' as const };

export async function review(diff: string, guide: string, glossary: string, examples: string, rules: string) {
  return client.messages.create({
    model: 'claude-sonnet-4-6',
    max_tokens: 2048,
    system: [
      { type: 'text', text: guide },
      { type: 'text', text: glossary },
      { type: 'text', text: examples },
      { type: 'text', text: rules, cache_control: ephemeral },
    ],
    messages: [{ role: 'user', content: [{ type: 'text', text: diff }] }],
  });
}
\`\`\`
`,
  },

  check(call, ctx) {
    // The AI SDK's Anthropic provider sends the first 4 markers and drops the rest with a
    // warning of its own: the request is not rejected.
    if (!caches(call) || call.framework === 'vercel-ai') return;
    const explicit = explicitMarkers(call).map((m) => ({ ...m, path: displayPath(call, m.path) }));
    const keyed = keyedMarkers(call, ctx.view, ctx.textOf);
    const fixed = explicit.filter((m) => !m.repeated);
    const keyedFixed = keyed.filter((k) => !k.repeat || k.repeat.count !== undefined);
    const fixedCount = fixed.length + keyedFixed.reduce((n, k) => n + (k.repeat?.count ?? 1), 0);

    // Markers whose number depends on the data: one per item, or one more per turn.
    const open: Array<{ at?: Loc; how: 'per-item' | 'per-turn'; what: string; loop: Loc }> = [];
    for (const m of explicit) {
      if (!m.repeated) continue;
      const perTurn = m.repeated.start <= call.at.start && call.at.end <= m.repeated.end;
      open.push({ at: m.at, how: perTurn ? 'per-turn' : 'per-item', what: iterated(ctx, m.repeated) ?? `\`${m.path.replace(/\[\d+\]/g, '[…]')}\``, loop: m.repeated });
    }
    for (const k of keyed) {
      if (!k.repeat || k.repeat.count !== undefined) continue;
      open.push({ at: k.at, how: k.repeat.how, what: k.repeat.iterText ? `\`${k.repeat.iterText}\`` : `\`${k.objectText}\``, loop: k.repeat.loop });
    }

    for (const o of open) {
      const at = inFile(ctx, o.at, call.callee);
      if (!at) continue;
      const others = fixedCount + open.length - 1;
      const room = Math.max(0, LIMIT - others);
      const line = ctx.lineRef(o.loop);
      const found = others + room + 1;
      const message =
        o.how === 'per-item'
          ? `\`cache_control\` is set on every item of ${o.what} (loop at ${line}); with ${others} other marker${others === 1 ? '' : 's'} in the request, ${room + 1} or more items (e.g. ${room + 1} parallel tool results) make ${found} markers, and the API answers 400: \`A maximum of 4 blocks with cache_control may be provided. Found ${found}.\``
          : `A marker is added on every turn of the loop at ${line} and never taken off, so the history carries one more \`cache_control\` each turn; with ${others} other marker${others === 1 ? '' : 's'}, turn ${room + 1} sends ${found} markers and the API answers 400: \`A maximum of 4 blocks with cache_control may be provided. Found ${found}.\``;
      ctx.report({ message, at, related: sources(ctx, fixed, keyedFixed, o.at) });
    }
    if (open.length || fixedCount <= LIMIT) return;

    // A fixed count over the limit: report at the first marker over it, in render order.
    const ordered: Array<{ at?: Loc; label: string }> = [
      ...fixed.map((m) => ({ at: m.at, label: `\`${m.path}\`` })),
      ...keyedFixed.flatMap((k) => Array.from({ length: k.repeat?.count ?? 1 }, () => ({ at: k.at, label: k.repeat ? `one per item of \`${k.repeat.iterText}\`` : `\`${k.objectText}\`` }))),
    ];
    const over = ordered[LIMIT];
    const at = inFile(ctx, over?.at, call.callee);
    if (!at) return;
    const labels = summarize(ordered.map((o) => o.label));
    ctx.report({
      message: `This request has ${fixedCount} \`cache_control\` markers (${labels}); at most 4 are allowed and the API answers 400: \`A maximum of 4 blocks with cache_control may be provided. Found ${fixedCount}.\``,
      at,
      related: sources(ctx, fixed, keyedFixed, at),
    });
  },
});

/** The iterated expression of a comprehension, `.map` call or loop, for the message. */
function iterated(ctx: RuleContext, loop: Loc): string | undefined {
  const text = ctx.textOf(loop);
  const py = /\bfor\s+[\w, ()]+?\s+in\s+([^\n:]+?)(?:\s+if\b|\s*[\])}]\s*$|:|$)/m.exec(text);
  if (py) return `\`${py[1].trim()}\``;
  const js = /^([\w$.[\]()'"-]+?)\s*\.\s*(?:map|flatMap|forEach)\s*\(/.exec(text) ?? /\bfor\s*\(\s*(?:const|let|var)\s+[^)]*?\s+of\s+([^)]+)\)/.exec(text);
  return js ? `\`${js[1].trim()}\`` : undefined;
}

function summarize(labels: string[]): string {
  const counts = new Map<string, number>();
  for (const l of labels) counts.set(l, (counts.get(l) ?? 0) + 1);
  return [...counts].map(([l, n]) => (n > 1 ? `${l} ×${n}` : l)).join(', ');
}

function sources(ctx: RuleContext, fixed: Marker[], keyed: KeyedMarker[], reported?: Loc): Related[] {
  const out: Related[] = [];
  const same = (a: Loc, b?: Loc) => !!b && a.file === b.file && a.start === b.start && a.end === b.end;
  for (const m of fixed) if (m.at && m.at.file === ctx.file && !same(m.at, reported)) out.push({ at: m.at, message: `marker on \`${m.path}\`` });
  for (const k of keyed) if (k.at.file === ctx.file && !same(k.at, reported)) out.push({ at: k.at, message: k.repeat ? `one marker per item of \`${k.repeat.iterText}\`` : `marker set on \`${k.objectText}\`` });
  return out;
}
