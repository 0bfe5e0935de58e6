import type { Fix } from '../core/fix';
import { param } from '../core/model';
import type { RequestCall } from '../core/model';
import { defineRule } from '../core/rule';
import type { RuleContext } from '../core/rule';
import type { Loc } from '../core/span';
import { locKey, locWithin } from '../core/span';
import type { Origin, Value } from '../core/value';
import { getEntry } from '../core/value';
import { meantName, paramEntry } from './util';

const COMPACT_BETA = 'compact-2026-01-12';
const COMPACT_EDIT = 'compact_20260112';
const APPEND = new Set(['append', 'push', 'insert', 'unshift', 'extend', 'add_message', 'add_messages']);
/** What is read from a response that keeps only its text: `content[0].text`, `content[].text` (a join), `text` (LangChain). */
const TEXT_PATH = /^(content(\[[^\]]*\])?\.text|text)(\(\))?(\.\w+\(\))*$/;



/**
 * Compaction is on: a `compact_20260112` edit, or the compaction beta in `betas` or a header —
 * also when the name is misspelled (`compact-2026-01-21`, `compact_2026012`): that is
 * `unknown-beta`'s or `unknown-type`'s finding, and the code still means compaction.
 */
function compacts(call: RequestCall, ctx: RuleContext): boolean {
  const edits = getEntry(param(call, 'context_management'), 'edits');
  if (edits?.kind === 'list' && edits.items.some((e) => {
    const t = getEntry(e, 'type');
    return t?.kind === 'str' && t.complete && meantName(t.text, 'edit', ctx) === COMPACT_EDIT;
  })) return true;
  const isBeta = (n: string) => meantName(n.trim(), 'beta', ctx) === COMPACT_BETA;
  const betas = param(call, 'betas');
  if (betas?.kind === 'list' && betas.items.some((b) => b.kind === 'str' && b.complete && isBeta(b.text))) return true;
  return call.headerBetas.some((h) => h.kind === 'str' && h.complete && h.text.split(',').some(isBeta));
}

interface Hit {
  origin: Origin;
  /** The value as computed (where the text is read from the response). */
  at?: Loc;
  /** Where it is written in the appended argument. */
  site: Loc;
}

function findText(v: Value, site: Loc, out: Hit[]): void {
  if (v.origin && TEXT_PATH.test(v.origin.path)) {
    out.push({ origin: v.origin, at: v.at, site: v.at && locWithin(v.at, site) ? v.at : site });
    return;
  }
  if (v.kind === 'obj') for (const e of v.entries) findText(e.value, e.valueAt && locWithin(e.valueAt, site) ? e.valueAt : site, out);
  if (v.kind === 'list') for (const i of v.items) findText(i, i.at && locWithin(i.at, site) ? i.at : site, out);
}

export default defineRule({
  meta: {
    id: 'compaction-block-dropped',
    group: 'context',
    severity: 'warning',
    fix: 'sometimes',
    // Only requests with compaction on are looked at.
    triggers: 'requests',
    summary: 'With compaction on, only the text of the response is kept in the history: the compaction block is dropped.',
    docs: `## What it does
Finds code that sends a request with server-side compaction enabled (a \`compact_20260112\` edit in \`context_management\`, or the \`compact-2026-01-12\` beta) and then appends only the text of the response to the history it sends next: \`resp.content[0].text\`, a join of the text blocks, or LangChain's \`response.text\`. A misspelled compaction name (\`compact-2026-01-21\`, \`compact_20260121\`) still counts as compaction on: the misspelling is \`unknown-beta\`'s or \`unknown-type\`'s finding, and the code means compaction.

Context editing alone (\`clear_tool_uses_20250919\`, \`clear_thinking_20251015\`) returns no block to keep, so it is not reported.

## Why is this bad?
When compaction runs, the response carries a \`compaction\` block with the summary, and the API drops everything before that block on the next request. The block is the state of the conversation: keep only the text and the next request re-sends the whole uncompacted history — no error, just full price and, eventually, the context limit compaction was meant to avoid. When compaction did run, \`content[0]\` is the compaction block itself.

## Example
\`\`\`python
import anthropic

client = anthropic.Anthropic()
history = []

def ask(question):
    history.append({"role": "user", "content": question})
    response = client.beta.messages.create(
        model="claude-opus-4-7",
        max_tokens=2048,
        betas=["compact-2026-01-12"],
        context_management={"edits": [{"type": "compact_20260112"}]},
        messages=history,
    )
    history.append({"role": "assistant", "content": response.content[0].text})
\`\`\`

\`\`\`ts
import Anthropic from '@anthropic-ai/sdk';

const client = new Anthropic();
const history: Anthropic.Beta.BetaMessageParam[] = [];

export async function ask(question: string) {
  history.push({ role: 'user', content: question });
  const response = await client.beta.messages.create({
    model: 'claude-opus-4-7',
    max_tokens: 2048,
    betas: ['compact-2026-01-12'],
    context_management: { edits: [{ type: 'compact_20260112' }] },
    messages: history,
  });
  history.push({ role: 'assistant', content: response.content.map((b) => (b.type === 'text' ? b.text : '')).join('') });
}
\`\`\`

## Use instead
\`\`\`python
import anthropic

client = anthropic.Anthropic()
history = []

def ask(question):
    history.append({"role": "user", "content": question})
    response = client.beta.messages.create(
        model="claude-opus-4-7",
        max_tokens=2048,
        betas=["compact-2026-01-12"],
        context_management={"edits": [{"type": "compact_20260112"}]},
        messages=history,
    )
    history.append({"role": "assistant", "content": response.content})
\`\`\`

\`\`\`ts
import Anthropic from '@anthropic-ai/sdk';

const client = new Anthropic();
const history: Anthropic.Beta.BetaMessageParam[] = [];

export async function ask(question: string) {
  history.push({ role: 'user', content: question });
  const response = await client.beta.messages.create({
    model: 'claude-opus-4-7',
    max_tokens: 2048,
    betas: ['compact-2026-01-12'],
    context_management: { edits: [{ type: 'compact_20260112' }] },
    messages: history,
  });
  history.push({ role: 'assistant', content: response.content });
}
\`\`\`

## Fix safety
The fix replaces the text expression with \`<response>.content\`, so the whole assistant turn (compaction, thinking and text blocks) goes back into the history, as the API expects. It is unsafe: from the next request on the model reads the compacted history and the turn's other blocks instead of the text alone, and with \`tools\` the content can hold \`tool_use\` blocks, which the next request must answer with \`tool_result\` blocks. No fix is offered when the text is taken in an earlier statement (\`text = resp.content[0].text\`), since that variable may be used for other things.
`,
  },

  checkFile(ctx) {
    const requests = new Map<string, RequestCall>();
    for (const call of ctx.calls) if (compacts(call, ctx)) requests.set(locKey(call.at), call);
    if (!requests.size) return;
    for (const site of ctx.view.calls) {
      if (!APPEND.has(site.method) || !site.receiver) continue;
      const receiver = site.receiver.text;
      for (const arg of site.args) {
        const hits: Hit[] = [];
        findText(arg.value(), arg.at, hits);
        // Message constructors inside the argument: `AIMessage(content=response.text)`.
        for (const inner of ctx.view.calls) {
          if (inner === site || !locWithin(inner.at, arg.at)) continue;
          for (const a of inner.args) findText(a.value(), a.at, hits);
        }
        const outer = hits.filter((h) => !hits.some((o) => o !== h && locWithin(h.site, o.site) && !(o.site.start === h.site.start && o.site.end === h.site.end)));
        const seen = new Set<string>();
        for (const hit of outer) {
          const request = requests.get(locKey(hit.origin.call));
          if (!request || !feeds(request, receiver, ctx)) continue;
          if (seen.has(locKey(hit.site))) continue;
          seen.add(locKey(hit.site));
          report(ctx, hit, request, receiver);
        }
      }
    }
  },
});

/** The list appended to is (part of) the `messages` the compacting request sends. */
function feeds(request: RequestCall, receiver: string, ctx: RuleContext): boolean {
  const entry = paramEntry(request, 'messages');
  if (!entry?.valueAt || entry.valueAt.file !== ctx.file) return false;
  const text = ctx.textOf(entry.valueAt).replace(/\s+/g, '');
  const escaped = receiver.replace(/\s+/g, '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^\\w.])${escaped}(?![\\w])`).test(text);
}

function report(ctx: RuleContext, hit: Hit, request: RequestCall, receiver: string) {
  const root = hit.origin.root;
  let fix: Fix | undefined;
  if (hit.at && root && hit.at.file === ctx.file && locWithin(hit.at, hit.site) && locWithin(root, hit.at)) {
    const response = ctx.edits.shape(root);
    const written = response?.primary ? ctx.textOf(root) : `(${ctx.textOf(root)})`;
    const edits = response ? ctx.edits.replace(hit.at, `${written}.content`) : undefined;
    // The next request sends the model the whole turn (and the compacted history) instead of its text: unsafe.
    if (edits) fix = { title: `Append \`${ctx.textOf(root)}.content\` whole`, applicability: 'unsafe', edits };
  }
  ctx.report({
    message: `Only the text of the response goes back into \`${receiver}\`, but this request has compaction on: the \`compaction\` block is dropped and the next request re-sends the whole uncompacted history. Append the response's \`content\` whole.`,
    at: hit.site,
    fix,
  });
}
