import { param } from '../core/model';
import { defineRule } from '../core/rule';
import type { Fix } from '../core/fix';
import type { RequestCall } from '../core/model';
import type { RuleContext } from '../core/rule';
import type { Loc } from '../core/span';
import type { Taint, Value } from '../core/value';
import { allTaints, getEntryRecord } from '../core/value';
import { cachesPrefix, describe, inFile, paramSite, relatedFor, UNCACHED_POLICY, uniqueTaints } from './util';

export default defineRule({
  meta: {
    id: 'volatile-system-prompt',
    group: 'cache',
    severity: 'error',
    fix: 'sometimes',
    summary: 'A clock or random value inside the system prompt rewrites the cached prefix on every call.',
    docs: `## What it does
Finds the current time, dates, UUIDs and random values interpolated into \`system\` (a string or any of its text blocks) of a request that caches its prefix. A value computed when the module is loaded (a module-level \`datetime.now()\`) changes only when the process restarts, so it is reported as a warning. ${UNCACHED_POLICY}

## Why is this bad?
Prompt caching reuses a prefix only when every byte before the breakpoint is identical, in the order tools → system → messages. A timestamp in the system prompt changes those bytes on every call, so every request pays full price (and a cache write) and nothing is ever read back. There is no error: the bill just stays high.

## Example
\`\`\`python
from datetime import datetime
import anthropic

client = anthropic.Anthropic()

def answer(question):
    return client.messages.create(
        model="claude-sonnet-4-6",
        max_tokens=1024,
        cache_control={"type": "ephemeral"},
        system=f"You are a support agent. Current time: {datetime.now()}",
        messages=[{"role": "user", "content": question}],
    )
\`\`\`

\`\`\`ts
import Anthropic from '@anthropic-ai/sdk';

const client = new Anthropic();

export async function answer(question: string) {
  return client.messages.create({
    model: 'claude-sonnet-4-6',
    max_tokens: 1024,
    cache_control: { type: 'ephemeral' },
    system: \`You are a support agent. Current time: \${new Date().toISOString()}\`,
    messages: [{ role: 'user', content: question }],
  });
}
\`\`\`

## Use instead
Keep \`system\` fixed and put the time in the newest user turn, after the cached prefix:
\`\`\`python
from datetime import datetime
import anthropic

client = anthropic.Anthropic()

def answer(question):
    return client.messages.create(
        model="claude-sonnet-4-6",
        max_tokens=1024,
        cache_control={"type": "ephemeral"},
        system="You are a support agent.",
        messages=[{"role": "user", "content": f"[time: {datetime.now()}] " + question}],
    )
\`\`\`

\`\`\`ts
import Anthropic from '@anthropic-ai/sdk';

const client = new Anthropic();

export async function answer(question: string) {
  return client.messages.create({
    model: 'claude-sonnet-4-6',
    max_tokens: 1024,
    cache_control: { type: 'ephemeral' },
    system: 'You are a support agent.',
    messages: [{ role: 'user', content: \`[time: \${new Date().toISOString()}] \` + question }],
  });
}
\`\`\`

## Fix safety
For a clock value, the fix removes the interpolation (and a label such as \`Current time: \` right before it) from the system text and prefixes the last user message with \`[time: …]\`. It is safe when the system text is written in the same function as the request and the last user message is a string, f-string/template or variable; otherwise it is offered as unsafe, because the value may be computed elsewhere or the user content may not be a string. Either way the model now sees the time in the user turn instead of the system prompt. Random values (ids, personas) get no fix: where they belong depends on what they are for.
`,
  },

  check(call, ctx) {
    if (!cachesPrefix(call, ctx)) return;
    const system = param(call, 'system');
    if (!system) return;
    const taints = uniqueTaints(allTaints(system).filter((t) => t.cls === 'clock' || t.cls === 'random'));
    for (const t of taints) {
      const at = inFile(ctx, t.at, paramSite(call, 'system'));
      if (!at) continue;
      ctx.report({
        message: t.once
          ? `The system prompt includes ${describe(t)}, computed when the module is loaded: the cached prefix changes every time the process starts${t.cls === 'clock' ? ' (and with the date)' : ''}, and each start writes it again instead of reading it.`
          : `The system prompt includes ${describe(t)}, which changes on every call; the cached prefix is rewritten each time and never read.`,
        at,
        // Once per process costs a cache write per restart, not per call.
        ...(t.once ? { severity: 'warning' as const } : {}),
        related: relatedFor(ctx, t, at),
        fix: moveToUserTurn(call, t, ctx),
      });
    }
  },
});

function lastUserContent(call: RequestCall): { content: Value; at: Loc } | undefined {
  const messages = param(call, 'messages');
  if (messages?.kind !== 'list') return undefined;
  for (let i = messages.items.length - 1; i >= 0; i--) {
    const m = messages.items[i];
    if (m.kind !== 'obj') continue;
    const role = getEntryRecord(m, 'role')?.value;
    if (!(role?.kind === 'str' && role.text === 'user')) continue;
    const content = getEntryRecord(m, 'content');
    if (!content?.valueAt) return undefined;
    return { content: content.value, at: content.valueAt };
  }
  return undefined;
}

function moveToUserTurn(call: RequestCall, t: Taint, ctx: RuleContext): Fix | undefined {
  // Only a time has a meaning in the user turn; a random persona or id has no fix to offer.
  if (t.cls !== 'clock' || !t.embed || t.embed.file !== ctx.file) return undefined;
  const user = lastUserContent(call);
  if (!user || user.at.file !== ctx.file) return undefined;
  if (user.content.kind === 'list' || user.content.kind === 'obj') return undefined;
  const edits = ctx.edits.moveInterpolationToUserTurn(t.embed, user.at);
  if (!edits) return undefined;
  const stringy = user.content.kind === 'str' || ctx.textOf(user.at).match(/^[A-Za-z_$][\w$.]*$/) !== null;
  const safe = stringy && ctx.edits.sameScope(t.embed, call.at);
  return { title: 'Move the time into the user message', applicability: safe ? 'safe' : 'unsafe', edits };
}
