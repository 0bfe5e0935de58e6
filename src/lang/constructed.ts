/**
 * Requests read for one instance of the class whose method makes them. A class that wraps the
 * SDK often chooses its breakpoints from its own options (`SupportBot(cache_tools=True,
 * long_cache=True)`): read without knowing the instance, those options are the constructor's
 * unknown parameters, and what the request sends is not known either. For each call of the file
 * that builds an instance of a workspace class with a request method, and that instance goes on
 * to make requests, the request is read again with `self` / `this` bound to that instance: its
 * fields are what its constructor stores for those arguments (Evaluator.member), and the tests
 * on them decide which branches run (Evaluator.reached).
 */
import type { OptionClass, RequestCall } from '../core/model';
import type { ObjValue, ScalarValue, Value } from '../core/value';
import type { Evaluator } from './evaluate';
import { argumentOf } from './frameworks';
import type { Node } from './parsers';
import { inMockedTest, isRequestCallee, mayHoldRequests, sdkRequests } from './requests';
import { walk } from './walk';
import type { FileUnit } from './workspace';

/** Constructions of one file read per instance, at most. */
const MAX_CONSTRUCTIONS = 8;
/** Instances of one class read per file, at most (a test file builds the same class again and again). */
const MAX_INSTANCES_PER_CLASS = 4;
/** Request calls of one class read per instance, at most. */
const MAX_REQUESTS_PER_CLASS = 12;
/** Calls followed from the method an instance is used through to the one that makes a request. */
const MAX_METHOD_HOPS = 4;

/**
 * The requests of the workspace classes that this file builds instances of, each read for the
 * instance built (RequestCall.instance says where, and what the request is for any instance).
 * `ev` reads what a request is for any instance, as the request's own file reads it; `certain`
 * (an Evaluator with certainChangesOnly) reads it for one instance, applying only the changes
 * that certainly run for it: what differs then holds for that instance whatever else the data.
 */
export function constructedRequests(unit: FileUnit, ev: Evaluator, certain: Evaluator): RequestCall[] {
  const out: RequestCall[] = [];
  let constructions = 0;
  // Per class (a file builds the same class many times): its request calls, the methods that
  // lead to them, what each request is for any instance (read only when a rule asks), and how
  // many of its instances were read.
  const classes = new Map<string, { requests: Node[]; leading?: Set<string>; general: RequestCall[][]; read: number }>();
  const modules = new Map<string, boolean>();
  for (const node of unit.calls) {
    const e = unit.adapter.expr(node);
    // A test that replaces the client sends nothing, as the request finder reads it.
    if ((e.k !== 'call' && e.k !== 'new') || !mayNameWorkspaceClass(unit, ev, e.callee, modules) || inMockedTest(unit, node)) continue;
    const ref = ev.refOf(ev.eval(unit, node));
    if (ref?.kind !== 'instance' || !ref.made || ref.made.call.id !== node.id) continue;
    const key = `${ref.unit.file}\u0000${ref.cls.id}`;
    let cls = classes.get(key);
    if (!cls) classes.set(key, (cls = { requests: classRequests(ref.unit, ref.cls), general: [], read: 0 }));
    const found = cls;
    if (!found.requests.length || found.read >= MAX_INSTANCES_PER_CLASS) continue;
    if (!sends(unit, ev, node, () => (found.leading ??= methodsLeadingTo(ref.unit, ref.cls, found.requests)))) continue;
    if (++constructions > MAX_CONSTRUCTIONS) break;
    found.read++;
    const className = e.callee.text.replace(/\s+/g, '');
    const self = certain.eval(unit, node);
    found.requests.forEach((r, k) => {
      const general = (i: number): ObjValue => (found.general[k] ??= sdkRequests(ref.unit, ev, r))[i]?.params ?? { kind: 'obj', entries: [], complete: false, taints: [] };
      sdkRequests(ref.unit, certain, r, new Map([['<self>', self]])).forEach((call, i) => {
        out.push({
          ...call,
          instance: {
            at: unit.loc(node),
            callee: unit.loc(e.callee),
            className,
            get general() {
              return general(i);
            },
          },
        });
      });
    });
  }
  return out;
}

/** Classes of one file read per option combination, at most. */
const MAX_OPTION_CLASSES = 4;
/** Options of one class read, at most (the first ones written). */
const MAX_OPTIONS = 12;
/** Readings of a request for one combination of options, per file, at most. */
const MAX_OPTION_READINGS = 24;

/**
 * The classes of the file whose methods make SDK requests, with their options that have a
 * written `True`/`False` default: a dataclass's (or pydantic model's) fields, or the parameters
 * of its constructor. `evaluator` makes an evaluator for one reading (each with its own budget).
 */
export function optionClasses(unit: FileUnit, evaluator: () => Evaluator): OptionClass[] {
  const out: OptionClass[] = [];
  const seen = new Set<number>();
  let readings = 0;
  const probe = evaluator();
  for (const node of unit.calls) {
    if (out.length >= MAX_OPTION_CLASSES) break;
    const e = unit.adapter.expr(node);
    if (e.k !== 'call' || !isRequestCallee(unit, e.callee)) continue;
    const cls = unit.enclosingClass(node);
    if (!cls || seen.has(cls.id)) continue;
    seen.add(cls.id);
    const name = unit.adapter.classHeader(cls).name;
    // A class its own module builds is read for the instances built (constructedRequests); one
    // it does not build is there for other modules, which may choose any of its options.
    if (!name || buildsClass(unit, name)) continue;
    const options = boolOptions(unit, probe, cls);
    const requests = classRequests(unit, cls);
    if (!options.length || !requests.length) continue;
    // The class's name in its header (`class Claude(Model):`, `class SupportBot {`).
    const offset = cls.text.search(new RegExp(`\\b${name}\\b`));
    out.push({
      className: name,
      at: offset >= 0 ? { file: unit.file, start: cls.startIndex + offset, end: cls.startIndex + offset + name.length } : unit.loc(cls),
      options,
      requestCount: requests.length,
      requestAt: (i) => unit.loc(requests[i]),
      request(i, set) {
        if (i < 0 || i >= requests.length || readings >= MAX_OPTION_READINGS) return [];
        readings++;
        const ev = evaluator();
        const given = new Map<string, Value>();
        for (const o of options) {
          const v = set.get(o.name) ?? o.default;
          given.set(o.name, { kind: 'bool', value: v, taints: [] });
        }
        return sdkRequests(unit, ev, requests[i], new Map([['<self>', ev.instanceWith(unit, cls, given)]]));
      },
    });
  }
  return out;
}

/** Whether the file calls a class of this name (`Name(...)`, `new Name(...)`). */
function buildsClass(unit: FileUnit, name: string): boolean {
  return unit.calls.some((c) => {
    const e = unit.adapter.expr(c);
    if (e.k !== 'call' && e.k !== 'new') return false;
    const callee = unit.adapter.expr(e.callee);
    return callee.k === 'ident' && callee.name === name;
  });
}

/** The options of a class with a written `True`/`False` default (see optionClasses), in the order written. */
function boolOptions(unit: FileUnit, ev: Evaluator, cls: Node): Array<{ name: string; default: boolean }> {
  const members = unit.classMembers(cls);
  const ctor = ev.constructorOf(unit, members);
  const out: Array<{ name: string; default: boolean; at: number }> = [];
  const isBool = (v: Value): v is ScalarValue => v.kind === 'bool' && !v.taints.length;
  if (ctor) {
    for (const p of unit.adapter.functionInfo(ctor).params) {
      if (!p.default || p.rest || p.kwrest || p.key !== undefined) continue;
      const v = ev.eval(unit, p.default);
      if (isBool(v)) out.push({ name: p.name, default: v.value as boolean, at: p.default.startIndex });
    }
  } else if (unit.adapter.keywordFields?.(cls)) {
    for (const [name, defs] of members) {
      const d = defs.find((n) => !unit.adapter.isFunction(n));
      if (!d || defs.length !== 1) continue;
      const v = ev.eval(unit, d);
      if (isBool(v)) out.push({ name, default: v.value as boolean, at: d.startIndex });
    }
  }
  return out.sort((a, b) => a.at - b.at).slice(0, MAX_OPTIONS).map(({ name, default: d }) => ({ name, default: d }));
}

/**
 * A callee that may name a class of the workspace with a request method: a capitalised name (or
 * attribute) bound to a class of this file, or imported from a workspace module that may hold
 * one. Told from texts and the bindings of package indexes, before anything is evaluated, so
 * that the calls of library classes and of the project's other classes are not followed (nor
 * their modules parsed).
 */
function mayNameWorkspaceClass(unit: FileUnit, ev: Evaluator, callee: Node, seen: Map<string, boolean>): boolean {
  let n = callee;
  let last: string | undefined;
  for (let e = unit.adapter.expr(n); e.k === 'member' || e.k === 'wrap'; e = unit.adapter.expr(n)) {
    if (e.k === 'member') {
      last ??= e.prop;
      n = e.object;
    } else n = e.inner;
  }
  const root = unit.adapter.expr(n);
  if (root.k !== 'ident' || !/^[A-Z]/.test(last ?? root.name)) return false;
  const b = ev.findBinding(unit, n, root.name)?.binding;
  if (b?.kind === 'class') return true;
  if (b?.kind !== 'import' || !b.importFrom) return false;
  // `from pkg.bot import Bot` then `Bot(...)`; `import pkg.bot as bot` then `bot.Bot(...)`.
  const name = last === undefined ? b.importFrom.name : b.importFrom.name === '*' ? last : undefined;
  return name !== undefined && mayDefineRequestClass(unit, b.importFrom.module, name, seen);
}

/**
 * Whether the module `spec` (imported in `from`) may hold a request method for `name`: its text
 * may hold requests, or it is a package index that imports `name` from a module that does (a
 * few re-exports deep).
 */
function mayDefineRequestClass(from: FileUnit, spec: string, name: string, seen: Map<string, boolean>, depth = 0): boolean {
  const file = from.workspace.modulePath(from, spec);
  if (file === undefined) return false;
  const key = `${file}\u0000${name}`;
  const known = seen.get(key);
  if (known !== undefined) return known;
  seen.set(key, false);
  const text = from.workspace.source(file)?.text;
  let found = text !== undefined && mayHoldRequests(text);
  if (!found && text !== undefined && depth < MAX_REEXPORTS && PACKAGE_INDEX.test(file)) {
    const index = from.workspace.get(file);
    const b = index?.module.bindings.get(name)?.find((x) => x.kind === 'import' && x.importFrom);
    if (index && b?.importFrom) found = mayDefineRequestClass(index, b.importFrom.module, b.importFrom.name === '*' || b.importFrom.name === 'default' ? name : b.importFrom.name, seen, depth + 1);
  }
  seen.set(key, found);
  return found;
}

const PACKAGE_INDEX = /(?:^|[\\/])(?:__init__\.pyi?|index\.[cm]?[jt]sx?)$/;
/** Package indexes followed from an import to the module that defines a class. */
const MAX_REEXPORTS = 3;

/** The SDK request calls written in the methods of a class (not in a class nested in it). */
function classRequests(unit: FileUnit, cls: Node): Node[] {
  if (!mayHoldRequests(cls.text)) return [];
  const out: Node[] = [];
  for (const c of unit.calls) {
    if (c.startIndex < cls.startIndex || c.endIndex > cls.endIndex) continue;
    const e = unit.adapter.expr(c);
    if (e.k !== 'call' || !isRequestCallee(unit, e.callee) || unit.enclosingClass(c)?.id !== cls.id) continue;
    out.push(c);
    if (out.length >= MAX_REQUESTS_PER_CLASS) break;
  }
  return out;
}

/**
 * The instance built at `node` makes the class's requests: it is handed on to another call (an
 * agent or a server that runs it), or a method of it that leads to a request is called, on the
 * construction itself or on the name it is bound to (or that name is handed on); an instance
 * bound at module level outside tests is there for other modules to use. One built only to read
 * its settings or to test a helper method sends nothing.
 */
function sends(unit: FileUnit, ev: Evaluator, node: Node, leading: () => Set<string>): boolean {
  const calledThrough = (member: Node, method: string) => leading().has(method) && !!member.parent && unit.adapter.isCall(member.parent) && unit.adapter.expr(member.parent).k === 'call';
  if (argumentOf(unit, node)) return true;
  const parent = node.parent ? unit.adapter.expr(node.parent) : undefined;
  if (parent?.k === 'member' && parent.object.id === node.id) return calledThrough(node.parent!, parent.prop);
  const assigned = node.parent ? unit.frontEnd.facts.assignment(node.parent) : undefined;
  const target = assigned && assigned.value.id === node.id ? unit.adapter.expr(assigned.target) : undefined;
  if (target?.k !== 'ident') return false;
  const scope = unit.enclosingFunction(node);
  if (scope.id === unit.tree.rootNode.id && !unit.frontEnd.modules.isTestFile(unit.file)) return true;
  let found = false;
  walk(scope, (use) => {
    if (found || use.endIndex - use.startIndex !== target.name.length || use.id === assigned!.target.id || use.text !== target.name) return;
    if (unit.adapter.expr(use).k !== 'ident') return;
    const b = ev.findBinding(unit, use, target.name)?.binding;
    if (b?.kind !== 'assign' || b.value?.id !== node.id) return;
    const p = use.parent ? unit.adapter.expr(use.parent) : undefined;
    if (p?.k === 'member' && p.object.id === use.id) found = calledThrough(use.parent!, p.prop);
    else found = !!argumentOf(unit, use);
  });
  return found;
}

/** The names of the methods of a class that make one of `requests`, or call (`self.m(...)`) one that does, a few calls deep. */
function methodsLeadingTo(unit: FileUnit, cls: Node, requests: Node[]): Set<string> {
  const methods = new Map<string, Node>();
  for (const [name, defs] of unit.classMembers(cls)) {
    const fn = defs.find((d) => unit.adapter.isFunction(d));
    if (fn) methods.set(name, fn);
  }
  const inside = (n: Node, outer: Node) => n.startIndex >= outer.startIndex && n.endIndex <= outer.endIndex;
  // The `self.m(...)` / `this.m(...)` calls written in each method, read once.
  const selfCalls = new Map<string, Set<string>>();
  for (const [name, fn] of methods) {
    const called = new Set<string>();
    for (const c of unit.calls) {
      if (c.startIndex < fn.startIndex) continue;
      if (c.startIndex >= fn.endIndex) break;
      const e = unit.adapter.expr(c);
      if (e.k !== 'call') continue;
      const m = unit.adapter.expr(e.callee);
      if (m.k === 'member' && unit.adapter.expr(m.object).k === 'self') called.add(m.prop);
    }
    selfCalls.set(name, called);
  }
  const leading = new Set<string>();
  for (const [name, fn] of methods) if (requests.some((r) => inside(r, fn))) leading.add(name);
  for (let hop = 0; hop < MAX_METHOD_HOPS; hop++) {
    let grew = false;
    for (const [name, called] of selfCalls) {
      if (leading.has(name) || ![...called].some((m) => leading.has(m))) continue;
      leading.add(name);
      grew = true;
    }
    if (!grew) break;
  }
  return leading;
}
