/**
 * The request model: one language-neutral record per call that builds a Messages API
 * request. Rules read this, never the syntax tree, so one rule serves every language.
 */
import type { Loc } from './span';
import type { ObjValue, Value } from './value';
import { getEntry, getEntryRecord, getString } from './value';

export type LanguageId = 'python' | 'typescript' | 'tsx' | 'javascript';

/** The Anthropic SDK a request is written against: its behaviour is what messages describe. */
export type Sdk = 'python' | 'typescript';

export type RequestMethod = 'create' | 'stream' | 'parse' | 'count_tokens' | 'batch' | 'tool_runner' | 'invoke';

/** Requests built through a framework rather than the SDK directly. */
export type Framework = 'langchain' | 'litellm' | 'vercel-ai' | 'smolagents' | 'agno' | 'instructor';

export type Section = 'tools' | 'system' | 'messages';

/** One block of the rendered prompt, in render order tools -> system -> messages. */
export interface PrefixBlock {
  section: Section;
  /** JSON path in the request body, e.g. `system[0]`, `messages[2].content[1]`. */
  path: string;
  value: Value;
  role?: string;
  cacheControl?: Value;
}

export interface RequestCall {
  file: string;
  language: LanguageId;
  sdk: Sdk;
  /** The whole call expression. */
  at: Loc;
  /** The callee, e.g. `client.beta.messages.create`. */
  callee: Loc;
  calleeText: string;
  method: RequestMethod;
  /** Called through the `beta` namespace. */
  beta: boolean;
  /** Where the parameters are written: the keyword list or the object literal, for fixes. */
  argsAt?: Loc;
  /** Every parameter of the request, merged from keywords, literals, `**params` and spreads. */
  params: ObjValue;
  /** Beta names from `extra_headers`/`headers` options and the client's default headers. */
  headerBetas: Value[];
  /** False when the client's default headers could not be seen (passed in, built elsewhere). */
  clientHeadersKnown: boolean;
  /** The `anthropic-version` header set on the client or on the call (the call's wins), when one is written. */
  apiVersionHeader?: { value: Value; on: 'client' | 'call' };
  /** True when every place a header can be set for this request (client options, per-call headers) is seen in full. */
  headersKnown?: boolean;
  /** The client's class when it is seen (`anthropic.AnthropicBedrock`, `@anthropic-ai/vertex-sdk.AnthropicVertex`). */
  client?: string;
  /** For batch requests: which entry of `requests` this is. */
  batchIndex?: number;
  /** Set when the request is built through a framework (its parameters are mapped to the Messages API shape). */
  framework?: Framework;
  /**
   * Functions the framework runs before each step of this request's tool loop, given the
   * conversation so far and returning the one the step sends (the AI SDK's `prepareStep`): the
   * places of their definitions. What they drop is dropped on every step.
   */
  stepHooks?: Loc[];
  /**
   * Set on a request read for one instance of the class whose method makes it (see
   * RuleContext.constructedCalls): `params` is what that instance sends.
   */
  instance?: InstanceContext;
}

/** Where an instance is built in the analysed file, and what its request would be for any instance. */
export interface InstanceContext {
  /** The constructing call (`SupportBot(cache_tools=True)`, `new SupportBot({ cacheTools: true })`). */
  at: Loc;
  /** Its callee (`SupportBot`): where a finding about the instance is reported. */
  callee: Loc;
  /** The class's name as the call writes it. */
  className: string;
  /** The request's parameters read without knowing the instance (as the request's own file reads them); read when first asked for. */
  general: ObjValue;
}

/**
 * A class of the analysed file whose methods make requests and whose instances are built with
 * options that have a written `True`/`False` default (a dataclass's `cache_tools: bool = False`,
 * a constructor's `long_cache=False`): its requests can be read again for one combination of
 * those options (RuleContext.optionClasses).
 */
export interface OptionClass {
  className: string;
  /** The class's name where it is declared. */
  at: Loc;
  /** Its options with a written `True`/`False` default, in the order written. */
  options: ReadonlyArray<{ name: string; default: boolean }>;
  /** How many request calls its methods make (the indexes `request` takes). */
  requestCount: number;
  /** Where the `i`th request call is written. */
  requestAt(i: number): Loc;
  /**
   * The `i`th request call as an instance built with these options sends it (the options not
   * named keep their defaults); a request may read as more than one (a batch). Bounded: past a
   * number of readings per file, nothing.
   */
  request(i: number, set: ReadonlyMap<string, boolean>): RequestCall[];
}

/**
 * A request in another file that a call of the analysed file reaches through the functions it
 * calls, read with the values the file passes (lang/reach.ts): a date written in a caller and
 * handed down to a wrapper that puts it in a cached `system`.
 */
export interface ReachedRequest {
  call: RequestCall;
  /**
   * The calls followed, outermost first: the call in the analysed file, then one in each function
   * entered, the last in the function that makes the request; `callee` is the callee as written.
   */
  via: Array<{ at: Loc; callee: string }>;
}

/** prefixBlocks's answers, per request: a dozen rules ask it of every request, on every change in the editor. */
const BLOCKS_OF = new WeakMap<RequestCall, readonly PrefixBlock[]>();

/** Render-ordered blocks of a request: each tool, each system block, each message content block. */
export function prefixBlocks(call: RequestCall): readonly PrefixBlock[] {
  let blocks = BLOCKS_OF.get(call);
  if (!blocks) BLOCKS_OF.set(call, (blocks = readPrefixBlocks(call)));
  return blocks;
}

function readPrefixBlocks(call: RequestCall): PrefixBlock[] {
  const blocks: PrefixBlock[] = [];
  const params = call.params;
  const field = (k: string) => {
    for (let i = params.entries.length - 1; i >= 0; i--) if (params.entries[i].key === k) return params.entries[i].value;
    return undefined;
  };
  const cc = (v: Value, depth = 0): Value | undefined => {
    if (v.kind === 'obj') return getEntryRecord(v, 'cache_control')?.value;
    // A block that is one of several (the branches of a helper that builds it), each marked with
    // the same lifetime: that marker.
    if (v.kind !== 'unknown' || !v.alternatives?.length || depth > 2) return undefined;
    const each = v.alternatives.map((a) => cc(a, depth + 1));
    const ttl = (x: Value | undefined) => (x?.kind === 'obj' ? (getString(x, 'ttl') ?? (getEntry(x, 'ttl') ? undefined : '5m')) : undefined);
    const first = ttl(each[0]);
    return first !== undefined && each.every((x) => ttl(x) === first) ? each[0] : undefined;
  };

  const tools = field('tools');
  if (tools?.kind === 'list') {
    tools.items.forEach((t, i) => blocks.push({ section: 'tools', path: `tools[${i}]`, value: t, cacheControl: cc(t) }));
  } else if (tools) {
    blocks.push({ section: 'tools', path: 'tools', value: tools });
  }

  const system = field('system');
  if (system?.kind === 'list') {
    system.items.forEach((b, i) => blocks.push({ section: 'system', path: `system[${i}]`, value: b, cacheControl: cc(b) }));
  } else if (system) {
    blocks.push({ section: 'system', path: 'system', value: system });
  }

  const messages = field('messages');
  if (messages?.kind === 'list') {
    messages.items.forEach((m, i) => {
      const role = m.kind === 'obj' ? getEntryRecord(m, 'role')?.value : undefined;
      const roleText = role?.kind === 'str' && role.complete ? role.text : undefined;
      const content = m.kind === 'obj' ? getEntryRecord(m, 'content')?.value : undefined;
      if (content?.kind === 'list') {
        content.items.forEach((b, j) =>
          blocks.push({ section: 'messages', path: `messages[${i}].content[${j}]`, value: b, role: roleText, cacheControl: cc(b) }),
        );
      } else {
        blocks.push({ section: 'messages', path: `messages[${i}]`, value: content ?? m, role: roleText });
      }
    });
  } else if (messages) {
    blocks.push({ section: 'messages', path: 'messages', value: messages });
  }
  return blocks;
}

export function param(call: RequestCall, key: string): Value | undefined {
  const entries = call.params.entries;
  for (let i = entries.length - 1; i >= 0; i--) if (entries[i].key === key) return entries[i].value;
  return undefined;
}
