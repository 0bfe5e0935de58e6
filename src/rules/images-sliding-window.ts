import { hasBreakpoint } from '../core/breakpoints';
import { callsOf } from '../core/evidence';
import type { FunctionView } from '../core/fileView';
import type { RequestCall } from '../core/model';
import { param } from '../core/model';
import { defineRule } from '../core/rule';
import type { RuleContext } from '../core/rule';
import type { Loc } from '../core/span';
import { caches } from './util';

/** Code that looks at image blocks. */
const IMAGE = /["']image["']/;
/** Code that drops or replaces blocks. */
const DROPS = /\bcontinue\b|\bdel\s|\.pop\(|\.remove\(|\.splice\(|\.filter\(|!=\s*["']image["']|!==\s*["']image["']|not\s+in\b|omitted|removed|placeholder/;
/** A number of images to keep: the most recent N. */
const KEEP_N = /keep|max_?images|maxImages|most_?recent|mostRecent|recent|last_?n\b|lastN|limit|window|\[\s*-\s*[\w.]+\s*:\s*\]|\.slice\(\s*-/i;
/** Removal in chunks (the documented way to keep the prefix stable between removals). */
const CHUNKED = /%|threshold|chunk|interval/i;

function inside(inner: Loc, outer: Loc): boolean {
  return inner.file === outer.file && outer.start <= inner.start && inner.end <= outer.end;
}

export default defineRule({
  meta: {
    id: 'images-sliding-window',
    group: 'cache',
    severity: 'info',
    fix: 'none',
    // Only files that send a cached request.
    triggers: 'requests',
    summary: 'Older image blocks dropped on every turn (keep the last N screenshots) in a conversation that is cached.',
    docs: `## What it does
Finds a sliding window over images in a cached conversation: a helper (or a filter) that keeps only the last N image blocks, such as the screenshots of a computer-use or browser agent, and drops or replaces the older ones, run on every turn before a request that uses caching. Removal in chunks (the code counts images modulo a threshold, as Anthropic's computer-use reference does) is not reported.

## Why is this bad?
Adding or removing an image anywhere invalidates the cached messages from that point on. A window of the last N screenshots removes the oldest remaining one on every turn, so the first changed message moves forward each turn and everything after it is written to the cache again (1.25× input price) instead of read. Lowering the screenshot resolution is usually the cheaper lever; when images must go, drop them in chunks (every K turns) so the prefix stays the same between removals.

## Example
\`\`\`python
import anthropic

client = anthropic.Anthropic()


def keep_recent_screenshots(messages, keep=3):
    seen = 0
    for message in reversed(messages):
        for block in message["content"] if isinstance(message["content"], list) else []:
            if block.get("type") == "image":
                seen += 1
                if seen > keep:
                    block.clear()
                    block.update({"type": "text", "text": "[screenshot omitted]"})


def agent(task, tools):
    messages = [{"role": "user", "content": task}]
    while True:
        keep_recent_screenshots(messages, keep=3)
        resp = client.beta.messages.create(
            model="claude-sonnet-4-6", max_tokens=2048, tools=tools, messages=messages, cache_control={"type": "ephemeral"}
        )
        messages.append({"role": "assistant", "content": resp.content})
        if resp.stop_reason != "tool_use":
            return resp
\`\`\`

\`\`\`ts
import Anthropic from '@anthropic-ai/sdk';

const client = new Anthropic();

function keepRecentScreenshots(messages: Anthropic.MessageParam[], keep: number) {
  let seen = 0;
  for (const message of [...messages].reverse()) {
    if (typeof message.content === 'string') continue;
    message.content = message.content.filter((block) => block.type !== 'image' || ++seen <= keep);
  }
}

export async function agent(task: string, tools: Anthropic.Tool[]) {
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content: task }];
  for (;;) {
    keepRecentScreenshots(messages, 3);
    const resp = await client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 2048, tools, messages, cache_control: { type: 'ephemeral' } });
    messages.push({ role: 'assistant', content: resp.content });
    if (resp.stop_reason !== 'tool_use') return resp;
  }
}
\`\`\`

## Use instead
Drop screenshots in chunks, so that the prompt stays the same for several turns between removals:
\`\`\`python
import anthropic

client = anthropic.Anthropic()


def drop_old_screenshots(messages, keep=3, chunk=10):
    images = [b for m in messages if isinstance(m["content"], list) for b in m["content"] if b.get("type") == "image"]
    to_remove = len(images) - keep
    to_remove -= to_remove % chunk
    for block in images[: max(0, to_remove)]:
        block.clear()
        block.update({"type": "text", "text": "[screenshot omitted]"})


def agent(task, tools):
    messages = [{"role": "user", "content": task}]
    while True:
        drop_old_screenshots(messages)
        resp = client.beta.messages.create(
            model="claude-sonnet-4-6", max_tokens=2048, tools=tools, messages=messages, cache_control={"type": "ephemeral"}
        )
        messages.append({"role": "assistant", "content": resp.content})
        if resp.stop_reason != "tool_use":
            return resp
\`\`\`

\`\`\`ts
import Anthropic from '@anthropic-ai/sdk';

const client = new Anthropic();

function dropOldScreenshots(messages: Anthropic.MessageParam[], keep: number, chunk: number) {
  const images = messages.flatMap((m) => (typeof m.content === 'string' ? [] : m.content.filter((b) => b.type === 'image')));
  let toRemove = images.length - keep;
  toRemove -= toRemove % chunk;
  for (const m of messages) {
    if (typeof m.content === 'string' || toRemove <= 0) continue;
    m.content = m.content.filter((b) => b.type !== 'image' || toRemove-- <= 0);
  }
}

export async function agent(task: string, tools: Anthropic.Tool[]) {
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content: task }];
  for (;;) {
    dropOldScreenshots(messages, 3, 10);
    const resp = await client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 2048, tools, messages, cache_control: { type: 'ephemeral' } });
    messages.push({ role: 'assistant', content: resp.content });
    if (resp.stop_reason !== 'tool_use') return resp;
  }
}
\`\`\`
`,
  },

  checkFile(ctx) {
    const cached = ctx.calls.filter((c) => caches(c) && hasBreakpoint(c, ctx.view, ctx.textOf));
    if (!cached.length) return;
    for (const f of ctx.view.functions) {
      if (!isWindow(f.text) || cached.some((c) => inside(c.at, f.at))) continue;
      for (const site of callsOf(ctx.view, f)) {
        if (site.at.file !== ctx.file || !perTurn(ctx, site.at, cached)) continue;
        ctx.report({
          message: `\`${f.name}(...)\` keeps only the most recent images and drops the older ones on every turn: each turn the first changed message moves forward and everything after it is written to the cache again instead of read. Lower the image resolution instead, or drop images in chunks every few turns.`,
          at: site.at,
        });
      }
    }
  },
});

/** A function that keeps the last N images and drops or replaces the rest, not in chunks. */
function isWindow(text: string): boolean {
  return IMAGE.test(text) && DROPS.test(text) && KEEP_N.test(text) && !CHUNKED.test(text);
}

/**
 * Runs before a cached request on every turn: in the loop that sends it, or right before it in
 * the same function when that request resends a kept history (an event handler of a chat UI).
 */
function perTurn(ctx: RuleContext, at: Loc, cached: readonly RequestCall[]): boolean {
  const loop = ctx.view.enclosingLoop(at);
  if (loop && cached.some((c) => inside(c.at, loop.at))) return true;
  const fn = ctx.view.enclosingFunction(at);
  if (!fn) return false;
  return cached.some((c) => ctx.view.enclosingFunction(c.at) === fn && c.at.start > at.end && (resendsHistory(ctx, c) || isCalledPerTurn(ctx, fn)));
}

/** The request's messages are not a list written fresh in its function: a history kept between turns. */
function resendsHistory(ctx: RuleContext, call: RequestCall): boolean {
  const m = param(call, 'messages');
  if (!m) return false;
  if (m.kind !== 'list' || !m.complete || !m.at) return true;
  return ctx.view.enclosingFunction(m.at) !== ctx.view.enclosingFunction(call.at);
}

function isCalledPerTurn(ctx: RuleContext, fn: FunctionView): boolean {
  return callsOf(ctx.view, fn).some((c) => ctx.view.enclosingLoop(c.at) !== undefined);
}
