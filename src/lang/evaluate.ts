/**
 * Value resolution: turns an expression into an abstract Value by following names to their
 * bindings (in this file or an imported one), inlining simple functions, and recognising the
 * library calls that make a value change between requests.
 */
import type { LanguageId } from '../core/model';
import type { Loc } from '../core/span';
import { locKey } from '../core/span';
import type { ListValue, ObjValue, Origin, Taint, TaintClass, TaintKind, Trim, Value, Entry } from '../core/value';
import { HOLE, VALUE_LIMITS, allTaints, bounded, concatStrings, defaultOf, getEntry, getEntryRecord, isComplete, itemsSeen, knownHead, listedItems, stabilityOf, unknown, union, withChainStep, withFallback, withoutKeys, withoutUnordered, sliceOf } from '../core/value';
import type { Node } from './parsers';
import { RETRIEVAL_NAME, TURN_GUARD } from './sources';
import { mayHoldRequests } from './requests';
import type { SourceKind } from './sources';
import type { Adapter, Arg, Binding, Expr, FunctionInfo, Mutation } from './syntax';
import { walk } from './walk';
import type { FileUnit, Scope } from './workspace';
import { moduleBaseName } from './callIndex';
import { importedNamesOf } from './frontEnds';
import { readsWholeName } from '../core/words';

/** The names of the Python SDK's markers of a parameter not sent (`from anthropic import NOT_GIVEN`, `omit`, also from `anthropic._types`). */
const SDK_NOT_GIVEN = /^anthropic\.(?:_types\.)?(?:NOT_GIVEN|not_given|omit)$/;

/** An AI SDK provider package's factory of providers (`createAnthropic` of `@ai-sdk/anthropic`). */
const PROVIDER_FACTORY = /^@ai-sdk\/[\w-]+\.create[A-Z]\w*$/;

/**
 * What a name refers to when it is not plain data: a function, a class, a module, a library
 * object. A value holds only the number of its Ref (`Value.ref`); the evaluator that made it
 * keeps the Refs, so values stay plain data that can be copied, compared and serialised.
 */
export type Ref =
  | { kind: 'external'; name: string }
  /** `env`: the parameters bound where the call was evaluated (a call inside an inlined function). */
  /** `factory`: the call that made the provider this one was made by calling (`createAnthropic({ baseURL })` for `claude("…")`). */
  | { kind: 'external-instance'; name: string; unit: FileUnit; call: Node; args: Arg[]; env?: Env; factory?: { unit: FileUnit; args: Arg[]; env?: Env } }
  | { kind: 'module'; unit: FileUnit }
  | { kind: 'function'; unit: FileUnit; node: Node; self?: Ref }
  | { kind: 'class'; unit: FileUnit; node: Node }
  /** `made`: the construction (`Assistant(cache_tools=True)`) when the instance is one built at a known call. */
  | { kind: 'instance'; unit: FileUnit; cls: Node; made?: Construction };

/** A call that builds an instance of a workspace class: where it is, its arguments, and the names bound where it runs. */
export interface Construction {
  unit: FileUnit;
  call: Node;
  args: Arg[];
  env?: Env;
  /**
   * Options given as values rather than written arguments: an instance read for one combination
   * of its class's options (constructed.ts, optionClasses); `call` is then the class itself.
   */
  given?: ReadonlyMap<string, Value>;
}

/** Values bound to names while a function is inlined (its parameters). */
export type Env = Map<string, Value>;

/** A test of a text: whether it reads a name (readerOf). */
interface NameReader {
  test(text: string): boolean;
}

/** A call of a function, whose arguments its parameters take (see Evaluator.callersOf). */
interface Caller {
  /** The file the call is in. */
  unit: FileUnit;
  node: Node;
  args: Arg[];
  /** Called as a method (`obj.name(...)`): Python's receiver parameter is not passed. */
  method: boolean;
  /** In another file, or on a receiver nothing resolves: other calls may exist that are not seen. */
  other?: boolean;
  /** Names read differently in the arguments: the receiver of such a call, as an instance of the class. */
  env?: Env;
}

const MAX_INLINE_DEPTH = 6;
/** The calls of a scope's own body that pass a name as an argument, by name (Evaluator.callsPassing). */
const CALLS_PASSING = new WeakMap<Scope, Map<string, Node[]>>();
/** The built-in types an `isinstance` test is decided for. */
const BUILTIN_TYPES = new Set(['str', 'dict', 'list', 'tuple']);
/**
 * Calls read, per analysis, for the changes they make to a value handed to them (helpers that
 * hand it on to each other multiply): past this, further calls change nothing that is seen.
 */
const MAX_CHANGE_CALLS = 256;
/** A loop over more items than this is not narrowed item by item (Evaluator.narrowed). */
const MAX_NARROWED_ITEMS = 64;
/** More calls of a function than this and its parameters are not followed to them (a helper used everywhere). */
const MAX_CALLERS = 8;
/** Evaluation steps for what one call in another file (or on a receiver nothing resolves) passes to a parameter. */
const CALLER_STEPS = 1500;
/**
 * Evaluation steps for telling what the receiver of a call of a method's name is (an instance of
 * the class, or a value nothing resolves). Past them it is taken for one that nothing resolves.
 */
const RECEIVER_STEPS = 60;
/** Evaluation steps for all such calls of one analysis (see Evaluator.callerPart). */
const ALL_CALLER_STEPS = 8000;
/** Characters of other files that one analysis reads to look for the calls of its methods. */
const CALLER_CHARS = 400_000;
/**
 * Characters of the other files one analysis keeps parsed to its end (see Evaluator.parsed):
 * about 16 MB of trees. Past them a file is read as the workspace keeps it.
 */
const MAX_ANALYSIS_CHARS = 1_500_000;

/**
 * What one file's analysis may spend, whatever the code contains: evaluation steps (each
 * expression evaluated, each module export followed, each imported file read counts), nesting
 * of evaluation on the JavaScript stack, and wall time as a last resort. Past a bound every
 * value is unknown (never volatile) and the file gets a notice. Steps come first because they
 * are deterministic: the same code gives the same findings on any machine and in any order.
 */
export interface EvalLimits {
  steps: number;
  /** Nested evaluations (expressions, exports, inlined calls) at once. */
  depth: number;
  /** Milliseconds; checked every few hundred steps. */
  timeMs: number;
}

export const DEFAULT_LIMITS: EvalLimits = { steps: 50_000, depth: 120, timeMs: 2_000 };

export type LimitHit = 'steps' | 'depth' | 'time';

export class EvalBudget {
  steps = 0;
  depth = 0;
  /** The first bound that was reached, if any. */
  hit?: LimitHit;
  /** Imported files whose analysis failed: their values were taken as unknown. */
  readonly failedImports = new Set<string>();
  private deadline: number;

  constructor(readonly limits: EvalLimits = DEFAULT_LIMITS) {
    this.deadline = performance.now() + limits.timeMs;
  }

  /** A bound on the steps of one part of the analysis (see within); undefined outside such a part. */
  private cap?: number;
  /** How many times a part ran out of its steps: what was evaluated since is incomplete, and not kept. */
  cuts = 0;

  /**
   * Runs `part` with at most `steps` more steps (within any bound already set). Past them its
   * values are unknown, as past the file's own bound, but the rest of the analysis goes on.
   */
  within<T>(steps: number, part: () => T): T {
    const saved = this.cap;
    this.cap = Math.min(saved ?? Infinity, this.steps + steps);
    try {
      return part();
    } finally {
      this.cap = saved;
    }
  }

  /** Time spent on work shared by every analysis (an index of the project read once), which is not this file's. */
  exclude(ms: number): void {
    this.deadline += ms;
  }

  /** Counts `n` steps; false once the step or time bound is reached. */
  spend(n = 1): boolean {
    if (this.hit === 'steps' || this.hit === 'time') return false;
    if (this.cap !== undefined && this.steps >= this.cap) {
      this.cuts++;
      return false;
    }
    const before = this.steps;
    this.steps += n;
    if (this.steps > this.limits.steps) {
      this.hit = 'steps';
      return false;
    }
    // performance.now() every 256 steps: a cheap check, and 256 steps take well under a millisecond.
    if (before >> 8 !== this.steps >> 8 && performance.now() > this.deadline) {
      this.hit = 'time';
      return false;
    }
    return true;
  }

  /** Enters one nested evaluation; false (and nothing to leave) at the depth bound. */
  enter(): boolean {
    if (this.depth >= this.limits.depth) {
      this.hit ??= 'depth';
      return false;
    }
    this.depth++;
    return true;
  }

  leave(): void {
    this.depth--;
  }
}

const PENDING = Symbol('pending');


function shorten(text: string, max = 60): string {
  const one = text.replace(/\s+/g, ' ');
  return one.length > max ? one.slice(0, max - 1) + '…' : one;
}

/**
 * The binding of a name that a use sees, from the bindings of one scope (in source order):
 * the last one before the use (or, across a function boundary, the last one), skipping
 * augmented assignments and the binding whose own value holds the use (`x = x + 1`); failing
 * that, a function, class or import declared later. One pass without allocating: minified code
 * binds the same name thousands of times in one scope.
 */
function pickBinding(list: readonly Binding[], use: Node, crossed: boolean): Binding | undefined {
  const useStart = use.startIndex;
  let useEnd: number | undefined;
  const usable = (b: Binding) => {
    if (!b.value || b.kind === 'loop' || b.kind === 'function' || b.value.startIndex > useStart) return true;
    useEnd ??= use.endIndex;
    return !(useEnd <= b.value.endIndex);
  };
  for (let i = list.length - 1; i >= 0; i--) {
    const b = list[i];
    // A parameter read at its own declaration (a TypeScript parameter property) is that parameter.
    if (b.kind === 'param' && b.nameNode.id === use.id) return b;
    if (b.kind === 'aug' || (!crossed && b.nameNode.startIndex >= useStart)) continue;
    if (usable(b)) return b;
  }
  if (crossed) return undefined;
  for (const b of list) if ((b.kind === 'function' || b.kind === 'class' || b.kind === 'import') && usable(b)) return b;
  return undefined;
}

/**
 * Where reading `name` at `use` ends, going out through the scopes around it up to `stop`
 * (excluded; undefined: through the module's): the binding it reads and the scope that holds it;
 * null when a parameter of that name that is not readable there stops it (the name is then
 * unresolved); undefined when it gets to `stop` or past the module. A class's scope is passed
 * over once a function has been crossed, as in Python.
 */
function lookUp(unit: FileUnit, use: Node, name: string, stop: Scope | undefined): { scope: Scope; binding: Binding; crossed: boolean } | null | undefined {
  let crossed = false;
  for (let scope: Scope | undefined = unit.scopeOf(use); scope && scope !== stop; scope = scope.parent) {
    const isClassScope = unit.adapter.isClass(scope.node);
    if (!(isClassScope && crossed)) {
      const list = scope.bindings.get(name);
      if (list && list.length) {
        const pick = pickBinding(list, use, crossed);
        if (pick) return { scope, binding: pick, crossed };
        if (list.some((b) => b.kind === 'param')) return null;
      }
    }
    if (unit.adapter.isFunction(scope.node)) crossed = true;
  }
  return undefined;
}

/**
 * Whether reading `name` at `use` gets to the module's scope: false when a scope inside the
 * module (a function's, a class's) answers it, whatever the module binds. The evaluator reads a
 * name so (Evaluator.findBinding), so a change to the module's names can change only the
 * readings that get there.
 */
export function readsModuleScope(unit: FileUnit, use: Node, name: string): boolean {
  return lookUp(unit, use, name, unit.module) === undefined;
}

/** List changes that only add items at the end: the items before stay the first ones. */
const ADDS_AT_END: ReadonlySet<string> = new Set(['append', 'extend', 'push']);
/** The changes of a set (`s.add(x)`, `s.update(xs)`), applied to a value only when it is one. */
const SET_CHANGES: ReadonlySet<string> = new Set(['add', 'update']);

export class Evaluator {
  private readonly memo = new Map<string, Value>();
  /** Values read under one set of bound names (an inlined call, an instance's constructor), by that set. */
  private readonly envMemo = new WeakMap<Env, Map<string, Value>>();
  private readonly inProgress = new Set<string>();
  /** Parameters resolved from their callers (`file\0name node`); PENDING while one is being resolved (recursion). */
  private readonly params = new Map<string, Value | undefined | typeof PENDING>();
  /** The calls of a function whose arguments its parameters take (see callersOf), by the function's file and node. */
  private readonly callers = new Map<string, Caller[]>();
  /** Module exports resolved so far (`file\0name`); PENDING while one is being resolved (an import cycle). */
  private readonly exports = new Map<string, Value | undefined | typeof PENDING>();
  private inlineDepth = 0;
  /** Calls read for the changes they make to an argument so far (changedByCall), at most MAX_CHANGE_CALLS. */
  private changeCalls = 0;
  /** Whether a call hands a name to a function that changes it (handsToChange), by file, call and name. */
  private readonly handsOn = new Map<string, boolean>();
  /** Whether a function changes a parameter in place (changesParam), by file, function and parameter. */
  private readonly paramChanges = new Map<string, boolean>();
  /** Calls whose changes to an argument are being applied (a helper that calls itself). */
  private readonly changing = new Set<number>();

  /** The Refs of the values this evaluator made, by number (see Ref). */
  private readonly refs: Ref[] = [];

  /**
   * `certainChangesOnly`: in-place changes are applied only where they certainly run (no test
   * left undecided, no loop or `try` around them; a value with a change that may run is not
   * known in full), for a reading whose findings must hold whatever the data the code is not
   * given (one instance of a class: constructed.ts). By default a change under an undecided
   * test is applied.
   */
  constructor(
    readonly budget: EvalBudget = new EvalBudget(),
    readonly certainChangesOnly = false,
  ) {}

  /** What a value made by this evaluator refers to, if anything. */
  refOf(v: Value | undefined): Ref | undefined {
    return v?.ref === undefined ? undefined : this.refs[v.ref];
  }

  private withRef(ref: Ref, at?: Loc, taints: Taint[] = []): Value {
    this.refs.push(ref);
    return { kind: 'unknown', at, taints, note: ref.kind, ref: this.refs.length - 1 };
  }

  /** The Python SDK's value for a parameter not sent (`anthropic.NOT_GIVEN`, `anthropic.omit`), however it was imported. */
  private notGivenMarker(v: Value): boolean {
    const ref = this.refOf(v);
    return ref?.kind === 'external' && SDK_NOT_GIVEN.test(ref.name);
  }

  /** Evaluates an expression node of `unit`. */
  eval(unit: FileUnit, node: Node, env?: Env): Value {
    const key = `${unit.file}\u0000${node.id}`;
    // Values bound while a function is inlined are fixed for that call: what is evaluated with
    // them is kept for that call (a local read in many places is evaluated once).
    let memo = this.memo;
    if (env) {
      let own = this.envMemo.get(env);
      if (!own) this.envMemo.set(env, (own = new Map()));
      memo = own;
    }
    const hit = memo.get(key);
    if (hit) return hit;
    if (this.inProgress.has(key)) return unknown(unit.loc(node), 'recursive');
    const budget = this.budget;
    if (!budget.spend() || !budget.enter()) return unknown(unit.loc(node), 'analysis limit');
    this.inProgress.add(key);
    const cuts = budget.cuts;
    try {
      const v = bounded(this.evalUncached(unit, node, env));
      // Cut short by a part's bound (Evaluator.paramFromCallers): another read may get further.
      if (budget.cuts === cuts) memo.set(key, v);
      return v;
    } finally {
      budget.leave();
      this.inProgress.delete(key);
    }
  }

  private evalUncached(unit: FileUnit, node: Node, env?: Env): Value {
    const e: Expr = unit.adapter.expr(node);
    const at = unit.loc(node);
    switch (e.k) {
      case 'str':
        return { kind: 'str', text: e.value, complete: true, literal: true, at, taints: [] };
      case 'num':
        return { kind: 'num', value: e.value, at, taints: [] };
      case 'bool':
        return { kind: 'bool', value: e.value, at, taints: [] };
      case 'null':
        return { kind: 'null', value: null, at, taints: [] };
      case 'template': {
        const parts: Value[] = e.parts.map((p) => ('text' in p ? { kind: 'str', text: p.text, complete: true, taints: [] } : this.embed(unit, p.expr, p.whole, env)));
        return concatStrings(parts, at);
      }
      case 'wrap':
        return { ...this.eval(unit, e.inner, env), at };
      case 'ident':
        return this.lookup(unit, node, e.name, env);
      case 'self':
        return this.selfValue(unit, node, env);
      case 'member':
        return this.member(unit, this.eval(unit, e.object, env), e.prop, node, env);
      case 'index':
        return this.index(unit, e.object, e.index, node, env);
      case 'slice':
        return this.slice(unit, e.object, e.lower, node, env, e.upper);
      case 'call':
        return this.call(unit, node, e.callee, e.args, env, false);
      case 'new':
        return this.call(unit, node, e.callee, e.args, env, true);
      case 'list':
        return this.list(unit, e.items, !!e.set, at, env);
      case 'dict':
        return this.dict(unit, e.entries, at, env);
      case 'binary':
        return this.binary(unit, e.op, e.left, e.right, at, env);
      case 'cond': {
        // `A if test else B`, `test ? A : B` with a test decided from values known in full: the alternative it picks.
        const decided = e.test && e.options.length === 2 ? this.decide(unit, e.test, env) : undefined;
        if (decided !== undefined) return this.eval(unit, e.options[decided ? 0 : 1], env);
        // `options.cacheTools ?? this.cacheTools`, `given or DEFAULT`: a first value known to be there (and true) is the value; one known to be absent leaves the default.
        const given = e.fallback && e.options.length === 2 ? this.givenOrAbsent(unit, e.options[0], env) : undefined;
        if (given === 'absent') return this.eval(unit, e.options[1], env);
        if (given) return given;
        let options = e.options.map((o) => this.eval(unit, o, env));
        // `betas or OMIT`, `system or NOT_GIVEN`: the SDK's marker of a parameter not sent. What is
        // sent, when anything is, is the value before it.
        if (e.fallback && options.length > 1 && this.notGivenMarker(options[options.length - 1])) options = options.slice(0, -1);
        const v = options.reduce((a, b) => union(a, b, at));
        // `options.model ?? "claude-…"`, `model or DEFAULT_MODEL`: the written default, when what comes before it is not known.
        if (e.fallback && v.kind === 'unknown' && options.slice(0, -1).every((o) => o.kind === 'unknown')) {
          const d = defaultOf(options[options.length - 1]);
          return d ? { ...v, fallback: d } : v;
        }
        // `A if user.is_admin else B`: which alternative is sent depends on the test.
        if (!e.test || (v.kind === 'str' && v.complete)) return v;
        // The test picks one of the written alternatives. When an alternative is request data
        // itself (`tool.strict if "strict" in tool else None`), or reads a name the test reads
        // (`parse(tool.extras) if tool.extras else {}`), the test picks nothing written: that
        // data's own taints already say how the value varies.
        if (options.some((o) => allTaints(o).some((t) => t.cls === 'per-request'))) return v;
        const tested = namesIn(unit, e.test);
        if (e.options.some((o) => [...namesIn(unit, o)].some((n) => tested.has(n)))) return v;
        const picked = this.perRequestIn(unit, e.test, env).map((t) => ({ ...t, kind: 'selector' as const }));
        return picked.length ? ({ ...v, taints: [...v.taints, ...picked] } as Value) : v;
      }
      case 'neg': {
        const v = this.eval(unit, e.arg, env);
        return v.kind === 'num' ? { ...v, value: -(v.value as number), at } : unknown(at, 'negated value', allTaints(v));
      }
      case 'comprehension':
        return this.comprehension(unit, e, at, env);
      case 'func':
        return this.withRef({ kind: 'function', unit, node }, at);
      default:
        return unknown(at);
    }
  }

  /**
   * The first operand of `a ?? b` / `a || b` / `a or b` when it decides the result: its value
   * when that is known to be true in a test (both operators then give it), 'absent' when it is
   * null or a key that a JavaScript object known in full does not have (both give `b`),
   * undefined otherwise (a false value is kept by `??` and dropped by `||`).
   */
  private givenOrAbsent(unit: FileUnit, node: Node, env?: Env): Value | 'absent' | undefined {
    const v = this.eval(unit, node, env);
    if (truthy(v, unit.adapter.family) === true) return v;
    if (v.kind === 'null') return 'absent';
    const e = unit.adapter.expr(node);
    if (unit.adapter.family === 'js' && v.kind === 'unknown' && e.k === 'member') {
      const obj = this.eval(unit, e.object, env);
      if (obj.kind === 'obj' && obj.complete && !obj.entries.some((x) => x.key === e.prop)) return 'absent';
    }
    return undefined;
  }

  /** A value interpolated into a string: its taints remember the interpolation site. */
  private embed(unit: FileUnit, expr: Node, whole: Node, env?: Env): Value {
    const v = this.eval(unit, expr, env);
    const embedAt = unit.loc(whole);
    // A text interpolated again: the earlier interpolation is kept as a step, for the user to follow.
    const mark = (t: Taint): Taint => {
      const inner = t.embed && !(t.embed.file === embedAt.file && t.embed.start === embedAt.start && t.embed.end === embedAt.end) ? [t.embed, ...(t.innerEmbeds ?? [])].slice(0, VALUE_LIMITS.chain) : t.innerEmbeds;
      return { ...t, embed: embedAt, ...(inner ? { innerEmbeds: inner } : {}) };
    };
    const taints = allTaints(v).map(mark);
    if (v.kind === 'str') return { ...v, taints };
    if (v.kind === 'num' || v.kind === 'bool') return { ...v, taints };
    return { kind: 'unknown', at: v.at, taints };
  }

  // ---- names ----

  /**
   * The library name a callee denotes (`json.dump`, `builtins.open`, `fs.writeFileSync`),
   * found from this file's own bindings and the existence of workspace modules, without
   * reading another file: the file-level rules ask it of every call, and following each one
   * into the workspace cost seconds per file on real repositories. Undefined when the callee
   * is not a plain name or attribute chain of a library (a local object, workspace code).
   * `packages`: a package imported by its absolute name is named even when its source is in
   * the workspace (`import instructor` inside the instructor repository is still instructor).
   */
  calleeName(unit: FileUnit, callee: Node, depth = 0, packages = false): string | undefined {
    // Asked of every call by several rules' views: kept per callee for this analysis (at depth 0
    // only, as the alias bound below depends on the depth; and only for the default `packages`).
    if (depth > 0 || packages) return this.calleeNameUncached(unit, callee, depth, packages);
    let known = this.calleeNames.get(unit);
    if (!known) this.calleeNames.set(unit, (known = new Map()));
    if (known.has(callee.id)) return known.get(callee.id);
    const name = this.calleeNameUncached(unit, callee, 0, false);
    known.set(callee.id, name);
    return name;
  }

  private readonly calleeNames = new Map<FileUnit, Map<number, string | undefined>>();

  private calleeNameUncached(unit: FileUnit, callee: Node, depth: number, packages: boolean): string | undefined {
    const props: string[] = [];
    let n = callee;
    for (;;) {
      const e = unit.adapter.expr(n);
      if (e.k === 'member') {
        props.unshift(e.prop);
        n = e.object;
      } else if (e.k === 'wrap') n = e.inner;
      else if (e.k === 'ident') break;
      else return undefined;
    }
    const rootName = (unit.adapter.expr(n) as { name: string }).name;
    const tail = props.length ? '.' + props.join('.') : '';
    const found = this.findBinding(unit, n, rootName);
    if (!found) {
      const global = unit.frontEnd.library.globalName(rootName);
      return global === undefined ? undefined : global + tail;
    }
    const b = found.binding;
    if (b.kind === 'import' && b.importFrom) {
      const { module, name } = b.importFrom;
      if (module.startsWith('.')) return undefined;
      if (!packages && unit.workspace.modulePath(unit, module) !== undefined) return undefined;
      const base = name === '*' || name === 'default' ? module : `${module}.${name}`;
      return base + tail;
    }
    if (b.kind !== 'assign' || !b.value || b.position !== undefined || depth >= 8) return undefined;
    // `const fs = require('fs')`, `const { writeFileSync } = require('node:fs')`.
    const v = unit.adapter.expr(b.value);
    if (v.k === 'call' && v.args.length === 1) {
      const fn = unit.adapter.expr(v.callee);
      const spec = unit.adapter.expr(v.args[0].value);
      if (fn.k === 'ident' && fn.name === 'require' && spec.k === 'str' && !this.findBinding(unit, v.callee, 'require')) {
        if (spec.value.startsWith('.') || unit.workspace.modulePath(unit, spec.value) !== undefined) return undefined;
        return spec.value + (b.key !== undefined ? `.${b.key}` : '') + tail;
      }
    }
    // An alias: `dump = json.dump`.
    if (b.key !== undefined || b.without) return undefined;
    const inner = this.calleeName(unit, b.value, depth + 1, packages);
    return inner === undefined ? undefined : inner + tail;
  }

  lookup(unit: FileUnit, use: Node, name: string, env?: Env): Value {
    const found = this.findBinding(unit, use, name);
    const local = found && !found.crossed ? found.binding : undefined;
    // A local that takes a parameter's name again (`system = system or ""`) is read as any local;
    // a name bound otherwise (a caller's receiver read as an instance, see methodCallerWithin) is what is bound.
    const retaken = local?.kind === 'assign' && !!found!.scope.bindings.get(name)?.some((x) => x.kind === 'param');
    if (env?.has(name) && !retaken) {
      // A parameter of the function being inlined: the argument, with what the function does to it
      // before the use (`system += extra`, `messages.append(...)`).
      return local?.kind === 'param' ? this.bindingValue(unit, found!.scope, local, use, false, env) : env.get(name)!;
    }
    if (!found) return this.global(unit, use, name);
    const binding = found.crossed ? found.binding : this.branchTaken(unit, found.scope, found.binding, use, env);
    return this.bindingValue(unit, found.scope, binding, use, found.crossed, env);
  }

  /**
   * The binding a use sees when the last one before it is written in one branch of an `if`
   * chain that the use is not inside: the chain is decided from what its tests compare
   * (`provider == APIProvider.ANTHROPIC` with `provider` passed by every caller), and the use
   * sees the last binding of the branch taken, or the one before the `if` when that branch
   * binds nothing. A test that is not known in full leaves the binding as it was (the last one
   * written before the use).
   */
  private branchTaken(unit: FileUnit, scope: Scope, b: Binding, use: Node, env?: Env, depth = 0): Binding {
    if (b.kind !== 'assign' && b.kind !== 'aug' && b.kind !== 'import' && b.kind !== 'function' && b.kind !== 'class') return b;
    if (depth > 3) return b;
    for (let n = b.at.parent; n && n.id !== scope.node.id; n = n.parent) {
      if (unit.adapter.isScope(n)) return b;
      let branches = unit.adapter.ifBranches(n);
      if (!branches) continue;
      // `else if` is an `if` inside the else part of another: the chain is decided from its head.
      let head: Node = n;
      for (;;) {
        const outer: Node | null | undefined = head.parent?.parent;
        const more = outer ? unit.adapter.ifBranches(outer) : undefined;
        // The outer chain ends with this one's branches (`if (a) … else if (b) … else …`).
        if (!outer || !more || more.length <= branches.length || more[more.length - 1].body.id !== branches[branches.length - 1].body.id) break;
        head = outer;
        branches = more;
      }
      // A use inside the same `if` (in the branch that binds, or in a later one) is left alone.
      if (use.startIndex >= head.startIndex && use.endIndex <= head.endIndex) return b;
      let taken: { body: Node } | undefined;
      for (const br of branches) {
        if (!br.test) {
          taken = br;
          break;
        }
        const holds = this.decide(unit, br.test, env);
        if (holds === undefined) {
          const something = this.onlyValueOf(unit, scope, b, use, head, branches);
          return something && something !== b ? this.branchTaken(unit, scope, something, use, env, depth + 1) : b;
        }
        if (holds) {
          taken = br;
          break;
        }
      }
      const list = (scope.bindings.get(b.name) ?? []).filter((x) => x.kind !== 'aug' && x.nameNode.startIndex < use.startIndex);
      const body = taken?.body;
      const inTaken = body ? list.filter((x) => x.nameNode.startIndex >= body.startIndex && x.nameNode.endIndex <= body.endIndex) : [];
      const pick = inTaken.length ? inTaken[inTaken.length - 1] : list.filter((x) => x.nameNode.endIndex <= head.startIndex).pop();
      if (!pick) return b;
      return pick === b ? b : this.branchTaken(unit, scope, pick, use, env, depth + 1);
    }
    return b;
  }

  /**
   * When the chain cannot be decided: the one binding that gives the name a value, when every
   * other way through the chain leaves it None / null / unset (`if text: system = [...]` /
   * `else: system = None`). Nothing is sent on those ways, so what is sent is that value.
   */
  private onlyValueOf(unit: FileUnit, scope: Scope, b: Binding, use: Node, head: Node, branches: Array<{ test?: Node; body: Node }>): Binding | undefined {
    const list = (scope.bindings.get(b.name) ?? []).filter((x) => x.kind !== 'aug' && x.nameNode.startIndex < use.startIndex);
    const before = list.filter((x) => x.nameNode.endIndex <= head.startIndex).pop();
    const ways = branches.map((br) => list.filter((x) => x.nameNode.startIndex >= br.body.startIndex && x.nameNode.endIndex <= br.body.endIndex).pop() ?? before);
    if (branches.every((br) => br.test)) ways.push(before);
    const nothing = (x: Binding | undefined) => !x || (x.kind === 'assign' && x.key === undefined && x.position === undefined && (!x.value || unit.adapter.expr(x.value).k === 'null'));
    const values = [...new Set(ways.filter((x) => !nothing(x)))];
    return values.length === 1 && ways.some(nothing) ? values[0] : undefined;
  }

  /**
   * Whether a test holds on every run, read from comparisons of values known in full (no
   * taint, nothing unresolved) and the boolean operators over them; undefined when it is not
   * known.
   */
  /**
   * Whether a test holds, when that is known. `avoid`: a part of the test whose text it matches
   * is not decided (see reached); `and`, `or` and `not` around such parts still decide from the
   * others (`self.cache_tools and kw["tools"]` is false when `cache_tools` is).
   */
  decide(unit: FileUnit, test: Node, env?: Env, depth = 0, avoid?: NameReader): boolean | undefined {
    if (depth > 8) return undefined;
    const e = unit.adapter.expr(test);
    if (e.k === 'wrap') return this.decide(unit, e.inner, env, depth + 1, avoid);
    if (e.k === 'bool') return e.value;
    const c = unit.adapter.condition(test);
    if (avoid && !(c && (c.op === 'not' || c.op === 'and' || c.op === 'or')) && this.readsChanged(unit, test, avoid)) return undefined;
    if (!c && e.k === 'call') {
      // `isinstance(system, str)` on a value whose kind is known.
      const f = unit.frontEnd.facts.condition(test);
      return f.k === 'instance' ? this.isInstance(this.eval(unit, f.subject, env), f.cls) : undefined;
    }
    // `if self.cache_tools:`, `if (this.options.longCache)`: the truth of a value known in full.
    if (!c) return e.k === 'ident' || e.k === 'member' || e.k === 'self' ? truthy(this.eval(unit, test, env), unit.adapter.family) : undefined;
    if (c.op === 'not') {
      const d = this.decide(unit, c.operands[0], env, depth + 1, avoid);
      return d === undefined ? undefined : !d;
    }
    // The right operand is read only when the left one leaves the answer open: reading it can
    // parse the modules it names (an enum compared with, a class of a large module). On the
    // real-code corpus that was 2.4% of the evaluation steps, for the same findings.
    if (c.op === 'and' || c.op === 'or') {
      const l = this.decide(unit, c.operands[0], env, depth + 1, avoid);
      if (l === (c.op === 'or')) return l;
      const r = this.decide(unit, c.operands[1], env, depth + 1, avoid);
      if (c.op === 'and') return r === false ? false : l === true && r === true ? true : undefined;
      return r === true ? true : l === false && r === false ? false : undefined;
    }
    const l = comparableKeys(this.eval(unit, c.operands[0], env));
    if (!l) return undefined;
    const r = comparableKeys(this.eval(unit, c.operands[1], env));
    // Values of different kinds are not compared (JavaScript's `==` converts them).
    if (!r || l.some((x) => r.some((y) => x[0] !== y[0]))) return undefined;
    // Equal whichever each side is, or different whichever each side is (`role == "system"` with role one of "user", "assistant").
    const equal = l.length === 1 && r.length === 1 && l[0] === r[0] ? true : l.every((x) => r.every((y) => x !== y)) ? false : undefined;
    return equal === undefined ? undefined : equal === (c.op === 'eq');
  }

  /**
   * Whether a test reads the value being changed (`avoid` matches its name): by name, or through a
   * name bound to a part of it by one plain assignment (`prev = history[-1]` for a change of
   * `history`). Such a test is about the value's contents: deciding it evaluates the value, and
   * so the very changes being applied, again (agno's message-merging loop: its module's
   * analysis took 6,500 evaluation steps with those tests decided, 3,682 without).
   */
  private readsChanged(unit: FileUnit, test: Node, avoid: NameReader): boolean {
    if (avoid.test(test.text)) return true;
    for (const name of namesIn(unit, test)) {
      const bound = this.boundExpression(unit, test, name);
      if (bound && avoid.test(bound.text)) return true;
    }
    return false;
  }

  /** The expression a name is bound to by one plain assignment (`p = state_path(name)`), if it is. */
  boundExpression(unit: FileUnit, use: Node, name: string): Node | undefined {
    const b = this.findBinding(unit, use, name)?.binding;
    return b?.kind === 'assign' && b.value && b.key === undefined && !b.without && b.position === undefined ? b.value : undefined;
  }

  findBinding(unit: FileUnit, use: Node, name: string): { scope: Scope; binding: Binding; crossed: boolean } | undefined {
    return lookUp(unit, use, name, undefined) ?? undefined;
  }

  private global(unit: FileUnit, use: Node, name: string): Value {
    const at = unit.loc(use);
    const global = unit.frontEnd.library.globalName(name);
    return global === undefined ? unknown(at, `unresolved name ${name}`) : this.withRef({ kind: 'external', name: global }, at);
  }


  private bindingValue(unit: FileUnit, scope: Scope, b: Binding, use: Node, crossed: boolean, env?: Env): Value {
    const step = unit.loc(b.at);
    let v: Value;
    switch (b.kind) {
      case 'assign': {
        if (!b.value) return unknown(unit.loc(b.nameNode));
        // Locals of a function being inlined may use its parameters.
        v = this.eval(unit, b.value, scope.parent ? env : undefined);
        if (b.key !== undefined) v = this.member(unit, v, b.key, b.nameNode, env);
        if (b.position !== undefined) v = this.itemAt(v, b.position, unit.loc(b.nameNode));
        if (b.fallback) v = withFallback(v, this.eval(unit, b.fallback, scope.parent ? env : undefined), unit.loc(b.nameNode));
        if (b.without) v = withoutKeys(v, b.without, unit.loc(b.nameNode));
        break;
      }
      case 'param': {
        if (env?.has(b.name)) {
          v = this.declared(unit, scope.node, b.name, env.get(b.name)!);
          break;
        }
        const taint: Taint = { cls: 'per-request', kind: 'parameter', at: unit.loc(b.nameNode), text: b.name, chain: [] };
        v = this.paramFromCallers(unit, scope.node, b, taint) ?? this.paramDefault(unit, scope.node, b, unknown(unit.loc(b.nameNode), `parameter ${b.name}`, [taint]));
        v = this.declared(unit, scope.node, b.name, v);
        break;
      }
      case 'loop': {
        if (!b.value) return unknown(unit.loc(b.nameNode));
        const iterEnv = scope.parent ? env : undefined;
        const iter = this.eval(unit, b.value, iterEnv);
        v = this.itemOf(this.narrowed(unit, b, iter, use, iterEnv), unit.loc(b.nameNode));
        // A loop variable that is not one known value differs from one iteration to the next.
        if (!isComplete(v)) v = { ...v, taints: [...v.taints, { cls: 'per-request', kind: 'loop-variable', at: unit.loc(b.nameNode), text: b.name, chain: [] }] };
        break;
      }
      case 'import':
        v = this.importValue(unit, b);
        break;
      case 'function':
        return this.withRef({ kind: 'function', unit, node: b.value! }, unit.loc(b.nameNode));
      case 'class':
        return this.withRef({ kind: 'class', unit, node: b.value! }, unit.loc(b.nameNode));
      default:
        return unknown(unit.loc(b.nameNode), `${b.name} (not followed)`);
    }
    // Augmented assignments and in-place list changes between the binding and the use.
    const limit = crossed ? Infinity : use.startIndex;
    const augs = (scope.bindings.get(b.name) ?? []).filter((a) => a.kind === 'aug' && a.nameNode.startIndex > b.nameNode.startIndex && a.nameNode.startIndex < limit);
    const localEnv = scope.parent ? env : undefined;
    for (const a of augs) {
      const rhs = this.eval(unit, a.value!, localEnv);
      v = this.combine(a.op ?? '+', v, rhs, unit.loc(a.at), unit.loc(a.value!));
    }
    let mutations = (scope.mutations.get(b.name) ?? []).filter((m) => m.node.startIndex > b.nameNode.startIndex && m.node.startIndex < limit);
    // A use inside a loop also sees what the rest of the loop body did in earlier iterations
    // (`create(messages=...)` at the top of an agent loop, `messages.append(...)` below it).
    const loop = crossed ? undefined : loopAround(unit.adapter, use, b.nameNode, scope.node);
    if (loop) {
      const all = scope.mutations.get(b.name) ?? [];
      const earlier = all.filter((m) => m.node.startIndex >= use.endIndex && m.node.endIndex <= loop.endIndex);
      const before = mutations.filter((m) => m.node.startIndex < loop.startIndex);
      const current = mutations.filter((m) => m.node.startIndex >= loop.startIndex);
      mutations = [...before, ...earlier, ...current];
    }
    // Changes made by the functions it is handed to (`self._apply_cache_tools(kw)`), in order with its own.
    // Only in functions: a module's own statements seldom hand its constants to a helper that
    // changes them, and reading a module's calls on every look-up of a constant costs the editor.
    const handed = scope.parent && (v.kind === 'list' || v.kind === 'obj') ? this.callsPassing(unit, scope, b.name).filter((c) => c.startIndex > b.nameNode.startIndex && c.startIndex < limit && this.handsToChange(unit, c, b.name, 0)) : [];
    if (!handed.length) {
      if (mutations.length && (v.kind === 'list' || v.kind === 'unknown' || v.kind === 'obj')) v = this.applyMutations(unit, scope.node, v, mutations, localEnv);
    } else {
      // In a loop, the changes of earlier iterations came first (see above): the calls' then follow all of them.
      v = this.applyInOrder(unit, scope.node, v, b.name, mutations, handed, localEnv, true, !loop);
    }
    return b.kind === 'param' ? v : withChainStep(v, step);
  }

  /** An unknown parameter value with the type its function declares for it (UnknownValue.declared). */
  private declared(unit: FileUnit, fn: Node, name: string, v: Value): Value {
    if (v.kind !== 'unknown' || v.ref !== undefined || v.declared || v.alternatives) return v;
    if (!unit.adapter.isFunction(fn)) return v;
    const annotation = unit.adapter.functionInfo(fn).params.find((p) => p.name === name)?.annotation;
    return annotation === 'str' ? { ...v, declared: 'str' } : v;
  }

  /** Whether `isinstance(value, cls)` holds, when the value says (`cls` by its last name). */
  private isInstance(v: Value, cls: string): boolean | undefined {
    const kind = v.kind === 'unknown' ? (v.ref === undefined ? v.declared : undefined) : v.ref === undefined ? v.kind : undefined;
    if (!kind || !BUILTIN_TYPES.has(cls)) return undefined;
    switch (kind) {
      case 'str':
        return cls === 'str';
      case 'obj':
        return cls === 'dict' ? true : cls === 'str' || cls === 'list' || cls === 'tuple' ? false : undefined;
      case 'list':
        // A list value may be a list or a tuple (or a set): only which of those it is not is known.
        return cls === 'str' || cls === 'dict' ? false : undefined;
      default:
        return undefined;
    }
  }

  /**
   * The items of a loop's iterable that can reach `use`: a use under `if message.role ==
   * "system":` (or in its `else`) inside the loop sees only the items for which that test can
   * hold, each test decided with the loop variable bound to the item (`m["role"]`,
   * `ChatMessage(role="system", ...).role`). Items whose test is not known are kept, and so is
   * what an incomplete list may hold besides its items. A test that reads `changing` (the list
   * the items are appended to) is not decided.
   */
  private narrowed(unit: FileUnit, b: Binding, iter: Value, use: Node, env?: Env, changing?: string): Value {
    if (iter.kind !== 'list') return iter;
    const items = listedItems(iter);
    if (!items.length || items.length > MAX_NARROWED_ITEMS) return iter;
    const guards = this.guardsOf(unit, use, b);
    if (!guards.length) return iter;
    // A guard that reads the list being filled is about its contents (see decide's `avoid`).
    const avoid = changing ? readerOf(changing) : undefined;
    const kept = items.filter((item) => {
      const bound: Env = new Map(env ?? []);
      bound.set(b.name, item);
      return guards.every((g) => this.decide(unit, g.test, bound, 0, avoid) !== !g.holds);
    });
    if (kept.length === items.length) return iter;
    const { possible: _possible, ...rest } = iter;
    return { ...rest, items: kept };
  }

  /**
   * What `list.append(item)` adds when `item` is the variable of a loop around the append over a
   * list: the items that can reach the append (see narrowed), as they are, and the taints of
   * what the list may hold besides them. Undefined for any other argument. `changing`: the name of
   * the list appended to, whose guards are not decided (see narrowed).
   */
  private loopItems(unit: FileUnit, arg: Node, at: Node, env?: Env, changing?: string): { items: Value[]; taints: Taint[]; seen: boolean } | undefined {
    const e = unit.adapter.expr(arg);
    if (e.k !== 'ident' || env?.has(e.name)) return undefined;
    const found = this.findBinding(unit, arg, e.name);
    const b = found?.binding;
    if (!b || found.crossed || b.kind !== 'loop' || !b.value || at.startIndex < b.at.startIndex || at.endIndex > b.at.endIndex) return undefined;
    const iter = this.eval(unit, b.value, found.scope.parent ? env : undefined);
    const kept = this.narrowed(unit, b, iter, arg, found.scope.parent ? env : undefined, changing);
    if (kept.kind !== 'list' || !listedItems(kept).length) return undefined;
    const repeated = unit.loc(b.at);
    return { items: listedItems(kept).map((x) => ({ ...x, repeated }) as Value), taints: itemsSeen(kept) ? [] : kept.taints.filter((t) => t.cls !== 'unordered'), seen: itemsSeen(kept) };
  }

  /**
   * The tests between a loop statement and a use inside it that must hold (or fail) for the use
   * to run, and that read the loop variable: the `if` / `elif` / `else if` branch the use is in
   * and the branches before it.
   */
  private guardsOf(unit: FileUnit, use: Node, b: Binding): Array<{ test: Node; holds: boolean }> {
    const loop = b.at;
    if (use.startIndex < loop.startIndex || use.endIndex > loop.endIndex) return [];
    const out: Array<{ test: Node; holds: boolean }> = [];
    const reads = (test: Node) => namesIn(unit, test).has(b.name);
    for (let n: Node | null = use.parent, depth = 0; n && n.id !== loop.id && depth < 64; n = n.parent, depth++) {
      if (unit.adapter.isFunction(n)) return [];
      const branches = unit.adapter.ifBranches(n);
      if (!branches) continue;
      const k = branches.findIndex((br) => use.startIndex >= br.body.startIndex && use.endIndex <= br.body.endIndex);
      if (k < 0) continue;
      for (let j = 0; j <= k; j++) {
        const test = branches[j].test;
        if (test && reads(test)) out.push({ test, holds: j === k });
      }
    }
    return out;
  }

  /**
   * A parameter's value from the calls of its function in the same file (`_call_model(system=f"...
   * {datetime.now()}")` reaches the `system` of the request inside `_call_model`): the arguments
   * of every call, joined. A call that passes something unknown, or a spread, keeps the
   * parameter's own taint (per-request until shown otherwise). Undefined when there is no call
   * to follow, or too many.
   */
  private paramFromCallers(unit: FileUnit, fn: Node, b: Binding, taint: Taint): Value | undefined {
    const key = `${unit.file}\u0000${b.nameNode.id}`;
    const known = this.params.get(key);
    if (known === PENDING) return undefined;
    if (this.params.has(key)) return known;
    this.params.set(key, PENDING);
    let v: Value | undefined;
    const cuts = this.budget.cuts;
    try {
      v = this.paramFromCallersUncached(unit, fn, b, taint);
    } finally {
      if (this.budget.cuts === cuts) this.params.set(key, v);
      else this.params.delete(key);
    }
    return v;
  }

  private paramFromCallersUncached(unit: FileUnit, fn: Node, b: Binding, taint: Taint): Value | undefined {
    const callers = this.callersOf(unit, fn);
    if (!callers.length || callers.length > MAX_CALLERS) return undefined;
    const info = unit.adapter.functionInfo(fn);
    const p = info.params.find((x) => x.name === b.name);
    if (!p || p.rest || p.kwrest) return undefined;
    const values: Value[] = [];
    /** For each value: passed by a call the file cannot vouch for. */
    const fromOther: boolean[] = [];
    let unseen = false;
    for (const c of callers) {
      const shift = c.method && info.receiver ? 1 : 0;
      const positional = c.args.filter((a) => !a.name && !a.spread);
      const arg = c.args.find((a) => a.name === p.name && p.key === undefined) ?? (p.index >= shift && !c.args.some((a) => a.spread && a.spread !== 'dict') ? positional[p.index - shift] : undefined);
      // What a call the file cannot vouch for passes is read within a bound of its own: a caller's
      // argument may be built by much code of its own file, which this file's analysis should not pay for.
      const read = (n: Node) => (c.other ? this.callerPart(CALLER_STEPS, () => this.eval(c.unit, n, c.env), () => unknown(c.unit.loc(n), 'analysis limit')) : this.eval(c.unit, n, c.env));
      const before = values.length;
      if (arg) values.push(withChainStep(this.paramPart(unit, p, read(arg.value), b.nameNode), c.unit.loc(arg.value)));
      else if (p.default && !c.args.some((a) => a.spread)) values.push(this.paramPart(unit, p, this.eval(unit, p.default), b.nameNode));
      else unseen = true;
      if (values.length > before) fromOther.push(!!c.other);
      // Called from another file or on a receiver nothing resolves: other calls may exist that are not seen.
      if (c.other) unseen = true;
    }
    if (!values.length) return undefined;
    const at = unit.loc(b.nameNode);
    // A call elsewhere whose argument is not known says no more than a call not seen: its taints
    // stay, on the whole value, and the others' lists and objects keep their items (its unknown
    // would otherwise stand for any item, and put what one caller sends in its newest turn at `[0]`).
    const opaque = values.filter((x, i) => x.kind === 'unknown' && fromOther[i]);
    if (opaque.length && opaque.length < values.length) {
      const known = values.filter((x) => !opaque.includes(x));
      const merged = known.length === 1 ? { ...known[0], at } : known.reduce((x, y) => union(x, y, at));
      values.splice(0, values.length, { ...merged, taints: [...merged.taints, ...opaque.flatMap(allTaints)] } as Value);
      unseen = true;
    }
    let v = values.length === 1 ? { ...values[0], at } : values.reduce((x, y) => union(x, y, at));
    const written = values[0].at;
    if (written && values.every((x) => x.at && x.at.file === written.file && x.at.start === written.start && x.at.end === written.end)) v = { ...v, passedFrom: written };
    // What an unseen caller passes is not known: the parameter stays per-request for the rules' own evidence.
    if (unseen || values.some((x) => stabilityOf(x) === 'unknown')) v = { ...v, taints: [...v.taints, taint] } as Value;
    // Nor is it one of the texts the seen callers pass.
    if (unseen && v.kind === 'unknown' && v.oneOf) v = { ...v, oneOf: undefined };
    return v.kind === 'unknown' ? this.paramDefault(unit, fn, b, v) : v;
  }

  /** An unknown parameter value with the parameter's written default as its fallback (`def ask(q, model="claude-…")`). */
  private paramDefault(unit: FileUnit, fn: Node, b: Binding, v: Value): Value {
    if (v.kind !== 'unknown' || v.fallback) return v;
    const p = unit.adapter.functionInfo(fn).params.find((x) => x.name === b.name);
    const written = p && (p.key !== undefined ? p.keyDefault : p.default);
    const d = written && !p.rest && !p.kwrest && !p.without ? defaultOf(this.eval(unit, written)) : undefined;
    return d ? { ...v, fallback: d } : v;
  }

  /**
   * What a parameter holds of the argument passed for it: the argument itself, or for a
   * destructured parameter (`{ system, docs = [] }`) its key, the key's default when an object
   * known in full has no such key, or the argument without the keys taken before a rest element.
   * `unit` is the function's file (where the defaults are written).
   */
  private paramPart(unit: FileUnit, p: FunctionInfo['params'][number], arg: Value, at: Node): Value {
    if (p.without) return withoutKeys(arg, p.without, unit.loc(at));
    if (p.key === undefined) return arg;
    if (arg.kind === 'obj' && arg.complete && !arg.entries.some((e) => e.key === p.key)) return p.keyDefault ? this.eval(unit, p.keyDefault) : unknown(unit.loc(at), `key ${p.key}`);
    const v = this.member(unit, arg, p.key, at);
    // A default replaces only what may be `undefined`: a value that is not known.
    return p.keyDefault && v.kind === 'unknown' ? withFallback(v, this.eval(unit, p.keyDefault), unit.loc(at)) : v;
  }

  /**
   * The calls of a function whose arguments its parameters take: in the same file, by its name
   * where that name is bound to it; for a method of a class, `self.name(...)` / `this.name(...)`
   * in its class, and `x.name(...)` on a value that is an instance of the class. A method of a
   * class in a file that sends requests is also called from the other files of the project
   * (when all of them are seen): on an instance of the class, or on a receiver that nothing
   * resolves (`llm.reply(messages)` with `llm` passed in, chosen among several classes, built by
   * a factory). Such a call reaches the method only when its receiver is an instance of the
   * class, so its arguments are read with that receiver standing for one (`llm.build(...)` in
   * them is this class's `build`). Calls inside the function itself are left out; a kind of
   * caller with more calls than MAX_CALLERS (a name that many classes use) is not followed.
   */
  private callersOf(unit: FileUnit, fn: Node): Caller[] {
    const key = `${unit.file}\u0000${fn.id}`;
    const known = this.callers.get(key);
    if (known) return known;
    const out: Caller[] = [];
    this.callers.set(key, out);
    const name = unit.frontEnd.facts.functionName(fn)?.replace(/^#/, '');
    if (!name) return out;
    const cls = unit.enclosingClass(fn);
    const method = cls && unit.classMembers(cls).get(name)?.some((d) => d.id === fn.id) ? cls : undefined;
    const seen: Caller[] = [];
    const elsewhere: Caller[] = [];
    for (const node of unit.callsNamed(name)) {
      if (node.startIndex >= fn.startIndex && node.endIndex <= fn.endIndex) continue;
      const e = unit.adapter.expr(node);
      if (e.k !== 'call') continue;
      const c = unit.adapter.expr(e.callee);
      if (c.k === 'ident' && c.name === name) {
        const found = this.findBinding(unit, e.callee, name)?.binding;
        if (found?.kind === 'function' && found.value?.id === fn.id) seen.push({ unit, node, args: e.args, method: false });
      } else if (c.k === 'member' && c.prop === name && method) {
        if (unit.adapter.expr(c.object).k === 'self' && unit.enclosingClass(node)?.id === method.id) seen.push({ unit, node, args: e.args, method: true });
        else this.methodCaller(unit, node, c.object, e.args, unit, method, fn, seen, elsewhere);
      }
    }
    // Private methods (`#build`, `_build`) are the class's own; a constructor is called through the class.
    const ownName = /^[#_]/.test(unit.frontEnd.facts.functionName(fn) ?? '') || name === 'constructor' || name === '__init__';
    if (method && !ownName && mayHoldRequests(unit.text)) {
      for (const other of this.callerFiles(unit, name, false, (text) => callsOnOtherReceiver(text, name))) {
        for (const node of other.callsNamed(name)) {
          const e = other.adapter.expr(node);
          const c = e.k === 'call' ? other.adapter.expr(e.callee) : undefined;
          if (e.k === 'call' && c?.k === 'member' && c.prop === name) this.methodCaller(other, node, c.object, e.args, unit, method, fn, elsewhere, elsewhere);
        }
      }
    }
    // In a file that sends requests, or on the way up from one: a caller's argument is a parameter
    // of its own function, which callers in other files fill (a value passed down several calls).
    if (!cls && !ownName && this.atTopLevel(unit, fn) && (this.inCallers > 0 || mayHoldRequests(unit.text))) this.importedFunctionCallers(unit, fn, name, elsewhere);
    out.push(...seen);
    // Calls the file cannot vouch for: many of them, and the name is not this class's alone.
    if (elsewhere.length <= MAX_CALLERS) out.push(...elsewhere);
    return out;
  }

  /** Whether a function is written at the top of its module (not in a function or a class). */
  private atTopLevel(unit: FileUnit, fn: Node): boolean {
    for (let n = fn.parent; n; n = n.parent) if (unit.adapter.isFunction(n) || unit.adapter.isClass(n)) return false;
    return true;
  }

  /**
   * The calls of a top-level function `fn` of a file that sends requests made from the other
   * files of the project (when all of them are seen) that import it: by name (`ask(context, q)`
   * after `from app.llm import ask`) or through its module (`llm.ask(context, q)`). A call counts
   * when its callee, read in its own file, is this function.
   */
  private importedFunctionCallers(unit: FileUnit, fn: Node, name: string, out: Caller[]): void {
    // The module's default export is imported under any name (`import send from './llm'`): the
    // files that import the module's default are asked too (callIndex.ts's callDigest).
    const isDefault = isFunction(this.refOf(this.exportValue(unit, 'default')), unit, fn);
    const files = new Map<string, FileUnit>();
    for (const other of this.callerFiles(unit, name, true)) files.set(other.file, other);
    if (isDefault) for (const other of this.callerFiles(unit, `default:${moduleBaseName(unit.file)}`, true)) files.set(other.file, other);
    for (const other of files.values()) {
      // The names the function has there: its own, and what an import binds it to
      // (`from app.llm import complete as send`, `import { complete as send }`, a default import).
      const locals = new Set([name]);
      for (const imp of importedNamesOf(other.language, other.text)) {
        if (imp.local === name || !(imp.name === name || (isDefault && imp.name === 'default'))) continue;
        if (other.workspace.importTargets(other.file, other.language, imp).includes(unit.file)) locals.add(imp.local);
      }
      for (const local of locals) {
        for (const node of other.callsNamed(local)) {
          const e = other.adapter.expr(node);
          if (e.k !== 'call') continue;
          const c = other.adapter.expr(e.callee);
          // Through its module (`llm.complete(...)`) it has its own name, read once.
          if (!((c.k === 'ident' && c.name === local) || (c.k === 'member' && c.prop === name && local === name))) continue;
          const callee = this.callerPart(RECEIVER_STEPS, () => this.refOf(this.eval(other, e.callee)), () => undefined);
          if (isFunction(callee, unit, fn)) out.push({ unit: other, node, args: e.args, method: false, other: true });
        }
      }
    }
  }

  /**
   * The other files of the project that may call `name` (Workspace.filesCalling; with `plain`,
   * also on its own), parsed one at a time as they are taken, among those whose text `accepts`:
   * none when more than MAX_CALLERS files of the language call it (a name that many files call is
   * not this function's or class's alone), and the files read only to look for calls share
   * CALLER_CHARS per analysis (some are large).
   */
  private *callerFiles(unit: FileUnit, name: string, plain: boolean, accepts: (text: string) => boolean = () => true): Generator<FileUnit> {
    // The project's index of calls is read once for all analyses: its time is not this file's.
    const started = performance.now();
    const family = unit.adapter.family;
    const files = unit.workspace.filesCalling(unit.file, name, plain, family) ?? [];
    this.budget.exclude(performance.now() - started);
    const candidates = files.filter((f) => !unit.frontEnd.modules.isTestFile(f));
    if (candidates.length > MAX_CALLERS) return;
    for (const f of candidates) {
      const text = unit.workspace.source(f)?.text;
      if (!text || !accepts(text) || !this.budget.spend()) continue;
      if (!this.units.has(f)) {
        if (this.callerChars + text.length > CALLER_CHARS) continue;
        this.callerChars += text.length;
      }
      const other = this.parsed(unit, f);
      if (other) yield other;
    }
  }

  /**
   * Adds a call `receiver.name(args)` in `caller` as a call of the method `fn` of class `cls`
   * (in `unit`): to `instance` when the receiver is an instance of the class, to `unresolved`
   * when nothing resolves it (see callersOf); neither when it is something else (an instance of
   * another class, a library object, a text), or passes more arguments than the method takes.
   */
  private methodCaller(caller: FileUnit, node: Node, receiver: Node, args: Arg[], unit: FileUnit, cls: Node, fn: Node, instance: Caller[], unresolved: Caller[]): void {
    this.callerPart(
      RECEIVER_STEPS,
      () => this.methodCallerWithin(caller, node, receiver, args, unit, cls, fn, instance, unresolved),
      () => undefined,
    );
  }

  /**
   * Reads something of a call that this file cannot vouch for (its receiver, what it passes),
   * within `steps`, and within what is left of ALL_CALLER_STEPS for the analysis: a caller's
   * argument may be built by much code of its own file, and its receiver by a factory that
   * loads every class it could be, which this file's analysis should not pay for without bound.
   * `spent` answers once nothing is left.
   */
  private callerPart<T>(steps: number, part: () => T, spent: () => T): T {
    const left = ALL_CALLER_STEPS - this.callerSteps;
    if (left <= 0) return spent();
    const before = this.budget.steps;
    this.inCallers++;
    try {
      return this.budget.within(Math.min(steps, left), part);
    } finally {
      this.inCallers--;
      this.callerSteps += this.budget.steps - before;
    }
  }

  /** How many callerPart reads are under way: a caller's argument is being read in its own file. */
  private inCallers = 0;

  /** Steps spent in callerPart so far. */
  private callerSteps = 0;

  private methodCallerWithin(caller: FileUnit, node: Node, receiver: Node, args: Arg[], unit: FileUnit, cls: Node, fn: Node, instance: Caller[], unresolved: Caller[]): void {
    // An instance of the class is made where its class is imported (read already); a receiver
    // made by a factory that loads every class it could be reads no more files to say it is none.
    const saved = this.readsNoFiles;
    this.readsNoFiles = true;
    let r: Value;
    try {
      r = this.eval(caller, receiver);
    } finally {
      this.readsNoFiles = saved;
    }
    const ref = this.refOf(r);
    // An instance of the class, or the class itself (a static or class method).
    if (ref?.kind === 'instance' || ref?.kind === 'class') {
      const c = ref.kind === 'instance' ? ref.cls : ref.node;
      if (ref.unit.file === unit.file && c.startIndex === cls.startIndex && c.endIndex === cls.endIndex) instance.push({ unit: caller, node, args, method: true, other: caller !== unit });
      return;
    }
    if (ref || r.kind !== 'unknown' || this.readFromLibrary(caller, receiver)) return;
    const info = unit.adapter.functionInfo(fn);
    const takes = Math.max(0, ...info.params.filter((p) => !p.kwrest && !p.rest).map((p) => p.index + 1)) - (info.receiver ? 1 : 0);
    if (!info.params.some((p) => p.rest) && args.filter((a) => !a.name && !a.spread).length > takes) return;
    if (!this.usedAsClass(caller, receiver, node, unit, cls, unit.frontEnd.facts.functionName(fn)?.replace(/^#/, '') ?? '')) return;
    // `llm.reply(llm.build(...))`: the receiver, where the arguments read it, is an instance of the class.
    const e = caller.adapter.expr(receiver);
    let env: Env | undefined;
    if (e.k === 'ident') {
      // One for each name in a file: the calls that read the same locals share what is evaluated with it.
      const key = `${caller.file}\u0000${e.name}\u0000${unit.file}\u0000${cls.startIndex}`;
      env = this.receiverEnvs.get(key);
      if (!env) this.receiverEnvs.set(key, (env = new Map([[e.name, this.withRef({ kind: 'instance', unit, cls }, caller.loc(receiver))]])));
    }
    unresolved.push({ unit: caller, node, args, method: true, other: true, ...(env ? { env } : {}) });
  }

  private readonly receiverEnvs = new Map<string, Env>();

  /**
   * A receiver that nothing resolves is taken for an instance of the class only when the code
   * also uses another member of the class on it (`llm.buildMessages(...)` then
   * `llm.complete(messages)`; `this.provider.supportsTools` and `this.provider.run(...)`): in the
   * function of the call, or for an attribute of `this` / `self`, in its class. One method name
   * alone is no sign of the class (a cache's `complete(key)`).
   */
  private usedAsClass(caller: FileUnit, receiver: Node, call: Node, unit: FileUnit, cls: Node, name: string): boolean {
    const members = this.membersWithBases(unit, cls);
    const written = (n: Node) => n.text.replace(/\s+|\?(?=\.)/g, '');
    const target = written(receiver);
    const e = caller.adapter.expr(receiver);
    const onSelf = e.k === 'member' && caller.adapter.expr(e.object).k === 'self';
    const scope = onSelf ? caller.enclosingClass(call) : caller.enclosingFunction(call);
    if (!scope) return false;
    let found = false;
    walk(scope, (n) => {
      if (found || !n.text.startsWith(target.slice(0, 1))) return;
      const m = caller.adapter.expr(n);
      if (m.k === 'member' && m.prop !== name && members.has(m.prop) && written(m.object) === target) found = true;
    });
    return found;
  }

  /** The member names of a class and of the classes it extends (as far as they resolve, three levels up). */
  private membersWithBases(unit: FileUnit, cls: Node, depth = 0): Set<string> {
    const out = new Set(unit.classMembers(cls).keys());
    if (depth >= 3) return out;
    for (const base of unit.adapter.classHeader(cls).bases.match(/[A-Za-z_$][\w$]*/g) ?? []) {
      if (base === 'extends' || base === 'implements' || base === 'object') continue;
      const ref = this.refOf(this.lookup(unit, cls, base));
      if (ref?.kind === 'class') for (const m of this.membersWithBases(ref.unit, ref.node, depth + 1)) out.add(m);
    }
    return out;
  }
  /** Characters of the files read only to look for calls of a method (see callersOf). */
  private callerChars = 0;

  /** A receiver read from a library object (`this.client.messages`, `openai.chat.completions`): a library call, not the class's. */
  private readFromLibrary(unit: FileUnit, receiver: Node): boolean {
    for (let n = receiver, depth = 0; depth < 8; depth++) {
      const e = unit.adapter.expr(n);
      const next = e.k === 'member' || e.k === 'index' ? e.object : e.k === 'call' ? e.callee : e.k === 'wrap' ? e.inner : undefined;
      if (!next) return false;
      const kind = this.refOf(this.eval(unit, next))?.kind;
      if (kind === 'external' || kind === 'external-instance' || kind === 'module') return true;
      n = next;
    }
    return false;
  }

  /**
   * Another file of the workspace, parsed; reading and parsing it counts against the budget (a
   * step per 1,000 characters). One analysis reads each file once, whatever the workspace keeps:
   * what is evaluated in it is kept by node, and a file parsed again has other nodes.
   */
  private parsed(from: FileUnit, file: string): FileUnit | undefined {
    if (file === from.file) return from;
    const known = this.units.get(file);
    if (known) return known;
    if (this.readsNoFiles) {
      // What is read without the file is not what a read with it gives: not kept (see EvalBudget.cuts).
      this.budget.cuts++;
      return undefined;
    }
    const ws = from.workspace;
    const before = ws.parsedChars;
    try {
      const unit = ws.get(file);
      if (unit && this.unitChars + unit.text.length <= MAX_ANALYSIS_CHARS) {
        this.units.set(file, unit);
        this.unitChars += unit.text.length;
      }
      return unit;
    } finally {
      if (ws.parsedChars > before) this.budget.spend(Math.ceil((ws.parsedChars - before) / 1000));
    }
  }

  /** While a receiver is told (see methodCallerWithin): files not read yet stay unread, their values unknown. */
  private readsNoFiles = false;

  /** A workspace module that is not read now (see readsNoFiles): not a library, whatever resolveModule says. */
  private unread(unit: FileUnit, spec: string): boolean {
    return this.readsNoFiles && unit.workspace.modulePath(unit, spec) !== undefined && !this.units.has(unit.workspace.modulePath(unit, spec)!);
  }

  /** The files this analysis has read (see parsed), and their characters. */
  private readonly units = new Map<string, FileUnit>();
  private unitChars = 0;

  private importValue(unit: FileUnit, b: Binding): Value {
    const { module, name } = b.importFrom!;
    const at = unit.loc(b.nameNode);
    const target = this.resolveModule(unit, module);
    if (target) {
      if (name === '*') return this.withRef({ kind: 'module', unit: target }, at);
      const exported = this.exportValue(target, name);
      if (exported) return exported;
      const subSpec = unit.frontEnd.modules.submodule?.(module, name);
      const sub = subSpec !== undefined ? this.resolveModule(unit, subSpec) : undefined;
      if (sub) return this.withRef({ kind: 'module', unit: sub }, at);
      return unknown(at, `${name} from ${module}`);
    }
    if (module.startsWith('.') || this.unread(unit, module)) return unknown(at, `${name} from ${module}`);
    if (name === '*') return this.withRef({ kind: 'external', name: module }, at);
    return this.withRef({ kind: 'external', name: name === 'default' ? module : `${module}.${name}` }, at);
  }

  /**
   * The workspace files a file imports at module level (at most `limit`, in source order); a
   * module that cannot be read or parsed is left out. Each costs what resolving it costs.
   * `wanted` (given a module's text) says which of them the caller needs parsed: the others
   * still count against the limit, and are neither parsed nor returned.
   */
  importedModules(unit: FileUnit, limit = 16, wanted?: (text: string, language: LanguageId) => boolean): FileUnit[] {
    const specs = new Set<string>();
    for (const list of unit.module.bindings.values()) for (const b of list) if (b.importFrom) specs.add(b.importFrom.module);
    const out: FileUnit[] = [];
    const found = new Set<string>();
    for (const spec of specs) {
      if (found.size >= limit || !this.budget.spend()) break;
      try {
        const file = unit.workspace.modulePath(unit, spec);
        if (file === undefined || file === unit.file || found.has(file)) continue;
        const source = unit.workspace.source(file);
        if (!source) continue;
        found.add(file);
        if (wanted && !wanted(source.text, source.language)) continue;
        const target = this.resolveModule(unit, spec);
        if (target) out.push(target);
      } catch {
        // An unreadable module only means its reads are not known.
      }
    }
    return out;
  }

  /** The workspace file an import names; reading and parsing it counts against the budget (a step per 1,000 characters). */
  private resolveModule(unit: FileUnit, spec: string): FileUnit | undefined {
    const file = unit.workspace.modulePath(unit, spec);
    return file === undefined ? undefined : this.parsed(unit, file);
  }

  /**
   * A module-level name of a workspace file, following re-exports. Each (file, name) is
   * resolved once per analysis; one asked for again while it is being resolved is an import
   * cycle (a module importing itself, `__init__` files importing each other, `export *` loops)
   * and is not found along that path. A failure inside another file's code makes its values unknown here
   * instead of failing the importer.
   */
  exportValue(unit: FileUnit, name: string): Value | undefined {
    const key = `${unit.file}\u0000${name}`;
    const known = this.exports.get(key);
    // A cycle: this path adds nothing (the importer gets an unknown value).
    if (known === PENDING) return undefined;
    if (this.exports.has(key)) return known;
    if (!this.budget.spend() || !this.budget.enter()) return unknown(undefined, 'analysis limit');
    this.exports.set(key, PENDING);
    let v: Value | undefined;
    const cuts = this.budget.cuts;
    try {
      v = this.exportValueUncached(unit, name);
    } catch {
      this.budget.failedImports.add(unit.file);
      v = unknown(undefined, `${name} (not analysed)`);
    } finally {
      this.budget.leave();
    }
    if (this.budget.cuts === cuts) this.exports.set(key, v);
    else this.exports.delete(key);
    return v;
  }

  private exportValueUncached(unit: FileUnit, name: string): Value | undefined {
    const root = unit.tree.rootNode;
    const modules = unit.frontEnd.modules;
    if (name === 'default') {
      const v = modules.defaultExport?.(root);
      // `export default function complete(...)`, `export default class Claude`: the declaration itself.
      if (v && unit.adapter.isFunction(v)) return this.withRef({ kind: 'function', unit, node: v }, unit.loc(v));
      if (v && unit.adapter.isClass(v)) return this.withRef({ kind: 'class', unit, node: v }, unit.loc(v));
      if (v) return this.eval(unit, v);
    }
    const list = unit.module.bindings.get(name)?.filter((b) => b.kind !== 'aug');
    if (list && list.length) {
      const b = list[list.length - 1];
      return this.bindingValue(unit, unit.module, b, root, true);
    }
    // `export { a as b } from './x'` and `export * from './x'`.
    for (const r of modules.reexports?.(root) ?? []) {
      const target = this.resolveModule(unit, r.spec);
      if (!target) continue;
      if (r.names) {
        const named = r.names.find((n) => n.alias === name);
        if (named) return this.exportValue(target, named.name);
      } else {
        const v = this.exportValue(target, name);
        if (v) return v;
      }
    }
    return undefined;
  }


  /** An instance of a class of `unit` built with these options (Construction.given), and nothing else said. */
  instanceWith(unit: FileUnit, cls: Node, given: ReadonlyMap<string, Value>): Value {
    return this.withRef({ kind: 'instance', unit, cls, made: { unit, call: cls, args: [], given } }, unit.loc(cls));
  }

  private selfValue(unit: FileUnit, node: Node, env?: Env): Value {
    if (env?.has('<self>')) return env.get('<self>')!;
    const cls = unit.enclosingClass(node);
    return cls ? this.withRef({ kind: 'instance', unit, cls }, unit.loc(node)) : unknown(unit.loc(node));
  }

  // ---- members, indexes, slices ----

  member(unit: FileUnit, obj: Value, prop: string, node: Node, _env?: Env): Value {
    const at = unit.loc(node);
    // One of several objects: the attribute of each (`message.role` of one of several messages).
    if (obj.kind === 'unknown' && obj.alternatives && obj.ref === undefined) return this.fromEach(obj, (x) => this.member(unit, x, prop, node, _env), at);
    const ref = this.refOf(obj);
    if (ref) {
      switch (ref.kind) {
        case 'external':
          return this.withRef({ kind: 'external', name: `${ref.name}.${prop}` }, at);
        case 'external-instance': {
          const given = this.constructedWith(ref, prop);
          if (given) return given;
          break;
        }
        case 'module': {
          const v = this.exportValue(ref.unit, prop);
          if (v) return v;
          return unknown(at, `${prop} (not found)`);
        }
        case 'instance':
        case 'class': {
          const members = ref.unit.classMembers(ref.kind === 'instance' ? ref.cls : ref.node);
          const defs = members.get(prop);
          const made = ref.kind === 'instance' ? ref.made : undefined;
          const given = made && !defs?.some((d) => ref.unit.adapter.isFunction(d)) ? this.keywordField(ref.unit, ref.kind === 'instance' ? ref.cls : ref.node, members, made, prop, at) : undefined;
          if (given) return given;
          if (!defs || !defs.length) return unknown(at, `attribute ${prop}`);
          const fn = defs.find((d) => ref.unit.adapter.isFunction(d));
          if (fn) {
            const method: Extract<Ref, { kind: 'function' }> = { kind: 'function', unit: ref.unit, node: fn, self: ref };
            // `self.date_block` on a `@property`: reading it runs it.
            if (ref.unit.adapter.functionInfo(fn).property) return this.invoke(method, [], at);
            return this.withRef(method, at);
          }
          const cls = ref.kind === 'instance' ? ref.cls : ref.node;
          const seen = this.visibleDefs(ref.unit, cls, members, defs, unit === ref.unit ? node : undefined);
          if (!seen.length) return unknown(at, `attribute ${prop}`);
          // Built at a known call: what the constructor stores is read with its parameters bound to that call's arguments.
          const ctor = made ? this.constructorOf(ref.unit, members) : undefined;
          const ctorEnv = ctor && made && ref.kind === 'instance' ? this.constructorEnv(ref.unit, ctor, made, ref) : undefined;
          const values = seen.map((d) => this.eval(ref.unit, d, ctor && ctorEnv && d.startIndex >= ctor.startIndex && d.endIndex <= ctor.endIndex ? ctorEnv : undefined));
          const v = values.reduce((a, b) => union(a, b, at));
          // In-place changes anywhere in the class (`self.messages.pop(0)` in another method).
          const changes = ref.unit.memberMutations.get(cls.id)?.get(prop);
          return changes?.length && (v.kind === 'list' || v.kind === 'unknown' || v.kind === 'obj') ? this.applyMutations(ref.unit, cls, v, changes) : v;
        }
        default:
          break;
      }
    }
    if (obj.kind === 'obj') {
      const entry = [...obj.entries].reverse().find((e) => e.key === prop);
      if (entry) return entry.value;
      return unknown(at, `key ${prop}`, obj.complete ? [] : obj.taints);
    }
    if (obj.kind === 'list' && prop === 'length') return unknown(at, 'length', []);
    if (obj.kind === 'unknown' && obj.origin) return { ...unknown(at, `attribute ${prop}`, allTaints(obj)), origin: this.readFrom(obj.origin, `.${prop}`, unit, node) };
    return unknown(at, `attribute ${prop}`, allTaints(obj));
  }

  /** The constructor of a class (`__init__`, `constructor`), if it defines one. */
  constructorOf(unit: FileUnit, members: Map<string, Node[]>): Node | undefined {
    return (members.get('__init__') ?? members.get('constructor'))?.find((n) => unit.adapter.isFunction(n));
  }

  /**
   * The names a constructor's body sees when it runs for `made`: its parameters bound to the
   * call's arguments (or their defaults) and `self` / `this` to the instance. A parameter the
   * call may pass through a spread it does not show is unknown, not its default.
   */
  private constructorEnv(unit: FileUnit, ctor: Node, made: Construction, self: Extract<Ref, { kind: 'instance' }>): Env {
    const info = unit.adapter.functionInfo(ctor);
    const shift = info.receiver ? 1 : 0;
    const positional = made.args.filter((a) => !a.name && !a.spread);
    const listSpread = made.args.some((a) => a.spread === 'list');
    const spreads = made.args.filter((a) => a.spread === 'dict').map((a) => this.eval(made.unit, a.value, made.env));
    const spreadsKnown = spreads.every((v) => v.kind === 'obj' && v.complete);
    const env: Env = new Map([['<self>', this.withRef(self, unit.loc(made.call))]]);
    for (const p of info.params) {
      if (p.rest || p.kwrest) continue;
      const given = made.given?.get(p.name);
      if (given) {
        env.set(p.name, given);
        continue;
      }
      const named = made.args.find((a) => a.name === p.name);
      const byPosition = !listSpread && p.index >= shift ? positional[p.index - shift] : undefined;
      const arg = named ?? byPosition;
      const spread = arg ? undefined : spreads.map((v) => getEntry(v, p.name)).filter((v): v is Value => !!v).pop();
      if (arg) env.set(p.name, this.eval(made.unit, arg.value, made.env));
      else if (spread) env.set(p.name, spread);
      else if (listSpread || !spreadsKnown) env.set(p.name, unknown(unit.loc(made.call), `argument ${p.name} (not seen)`));
      else if (p.default) env.set(p.name, this.eval(unit, p.default));
    }
    return env;
  }

  /**
   * A field of an instance built at a known call of a class whose constructor takes its fields
   * as keyword arguments (a dataclass, a pydantic model; Adapter.keywordFields): the argument
   * passed for it. Unknown when the call passes positional arguments or a spread it does not
   * show (which field they set is not read here); undefined when the call leaves the field to
   * its default, or the class writes its own constructor.
   */
  private keywordField(unit: FileUnit, cls: Node, members: Map<string, Node[]>, made: Construction, prop: string, at: Loc): Value | undefined {
    if (this.constructorOf(unit, members) || !unit.adapter.keywordFields?.(cls)) return undefined;
    const given = made.given?.get(prop);
    if (given) return given;
    const named = made.args.find((a) => a.name === prop);
    if (named) return this.eval(made.unit, named.value, made.env);
    for (const a of made.args) {
      if (a.spread !== 'dict') continue;
      const v = this.eval(made.unit, a.value, made.env);
      const e = v.kind === 'obj' ? getEntry(v, prop) : undefined;
      if (e) return e;
      if (v.kind !== 'obj' || !v.complete) return unknown(at, `field ${prop} (not seen)`, allTaints(v));
    }
    if (made.args.some((a) => !a.name && a.spread !== 'dict')) return unknown(at, `field ${prop} (not seen)`);
    return undefined;
  }

  /**
   * What is read from each alternative of a union (UnknownValue.alternatives), joined, with the
   * taints the union carries besides those of its alternatives.
   */
  private fromEach(obj: Extract<Value, { kind: 'unknown' }>, read: (x: Value) => Value, at: Loc): Value {
    const alternatives = obj.alternatives!;
    const inside = new Set(alternatives.flatMap(allTaints).map(taintSite));
    const own = obj.taints.filter((t) => !inside.has(taintSite(t)));
    const v = alternatives.map(read).reduce((a, b) => union(a, b, at));
    return own.length ? ({ ...v, taints: [...v.taints, ...own] } as Value) : v;
  }

  /**
   * `ChatMessage(role="system", content=text).role`: an attribute of a library object read back
   * from the keyword argument of that name that built it (the way of data classes, pydantic
   * models and message classes), when the callee is named as a class (a capitalised last name).
   */
  private constructedWith(ref: Extract<Ref, { kind: 'external-instance' }>, prop: string): Value | undefined {
    const last = ref.name.slice(ref.name.lastIndexOf('.') + 1);
    if (!/^[A-Z]/.test(last)) return undefined;
    const arg = ref.args.find((a) => a.name === prop);
    return arg ? this.eval(ref.unit, arg.value, ref.env) : undefined;
  }

  /**
   * The definitions of an attribute that a read can see, in the order the constructor runs
   * them: a class-level initializer, then the constructor's assignments. Inside the
   * constructor a read sees the initializer and the assignments above it (`this.modelName =
   * fields?.model ?? this.model` reads the field); elsewhere the constructor's assignment,
   * when it always runs, replaces the initializer (`model = "claude-…"` then `this.model =
   * this.modelName`). Assignments in other methods are seen everywhere but in the constructor.
   */
  private visibleDefs(unit: FileUnit, cls: Node, members: Map<string, Node[]>, defs: Node[], read: Node | undefined): Node[] {
    const ctor = (members.get('__init__') ?? members.get('constructor'))?.find((n) => unit.adapter.isFunction(n));
    if (!ctor) return defs;
    const within = (n: Node, outer: Node) => n.startIndex >= outer.startIndex && n.endIndex <= outer.endIndex;
    const classLevel = (d: Node) => {
      const f = unit.enclosingFunction(d);
      return !(f.id !== cls.id && within(f, cls));
    };
    const inCtor = defs.filter((d) => within(d, ctor));
    const lastAlways = (list: Node[]) => {
      for (let i = list.length - 1; i >= 0; i--) if (this.alwaysRuns(unit, list[i], ctor)) return i;
      return -1;
    };
    if (read && within(read, ctor)) {
      const before = inCtor.filter((d) => d.endIndex <= read.startIndex);
      const i = lastAlways(before);
      return i >= 0 ? before.slice(i) : [...defs.filter(classLevel), ...before];
    }
    return lastAlways(inCtor) >= 0 ? defs.filter((d) => !classLevel(d)) : defs;
  }

  /**
   * Whether the statement at `node` runs when the code of `stop` (its function or module) runs,
   * as far as the tests of the `if` chains around it are decided by values known in full: false
   * when one decides against it (an earlier branch of its chain is taken, or its own test
   * fails); true when every construct between them is an `if` branch decided for it; undefined
   * otherwise (a loop, a `try`, a test that is not known).
   */
  reached(unit: FileUnit, node: Node, stop: Node, env?: Env, unread?: string, settingsOnly = false): boolean | undefined {
    let certain = true;
    const reads = unread ? readerOf(unread) : undefined;
    for (let n = node.parent; n && n.id !== stop.id; n = n.parent) {
      if (unit.adapter.isScope(n)) return undefined;
      const branches = unit.adapter.ifBranches(n);
      if (!branches) {
        if (unit.adapter.runsConditionally(n)) certain = false;
        continue;
      }
      const i = branches.findIndex((b) => node.startIndex >= b.body.startIndex && node.endIndex <= b.body.endIndex);
      if (i < 0) {
        certain = false;
        continue;
      }
      for (let j = 0; j <= i; j++) {
        const test = branches[j].test;
        if (!test) continue;
        const holds = settingsOnly && !this.readsSettings(unit, test, stop, env) ? undefined : this.decide(unit, test, env, 0, reads);
        if (holds === undefined) certain = false;
        else if (j < i ? holds : !holds) return false;
      }
    }
    return certain ? true : undefined;
  }

  /**
   * A test that reads only what configures the call, cheap to decide: the call's parameters,
   * the instance (`self.cache_tools`), module-level names, and locals of `fn` computed from
   * those alone (`ttl = self.options.ttl`). A test on other locals is about data the function
   * computes; deciding it would read that data again for each call.
   */
  private readsSettings(unit: FileUnit, test: Node, fn: Node, env?: Env, depth = 0): boolean {
    for (const name of namesIn(unit, test)) {
      if (env?.has(name)) continue;
      const found = this.findBinding(unit, test, name);
      if (!found || found.scope === unit.module) continue;
      const b = found.binding;
      if (depth > 0 || found.scope.node.id !== fn.id || b.kind !== 'assign' || !b.value || !this.readsSettings(unit, b.value, fn, env, depth + 1)) return false;
    }
    return true;
  }

  /** The statement around `node` runs whenever `fn` runs: no branch, loop, `try` or nested function between them. */
  private alwaysRuns(unit: FileUnit, node: Node, fn: Node): boolean {
    for (let n = node.parent; n && n.id !== fn.id; n = n.parent) {
      if (unit.adapter.isScope(n) || unit.adapter.runsConditionally(n)) return false;
    }
    return true;
  }

  /** What reading `step` (`.text`, `[0]`, `[]`) from a call's result yields: the path grows, the root is where the whole result is named. */
  readFrom(origin: Origin, step: string, unit?: FileUnit, node?: Node): Origin {
    const path = origin.path ? origin.path + step : step.replace(/^\./, '');
    let root = origin.root;
    if (!root && origin.path === '' && unit && node) {
      const e = unit.adapter.expr(node);
      if (e.k === 'member' || e.k === 'index') root = unit.loc(e.object);
    }
    return { call: origin.call, path, ...(root ? { root } : {}) };
  }

  private index(unit: FileUnit, objNode: Node, indexNode: Node, node: Node, env?: Env): Value {
    const obj = this.eval(unit, objNode, env);
    const idx = this.eval(unit, indexNode, env);
    const at = unit.loc(node);
    // `message["role"]` of one of several messages: the key of each.
    if (obj.kind === 'unknown' && obj.alternatives && obj.ref === undefined && idx.kind === 'str' && idx.complete) return this.fromEach(obj, (x) => this.member(unit, x, idx.text, node, env), at);
    const ref = this.refOf(obj);
    if (ref?.kind === 'external') {
      const name = `${ref.name}[]`;
      if (/^os\.environ/.test(ref.name) || /^process\.env/.test(ref.name)) {
        return unknown(at, name, [this.taint('environment', 'environment', unit, node)]);
      }
    }
    if (obj.kind === 'obj' && idx.kind === 'str' && idx.complete) return this.member(unit, obj, idx.text, node, env);
    if (obj.kind === 'list' && idx.kind === 'num' && obj.complete) {
      const i = (idx.value as number) < 0 ? obj.items.length + (idx.value as number) : (idx.value as number);
      if (obj.items[i]) return obj.items[i];
    }
    // `messages[0]` of `[system, ...history, user]`: one of the first items, known.
    if (obj.kind === 'list' && idx.kind === 'num' && !obj.complete && Number.isInteger(idx.value) && (idx.value as number) >= 0 && (idx.value as number) < knownHead(obj)) return obj.items[idx.value as number];
    // `turns[0]` of a list whose every item is listed at places not known, or `turns[turns.length - 1]`
    // (a place computed at run time) of one whose items are listed: one of them, picked by the index.
    if (obj.kind === 'list' && itemsSeen(obj) && listedItems(obj).length && (idx.kind === 'num' ? !obj.complete : idx.kind !== 'str')) {
      const item = this.itemOf(obj, at);
      const picked = idx.kind === 'num' ? [] : asSelector(allTaints(idx));
      return picked.length ? ({ ...item, taints: [...item.taints, ...picked] } as Value) : item;
    }
    if (obj.kind === 'obj' && idx.kind !== 'str') {
      // Lookup by a computed key: any entry may come out; the key picks it.
      return unknown(at, 'computed key', [...asSelector(allTaints(idx)), ...obj.entries.flatMap((e) => allTaints(e.value))]);
    }
    if (obj.kind === 'unknown' && obj.origin) {
      const step = idx.kind === 'str' && idx.complete ? `.${idx.text}` : idx.kind === 'num' ? `[${idx.value}]` : '[]';
      return { ...unknown(at, 'element', [...allTaints(obj), ...allTaints(idx)]), origin: this.readFrom(obj.origin, step, unit, node) };
    }
    // `PROMPTS[user.role]` on a table that is not resolved here (not request data itself): the key picks the element.
    const table = idx.kind !== 'num' && !allTaints(obj).some((t) => t.cls === 'per-request');
    return unknown(at, 'element', [...allTaints(obj), ...(table ? asSelector(allTaints(idx)) : allTaints(idx))]);
  }

  /**
   * Item `i` of a value destructured by position (`turns, system = split(chat)`): the item when
   * the list is known in full (a returned tuple); else what is read from a response at that
   * place, or an unknown value that keeps every taint of the whole.
   */
  private itemAt(v: Value, i: number, at: Loc): Value {
    if (v.kind === 'list' && v.complete && i < v.items.length) return v.items[i];
    if (v.kind === 'unknown' && v.origin && !this.refOf(v)) return { ...unknown(at, 'element', allTaints(v)), origin: this.readFrom(v.origin, `[${i}]`) };
    return unknown(at, `item ${i}`, allTaints(v));
  }

  private slice(unit: FileUnit, objNode: Node, lower: Node | undefined, node: Node, env?: Env, upper?: Node): Value {
    const obj = this.eval(unit, objNode, env);
    const at = unit.loc(node);
    if (obj.kind === 'str') return { kind: 'str', text: HOLE, complete: false, at, taints: obj.taints };
    const from = lower && !upper ? this.eval(unit, lower, env) : undefined;
    const out: ListValue =
      obj.kind === 'list'
        ? { ...sliceOf(obj, from, !!upper), at, covered: itemsSeen(obj), trims: [...(obj.trims ?? [])] }
        : { kind: 'list', items: [], complete: false, at, taints: allTaints(obj), trims: [...(obj.trims ?? [])] };
    if (lower && this.isCount(unit, lower, env) && !(!upper && this.stripsLeadingSystem(unit, objNode, obj, lower, node))) out.trims!.push(this.trim(unit, 'slice', node));
    return out;
  }

  /**
   * `messages[1:]` / `messages.slice(1)` that takes off a leading system entry rather than
   * trimming the conversation: the list's first item is written as a system (or developer)
   * message, or the function reads that first item itself (`messages[0].content`, sent as
   * `system`). Such a cut keeps every turn of the history.
   */
  stripsLeadingSystem(unit: FileUnit, listNode: Node, list: Value, lower: Node, node: Node): boolean {
    const e = unit.adapter.expr(lower);
    if (e.k !== 'num' || e.value !== 1) return false;
    if (list.kind === 'list' && list.items.length) {
      const role = getEntry(list.items[0], 'role');
      if (role?.kind === 'str' && role.complete && (role.text === 'system' || role.text === 'developer')) return true;
    }
    // The function reads `<list>[0]` itself (code, not a comment or a string).
    const listText = listNode.text.replace(/\s+/g, '');
    let readsFirst = false;
    walk(unit.enclosingFunction(node), (n) => {
      if (readsFirst || !n.text.startsWith(listNode.text.slice(0, 1))) return;
      const x = unit.adapter.expr(n);
      if (x.k !== 'index' || x.object.text.replace(/\s+/g, '') !== listText) return;
      const i = unit.adapter.expr(x.index);
      if (i.k === 'num' && i.value === 0) readsFirst = true;
    });
    return readsFirst;
  }

  /** A bound that counts messages (a literal, `-k`, a constant or parameter), not a computed turn boundary. */
  isCount(unit: FileUnit, bound: Node, env?: Env): boolean {
    const e = unit.adapter.expr(bound);
    if (e.k === 'num' || e.k === 'neg') return true;
    if (e.k === 'binary' && ['*', '+', '-', '//', '/'].includes(e.op)) return this.isCount(unit, e.left, env) || this.isCount(unit, e.right, env);
    if (e.k === 'wrap') return this.isCount(unit, e.inner, env);
    if (e.k === 'ident' || e.k === 'member') {
      const v = this.eval(unit, bound, env);
      if (v.kind === 'num') return true;
      // A parameter, or a value computed from one (`len(history) - keep`); code that moves the cut to a turn is caught by the turn guard.
      if (v.taints.some((t) => t.kind === 'parameter')) return true;
      return /^[A-Z][A-Z0-9_]*$/.test(e.k === 'ident' ? e.name : e.prop);
    }
    return false;
  }

  trim(unit: FileUnit, kind: Trim['kind'], node: Node): Trim {
    const fn = unit.enclosingFunction(node);
    const guarded = TURN_GUARD.test(fn.text);
    return { kind, at: unit.loc(node), text: shorten(node.text), guarded };
  }

  // ---- literals ----

  private list(unit: FileUnit, items: Array<{ value: Node; spread?: boolean }>, isSet: boolean, at: Loc, env?: Env): ListValue {
    const out: ListValue = { kind: 'list', items: [], complete: true, isSet, at, taints: [], trims: [] };
    let seen = true;
    for (const item of items) {
      const v = this.eval(unit, item.value, env);
      if (!item.spread) {
        out.items.push(v);
        continue;
      }
      const ordered = this.ordered(unit, v, item.value);
      // The items before the first spread that is not known in full are the list's first items.
      if (out.complete) out.head = out.items.length + (ordered.kind === 'list' ? knownHead(ordered) : 0);
      if (ordered.kind === 'list') {
        out.items.push(...ordered.items);
        if (ordered.possible) out.possible = [...(out.possible ?? []), ...ordered.possible];
        out.complete &&= ordered.complete;
        seen &&= itemsSeen(ordered);
        out.taints.push(...ordered.taints);
        out.trims!.push(...(ordered.trims ?? []));
      } else {
        out.complete = false;
        seen = false;
        out.taints.push(...allTaints(ordered));
      }
    }
    const lastItem = items[items.length - 1];
    if (!out.complete && lastItem && !lastItem.spread) out.tailKnown = true;
    if (!out.complete && seen) out.covered = true;
    if (out.complete || !out.head) delete out.head;
    return out;
  }

  private dict(unit: FileUnit, entries: import('./syntax').DictEntry[], at: Loc, env?: Env): ObjValue {
    const out: ObjValue = { kind: 'obj', entries: [], complete: true, at, taints: [] };
    for (const e of entries) {
      if (e.spread) {
        const v = this.eval(unit, e.value, env);
        if (v.kind === 'obj') {
          out.entries.push(...v.entries);
          out.complete &&= v.complete;
          out.taints.push(...v.taints);
        } else {
          out.complete = false;
          out.taints.push(...allTaints(v));
        }
        continue;
      }
      const value = this.eval(unit, e.value, env);
      if (e.key !== undefined) {
        out.entries.push({ key: e.key, keyAt: e.keyNode ? unit.loc(e.keyNode) : undefined, valueAt: unit.loc(e.value), value });
      } else {
        const k = e.computedKey ? this.eval(unit, e.computedKey, env) : undefined;
        if (k && k.kind === 'str' && k.complete) out.entries.push({ key: k.text, keyAt: unit.loc(e.computedKey!), valueAt: unit.loc(e.value), value });
        else {
          out.complete = false;
          out.taints.push(...(k ? allTaints(k) : []), ...allTaints(value));
        }
      }
    }
    return out;
  }

  private binary(unit: FileUnit, op: string, leftNode: Node, rightNode: Node, at: Loc, env?: Env): Value {
    const left = this.eval(unit, leftNode, env);
    const right = this.eval(unit, rightNode, env);
    if (op === '%' && left.kind === 'str') {
      // printf-style formatting: each argument is interpolated.
      const args = right.kind === 'list' ? right.items : [right];
      const marked = args.map((a) => this.markEmbed(a, a.at ?? unit.loc(rightNode)));
      return concatStrings([left, ...marked.map((a) => ({ ...a, text: HOLE }) as Value)], at);
    }
    return this.combine(op, left, right, at, unit.loc(rightNode), unit.loc(leftNode));
  }

  /** Concatenation and formatting keep an interpolation site found further in. */
  markEmbed(v: Value, embedAt: Loc): Value {
    const taints = allTaints(v).map((t) => ({ ...t, embed: t.embed ?? embedAt }));
    return { ...v, taints } as Value;
  }

  combine(op: string, left: Value, right: Value, at: Loc, rightAt: Loc, leftAt?: Loc): Value {
    if (op === '+' || op === '+=') {
      const isStr = (v: Value) => v.kind === 'str';
      if (isStr(left) || isStr(right)) {
        const l = left.kind === 'str' && left.literal ? left : leftAt ? this.markEmbed(left, leftAt) : left;
        const r = right.kind === 'str' && right.literal ? right : this.markEmbed(right, rightAt);
        return concatStrings([l, r], at);
      }
      if (left.kind === 'list' && right.kind === 'list') {
        return {
          kind: 'list',
          items: [...left.items, ...right.items],
          ...(left.possible || right.possible ? { possible: [...(left.possible ?? []), ...(right.possible ?? [])] } : {}),
          complete: left.complete && right.complete,
          ...(!(left.complete && right.complete) && itemsSeen(left) && itemsSeen(right) ? { covered: true } : {}),
          at,
          taints: [...left.taints, ...right.taints],
          trims: [...(left.trims ?? []), ...(right.trims ?? [])],
          isSet: false,
          ...((right.complete && right.items.length) || right.tailKnown ? { tailKnown: true } : {}),
          ...(left.complete ? { head: left.items.length + knownHead(right) } : left.head ? { head: left.head } : {}),
        };
      }
      if (left.kind === 'num' && right.kind === 'num') return { kind: 'num', value: (left.value as number) + (right.value as number), at, taints: [] };
    }
    if (op === '|' && left.kind === 'obj' && right.kind === 'obj') {
      return { kind: 'obj', entries: [...left.entries, ...right.entries], complete: left.complete && right.complete, at, taints: [...left.taints, ...right.taints] };
    }
    if (op === '-' || op === '*' || op === '/') {
      if (left.kind === 'num' && right.kind === 'num') {
        const a = left.value as number;
        const b = right.value as number;
        return { kind: 'num', value: op === '-' ? a - b : op === '*' ? a * b : a / b, at, taints: [] };
      }
    }
    const trims = [...(left.trims ?? []), ...(right.trims ?? [])];
    return { kind: 'unknown', at, taints: [...allTaints(left), ...allTaints(right)], ...(trims.length ? { trims } : {}) };
  }

  private comprehension(unit: FileUnit, e: Extract<Expr, { k: 'comprehension' }>, at: Loc, env?: Env): Value {
    const iter = this.eval(unit, e.iter, env);
    const ordered = this.ordered(unit, iter, e.iter);
    // Over what a call returned (`b.text for b in resp.content`): the element reads one item of it.
    const target = unit.adapter.expr(e.target);
    // `[m.content for m in chat if m.role == "system"]`: the element reads the items the filters keep.
    const kept = target.k === 'ident' ? this.keptByFilters(unit, e.filters ?? [], ordered, target.name, env) : undefined;
    if (kept && !listedItems(kept).length && kept.complete) return { kind: 'list', items: [], complete: true, isSet: !!e.set, at, taints: [...kept.taints] };
    const element =
      kept && target.k === 'ident'
        ? this.eval(unit, e.element, new Map([...(env ?? []), [target.name, this.itemOf(kept, unit.loc(e.target))]]))
        : iter.origin && target.k === 'ident'
          ? this.eval(unit, e.element, new Map([...(env ?? []), [target.name, this.itemOf(ordered, unit.loc(e.target))]]))
          : this.eval(unit, e.element, env);
    const taints = [...ordered.taints];
    // `[t for t in TOOLS if t["name"] in allowed]`: which items survive depends on the filter.
    if (!allTaints(ordered).some((t) => t.cls === 'per-request')) {
      const own = (t: Taint) => t.kind === 'loop-variable' && t.at.start >= at.start && t.at.end <= at.end;
      for (const f of e.filters ?? []) taints.push(...this.perRequestIn(unit, f, env).filter((t) => !own(t)).map((t) => ({ ...t, kind: 'filter' as const })));
    }
    if (e.dict) {
      const key = e.key ? this.eval(unit, e.key, env) : undefined;
      return { kind: 'obj', entries: [], complete: false, at, taints: [...taints, ...allTaints(element), ...(key ? allTaints(key) : [])] };
    }
    // Every item is the element, once per item kept (ListValue.covered).
    return { kind: 'list', items: [{ ...element, repeated: at }], complete: false, covered: true, isSet: !!e.set, at, taints, trims: ordered.kind === 'list' ? ordered.trims : undefined };
  }

  /**
   * The items of a list that a comprehension's filters can keep, each filter decided with the
   * loop variable bound to the item; undefined when the filters decide nothing (or the list is
   * not one of known items).
   */
  private keptByFilters(unit: FileUnit, filters: Node[], list: Value, name: string, env?: Env): ListValue | undefined {
    if (!filters.length || list.kind !== 'list') return undefined;
    const items = listedItems(list);
    if (!items.length || items.length > MAX_NARROWED_ITEMS) return undefined;
    const kept = items.filter((item) => {
      const bound: Env = new Map(env ?? []);
      bound.set(name, item);
      return filters.every((f) => this.decide(unit, f, bound) !== false);
    });
    if (kept.length === items.length) return undefined;
    const { possible: _possible, ...rest } = list;
    return { ...rest, items: kept };
  }

  /**
   * Whether a predicate (`(m) => m.role === 'system'`) holds for an item: its one returned test
   * decided with the parameter bound to the item; undefined when that is not known.
   */
  predicateHolds(ref: Extract<Ref, { kind: 'function' }>, item: Value, at: Loc): boolean | undefined {
    const info = ref.unit.adapter.functionInfo(ref.node);
    if (info.returns.length !== 1) return undefined;
    return this.decide(ref.unit, info.returns[0], this.bind(ref, [item], at));
  }

  /**
   * The value of an iteration over `v` as an ordered list: iterating a set of strings gets an
   * 'unordered' taint placed at the iterated expression (where `sorted(...)` would go).
   */
  ordered(unit: FileUnit, v: Value, iterNode: Node): Value {
    if (v.kind !== 'list' || !v.isSet) return v;
    if (v.complete && v.items.length && v.items.every((i) => i.kind === 'num' || i.kind === 'bool')) return { ...v, isSet: false };
    const t: Taint = { cls: 'unordered', kind: 'set-iteration', at: unit.loc(iterNode), text: shorten(iterNode.text), chain: [], fixAt: unit.loc(iterNode) };
    if (v.complete && v.items.length && v.items.every((i) => isTextString(unit, i))) t.sortable = true;
    return { ...v, isSet: false, taints: [...v.taints, t] };
  }

  itemOf(iter: Value, at: Loc): Value {
    if (iter.kind === 'list' && (iter.items.length || iter.possible?.length)) {
      const item = listedItems(iter).reduce((a, b) => union(a, b, at));
      if (iter.complete) return item;
      // One of the items listed, as it is; what the list carries of its own still goes with it.
      if (iter.covered) return bounded({ ...item, taints: [...item.taints, ...iter.taints.filter((t) => t.cls !== 'unordered')] } as Value);
      return { kind: 'unknown', at, taints: [...allTaints(item), ...iter.taints.filter((t) => t.cls !== 'unordered')] };
    }
    const taints = allTaints(iter).filter((t) => t.cls !== 'unordered');
    if (iter.origin) return { ...unknown(at, 'loop item', taints), origin: this.readFrom(iter.origin, '[]') };
    return unknown(at, 'loop item', taints);
  }

  /**
   * The calls of a scope's own body that pass a name as an argument, by name (`self._apply_cache_tools(kw)`,
   * `mark_last(messages)`), read once per scope.
   */
  private callsPassing(unit: FileUnit, scope: Scope, name: string): Node[] {
    let byName = CALLS_PASSING.get(scope);
    if (!byName) {
      // It depends on the syntax alone: every evaluator of the file shares it.
      byName = new Map();
      const calls = unit.calls;
      const end = scope.node.endIndex;
      for (let i = unit.firstCallFrom(scope.node.startIndex); i < calls.length && calls[i].startIndex < end; i++) {
        const call = calls[i];
        const e = unit.adapter.expr(call);
        if (e.k !== 'call') continue;
        let names: Set<string> | undefined;
        for (const a of e.args) {
          if (a.spread) continue;
          const x = unit.adapter.expr(a.value);
          if (x.k === 'ident') (names ??= new Set()).add(x.name);
        }
        // Only calls of this scope's own body (not of a function nested in it).
        if (!names || unit.scopeOf(call) !== scope) continue;
        for (const n of names) {
          const list = byName.get(n);
          if (list) list.push(call);
          else byName.set(n, [call]);
        }
      }
      CALLS_PASSING.set(scope, byName);
    }
    return byName.get(name) ?? [];
  }

  /**
   * `v` after a call that passes it (as `name`) to a function of the workspace that changes that
   * parameter in place (`def _apply_cache_tools(self, kw): if self.cache_tools: kw["tools"][-1]["cache_control"] = ...`):
   * the function's changes, with its parameters bound to the call's arguments, each as likely to
   * run as the call and the change inside. Calls it hands the parameter on to are followed too,
   * as deep as calls are inlined.
   */
  private changedByCall(unit: FileUnit, scopeNode: Node, call: Node, name: string, v: Value, env: Env | undefined, outer: boolean | undefined = true): Value {
    if (this.inlineDepth >= MAX_INLINE_DEPTH || this.changing.has(call.id) || this.changeCalls >= MAX_CHANGE_CALLS) return v;
    this.changeCalls++;
    const e = unit.adapter.expr(call);
    if (e.k !== 'call') return v;
    const runs = outer === false ? false : this.reached(unit, call, scopeNode, env);
    if (runs === false) return v;
    const ref = this.refOf(this.eval(unit, e.callee, env));
    if (ref?.kind !== 'function') return v;
    const calleeScope = ref.unit.scopes.get(ref.node.id);
    if (!calleeScope) return v;
    const taken = this.parameterTaking(unit, e.args, ref, name);
    if (!taken) return v;
    const { arg, param, positional } = taken;
    if (!this.changesParam(ref.unit, ref.node, param.name, 0)) return v;
    const own = calleeScope.mutations.get(param.name) ?? [];
    const onward = this.callsPassing(ref.unit, calleeScope, param.name).filter((c) => this.handsToChange(ref.unit, c, param.name, 1));
    const at = unit.loc(call);
    const inner = this.bind(ref, positional.map((a) => (a === arg ? v : this.eval(unit, a.value, env))), at, new Map(e.args.filter((a) => a.name && !a.spread).map((a) => [a.name!, a === arg ? v : this.eval(unit, a.value, env)] as const)));
    inner.set(param.name, v);
    const callRuns = outer === true && runs === true ? true : undefined;
    this.changing.add(call.id);
    this.inlineDepth++;
    try {
      return this.applyInOrder(ref.unit, ref.node, v, param.name, own, onward, inner, callRuns, true);
    } finally {
      this.inlineDepth--;
      this.changing.delete(call.id);
    }
  }

  /**
   * `v` (held by `name` in `scopeNode`) after its own in-place changes and the calls that hand it
   * to a function that changes it, in source order when `sorted` (else the calls after the changes).
   */
  private applyInOrder(unit: FileUnit, scopeNode: Node, v: Value, name: string, mutations: readonly Mutation[], calls: readonly Node[], env: Env | undefined, outer: boolean | undefined, sorted: boolean): Value {
    const at = (x: Mutation | Node) => ('method' in x ? x.node : x).startIndex;
    const events: Array<Mutation | Node> = [...mutations, ...calls];
    if (sorted) events.sort((x, y) => at(x) - at(y));
    let out = v;
    let batch: Mutation[] = [];
    for (const e of [...events, undefined]) {
      if (e && 'method' in e) {
        batch.push(e);
        continue;
      }
      if (batch.length) out = this.applyMutations(unit, scopeNode, out, batch, env, outer);
      batch = [];
      if (e) out = this.changedByCall(unit, scopeNode, e, name, out, env, outer);
    }
    return out;
  }

  /**
   * Whether a function changes a parameter in place, itself or through the functions it hands the
   * parameter on to (read from their code alone, once per function and parameter): only then are
   * the calls that pass a value to it read for changes. A function that is being asked about
   * already (recursion) counts as not changing it.
   */
  private changesParam(unit: FileUnit, fn: Node, name: string, depth: number): boolean {
    const key = `${unit.file}\u0000${fn.id}\u0000${name}`;
    const known = this.paramChanges.get(key);
    if (known !== undefined) return known;
    const scope = unit.scopes.get(fn.id);
    if (!scope || depth >= MAX_INLINE_DEPTH) return false;
    this.paramChanges.set(key, false);
    const changes = !!scope.mutations.get(name)?.length || this.callsPassing(unit, scope, name).some((c) => this.handsToChange(unit, c, name, depth + 1));
    this.paramChanges.set(key, changes);
    return changes;
  }

  /** Whether `call` passes `name` to a function of the workspace that changes that parameter (changesParam). */
  private handsToChange(unit: FileUnit, call: Node, name: string, depth: number): boolean {
    const key = `${unit.file}\u0000${call.id}\u0000${name}`;
    const known = this.handsOn.get(key);
    if (known !== undefined) return known;
    // Asked again while it is being answered (recursion): not known to change it.
    this.handsOn.set(key, false);
    const hands = this.handsToChangeUncached(unit, call, name, depth);
    this.handsOn.set(key, hands);
    return hands;
  }

  private handsToChangeUncached(unit: FileUnit, call: Node, name: string, depth: number): boolean {
    const e = unit.adapter.expr(call);
    if (e.k !== 'call') return false;
    const callee = unit.adapter.expr(e.callee);
    // Only plain functions and methods (`mark(x)`, `self.mark(x)`, `helpers.mark(x)`), not what a call or a library returns.
    if (callee.k !== 'ident' && callee.k !== 'member') return false;
    // A name bound nowhere in the file is a built-in (`len(x)`, `print(x)`).
    if (callee.k === 'ident' && !this.findBinding(unit, e.callee, callee.name)) return false;
    const ref = this.refOf(this.eval(unit, e.callee));
    if (ref?.kind !== 'function') return false;
    const taken = this.parameterTaking(unit, e.args, ref, name);
    return !!taken && this.changesParam(ref.unit, ref.node, taken.param.name, depth);
  }

  /** The argument of a call that is the name `name` as written, and the parameter of the called function it binds. */
  private parameterTaking(unit: FileUnit, args: Arg[], ref: Extract<Ref, { kind: 'function' }>, name: string): { arg: Arg; param: FunctionInfo['params'][number]; positional: Arg[] } | undefined {
    const info = ref.unit.adapter.functionInfo(ref.node);
    const shift = ref.self && info.receiver ? 1 : 0;
    const positional = args.filter((a) => !a.name && !a.spread);
    const arg = args.find((a) => !a.spread && unit.adapter.expr(a.value).k === 'ident' && a.value.text === name);
    if (!arg) return undefined;
    const param = arg.name ? info.params.find((p) => p.name === arg.name && p.key === undefined) : info.params.find((p) => p.key === undefined && !p.rest && !p.kwrest && p.index - shift === positional.indexOf(arg));
    return param ? { arg, param, positional } : undefined;
  }

  private applyMutations(unit: FileUnit, scopeNode: Node, base: Value, all: Mutation[], env?: Env, outer: boolean | undefined = true): Value {
    // A change under an `if` whose test is decided against it never runs (`if self.cache_tools:`
    // on an instance built without it). A test that reads the value being changed is about its
    // contents, not about how the code is configured: it is not decided (reading it would
    // replay these very changes).
    const mutations: Mutation[] = [];
    /** Changes that may or may not run (their test is not decided): a key they write may keep its earlier value. */
    const maybe = new Set<Mutation>();
    let unsure = false;
    /** A change that may run and was left out touches the start of the list (not only adds at its end). */
    let unsureHead = false;
    for (const m of all) {
      const inside = this.reached(unit, m.node, scopeNode, env, changedName(m));
      if (inside === false) continue;
      // A change inside a function it was handed to runs only as surely as that call.
      const runs = outer === true ? inside : undefined;
      // Reading only what certainly runs: a change that may not run leaves the value not known in full.
      if (this.certainChangesOnly && runs !== true) {
        unsure = true;
        unsureHead ||= !ADDS_AT_END.has(m.method);
      } else {
        mutations.push(m);
        if (runs !== true) maybe.add(m);
      }
    }
    const v = this.applyChanges(unit, scopeNode, base, mutations, env, maybe);
    if (!unsure) return v;
    if (v.kind === 'obj') return { ...v, complete: false };
    if (v.kind === 'list') return { ...v, complete: false, tailKnown: false, covered: false, ...(unsureHead ? { head: 0 } : {}) };
    return v;
  }

  private applyChanges(unit: FileUnit, scopeNode: Node, base: Value, mutations: Mutation[], env?: Env, maybe?: ReadonlySet<Mutation>): Value {
    // `add` / `update` change a set; called on anything else (`session.add(row)`), they say nothing of the value.
    if (!(base.kind === 'list' && base.isSet) && mutations.some((m) => SET_CHANGES.has(m.method))) {
      mutations = mutations.filter((m) => !SET_CHANGES.has(m.method));
      if (!mutations.length) return base;
    }
    if (base.kind === 'obj') return this.applyKeyWrites(unit, scopeNode, base, mutations, env, maybe);
    const v: ListValue = base.kind === 'list' ? { ...base, items: [...base.items], taints: [...base.taints], trims: [...(base.trims ?? [])] } : { kind: 'list', items: [], complete: false, at: base.at, taints: [...base.taints], trims: [] };
    // Whether every item the list may hold stays among its listed items (ListValue.covered).
    let seen = base.kind === 'list' && itemsSeen(base);
    // How many first items are known to be the list's first items (appends keep them; removals, and inserts in a loop, do not).
    let head = knownHead(v);
    for (const m of mutations) {
      const loop = unit.adapter.enclosingLoop(m.node, scopeNode);
      if (v.complete) head = v.items.length;
      const first = m.args[0] ? unit.adapter.expr(m.args[0]) : undefined;
      if (m.method === 'unshift' || (m.method === 'insert' && first?.k === 'num' && first.value === 0)) head = loop || loopAround(unit.adapter, m.node, scopeNode, scopeNode) ? 0 : head + Math.max(0, m.args.length - (m.method === 'insert' ? 1 : 0));
      else if (m.method !== 'append' && m.method !== 'push' && m.method !== 'extend' && m.method !== 'set-key') head = 0;
      switch (m.method) {
        case 'append':
        case 'add':
        case 'push':
        case 'insert':
        case 'unshift': {
          const argNodes = m.method === 'insert' ? m.args.slice(1) : m.args;
          // `for m in chat: if m.role == "system": pinned.append(m)`: the items that pass, each as it is.
          const copied = argNodes.length === 1 ? this.loopItems(unit, argNodes[0], m.node, env, changedName(m)) : undefined;
          if (copied) {
            v.possible = [...(v.possible ?? []), ...copied.items];
            v.taints.push(...copied.taints);
            seen &&= copied.seen;
            v.complete = false;
            v.tailKnown = false;
            break;
          }
          const vals = argNodes.map((a) => this.eval(unit, a, env));
          // Also `while` loops and `for (;;)`: an append there runs once per iteration too.
          const repeat = loop?.loop ?? loopAround(unit.adapter, m.node, scopeNode, scopeNode);
          const repeatedAdds = repeat ? vals.map((x) => ({ ...x, repeated: unit.loc(repeat) }) as Value) : vals;
          const added = maybe?.has(m) ? repeatedAdds.map((x) => ({ ...x, conditional: true }) as Value) : repeatedAdds;
          if (repeat && !loop) v.complete = false;
          if (m.method === 'insert' || m.method === 'unshift') v.items.unshift(...added);
          else {
            v.items.push(...added);
            if (vals.length) v.tailKnown = true;
          }
          if (loop) {
            v.complete = false;
            const iter = this.ordered(unit, this.eval(unit, loop.iter, env), loop.iter);
            v.taints.push(...iter.taints.filter((t) => t.cls === 'unordered'));
          }
          break;
        }
        case 'extend':
        case 'update': {
          const arg = m.args[0];
          if (!arg) break;
          const o = this.ordered(unit, this.eval(unit, arg, env), arg);
          if (o.kind === 'list') {
            v.items.push(...o.items);
            if (o.possible) v.possible = [...(v.possible ?? []), ...o.possible];
            v.complete &&= o.complete && !loop;
            seen &&= itemsSeen(o);
            v.taints.push(...o.taints);
            v.tailKnown = !loop && o.items.length > 0 && (o.complete || !!o.tailKnown);
          } else {
            v.complete = false;
            seen = false;
            v.taints.push(...allTaints(o));
            v.tailKnown = false;
          }
          break;
        }
        case 'pop': {
          const arg = m.args[0];
          const a = arg ? unit.adapter.expr(arg) : undefined;
          if (a && a.k === 'num' && a.value === 0) v.trims!.push(this.trim(unit, 'mutation', m.node));
          else v.tailKnown = false;
          v.complete = false;
          break;
        }
        case 'shift':
          v.trims!.push(this.trim(unit, 'mutation', m.node));
          v.complete = false;
          break;
        case 'splice': {
          const first = m.args[0] ? unit.adapter.expr(m.args[0]) : undefined;
          if (first && first.k === 'num' && first.value === 0 && m.args.length >= 2) v.trims!.push(this.trim(unit, 'mutation', m.node));
          // Items put in by `splice(i, n, ...items)` are not followed.
          if (m.args.length > 2) seen = false;
          v.complete = false;
          break;
        }
        case 'del-slice': {
          const target = m.node;
          const e = unit.adapter.expr(target);
          if (e.k === 'slice' && (e.upper || e.lower)) {
            const bound = e.upper ?? e.lower!;
            if (this.isCount(unit, bound)) v.trims!.push(this.trim(unit, 'mutation', target));
          }
          v.complete = false;
          break;
        }
        case 'set-key':
          if (m.path) {
            // `messages[-1]["content"][0]["cache_control"] = v`: written into an item that is seen, else not known.
            const written = this.writeBelow(unit, scopeNode, v, m, env, !!maybe?.has(m));
            if (written?.kind === 'list') v.items = written.items;
            break;
          }
          v.complete = false;
          seen = false;
          break;
        default:
          v.complete = false;
          // Taking items out keeps the others as they were; anything else may put in what is not seen.
          if (m.method !== 'remove' && m.method !== 'clear') seen = false;
          if (m.method !== 'set-key') v.tailKnown = false;
      }
    }
    if (!v.complete && seen) v.covered = true;
    else delete v.covered;
    if (v.complete || !head) delete v.head;
    else v.head = Math.min(head, v.items.length);
    return v;
  }

  /**
   * Keys written into an object after it was built (`d["k"] = v`). Keys computed in a loop over
   * an unordered source (a directory listing, a set) make the key order unordered too.
   */
  private applyKeyWrites(unit: FileUnit, scopeNode: Node, base: ObjValue, mutations: Mutation[], env?: Env, maybe?: ReadonlySet<Mutation>): Value {
    let v: ObjValue = { ...base, entries: [...base.entries], taints: [...base.taints] };
    for (const m of mutations) {
      if (m.method !== 'set-key' || m.args.length < 2) continue;
      if (m.path) {
        // A key written below (`kw["tools"][-1]["cache_control"] = v`): where the path leads to a
        // part that is seen; otherwise nothing is known of it (as before such writes were read).
        const written = this.writeBelow(unit, scopeNode, v, m, env, !!maybe?.has(m));
        if (written?.kind === 'obj') v = written;
        continue;
      }
      const [keyNode, valueNode] = m.args;
      const key = unit.adapter.expr(keyNode);
      const value = this.eval(unit, valueNode, env);
      const loop = unit.adapter.enclosingLoop(m.node, scopeNode);
      const staticKey = key.k === 'str' ? key.value : unit.adapter.propertyName(keyNode);
      if (staticKey !== undefined && !loop) {
        // A write that may not run over a key already written (`if long: b["cache_control"] = A`
        // `else: b["cache_control"] = B`) leaves one of the two values, not the last one written.
        v.entries.push(this.keyWritten(unit, v, staticKey, keyNode, valueNode, value, !!maybe?.has(m)));
        continue;
      }
      v.complete = false;
      v.taints.push(...allTaints(value));
      if (loop) {
        const iter = this.ordered(unit, this.eval(unit, loop.iter, env), loop.iter);
        for (const t of allTaints(iter)) {
          if (t.cls === 'unordered') v.taints.push({ ...t, kind: t.kind === 'unsorted-listing' ? 'unsorted-listing' : 'unordered-keys' });
        }
      }
    }
    return v;
  }

  /**
   * The entry a write of `key` into `obj` adds. A write that may not run (`conditional`) over a
   * key already written (`if long: b["cache_control"] = A` / `else: b["cache_control"] = B`)
   * leaves one of the two values, not the last one written; over a key that was there already,
   * the key is sent either way.
   */
  private keyWritten(unit: FileUnit, obj: ObjValue, key: string, keyNode: Node, valueNode: Node, value: Value, conditional: boolean): Entry {
    const earlier = conditional ? getEntryRecord(obj, key) : undefined;
    return {
      key,
      keyAt: unit.loc(keyNode),
      valueAt: unit.loc(valueNode),
      value: earlier ? union(earlier.value, value, unit.loc(valueNode)) : value,
      ...(conditional && (!earlier || earlier.conditional) ? { conditional: true } : {}),
    };
  }

  /**
   * `base` with the key of a `set-key` mutation that has a path written below it: each step of
   * the path (a key, an index, `-1` or `x.length - 1` for the last item) is followed into a part
   * that is seen, and the key is written into the object found there. Undefined when a step
   * leads to nothing seen (an index into a list whose items there are not known).
   */
  private writeBelow(unit: FileUnit, scopeNode: Node, base: Value, m: Mutation, env: Env | undefined, conditional: boolean): Value | undefined {
    if (unit.adapter.enclosingLoop(m.node, scopeNode)) return undefined;
    const [keyNode, valueNode] = m.args;
    const keyExpr = unit.adapter.expr(keyNode);
    const key = keyExpr.k === 'str' ? keyExpr.value : unit.adapter.propertyName(keyNode);
    if (key === undefined) return undefined;
    const steps = m.path ?? [];
    const write = (part: Value, depth: number): Value | undefined => {
      if (depth === steps.length) {
        // An object not known in full (`dict(spec)` of something not followed) has at least the key written.
        if (part.kind === 'unknown' && part.ref === undefined && !part.alternatives) part = { kind: 'obj', entries: [], complete: false, ...(part.at ? { at: part.at } : {}), taints: part.taints, ...(part.repeated ? { repeated: part.repeated } : {}) };
        if (part.kind !== 'obj') return undefined;
        return { ...part, entries: [...part.entries, this.keyWritten(unit, part, key, keyNode, valueNode, this.eval(unit, valueNode, env), conditional)] };
      }
      const step = steps[depth];
      if (part.kind === 'obj') {
        const e = unit.adapter.expr(step);
        const name = e.k === 'str' ? e.value : unit.adapter.propertyName(step);
        if (name === undefined) return undefined;
        const entries = part.entries;
        for (let i = entries.length - 1; i >= 0; i--) {
          if (entries[i].key !== name) continue;
          const inner = write(entries[i].value, depth + 1);
          if (!inner) return undefined;
          const copy = [...entries];
          copy[i] = { ...entries[i], value: inner };
          return { ...part, entries: copy };
        }
        return undefined;
      }
      if (part.kind === 'list') {
        const i = this.indexOfStep(unit, step, part);
        if (i === undefined) {
          // The last of the items a loop builds (`tools = [fmt(t) for t in specs]`, then
          // `tools[-1]["cache_control"] = ...`): one of them, now known to come last (the write
          // raises on an empty list).
          const last = part.items[part.items.length - 1];
          if (!last?.repeated || (part.possible && !part.tailKnown) || (!part.tailKnown && !part.complete && !itemsSeen(part)) || this.stepNumber(unit, step) !== -1) return undefined;
          const { repeated: _repeated, ...one } = last;
          const inner = write(one as Value, depth + 1);
          if (!inner) return undefined;
          return { ...part, items: [...part.items, inner], complete: false, tailKnown: true, ...(itemsSeen(part) ? { covered: true } : {}) };
        }
        const inner = write(part.items[i], depth + 1);
        if (!inner) return undefined;
        const items = [...part.items];
        items[i] = inner;
        return { ...part, items };
      }
      return undefined;
    };
    return write(base, 0);
  }

  /** The index an index step writes, counted from the end when negative (`-1`, `items[items.length - 1]`). */
  private stepNumber(unit: FileUnit, step: Node): number | undefined {
    const e = unit.adapter.expr(step);
    if (e.k === 'num') return Number.isInteger(e.value) ? e.value : undefined;
    return unit.adapter.isLastIndex(step) ? -1 : undefined;
  }

  /** Which seen item of a list an index step names: a number from either end (`-1`, `x.length - 1` for the last). */
  private indexOfStep(unit: FileUnit, step: Node, list: ListValue): number | undefined {
    const known = list.complete && !list.possible;
    const n = this.stepNumber(unit, step);
    if (n === undefined) return undefined;
    if (n >= 0) return n < list.items.length && (known || n < knownHead(list)) && !list.items[n].repeated ? n : undefined;
    const last = list.items.length + n;
    if (last < 0 || list.items[last]?.repeated) return undefined;
    if (known) return last;
    return n === -1 && list.tailKnown && list.items.length ? last : undefined;
  }

  // ---- calls ----

  private call(unit: FileUnit, node: Node, calleeNode: Node, args: Arg[], env: Env | undefined, isNew: boolean): Value {
    const calleeExpr = unit.adapter.expr(calleeNode);
    // Methods on a receiver value (`"-".join(x)`, `now.isoformat()`, `arr.slice(-5)`).
    if (calleeExpr.k === 'member') {
      const receiver = this.eval(unit, calleeExpr.object, env);
      const rref = this.refOf(receiver);
      if (!rref || rref.kind === 'instance' || rref.kind === 'external-instance') {
        const special = this.method(unit, receiver, calleeExpr.prop, args, node, env);
        if (special) return special;
      }
      const fn = this.member(unit, receiver, calleeExpr.prop, calleeNode, env);
      return this.apply(unit, fn, node, args, env, isNew, calleeExpr.prop);
    }
    const fn = this.eval(unit, calleeNode, env);
    return this.apply(unit, fn, node, args, env, isNew, calleeExpr.k === 'ident' ? calleeExpr.name : undefined);
  }

  /** The calls whose results a call's arguments hold (resultsHeld), as evaluated where the call is. */
  private originsOfArgs(unit: FileUnit, args: readonly Arg[], env: Env | undefined): Set<string> {
    const out = new Set<string>();
    for (const a of args) resultsHeld(this.eval(unit, a.value, env), out);
    return out;
  }

  private apply(unit: FileUnit, fn: Value, node: Node, args: Arg[], env: Env | undefined, isNew: boolean, shortName?: string): Value {
    const at = unit.loc(node);
    const ref = this.refOf(fn);
    if (ref?.kind === 'external') {
      const kind = unit.frontEnd.library.classify(ref.name);
      if (kind) return this.source(unit, kind, ref.name, node, args, env, isNew);
      // A library function's result depends on its arguments (`Math.floor(Math.random() * n)`).
      const argTaints = args.flatMap((a) => allTaints(this.eval(unit, a.value, env))).filter((t) => t.cls !== 'unordered');
      // `from app.memory import search_memories`: data retrieved per request.
      const last = ref.name.slice(ref.name.lastIndexOf('.') + 1);
      if (!isNew && RETRIEVAL_NAME.test(last) && !/^(re|regex|bisect|fnmatch|difflib)\./.test(ref.name)) argTaints.unshift(this.taint('per-request', 'retrieval', unit, node));
      return this.withRef({ kind: 'external-instance', name: ref.name, unit, call: node, args, ...(env ? { env } : {}) }, at, argTaints);
    }
    if (ref?.kind === 'function') {
      const v = this.inline(unit, ref, node, args, env);
      // `get_memories(user_id, q)` whose body reads a store the analysis does not see: what it
      // returns is not known, and only depends on its inputs as far as the body shows, so its
      // name says what it is, as for a call that is not followed. A body that shows more (a
      // constant, a pick among written values, data already retrieved) is taken as it is.
      let given: Set<string> | undefined;
      if (!isNew && shortName && RETRIEVAL_NAME.test(shortName) && !isComplete(v) && allTaints(v).every((t) => t.kind === 'parameter' || t.kind === 'loop-variable') && !(args.length === 1 && builtFromInputs(v, () => (given ??= this.originsOfArgs(unit, args, env))))) {
        return { ...v, taints: [this.taint('per-request', 'retrieval', unit, node), ...v.taints] } as Value;
      }
      return v;
    }
    if (ref?.kind === 'class') return this.withRef({ kind: 'instance', unit: ref.unit, cls: ref.node, made: { unit, call: node, args, env } }, at);
    // A provider that an AI SDK factory made (`const myAnthropic = createAnthropic({ apiKey })`) is
    // called as the package's own (`anthropic('claude-…')`): the result is the package's, made with
    // these arguments (the model id).
    if (ref?.kind === 'external-instance' && PROVIDER_FACTORY.test(ref.name)) {
      return this.withRef({ kind: 'external-instance', name: `${ref.name}()`, unit, call: node, args, ...(env ? { env } : {}), factory: { unit: ref.unit, args: ref.args, ...(ref.env ? { env: ref.env } : {}) } }, at);
    }
    if (shortName && RETRIEVAL_NAME.test(shortName)) {
      return unknown(at, `result of ${shortName}()`, [this.taint('per-request', 'retrieval', unit, node)]);
    }
    // The result of a call we cannot follow (a request, a library call): what is read from it remembers the call.
    const origin: Origin = fn.kind === 'unknown' && fn.origin ? { ...fn.origin, path: `${fn.origin.path}()` } : { call: at, path: '' };
    // A method of a value that carries taints (`docs.join(...)` on retrieved documents) keeps them.
    return { ...unknown(at, shortName ? `result of ${shortName}()` : 'call result', fn.taints.filter((t) => t.cls !== 'unordered')), origin };
  }

  /**
   * The per-request taints of a test or filter expression. Comparisons, `in` and boolean
   * operators are not values of their own, so their operands are looked at instead.
   */
  private perRequestIn(unit: FileUnit, node: Node, env?: Env, depth = 0): Taint[] {
    if (depth > 4) return [];
    const e = unit.adapter.expr(node);
    if (e.k !== 'other' && e.k !== 'func') return allTaints(this.eval(unit, node, env)).filter((t) => t.cls === 'per-request');
    return node.namedChildren.flatMap((c) => (c && !unit.adapter.isComment(c) ? this.perRequestIn(unit, c, env, depth + 1) : []));
  }

  private argValues(unit: FileUnit, args: Arg[], env?: Env): Value[] {
    return args.filter((a) => !a.name && !a.spread).map((a) => this.eval(unit, a.value, env));
  }

  private kwarg(args: Arg[], name: string): Arg | undefined {
    return args.find((a) => a.name === name);
  }

  taint(cls: TaintClass, kind: TaintKind, unit: FileUnit, node: Node, fixAt?: Loc): Taint {
    const t: Taint = { cls, kind, at: unit.loc(node), text: shorten(node.text), chain: [], fixAt };
    // A clock or random value computed in a module's (or a class's) body: once per process.
    if ((cls === 'clock' || cls === 'random') && unit.enclosingFunction(node).id === unit.tree.rootNode.id) t.once = true;
    return t;
  }

  /** The dict `dict(a=1, **rest)` makes: its keywords, and the entries of the dicts spread into it. */
  private keywordDict(unit: FileUnit, args: readonly Arg[], at: Loc, env: Env | undefined): Value {
    return this.dict(unit, args.map((a) => (a.name ? { key: a.name, keyNode: a.nameNode, value: a.value } : { value: a.value, spread: true })), at, env);
  }

  private source(unit: FileUnit, kind: SourceKind, name: string, node: Node, args: Arg[], env: Env | undefined, isNew: boolean): Value {
    const at = unit.loc(node);
    const positional = () => this.argValues(unit, args, env);
    switch (kind) {
      case 'clock':
        // `time.strftime(fmt, t)` formats a given time; only the one-argument form reads the clock.
        if ((name === 'time.strftime' || name === 'time.ctime' || name === 'time.asctime' || name === 'time.localtime' || name === 'time.gmtime') && args.length >= (name === 'time.strftime' ? 2 : 1)) {
          return unknown(at, name, positional().flatMap((v) => allTaints(v)));
        }
        if (name === 'dayjs' || name === 'moment' || name.endsWith('.default')) {
          if (args.length) return unknown(at, name, positional().flatMap((v) => allTaints(v)));
        }
        if (name === 'datetime.date.today') return unknown(at, `${name}()`, [{ ...this.taint('clock', 'clock-call', unit, node), daily: true }]);
        return unknown(at, `${name}()`, [this.taint('clock', 'clock-call', unit, node)]);
      case 'date-ctor': {
        if (isNew && args.length === 0) return unknown(at, 'new Date()', [this.taint('clock', 'clock-call', unit, node)]);
        if (!isNew) return unknown(at, 'Date()', [this.taint('clock', 'clock-call', unit, node)]);
        return unknown(at, 'date', positional().flatMap((v) => allTaints(v)));
      }
      case 'random':
        return unknown(at, `${name}()`, [this.taint('random', 'random-call', unit, node)]);
      case 'environment':
        return unknown(at, `${name}()`, [this.taint('environment', 'environment', unit, node)]);
      case 'listing':
        return { kind: 'list', items: [], complete: false, at, taints: [this.taint('unordered', 'unsorted-listing', unit, node, at)] };
      case 'sorted': {
        const arg = args[0];
        if (!arg) return unknown(at);
        const v = this.eval(unit, arg.value, env);
        const clean = withoutUnordered(v);
        return clean.kind === 'list' ? { ...clean, at, head: 0 } : { kind: 'list', items: [], complete: false, at, taints: allTaints(clean) };
      }
      case 'set': {
        const arg = args[0];
        if (!arg) return { kind: 'list', items: [], complete: true, isSet: true, at, taints: [] };
        const v = this.eval(unit, arg.value, env);
        return v.kind === 'list' ? { ...v, isSet: true, at, head: 0 } : { kind: 'list', items: [], complete: false, isSet: true, at, taints: allTaints(v) };
      }
      case 'to-list': {
        const arg = args[0];
        if (!arg) return { kind: 'list', items: [], complete: true, at, taints: [] };
        const v = this.ordered(unit, this.eval(unit, arg.value, env), arg.value);
        return v.kind === 'list' ? { ...v, at } : { kind: 'list', items: [], complete: false, at, taints: allTaints(v) };
      }
      case 'passthrough': {
        const vals = positional();
        // `bool(self.cache_tools)`: the truth of a value known well enough.
        if (name === 'builtins.bool' && args.length <= 1) {
          const t = vals.length ? truthy(vals[0], unit.adapter.family) : false;
          return t === undefined ? unknown(at, name, vals.flatMap((v) => allTaints(v))) : { kind: 'bool', value: t, at, taints: vals.flatMap((v) => allTaints(v)) };
        }
        if (vals.length === 1 && vals[0].kind === 'str') return { ...vals[0], at };
        // `dict(mapping)`: a copy of it (and of the keywords given with it).
        if (name === 'builtins.dict' && vals.length === 1 && vals[0].kind === 'obj' && args.every((a) => !a.spread)) {
          const copied = vals[0];
          const named = args.filter((a) => a.name).map((a) => ({ key: a.name!, keyAt: unit.loc(a.nameNode ?? a.value), valueAt: unit.loc(a.value), value: this.eval(unit, a.value, env) }));
          return { ...copied, entries: [...copied.entries, ...named], at };
        }
        if (name === 'builtins.dict' && args.every((a) => a.name || a.spread === 'dict')) return this.keywordDict(unit, args, at, env);
        return unknown(at, name, vals.flatMap((v) => allTaints(v)));
      }
      case 'record':
        return args.every((a) => a.name || a.spread === 'dict') ? this.keywordDict(unit, args, at, env) : unknown(at, name, positional().flatMap((v) => allTaints(v)));
      case 'clone': {
        const arg = args.find((a) => !a.name && !a.spread);
        return arg ? { ...this.eval(unit, arg.value, env), at } : unknown(at, name);
      }
      case 'merge': {
        // What `{...a, ...b}` is; a spread argument (`Object.assign({}, ...parts)`) leaves keys unseen.
        if (args.some((a) => a.spread)) return unknown(at, name, positional().flatMap((v) => allTaints(v)));
        return this.dict(unit, args.map((a) => ({ value: a.value, spread: true })), at, env);
      }
      case 'json-dumps': {
        const arg = args.find((a) => !a.name);
        if (!arg) return unknown(at);
        const v = this.eval(unit, arg.value, env);
        const sortKeys = this.kwarg(args, 'sort_keys');
        const sorted = sortKeys ? this.eval(unit, sortKeys.value, env) : undefined;
        if (sorted?.kind === 'bool' && sorted.value === true) {
          return { kind: 'str', text: HOLE, complete: false, at, taints: allTaints(withoutUnordered(v)) };
        }
        if (this.fixedOrder(v)) {
          return { kind: 'str', text: HOLE, complete: false, at, taints: allTaints(v) };
        }
        const taints = allTaints(v).filter((t) => t.cls !== 'unordered');
        taints.push(this.taint('unordered', 'unsorted-json', unit, node, at));
        return { kind: 'str', text: HOLE, complete: false, at, taints };
      }
      case 'json-stringify': {
        const arg = args[0];
        if (!arg) return unknown(at);
        const v = this.eval(unit, arg.value, env);
        const all = allTaints(v);
        if (!all.some((t) => t.cls === 'unordered')) return { kind: 'str', text: HOLE, complete: false, at, taints: all };
        return { kind: 'str', text: HOLE, complete: false, at, taints: [...all.filter((t) => t.cls !== 'unordered'), this.taint('unordered', 'unsorted-json', unit, node)] };
      }
      case 'object-keys':
      case 'object-entries': {
        const arg = args[0];
        const v = arg ? this.eval(unit, arg.value, env) : undefined;
        return { kind: 'list', items: [], complete: false, at, taints: v ? allTaints(v) : [] };
      }
      case 'object-from-entries': {
        const arg = args[0];
        const v = arg ? this.eval(unit, arg.value, env) : undefined;
        return { kind: 'obj', entries: [], complete: false, at, taints: v ? allTaints(v) : [] };
      }
      case 'require': {
        const arg = args[0];
        const spec = arg ? this.eval(unit, arg.value, env) : undefined;
        if (spec?.kind === 'str' && spec.complete) {
          const target = this.resolveModule(unit, spec.text);
          if (!target && this.unread(unit, spec.text)) return unknown(at, `require of ${spec.text}`);
          return target ? this.withRef({ kind: 'module', unit: target }, at) : this.withRef({ kind: 'external', name: spec.text }, at);
        }
        return unknown(at);
      }
      default:
        return unknown(at);
    }
  }

  /** A value whose serialisation has a fixed key order: built from literals, not at run time. */
  private fixedOrder(v: Value): boolean {
    switch (v.kind) {
      case 'str':
      case 'num':
      case 'bool':
      case 'null':
        return true;
      case 'list':
        return v.complete && !v.isSet && !v.taints.some((t) => t.cls === 'unordered' || t.cls === 'per-request') && v.items.every((i) => this.fixedOrder(i));
      case 'obj':
        return v.complete && !v.taints.some((t) => t.cls === 'unordered' || t.cls === 'per-request') && v.entries.every((e) => this.fixedOrder(e.value));
      default:
        return false;
    }
  }

  /**
   * Whether a method called on a time reads only its date: `strftime` with a written format that
   * has no time-of-day directive (`"%A, %B %-d, %Y"`, `"%Y-%m-%d"`), Python's `date()`,
   * JavaScript's `toDateString()` / `toLocaleDateString()`.
   */
  private readsTheDate(unit: FileUnit, prop: string, args: Arg[], env?: Env): boolean {
    if (prop === 'toDateString' || prop === 'toLocaleDateString') return true;
    if (prop === 'date') return args.length === 0;
    if (prop !== 'strftime' || args.length !== 1 || args[0].spread || args[0].name) return false;
    const format = this.eval(unit, args[0].value, env);
    return format.kind === 'str' && format.complete && !/%[-_0^#]*[HIMSfpXcTrRskl]/.test(format.text);
  }

  /** Methods of built-in values that keep or combine what their receiver carries. */
  private method(unit: FileUnit, receiver: Value, prop: string, args: Arg[], node: Node, env?: Env): Value | undefined {
    const own = unit.frontEnd.library.method(this, unit, receiver, prop, args, node, env);
    if (own) return own;
    const at = unit.loc(node);
    const rtaints = allTaints(receiver);
    // `TEMPLATE.replace("{{DATE}}", today)`: the replacement is written into the text.
    if (receiver.kind === 'str' && (prop === 'replace' || prop === 'replaceAll') && args.length >= 2 && !args.some((a) => a.spread)) {
      const pattern = this.eval(unit, args[0].value, env);
      const replacement = this.markEmbed(this.eval(unit, args[1].value, env), unit.loc(args[1].value));
      const found = pattern.kind === 'str' && pattern.complete ? receiver.text.includes(pattern.text) : true;
      if (!found && receiver.complete) return { ...receiver, literal: false, at };
      const piece = replacement.kind === 'str' ? replacement.text : HOLE;
      const text = pattern.kind === 'str' && pattern.complete && pattern.text ? receiver.text.split(pattern.text).join(piece) : receiver.text + HOLE;
      const complete = receiver.complete && pattern.kind === 'str' && pattern.complete && replacement.kind === 'str' && replacement.complete;
      return bounded({ kind: 'str', text, complete, at, taints: [...rtaints, ...allTaints(replacement)] });
    }
    // On a text that is not known (read from a file, returned by a call, `TEMPLATE * 3`), what
    // `replace` writes in and what `format` fills in still go into the result.
    const rref = this.refOf(receiver);
    if (receiver.kind !== 'list' && receiver.kind !== 'obj' && receiver.kind !== 'str' && (!rref || rref.kind === 'external-instance') && !args.some((a) => a.spread === 'list')) {
      const filled = (prop === 'replace' || prop === 'replaceAll') && args.length >= 2 ? [args[1]] : prop === 'format' ? args : [];
      const taints = filled.flatMap((a) => allTaints(this.markEmbed(this.eval(unit, a.value, env), unit.loc(a.value))));
      if (taints.length) return { kind: 'str', text: HOLE, complete: false, at, taints: [...rtaints, ...taints] };
    }
    // The date of a clock value (`now.strftime("%Y-%m-%d")`, `now.date()`, `d.toDateString()`):
    // the same all day.
    if (rtaints.some((t) => t.cls === 'clock' && !t.daily) && this.readsTheDate(unit, prop, args, env)) {
      return unknown(at, `${prop}()`, rtaints.map((t) => (t.cls === 'clock' ? { ...t, daily: true } : t)));
    }
    // Date/str methods on a value keep its taints (`now.isoformat()`, `d.toISOString()`).
    // `store.search(...)`, `memory.recall(...)` on a per-request object: retrieved data.
    if (receiver.kind === 'unknown' && !this.refOf(receiver) && rtaints.length && RETRIEVAL_NAME.test(prop)) {
      return unknown(at, `result of ${prop}()`, [this.taint('per-request', 'retrieval', unit, node), ...rtaints]);
    }
    if (receiver.kind === 'unknown' && !this.refOf(receiver) && rtaints.length) {
      return unknown(at, `${prop}()`, rtaints);
    }
    if (receiver.kind === 'str' && !receiver.literal) {
      return { kind: 'str', text: HOLE, complete: false, at, taints: rtaints };
    }
    return undefined;
  }

  /** Inlines a simple function: binds arguments to parameters and evaluates its returns. */
  private inline(unit: FileUnit, ref: Extract<Ref, { kind: 'function' }>, node: Node, args: Arg[], env?: Env): Value {
    const positional = args.filter((a) => !a.name && !a.spread).map((a) => this.eval(unit, a.value, env));
    const named = new Map(args.filter((a) => a.name).map((a) => [a.name!, this.eval(unit, a.value, env)] as const));
    return this.invoke(ref, positional, unit.loc(node), named);
  }

  /**
   * The returns of a function that can run with these parameters: not under a test decided
   * against them, and none written after a return that certainly runs
   * (`if not self.cache_tools: return TOOLS` on an instance built without tool caching).
   */
  private liveReturns(unit: FileUnit, fn: Node, returns: readonly Node[], env: Env): Node[] {
    const live: Node[] = [];
    for (const r of [...returns].sort((a, b) => a.startIndex - b.startIndex)) {
      const runs = this.reached(unit, r, fn, env, undefined, true);
      if (runs === false) continue;
      live.push(r);
      if (runs) break;
    }
    return live;
  }

  /**
   * `new C(...)` where `C` (or the object it is read from, `new Providers.Claude(...)`) is imported
   * or required from a file of the workspace: an instance of a class there, which carries no taint.
   */
  private newOfWorkspaceClass(unit: FileUnit, node: Node): boolean {
    const e = unit.adapter.expr(node);
    if (e.k !== 'new') return false;
    let root = e.callee;
    for (let x = unit.adapter.expr(root); x.k === 'member' || x.k === 'wrap'; x = unit.adapter.expr(root)) root = x.k === 'member' ? x.object : x.inner;
    const r = unit.adapter.expr(root);
    if (r.k !== 'ident') return false;
    const b = this.findBinding(unit, root, r.name)?.binding;
    if (b?.kind === 'import' && b.importFrom) return unit.workspace.modulePath(unit, b.importFrom.module) !== undefined;
    if (b?.kind !== 'assign' || !b.value || b.position !== undefined) return false;
    const v = unit.adapter.expr(b.value);
    const spec = v.k === 'call' && v.args.length === 1 ? unit.adapter.expr(v.args[0].value) : undefined;
    const fn = v.k === 'call' ? unit.adapter.expr(v.callee) : undefined;
    return fn?.k === 'ident' && fn.name === 'require' && spec?.k === 'str' && unit.workspace.modulePath(unit, spec.value) !== undefined;
  }

  /**
   * A function's parameters bound to the values of a call's arguments (a parameter not given
   * takes its default; one with neither is left to its callers, see paramFromCallers).
   */
  bind(ref: Extract<Ref, { kind: 'function' }>, positional: Value[], at: Loc, named = new Map<string, Value>()): Env {
    const info = ref.unit.adapter.functionInfo(ref.node);
    const inner: Env = new Map();
    if (ref.self) inner.set('<self>', this.withRef(ref.self, at));
    // `obj.method(x)` passes `x` as the parameter after `self`.
    const shift = ref.self && info.receiver ? 1 : 0;
    for (const p of info.params) {
      if (p.rest || p.kwrest) continue;
      const v = (p.key === undefined ? named.get(p.name) : undefined) ?? (p.index >= shift ? positional[p.index - shift] : undefined);
      if (v) inner.set(p.name, this.paramPart(ref.unit, p, v, ref.node));
      else if (p.default) inner.set(p.name, this.paramPart(ref.unit, p, this.eval(ref.unit, p.default), ref.node));
    }
    return inner;
  }

  /** Evaluates a function's return values with its parameters bound to argument values. */
  invoke(ref: Extract<Ref, { kind: 'function' }>, positional: Value[], at: Loc, named = new Map<string, Value>()): Value {
    if (this.inlineDepth >= MAX_INLINE_DEPTH) return unknown(at, 'call too deep');
    const info = ref.unit.adapter.functionInfo(ref.node);
    if (!info.returns.length) return unknown(at, 'function without a return value');
    const inner = this.bind(ref, positional, at, named);
    this.inlineDepth++;
    try {
      const live = this.liveReturns(ref.unit, ref.node, info.returns, inner);
      if (!live.length) return unknown(at, 'no return reached');
      // Alternatives are joined into a value that refers to nothing: an instance of a workspace
      // class among them (a factory's `return new OpenAiLLM(...)` for each provider) adds nothing
      // to it, and its class's file is not read for it.
      const values = live.map((r) => (live.length > 1 && this.newOfWorkspaceClass(ref.unit, r) ? unknown(ref.unit.loc(r), 'an instance of a class of the workspace') : this.eval(ref.unit, r, inner)));
      const v = values.length === 1 ? values[0] : values.reduce((a, b) => union(a, b, at));
      return withChainStep({ ...v, at: v.at ?? at } as Value, at);
    } finally {
      this.inlineDepth--;
    }
  }
}

/**
 * Whether a text calls `.name(` on something other than `self`, `this` or `super()`, which in
 * another file are instances of another class.
 */
function callsOnOtherReceiver(text: string, name: string): boolean {
  const call = new RegExp(`\\.\\s*${name.replace(/\$/g, '\\$')}\\(`, 'g');
  for (const m of text.matchAll(call)) if (!/(?:\b(?:self|this)|\bsuper\(\))\s*\??$/.test(text.slice(Math.max(0, m.index - 12), m.index))) return true;
  return false;
}

/**
 * A value known to be a text string (not bytes), for `sorted` over a set of them, which cannot
 * raise: a string whose place is written in this file and is not a bytes literal.
 */
function isTextString(unit: FileUnit, v: Value): boolean {
  if (v.kind !== 'str' || !v.at || v.at.file !== unit.file) return false;
  return !/^[rR]?[bB][rR]?["']/.test(unit.text.slice(v.at.start, v.at.end));
}

/** The name a change is made through, as the code reads it (`history` for `self.history.append(...)`). */
function changedName(m: Mutation): string {
  return m.name.replace(/^<self>\./, '');
}

/** What holds for a text reading `name` as a whole name (not within a longer one: `history` in `history2`). */
function readerOf(name: string): NameReader {
  return { test: (text) => readsWholeName(text, name) };
}

/** The names an expression reads (`tool` in `tool.get("extras")`; not the attribute `get`). */
function namesIn(unit: FileUnit, node: Node): Set<string> {
  const out = new Set<string>();
  walk(node, (n) => {
    if (unit.adapter.expr(n).k !== 'ident') return;
    const p = n.parent ? unit.adapter.expr(n.parent) : undefined;
    if (p?.k === 'member' && p.object.id !== n.id) return;
    out.add(n.text);
  });
  return out;
}

/** A taint's production site and interpolation, to tell one taint from another. */
function taintSite(t: Taint): string {
  return `${t.at.file}\u0000${t.at.start}\u0000${t.kind}\u0000${t.embed?.start ?? ''}`;
}

/** The comparable keys a value may have: its constant key, or one per text it may be (UnknownValue.oneOf). */
function comparableKeys(v: Value): string[] | undefined {
  const k = constantKey(v);
  if (k !== undefined) return [k];
  return v.kind === 'unknown' && v.oneOf ? v.oneOf.map((t) => `s:${t}`) : undefined;
}

/**
 * Whether a value counts as true in a test, when that is known: a boolean or a number without
 * taints, a string by its written text, a Python list or dict by whether it has an item (one
 * that stands for each iteration may stand for none); JavaScript objects and arrays are always
 * true. Undefined otherwise.
 */
function truthy(v: Value, family: Adapter['family']): boolean | undefined {
  switch (v.kind) {
    case 'bool':
    case 'num':
    case 'null':
      return v.taints.length ? undefined : v.kind === 'bool' ? (v.value as boolean) : v.kind === 'num' ? v.value !== 0 : false;
    case 'str': {
      // The written part decides: text around an unknown part is not empty.
      if (v.text.split(HOLE).join('') !== '') return true;
      return v.complete ? false : undefined;
    }
    case 'list':
    case 'obj': {
      if (family === 'js') return true;
      // An item that stands for one per iteration may stand for none; one added by code that may not run, too.
      const sure = v.kind === 'list' ? v.items.some((i) => !i.repeated && !i.conditional) : v.entries.some((e) => !e.conditional);
      if (sure) return true;
      return v.complete && (v.kind === 'list' ? v.items.length === 0 : true) ? false : undefined;
    }
    default:
      return undefined;
  }
}

/** A value known in full as a comparable key (`s:text`, `n:1`, `b:true`, `z:null`); undefined when any part may differ or is not known. */
function constantKey(v: Value): string | undefined {
  if (v.taints.length) return undefined;
  switch (v.kind) {
    case 'str':
      return v.complete ? `s:${v.text}` : undefined;
    case 'num':
      return `n:${v.value}`;
    case 'bool':
      return `b:${v.value}`;
    case 'null':
      return 'z:null';
    default:
      return undefined;
  }
}

/** The innermost loop statement around `use` (below `stop`) that does not contain the binding. */
function loopAround(adapter: Adapter, use: Node, binding: Node, stop: Node): Node | undefined {
  for (let n: Node | null = use.parent; n && n.id !== stop.id; n = n.parent) {
    if (adapter.isLoopStatement(n)) return binding.startIndex < n.startIndex ? n : undefined;
  }
  return undefined;
}

/** The taints of a key or test that picks one alternative: per-request ones become 'selector'. */
export function asSelector(taints: Taint[]): Taint[] {
  return taints.map((t) => (t.cls === 'per-request' ? { ...t, kind: 'selector' } : t));
}

export type { Entry };

/** The origin of the items of a list that is joined (`"".join(b.text for b in resp.content)`). */
export function itemsOrigin(v: Value): Origin | undefined {
  if (v.kind === 'list') return v.items.find((i) => i.origin)?.origin ?? v.origin;
  return v.origin;
}

/** Whether a reference is the function `fn` of `unit` (its definition, by place). */
function isFunction(ref: Ref | undefined, unit: FileUnit, fn: Node): boolean {
  return ref?.kind === 'function' && ref.unit.file === unit.file && ref.node.startIndex === fn.startIndex && ref.node.endIndex === fn.endIndex;
}

/** The calls (locKey) whose results a value holds parts of, as far as its lists, objects and alternatives show them. */
function resultsHeld(v: Value, out: Set<string>, depth = 0): Set<string> {
  if (depth > 8) return out;
  if (v.origin) out.add(locKey(v.origin.call));
  if (v.kind === 'list') for (const x of [...v.items, ...(v.possible ?? [])]) resultsHeld(x, out, depth + 1);
  else if (v.kind === 'obj') for (const e of v.entries) resultsHeld(e.value, out, depth + 1);
  else if (v.kind === 'unknown') for (const x of v.alternatives ?? []) resultsHeld(x, out, depth + 1);
  return out;
}

/**
 * Whether a function's result, as its body shows it, is a list or object it builds whose unknown
 * parts all came in with its argument (a parameter, an item of one, a value read from one, the
 * result of a call the caller made) rather than from a call the function makes and the analysis
 * does not follow: `_apply_tool_search(tools)` returning `[search_tool, *({**t, "defer_loading":
 * True} for t in tools)]` reshapes the tools it is handed and retrieves nothing, whatever its name
 * says. Asked of calls with one argument: with more, one may pick or order the others (a query
 * that reranks memories), which is per request. `given` gives the calls whose results the
 * argument holds (resultsHeld), asked only when a part is such a result (it evaluates the
 * argument again). A text (whose unknown parts are only holes), or an unknown value as a whole,
 * is not known to be so.
 */
function builtFromInputs(v: Value, given: () => ReadonlySet<string>, depth = 0): boolean {
  if (depth > 8) return false;
  const part = (x: Value): boolean => (x.kind === 'unknown' ? !x.origin || given().has(locKey(x.origin.call)) : isComplete(x) || builtFromInputs(x, given, depth + 1));
  if (v.kind === 'list') return v.items.every(part) && (v.possible ?? []).every(part);
  if (v.kind === 'obj') return v.entries.every((e) => part(e.value));
  return false;
}
