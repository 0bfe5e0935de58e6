/** Small helpers shared by rules: where to report, and how to describe a taint. */
import type { Definition, Use } from '../core/crossFile';
import type { Related } from '../core/diagnostic';
import type { CallSite, FileView } from '../core/fileView';
import type { Platform } from '../core/knownNames';
import { betaToTypeSpelling, platformOfClient, typeToBetaSpelling } from '../core/knownNames';
import { judgeUnknownName } from '../core/namePolicy';
import { explicitMarkers, hasBreakpoint, keyedMarkers, topLevelMarker } from '../core/breakpoints';
import type { LanguageId, RequestCall } from '../core/model';
import { param, prefixBlocks } from '../core/model';
import type { RuleContext } from '../core/rule';
import type { Loc, TextEdit } from '../core/span';
import type { Entry, Taint, Value } from '../core/value';
import { allTaints, getEntryRecord } from '../core/value';

/** The first location that lies in the analysed file. */
export function inFile(ctx: RuleContext, ...locs: Array<Loc | undefined>): Loc | undefined {
  return locs.find((l): l is Loc => !!l && l.file === ctx.file);
}

/**
 * Where a value from another file enters a request in this one: the innermost part of `v` (a
 * parameter's value: a block's `text`, a list item) written in the analysed file inside `site`
 * that holds taint `t` (`"text": system_text` rather than the whole `system=[...]`). Undefined
 * when no such part is written here.
 */
export function holderIn(ctx: RuleContext, v: Value | undefined, t: Taint, site: Loc | undefined, depth = 0): Loc | undefined {
  const holds = (x: Value) => allTaints(x).some((o) => o.kind === t.kind && o.at.file === t.at.file && o.at.start === t.at.start && o.at.end === t.at.end);
  if (!v || !site || depth > 8 || !holds(v)) return undefined;
  const within = (at: Loc | undefined): at is Loc => !!at && at.file === ctx.file && at.file === site.file && site.start <= at.start && at.end <= site.end;
  const parts: Array<{ value: Value; at?: Loc }> = v.kind === 'obj' ? v.entries.map((e) => ({ value: e.value, at: e.valueAt })) : v.kind === 'list' ? v.items.map((i) => ({ value: i })) : [];
  for (const part of parts) {
    const found = holderIn(ctx, part.value, t, site, depth + 1) ?? (within(part.at) && holds(part.value) ? part.at : undefined);
    if (found) return found;
  }
  return within(v.at) ? v.at : undefined;
}

/**
 * Where a finding about a value in a prompt points: where the fix goes. A value written into a
 * text where it is produced (`f"...{datetime.now()}"`) at that expression; one produced elsewhere
 * (`trace_id = uuid4()`, logged too, then `f"... {trace_id}"`) at the interpolation or
 * concatenation that first brings it into a text (not a later one that embeds that whole text),
 * with where it is produced as a related place; else at `site` (the request's parameter) when
 * neither is in this file.
 */
export function whereItEnters(ctx: RuleContext, t: Taint, site: Loc | undefined): Loc | undefined {
  // The embeds from the first (innermost) to the last: innerEmbeds lists the earlier ones, latest first.
  const embeds = [...(t.innerEmbeds ?? [])].reverse();
  if (t.embed) embeds.push(t.embed);
  const first = embeds[0];
  if (!first || (first.file === t.at.file && first.start <= t.at.start && t.at.end <= first.end)) return inFile(ctx, t.at, site);
  return inFile(ctx, ...embeds, t.at, site);
}

export function paramEntry(call: RequestCall, key: string): Entry | undefined {
  return getEntryRecord(call.params, key);
}

/** Where a parameter is written at the call site: its value expression, else its key. */
export function paramSite(call: RequestCall, key: string): Loc | undefined {
  const e = paramEntry(call, key);
  return e?.valueAt ?? e?.keyAt;
}

const CLASS_WORDS: Record<string, string> = {
  clock: 'the current time',
  random: 'a random value',
  unordered: 'an unordered value',
  'per-request': 'per-request data',
  environment: 'an environment value',
};

export function describe(t: Taint): string {
  return `${t.cls === 'clock' && t.daily ? 'the current date' : CLASS_WORDS[t.cls]} (\`${t.text}\`)`;
}

/** Related locations: where the value was produced and each assignment followed to it. */
export function relatedFor(ctx: RuleContext, t: Taint, reportedAt: Loc): Related[] {
  const out: Related[] = [];
  const same = (a: Loc, b: Loc) => a.file === b.file && a.start === b.start && a.end === b.end;
  if (!same(t.at, reportedAt)) out.push({ at: t.at, message: `\`${t.text}\` is produced here` });
  for (const step of t.innerEmbeds ?? []) if (!same(step, reportedAt)) out.push({ at: step, message: 'written into a text here' });
  for (const step of t.chain) {
    if (same(step, reportedAt) || same(step, t.at)) continue;
    const text = ctx.textOf(step).split(/\r?\n/)[0].trim();
    out.push({ at: step, message: `assigned here: \`${text.length > 70 ? text.slice(0, 69) + '…' : text}\`` });
  }
  return out;
}

/** One taint per production site. */
export function uniqueTaints(taints: Taint[]): Taint[] {
  const seen = new Set<string>();
  return taints.filter((t) => {
    // The date of a time and the time itself, read from one clock call, are two values.
    const k = `${t.at.file}:${t.at.start}:${t.at.end}:${t.kind}${t.daily ? ':daily' : ''}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** Requests whose prefix can be cached (count_tokens only counts). */
export function caches(call: RequestCall): boolean {
  return call.method !== 'count_tokens';
}

/**
 * The one policy of the cache rules for requests without caching: a request with no cache
 * breakpoint (no `cache_control` on a block, none at the top level) caches nothing, so a
 * changing prefix costs it nothing more than a fixed one, and the cache rules say nothing about
 * it — as the token lens says "no cache breakpoint". The sentence each cache rule's docs carry.
 */
export const UNCACHED_POLICY =
  'A request without a cache breakpoint caches nothing, so it is not reported; once it has one (a `cache_control` on a block, or at the top level), it is. A breakpoint that a setting turns on (a helper that returns the system text as it is, or as one text block with `cache_control` when caching is enabled; `...(cache ? { cache_control } : {})`) counts: the request is read as it is sent with caching on, the only case in which its prefix matters.';

/**
 * How far the cache reaches, as an index into prefixBlocks(call): the last block with a marker,
 * or the request's last block when a marker covers the whole request (the top-level one, or one
 * set by assignment, whose block is not seen); -1 when the request caches nothing. A block after
 * it is not part of any cached prefix: what changes there costs no cache write. `ctx`: the view
 * of the request's own file (another file's, for a request a value reaches there).
 */
export function lastCachedBlock(call: RequestCall, ctx: Pick<RuleContext, 'view' | 'textOf'>): number {
  if (!caches(call)) return -1;
  const blocks = prefixBlocks(call);
  if (topLevelMarker(call) || keyedMarkers(call, ctx.view, ctx.textOf).length) return blocks.length - 1;
  if (!explicitMarkers(call).length) return -1;
  let last = -1;
  blocks.forEach((b, i) => {
    if (b.cacheControl) last = i;
  });
  return last;
}

/** A request that caches its prefix: it can and it has a breakpoint (see UNCACHED_POLICY). */
export function cachesPrefix(call: RequestCall, ctx: RuleContext): boolean {
  return caches(call) && hasBreakpoint(call, ctx.view, ctx.textOf);
}

/**
 * Where a request goes: a platform spelling of the model id (Vertex `…@date`, Bedrock
 * `anthropic.…`), else the client's platform (a framework that wraps an SDK client, such as
 * instructor, names the client it wraps); requests through LangChain's ChatAnthropic, LiteLLM
 * (`anthropic/…`), the Vercel AI SDK's Anthropic provider and agno's Claude go to the Claude
 * API. Undefined when the client is not seen.
 */
export function requestPlatform(call: RequestCall, model?: string): Platform | undefined {
  if (model && /@/.test(model)) return 'vertex';
  if (model && /^(?:[a-z]{2,6}\.)?anthropic\./.test(model)) return 'bedrock';
  if (call.framework && !call.client) return 'anthropic';
  return platformOfClient(call.client);
}

export function platformName(p: Platform): string {
  return { anthropic: 'the Claude API', bedrock: 'Amazon Bedrock', vertex: 'Google Cloud Vertex AI', foundry: 'Microsoft Foundry' }[p];
}

/**
 * The content of the newest user turn: the last message, when the end of the list is known and
 * that message is a user message with its content written at one place. A fix that moves text
 * "into the user turn" writes there; with `[{"role": "user", …}, *history]` there is none.
 */
export function newestUserTurn(call: RequestCall): { content: Value; at: Loc } | undefined {
  const messages = param(call, 'messages');
  if (messages?.kind !== 'list' || !(messages.complete || messages.tailKnown)) return undefined;
  const m = messages.items[messages.items.length - 1];
  if (m?.kind !== 'obj') return undefined;
  const role = getEntryRecord(m, 'role')?.value;
  if (!(role?.kind === 'str' && role.text === 'user')) return undefined;
  const content = getEntryRecord(m, 'content');
  if (!content?.valueAt) return undefined;
  return { content: content.value, at: content.valueAt };
}

/** Both locations are written in the same function of this file (or both in its module body). */
export function sameScope(ctx: RuleContext, a: Loc, b: Loc): boolean {
  if (a.file !== ctx.file || b.file !== ctx.file) return false;
  return ctx.view.enclosingFunction(a) === ctx.view.enclosingFunction(b);
}


/** `client.messages.create` -> `client.beta.messages.create`: `beta.` written before the `messages` of the callee. */
export function betaNamespace(ctx: RuleContext, callee: Loc): TextEdit[] | undefined {
  for (let s = ctx.edits.shape(callee); s?.kind === 'member'; s = ctx.edits.shape(s.object)) {
    if (s.name === 'messages') return ctx.edits.insertBefore(s.nameAt, 'beta.');
  }
  return undefined;
}

/** Adds beta names to the request: to its `betas` list when it has one, else as a `betas` argument. */
export function addBetas(ctx: RuleContext, call: RequestCall, betas: readonly string[]): TextEdit[] | undefined {
  const entry = paramEntry(call, 'betas');
  if (entry) {
    if (!entry.valueAt || entry.valueAt.file !== ctx.file || entry.value.kind !== 'list' || betas.length !== 1) return undefined;
    return ctx.edits.addListItem(entry.valueAt, ctx.edits.literal(betas[0], entry.valueAt));
  }
  if (!call.argsAt || call.argsAt.file !== ctx.file) return undefined;
  return ctx.edits.addArgument(call.argsAt, 'betas', ctx.edits.literal(betas, call.argsAt));
}

/**
 * The known name an unknown one stands for, as `unknown-beta` / `unknown-type` suggest it (a
 * type spelling, a misspelled date, one close name): rules that depend on a feature being on
 * count the misspelled name as the feature, so one mistake gets one finding.
 */
export function meantName(name: string, ns: 'beta' | 'edit', ctx: RuleContext): string | undefined {
  const known = ns === 'beta' ? ctx.known.betas : ctx.known.editTypes;
  if (known.has(name)) return name;
  const verdict =
    ns === 'beta'
      ? judgeUnknownName(name, known, { spelling: 'beta', asOf: ctx.known.asOf, maxDistance: Math.min(4, Math.max(2, Math.floor(name.length / 6))), otherSpelling: typeToBetaSpelling })
      : judgeUnknownName(name, known, { spelling: 'type', asOf: ctx.known.asOf, maxDistance: 3, otherSpelling: betaToTypeSpelling });
  return verdict.kind === 'respelled' || verdict.kind === 'misspelled' || verdict.kind === 'misdated' ? verdict.suggestions[0] : undefined;
}

/** The whole text of a file of the analysis (the linted file by default). */
export function fileText(ctx: RuleContext, file: string = ctx.file): string {
  return ctx.textOf({ file, start: 0, end: Number.MAX_SAFE_INTEGER });
}

/** Listings that return a list of names or paths: sorted, they are a list of the same names. */
const LISTS: Record<LanguageId, ReadonlySet<string>> = {
  python: new Set(['os.listdir', 'glob.glob']),
  typescript: new Set(['fs.readdirSync', 'node:fs.readdirSync', 'glob.sync', 'glob.globSync', 'fast-glob.sync']),
  tsx: new Set(['fs.readdirSync', 'node:fs.readdirSync', 'glob.sync', 'glob.globSync', 'fast-glob.sync']),
  javascript: new Set(['fs.readdirSync', 'node:fs.readdirSync', 'glob.sync', 'glob.globSync', 'fast-glob.sync']),
};
/** Listings that return an iterator (`glob.iglob`, `Path.iterdir` / `glob` / `rglob`): sorted, a list, which only a loop takes the same way. */
const ITERATORS: Record<LanguageId, { functions: ReadonlySet<string>; methods: ReadonlySet<string> }> = {
  python: { functions: new Set(['glob.iglob']), methods: new Set(['iterdir', 'glob', 'rglob']) },
  typescript: { functions: new Set(), methods: new Set() },
  tsx: { functions: new Set(), methods: new Set() },
  javascript: { functions: new Set(), methods: new Set() },
};

/** `sorted(x)`; `[...x].sort()`. */
export const SORTED = { python: ['sorted(', ')'], typescript: ['[...', '].sort()'] } as const;

/**
 * The call of a directory listing at `at` (in this file, or in another file of the workspace)
 * when its result can be sorted where it is written and mean the same: a list of names or
 * paths, or an iterator that only a loop takes. A `DirEntry`, an `os.walk` triple or a Promise
 * (`glob.glob` in JavaScript) cannot be, or would not mean the same sorted.
 */
export function sortableListingAt(ctx: RuleContext, at: Loc): boolean {
  const other = at.file === ctx.file ? undefined : ctx.across.view(at.file);
  const view: FileView | undefined = at.file === ctx.file ? ctx.view : other?.view;
  const language = at.file === ctx.file ? ctx.language : other?.language;
  const site = view?.calls.find((c) => c.at.file === at.file && c.at.start === at.start && c.at.end === at.end);
  return !!site && !!view && !!language && sortableListing(site, view, language, ctx.textOf(at));
}

function sortableListing(site: CallSite, view: FileView, language: LanguageId, text: string): boolean {
  // `readdirSync(dir, { withFileTypes: true })` lists Dirent objects, which sort() leaves as they are.
  const options = site.args[1]?.value();
  if (options?.kind === 'obj' && options.entries.some((e) => e.key === 'withFileTypes' && !(e.value.kind === 'bool' && !e.value.value))) return false;
  if (LISTS[language].has(site.name)) return true;
  const iterators = ITERATORS[language];
  if (!iterators.functions.has(site.name) && !(site.receiver && iterators.methods.has(site.method))) return false;
  // `next(p.glob("*.md"))` needs an iterator; `for f in p.glob("*.md")` takes a list as well.
  return view.enclosingLoop(site.at)?.iterText === text;
}

/**
 * The top-level function or constant of another file that holds `at`, which a fix of `call`
 * would change, with its other uses in the project: undefined when there is none or not every
 * use can be seen (then no fix is offered); with other uses, a fix is unsafe and names them
 * (usedAlsoBy).
 */
export function changedDefinition(ctx: RuleContext, at: Loc, call: RequestCall): { def: Definition; others: Use[] } | undefined {
  const def = ctx.across.definitionAround(at);
  if (!def) return undefined;
  const uses = ctx.across.otherUses(def, call.at);
  return uses.seen ? { def, others: uses.others } : undefined;
}

/** How many other uses a fix's title lists before it counts the rest. */
const USES_LISTED = 3;

/**
 * What a fix's title says about the other uses of the definition it changes: `;
 * escalations.py:25 also uses it` (paths from the folder that holds the request, the definition
 * and the uses), or nothing when there are none.
 */
export function usedAlsoBy(ctx: RuleContext, def: Definition, others: readonly Use[]): string {
  if (!others.length) return '';
  const folders = [ctx.file, def.file, ...others.map((u) => u.file)].map((f) => f.replace(/\\/g, '/').split('/').slice(0, -1));
  let common = folders[0];
  for (const f of folders) {
    let i = 0;
    while (i < common.length && i < f.length && common[i] === f[i]) i++;
    common = common.slice(0, i);
  }
  const places = [...new Set(others.map((u) => u.file.replace(/\\/g, '/').split('/').slice(common.length).join('/') + (u.line ? `:${u.line}` : '')))];
  const listed = places.slice(0, USES_LISTED);
  const rest = places.length - listed.length;
  const names = rest > 0 ? `${listed.join(', ')} and ${rest} more` : listed.length > 1 ? `${listed.slice(0, -1).join(', ')} and ${listed[listed.length - 1]}` : listed[0];
  return `; ${names} also ${places.length > 1 ? 'use' : 'uses'} it`;
}

/** The file name of a path. */
export function basename(file: string): string {
  return file.replace(/\\/g, '/').split('/').pop() ?? file;
}
