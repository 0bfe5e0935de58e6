import { callsOf } from '../core/evidence';
import type { FunctionView } from '../core/fileView';
import type { RequestCall } from '../core/model';
import { param, prefixBlocks } from '../core/model';
import { defineRule } from '../core/rule';
import type { RuleContext } from '../core/rule';
import type { Loc } from '../core/span';
import { sameLoc } from '../core/span';
import { lastCachedBlock } from './util';

/**
 * Code that looks at images: Messages API `image` blocks, or the screenshots of a framework's
 * own history format (Responses-style `input_image` / `image_url` parts of `computer_call_output`
 * items, as cua keeps them).
 */
const IMAGE = /["'](?:image|input_image|image_url)["']/;
/** Code that drops or replaces blocks. */
const DROPS = /\bcontinue\b|\bdel\s|\.pop\(|\.remove\(|\.splice\(|\.filter\(|!=\s*["']image["']|!==\s*["']image["']|not\s+in\b|omitted|removed|placeholder/;
/** A number of images to keep: the most recent N. */
const KEEP_N = /keep|max_?images|maxImages|most_?recent|mostRecent|recent|last_?n\b|lastN|limit|window|\[\s*-\s*[\w.]+\s*:\s*\]|\.slice\(\s*-/i;
/** The slice that keeps the last N, or takes the ones before them: `items[-n:]`, `items[:-n]`, `items.slice(-n)`, `items.slice(0, -n)`. */
const KEEP_SLICE = /[\w.]*\[\s*-\s*[\w.()]+\s*:\s*\]|[\w.]*\[\s*:\s*-\s*[\w.()]+\s*\]|[\w.]*\.slice\(\s*(?:0\s*,\s*)?-[^)]*\)/;
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
    // Files that send a cached request, and (Python) the callbacks of cua's agent loop, which
    // it runs on the history before every model call (lang/turnHooks.ts), and the agents built with
    // its option that keeps the last N screenshots, given with its caching option.
    triggers: { python: { anyOf: ['requests', [/\bon_llm_start\b/, /\bAsyncCallbackHandler\b/], [/\bonly_n_most_recent_images\b/, /\buse_prompt_caching\b/]] }, typescript: 'requests' },
    summary: 'Older image blocks dropped on every turn (keep the last N screenshots) in a conversation that is cached.',
    docs: `## What it does
Finds a sliding window over images in a cached conversation: a helper (or a filter) that keeps only the last N image blocks, such as the screenshots of a computer-use or browser agent, and drops or replaces the older ones, run on every turn before a request whose cache covers the conversation. Every turn means: in the loop that sends the request, right before a request that resends a kept history, or in a hook the agent framework runs before each model call — the AI SDK's \`prepareStep\` of \`generateText\` / \`streamText\`, or the \`on_llm_start\` of a cua callback (\`AsyncCallbackHandler\`), whose history is cua's own list of Responses-style items (a screenshot is the \`image_url\` of a \`computer_call_output\`); a cua callback is reported at the slice that keeps the last N when the project builds its agent with \`use_prompt_caching=True\` for a Claude model (or one not known), with that place as a related one. cua's own window, the option \`only_n_most_recent_images=N\` of \`ComputerAgent\`, is reported where it is given to an agent that also turns \`use_prompt_caching\` on. Removal in chunks (the code counts images modulo a threshold, as Anthropic's computer-use reference does) is not reported.

The cache covers the conversation when a breakpoint is on a message or covers the whole request (a top-level \`cache_control\`, the AI SDK's \`providerOptions.anthropic.cacheControl\` on the call). A request that caches only its tools or system prompt sends the conversation in full on every turn, so dropping images from it rewrites nothing in the cache: it is not reported, nor is a request without any breakpoint.

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
    checkTurnHooks(ctx);
    for (const w of ctx.view.agentImageWindows) {
      if (!w.cachedAt) continue;
      ctx.report({
        message: `\`${ctx.textOf(w.option)}\` makes ${w.framework} keep only the screenshots of the last ${w.keep} steps and drop the older ones before every model call, and this agent caches its history: each turn the first changed message moves forward and everything after it is written to the cache again instead of read. Lower the image resolution instead, or leave the option out while prompt caching is on.`,
        at: w.option,
        related: [{ at: w.cachedAt, message: 'prompt caching turned on for the same agent here' }],
      });
    }
    const cached = ctx.calls.filter((c) => cachesConversation(c, ctx));
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

/**
 * A window run by an agent framework's per-turn hook (FileView.turnHooks): the hook itself, or a
 * function of the file it calls, keeps the last N images, and the project turns on the
 * framework's caching of that history. Reported at the slice that keeps the last N (where the
 * fix goes), else at the window's name; the hook and the places that turn caching on are related.
 */
function checkTurnHooks(ctx: RuleContext): void {
  for (const hook of ctx.view.turnHooks) {
    const windows = ctx.view.functions.filter((f) => isWindow(f.text) && (sameLoc(f.at, hook.at) || callsOf(ctx.view, f).some((c) => inside(c.at, hook.at))));
    if (!windows.length) continue;
    const cachedBy = hook.cachedBy();
    if (!cachedBy.length) continue;
    for (const f of windows) {
      const keep = KEEP_SLICE.exec(f.text);
      const nameAt = f.name ? f.text.indexOf(f.name) : -1;
      const at: Loc = keep ? { file: f.at.file, start: f.at.start + keep.index, end: f.at.start + keep.index + keep[0].length } : nameAt >= 0 ? { file: f.at.file, start: f.at.start + nameAt, end: f.at.start + nameAt + f.name!.length } : f.at;
      ctx.report({
        message: `This ${hook.framework} callback keeps only the most recent images and drops the older ones before every model call (\`${hook.name}\`), and the project turns on prompt caching for that history: each turn the first changed message moves forward and everything after it is written to the cache again instead of read. Lower the image resolution instead, or drop images in chunks every few turns.`,
        at,
        related: [
          { at: hook.at, message: `${hook.framework} runs \`${hook.name}\` on the history before every model call` },
          ...cachedBy.map((c) => ({ at: c, message: 'prompt caching turned on for the agent here' })),
        ],
      });
    }
  }
}

/**
 * The request's cached prefix reaches into the conversation, where the images are: a breakpoint
 * on a message, or one that covers the whole request. A breakpoint on the tools or the system
 * prompt only keeps caching those, whatever the messages after them drop.
 */
function cachesConversation(call: RequestCall, ctx: RuleContext): boolean {
  const last = lastCachedBlock(call, ctx);
  return last >= 0 && prefixBlocks(call)[last]?.section === 'messages';
}

/** A function that keeps the last N images and drops or replaces the rest, not in chunks. */
function isWindow(text: string): boolean {
  return IMAGE.test(text) && DROPS.test(text) && KEEP_N.test(text) && !CHUNKED.test(text);
}

/**
 * Runs before a cached request on every turn: in the loop that sends it, in a hook its framework
 * runs before each step of its tool loop (RequestCall.stepHooks: the AI SDK's `prepareStep`), or
 * right before it in the same function when that request resends a kept history (an event
 * handler of a chat UI).
 */
function perTurn(ctx: RuleContext, at: Loc, cached: readonly RequestCall[]): boolean {
  if (cached.some((c) => c.stepHooks?.some((hook) => inside(at, hook)))) return true;
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
