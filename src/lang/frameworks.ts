/**
 * Requests built through frameworks, mapped into the same request model as SDK calls so that
 * every rule applies: LangChain / LangGraph (`ChatAnthropic` with `.invoke` and friends, message
 * classes, `("system", ...)` tuples, `ChatPromptTemplate.from_messages(...) | llm`), LiteLLM
 * (`completion` / `acompletion` with an Anthropic model) and the Vercel AI SDK
 * (`generateText` / `streamText` / `generateObject` / `streamObject` with an `@ai-sdk/anthropic` model).
 */
import type { Framework, RequestCall } from '../core/model';
import type { Entry, ListValue, ObjValue, Value } from '../core/value';
import { allTaints, getEntry } from '../core/value';
import type { Evaluator, Ref } from './evaluate';
import type { Node } from './parsers';
import type { Arg } from './syntax';
import type { FileUnit } from './workspace';

const INVOKE = new Set(['invoke', 'ainvoke', 'stream', 'astream', 'batch', 'abatch']);
const ROLE_OF_CLASS: Record<string, string> = {
  SystemMessage: 'system',
  HumanMessage: 'user',
  AIMessage: 'assistant',
  ToolMessage: 'user',
  ChatMessage: 'user',
};
const ROLE_OF_TUPLE: Record<string, string> = { system: 'system', human: 'user', user: 'user', ai: 'assistant', assistant: 'assistant', placeholder: 'user' };
const VERCEL = new Set(['generateText', 'streamText', 'generateObject', 'streamObject']);

type ExtInstance = Extract<Ref, { kind: 'external-instance' }>;

function lastName(name: string): string {
  return name.slice(name.lastIndexOf('.') + 1);
}

function isChatAnthropic(ref: Ref | undefined): ref is ExtInstance {
  return ref?.kind === 'external-instance' && /^(langchain_anthropic|@langchain\/anthropic)(\.|$)/.test(ref.name) && lastName(ref.name) === 'ChatAnthropic';
}

/** The options of a constructor or factory call (keyword arguments in Python, the object argument in JS). */
function options(unit: FileUnit, ev: Evaluator, args: Arg[]): ObjValue {
  return unit.frontEnd.calls.options(unit, ev, args).value;
}

function str(text: string): Value {
  return { kind: 'str', text, complete: true, taints: [] };
}

/** One chat message in any of LangChain's forms, as a Messages API `{role, content}` object. */
function toMessage(ev: Evaluator, v: Value): ObjValue | undefined {
  const ref = ev.refOf(v);
  if (ref?.kind === 'external-instance') {
    const role = ROLE_OF_CLASS[lastName(ref.name)];
    if (!role) return undefined;
    // `SystemMessage(content=...)`, `new SystemMessage({ content: ... })`, or the text alone.
    const named = options(ref.unit, ev, ref.args).entries.find((e) => e.key === 'content');
    const first = ref.args.find((a) => !a.name && !a.spread);
    const positional = !named && first ? ev.eval(ref.unit, first.value) : undefined;
    const contentValue = named?.value ?? (positional?.kind === 'obj' ? undefined : positional);
    const valueAt = named ? named.valueAt : first ? ref.unit.loc(first.value) : undefined;
    if (!contentValue) return undefined;
    return { kind: 'obj', entries: [{ key: 'role', value: str(role) }, { key: 'content', valueAt, value: contentValue }], complete: true, at: v.at, taints: [] };
  }
  if (v.kind === 'list' && v.items.length === 2 && v.items[0].kind === 'str') {
    const role = ROLE_OF_TUPLE[v.items[0].text];
    if (!role) return undefined;
    return { kind: 'obj', entries: [{ key: 'role', value: str(role) }, { key: 'content', valueAt: v.items[1].at, value: v.items[1] }], complete: true, at: v.at, taints: [] };
  }
  if (v.kind === 'obj' && getEntry(v, 'role')) return v;
  return undefined;
}

/** Splits a chat-style list (system messages inline) into `system` and `messages`. */
function splitSystem(list: Value): { system?: Value; systemAt?: Entry['valueAt']; messages: ListValue } {
  const messages: ListValue = { kind: 'list', items: [], complete: list.kind === 'list' ? list.complete : false, at: list.at, taints: list.kind === 'list' ? list.taints : allTaints(list), trims: list.trims, ...(list.kind === 'list' && list.tailKnown ? { tailKnown: true } : {}) };
  const systemParts: Value[] = [];
  let systemAt: Entry['valueAt'];
  if (list.kind === 'list') {
    for (const item of list.items) {
      const role = getEntry(item, 'role');
      if (role?.kind === 'str' && role.text === 'system' && item.kind === 'obj') {
        const content = item.entries.find((e) => e.key === 'content');
        if (content) {
          systemParts.push(content.value);
          systemAt ??= content.valueAt;
        }
      } else messages.items.push(item);
    }
  }
  if (!systemParts.length) return { messages };
  const system: Value =
    systemParts.length === 1
      ? systemParts[0]
      : { kind: 'list', items: systemParts.flatMap((p) => (p.kind === 'list' ? p.items : [{ kind: 'obj', entries: [{ key: 'type', value: str('text') }, { key: 'text', value: p }], complete: true, taints: [] } as ObjValue])), complete: true, taints: [] };
  return { system, systemAt, messages };
}

function request(unit: FileUnit, node: Node, callee: Node, framework: Framework, entries: Entry[], complete: boolean, argsAt?: RequestCall['argsAt']): RequestCall {
  return {
    file: unit.file,
    language: unit.language,
    sdk: unit.frontEnd.sdk,
    at: unit.loc(node),
    callee: unit.loc(callee),
    calleeText: callee.text.replace(/\s+/g, ''),
    method: 'invoke',
    beta: entries.some((e) => e.key === 'betas'),
    argsAt,
    params: { kind: 'obj', entries, complete, taints: [] },
    headerBetas: [],
    clientHeadersKnown: false,
    framework,
  };
}

/** Follows `llm.bind_tools(tools).with_config(...)` back to the ChatAnthropic and the bound tools. */
function chatModel(unit: FileUnit, ev: Evaluator, receiver: Node): { model: ExtInstance; tools?: Value; prompt?: Value } | undefined {
  let tools: Value | undefined;
  let n: Node | undefined = receiver;
  for (let depth = 0; n && depth < 8; depth++) {
    const v = ev.eval(unit, n);
    const ref = ev.refOf(v);
    if (isChatAnthropic(ref)) return { model: ref, tools };
    const e = unit.adapter.expr(n);
    if (e.k === 'wrap') {
      n = e.inner;
      continue;
    }
    if (e.k === 'call') {
      const c = unit.adapter.expr(e.callee);
      if (c.k !== 'member') return undefined;
      if ((c.prop === 'bind_tools' || c.prop === 'bindTools') && e.args[0]) tools ??= ev.eval(unit, e.args[0].value);
      n = c.object;
      continue;
    }
    if (e.k === 'binary' && e.op === '|') {
      // `prompt | llm | parser`: the model is one element of the pipe; the template before it comes first.
      const parts: Node[] = [];
      const flatten = (x: Node) => {
        const xe = unit.adapter.expr(x);
        if (xe.k === 'binary' && xe.op === '|') {
          flatten(xe.left);
          flatten(xe.right);
        } else if (xe.k === 'wrap') flatten(xe.inner);
        else parts.push(x);
      };
      flatten(n);
      for (let i = 0; i < parts.length; i++) {
        const model = chatModel(unit, ev, parts[i]);
        if (model) return { ...model, prompt: i > 0 ? promptMessages(unit, ev, parts[i - 1]) : undefined };
      }
      return undefined;
    }
    if (e.k === 'ident') {
      // `chain = prompt | llm` then `chain.invoke(...)`.
      const found = ev.findBinding(unit, n, e.name);
      if (found?.binding.kind === 'assign' && found.binding.value) {
        n = found.binding.value;
        continue;
      }
    }
    return undefined;
  }
  return undefined;
}

/** The messages of `ChatPromptTemplate.from_messages([...])`. */
function promptMessages(unit: FileUnit, ev: Evaluator, node: Node): Value | undefined {
  const e = unit.adapter.expr(node);
  if (e.k === 'ident') {
    const found = ev.findBinding(unit, node, e.name);
    return found?.binding.kind === 'assign' && found.binding.value ? promptMessages(unit, ev, found.binding.value) : undefined;
  }
  if (e.k !== 'call') return undefined;
  const c = unit.adapter.expr(e.callee);
  if (c.k !== 'member' || (c.prop !== 'from_messages' && c.prop !== 'fromMessages') || !e.args[0]) return undefined;
  return ev.eval(unit, e.args[0].value);
}

function toMessageList(ev: Evaluator, v: Value | undefined): ListValue | undefined {
  if (!v) return undefined;
  if (v.kind !== 'list') return undefined;
  const items: Value[] = [];
  for (const item of v.items) items.push(toMessage(ev, item) ?? item);
  return { ...v, items };
}

function langchainCall(unit: FileUnit, ev: Evaluator, node: Node, callee: Node, receiver: Node, args: Arg[]): RequestCall | undefined {
  const found = chatModel(unit, ev, receiver);
  if (!found) return undefined;
  const opts = options(found.model.unit, ev, found.model.args);
  const input = args.find((a) => !a.name && !a.spread);
  const inputValue = input ? ev.eval(unit, input.value) : undefined;
  const prompt = toMessageList(ev, found.prompt);
  const invoked = inputValue?.kind === 'str' ? ({ kind: 'list', items: [{ kind: 'obj', entries: [{ key: 'role', value: str('user') }, { key: 'content', value: inputValue }], complete: true, taints: [] }], complete: true, taints: [] } as ListValue) : toMessageList(ev, inputValue);
  const all: ListValue = {
    kind: 'list',
    items: [...(prompt?.items ?? []), ...(found.prompt ? [] : (invoked?.items ?? []))],
    complete: (prompt?.complete ?? true) && (found.prompt ? false : (invoked?.complete ?? false)),
    at: inputValue?.at,
    taints: [...(prompt?.taints ?? []), ...(invoked?.taints ?? [])],
    trims: [...(invoked?.trims ?? inputValue?.trims ?? [])],
  };
  const { system, systemAt, messages } = splitSystem(all);
  const entries: Entry[] = [];
  for (const key of ['model', 'model_name', 'max_tokens', 'betas']) {
    const e = opts.entries.find((x) => x.key === key);
    if (e) entries.push({ ...e, key: key === 'model_name' ? 'model' : key });
  }
  if (found.tools) entries.push({ key: 'tools', value: found.tools });
  if (system) entries.push({ key: 'system', valueAt: systemAt, value: system });
  entries.push({ key: 'messages', valueAt: input ? unit.loc(input.value) : undefined, value: messages });
  return request(unit, node, callee, 'langchain', entries, true);
}

function litellmCall(unit: FileUnit, ev: Evaluator, node: Node, callee: Node, args: Arg[]): RequestCall | undefined {
  const { value: opts, at: argsAt } = unit.frontEnd.calls.options(unit, ev, args);
  const model = getEntry(opts, 'model');
  if (model?.kind !== 'str' || !/^anthropic\/|claude/.test(model.text)) return undefined;
  const messagesEntry = opts.entries.find((e) => e.key === 'messages');
  const entries: Entry[] = opts.entries.filter((e) => e.key !== 'messages' && e.key !== 'model');
  entries.push({ key: 'model', value: { ...model, text: model.text.replace(/^anthropic\//, '') } });
  if (messagesEntry) {
    const { system, systemAt, messages } = splitSystem(messagesEntry.value);
    if (system) entries.push({ key: 'system', valueAt: systemAt, value: system });
    entries.push({ ...messagesEntry, value: messages });
  }
  return request(unit, node, callee, 'litellm', entries, opts.complete, argsAt);
}

function vercelCall(unit: FileUnit, ev: Evaluator, node: Node, callee: Node, args: Arg[]): RequestCall | undefined {
  const { value: opts, at: argsAt } = unit.frontEnd.calls.options(unit, ev, args);
  const model = getEntry(opts, 'model');
  const ref = ev.refOf(model);
  if (ref?.kind !== 'external-instance' || !/^@ai-sdk\/anthropic(\.|$)/.test(ref.name)) return undefined;
  const modelId = ref.args[0] ? ev.eval(ref.unit, ref.args[0].value) : undefined;
  const entries: Entry[] = [];
  if (modelId) entries.push({ key: 'model', value: modelId });
  for (const e of opts.entries) {
    if (e.key === 'system' || e.key === 'maxTokens' || e.key === 'messages') entries.push(e.key === 'maxTokens' ? { ...e, key: 'max_tokens' } : e);
    if (e.key === 'prompt') {
      entries.push({ key: 'messages', value: { kind: 'list', items: [{ kind: 'obj', entries: [{ key: 'role', value: str('user') }, { key: 'content', valueAt: e.valueAt, value: e.value }], complete: true, taints: [] }], complete: true, taints: [] } });
    }
    if (e.key === 'tools' && e.value.kind === 'obj') {
      // A name -> tool map, sent in insertion order.
      entries.push({ ...e, value: { kind: 'list', items: e.value.entries.map((t) => withName(t)), complete: e.value.complete, at: e.value.at, taints: e.value.taints } });
    }
  }
  // `providerOptions.anthropic.cacheControl` on a message marks its last block.
  const mi = entries.findIndex((e) => e.key === 'messages');
  const messages = entries[mi];
  if (messages?.value.kind === 'list') {
    // A copy: the entry belongs to the evaluated (memoised) options object.
    const marked: ListValue = { ...messages.value, items: messages.value.items.map(vercelCacheControl) };
    entries[mi] = { ...messages, value: marked };
    // `{ role: 'system', ... }` messages are sent as system blocks, after the `system` option.
    const split = splitSystem(marked);
    if (split.system) {
      const si = entries.findIndex((e) => e.key === 'system');
      const parts = [...(si >= 0 ? [entries[si].value] : []), split.system];
      const textBlock = (p: Value): Value => ({ kind: 'obj', entries: [{ key: 'type', value: str('text') }, { key: 'text', value: p }], complete: true, at: p.at, taints: [] });
      const system: Value = parts.length === 1 ? parts[0] : { kind: 'list', items: parts.flatMap((p) => (p.kind === 'list' ? p.items : [textBlock(p)])), complete: parts.every((p) => p.kind !== 'list' || p.complete), taints: [] };
      if (si >= 0) entries[si] = { ...entries[si], value: system };
      else entries.push({ key: 'system', valueAt: split.systemAt, value: system });
      entries[mi] = { ...messages, value: split.messages };
    }
  }
  return request(unit, node, callee, 'vercel-ai', entries, opts.complete, argsAt);
}

function withName(t: Entry): Value {
  const v = t.value;
  const name: Entry = { key: 'name', value: str(t.key), keyAt: t.keyAt };
  if (v.kind === 'obj') return { ...v, entries: [name, ...v.entries] };
  return { kind: 'obj', entries: [name], complete: false, at: v.at, taints: allTaints(v) };
}

function vercelCacheControl(m: Value): Value {
  if (m.kind !== 'obj') return m;
  const cc = getEntry(getEntry(getEntry(m, 'providerOptions'), 'anthropic'), 'cacheControl');
  if (!cc) return m;
  const content = m.entries.find((e) => e.key === 'content');
  if (!content) return m;
  const block: ObjValue = content.value.kind === 'obj' ? content.value : { kind: 'obj', entries: [{ key: 'type', value: str('text') }, { key: 'text', value: content.value }], complete: true, at: content.value.at, taints: [] };
  const marked: ObjValue = { ...block, entries: [...block.entries, { key: 'cache_control', value: cc }] };
  return { ...m, entries: m.entries.map((e) => (e === content ? { ...e, value: { kind: 'list', items: [marked], complete: true, at: content.value.at, taints: [] } as ListValue } : e)) };
}

export function findFrameworkCalls(unit: FileUnit, ev: Evaluator): RequestCall[] {
  const text = unit.text;
  const langchain = /langchain_anthropic|@langchain\/anthropic/.test(text);
  const litellm = /\blitellm\b/.test(text);
  const vercel = /@ai-sdk\/anthropic/.test(text);
  if (!langchain && !litellm && !vercel) return [];
  const out: RequestCall[] = [];
  for (const node of unit.calls) {
    const e = unit.adapter.expr(node);
    if (e.k !== 'call') continue;
    const c = unit.adapter.expr(e.callee);
    let call: RequestCall | undefined;
    if (langchain && c.k === 'member' && INVOKE.has(c.prop)) call = langchainCall(unit, ev, node, e.callee, c.object, e.args);
    else if (litellm || vercel) {
      // The library name from the file's own imports: evaluating every callee of the file
      // would follow each one into the workspace.
      const name = ev.calleeName(unit, e.callee);
      if (name) {
        if (litellm && /^litellm\.(a?completion)$/.test(name)) call = litellmCall(unit, ev, node, e.callee, e.args);
        else if (vercel && name.startsWith('ai.') && VERCEL.has(lastName(name))) call = vercelCall(unit, ev, node, e.callee, e.args);
      }
    }
    if (call) out.push(call);
  }
  return out;
}
