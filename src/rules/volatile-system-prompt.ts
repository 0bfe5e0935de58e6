import { param, prefixBlocks } from '../core/model';
import { defineRule } from '../core/rule';
import type { Fix } from '../core/fix';
import type { RequestCall } from '../core/model';
import type { RuleContext } from '../core/rule';
import type { PerLanguage } from '../core/edits';
import type { Loc } from '../core/span';
import { sameLoc } from '../core/span';
import type { Taint } from '../core/value';
import { allTaints } from '../core/value';
import { basename, changedDefinition, lastCachedBlock, describe, inFile, newestUserTurn, paramSite, relatedFor, sameScope, UNCACHED_POLICY, uniqueTaints, usedAlsoBy } from './util';

export default defineRule({
  meta: {
    id: 'volatile-system-prompt',
    group: 'cache',
    severity: 'error',
    fix: 'sometimes',
    summary: 'A clock or random value inside the system prompt rewrites the cached prefix on every call.',
    docs: `## What it does
Finds the current time, dates, UUIDs and random values interpolated into \`system\` (a string or any of its text blocks) of a request that caches its prefix, where the cache covers them: in a system block up to the last cache breakpoint, in the order tools → system → messages. A block after the last breakpoint (a dated block after the marked handbook block, or any system text when only the tools are marked) is in no cached prefix, and is where text that changes belongs. A value computed when the module is loaded (a module-level \`datetime.now()\`) changes only when the process restarts, so it is reported as a warning. ${UNCACHED_POLICY}

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
For a clock value, the fix removes the interpolation (and a label such as \`Current time: \` right before it) from the system text and puts \`[time: …] \` first in the newest user message; it is offered when the request's last message is a user message whose content is written in the file and is not a list of blocks, and when the interpolation is the request's own: in the function that writes that user message, or in a module or class constant that no other request of the file reads. A time built in a helper (a method, a property, a constructor, a caller's argument) gets no fix, since other code may read it and the time it stands for (when the session started) would change meaning. A time interpolated in another module the request imports (a \`support_prompt()\` in \`prompts.py\`, a \`datedPrompt()\` in \`prompts.ts\`) gets the same fix across both files — removed there, written into the user turn here, with the import the expression needs — when every use of that top-level function or constant can be seen: the run (or the editor's workspace) walked the whole project, the request imports it by name and reads it once, it is no package's public module (an \`__init__.py\`, a \`package.json\` entry) and no such module names it, and no file names it in a string (a look-up by name) or imports it under another name. When other code uses it too (another request, a log line), the fix changes what they read as well, and its title lists those uses (\`…; escalations.py:25 also uses it\`); docstrings and comments that name it are no use. Otherwise it gets no fix. \`--fix --unsafe-fixes\` applies it to all its files or to none. It is unsafe: the model now reads the time in the user turn instead of the system prompt, which can change its answers (and content held in a variable may not be a string). Random values (ids, personas) get no fix: where they belong depends on what they are for.
`,
  },

  check(call, ctx) {
    // Only the system blocks up to the last breakpoint are in a cached prefix: a time in a block
    // after it (`[{..., cache_control}, {"text": f"Now: {now}"}]`) is where it belongs.
    const last = lastCachedBlock(call, ctx);
    const cached = prefixBlocks(call).filter((b, i) => i <= last && b.section === 'system');
    const taints = uniqueTaints(cached.flatMap((b) => allTaints(b.value)).filter((t) => t.cls === 'clock' || t.cls === 'random'));
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

/** Python: `f"[time: {now}] " + question`; TS/JS: `` `[time: ${now}] ` + question ``. */
function timeNote(expression: string): PerLanguage<readonly [string, string]> {
  // A quote the field does not use, so the new f-string also parses before Python 3.12.
  const q = expression.includes('"') ? (expression.includes("'") ? undefined : "'") : '"';
  return {
    python: q ? [`f${q}[time: {${expression}}] ${q} + `, ''] : undefined,
    typescript: [`\`[time: \${${expression}}] \` + `, ''],
  };
}

function moveToUserTurn(call: RequestCall, t: Taint, ctx: RuleContext): Fix | undefined {
  // Only a time has a meaning in the user turn; a random persona or id has no fix to offer.
  if (t.cls !== 'clock' || !t.embed) return undefined;
  const user = newestUserTurn(call);
  if (!user || user.at.file !== ctx.file) return undefined;
  if (t.embed.file !== ctx.file) return moveFromOtherFile(call, t.embed, user, ctx);
  if (!ownedBy(call, t.embed, user.at, ctx)) return undefined;
  if (user.content.kind === 'list' || user.content.kind === 'obj') return undefined;
  const removed = ctx.edits.removeInterpolation(t.embed, { label: true });
  const note = removed && ctx.edits.wrap(user.at, timeNote(removed.expression), { parenthesize: true });
  if (!removed || !note) return undefined;
  // The model reads the time in the user turn instead of the system prompt: never safe (see core/fix.ts).
  return { title: 'Move the time into the user message', applicability: 'unsafe', edits: [...removed.edits, ...note] };
}

/**
 * The time is interpolated in another file (a prompt helper or constant of a module the request
 * imports): the fix removes it there and writes it into the user turn here, with the imports it
 * needs. Offered when every use of that definition can be seen (every file of its project is
 * seen, and it is no package's public module); when other code uses it too, its title names
 * those uses, which the fix changes as well.
 */
function moveFromOtherFile(call: RequestCall, embed: Loc, user: { content: { kind: string }; at: Loc }, ctx: RuleContext): Fix | undefined {
  if (user.content.kind === 'list' || user.content.kind === 'obj') return undefined;
  const changed = changedDefinition(ctx, embed, call);
  if (!changed) return undefined;
  const there = ctx.across.edits(embed.file);
  const removed = there?.removeInterpolation(embed, { label: true });
  const imports = ctx.across.importsFor(embed, user.at);
  if (!removed || !imports) return undefined;
  const note = ctx.edits.wrap(user.at, timeNote(removed.expression), { parenthesize: true });
  const added = imports.map((i) => ctx.edits.addImport(i.statement));
  if (!note || added.some((a) => !a)) return undefined;
  return {
    title: `Move the time into the user message (from \`${changed.def.name}\` in ${basename(embed.file)}${usedAlsoBy(ctx, changed.def, changed.others)})`,
    // The model reads the time in the user turn instead of the system prompt: never safe (see core/fix.ts).
    applicability: 'unsafe',
    edits: [...added.flatMap((a) => a!), ...note],
    otherFiles: [{ file: embed.file, edits: removed.edits }],
  };
}

/**
 * The interpolation belongs to this request alone, so removing it changes no other code: it is
 * in the function that writes the user turn, or outside every function (a module constant) and
 * no other request of the file reads it. One in a helper (a method, a property, a caller's
 * argument) may serve other requests or other code, and its value would vanish from them.
 */
function ownedBy(call: RequestCall, embed: Loc, userTurn: Loc, ctx: RuleContext): boolean {
  if (sameScope(ctx, embed, userTurn)) return true;
  if (ctx.view.enclosingFunction(embed)) return false;
  return !ctx.calls.some((other) => {
    const system = other !== call ? param(other, 'system') : undefined;
    return !!system && allTaints(system).some((o) => o.embed && sameLoc(o.embed, embed));
  });
}
