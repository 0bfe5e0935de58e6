/**
 * Whether a function parameter really carries per-request data. A parameter is "per-request"
 * by default in the value model, but a wrapper whose `system` argument receives a constant
 * from every caller is not; rules that would report per-request data ask here first.
 */
import type { FileView, FunctionView } from './fileView';
import type { RequestCall } from './model';
import type { Loc } from './span';
import type { Taint, Value } from './value';
import { HOLE, allTaints, getEntry, getEntryRecord, stabilityOf } from './value';

export type Evidence = 'constant' | 'per-request' | 'unknown';

/** Parameter names that hold the incoming request or the user's words. */
const REQUEST_PARAM = /^(state|request|req|event|payload|body|question|query|user_?(input|message|msg|query|question|text|prompt)|message|msg|utterance|input_text|user|user_id|userId|customer|customer_id|customerId|tenant|account|profile|session|tool_?(input|args|arguments|call|params)|toolInput|toolArgs)$/i;

/** Decorators and registrations of request handlers and tools. */
const HANDLER_DECORATOR = /^@[\w.]*\b(get|post|put|patch|delete|route|api_route|websocket|message|event|command|tool|task|on_message|on_chat_start|handler)\b/i;
const HANDLER_CALLEE = /(^|\.)(get|post|put|patch|delete|all|route|use|on|handle|handler|action|command|tool|message|addNode|add_node)$/;
const ROUTE_EXPORT = /^(GET|POST|PUT|PATCH|DELETE|action|loader|handler)$/;

function inside(inner: Loc, outer: Loc): boolean {
  return inner.file === outer.file && outer.start <= inner.start && inner.end <= outer.end;
}

/** A function that is called once per request: a route handler, a tool, a graph node. */
export function isRequestHandler(view: FileView, f: FunctionView): boolean {
  if (f.decorators?.some((d) => HANDLER_DECORATOR.test(d))) return true;
  if (f.passedTo && HANDLER_CALLEE.test(f.passedTo)) return true;
  if (f.exported && f.name && ROUTE_EXPORT.test(f.name)) return true;
  // `graph.add_node("agent", call_model)`, `app.post("/chat", handleChat)`.
  if (f.name) {
    for (const c of view.calls) {
      if (HANDLER_CALLEE.test(c.calleeText) && c.args.some((a) => a.text === f.name)) return true;
    }
  }
  return false;
}

/** Same-file calls of a function, by name. */
export function callsOf(view: FileView, f: FunctionView) {
  if (!f.name) return [];
  const name = f.name;
  return view.calls.filter((c) => (c.method === name || c.calleeText === name || c.calleeText.endsWith(`.${name}`)) && !inside(c.at, f.at));
}

/**
 * What a parameter taint stands for: 'constant' when every same-file caller passes a constant
 * (or it is set once when an object is constructed), 'per-request' when a caller passes
 * per-request data or the function handles requests, else 'unknown'.
 */
export function parameterEvidence(view: FileView, t: Taint, file: string, depth = 0): Evidence {
  if (t.at.file !== file) return 'unknown';
  const f = view.enclosingFunction(t.at);
  if (!f) return 'unknown';
  // Values set when an object is built stay the same for that object's requests.
  if (f.name === '__init__' || f.name === 'constructor') return 'constant';
  const index = f.params.indexOf(t.text);
  const callers = callsOf(view, f);
  let constant = 0;
  for (const c of callers) {
    const positional = c.args.filter((a) => !a.name);
    const arg = c.args.find((a) => a.name === t.text) ?? (index >= 0 ? positional[index] : undefined);
    if (!arg) continue;
    const v = arg.value();
    const s = stabilityOf(v);
    if (s === 'constant' || s === 'environment') constant++;
    else if (s !== 'unknown' && (s !== 'per-request' || perRequestArgument(view, allTaints(v), file, depth))) return 'per-request';
  }
  if (callers.length && constant === callers.length) return 'constant';
  if (isRequestHandler(view, f)) return 'per-request';
  if (REQUEST_PARAM.test(t.text)) return 'per-request';
  return 'unknown';
}

/**
 * What a caller passes changes per request: it carries a per-request taint of its own (retrieved
 * data, a loop variable, a selector), or a parameter of the caller for which there is such
 * evidence in turn. A value that only passes on the caller's own parameter (`self.invocation_params(options)`
 * in a method that takes `options`) says nothing by itself.
 */
function perRequestArgument(view: FileView, taints: Taint[], file: string, depth: number): boolean {
  const own = taints.filter((t) => t.cls === 'per-request');
  if (own.some((t) => t.kind !== 'parameter')) return true;
  if (depth >= 4) return false;
  return own.some((t) => parameterEvidence(view, t, file, depth + 1) === 'per-request');
}

/**
 * Methods that add an item to a list, set or map: the loop's items collected into one value.
 * (The front ends' own lists of list changes are in lang/, which core does not import.)
 */
const COLLECTING_METHODS: ReadonlySet<string> = new Set(['append', 'extend', 'insert', 'add', 'update', 'push', 'unshift', 'set', 'setdefault']);

/**
 * How sure it is that a per-request taint changes between two requests of this call site:
 * retrieval results always do; a loop variable does when the loop runs the request; a
 * parameter according to parameterEvidence.
 */
export function perRequestStrength(view: FileView, t: Taint, call: RequestCall): 'certain' | 'possible' | 'no' {
  if (t.cls !== 'per-request') return 'no';
  if (t.kind === 'retrieval') return 'certain';
  if (t.kind === 'loop-variable') {
    const loop = view.enclosingLoop(t.at);
    if (!loop) return 'no';
    if (inside(call.at, loop.at)) return 'certain';
    // Passed on from inside the loop (`for block in response.content: run_tool(block.input)`) to the
    // function that sends the request: one request per pass. Not added to a collection
    // (`tools.append(map_tool(tool))`): the loop builds one value from all its items.
    const passedOn = (step: Loc) =>
      view.calls.some((c) => inside(c.at, loop.at) && !(c.receiver && COLLECTING_METHODS.has(c.method)) && c.args.some((a) => a.at.start === step.start && a.at.end === step.end && a.at.file === step.file));
    return t.chain.some((step) => step.file === loop.at.file && inside(step, loop.at) && passedOn(step)) ? 'certain' : 'no';
  }
  const e = parameterEvidence(view, t, call.file);
  return e === 'per-request' ? 'certain' : e === 'unknown' ? 'possible' : 'no';
}

export interface Rebuilt {
  /** Where `system` gets its new value each turn (the assignment's value, or the argument). */
  at: Loc;
  how: 'loop' | 'per-turn';
  /** The loop around the request, or the per-turn function. */
  scope: Loc;
  /** What changes: names of the inputs, for the message. */
  inputs: string[];
  /** For a per-turn function: the loop that calls it once per turn, when it is in this file. */
  turnLoop?: Loc;
  /** The part of a block list that changes (the `text` of the block built from the inputs), when it is not the whole value. */
  part?: Loc;
}

/** A function run once per turn: called inside a loop of this file, or registered as a graph node. */
export function isPerTurnFunction(view: FileView, f: FunctionView): boolean {
  if (!f.name) return false;
  if (f.passedTo && /(^|\.)(add_node|addNode)$/.test(f.passedTo)) return true;
  for (const c of view.calls) {
    if (/(^|\.)(add_node|addNode)$/.test(c.calleeText) && c.args.some((a) => a.text === f.name)) return true;
  }
  return callsOf(view, f).some((c) => view.enclosingLoop(c.at) !== undefined);
}

/**
 * `system` given a new value on every turn: reassigned (or built at the call) inside the loop
 * around the request from values that change between iterations, or built inside a per-turn
 * function from its changing state. Retrieved data is left to dynamic-content-before-breakpoint.
 */
export function systemRebuilt(call: RequestCall, view: FileView, textOf: (at: Loc) => string): Rebuilt | undefined {
  const entry = getEntryRecord(call.params, 'system');
  if (!entry?.valueAt || entry.valueAt.file !== call.file) return undefined;
  const system = entry.value;
  const taints = allTaints(system);
  // Retrieved data is dynamic-content-before-breakpoint's (the request data it is retrieved with too).
  if (taints.some((t) => t.kind === 'retrieval')) return undefined;
  // A clock or a random value is volatile-system-prompt's: this rule looks at the rest, the loop's own state.
  const own = taints.filter((t) => !(t.cls === 'clock' || t.cls === 'random'));
  const fn = view.enclosingFunction(call.at);
  const loop = view.enclosingLoop(call.at);
  const argText = textOf(entry.valueAt).trim();
  const simple = /^[\w$]+(\.[\w$]+)*$/.test(argText);
  // Where system's value is written for this call: the last assignment before it, or the argument itself.
  const assignment = simple ? [...view.assignments].reverse().find((a) => a.targetText === argText && a.at.start < call.at.start && view.enclosingFunction(a.at) === fn) : undefined;
  const site = simple ? assignment?.valueAt : entry.valueAt;
  if (!site) return undefined;
  const inLoop = loop ? rebuiltInLoop(call, view, textOf, { system, taints, own, site, fn, loop: loop.at, loopTarget: loop.targetText }) : undefined;
  // The loop reassigns what system is built from: the loop is the conversation.
  if (inLoop?.carried) return inLoop.rebuilt;
  // Otherwise the loop around the request may be a retry loop, and the function around both the
  // one that runs once per turn (called in a loop, or a graph node): its changing inputs say why.
  const perTurn = perTurnRebuilt(system, own, site, fn, view, textOf);
  return perTurn ?? inLoop?.rebuilt;
}

function perTurnRebuilt(system: Value, own: Taint[], site: Loc, fn: FunctionView | undefined, view: FileView, textOf: (at: Loc) => string): Rebuilt | undefined {
  if (stabilityOf(system) === 'constant') return undefined;
  if (!fn || !isPerTurnFunction(view, fn) || !inside(site, fn.at)) return undefined;
  const read = new Set(codeNames(textOf(site)));
  const turnCalls = callsOf(view, fn).filter((c) => view.enclosingLoop(c.at) !== undefined);
  // A parameter changes between turns when a call in the turn loop passes it a changing value;
  // with no such call in this file (a graph node), it is the turn's input.
  const changes = (p: string) => !turnCalls.length || turnCalls.some((c) => changingArgument(view, c, fn, p));
  // The per-turn function's state, or its parameters passed on to a helper that builds the text
  // (`build_system_prompt(current_iteration)`: the helper's parameter stands for the argument).
  const state = own.filter((t) => t.cls === 'per-request' && (inside(t.at, fn.at) || (t.kind === 'parameter' && fn.params.includes(t.text) && read.has(t.text))));
  const stateNames = [...new Set(state.map((t) => t.text))].filter((n) => !fn.params.includes(n) || changes(n));
  // Parameters read where system is written that the turn loop fills with a changing value (also
  // through a helper the evaluator does not see into).
  const passed = turnCalls.length ? fn.params.filter((p) => read.has(p) && !stateNames.includes(p) && changes(p)) : [];
  const inputs = [...stateNames, ...passed];
  if (!inputs.length) return undefined;
  const turnLoop = turnCalls.length ? view.enclosingLoop(turnCalls[0].at) : undefined;
  const part = changingPart(system, site, state, inputs, textOf);
  return { at: site, how: 'per-turn', scope: fn.at, inputs, ...(turnLoop ? { turnLoop: turnLoop.at } : {}), ...(part ? { part } : {}) };
}

/**
 * The argument a call in a loop passes for parameter `p` of `fn` (by keyword or position) is not
 * the same on every turn: it reads a name the loop assigns again (`current_iteration=iteration + 1`
 * with `iteration += 1` in the loop) or the loop's own variable, or its value changes and is not
 * just a parameter of the function around the loop (which is the same on every iteration).
 */
function changingArgument(view: FileView, c: FileView['calls'][number], fn: FunctionView, p: string): boolean {
  const positional = fn.params.filter((x) => x !== 'self' && x !== 'cls');
  const i = positional.indexOf(p);
  const arg = c.args.find((a) => a.name === p) ?? (i >= 0 ? c.args.filter((a) => !a.name)[i] : undefined);
  if (!arg) return false;
  const loop = view.enclosingLoop(c.at);
  if (!loop) return false;
  const reads = codeNames(arg.text);
  if (view.assignments.some((a) => inside(a.at, loop.at) && reads.includes(a.targetText))) return true;
  if (loop.targetText && codeNames(loop.targetText).some((n) => reads.includes(n))) return true;
  const v = arg.value();
  if (stabilityOf(v) === 'constant') return false;
  const outer = view.enclosingFunction(c.at);
  const ts = allTaints(v);
  return !(ts.length && outer && ts.every((t) => t.kind === 'parameter' && inside(t.at, outer.at) && !inside(t.at, loop.at)));
}

/** In a list of system blocks, the `text` written in the block that holds one of these taints, or reads one of these names. */
function changingPart(system: Value, site: Loc, ts: Taint[], names: string[], textOf: (at: Loc) => string): Loc | undefined {
  if (system.kind !== 'list') return undefined;
  const holds = (v: Value) => allTaints(v).some((t) => ts.some((x) => x.at.file === t.at.file && x.at.start === t.at.start && x.at.end === t.at.end));
  for (const block of system.items) {
    const text = block.kind === 'obj' ? getEntryRecord(block, 'text') : undefined;
    if (!text?.valueAt || !inside(text.valueAt, site)) continue;
    if (holds(text.value) || codeNames(textOf(text.valueAt)).some((n) => names.includes(n))) return text.valueAt;
  }
  return undefined;
}

interface LoopFacts {
  system: Value;
  taints: Taint[];
  own: Taint[];
  site: Loc;
  fn: FunctionView | undefined;
  loop: Loc;
  /** What the loop assigns on each iteration (`q` of `for q in questions`), if any. */
  loopTarget?: string;
}

/** `system` reassigned (or built at the call) inside the loop around the request, from what the loop changes. */
function rebuiltInLoop(call: RequestCall, view: FileView, textOf: (at: Loc) => string, f: LoopFacts): { rebuilt: Rebuilt; carried: boolean } | undefined {
  const { system, taints, own, site, fn, loop } = f;
  if (!inside(site, loop)) return undefined;
  // One fresh request per item (no history carried between iterations) is not a conversation.
  const messages = getEntryRecord(call.params, 'messages')?.value;
  if (messages?.kind === 'list' && messages.complete && messages.at && inside(messages.at, loop) && messages.items.every((m) => m.kind === 'obj' && !m.repeated)) return undefined;
  // Names the value is built from that the loop assigns again (read on the next turn).
  const inLoop = view.assignments.filter((a) => inside(a.at, loop));
  // Follow names read at the call to their assignments earlier in the loop body.
  const readBy = new Map<string, Loc>(codeNames(textOf(site)).map((n) => [n, site]));
  for (let depth = 0; depth < 3; depth++) {
    for (const a of inLoop) {
      if (!readBy.has(a.targetText) || a.at.start > call.at.start) continue;
      for (const n of codeNames(textOf(a.valueAt))) if (!readBy.has(n)) readBy.set(n, a.valueAt);
    }
  }
  const carried = [...readBy.keys()].filter((n) => inLoop.some((a) => a.targetText === n && a.at.start > call.at.end));
  if (carried.length) return { rebuilt: { at: readBy.get(carried[0])!, how: 'loop', scope: loop, inputs: carried }, carried: true };
  if (stabilityOf(system) === 'constant') return undefined;
  // Inputs that are the same on every iteration: parameters of the function, the environment.
  const varying = own.filter((t) => t.cls !== 'environment' && !(t.kind === 'parameter' && fn && inside(t.at, fn.at) && !inside(t.at, loop)));
  const hasHoles = system.kind === 'str' ? !system.complete : system.kind === 'list' && system.items.some((b) => b.kind === 'obj' && b.entries.some((e) => e.key === 'text' && e.value.kind === 'str' && !e.value.complete));
  if (!varying.length && !(hasHoles && !taints.length)) return undefined;
  // Parts not known, but read only from names that keep their value for the whole loop (a
  // module's `SYSTEM_TEXT` built from a file read once): the same text on every turn.
  if (!varying.length && fixedForTheLoop([...new Set(readBy.values())].map(textOf), [...readBy.keys()], inLoop, f.loopTarget)) return undefined;
  return { rebuilt: { at: site, how: 'loop', scope: loop, inputs: [...new Set(varying.map((t) => t.text))] }, carried: false };
}

/**
 * Whether expressions (the value `system` is written as, and what it reads that the loop assigns
 * before the request) read nothing that can differ between iterations: no call, attribute or
 * subscript (an object's state, a function's result), and no name the loop assigns or iterates
 * over. Their names then hold what they held before the loop.
 */
function fixedForTheLoop(texts: string[], names: string[], inLoop: readonly { targetText: string }[], loopTarget: string | undefined): boolean {
  if (texts.some((t) => /[\w$)\]]\s*[([.]/.test(codeOnly(t)))) return false;
  const loopNames = new Set(codeNames(loopTarget ?? ''));
  return names.every((n) => !loopNames.has(n) && !inLoop.some((a) => a.targetText === n));
}

/** An expression's code: its text with string literals blanked, then the interpolations inside them. */
function codeOnly(text: string): string {
  const { code, interpolations } = codeParts(text);
  return [code, ...interpolations].join(' ; ');
}

/** An expression's text with its string literals blanked, and the interpolations inside those literals. */
function codeParts(text: string): { code: string; interpolations: string[] } {
  const interpolations = [...text.matchAll(/\$?\{([^{}]*)\}/g)].map((m) => m[1]);
  return { code: text.replace(/[rbuf]*("([^"\\\n]|\\.)*"|'([^'\\\n]|\\.)*'|`([^`\\]|\\.)*`)/gi, ' '), interpolations };
}

/** Text with a part that is the same on every call (a template's literal text, or a literal block). */
export function hasFixedText(v: Value | undefined): boolean {
  if (!v) return false;
  if (v.kind === 'str') return v.text.split(HOLE).join('').trim().length > 0;
  if (v.kind === 'obj') return hasFixedText(getEntry(v, 'text') ?? getEntry(v, 'content'));
  if (v.kind === 'list') return v.items.some((i) => hasFixedText(i));
  return false;
}

/** Identifiers an expression reads: its code outside string literals and the interpolations inside them. */
function codeNames(text: string): string[] {
  const parts = codeParts(text);
  const interpolations = parts.interpolations;
  // An object literal's keys (`{ text: BASE }`, `, cache_control: ...`) name no value.
  const code = parts.code.replace(/([{,]\s*)[A-Za-z_$][\w$]*\s*:(?!:)/g, '$1');
  const names = [code, ...interpolations].join(' ').match(/[A-Za-z_$][\w$]*/g) ?? [];
  return [...new Set(names)];
}
