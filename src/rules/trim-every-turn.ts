import type { FileView } from '../core/fileView';
import { param } from '../core/model';
import type { RequestCall } from '../core/model';
import { defineRule } from '../core/rule';
import type { Loc } from '../core/span';
import { locKey, locWithin } from '../core/span';
import type { Trim, Value } from '../core/value';
import { caches, paramEntry } from './util';

/** Helpers that cut, summarise or clear a history (`trim_messages`, `compact_history`, `clearOldToolResults`). */
const TRIM_NAME = /(trim|compact|summar|truncat|prune|shrink|condense|clear)/i;
/** An argument that makes a helper trim only above a budget (`max_tokens=`, `token_limit=`, `TOKEN_BUDGET`). */
const BUDGET_ARG = /token|budget/i;
/** A condition that checks a size or budget (or runs every n turns), as opposed to a block type or role. */
const BUDGET_TEST = /[<>%]|len\(|\.length\b|token|budget|limit|usage|count|size|max/i;
const TYPE_TEST = /type|role|isinstance|isArray|typeof/;

interface Site {
  at: Loc;
  text: string;
  /** The requests whose history it cuts (the same list can be sent from several places). */
  requests: RequestCall[];
}



function trimsOf(v: Value): Trim[] {
  const out: Trim[] = [...(v.trims ?? [])];
  if (v.kind === 'list') for (const item of v.items) if (item.trims) out.push(...item.trims);
  return out;
}

/**
 * The lists a `messages` expression is built from, as written: `history` in `history`,
 * `[SYSTEM, *history]`, `history + [turn]`, `trim(history, 20)`; `state["messages"]` as a whole.
 */
function listNames(text: string | undefined): Set<string> {
  const out = new Set<string>();
  if (!text) return out;
  if (/^[\w.]+(\[["']\w+["']\])?$/.test(text)) out.add(text);
  const code = text.replace(/(["'`])(?:\\.|(?!\1)[^\\])*\1/g, '""');
  for (const m of code.matchAll(/(?<![\w.])[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*(?![\w.]*\s*\()/g)) out.add(m[0]);
  return out;
}

function shorten(text: string): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > 60 ? one.slice(0, 59) + '…' : one;
}

/**
 * The loop that repeats the request, when the trim runs on every pass of it: no `if` (other
 * than a block type or role test) and no budget-checking `while` between the trim and that loop.
 */
function everyTurn(view: FileView, at: Loc, requests: RequestCall[]): boolean {
  let pos = at;
  for (let depth = 0; depth < 20; depth++) {
    const loop = view.enclosingLoop(pos);
    const cond = view.enclosingCondition(pos);
    if (cond && (!loop || cond.at.start > loop.at.start)) {
      if (!TYPE_TEST.test(cond.conditionText) || BUDGET_TEST.test(cond.conditionText)) return false;
      pos = cond.at;
      continue;
    }
    if (!loop) return false;
    if (requests.some((r) => locWithin(r.at, loop.at))) return true;
    if (loop.conditionText !== undefined && BUDGET_TEST.test(loop.conditionText)) return false;
    pos = loop.at;
  }
  return false;
}

export default defineRule({
  meta: {
    id: 'trim-every-turn',
    group: 'context',
    severity: 'info',
    fix: 'none',
    // Only trims that reach the file's requests.
    triggers: 'requests',
    summary: 'The history is trimmed, cleared or compacted on every turn of the conversation loop, with no token-budget check: the cache never hits.',
    docs: `## What it does
Finds a history that is cut, summarised or cleared unconditionally on every pass of the loop that sends the requests: \`history = history[-20:]\` at the end of each turn, \`history = summarize_history(history)\` every turn, a turn-boundary trim such as \`trim_to_user_turn(history, 20)\` passed as \`messages\`, \`history.pop(0)\` after each reply. A helper's result kept under another name (\`note = summarize(history)\`, sent after the history) does not change the history. A trim under a size or token check (\`if count_tokens(history) > budget:\`, \`while len(history) > 40:\`) or a helper given a budget (\`trim_messages(history, max_tokens=...)\`) is left alone.

A cut by count that \`unsafe-history-slice\` already reports (\`messages=history[-10:]\`) is not reported again: that rule's fix, a cut at a user turn, still trims every turn, and this rule then reports the fixed code. Only trims inside the loop that sends the requests are checked; a per-request handler whose loop is a web server or a graph runner is not.

## Why is this bad?
The cache matches a request's leading bytes. A history that grows by appending keeps its prefix, so each turn reads the earlier turns from the cache at a tenth of the input price or less (0.025× on the newest models). Cut the front, summarise or clear it on every turn and the prefix changes every turn: every request writes a new cache entry (1.25×) and never reads one. Trim rarely — when a token budget is exceeded, and then well below it — or let the API do it with compaction (\`compact_20260112\`), which keeps a cacheable summary.

## Example
\`\`\`python
import anthropic

client = anthropic.Anthropic()
history = []

while True:
    history.append({"role": "user", "content": input("> ")})
    response = client.messages.create(model="claude-sonnet-4-6", max_tokens=1024, messages=history)
    history.append({"role": "assistant", "content": response.content})
    history = history[-20:]
\`\`\`

\`\`\`ts
import Anthropic from '@anthropic-ai/sdk';

const client = new Anthropic();
let history: Anthropic.MessageParam[] = [];

export async function chat(turns: string[]) {
  for (const turn of turns) {
    history.push({ role: 'user', content: turn });
    const response = await client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 1024, messages: history });
    history.push({ role: 'assistant', content: response.content });
    history = history.slice(-20);
  }
}
\`\`\`

## Use instead
\`\`\`python
import anthropic

client = anthropic.Anthropic()
history = []

while True:
    history.append({"role": "user", "content": input("> ")})
    response = client.messages.create(model="claude-sonnet-4-6", max_tokens=1024, messages=history)
    history.append({"role": "assistant", "content": response.content})
    if response.usage.input_tokens > 150_000:
        history = history[-20:]
\`\`\`

\`\`\`ts
import Anthropic from '@anthropic-ai/sdk';

const client = new Anthropic();
let history: Anthropic.MessageParam[] = [];

export async function chat(turns: string[]) {
  for (const turn of turns) {
    history.push({ role: 'user', content: turn });
    const response = await client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 1024, messages: history });
    history.push({ role: 'assistant', content: response.content });
    if (response.usage.input_tokens > 150_000) history = history.slice(-20);
  }
}
\`\`\`
`,
  },

  checkFile(ctx) {
    const requests = ctx.calls.filter(caches);
    if (!requests.length) return;
    const view = ctx.view;
    // Count cuts that reach a request's messages unguarded are unsafe-history-slice's findings.
    const reported = new Set<string>();
    const sites: Site[] = [];
    const names = new Map<RequestCall, Set<string>>();
    for (const r of requests) {
      const messages = param(r, 'messages');
      const entry = paramEntry(r, 'messages');
      const text = entry?.valueAt && entry.valueAt.file === ctx.file ? ctx.textOf(entry.valueAt).replace(/\s+/g, '') : undefined;
      names.set(r, listNames(text));
      if (!messages) continue;
      for (const t of trimsOf(messages)) {
        if (!t.guarded) reported.add(locKey(t.at));
        else if (t.at.file === ctx.file) sites.push({ at: t.at, text: t.text, requests: [r] });
      }
    }
    // Asked for every assignment and call of the file: most name no request's list.
    const anyName = new Set([...names.values()].flatMap((n) => [...n]));
    const requestsFor = (listText: string | undefined): RequestCall[] => {
      if (!listText || !anyName.size) return [];
      const clean = /\s/.test(listText) ? listText.replace(/\s+/g, '') : listText;
      if (!anyName.has(clean)) return [];
      return requests.filter((r) => names.get(r)?.has(clean));
    };
    /** The (first) request whose `messages` is the expression at a location. */
    const byMessages = new Map<string, RequestCall>();
    for (const r of requests) {
      const at = paramEntry(r, 'messages')?.valueAt;
      const k = at && locKey(at);
      if (k && !byMessages.has(k)) byMessages.set(k, r);
    }
    for (const a of view.assignments) {
      const rs = requestsFor(a.targetText);
      if (!rs.length) continue;
      for (const t of trimsOf(a.value())) if (t.at.file === ctx.file) sites.push({ at: t.at, text: t.text, requests: rs });
    }
    /** Whether a call is part of a value written to a request's list (`history = summarize(history) + [...]`). */
    const intoList = (at: Loc) => view.assignments.some((a) => a.valueAt && a.valueAt.file === at.file && a.valueAt.start <= at.start && at.end <= a.valueAt.end && requestsFor(a.targetText).length > 0);
    for (const c of view.calls) {
      // Only a count cut on the list (`pop(0)`, `shift()`, `splice(0, …)`) or a trim helper can be
      // reported: the method's name is read first, so most of a file's calls cost nothing more.
      const method = c.method;
      if (method !== 'pop' && method !== 'shift' && method !== 'splice' && (method === 'clear' || !TRIM_NAME.test(method))) continue;
      const first = c.args.find((x) => !x.name);
      const atSite = byMessages.get(`${c.at.file}\u0000${c.at.start}\u0000${c.at.end}`);
      const onReceiver = !atSite && requestsFor(c.receiver?.text).length > 0;
      const rs = atSite ? [atSite] : onReceiver ? requestsFor(c.receiver?.text) : requestsFor(first?.text);
      if (!rs.length) continue;
      const countCut = onReceiver && ((c.method === 'pop' && first?.text === '0') || c.method === 'shift' || (c.method === 'splice' && first?.text === '0'));
      // A helper handed the list changes it only in place (a call on its own) or as the request's
      // `messages`; its result kept under another name (`note = summarize(history)`) or written
      // into another part of the request leaves the history as it is.
      const helper = c.method !== 'clear' && TRIM_NAME.test(c.method) && !c.args.some((x) => BUDGET_ARG.test(x.name ?? '') || BUDGET_ARG.test(x.text)) && (atSite !== undefined || onReceiver || intoList(c.at) || isStatement(ctx.textOf({ file: c.at.file, start: Math.max(0, c.at.start - LINE_WINDOW), end: c.at.start }), ctx.textOf({ file: c.at.file, start: c.at.end, end: c.at.end + LINE_WINDOW })));
      if (countCut || helper) sites.push({ at: c.at, text: shorten(ctx.textOf(c.at)), requests: rs });
    }
    const done = new Set<string>();
    for (const s of sites) {
      const k = locKey(s.at);
      if (reported.has(k) || done.has(k)) continue;
      done.add(k);
      if (!everyTurn(view, s.at, s.requests)) continue;
      ctx.report({
        message: `\`${s.text}\` rewrites the start of the history on every turn of this loop, with no token-budget check: the cached prefix stops matching, so every turn writes the cache and never reads it. Trim only when a budget is exceeded, and cut well below it.`,
        at: s.at,
      });
    }
  },
});

/** Characters read on each side of a call to see the rest of its line (isStatement). */
const LINE_WINDOW = 200;

/** Whether a call with this text before and after it on its line is a statement of its own (`trim_history(history)`, `await compact(messages);`). */
function isStatement(before: string, after: string): boolean {
  const lineStart = before.slice(before.lastIndexOf('\n') + 1);
  const lineEnd = after.split('\n')[0];
  return /^\s*(?:await\s+)?$/.test(lineStart) && /^\s*;?\s*(?:(?:#|\/\/).*)?$/.test(lineEnd);
}
