/**
 * Requests that a file's calls reach in other files, read with the values the file passes.
 *
 * A request is usually built in a wrapper (`claude_reply(chat, model)`) that other modules call
 * through a few more wrappers (`complete(prompt, system_text=...)`), and a value written in a
 * caller (a date in its system prompt) only reaches the request through those calls. The file
 * that holds the request cannot see that caller; the caller's file can follow its own call:
 * each function called is entered with its parameters bound to the values passed, its calls
 * that pass on a wanted value are followed the same way, and a request call reached is read
 * with the bindings of the function around it. Only calls that pass on a value of the wanted
 * taint classes produced in the analysed file (the value, or a text or a name that holds it) are
 * followed, into functions that can lead to a request at all (read from module texts first,
 * textReach.ts, then from their code), so the walk stays on the path of the value; it is bounded
 * in depth, in the functions entered and read, and in the budget of its own evaluator
 * (REACH_LIMITS).
 */
import type { ReachedRequest } from '../core/model';
import type { TaintClass, Value } from '../core/value';
import { allTaints } from '../core/value';
import type { Env, EvalLimits, Evaluator, Ref } from './evaluate';
import type { Node } from './parsers';
import { isRequestCallee, mayHoldSdkRequests, sdkRequests } from './requests';
import { REACH_DEPTH, callsTowardRequests, namesInModule, textMayReach } from './textReach';
import type { SourceKind } from './sources';
import type { Arg } from './syntax';
import { walk } from './walk';
import { SearchPath } from './searchPath';
import { assignsName, declaresAfterKeyword } from '../core/words';
import type { FileUnit, Scope } from './workspace';

/**
 * What the search may spend in one file's analysis (its own evaluator's budget, apart from the
 * file's): a file that passes its values to many helpers of a large code base stops here, with
 * what was found so far.
 */
export const REACH_LIMITS: EvalLimits = { steps: 20_000, depth: 120, timeMs: 2_000 };

/** Calls followed from the analysed file down to a request (the analysis's inlining depth). */
const MAX_HOPS = 6;
/** Functions entered per analysis, whatever the code: a value passed to many helpers stops here. */
const MAX_ENTERED = 32;

/** The taint classes each library source kind produces (the sources the walk can start from). */
const SOURCE_CLASS: Partial<Record<SourceKind, TaintClass>> = { clock: 'clock', 'date-ctor': 'clock', random: 'random', environment: 'environment' };

type FunctionRef = Extract<Ref, { kind: 'function' }>;

interface Passed {
  positional: Value[];
  named: Map<string, Value>;
}

/**
 * The requests outside `unit` that its calls reach with a text carrying a taint of one of
 * `classes` produced in `unit`. A file that calls no library source of those classes (the
 * callee names of its calls, read without other files) reaches none.
 */
export function reachedRequests(
  unit: FileUnit,
  ev: Evaluator,
  classes: ReadonlySet<TaintClass>,
  /** The answer of callsTowardRequests for the file (with no request of its own counted), when the caller has it. */
  callsOutward: () => boolean = () => callsTowardRequests(unit.workspace, unit.file, unit.text, unit.language, false),
): ReachedRequest[] {
  // Nothing to reach from a test (what it passes is its own data), or when the file calls nothing
  // it imports from a module that leads to a request (the `'reaches-requests'` trigger: the same
  // answer with the prefilter on or off). Asked of a file that makes requests too: its own are the
  // rules' own, and without this the file's every source and mention was read again on each
  // keystroke in the editor (half of the time of an edit of a 3,000-line request file).
  if (unit.frontEnd.modules.isTestFile(unit.file)) return [];
  if (!callsOutward()) return [];
  const sources = sourceCalls(unit, ev, classes);
  if (!sources.length) return [];
  // What the file passes on: a value itself (`chat(history, time.ctime())`), or a text or a name
  // that holds it; a callee that writes it into its prompt is found when it is entered.
  const mentions = mentionFilter(unit, unit.tree.rootNode, sources, holderNames(unit, sources), []);
  const carries = (v: Value) => allTaints(v).some((t) => classes.has(t.cls) && t.at.file === unit.file);
  const out: ReachedRequest[] = [];
  let entered = 0;

  const passed = (at: FileUnit, args: Arg[], env: Env | undefined): Passed | undefined => {
    const positional: Value[] = [];
    const named = new Map<string, Value>();
    let carried = false;
    for (const a of args) {
      if (a.spread) continue;
      const v = ev.eval(at, a.value, env);
      carried ||= carries(v);
      if (a.name) named.set(a.name, v);
      else positional.push(v);
    }
    return carried ? { positional, named } : undefined;
  };

  /** A call to follow: its callee leads to a request and it passes something wanted (looked at first when the callee is known to lead). */
  const follow = (at: FileUnit, calleeNode: Node, args: Arg[], env: Env | undefined): { callee: FunctionRef; values: Passed } | undefined => {
    const plan = calleePlan(at, ev, calleeNode, env);
    if (!plan) return undefined;
    let values: Passed | undefined;
    if (plan.leads && !(values = passed(at, args, env))) return undefined;
    const callee = plan.resolve();
    if (!callee) return undefined;
    values ??= passed(at, args, env);
    return values && { callee, values };
  };

  const enter = (fn: FunctionRef, values: Passed, via: ReachedRequest['via'], path: ReadonlySet<string>): void => {
    if (++entered > MAX_ENTERED || !ev.budget.spend()) return;
    const g = fn.unit;
    const env = ev.bind(fn, values.positional, via[via.length - 1].at, values.named);
    // The parameters that got a wanted value, and what the function builds from them.
    const mentions = mentionFilter(g, fn.node, [], NO_NAMES, [...env].filter(([, v]) => carries(v)).map(([name]) => name));
    for (const d of callsIn(g, fn.node)) {
      if (isRequestCall(g, d)) {
        // The analysed file's own requests are the rules' own (ctx.calls).
        if (g.file !== unit.file) for (const call of sdkRequests(g, ev, d, env)) out.push({ call, via });
        continue;
      }
      if (via.length >= MAX_HOPS || entered >= MAX_ENTERED) continue;
      const e = g.adapter.expr(d);
      if (e.k !== 'call') continue;
      if (!e.args.some((a) => mentions(a.value))) continue;
      const found = follow(g, e.callee, e.args, env);
      if (!found) continue;
      const { callee, values: next } = found;
      const key = `${callee.unit.file}\u0000${callee.node.id}`;
      if (path.has(key)) continue;
      enter(callee, next, [...via, { at: g.loc(d), callee: calleeLabel(g, e.callee) }], new Set([...path, key]));
    }
  };

  for (const node of unit.calls) {
    if (entered >= MAX_ENTERED || ev.budget.hit) break;
    const e = unit.adapter.expr(node);
    if (e.k !== 'call' || isRequestCall(unit, node) || !e.args.some((a) => mentions(a.value))) continue;
    const found = follow(unit, e.callee, e.args, undefined);
    if (!found) continue;
    const { callee, values } = found;
    enter(callee, values, [{ at: unit.loc(node), callee: calleeLabel(unit, e.callee) }], new Set([`${callee.unit.file}\u0000${callee.node.id}`]));
  }
  return out;
}

/** Whether a module (or one it imports, a few imports deep) may hold a request, read from texts alone. */
function leadsToRequests(unit: FileUnit, file: string): boolean {
  return unit.workspace.leadsTo(file, mayHoldSdkRequests, REACH_DEPTH);
}

/**
 * Modules larger than this are not read to resolve a callee (generated code, a file of hundreds
 * of model classes): reading one costs more than the rest of a file's analysis.
 */
const MAX_MODULE_CHARS = 160 * 1024;

/**
 * Whether a function called through an import may be followed: the module it is imported from
 * (or the submodule the name denotes) is a workspace file of a size read here, leads to a
 * request, and does not define the called name as a class only (a constructor call). Read from
 * the modules' texts, before parsing them.
 */
function importMayBeFollowed(unit: FileUnit, from: { module: string; name: string }, called: string | undefined): string[] {
  const specs = [from.module];
  const sub = unit.frontEnd.modules.submodule?.(from.module, from.name);
  if (sub !== undefined && from.name !== '*') specs.push(sub);
  const ws = unit.workspace;
  return specs.flatMap((spec) => {
    const file = ws.modulePath(unit, spec);
    const source = file === undefined ? undefined : ws.source(file);
    if (!file || !source || source.text.length > MAX_MODULE_CHARS || !leadsToRequests(unit, file)) return [];
    // Found before (in this analysis or an earlier one) to lead to no request: not parsed again.
    if (called !== undefined && ws.derived.get(reachKey(file, called)) === false) return [];
    if (called !== undefined && (classOnly(source.text, called) || !textMayReach(ws, file, called))) return [];
    return [file];
  });
}

/** Whether an imported name is a module (a submodule file) or a class or function its module's text defines. */
function namesModuleOrClass(unit: FileUnit, from: { module: string; name: string }): boolean {
  const ws = unit.workspace;
  const sub = unit.frontEnd.modules.submodule?.(from.module, from.name);
  if (sub !== undefined && ws.modulePath(unit, sub) !== undefined) return true;
  const file = ws.modulePath(unit, from.module);
  const text = file === undefined ? undefined : ws.source(file)?.text;
  if (text === undefined) return false;
  return declaresAfterKeyword(text, DEFINING_KEYWORDS, from.name);
}

/** The name a call calls: the callee's name, or its last attribute (`prompts.build` -> `build`). */
function calledName(unit: FileUnit, callee: Node): string | undefined {
  const e = unit.adapter.expr(callee);
  return e.k === 'ident' ? e.name : e.k === 'member' ? e.prop : undefined;
}

/** A module text that declares `name` as a class and as nothing else a call could run (a function, an assignment). */
function classOnly(text: string, name: string): boolean {
  if (!declaresAfterKeyword(text, ['class'], name)) return false;
  return !declaresAfterKeyword(text, ['def', 'function'], name) && !assignsName(text, name);
}

/** The keywords before a name that a module defines as a class, a function, a namespace or an enum. */
const DEFINING_KEYWORDS = ['class', 'def', 'function', 'namespace', 'enum'];

/** Functions whose calls are read for mayReachRequest in one analysis: past this, no more are. */
const MAX_SCANNED = 64;
/** Per analysis: the functions being read (a path of calls), how many were read, and whether a limit cut the reading short. */
interface Scan {
  path: SearchPath;
  count: number;
  limited: boolean;
}
const scans = new WeakMap<Evaluator, Scan>();

/** The key of what is known of a module-level function by its name (Workspace.derived). */
function reachKey(file: string, name: string): string {
  return `reach-name\u0000${file}\u0000${name}`;
}

/** The keys a function's answer is kept under: its place, and its name when it is a module's own. */
function keysOf(fn: FunctionRef): string[] {
  const keys = [`reach\u0000${fn.unit.file}\u0000${fn.node.startIndex}`];
  const name = fn.unit.frontEnd.facts.functionName(fn.node);
  if (name && fn.unit.enclosingFunction(fn.node).id === fn.unit.tree.rootNode.id && !fn.unit.enclosingClass(fn.node)) keys.push(reachKey(fn.unit.file, name));
  return keys;
}

/**
 * Whether a function can lead to a request at all, whatever it is given: it makes one, or calls
 * (by a name or attribute resolved without the values of any call, see calleePlan) a function
 * that can. The walk enters only these, instead of every helper a value is handed to. Known
 * between analyses (Workspace.derived, while the texts it was read from stay); an answer found
 * under a limit is not kept.
 */
function mayReachRequest(fn: FunctionRef, ev: Evaluator): boolean {
  const known = fn.unit.workspace.derived;
  const keys = keysOf(fn);
  const hit = known.get(keys[0]);
  if (hit !== undefined) return hit;
  let scan = scans.get(ev);
  if (!scan) scans.set(ev, (scan = { path: new SearchPath(), count: 0, limited: false }));
  // A call back into a function being read adds nothing to what that function is found to do.
  if (scan.path.backInto(keys[0])) return false;
  if (scan.count >= MAX_SCANNED || !ev.budget.spend()) {
    scan.limited = true;
    return false;
  }
  if (!leadsToRequests(fn.unit, fn.unit.file)) {
    const name = fn.unit.frontEnd.facts.functionName(fn.node);
    known.set(keys[0], false);
    if (name) known.set(reachKey(fn.unit.file, name), false);
    return false;
  }
  const outer = scan.path.size === 0;
  if (outer) scan.limited = false;
  scan.count++;
  const frame = scan.path.enter(keys[0]);
  const calls = callsIn(fn.unit, fn.node);
  let found = calls.some((d) => isRequestCall(fn.unit, d));
  for (const d of calls) {
    if (found) break;
    const e = fn.unit.adapter.expr(d);
    found = e.k === 'call' && !!reachingCallee(fn.unit, ev, e.callee, undefined);
  }
  const keep = scan.path.leave(frame);
  // A negative answer found after a limit was reached is not kept, nor one found while a call
  // back into a function further up was cut short (SearchPath).
  if (found || (!scan.limited && keep)) for (const k of keys) known.set(k, found);
  return found;
}

/** The calls of the file that are library sources of one of the classes (`datetime.now()`, `new Date()`). */
function sourceCalls(unit: FileUnit, ev: Evaluator, classes: ReadonlySet<TaintClass>): Node[] {
  const out: Node[] = [];
  for (const node of unit.calls) {
    const e = unit.adapter.expr(node);
    if (e.k !== 'call' && e.k !== 'new') continue;
    const name = ev.calleeName(unit, e.callee);
    const kind = name === undefined ? undefined : unit.frontEnd.library.classify(name);
    const cls = kind && SOURCE_CLASS[kind];
    if (cls && classes.has(cls)) out.push(node);
  }
  return out;
}

const NO_NAMES: ReadonlySet<string> = new Set();

/** Rounds of the search for names that may hold a value made by a source (each follows one more assignment). */
const MENTION_ROUNDS = 8;

/**
 * Whether an expression (under `scopeNode`) may hold a value made by one of the sources or held
 * by one of the `seeds` (parameters given one), read from the code alone (no evaluation): it holds
 * a source call, a call of a function of the file that holds one (`holders`), or a name or
 * attribute that such an expression is assigned to. Calls whose arguments hold none of these
 * pass nothing on: the walk does not evaluate them. An over-approximation by name; the
 * evaluation decides.
 */
function mentionFilter(unit: FileUnit, scopeNode: Node, sources: Node[], holders: ReadonlySet<string>, seeds: string[]): (n: Node) => boolean {
  const sourceIds = new Set(sources.map((s) => s.id));
  // Per scope (a name is looked up in its scope and the scopes around it), and attributes by
  // name: names that may hold such a value.
  const names = new Map<Scope, Set<string>>();
  const attributes = new Set<string>();
  const top = unit.scopes.get(scopeNode.id) ?? unit.module;
  names.set(top, new Set(seeds));
  const within = (name: string, scope: Scope | undefined) => {
    for (let s = scope; s; s = s.parent) if (names.get(s)?.has(name)) return true;
    return false;
  };
  // A name read (`x`), or an attribute read (`self.x`, `obj.x`: by the attribute's name).
  const nameOf = (n: Node): { name: string; attribute: boolean } | undefined => {
    const e = unit.adapter.expr(n);
    return e.k === 'ident' ? { name: e.name, attribute: false } : e.k === 'member' ? { name: e.prop, attribute: true } : undefined;
  };
  const holds = (node: Node, scope: Scope): boolean => {
    let hit = false;
    walk(node, (n) => {
      if (hit) return;
      if (sourceIds.has(n.id)) {
        hit = true;
        return;
      }
      const r = nameOf(n);
      if (r) hit = holders.has(r.name) || (r.attribute ? attributes.has(r.name) : within(r.name, scope));
    });
    return hit;
  };
  // Names bound (`x = ...`, `x += ...`, `for x in ...`) and attributes set (`self.x = ...`) from such expressions.
  const bound: Array<{ name: string; value: Node; scope: Scope; attribute: boolean }> = [];
  for (const scope of unit.scopes.values()) {
    if (scope.node.startIndex < scopeNode.startIndex || scope.node.endIndex > scopeNode.endIndex) continue;
    for (const list of scope.bindings.values()) for (const b of list) if ((b.kind === 'assign' || b.kind === 'aug' || b.kind === 'loop') && b.value) bound.push({ name: b.name, value: b.value, scope, attribute: false });
    if (unit.adapter.isClass(scope.node)) {
      for (const [name, defs] of unit.adapter.classMembers(scope.node)) for (const d of defs) if (!unit.adapter.isFunction(d)) bound.push({ name, value: d, scope, attribute: true });
    }
  }
  for (let round = 0; round < MENTION_ROUNDS; round++) {
    let grew = false;
    for (const b of bound) {
      if ((b.attribute ? attributes.has(b.name) : within(b.name, b.scope)) || !holds(b.value, b.scope)) continue;
      if (b.attribute) attributes.add(b.name);
      else (names.get(b.scope) ?? names.set(b.scope, new Set()).get(b.scope)!).add(b.name);
      grew = true;
    }
    if (!grew) break;
  }
  return (n) => holds(n, unit.scopeOf(n));
}

/** Rounds of "functions that call a function that holds the value" (the value's way up in the file). */
const HOLDER_ROUNDS = 4;

/**
 * The names of the functions of the file that may return a value made by these sources: those
 * that hold a source, and those that call one of them by name, a few levels up (a prompt built
 * by a helper and returned).
 */
function holderNames(unit: FileUnit, sources: Node[]): Set<string> {
  const root = unit.tree.rootNode.id;
  const out = new Set<string>();
  let fresh: Node[] = [];
  for (const s of sources) {
    const fn = unit.enclosingFunction(s);
    const name = fn.id === root ? undefined : unit.frontEnd.facts.functionName(fn);
    if (name && !out.has(name)) {
      out.add(name);
      fresh.push(fn);
    }
  }
  for (let round = 0; round < HOLDER_ROUNDS && fresh.length; round++) {
    const next: Node[] = [];
    for (const fn of fresh) {
      for (const call of unit.callsNamed(unit.frontEnd.facts.functionName(fn) ?? '')) {
        const caller = unit.enclosingFunction(call);
        const name = caller.id === root ? undefined : unit.frontEnd.facts.functionName(caller);
        if (!name || out.has(name)) continue;
        out.add(name);
        next.push(caller);
      }
    }
    fresh = next;
  }
  return out;
}

/**
 * The workspace function a callee denotes, when it can lead to a request (mayReachRequest) and
 * that is cheap to know: a name, or attributes read from a name that is imported or declared (a
 * module, a class, a function) or from `self` / `this`. A method of any other object
 * (`chat_model.ai_model_api.get(...)`) would have that object evaluated first, for every call
 * looked at: it is not followed.
 */
function reachingCallee(unit: FileUnit, ev: Evaluator, callee: Node, env: Env | undefined): FunctionRef | undefined {
  return calleePlan(unit, ev, callee, env)?.resolve();
}

/**
 * What is known of a callee before it is resolved (reachingCallee): nothing to follow
 * (undefined), or how to resolve it and whether it is already known to lead to a request (a
 * function of another module found so before), so that what is passed can be looked at first
 * and the module parsed only when something wanted is passed.
 */
function calleePlan(unit: FileUnit, ev: Evaluator, callee: Node, env: Env | undefined): { leads: boolean; resolve: () => FunctionRef | undefined } | undefined {
  // A library function or a builtin (named without reading another file): no workspace code.
  if (ev.calleeName(unit, callee) !== undefined) return undefined;
  let through: string[] | undefined;
  // The name the callee has in the module it is imported from (`complete` of `import { complete as send }`, `default`).
  let nameThere: string | undefined;
  let n = callee;
  for (;;) {
    const e = unit.adapter.expr(n);
    if (e.k === 'member') n = e.object;
    else if (e.k === 'wrap') n = e.inner;
    else if (e.k === 'self') break;
    else if (e.k === 'ident') {
      if (env?.has(e.name)) break;
      const b = ev.findBinding(unit, n, e.name)?.binding;
      if (!b) return undefined;
      // A name bound to a function, a class or an import, or another name for one (`send = client_send`);
      // a name bound to what a call returns (`handler = make_handler()`) would have that call run first.
      const alias = n === callee && b.kind === 'assign' && !!b.value && ['ident', 'member'].includes(unit.adapter.expr(b.value).k);
      if (!(b.kind === 'import' || b.kind === 'function' || b.kind === 'class' || alias)) return undefined;
      // A name imported from a module that leads to no request is not read (nor parsed), nor a class.
      if (b.kind === 'import' && b.importFrom) {
        // A method of an imported object (`app.db.save(...)` of `from core import app`) would have
        // the object built first (its module's code run): only modules and classes are read through.
        if (n !== callee && b.importFrom.name !== '*' && !namesModuleOrClass(unit, b.importFrom)) return undefined;
        const written = calledName(unit, callee);
        const names = n === callee && written !== undefined && b.importFrom.name !== '*' ? namesInModule(b.importFrom.name, written) : [written];
        for (const name of names) {
          through = importMayBeFollowed(unit, b.importFrom, name);
          nameThere = name;
          if (through.length) break;
        }
        if (!through?.length) return undefined;
      }
      break;
    } else return undefined;
  }
  const called = nameThere ?? calledName(unit, callee);
  const known = through !== undefined && called !== undefined && through.some((file) => unit.workspace.derived.get(reachKey(file, called)) === true);
  const resolve = () => {
    const ref = ev.refOf(ev.eval(unit, callee, env));
    const fn = ref?.kind === 'function' ? ref : undefined;
    const reaches = !!fn && mayReachRequest(fn, ev);
    // What a call through the import leads to is known by the name it calls in those modules too (a re-export).
    const kept = reaches || !fn || unit.workspace.derived.get(`reach\u0000${fn.unit.file}\u0000${fn.node.startIndex}`) === false;
    if (through && called !== undefined && kept) for (const file of through) unit.workspace.derived.set(reachKey(file, called), reaches);
    return reaches ? fn : undefined;
  };
  return { leads: known, resolve };
}

/** The calls whose nearest function is `fn` (not those of functions written inside it). */
function callsIn(unit: FileUnit, fn: Node): Node[] {
  return unit.calls.filter((d) => d.startIndex >= fn.startIndex && d.endIndex <= fn.endIndex && unit.enclosingFunction(d).id === fn.id);
}

/** The callee as written, for messages (`complete`, `self._dispatch`). */
function calleeLabel(unit: FileUnit, callee: Node): string {
  const text = callee.text.replace(/\s+/g, '');
  return text.length > 40 ? text.slice(0, 39) + '…' : text;
}

/** Whether a node is a call whose callee has the shape of an SDK request (`client.beta.messages.create`), read from its text alone. */
function isRequestCall(unit: FileUnit, node: Node): boolean {
  const e = unit.adapter.expr(node);
  return e.k === 'call' && isRequestCallee(unit, e.callee);
}
