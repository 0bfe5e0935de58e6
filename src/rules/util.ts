/** Small helpers shared by rules: where to report, and how to describe a taint. */
import type { Related } from '../core/diagnostic';
import type { Platform } from '../core/knownNames';
import { platformOfClient } from '../core/knownNames';
import { hasBreakpoint } from '../core/breakpoints';
import type { RequestCall } from '../core/model';
import type { RuleContext } from '../core/rule';
import type { Loc } from '../core/span';
import type { Entry, Taint } from '../core/value';
import { getEntryRecord } from '../core/value';

/** The first location that lies in the analysed file. */
export function inFile(ctx: RuleContext, ...locs: Array<Loc | undefined>): Loc | undefined {
  return locs.find((l): l is Loc => !!l && l.file === ctx.file);
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
  return `${CLASS_WORDS[t.cls]} (\`${t.text}\`)`;
}

/** Related locations: where the value was produced and each assignment followed to it. */
export function relatedFor(ctx: RuleContext, t: Taint, reportedAt: Loc): Related[] {
  const out: Related[] = [];
  const same = (a: Loc, b: Loc) => a.file === b.file && a.start === b.start && a.end === b.end;
  if (!same(t.at, reportedAt)) out.push({ at: t.at, message: `\`${t.text}\` is produced here` });
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
    const k = `${t.at.file}:${t.at.start}:${t.at.end}:${t.kind}`;
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
export const UNCACHED_POLICY = 'A request without a cache breakpoint caches nothing, so it is not reported; once it has one (a `cache_control` on a block, or at the top level), it is.';

/** A request that caches its prefix: it can and it has a breakpoint (see UNCACHED_POLICY). */
export function cachesPrefix(call: RequestCall, ctx: RuleContext): boolean {
  return caches(call) && hasBreakpoint(call, ctx.view, ctx.textOf);
}

/**
 * Where a request goes: a platform spelling of the model id (Vertex `…@date`, Bedrock
 * `anthropic.…`), else the client's platform; requests through LangChain's ChatAnthropic, LiteLLM
 * (`anthropic/…`) and the Vercel AI SDK's Anthropic provider go to the Claude API. Undefined
 * when the client is not seen.
 */
export function requestPlatform(call: RequestCall, model?: string): Platform | undefined {
  if (model && /@/.test(model)) return 'vertex';
  if (model && /^(?:[a-z]{2,6}\.)?anthropic\./.test(model)) return 'bedrock';
  if (call.framework) return 'anthropic';
  return platformOfClient(call.client);
}

export function platformName(p: Platform): string {
  return { anthropic: 'the Claude API', bedrock: 'Amazon Bedrock', vertex: 'Google Cloud Vertex AI', foundry: 'Microsoft Foundry' }[p];
}
