/**
 * Requests built through frameworks, mapped into the same request model as SDK calls so that
 * every rule applies: LangChain / LangGraph (`ChatAnthropic` with `.invoke` and friends, message
 * classes, `("system", ...)` tuples, `ChatPromptTemplate.from_messages(...) | llm` or `.pipe(llm)`,
 * `createAgent` / `create_agent`), LiteLLM (`completion` / `acompletion` with an Anthropic model),
 * smolagents (`LiteLLMModel`, a model class's default `model_id`), agno (`Claude(...)` in an
 * agent that is run), instructor (clients wrapping an Anthropic client) and the Vercel AI SDK
 * (`generateText` / `streamText` / `generateObject` / `streamObject` with an `@ai-sdk/anthropic`
 * model). Each adapter translates its framework's own format into Messages API terms, or
 * leaves the part unknown: the rules never judge another format by Messages API names.
 */
import type { Framework, RequestCall } from '../core/model';
import type { Loc } from '../core/span';
import type { Entry, ListValue, ObjValue, Value } from '../core/value';
import { allTaints, getEntry, getEntryRecord, unknown } from '../core/value';
import type { Evaluator, Ref } from './evaluate';
import type { Node } from './parsers';
import type { Arg } from './syntax';
import { walk } from './walk';
import type { FileUnit } from './workspace';

const INVOKE = new Set(['invoke', 'ainvoke', 'stream', 'astream', 'batch', 'abatch']);
const ROLE_OF_CLASS: Record<string, string> = {
  SystemMessage: 'system',
  HumanMessage: 'user',
  AIMessage: 'assistant',
  ToolMessage: 'user',
  ChatMessage: 'user',
  SystemMessagePromptTemplate: 'system',
  HumanMessagePromptTemplate: 'user',
  AIMessagePromptTemplate: 'assistant',
};
/** `SystemMessagePromptTemplate.from_template("...")`: the class is the segment before the factory. */
const TEMPLATE_FACTORY = /\.(\w+MessagePromptTemplate)\.(from_template|fromTemplate)$/;
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
    const factory = TEMPLATE_FACTORY.exec(ref.name);
    const role = ROLE_OF_CLASS[factory ? factory[1] : lastName(ref.name)];
    if (!role) return undefined;
    // `SystemMessage(content=...)`, `new SystemMessage({ content: ... })`, or the text alone.
    const named = getEntryRecord(options(ref.unit, ev, ref.args), 'content');
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
        const content = getEntryRecord(item, 'content');
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
function chatModel(unit: FileUnit, ev: Evaluator, receiver: Node, nesting = 0): { model: ExtInstance; tools?: Value; prompt?: Value } | undefined {
  let tools: Value | undefined;
  let n: Node | undefined = receiver;
  if (nesting > 4) return undefined;
  for (let depth = 0; n && depth < 8; depth++) {
    const v = ev.eval(unit, n);
    const ref = ev.refOf(v);
    if (isChatAnthropic(ref)) return { model: ref, tools };
    const e = unit.adapter.expr(n);
    if (e.k === 'wrap') {
      n = e.inner;
      continue;
    }
    const parts = pipeParts(unit, ev, n);
    if (parts) {
      // `prompt | llm | parser`, `prompt.pipe(llm)`, `RunnableSequence.from([prompt, llm])`: the model is
      // one element of the chain; the template before it comes first.
      for (let i = 0; i < parts.length; i++) {
        const model = chatModel(unit, ev, parts[i], nesting + 1);
        if (model) return { ...model, prompt: i > 0 ? promptMessages(unit, ev, parts[i - 1]) : undefined };
      }
      return undefined;
    }
    if (e.k === 'call') {
      const c = unit.adapter.expr(e.callee);
      if (c.k !== 'member') return undefined;
      if ((c.prop === 'bind_tools' || c.prop === 'bindTools') && e.args[0]) tools ??= ev.eval(unit, e.args[0].value);
      n = c.object;
      continue;
    }
    if (e.k === 'ident') {
      // `chain = prompt | llm` then `chain.invoke(...)`.
      const found = ev.findBinding(unit, n, e.name);
      if (found?.binding.kind === 'assign' && found.binding.value && found.binding.position === undefined) {
        n = found.binding.value;
        continue;
      }
    }
    return undefined;
  }
  return undefined;
}

/**
 * The elements of a runnable chain, in order: `a | b | c`, `a.pipe(b).pipe(c)`,
 * `RunnableSequence.from([a, b, c])`. Undefined when the node is not a chain.
 */
function pipeParts(unit: FileUnit, ev: Evaluator, node: Node): Node[] | undefined {
  const e = unit.adapter.expr(node);
  if (e.k === 'binary' && e.op === '|') {
    const parts: Node[] = [];
    const flatten = (x: Node) => {
      const xe = unit.adapter.expr(x);
      if (xe.k === 'binary' && xe.op === '|') {
        flatten(xe.left);
        flatten(xe.right);
      } else if (xe.k === 'wrap') flatten(xe.inner);
      else parts.push(x);
    };
    flatten(node);
    return parts;
  }
  if (e.k !== 'call') return undefined;
  const c = unit.adapter.expr(e.callee);
  if (c.k !== 'member') return undefined;
  if (c.prop === 'pipe' && e.args.length >= 1 && !e.args.some((a) => a.name || a.spread)) {
    return [...(pipeParts(unit, ev, c.object) ?? [c.object]), ...e.args.map((a) => a.value)];
  }
  if (c.prop === 'from' && e.args.length === 1) {
    const name = ev.calleeName(unit, e.callee);
    const list = unit.adapter.expr(e.args[0].value);
    if (name && /(^|\.)RunnableSequence\.from$/.test(name) && list.k === 'list' && !list.items.some((i) => i.spread)) return list.items.map((i) => i.value);
  }
  return undefined;
}

/** The messages of `ChatPromptTemplate.from_messages([...])`. */
function promptMessages(unit: FileUnit, ev: Evaluator, node: Node): Value | undefined {
  const e = unit.adapter.expr(node);
  if (e.k === 'ident') {
    const found = ev.findBinding(unit, node, e.name);
    return found?.binding.kind === 'assign' && found.binding.value && found.binding.position === undefined ? promptMessages(unit, ev, found.binding.value) : undefined;
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

/**
 * `createAgent` (langchain, JS), `create_agent` (langchain.agents, Python), and LangGraph's
 * prebuilt `createReactAgent` / `create_react_agent` that came before them.
 */
const CREATE_AGENT = /^(?:langchain(\.agents)?\.(createAgent|create_agent)|@langchain\/langgraph\/prebuilt\.createReactAgent|langgraph\.prebuilt\.create_react_agent)$/;
/** Where each of them takes the system prompt (a string or a SystemMessage; a function is not followed). */
const AGENT_SYSTEM_KEYS = new Set(['systemPrompt', 'system_prompt', 'prompt', 'stateModifier', 'messageModifier']);
const CACHING_MIDDLEWARE = /(^|\.)(anthropicPromptCachingMiddleware|AnthropicPromptCachingMiddleware)$/;
const INIT_CHAT_MODEL = /(^|\.)(initChatModel|init_chat_model)$/;

/**
 * The Anthropic model id a LangChain model argument stands for: a provider string
 * (`"anthropic:claude-…"`, or a bare `"claude-…"`, which LangChain infers as Anthropic),
 * `init_chat_model(...)` / `initChatModel(...)` of one, or a `ChatAnthropic`. Undefined for
 * other providers and for what cannot be resolved.
 */
function agentModel(ev: Evaluator, v: Value | undefined): { model?: Entry; chat?: ExtInstance } | undefined {
  if (!v) return undefined;
  if (v.kind === 'str' && v.complete) {
    const m = /^(?:anthropic:)?(claude-.*)$/.exec(v.text);
    return m ? { model: { key: 'model', value: { ...v, text: m[1] } } } : undefined;
  }
  const ref = ev.refOf(v);
  if (ref?.kind === 'external-instance' && INIT_CHAT_MODEL.test(ref.name)) {
    const opts = options(ref.unit, ev, ref.args);
    const first = ref.args.find((a) => !a.name && !a.spread);
    const model = first ? ev.eval(ref.unit, first.value) : getEntry(opts, 'model');
    const provider = getEntry(opts, 'model_provider') ?? getEntry(opts, 'modelProvider');
    if (provider && !(provider.kind === 'str' && provider.text === 'anthropic')) return undefined;
    if (model?.kind === 'str' && provider && !model.text.includes(':')) return { model: { key: 'model', value: model } };
    return agentModel(ev, model);
  }
  if (isChatAnthropic(ref)) {
    const opts = options(ref.unit, ev, ref.args);
    const e = opts.entries.find((x) => x.key === 'model' || x.key === 'model_name' || x.key === 'modelName');
    return { model: e ? { ...e, key: 'model' } : undefined, chat: ref };
  }
  return undefined;
}

/**
 * `createAgent({ model, systemPrompt, tools, middleware })` / `create_agent(model, tools, system_prompt=...)`
 * as the request its model calls make: the model, the system prompt and the tools come from
 * here, the messages from the one `agent.invoke({ messages })` of the file when there is one.
 * The Anthropic prompt-caching middleware sets the top-level `cache_control` of every model call.
 */
function agentCall(unit: FileUnit, ev: Evaluator, node: Node, callee: Node, args: Arg[]): RequestCall | undefined {
  const { value: opts, at: argsAt } = unit.frontEnd.calls.options(unit, ev, args);
  // JS passes one options object; Python passes the model (and the tools) positionally too.
  const positional = args.filter((a) => !a.name && !a.spread);
  const firstValue = positional[0] ? ev.eval(unit, positional[0].value) : undefined;
  const modelArgs = firstValue && firstValue.kind !== 'obj' ? positional : [];
  const modelValue = modelArgs[0] ? firstValue : (getEntry(opts, 'model') ?? getEntry(opts, 'llm'));
  const found = agentModel(ev, modelValue);
  if (!found) return undefined;
  const entries: Entry[] = [];
  if (found.model) entries.push(found.model);
  if (found.chat) {
    const chatOpts = options(found.chat.unit, ev, found.chat.args);
    for (const e of chatOpts.entries) {
      if (e.key === 'max_tokens' || e.key === 'maxTokens') entries.push({ ...e, key: 'max_tokens' });
      if (e.key === 'betas') entries.push(e);
    }
  }
  const toolsEntry = modelArgs[1] ? { key: 'tools', valueAt: unit.loc(modelArgs[1].value), value: ev.eval(unit, modelArgs[1].value) } : getEntryRecord(opts, 'tools');
  // Tools that cannot be resolved stay in the request as unknown: the prefix is then not fully known.
  if (toolsEntry) entries.push({ ...toolsEntry, key: 'tools' });
  const systemEntry = opts.entries.find((e) => AGENT_SYSTEM_KEYS.has(e.key));
  if (systemEntry) {
    const asMessage = toMessage(ev, systemEntry.value);
    const content = asMessage ? getEntryRecord(asMessage, 'content') : undefined;
    entries.push(content ? { key: 'system', valueAt: content.valueAt, value: content.value } : { ...systemEntry, key: 'system' });
  }
  const middleware = getEntry(opts, 'middleware');
  if (middleware?.kind === 'list') {
    for (const m of middleware.items) {
      const ref = ev.refOf(m);
      if (ref?.kind !== 'external-instance' || !CACHING_MIDDLEWARE.test(ref.name)) continue;
      const mopts = options(ref.unit, ev, ref.args);
      const ttl = getEntryRecord(mopts, 'ttl');
      const marker: ObjValue = { kind: 'obj', entries: [{ key: 'type', value: str('ephemeral') }, ...(ttl ? [ttl] : [])], complete: mopts.complete, at: ref.unit.loc(ref.call), taints: [] };
      entries.push({ key: 'cache_control', valueAt: ref.unit.loc(ref.call), value: marker });
    }
  }
  // Without one invocation to read, the conversation is unknown (not empty: the prefix is not known).
  entries.push(agentInvocation(unit, ev, node) ?? { key: 'messages', value: unknown(undefined, 'the messages the agent is invoked with') });
  return request(unit, node, callee, 'langchain', entries, true, argsAt);
}

/** The `messages` of the only `agent.invoke({ messages: [...] })` (or stream) on the agent that `node` creates. */
function agentInvocation(unit: FileUnit, ev: Evaluator, node: Node): Entry | undefined {
  let found: Entry | undefined;
  let count = 0;
  for (const call of unit.calls) {
    const e = unit.adapter.expr(call);
    if (e.k !== 'call') continue;
    const c = unit.adapter.expr(e.callee);
    if (c.k !== 'member' || !INVOKE.has(c.prop)) continue;
    const recv = unit.adapter.expr(c.object);
    if (recv.k !== 'ident') continue;
    const binding = ev.findBinding(unit, c.object, recv.name);
    if (binding?.binding.kind !== 'assign' || binding.binding.value !== node) continue;
    count++;
    const input = e.args.find((a) => !a.name && !a.spread);
    const messages = input ? getEntryRecord(ev.eval(unit, input.value), 'messages') : undefined;
    const list = messages ? toMessageList(ev, messages.value) : undefined;
    found = list ? { key: 'messages', valueAt: messages?.valueAt, value: list } : undefined;
  }
  return count === 1 ? found : undefined;
}

/** smolagents' model classes that send their `model_id` through LiteLLM. */
const SMOLAGENTS_LITELLM = /^smolagents(\.models)?\.(LiteLLMModel|LiteLLMRouterModel)$/;
/** A LiteLLM model name that LiteLLM sends to the Claude API. */
const LITELLM_ANTHROPIC = /^(?:anthropic\/)?(claude-.*)$/;

function modelRequest(unit: FileUnit, model: Value, at: Node, calleeText: string): RequestCall | undefined {
  if (model.kind !== 'str' || !model.complete) return undefined;
  const m = LITELLM_ANTHROPIC.exec(model.text);
  if (!m) return undefined;
  return {
    file: unit.file,
    language: unit.language,
    sdk: unit.frontEnd.sdk,
    at: unit.loc(at),
    callee: unit.loc(at),
    calleeText,
    method: 'invoke',
    beta: false,
    params: { kind: 'obj', entries: [{ key: 'model', value: { ...model, text: m[1] } }], complete: false, taints: [] },
    headerBetas: [],
    clientHeadersKnown: false,
    framework: 'smolagents',
  };
}

/** `LiteLLMModel(model_id="anthropic/claude-…")`: the model of every request the agent makes through it. */
function smolagentsModelCall(unit: FileUnit, ev: Evaluator, node: Node, args: Arg[]): RequestCall | undefined {
  const opts = options(unit, ev, args);
  const first = args.find((a) => !a.name && !a.spread);
  const model = first ? ev.eval(unit, first.value) : getEntry(opts, 'model_id');
  return model ? modelRequest(unit, model, node, 'LiteLLMModel') : undefined;
}

/**
 * A model class whose constructor defaults `model_id` to a Claude model (a parameter default,
 * or `if not model_id: model_id = "anthropic/claude-…"` in `__init__`) and that sends it
 * through LiteLLM (it names litellm, or extends smolagents' LiteLLMModel): the default is the
 * model of every request made with the class when no model is passed.
 */
function modelClassDefaults(unit: FileUnit, ev: Evaluator): RequestCall[] {
  // `model_id` and `__init__` are the Python spellings; a JavaScript class has neither.
  if (!/\bmodel_id\b/.test(unit.text)) return [];
  const out: RequestCall[] = [];
  for (const scope of unit.scopes.values()) {
    const cls = scope.node;
    if (!unit.adapter.isClass(cls)) continue;
    const header = unit.adapter.classHeader(cls);
    const bases = header.bases;
    if (!/\blitellm\b/.test(cls.text) && !/\bLiteLLM(Router)?Model\b/.test(bases)) continue;
    const init = unit.adapter.classMembers(cls).get('__init__')?.find((n) => unit.adapter.isFunction(n));
    if (!init) continue;
    const param = unit.adapter.functionInfo(init).params.find((p) => p.name === 'model_id');
    if (!param) continue;
    const name = header.name ?? 'model class';
    const defaults: Node[] = [];
    if (param.default) defaults.push(param.default);
    for (const b of unit.scopes.get(init.id)?.bindings.get('model_id') ?? []) if (b.kind === 'assign' && b.value) defaults.push(b.value);
    for (const d of defaults) {
      if (unit.adapter.expr(d).k !== 'str') continue;
      const call = modelRequest(unit, ev.eval(unit, d), d, `${name}.__init__`);
      if (call) out.push(call);
    }
  }
  return out;
}

function litellmCall(unit: FileUnit, ev: Evaluator, node: Node, callee: Node, args: Arg[]): RequestCall | undefined {
  const { value: opts, at: argsAt } = unit.frontEnd.calls.options(unit, ev, args);
  const model = getEntry(opts, 'model');
  if (model?.kind !== 'str' || !/^anthropic\/|claude/.test(model.text)) return undefined;
  const messagesEntry = getEntryRecord(opts, 'messages');
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
  const platform = providerEndpoint(ev, ref);
  const entries: Entry[] = [];
  if (modelId) entries.push({ key: 'model', value: modelId });
  let messages: Entry | undefined;
  let system: Entry | undefined;
  const stepHooks: Loc[] = [];
  for (const e of opts.entries) {
    if (STEP_HOOK.has(e.key)) {
      // Written in place, or a function named here (`prepareStep,` / `prepareStep: trimHistory`).
      const ref = ev.refOf(e.value);
      const at = ref?.kind === 'function' ? ref.unit.loc(ref.node) : e.valueAt;
      if (at) stepHooks.push(at);
    }
    if (e.key === 'maxTokens' || e.key === 'maxOutputTokens') entries.push({ ...e, key: 'max_tokens' });
    if (e.key === 'system') system = { ...e, value: aiSdkSystem(e.value) };
    if (e.key === 'messages') messages = { ...e, value: aiSdkMessages(e.value) };
    if (e.key === 'prompt') {
      // A string is one user turn; a message list (AI SDK 5 and later) is the conversation.
      const turn: Value = { kind: 'obj', entries: [{ key: 'role', value: str('user') }, { key: 'content', valueAt: e.valueAt, value: e.value }], complete: true, taints: [] };
      messages = e.value.kind === 'list' ? { ...e, key: 'messages', value: aiSdkMessages(e.value) } : { key: 'messages', value: { kind: 'list', items: [turn], complete: true, taints: [] } };
    }
    if (e.key === 'tools') {
      // A name -> tool map, sent in insertion order; one that cannot be resolved stays unknown.
      if (e.value.kind === 'obj') entries.push({ ...e, value: { kind: 'list', items: e.value.entries.map((t) => aiSdkTool(ev, t)), complete: e.value.complete, at: e.value.at, taints: e.value.taints } });
      else entries.push({ ...e, value: unknown(e.value.at, 'tools not resolved', allTaints(e.value)) });
    }
  }
  // `providerOptions.anthropic.cacheControl` on the call itself is the top-level (automatic) breakpoint.
  const topLevel = aiSdkCacheControl(opts);
  if (topLevel) entries.push({ key: 'cache_control', value: topLevel });
  if (system) entries.push(system);
  if (messages) {
    // `{ role: 'system', ... }` messages are sent as system blocks, after the `system` option.
    const split = splitSystem(messages.value);
    if (split.system) {
      const parts = [...(system ? [system.value] : []), split.system];
      const mergedSystem: Value = parts.length === 1 ? parts[0] : { kind: 'list', items: parts.flatMap((p) => (p.kind === 'list' ? p.items : [textBlock(p)])), complete: parts.every((p) => p.kind !== 'list' || p.complete), taints: [] };
      const si = entries.findIndex((e) => e.key === 'system');
      if (si >= 0) entries[si] = { ...entries[si], value: mergedSystem };
      else entries.push({ key: 'system', valueAt: split.systemAt, value: mergedSystem });
      entries.push({ ...messages, value: split.messages });
    } else entries.push(messages);
  }
  const made = request(unit, node, callee, 'vercel-ai', entries, opts.complete, argsAt);
  const call = platform ? { ...made, client: `${ref.name} with ${platform} endpoint` } : made;
  return stepHooks.length ? { ...call, stepHooks } : call;
}

/**
 * The platform other than the Claude API that a provider made by `createAnthropic({ baseURL })`
 * sends to, named as platformOfClient reads a client (Microsoft Foundry serves Claude under
 * `https://<resource>.services.ai.azure.com/anthropic/`); undefined for the Claude API, a proxy or
 * an address not known.
 */
function providerEndpoint(ev: Evaluator, ref: Extract<Ref, { kind: 'external-instance' }>): string | undefined {
  const options = ref.factory?.args[0];
  if (!ref.factory || !options || options.name) return undefined;
  const baseUrl = getEntry(ev.eval(ref.factory.unit, options.value, ref.factory.env), 'baseURL');
  if (baseUrl?.kind !== 'str') return undefined;
  if (/\.azure\.com\b/.test(baseUrl.text)) return 'a Microsoft Foundry';
  if (/\.amazonaws\.com\b/.test(baseUrl.text)) return 'an Amazon Bedrock';
  if (/\.googleapis\.com\b/.test(baseUrl.text)) return 'a Google Cloud Vertex AI';
  return undefined;
}

/** The AI SDK's per-step hook of `generateText` / `streamText` (named `experimental_prepareStep` before AI SDK 5). */
const STEP_HOOK = new Set(['prepareStep', 'experimental_prepareStep']);

function textBlock(text: Value, cacheControl?: Value): ObjValue {
  const entries: Entry[] = [{ key: 'type', value: str('text') }, { key: 'text', value: text }];
  if (cacheControl) entries.push({ key: 'cache_control', value: cacheControl });
  return { kind: 'obj', entries, complete: true, at: text.at, taints: [] };
}

/**
 * The AI SDK's cache marker on a message, a part, a tool or the call: `providerOptions.anthropic.cacheControl`
 * (or `cache_control`, which the provider accepts too), or the same under the older
 * `experimental_providerMetadata`.
 */
function aiSdkCacheControl(v: Value | undefined): Value | undefined {
  for (const key of ['providerOptions', 'experimental_providerMetadata']) {
    const anthropic = getEntry(getEntry(v, key), 'anthropic');
    const cc = getEntry(anthropic, 'cacheControl') ?? getEntry(anthropic, 'cache_control');
    if (cc && cc.kind !== 'null') return cc;
  }
  return undefined;
}

const AI_SDK_OPTION_KEYS = new Set(['providerOptions', 'experimental_providerMetadata', 'type']);

/** The `system` option: a string, or (AI SDK 6) a system message or a list of them. */
function aiSdkSystem(v: Value): Value {
  const block = (m: Value): Value => {
    const content = getEntry(m, 'content');
    return content ? textBlock(content, aiSdkCacheControl(m)) : m;
  };
  if (v.kind === 'obj' && getEntry(v, 'role')) return { kind: 'list', items: [block(v)], complete: true, at: v.at, taints: [] };
  if (v.kind === 'list' && v.items.some((m) => getEntry(m, 'role'))) return { ...v, items: v.items.map(block) };
  return v;
}

function aiSdkMessages(v: Value): Value {
  if (v.kind !== 'list') return v;
  return { ...v, items: v.items.map(aiSdkMessage) };
}

/**
 * One AI SDK `ModelMessage` in the Messages API shape the Anthropic provider sends: a message
 * marker goes on its last part, `tool` messages are user turns, and parts are translated by
 * their AI SDK type. What the provider does with a part this does not know stays unknown.
 */
function aiSdkMessage(m: Value): Value {
  if (m.kind !== 'obj') return m;
  const role = getEntry(m, 'role');
  const content = getEntryRecord(m, 'content');
  const marker = aiSdkCacheControl(m);
  const entries: Entry[] = [];
  for (const e of m.entries) {
    if (e.key === 'providerOptions' || e.key === 'experimental_providerMetadata') continue;
    if (e === content) {
      let value = e.value;
      if (value.kind === 'list') {
        const last = value.items.length - 1;
        value = { ...value, items: value.items.map((p, i) => aiSdkPart(p, i === last && value.kind === 'list' && value.complete ? marker : undefined)) };
      } else if (marker && role?.kind === 'str' && role.text !== 'system') {
        value = { kind: 'list', items: [textBlock(value, marker)], complete: true, at: value.at, taints: [] };
      }
      entries.push({ ...e, value });
    } else if (e.key === 'role' && role?.kind === 'str' && role.text === 'tool') {
      entries.push({ ...e, value: str('user') });
    } else entries.push(e);
  }
  // A system message's marker goes on its text block (splitSystem keeps a list as it is).
  if (marker && role?.kind === 'str' && role.text === 'system' && content && content.value.kind !== 'list') {
    const i = entries.findIndex((e) => e.key === 'content');
    entries[i] = { ...entries[i], value: { kind: 'list', items: [textBlock(content.value, marker)], complete: true, at: content.value.at, taints: [] } };
  }
  return { ...m, entries };
}

/**
 * An AI SDK content part as the Messages API block the provider makes of it. The AI SDK's own
 * names (`tool-call`, `tool-result`, `file`) never reach a rule as block types: the block gets
 * the Messages API type without a source location (so no fix edits the AI SDK code), or none.
 */
function aiSdkPart(p: Value, inherited: Value | undefined): Value {
  if (p.kind !== 'obj') return p;
  const marker = aiSdkCacheControl(p) ?? inherited;
  const type = getEntry(p, 'type');
  const pick = (from: string, to: string): Entry[] => {
    const e = p.entries.find((x) => x.key === from);
    return e ? [{ ...e, key: to }] : [];
  };
  let entries: Entry[];
  let complete = p.complete;
  const name = type?.kind === 'str' && type.complete ? type.text : undefined;
  if (name === 'text') entries = [{ key: 'type', value: str('text') }, ...pick('text', 'text')];
  else if (name === 'tool-call') entries = [{ key: 'type', value: str('tool_use') }, ...pick('toolCallId', 'id'), ...pick('toolName', 'name'), ...pick('input', 'input'), ...pick('args', 'input')];
  else if (name === 'tool-result') entries = [{ key: 'type', value: str('tool_result') }, ...pick('toolCallId', 'tool_use_id'), ...pick('output', 'content'), ...pick('result', 'content')];
  else {
    // `image`, `file`, `reasoning`, provider parts: their block type depends on data the
    // provider inspects at run time, so the block has no type here.
    entries = p.entries.filter((e) => !AI_SDK_OPTION_KEYS.has(e.key));
    complete = false;
  }
  if (marker) entries.push({ key: 'cache_control', value: marker });
  return { kind: 'obj', entries, complete, at: p.at, taints: p.taints, ...(p.repeated ? { repeated: p.repeated } : {}) };
}

/**
 * One entry of the AI SDK `tools` map (`name: tool({ description, inputSchema, ... })`) as a
 * Messages API tool: its name is the key; its `type` (`function`, `dynamic`) is the AI SDK's.
 */
function aiSdkTool(ev: Evaluator, t: Entry): Value {
  let v = t.value;
  const ref = ev.refOf(v);
  if (ref?.kind === 'external-instance' && /^ai\.(tool|dynamicTool)$/.test(ref.name)) v = options(ref.unit, ev, ref.args);
  const name: Entry = { key: 'name', value: str(t.key), keyAt: t.keyAt };
  if (v.kind !== 'obj') return { kind: 'obj', entries: [name], complete: false, at: v.at, taints: allTaints(v) };
  const marker = aiSdkCacheControl(v);
  const entries: Entry[] = [name];
  for (const e of v.entries) {
    if (e.key === 'description') entries.push(e);
    else if (e.key === 'inputSchema' || e.key === 'parameters') entries.push({ ...e, key: 'input_schema' });
  }
  if (marker) entries.push({ key: 'cache_control', value: marker });
  return { kind: 'obj', entries, complete: v.complete, at: v.at, taints: v.taints };
}

/** agno's model class for the Claude API (`agno.models.aws` and `agno.models.vertexai` hold the Bedrock and Vertex AI ones). */
const AGNO_CLAUDE = /^agno\.models\.anthropic(?:\.claude)?\.Claude$/;
/** agno `Claude` fields that agno sends as the Messages API parameter of the same name. */
const AGNO_PARAMS = new Set(['max_tokens', 'betas', 'thinking', 'temperature', 'top_p', 'top_k', 'stop_sequences']);
/** The methods of an agno model that send a request. */
const AGNO_SEND = new Set(['response', 'aresponse', 'response_stream', 'aresponse_stream', 'invoke', 'ainvoke', 'invoke_stream', 'ainvoke_stream']);
/** The methods of an agno agent, team, workflow or app that run it (and so make its model's requests). */
const AGNO_RUN = new Set(['run', 'arun', 'print_response', 'aprint_response', 'cli_app', 'acli_app', 'continue_run', 'acontinue_run', 'serve', 'get_app']);
const AGNO_RUNNER = /(^|\.)(Agent|Team|Workflow|AgentOS)$/;

/** The call (at most a few levels up: a keyword, a list of fallbacks) that `node` is an argument of. */
export function argumentOf(unit: FileUnit, node: Node): { call: Node; callee: Node } | undefined {
  let n: Node | null = node.parent;
  for (let depth = 0; n && depth < 4; depth++, n = n.parent) {
    if (unit.adapter.isScope(n)) return undefined;
    if (!unit.adapter.isCall(n)) continue;
    const e = unit.adapter.expr(n);
    if (e.k !== 'call' && e.k !== 'new') return undefined;
    return node.startIndex >= e.callee.endIndex ? { call: n, callee: e.callee } : undefined;
  }
  return undefined;
}

/**
 * An agno model sends requests when it is handed to agno (an `Agent`, a `Team`, a
 * `MemoryManager`, a list of fallback models) that is run in the file (`agent.print_response(...)`,
 * `team.run(...)`, an `AgentOS` that serves it), directly or through the names they are bound
 * to, or when one of its own sending methods is called (`model.response(...)`); an agent, team
 * or model bound at module level outside tests is there to be run by the modules that import
 * it. A model or an agent built only to inspect its settings (a unit test of the class, a
 * function that returns it) sends nothing here.
 */
function agnoModelSends(unit: FileUnit, ev: Evaluator, node: Node, holder?: string, depth = 0): boolean {
  // A model in an agent in a step of a workflow that is a step of another workflow, and no deeper.
  if (depth > 6) return false;
  // What runs the holder: a model's sending methods; an agent's, a team's, a workflow's or an
  // app's run methods; any method of another agno object that holds a model (a MemoryManager).
  const sending = (method: string) => (!holder ? AGNO_SEND.has(method) : AGNO_RUNNER.test(holder) ? AGNO_RUN.has(method) : true);
  const handedOn = (arg: Node) => {
    const site = argumentOf(unit, arg);
    const name = site ? ev.calleeName(unit, site.callee, 0, true) : undefined;
    return !!site && !!name && name.startsWith('agno.') && !AGNO_CLAUDE.test(name) && agnoModelSends(unit, ev, site.call, name, depth + 1);
  };
  if (handedOn(node)) return true;
  // `Agent(...).print_response(...)`.
  const parent = node.parent ? unit.adapter.expr(node.parent) : undefined;
  if (parent?.k === 'member' && parent.object.id === node.id && sending(parent.prop) && node.parent?.parent && unit.adapter.isCall(node.parent.parent)) return true;
  const assigned = node.parent ? unit.frontEnd.facts.assignment(node.parent) : undefined;
  const target = assigned && assigned.value.id === node.id ? unit.adapter.expr(assigned.target) : undefined;
  if (target?.k !== 'ident') return false;
  // An agent (or model) a module defines for others to import and run (`agents.py` of an app);
  // in a test file a module-level model is a fixture of the tests, which say what they run.
  if (unit.enclosingFunction(node).id === unit.tree.rootNode.id && !unit.frontEnd.modules.isTestFile(unit.file) && (!holder || AGNO_RUNNER.test(holder))) return true;
  const boundHere = (use: Node) => {
    const b = ev.findBinding(unit, use, target.name)?.binding;
    return b?.kind === 'assign' && b.value?.id === node.id && b.position === undefined;
  };
  // Each use of the name: the receiver of a method that runs it, or handed on to agno (`members=[researcher]`).
  let found = false;
  walk(unit.tree.rootNode, (use) => {
    if (found || use.text !== target.name || use.id === assigned!.target.id || unit.adapter.expr(use).k !== 'ident' || !boundHere(use)) return;
    const p = use.parent ? unit.adapter.expr(use.parent) : undefined;
    if (p?.k === 'member' && p.object.id === use.id) found = sending(p.prop) && !!use.parent?.parent && unit.adapter.isCall(use.parent.parent);
    else found = handedOn(use);
  });
  return found;
}

/**
 * `Claude(id="claude-…", betas=[...], max_tokens=...)` of agno, handed to an agent (see
 * agnoModelSends), as the requests that agent makes: agno sends `id` as `model` and these
 * fields as they are (and `request_params` merged in), and its caching options become the
 * markers agno writes (agnoCaching). The rest of the system prompt, the tools and the messages
 * are built by the agent at run time, so they stay unknown.
 */
function agnoClaudeCall(unit: FileUnit, ev: Evaluator, node: Node, callee: Node, args: Arg[]): RequestCall | undefined {
  const { value: opts, at: argsAt } = unit.frontEnd.calls.options(unit, ev, args);
  // A dataclass: the first positional field is `id`.
  const first = args.find((a) => !a.name && !a.spread);
  const entries: Entry[] = first ? [{ key: 'model', valueAt: unit.loc(first.value), value: ev.eval(unit, first.value) }] : [];
  for (const e of opts.entries) {
    if (e.key === 'id') entries.push({ ...e, key: 'model' });
    else if (AGNO_PARAMS.has(e.key)) entries.push(e);
  }
  const extra = getEntry(opts, 'request_params');
  if (extra?.kind === 'obj') entries.push(...extra.entries);
  entries.push(...agnoCaching(unit, ev, node, opts));
  entries.push({ key: 'messages', value: unknown(undefined, 'the messages the agent sends') });
  return request(unit, node, callee, 'agno', entries, false, argsAt);
}

/** agno's class for one block of a multi-block system prompt. */
const AGNO_SYSTEM_BLOCK = /^agno\.models\.anthropic(?:\.claude)?\.SystemPromptBlock$/;
/** agno's runners whose `tools` the model is sent with. */
const AGNO_TOOL_HOLDER = /^agno\.(?:agent|team)(?:\.[\w.]+)?\.(?:Agent|Team)$/;

/**
 * agno's caching options of `Claude(...)` as the markers agno writes into the request (read in
 * agno's own terms: agno/models/anthropic/claude.py `_apply_cache_tools` and `_build_system`,
 * agno/utils/models/claude.py `build_system_blocks`):
 * - `cache_tools=True` marks the last tool with `{"type": "ephemeral"}` (5 minutes) when there
 *   are tools: the model is handed to an `Agent` / `Team` whose `tools=` lists some. The tools
 *   themselves stay unknown (agno formats them), so the list is the marked last one after
 *   unseen ones.
 * - `system_prompt_blocks=[SystemPromptBlock(text=..., cache=..., ttl=...)]` are appended after
 *   the system block the agent builds, each marked when its `cache` is on (the default), with
 *   its `ttl`, else the model's (`extended_cache_time=True`: "1h", else 5 minutes). The agent's
 *   own block (marked under `cache_system_prompt=True`) is there only when the agent has a
 *   system message, so it stays an unseen part before them; a block after the last marked one
 *   is outside the cached prefix, so its text is left unknown.
 */
function agnoCaching(unit: FileUnit, ev: Evaluator, node: Node, opts: ObjValue): Entry[] {
  const out: Entry[] = [];
  const cacheTools = getEntryRecord(opts, 'cache_tools');
  if (cacheTools?.value.kind === 'bool' && cacheTools.value.value && agnoHolderHasTools(unit, ev, node)) {
    const at = cacheTools.valueAt ?? cacheTools.keyAt;
    const marker: ObjValue = { kind: 'obj', entries: [{ key: 'type', value: str('ephemeral') }], complete: true, at, taints: [] };
    const lastTool: ObjValue = { kind: 'obj', entries: [{ key: 'cache_control', keyAt: cacheTools.keyAt, valueAt: cacheTools.valueAt, value: marker }], complete: false, at, taints: [] };
    out.push({ key: 'tools', value: { kind: 'list', items: [lastTool], complete: false, tailKnown: true, at, taints: [] } });
  }
  const blocks = getEntryRecord(opts, 'system_prompt_blocks');
  if (blocks?.value.kind !== 'list' || !blocks.value.complete || !blocks.value.items.length) return out;
  const extended = getEntryRecord(opts, 'extended_cache_time');
  const modelTtl: Value | undefined = !extended ? str('5m') : extended.value.kind === 'bool' ? str(extended.value.value ? '1h' : '5m') : undefined;
  const items: ObjValue[] = [];
  for (const item of blocks.value.items) {
    const ref = ev.refOf(item);
    const name = ref?.kind === 'external-instance' ? ref.name : undefined;
    if (ref?.kind !== 'external-instance' || !name || !AGNO_SYSTEM_BLOCK.test(name) || item.repeated) return out;
    const block = options(ref.unit, ev, ref.args);
    const text = getEntryRecord(block, 'text');
    const cache = getEntryRecord(block, 'cache');
    const ttl = getEntryRecord(block, 'ttl');
    const entries: Entry[] = [{ key: 'type', value: str('text') }, ...(text ? [{ ...text }] : [])];
    const cached = !cache || (cache.value.kind === 'bool' && cache.value.value);
    const known = !cache || cache.value.kind === 'bool';
    if (cached) {
      // `ttl="1h"` on the block, else the model's lifetime; agno writes the `ttl` key for 1h only.
      const lifetime: Value | undefined = !ttl || ttl.value.kind === 'null' ? modelTtl : ttl.value.kind === 'str' && ttl.value.complete ? ttl.value : undefined;
      const where = ttl && ttl.value.kind !== 'null' ? ttl : (extended ?? cache);
      const markerEntries: Entry[] = [{ key: 'type', value: str('ephemeral') }];
      if (!lifetime) markerEntries.push({ key: 'ttl', value: unknown(where?.valueAt, 'the lifetime agno gives the block') });
      else if (lifetime.kind === 'str' && lifetime.text === '1h') markerEntries.push({ key: 'ttl', value: lifetime });
      const markerAt = where?.valueAt ?? item.at;
      entries.push({ key: 'cache_control', keyAt: where?.keyAt ?? item.at, valueAt: markerAt, value: { kind: 'obj', entries: markerEntries, complete: true, at: markerAt, taints: [] } });
    }
    items.push({ kind: 'obj', entries, complete: known && !!text, at: item.at, taints: [] });
  }
  // Past the last marked block the text is not part of the cached prefix.
  let lastMarked = -1;
  items.forEach((b, i) => {
    if (b.entries.some((e) => e.key === 'cache_control')) lastMarked = i;
  });
  const system = items.map((b, i) => (i <= lastMarked ? b : { ...b, entries: b.entries.map((e) => (e.key === 'text' ? { ...e, value: unknown(e.value.at, 'text after the cached prefix') } : e)) }));
  out.push({ key: 'system', valueAt: blocks.valueAt, value: { kind: 'list', items: system, complete: false, tailKnown: true, at: blocks.value.at, taints: [] } });
  return out;
}

/** The agno `Agent` / `Team` that the model at `node` is handed to lists some `tools`. */
function agnoHolderHasTools(unit: FileUnit, ev: Evaluator, node: Node): boolean {
  const site = argumentOf(unit, node);
  const name = site ? ev.calleeName(unit, site.callee, 0, true) : undefined;
  if (!site || !name || !AGNO_TOOL_HOLDER.test(name)) return false;
  const e = unit.adapter.expr(site.call);
  if (e.k !== 'call') return false;
  const tools = getEntry(options(unit, ev, e.args), 'tools');
  return tools?.kind === 'list' && tools.items.some((t) => !t.repeated);
}

/** instructor's factories and clients (`instructor.from_anthropic(Anthropic())`, `AsyncInstructor(client=..., create=...)`). */
const INSTRUCTOR_CLIENT = /^instructor(?:\.[\w.]+)?\.(from_anthropic|from_provider|Instructor|AsyncInstructor)$/;
/** The methods of an instructor client that send one request (on the client, `.chat.completions` or `.messages`). */
const INSTRUCTOR_METHODS = new Set(['create', 'create_with_completion', 'create_partial', 'create_iterable']);
/** Arguments instructor reads itself and does not send. */
const INSTRUCTOR_OWN = new Set(['response_model', 'max_retries', 'validation_context', 'context', 'strict', 'hooks']);

interface Construction {
  unit: FileUnit;
  name: string;
  args: Arg[];
}

/** The instructor client that `node` holds: the factory call it is bound to (a few names deep), or a library instance. */
function instructorClient(unit: FileUnit, ev: Evaluator, node: Node, depth = 0): Construction | undefined {
  if (depth > 4) return undefined;
  const e = unit.adapter.expr(node);
  if (e.k === 'wrap') return instructorClient(unit, ev, e.inner, depth + 1);
  if (e.k === 'call' || e.k === 'new') {
    // Named by its import even inside instructor's own repository, where the package is workspace code.
    const name = ev.calleeName(unit, e.callee, 0, true);
    return name && INSTRUCTOR_CLIENT.test(name) ? { unit, name, args: e.args } : undefined;
  }
  if (e.k === 'ident') {
    const b = ev.findBinding(unit, node, e.name)?.binding;
    if (b?.kind === 'assign' && b.value && b.key === undefined && !b.without && b.position === undefined) return instructorClient(unit, ev, b.value, depth + 1);
  }
  const ref = ev.refOf(ev.eval(unit, node));
  return ref?.kind === 'external-instance' && INSTRUCTOR_CLIENT.test(ref.name) ? { unit: ref.unit, name: ref.name, args: ref.args } : undefined;
}

/**
 * The Anthropic SDK client an instructor client wraps, and the model `from_provider("anthropic/…")`
 * names. Undefined for any other provider's client (instructor wraps OpenAI, Gemini, ...).
 */
function wrappedClaudeClient(ev: Evaluator, c: Construction): { client: string; model?: Value } | undefined {
  const opts = options(c.unit, ev, c.args);
  const first = c.args.find((a) => !a.name && !a.spread);
  const kind = lastName(c.name);
  if (kind === 'from_provider') {
    const spec = first ? ev.eval(c.unit, first.value) : getEntry(opts, 'model');
    const m = spec?.kind === 'str' && spec.complete ? /^anthropic\/(.+)$/.exec(spec.text) : undefined;
    return spec?.kind === 'str' && m ? { client: 'anthropic.Anthropic', model: { ...spec, text: m[1] } } : undefined;
  }
  const wrapped = getEntry(opts, 'client') ?? (first ? ev.eval(c.unit, first.value) : undefined);
  const ref = ev.refOf(wrapped);
  return ref?.kind === 'external-instance' && /^anthropic(\.|$)/.test(ref.name) ? { client: ref.name } : undefined;
}

/**
 * A request sent through an instructor client that wraps an Anthropic client
 * (`client.messages.create(...)`, `client.chat.completions.create(...)`, `client.create(...)`):
 * the Messages API parameters are passed through; instructor moves `role: "system"` messages
 * into `system` (after the `system` argument) and, with a `response_model`, adds a tool of its
 * own (unknown here). With `context=` the message texts are templates rendered per call.
 */
function instructorCall(unit: FileUnit, ev: Evaluator, node: Node, callee: Node, receiver: Node, args: Arg[]): RequestCall | undefined {
  let n = receiver;
  for (let e = unit.adapter.expr(n); e.k === 'member' && (e.prop === 'completions' || e.prop === 'chat' || e.prop === 'messages'); e = unit.adapter.expr(n)) n = e.object;
  const construction = instructorClient(unit, ev, n);
  const wrapped = construction ? wrappedClaudeClient(ev, construction) : undefined;
  if (!wrapped) return undefined;
  const { value: opts, at: argsAt } = unit.frontEnd.calls.options(unit, ev, args);
  const templated = !!getEntry(opts, 'context');
  const asTemplate = (v: Value): Value => (templated ? unknown(v.at, 'a template rendered with the context', allTaints(v)) : v);
  const entries: Entry[] = [];
  let system: Entry | undefined;
  let messages: Entry | undefined;
  for (const e of opts.entries) {
    if (INSTRUCTOR_OWN.has(e.key)) continue;
    if (e.key === 'system') system = e;
    else if (e.key === 'messages') messages = e;
    else entries.push(e);
  }
  if (wrapped.model && !entries.some((e) => e.key === 'model')) entries.push({ key: 'model', value: wrapped.model });
  const responseModel = getEntry(opts, 'response_model');
  if (responseModel && responseModel.kind !== 'null') entries.push({ key: 'tools', value: unknown(responseModel.at, 'the tool instructor makes of the response model') });
  const split = messages ? splitSystem(messages.value) : undefined;
  if (split?.system) {
    const parts = [...(system ? [system.value] : []), split.system];
    const merged: Value = parts.length === 1 ? parts[0] : { kind: 'list', items: parts.flatMap((p) => (p.kind === 'list' ? p.items : [textBlock(p)])), complete: parts.every((p) => p.kind !== 'list' || p.complete), taints: [] };
    entries.push({ key: 'system', valueAt: system?.valueAt ?? split.systemAt, value: asTemplate(merged) });
  } else if (system) entries.push({ ...system, value: asTemplate(system.value) });
  if (messages) entries.push({ ...messages, value: asTemplate(split ? split.messages : messages.value) });
  return { ...request(unit, node, callee, 'instructor', entries, opts.complete, argsAt), client: wrapped.client };
}

/**
 * The frameworks whose requests a text may hold, told from words alone: each adapter below needs
 * its package named in the file's own imports and the name its request is made through, so a
 * file that names a package but none of those (a `litellm` exception handler, a `create_agent`
 * method of another library) holds none of its requests.
 */
export function frameworksNamed(text: string): Record<FrameworkWord, boolean> {
  const out = {} as Record<FrameworkWord, boolean>;
  for (const [name, test] of FRAMEWORK_TESTS) out[name] = test(text);
  return out;
}

/** Whether a text names any framework whose requests an adapter reads (frameworksNamed), stopping at the first. */
export function anyFrameworkNamed(text: string): boolean {
  return FRAMEWORK_TESTS.some(([, test]) => test(text));
}

type FrameworkWord = 'langchain' | 'agents' | 'smolagents' | 'litellm' | 'vercel' | 'agno' | 'instructor';

const FRAMEWORK_TESTS: ReadonlyArray<readonly [FrameworkWord, (text: string) => boolean]> = [
  ['langchain', (t) => /langchain_anthropic|@langchain\/anthropic/.test(t)],
  // `create_agent` and the prebuilt ReAct agent, imported from langchain or langgraph by the file itself.
  ['agents', (t) => /\bcreate(?:React)?Agent\b|\bcreate(?:_react)?_agent\b/.test(t) && /\bfrom\s+lang(?:chain|graph)\b|\bimport\s+lang(?:chain|graph)\b|["'](?:langchain|@langchain\/langgraph)(?:\/[\w/-]*)?["']/.test(t)],
  // Only its LiteLLM model classes are read.
  ['smolagents', (t) => /\bsmolagents\b/.test(t) && /\bLiteLLM(?:Router)?Model\b/.test(t)],
  // `litellm.completion` / `acompletion`, or a model class whose `model_id` defaults to a Claude model.
  ['litellm', (t) => /\b(?:import|from)\s+litellm\b/.test(t) && /completion|\bmodel_id\b/.test(t)],
  ['vercel', (t) => /@ai-sdk\/anthropic/.test(t)],
  ['agno', (t) => /agno\.models\.anthropic/.test(t)],
  // Its clients' methods (INSTRUCTOR_METHODS), called on the client.
  ['instructor', (t) => /\b(?:import|from)\s+instructor\b/.test(t) && /\.create(?:_with_completion|_partial|_iterable)?\b/.test(t)],
];

export function findFrameworkCalls(unit: FileUnit, ev: Evaluator): RequestCall[] {
  const { langchain, agents, smolagents, litellm, vercel, agno, instructor } = frameworksNamed(unit.text);
  if (!langchain && !litellm && !vercel && !agents && !smolagents && !agno && !instructor) return [];
  const out: RequestCall[] = litellm ? modelClassDefaults(unit, ev) : [];
  for (const node of unit.calls) {
    const e = unit.adapter.expr(node);
    if (e.k !== 'call') continue;
    const c = unit.adapter.expr(e.callee);
    let call: RequestCall | undefined;
    if (langchain && c.k === 'member' && INVOKE.has(c.prop)) call = langchainCall(unit, ev, node, e.callee, c.object, e.args);
    else if (instructor && c.k === 'member' && INSTRUCTOR_METHODS.has(c.prop)) call = instructorCall(unit, ev, node, e.callee, c.object, e.args);
    if (!call && agno) {
      // Named by its import even inside agno's own repository, where the package is workspace code.
      const name = ev.calleeName(unit, e.callee, 0, true);
      if (name && AGNO_CLAUDE.test(name) && agnoModelSends(unit, ev, node)) call = agnoClaudeCall(unit, ev, node, e.callee, e.args);
    }
    if (!call && (litellm || vercel || agents || smolagents)) {
      // The library name from the file's own imports: evaluating every callee of the file
      // would follow each one into the workspace.
      const name = ev.calleeName(unit, e.callee);
      if (name) {
        if (litellm && /^litellm\.(a?completion)$/.test(name)) call = litellmCall(unit, ev, node, e.callee, e.args);
        else if (vercel && name.startsWith('ai.') && VERCEL.has(lastName(name))) call = vercelCall(unit, ev, node, e.callee, e.args);
        else if (agents && CREATE_AGENT.test(name)) call = agentCall(unit, ev, node, e.callee, e.args);
        else if (smolagents && SMOLAGENTS_LITELLM.test(name)) call = smolagentsModelCall(unit, ev, node, e.args);
      }
    }
    if (call) out.push(call);
  }
  return out;
}
