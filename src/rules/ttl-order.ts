import type { Marker } from '../core/breakpoints';
import { displayPath, explicitMarkers, lastBlock, topLevelMarker } from '../core/breakpoints';
import { defineRule } from '../core/rule';
import type { RequestCall } from '../core/model';
import type { RuleContext } from '../core/rule';
import type { Loc } from '../core/span';
import { basename, caches, inFile } from './util';

const API_ERROR =
  "a ttl='1h' cache_control block must not come after a ttl='5m' cache_control block. Note that blocks are processed in the following order: `tools`, `system`, `messages`.";

export default defineRule({
  meta: {
    id: 'ttl-order',
    group: 'cache',
    severity: 'error',
    fix: 'none',
    // Its file check reads the requests of the classes the file builds; only files that may hold requests.
    triggers: 'requests',
    summary: "A ttl '1h' cache_control marker after a '5m' (or default) marker in render order: the API rejects it.",
    docs: `## What it does
Reads the \`ttl\` of every \`cache_control\` marker of a request in render order (tools → system → messages, then the top-level automatic one, which lands on the last block) and reports a \`ttl: "1h"\` marker that comes after a \`ttl: "5m"\` marker or after a marker without \`ttl\` (which means 5 minutes).

A class that wraps the SDK often chooses its markers from the options it is built with (\`Assistant(cache_tools=True, system_ttl="1h")\`, \`new Assistant({ cacheTools: true })\`). For each instance that a file builds of such a class of the workspace, and then uses to send (it calls a method that leads to the request, hands the instance on, or binds it at module level outside tests), the class's request is read again for that instance: its fields are what its constructor stores for those arguments (or a dataclass's keyword fields), and the tests on them decide which markers are written. A conflict that only this instance has is reported where the instance is built; one that every instance has is reported at the request. Only files that may hold requests themselves are read this way, and not test files (a test builds the class with each option in turn to exercise it; that is not how the program is configured). agno's \`Claude(cache_tools=True, extended_cache_time=True, system_prompt_blocks=[...])\` is read in agno's terms: the last tool of the agent it is handed to gets a 5-minute marker, and each cached \`SystemPromptBlock\` its own \`ttl\` (else the model's).

A class that its own module does not build (a library's model wrapper, there for other modules) is read in its module for the combinations of its options that have a written \`True\`/\`False\` default (a dataclass's fields, a constructor's parameters): every such option set the other way, then each set back to its default while the conflict remains. A conflict that some combination has, and the request does not have for the defaults, is reported once, at the marker of that module that takes part, with the options it needs (agno's \`Claude\` with \`cache_system_prompt=True, extended_cache_time=True, cache_tools=True\`): any caller that chooses them gets a 400 on every request.

## Why is this bad?
Entries with the 1-hour lifetime must come before 5-minute ones: the longer-lived prefix has to be the shorter one. The API answers a request that breaks this order with a 400: "${API_ERROR}" The common way to get there is a default (5-minute) marker on the tools and a \`"1h"\` marker on the system prompt or the conversation.

## Example
\`\`\`python
from pathlib import Path

import anthropic

client = anthropic.Anthropic()
POLICY = Path("order-policy.md").read_text()
TOOLS = [{"name": "lookup_order", "description": "Find an order by id.", "input_schema": {"type": "object", "properties": {"id": {"type": "string"}}}, "cache_control": {"type": "ephemeral"}}]


def answer(question):
    return client.messages.create(
        model="claude-sonnet-4-6",
        max_tokens=1024,
        tools=TOOLS,
        system=[{"type": "text", "text": POLICY, "cache_control": {"type": "ephemeral", "ttl": "1h"}}],
        messages=[{"role": "user", "content": question}],
    )
\`\`\`

\`\`\`ts
import Anthropic from '@anthropic-ai/sdk';
import { readFileSync } from 'node:fs';

const client = new Anthropic();
const POLICY = readFileSync('order-policy.md', 'utf8');

export async function answer(question: string) {
  return client.messages.create({
    model: 'claude-sonnet-4-6',
    max_tokens: 1024,
    system: [
      { type: 'text', text: "You are Acme's order assistant.", cache_control: { type: 'ephemeral', ttl: '5m' } },
      { type: 'text', text: POLICY, cache_control: { type: 'ephemeral', ttl: '1h' } },
    ],
    messages: [{ role: 'user', content: question }],
  });
}
\`\`\`

## Use instead
Give the earlier markers the longer lifetime (or drop the \`"1h"\` from the later one):
\`\`\`python
from pathlib import Path

import anthropic

client = anthropic.Anthropic()
POLICY = Path("order-policy.md").read_text()
TOOLS = [{"name": "lookup_order", "description": "Find an order by id.", "input_schema": {"type": "object", "properties": {"id": {"type": "string"}}}, "cache_control": {"type": "ephemeral", "ttl": "1h"}}]


def answer(question):
    return client.messages.create(
        model="claude-sonnet-4-6",
        max_tokens=1024,
        tools=TOOLS,
        system=[{"type": "text", "text": POLICY, "cache_control": {"type": "ephemeral", "ttl": "1h"}}],
        messages=[{"role": "user", "content": question}],
    )
\`\`\`

\`\`\`ts
import Anthropic from '@anthropic-ai/sdk';
import { readFileSync } from 'node:fs';

const client = new Anthropic();
const POLICY = readFileSync('order-policy.md', 'utf8');

export async function answer(question: string) {
  return client.messages.create({
    model: 'claude-sonnet-4-6',
    max_tokens: 1024,
    system: [
      { type: 'text', text: "You are Acme's order assistant.", cache_control: { type: 'ephemeral', ttl: '1h' } },
      { type: 'text', text: POLICY, cache_control: { type: 'ephemeral', ttl: '5m' } },
    ],
    messages: [{ role: 'user', content: question }],
  });
}
\`\`\`
`,
  },

  check(call, ctx) {
    if (!caches(call)) return;
    for (const { long, short } of conflicts(call)) {
      const at = inFile(ctx, long.at, call.callee);
      if (!at) continue;
      ctx.report({
        message: `${describeLong(long)} has ttl '1h' but comes after ${describeShort(short)} in render order; the API answers 400: "${API_ERROR}"`,
        at,
        related: short.at && short.at.file === ctx.file ? [{ at: short.at, message: `the earlier 5-minute marker on \`${short.path}\`` }] : [],
      });
    }
  },

  checkFile(ctx) {
    optionConflicts(ctx);
    // A class that chooses its markers from its options: the request one instance sends, reported where that instance is built.
    for (const call of ctx.constructedCalls) {
      const instance = call.instance;
      if (!instance || !caches(call)) continue;
      const mine = conflicts(call);
      if (!mine.length) continue;
      const anyInstance = conflicts({ ...call, params: instance.general });
      for (const { long, short } of mine) {
        // What the request sends for any instance is reported at the request itself.
        if (anyInstance.some((c) => c.long.path === long.path && c.short.path === short.path)) continue;
        const related = [
          { at: long.at ?? call.callee, message: `the ttl '1h' marker on \`${long.path}\` of the request at ${place(ctx, call)}` },
          ...(short.at ? [{ at: short.at, message: `the earlier 5-minute marker on \`${short.path}\`` }] : []),
        ];
        ctx.report({
          message: `The \`${instance.className}\` built here sends a request (${place(ctx, call)}) where ${lowerFirst(describeLong(long))} has ttl '1h' but comes after ${describeShort(short)} in render order; the API answers 400: "${API_ERROR}"`,
          at: instance.callee,
          related,
        });
      }
    }
  },
});

/**
 * A class of this file whose options choose its markers (`cache_tools`, `extended_cache_time`):
 * its requests read with every option that has a `True`/`False` default set the other way, and a
 * conflict found there that the request does not have for any instance is reported with the
 * options it needs: each option is set back to its default in turn and stays so when the
 * conflict remains. Reported at the marker of this file that takes part (the 1-hour one, else the
 * 5-minute one), else at the request.
 */
function optionConflicts(ctx: RuleContext): void {
  const groups = new Map<string, { className: string; where: Loc; options: string; long: Marker; short: Marker; calls: RequestCall[] }>();
  for (const oc of ctx.optionClasses) {
    const allSet = new Map(oc.options.map((o) => [o.name, !o.default] as const));
    // Combinations already found (the same conflict in each of a class's requests): tried first.
    const found: Array<Map<string, boolean>> = [];
    for (let i = 0; i < oc.requestCount; i++) {
      const at = oc.requestAt(i);
      const general = ctx.calls.filter((c) => c.at.file === at.file && c.at.start === at.start).flatMap((c) => (caches(c) ? conflicts(c) : []));
      const isNew = (c: { long: Marker; short: Marker }) => !general.some((g) => g.long.path === c.long.path && g.short.path === c.short.path);
      const readWith = (set: ReadonlyMap<string, boolean>) => oc.request(i, set).filter(caches).flatMap((call) => conflicts(call).filter(isNew).map((c) => ({ call, ...c })));
      const same = (a: { long: Marker; short: Marker }, b: { long: Marker; short: Marker }) => a.long.path === b.long.path && a.short.path === b.short.path;
      let hits: Array<{ call: RequestCall; long: Marker; short: Marker; set: Map<string, boolean> }> = [];
      for (const set of found) {
        hits = readWith(set).map((h) => ({ ...h, set }));
        if (hits.length) break;
      }
      if (!hits.length) {
        const first = readWith(allSet);
        if (!first.length) continue;
        const target = first[0];
        const set = new Map(allSet);
        let current = first;
        for (const o of oc.options) {
          const without = new Map(set);
          without.delete(o.name);
          const read = readWith(without);
          if (!read.some((h) => same(h, target))) continue;
          set.delete(o.name);
          current = read;
        }
        found.push(set);
        hits = current.map((h) => ({ ...h, set }));
      }
      for (const { call, long, short, set } of hits) {
        const where = inFile(ctx, long.at, undefined) ?? inFile(ctx, short.at, undefined) ?? inFile(ctx, call.callee, undefined);
        if (!where) continue;
        const options = [...set].map(([name, value]) => `${name}=${ctx.language === 'python' ? (value ? 'True' : 'False') : String(value)}`).join(', ');
        const key = `${where.start}:${where.end}\u0000${long.path}\u0000${short.path}\u0000${options}`;
        const group = groups.get(key);
        if (group) {
          if (!group.calls.some((c) => c.callee.start === call.callee.start)) group.calls.push(call);
        } else groups.set(key, { className: oc.className, where, options, long, short, calls: [call] });
      }
    }
  }
  // One finding per place and conflict, however many of the class's requests have it.
  for (const { className, where, options, long, short, calls } of groups.values()) {
    const places = calls.map((c) => place(ctx, c));
    const sends = places.length === 1 ? `a request (${places[0]})` : `requests (${places.slice(0, 3).join(', ')}${places.length > 3 ? ` and ${places.length - 3} more` : ''})`;
    const related = [
      ...(long.at && long.at.file === ctx.file && long.at !== where ? [{ at: long.at, message: `the ttl '1h' marker on \`${long.path}\`` }] : []),
      ...(short.at && short.at.file === ctx.file && short.at !== where ? [{ at: short.at, message: `the earlier 5-minute marker on \`${short.path}\`` }] : []),
      ...calls.filter((c) => c.callee.file === ctx.file).map((c) => ({ at: c.callee, message: 'a request with this conflict' })),
    ];
    ctx.report({
      message: `A \`${className}\` built with ${options || 'its defaults'} sends ${sends} where ${lowerFirst(describeLong(long))} has ttl '1h' but comes after ${describeShort(short)} in render order; the API answers 400: "${API_ERROR}"`,
      at: where,
      related,
    });
  }
}

/** The 1-hour markers of a request that come after a 5-minute one in render order, each with the first such 5-minute marker. */
function conflicts(call: RequestCall): Array<{ long: Marker; short: Marker }> {
  const markers: Marker[] = explicitMarkers(call).map((m) => ({ ...m, path: displayPath(call, m.path) }));
  const top = topLevelMarker(call);
  // On a last block that is already marked, a TTL mismatch is automatic-breakpoint-conflict's.
  if (top && !lastBlock(call)?.cacheControl) markers.push(top);
  const out: Array<{ long: Marker; short: Marker }> = [];
  let short: Marker | undefined;
  for (const m of markers) {
    if (m.ttl === '5m') {
      short ??= m;
      continue;
    }
    if (m.ttl === '1h' && short) out.push({ long: m, short });
  }
  return out;
}

function describeLong(m: Marker): string {
  return m.topLevel ? 'The top-level (automatic) `cache_control`, which lands on the last block,' : `The marker on \`${m.path}\``;
}

function describeShort(m: Marker): string {
  return m.value.kind === 'obj' && m.value.entries.some((e) => e.key === 'ttl') ? `a ttl '5m' marker on \`${m.path}\`` : `the marker on \`${m.path}\` (no \`ttl\`, so 5m)`;
}

function lowerFirst(s: string): string {
  return s.charAt(0).toLowerCase() + s.slice(1);
}

/** Where a request is written: `line N` in this file (a notebook's cell and line), else `file.py:N`. */
function place(ctx: RuleContext, call: RequestCall): string {
  if (call.file === ctx.file) return ctx.lineRef(call.callee);
  return `${basename(call.file)}:${ctx.textOf({ file: call.file, start: 0, end: call.callee.start }).split('\n').length}`;
}
