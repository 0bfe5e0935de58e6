import type { Related } from '../core/diagnostic';
import { param, prefixBlocks } from '../core/model';
import { defineRule } from '../core/rule';
import type { Fix } from '../core/fix';
import type { LanguageId, ReachedRequest, RequestCall } from '../core/model';
import type { RuleContext } from '../core/rule';
import type { PerLanguage } from '../core/edits';
import type { Loc } from '../core/span';
import { sameLoc } from '../core/span';
import type { Taint } from '../core/value';
import { allTaints } from '../core/value';
import { basename, changedDefinition, describe, fileText, holderIn, lastCachedBlock, newestUserTurn, paramSite, relatedFor, sameScope, UNCACHED_POLICY, uniqueTaints, usedAlsoBy, whereItEnters } from './util';

/**
 * The calls of the clock and random sources the analysis knows, as each front end writes them
 * (`datetime.now(`, `time.time(`, `uuid4(`, a `random` or `secrets` module; `new Date(`,
 * `Date.now(`, `Math.random(`, `randomUUID(`): a file without any produces no such value of its
 * own, so it cannot pass one down to a request elsewhere, and `checkFile` has nothing to do there.
 * One `\b` before the alternatives rather than one in each (the same matches): these are tried on
 * every file of a run that has no request of its own, and the Python pattern took 208 ms of a
 * one-thread run over the real-code corpus instead of 252 (sampled).
 */
const SOURCE_WORDS: { python: RegExp; typescript: RegExp } = {
  python: /\b(?:(?:now|today|utcnow|time|time_ns|ctime|localtime|gmtime|asctime|monotonic|perf_counter|uuid1|uuid4|urandom)\s*\(|strftime\s*\(\s*[rbuf]*["']|(?:random|secrets|uuid)\b)/,
  typescript: /\b(?:new\s+Date\b|Date\s*\(|(?:now|hrtime|uptime|random|randomUUID|randomBytes|getRandomValues|nanoid|ulid|dayjs|moment|v1|v4|v7)\s*\(|(?:Temporal|uuid)\b)/,
};

/** SOURCE_WORDS by the language of the file (TypeScript, TSX and JavaScript are read alike). */
const SOURCE_WORD_OF: Record<LanguageId, RegExp> = { python: SOURCE_WORDS.python, typescript: SOURCE_WORDS.typescript, tsx: SOURCE_WORDS.typescript, javascript: SOURCE_WORDS.typescript };

const VOLATILE: readonly ('clock' | 'random')[] = ['clock', 'random'];

export default defineRule({
  meta: {
    id: 'volatile-system-prompt',
    group: 'cache',
    severity: 'error',
    fix: 'sometimes',
    // Its `check` runs wherever requests are; `checkFile` follows values written here to requests elsewhere.
    triggers: { python: [SOURCE_WORDS.python, 'reaches-requests'], typescript: [SOURCE_WORDS.typescript, 'reaches-requests'] },
    summary: 'A clock or random value inside the system prompt rewrites the cached prefix on every call.',
    docs: `## What it does
Finds the current time, dates, UUIDs and random values interpolated into \`system\` (a string or any of its text blocks) of a request that caches its prefix, where the cache covers them: in a system block up to the last cache breakpoint, in the order tools → system → messages. A block after the last breakpoint (a dated block after the marked handbook block, or any system text when only the tools are marked) is in no cached prefix, and is where text that changes belongs. A value computed when the module is loaded (a module-level \`datetime.now()\`) changes only when the process restarts, so it is reported as a warning. The date alone (\`date.today()\`, \`strftime\` with no time of day, \`toDateString()\`) changes once a day, and the message says so: each day's first call writes the prefix again. The finding is where the fix goes: at the value when it is written into the text where it is produced (\`f"... {datetime.now()}"\`), else at the interpolation or concatenation that first brings it into a text (\`{request_id}\` of a \`request_id = uuid.uuid4().hex\` that is logged as well), with where it is produced as a related place. ${UNCACHED_POLICY}

The value may be written in a caller and passed down to a request in another module: a prompt built with today's date and handed to \`complete(prompt, system_text=...)\`, which builds a chat-format message list and passes it on to a provider wrapper that moves the system message into a cached \`system\`. That is reported in the caller's file, where the value is written into the text, with where it is produced, each call it takes and the request as related places. The value may also be passed down as it is (\`chat(history, time.ctime())\`) to a function in another module that writes it into the prompt. Calls that pass the value on (the value, or a text or a name that holds it) are followed, through calls of functions (not methods of other objects), a few calls deep; what a test file passes is its own data and is not followed. A value produced in a file that does not pass it on itself — a prompt helper that dates its text (\`triage_prompt(team)\` in \`prompts.py\`), whose result a service module hands to \`complete(system_text, ...)\` — is reported in the request's file instead, where the parameter is written into the cached block, with where the value is produced and each assignment on its way as related places: the callers in other files that import a top-level function of a module that sends requests are read for what they pass (when the whole project is checked). A value that its own file passes down is reported there only, never twice.

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
For a clock value, the fix removes the interpolation (and a label such as \`Current time: \` right before it) from the system text and puts \`[time: …] \` first in the newest user message; it is offered when the request's last message is a user message whose content is written in the file and is not a list of blocks, and when the interpolation is the request's own: in the function that writes that user message, or in a module or class constant that no other request of the file reads. A time built in a helper (a method, a property, a constructor, a caller's argument) gets no fix, since other code may read it and the time it stands for (when the session started) would change meaning; nor does one passed down to a request in another module, whose user turn every caller shares. A time interpolated in another module the request imports (a \`support_prompt()\` in \`prompts.py\`, a \`datedPrompt()\` in \`prompts.ts\`) gets the same fix across both files — removed there, written into the user turn here, with the import the expression needs — when every use of that top-level function or constant can be seen: the run (or the editor's workspace) walked the whole project, the request imports it by name and reads it once, it is no package's public module (an \`__init__.py\`, a \`package.json\` entry) and no such module names it, and no file names it in a string (a look-up by name) or imports it under another name. When other code uses it too (another request, a log line), the fix changes what they read as well, and its title lists those uses (\`…; escalations.py:25 also uses it\`); docstrings and comments that name it are no use. Otherwise it gets no fix. \`--fix --unsafe-fixes\` applies it to all its files or to none. It is unsafe: the model now reads the time in the user turn instead of the system prompt, which can change its answers (and content held in a variable may not be a string). Random values (ids, personas) get no fix: where they belong depends on what they are for.
`,
  },

  check(call, ctx) {
    for (const t of volatileInSystem(call, ctx)) {
      // Produced in a file that passes it down to this request itself: reported there (checkFile), where it is written.
      if (t.at.file !== ctx.file && reportedWhereProduced(call, t, ctx)) continue;
      const site = paramSite(call, 'system');
      const at = whereItEnters(ctx, t, holderIn(ctx, param(call, 'system'), t, site) ?? site);
      if (!at) continue;
      ctx.report({
        message: messageFor(t),
        at,
        // Once per process costs a cache write per restart, not per call.
        ...(t.once ? { severity: 'warning' as const } : {}),
        related: relatedFor(ctx, t, at),
        fix: moveToUserTurn(call, t, ctx),
      });
    }
  },

  /**
   * A time or random value written in this file and handed down, through calls into other
   * modules, to a request there that caches it in `system`. The finding is where the value goes
   * into the text (the fix goes there), with where it is produced, the calls it takes and the
   * request as related places.
   */
  checkFile(ctx) {
    if (!SOURCE_WORD_OF[ctx.language].test(fileText(ctx))) return;
    const reached = ctx.reached(VOLATILE);
    if (!reached.length) return;
    // What this file's own requests report already.
    const own = new Set(ctx.calls.flatMap((c) => volatileInSystem(c, ctx)).map(taintKey));
    for (const r of reached) {
      const other = ctx.across.view(r.call.file);
      if (!other) continue;
      for (const t of volatileInSystem(r.call, { view: other.view, textOf: ctx.textOf }).filter((x) => x.at.file === ctx.file)) {
        if (own.has(taintKey(t))) continue;
        own.add(taintKey(t));
        const at = t.embed?.file === ctx.file ? t.embed : t.at;
        ctx.report({
          message: `${messageFor(t)} It reaches the cached \`system\` of the request in ${basename(r.call.file)} through \`${r.via[0].callee}\`.`,
          at,
          ...(t.once ? { severity: 'warning' as const } : {}),
          related: [...relatedFor(ctx, t, at), ...reachRelated(r, paramSite(r.call, 'system'))],
        });
      }
    }
  },
});

/**
 * Whether the file a value is produced in reaches this request with it through its own calls,
 * so that its checkFile reports it there: the value came here through the arguments of callers
 * in other files (a date written in the caller and passed down).
 */
function reportedWhereProduced(call: RequestCall, t: Taint, ctx: RuleContext): boolean {
  const key = taintKey(t);
  for (const r of ctx.reachedFrom(t.at.file, VOLATILE)) {
    if (r.call.at.file !== call.at.file || r.call.at.start !== call.at.start) continue;
    const view = r.call.file === ctx.file ? ctx.view : ctx.across.view(r.call.file)?.view;
    if (view && volatileInSystem(r.call, { view, textOf: ctx.textOf }).some((x) => taintKey(x) === key)) return true;
  }
  return false;
}

/**
 * The clock and random values in the system blocks of a request that its cache covers: only the
 * blocks up to the last breakpoint are in a cached prefix; a time in a block after it
 * (`[{..., cache_control}, {"text": f"Now: {now}"}]`) is where it belongs. `ctx`: the view of the
 * request's file.
 */
function volatileInSystem(call: RequestCall, ctx: Pick<RuleContext, 'view' | 'textOf'>): Taint[] {
  const last = lastCachedBlock(call, ctx);
  const cached = prefixBlocks(call).filter((b, i) => i <= last && b.section === 'system');
  return uniqueTaints(cached.flatMap((b) => allTaints(b.value)).filter((t) => t.cls === 'clock' || t.cls === 'random'));
}

function taintKey(t: Taint): string {
  return `${t.at.file}:${t.at.start}:${t.at.end}:${t.kind}`;
}

function messageFor(t: Taint): string {
  if (t.daily) {
    return t.once
      ? `The system prompt includes ${describe(t)}, computed when the module is loaded: the cached prefix changes when the process starts on a new day, and that start writes it again instead of reading it.`
      : `The system prompt includes ${describe(t)}, which changes every day: the first call of each day writes the cached prefix again instead of reading it, and everything after the date is written anew.`;
  }
  return t.once
    ? `The system prompt includes ${describe(t)}, computed when the module is loaded: the cached prefix changes every time the process starts${t.cls === 'clock' ? ' (and with the date)' : ''}, and each start writes it again instead of reading it.`
    : `The system prompt includes ${describe(t)}, which changes on every call; the cached prefix is rewritten each time and never read.`;
}

/** The calls a value takes down to a request in another file, and where that request sets `system`. */
function reachRelated(r: ReachedRequest, systemAt: Loc | undefined): Related[] {
  const out: Related[] = r.via.map((step) => ({ at: step.at, message: `passed on to \`${step.callee}\` here` }));
  out.push({ at: systemAt ?? r.call.at, message: 'the request that caches it in `system`' });
  return out;
}

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
