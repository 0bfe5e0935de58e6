import { messageList } from '../core/breakpoints';
import { hasFixedText, perRequestStrength, systemRebuilt } from '../core/evidence';
import type { Fix } from '../core/fix';
import type { PrefixBlock, RequestCall } from '../core/model';
import { param, prefixBlocks } from '../core/model';
import { defineRule } from '../core/rule';
import type { RuleContext } from '../core/rule';
import type { PerLanguage } from '../core/edits';
import type { Loc } from '../core/span';
import type { Taint, Value } from '../core/value';
import { allTaints, stabilityOf } from '../core/value';
import { basename, changedDefinition, fileText, holderIn, inFile, lastCachedBlock, newestUserTurn, paramSite, relatedFor, UNCACHED_POLICY, uniqueTaints, usedAlsoBy } from './util';

export default defineRule({
  meta: {
    id: 'dynamic-content-before-breakpoint',
    group: 'cache',
    severity: 'warning',
    fix: 'sometimes',
    summary: 'Per-request data (retrieved facts, memory hits, request fields) inside tools, system or earlier messages, before the last cache breakpoint.',
    docs: `## What it does
Finds per-request data placed in the cached prefix of a request that uses caching: in \`tools\`, in \`system\`, or in a message block before the newest turn, up to the last \`cache_control\` breakpoint (the whole request with automatic caching). Per-request data means values returned by retrieval, memory, search and rerank calls (\`store.search(...)\`, \`retriever.get_relevant_documents(...)\`, \`similarity_search\`, \`reranker.rerank(query, docs)\`; also a function of the project named so, \`recall_facts(user_id, question)\`, whose body reads a store that the analysis does not see), fields of the incoming request, and loop variables of a loop that sends one request per item (not of a loop that gathers its items into one value, such as the server tools an agent is configured with appended to its tool list). A function parameter counts only when it certainly carries request data (a route handler's or graph node's parameter, a parameter named like the incoming request, the user's message or a tool call's input (\`tool_input\`), or one that a caller in the same file fills with such data) and it is written into text that also has a fixed part (\`f"You help {req.company} employees"\`); a parameter that every caller fills with a constant, or whose callers cannot be seen, is not reported. The newest user message itself is not reported: that is where this data belongs. The LangChain form \`("system", f"Known about user: {facts}")\` and the Vercel AI SDK's \`system\` are read the same way.

What callers pass is followed into the function that sends the request: calls in the same file and, for a method of a class, calls on an instance of the class, or on a receiver that nothing resolves (a provider chosen at run time, passed in, or built by a factory), also in the other files of the project when the whole project is checked; such a call's arguments are read with its receiver standing for an instance of the class. A top-level function of a module that sends requests (\`ask(context, question)\` in \`llm.py\`) takes what the other files of the project that import it pass (\`llm.ask(context, q)\`, \`ask(context, q)\`, also under another name: \`from app.llm import ask as lookup\`, \`import lookup from './llm'\` of a default export), and so does a top-level function those callers' own parameters come from, a few calls up: retrieved text handed down to the wrapper is reported in the wrapper's file, where it is written into the cached text, with where it is retrieved and each assignment on its way as related places. So a prompt built by one method (\`buildMessages({ docs })\` putting the retrieved text in the system message) and sent by another (\`system: messages[0].content\`) is read as one value, wherever the caller is. ${UNCACHED_POLICY}

## Why is this bad?
The cache reuses a prefix only when every byte before the breakpoint is the same as in an earlier request. Data fetched for this request ("prepend the retrieved facts to the system prompt") makes the prefix different on every call: the system prompt and all the history after it are written to the cache again (1.25× input price) and never read. The stable instructions belong before the breakpoint, the per-request data after it, in the newest user turn.

## Example
\`\`\`python
from pathlib import Path

import anthropic

client = anthropic.Anthropic()
INSTRUCTIONS = Path("prompts/support.md").read_text()


def reply(memory, user_id, history, question):
    facts = memory.search(user_id, question)
    return client.messages.create(
        model="claude-sonnet-4-6",
        max_tokens=1024,
        system=[{"type": "text", "text": f"{INSTRUCTIONS}\\nKnown about the user: {facts}", "cache_control": {"type": "ephemeral"}}],
        messages=[*history, {"role": "user", "content": question}],
    )
\`\`\`

\`\`\`ts
import Anthropic from '@anthropic-ai/sdk';
import { readFileSync } from 'node:fs';
import { searchMemories } from './memory';

const client = new Anthropic();
const INSTRUCTIONS = readFileSync('prompts/support.md', 'utf8');

export async function reply(userId: string, history: Anthropic.MessageParam[], question: string) {
  const facts = await searchMemories(userId, question);
  return client.messages.create({
    model: 'claude-sonnet-4-6',
    max_tokens: 1024,
    system: [{ type: 'text', text: \`\${INSTRUCTIONS}\\nKnown about the user: \${facts}\`, cache_control: { type: 'ephemeral' } }],
    messages: [...history, { role: 'user', content: question }],
  });
}
\`\`\`

## Use instead
\`\`\`python
from pathlib import Path

import anthropic

client = anthropic.Anthropic()
INSTRUCTIONS = Path("prompts/support.md").read_text()


def reply(memory, user_id, history, question):
    facts = memory.search(user_id, question)
    return client.messages.create(
        model="claude-sonnet-4-6",
        max_tokens=1024,
        system=[{"type": "text", "text": INSTRUCTIONS, "cache_control": {"type": "ephemeral"}}],
        messages=[*history, {"role": "user", "content": f"[known about you]\\n{facts}\\n\\n" + question}],
    )
\`\`\`

\`\`\`ts
import Anthropic from '@anthropic-ai/sdk';
import { readFileSync } from 'node:fs';
import { searchMemories } from './memory';

const client = new Anthropic();
const INSTRUCTIONS = readFileSync('prompts/support.md', 'utf8');

export async function reply(userId: string, history: Anthropic.MessageParam[], question: string) {
  const facts = await searchMemories(userId, question);
  return client.messages.create({
    model: 'claude-sonnet-4-6',
    max_tokens: 1024,
    system: [{ type: 'text', text: INSTRUCTIONS, cache_control: { type: 'ephemeral' } }],
    messages: [...history, { role: 'user', content: \`[known about you]\\n\${facts}\\n\\n\` + question }],
  });
}
\`\`\`

## Fix safety
The fix removes the interpolation (with its label, such as \`Known about the user: \`) from the system text and puts the value first in the newest user message as \`[known about you]\\n{facts}\\n\\n\`, followed by the question. It is offered when the value is interpolated into an f-string or template literal on its own (after a label or at the start of a line) and the newest user message is a string, and it is always unsafe: the model now reads the data in the user turn instead of the system prompt, which can change its answers.

When the interpolation is in a prompt helper of another module the request imports (\`system=build_system(docs)\`, with \`{docs}\` in \`prompts.py\`), the fix removes it there and writes it into the user turn of the request in the request's terms: each parameter of the helper that the moved expression reads becomes the argument the request passes for it (by keyword or by place), with the imports the expression needs. It is offered only when that argument is a name or an attribute read (reading it again in the user turn gives the same value; a call such as \`build_system(search(q))\` would run again) and the helper does nothing else with the parameter (assigns it, changes it, tests it), and when every use of the helper can be seen (as for volatile-system-prompt: the whole project walked, not a package's public module, no look-up by name). When other code uses the helper too (another request, a log line), it loses the data as well, and the fix's title lists those uses.
`,
  },

  check(call, ctx) {
    const last = lastCachedBlock(call, ctx);
    if (last < 0) return;
    const blocks = prefixBlocks(call);

    const list = messageList(call);
    const newest = list && (list.complete || list.tailKnown) ? list.items.length - 1 : -1;
    // Rebuilt on every turn from the loop's state: system-rebuilt-in-loop says so.
    const rebuilt = systemRebuilt(call, ctx.view, ctx.textOf);
    const found: Array<{ t: Taint; block: PrefixBlock }> = [];
    for (let i = 0; i <= last && i < blocks.length; i++) {
      const b = blocks[i];
      if (b.section === 'messages') {
        // The newest turn is where per-request data belongs; a marked message block is breakpoint-on-volatile-block's.
        const m = /^messages\[(\d+)\]/.exec(b.path);
        const index = m ? Number(m[1]) : -1;
        if (index < 0 || index === newest || (newest < 0 && index === (list?.items.length ?? 0) - 1)) continue;
        const message = list?.items[index];
        if (!message || message.kind !== 'obj' || message.repeated || b.value.repeated || b.cacheControl) continue;
      }
      for (const t of allTaints(b.value)) {
        if (t.cls !== 'per-request' || t.kind === 'selector' || t.kind === 'filter') continue;
        if (rebuilt && b.section === 'system' && t.kind !== 'retrieval') continue;
        // Only what certainly changes per request: retrieval results, the loop's item, request fields
        // (a handler's parameters, a parameter a caller in this file fills with request data).
        if (perRequestStrength(ctx.view, t, call) !== 'certain') continue;
        // A request field is reported when it is written into text that also has a fixed part.
        if (t.kind === 'parameter' && !(t.embed && hasFixedText(stringHolding(b.value, t)))) continue;
        // A whole system prompt chosen per user is per-user-prefix.
        if (b.section !== 'messages' && !t.embed && !hasFixedText(param(call, b.section) ?? b.value) && !hasStableSibling(call, b)) continue;
        found.push({ t, block: b });
      }
    }
    const seen = new Set<string>();
    const rank = (t: Taint) => (t.kind === 'retrieval' ? 0 : t.kind === 'loop-variable' ? 1 : 2);
    // Within a kind, a value written into a text of this file first: that is where the fix goes.
    const here = (t: Taint) => (t.embed?.file === ctx.file ? 0 : 1);
    found.sort((a, b) => rank(a.t) - rank(b.t) || here(a.t) - here(b.t));
    // One finding per place a value enters: the same value reached by two paths (a text built from
    // it and the value itself) is reported where it is written into this file's text, once.
    const reported: Array<{ origin: string; at: Loc }> = [];
    for (const { t, block } of found) {
      const site = paramSite(call, block.section);
      const at = inFile(ctx, t.embed, t.at, holderIn(ctx, block.value, t, site) ?? site);
      if (!at) continue;
      const key = `${at.start}:${at.end}`;
      const origin = `${t.at.file}:${t.at.start}:${t.at.end}`;
      if (seen.has(key) || reported.some((r) => r.origin === origin && r.at.start <= at.end && at.start <= r.at.end)) continue;
      seen.add(key);
      reported.push({ origin, at });
      const written = t.embed && t.embed.file === ctx.file ? ctx.textOf(t.embed).replace(/^\$?\{|\}$/g, '').trim() : t.text;
      // A loop variable passed down by a caller is named where it is written (`code`), with the loop it comes from.
      const passed = t.kind === 'loop-variable' && written !== t.text;
      const what =
        t.kind === 'retrieval'
          ? `data retrieved for this request (\`${t.text}\`)`
          : passed
            ? `request data (\`${written}\`, from the loop variable \`${t.text}\` of a caller)`
            : t.kind === 'loop-variable'
              ? `the loop variable \`${t.text}\``
              : `request data (\`${written}\`)`;
      const where = block.section === 'messages' ? `an earlier message (\`${block.path}\`)` : `\`${block.section}\``;
      ctx.report({
        message: `${cap(where)} includes ${what} before the last cache breakpoint: the cached prefix differs on every request, so it is written (1.25× input price) and never read. Keep the stable part there and put this in the newest user message.`,
        at,
        related: relatedFor(ctx, t, at),
        fix: block.section === 'system' ? moveToUserTurn(call, t, ctx) : undefined,
      });
    }
    void uniqueTaints;
  },
});

function cap(s: string): string {
  return s.startsWith('`') ? s : s[0].toUpperCase() + s.slice(1);
}

/** The string (inside a block, tool or list) into which a taint is interpolated. */
function stringHolding(v: Value, t: Taint): Value | undefined {
  if (v.kind === 'str') return v.taints.some((x) => x.at.start === t.at.start && x.at.end === t.at.end && x.embed?.start === t.embed?.start) ? v : undefined;
  if (v.kind === 'list') for (const i of v.items) { const s = stringHolding(i, t); if (s) return s; }
  if (v.kind === 'obj') for (const e of v.entries) { const s = stringHolding(e.value, t); if (s) return s; }
  return undefined;
}

/** Another block of the same section that is constant (`[{text: RULES}, {text: facts}]`). */
function hasStableSibling(call: RequestCall, b: PrefixBlock): boolean {
  return prefixBlocks(call).some((o) => o !== b && o.section === b.section && o.path !== b.path && stabilityOf(o.value) === 'constant');
}

/** The moved value as its own paragraph before the question: `f"[known about you]\n{facts}\n\n" + question`, and the same as a template literal. */
function labelled(label: string, expression: string): PerLanguage<readonly [string, string]> {
  const q = expression.includes('"') ? "'" : '"';
  return {
    python: expression.includes(q) ? undefined : [`f${q}[${label}]\\n{${expression}}\\n\\n${q} + `, ''],
    typescript: expression.includes('`') ? undefined : [`\`[${label}]\\n\${${expression}}\\n\\n\` + `, ''],
  };
}

/** The newest user turn when a fix can write before it: a string, or a name that holds one (other expressions may not be strings). */
function userTurnToWrap(call: RequestCall, ctx: RuleContext): { at: Loc } | undefined {
  const user = newestUserTurn(call);
  if (!user || user.at.file !== ctx.file) return undefined;
  if (user.content.kind === 'list' || user.content.kind === 'obj') return undefined;
  const written = ctx.edits.shape(user.at)?.kind;
  return user.content.kind === 'str' || written === 'name' || written === 'member' ? user : undefined;
}

function labelFor(t: Taint, written: string): string {
  return /memor|fact|profile|user|known|recall/i.test(`${t.text} ${written}`) ? 'known about you' : 'context';
}

function moveToUserTurn(call: RequestCall, t: Taint, ctx: RuleContext): Fix | undefined {
  if (!t.embed) return undefined;
  const user = userTurnToWrap(call, ctx);
  if (!user) return undefined;
  if (t.embed.file !== ctx.file) return moveFromOtherFile(call, t, t.embed, user, ctx);
  const label = labelFor(t, ctx.textOf(t.embed));
  // Only a value that stands on its own can move; one in the middle of a sentence would leave it broken.
  const removed = ctx.edits.removeInterpolation(t.embed, { label: true, standalone: true });
  if (!removed || removed.expression.includes('\\')) return undefined;
  const note = ctx.edits.wrap(user.at, labelled(label, removed.expression), { parenthesize: true });
  if (!note) return undefined;
  return { title: `Move \`${ctx.textOf(t.embed).replace(/^[{$]+|}$/g, '')}\` into the newest user message`, applicability: 'unsafe', edits: [...removed.edits, ...note] };
}

/**
 * The value is interpolated in another file: a prompt helper of a module the request imports
 * (`build_system(docs)` in prompts.py writing `{docs}` into the system text). The fix removes the
 * interpolation there and writes the value into the user turn here, in the request's own terms:
 * each parameter of the helper that it reads becomes what the request's call passes for it (a
 * name or an attribute read, read again in the same function), and the other names it reads get
 * their imports. Offered when every use of the helper can be seen; when other code uses it too
 * (another request, a page that renders it), the title names those uses, which lose the value.
 */
function moveFromOtherFile(call: RequestCall, t: Taint, embed: Loc, user: { at: Loc }, ctx: RuleContext): Fix | undefined {
  const changed = changedDefinition(ctx, embed, call);
  const there = changed && ctx.across.edits(embed.file);
  if (!changed || !there) return undefined;
  // The call of the helper that this value went through: a step of its chain inside the request.
  const helperCall = t.chain.find((step) => {
    if (step.file !== ctx.file || step.start < call.at.start || step.end > call.at.end) return false;
    const s = ctx.edits.shape(step);
    const callee = s?.kind === 'call' ? ctx.edits.shape(s.callee) : undefined;
    return callee?.kind === 'name' && callee.name === changed.def.name;
  });
  const moved = ctx.across.transplant(embed, user.at, helperCall);
  const removed = there.removeInterpolation(embed, { label: true, standalone: true });
  if (!moved || !removed || removed.expression.includes('\\')) return undefined;
  // The expression as the request reads it: each parameter replaced by the caller's argument.
  const source = fileText(ctx, embed.file);
  const from = source.indexOf(removed.expression, embed.start);
  if (from < 0 || from + removed.expression.length > embed.end) return undefined;
  let expression = '';
  let last = from;
  for (const r of moved.replace) {
    if (r.start < last || r.end > from + removed.expression.length) return undefined;
    expression += source.slice(last, r.start) + r.text;
    last = r.end;
  }
  expression += source.slice(last, from + removed.expression.length);
  const note = ctx.edits.wrap(user.at, labelled(labelFor(t, expression), expression), { parenthesize: true });
  const added = moved.imports.map((i) => ctx.edits.addImport(i.statement));
  if (!note || added.some((a) => !a)) return undefined;
  return {
    title: `Move \`${expression}\` into the newest user message (from \`${changed.def.name}\` in ${basename(embed.file)}${usedAlsoBy(ctx, changed.def, changed.others)})`,
    // The model reads the data in the user turn instead of the system prompt: never safe (see core/fix.ts).
    applicability: 'unsafe',
    edits: [...added.flatMap((a) => a!), ...note],
    otherFiles: [{ file: embed.file, edits: removed.edits }],
  };
}
