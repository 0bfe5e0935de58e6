/** Builds the core FileView of a parsed file (see src/core/fileView.ts). */
import * as path from 'node:path';
import type { ArgView, Assignment, CallSite, FileOp, FileView, FunctionView, KeyAssignment, MemberRead } from '../core/fileView';
import { PROJECT_MARKERS } from '../core/project';
import type { Loc } from '../core/span';
import type { Value } from '../core/value';
import type { LanguageId } from '../core/model';
import type { Evaluator } from './evaluate';
import { frontEndFor } from './frontEnds';
import type { Expr } from './syntax';
import { findFilters } from './filters';
import { findPathJoins } from './paths';
import { filePath } from './fileOps';
import type { Node } from './parsers';
import { cuaImageWindows, turnHooks } from './turnHooks';
import { walk } from './walk';
import type { FileUnit } from './workspace';

/** `items.forEach((item) => ...)`: the callback around `node` iterates the receiver. */
function callbackLoop(unit: FileUnit, ev: Evaluator, node: Node | undefined): ReturnType<FileView['enclosingLoop']> {
  let fn: Node | null = node?.parent ?? null;
  while (fn && !unit.adapter.isFunction(fn)) fn = fn.parent;
  const it = fn ? unit.frontEnd.facts.callbackIteration(fn) : undefined;
  if (!it) return undefined;
  // The item and its index (`(step, i) =>`), without their types: the names a pass is told by.
  const names = [it.target, it.index].flatMap((n) => (n ? [n.text.replace(/\s*:.*$/s, '')] : []));
  return { at: unit.loc(it.call), iterText: it.iter.text, iter: lazy(() => ev.eval(unit, it.iter)), targetText: names.length ? names.join(', ') : undefined, callback: true };
}

function lazy(f: () => Value): () => Value {
  let v: Value | undefined;
  return () => (v ??= f());
}

/**
 * A call of the file as rules see it (CallSite). Its parts are read when a rule first asks for
 * them: the rules that walk every call of a file read two or three parts of each.
 */
class CallSiteView implements CallSite {
  private atLoc?: Loc;
  private calleeTextOf?: string;
  private nameOf?: string;
  private methodOf?: string;
  private argViews?: ArgView[];
  private receiverView?: ArgView | null;

  constructor(
    private readonly unit: FileUnit,
    private readonly ev: Evaluator,
    private readonly node: Node,
    private readonly e: Extract<Expr, { k: 'call' | 'new' }>,
  ) {}

  get at(): Loc {
    return (this.atLoc ??= this.unit.loc(this.node));
  }

  get isNew(): boolean {
    return this.e.k === 'new';
  }

  get calleeText(): string {
    return (this.calleeTextOf ??= this.e.callee.text.replace(/\s+/g, ''));
  }

  /** Resolved from this file's bindings only (see Evaluator.calleeName). */
  get name(): string {
    return (this.nameOf ??= this.ev.calleeName(this.unit, this.e.callee) ?? this.calleeText);
  }

  get method(): string {
    if (this.methodOf === undefined) {
      const c = this.unit.adapter.expr(this.e.callee);
      this.methodOf = c.k === 'member' ? c.prop : c.k === 'ident' ? c.name : this.e.callee.text;
    }
    return this.methodOf;
  }

  get receiver(): ArgView | undefined {
    if (this.receiverView === undefined) {
      const c = this.unit.adapter.expr(this.e.callee);
      this.receiverView = c.k === 'member' ? new ArgViewOf(this.unit, this.ev, c.object) : null;
    }
    return this.receiverView ?? undefined;
  }

  get args(): ArgView[] {
    return (this.argViews ??= this.e.args.map((a) => new ArgViewOf(this.unit, this.ev, a.value, a.name)));
  }
}

/**
 * An argument or receiver of a call site: its location and text are read when asked for, its
 * value evaluated once when first asked for (rules mostly read the text of a few arguments).
 */
class ArgViewOf implements ArgView {
  private atLoc?: Loc;
  private textOf?: string;
  private valueOf?: Value;
  /** An own function, as ArgView.value is used detached from its view. */
  readonly value = (): Value => (this.valueOf ??= this.ev.eval(this.unit, this.node));

  constructor(
    private readonly unit: FileUnit,
    private readonly ev: Evaluator,
    private readonly node: Node,
    /** The keyword of a keyword argument. */
    readonly name?: string,
  ) {}

  get at(): Loc {
    return (this.atLoc ??= this.unit.loc(this.node));
  }

  get text(): string {
    return (this.textOf ??= this.node.text);
  }
}

export function buildFileView(unit: FileUnit, ev: Evaluator): FileView {
  const facts = unit.frontEnd.facts;
  const nodeAt = (at: Loc): Node | undefined => {
    if (at.file !== unit.file) return undefined;
    return unit.tree.rootNode.descendantForIndex(at.start, Math.max(at.start, at.end - 1)) ?? undefined;
  };

  // Each part is built when a rule first reads it: most files need only one or two of them,
  // and the call list evaluates every callee of the file.
  const buildCalls = (): CallSite[] => {
    const calls: CallSite[] = [];
    for (const node of unit.calls) {
      const e = unit.adapter.expr(node);
      if (e.k === 'call' || e.k === 'new') calls.push(new CallSiteView(unit, ev, node, e));
    }
    return calls;
  };

  const buildFunctions = () => {
    const functions: FunctionView[] = [];
    const fnByNode = new Map<number, FunctionView>();
    for (const n of unit.nodesOfTypes(unit.adapter.functionTypes)) {
      if (unit.adapter.isFunction(n)) {
        const name = facts.functionName(n);
        const cls = unit.enclosingClass(n);
        const header = cls && unit.adapter.classHeader(cls);
        const ofClass = cls && header ? { start: cls.startIndex, name: header.name, bases: header.bases.match(/[A-Za-z_$][\w$]*/g) ?? [] } : undefined;
        const f: FunctionView = { at: unit.loc(n), name, params: unit.params(n).map((b) => b.name), text: n.text, ...facts.functionContext(n), ...(ofClass ? { ofClass } : {}) };
        functions.push(f);
        fnByNode.set(n.id, f);
      }
    }
    return { functions, fnByNode };
  };

  const buildAssignments = () => {
    const keyAssignments: KeyAssignment[] = [];
    const assignments: Assignment[] = [];
    for (const n of unit.nodesOfTypes(facts.nodeTypes.assignment)) {
      const a = facts.assignment(n);
      if (!a) continue;
      const { target: left, value: right } = a;
      assignments.push({ at: unit.loc(n), targetText: left.text, valueAt: unit.loc(right), value: lazy(() => ev.eval(unit, right)), ...(a.augmented ? { augmented: true } : {}) });
      if (!a.augmented) {
        const le = unit.adapter.expr(left);
        let key: string | undefined;
        let obj: Node | undefined;
        if (le.k === 'member') {
          key = le.prop;
          obj = le.object;
        } else if (le.k === 'index') {
          const k = unit.adapter.expr(le.index);
          if (k.k === 'str') key = k.value;
          obj = le.object;
        }
        if (key !== undefined && obj) keyAssignments.push({ at: unit.loc(n), objectText: obj.text, key, value: lazy(() => ev.eval(unit, right)) });
      }
    }
    return { assignments, keyAssignments };
  };

  const up = (at: Loc, match: (n: Node) => boolean): Node | undefined => {
    for (let n = nodeAt(at)?.parent ?? null; n; n = n.parent) {
      if (match(n)) return n;
      if (unit.adapter.isFunction(n)) return undefined;
    }
    return undefined;
  };

  const buildMemberReads = (prop: string): MemberRead[] => {
    const out: MemberRead[] = [];
    if (!unit.text.includes(prop)) return out;
    walk(unit.tree.rootNode, (n) => {
      const e = unit.adapter.expr(n);
      if (e.k !== 'member' || e.prop !== prop) return;
      const path: string[] = [];
      let root = e.object;
      for (let x = unit.adapter.expr(root); x.k === 'member' || x.k === 'wrap'; x = unit.adapter.expr(root)) {
        if (x.k === 'member') {
          path.unshift(x.prop);
          root = x.object;
        } else root = x.inner;
      }
      // The members the chain goes on with (through the wrappers `(x as T)` / `x!`).
      const next: MemberRead['next'] = [];
      for (let top: Node = n, p = n.parent; p; top = p, p = p.parent) {
        const pe = unit.adapter.expr(p);
        if (pe.k === 'member' && pe.object.id === top.id) next.push({ prop: pe.prop, at: unit.loc(p) });
        else if (!(pe.k === 'wrap' && pe.inner.id === top.id)) break;
      }
      let rootClass: string | undefined | null = null;
      const rootNode = root;
      out.push({
        at: unit.loc(n),
        next,
        prop,
        path,
        root: { at: unit.loc(rootNode), text: rootNode.text, value: lazy(() => ev.eval(unit, rootNode)) },
        get rootClass() {
          if (rootClass === null) {
            const ref = ev.refOf(ev.eval(unit, rootNode));
            rootClass = ref?.kind === 'external-instance' ? ref.name : undefined;
          }
          return rootClass;
        },
      });
    });
    return out;
  };
  const memberReads = new Map<string, MemberRead[]>();
  const buildImports = (): string[] => {
    const out = new Set<string>();
    for (const scope of unit.scopes.values()) {
      for (const list of scope.bindings.values()) {
        for (const b of list) {
          if (b.importFrom) out.add(b.importFrom.module);
          else if (b.kind === 'assign' && b.value) {
            // `const OpenAI = require('openai')`.
            const e = unit.adapter.expr(b.value);
            const callee = e.k === 'call' ? unit.adapter.expr(e.callee) : undefined;
            const spec = e.k === 'call' && e.args.length === 1 ? unit.adapter.expr(e.args[0].value) : undefined;
            if (callee?.k === 'ident' && callee.name === 'require' && spec?.k === 'str') out.add(spec.value);
          }
        }
      }
    }
    return [...out];
  };
  let imports: string[] | undefined;

  const fnCache = new Map<number, FunctionView | undefined>();
  let filters: FileView['filters'] | undefined;
  let pathJoins: FileView['pathJoins'] | undefined;
  let fileOps: FileView['fileOps'] | undefined;
  let importedReads: FileView['importedReads'] | undefined;
  let projectFolders: string[] | undefined;
  let calls: CallSite[] | undefined;
  let fns: ReturnType<typeof buildFunctions> | undefined;
  let assigns: ReturnType<typeof buildAssignments> | undefined;
  let hooks: FileView['turnHooks'] | undefined;
  let imageWindows: FileView['agentImageWindows'] | undefined;
  return {
    get calls() {
      return (calls ??= buildCalls());
    },
    get imports() {
      return (imports ??= buildImports());
    },
    memberReads(prop) {
      let reads = memberReads.get(prop);
      if (!reads) memberReads.set(prop, (reads = buildMemberReads(prop)));
      return reads;
    },
    get functions() {
      return (fns ??= buildFunctions()).functions;
    },
    get keyAssignments() {
      return (assigns ??= buildAssignments()).keyAssignments;
    },
    get assignments() {
      return (assigns ??= buildAssignments()).assignments;
    },
    get filters() {
      return (filters ??= findFilters(unit));
    },
    get turnHooks() {
      return (hooks ??= turnHooks(unit, ev));
    },
    get agentImageWindows() {
      return (imageWindows ??= cuaImageWindows(unit, ev));
    },
    get pathJoins() {
      return (pathJoins ??= findPathJoins(unit, ev));
    },
    get fileOps() {
      return (fileOps ??= unit.frontEnd.library.fileOps(unit, ev));
    },
    get importedReads() {
      // A module that names none of its language's readers has no read to find: it is not parsed.
      const mayRead = (text: string, language: LanguageId) => frontEndFor(language).library.mayReadFiles(text);
      return (importedReads ??= ev.importedModules(unit, undefined, mayRead).flatMap((m) => m.frontEnd.library.fileOps(m, ev).filter((o): o is Extract<FileOp, { kind: 'read' }> => o.kind === 'read')));
    },
    get projectFolders() {
      if (!projectFolders) {
        const folders: string[] = [];
        let root = false;
        // A few dozen levels: deeper than any project, and bounded where no marker is found.
        for (let dir = path.dirname(unit.file), i = 0; i < 40; i++) {
          if (PROJECT_MARKERS.some((m) => unit.workspace.exists(path.join(dir, m)))) {
            root = true;
            break;
          }
          const parent = path.dirname(dir);
          if (parent === dir) break;
          folders.unshift(path.basename(dir));
          dir = parent;
        }
        projectFolders = root ? folders : [];
      }
      return projectFolders;
    },
    valueAt(at) {
      const node = nodeAt(at);
      return node ? ev.eval(unit, node) : undefined;
    },
    caughtError(at, name) {
      const node = nodeAt(at);
      const b = node && ev.findBinding(unit, node, name)?.binding;
      return !!b && b.kind === 'opaque' && facts.catches(b.at);
    },
    inHandler(at) {
      return !!up(at, (n) => facts.handles(n));
    },
    pathAt(at) {
      const node = nodeAt(at);
      return node ? filePath(unit, ev, node) : undefined;
    },
    enclosingFunction(at) {
      // Rules ask this for every call site of the file, once per request call: remembered by
      // location, and found through the unit's scopes (climbing `parent` is quadratic in depth).
      if (at.file !== unit.file) return undefined;
      const key = at.start * 2 ** 26 + at.end;
      if (fnCache.has(key)) return fnCache.get(key);
      const node = nodeAt(at);
      const fn = node ? (fns ??= buildFunctions()).fnByNode.get(unit.enclosingFunction(node).id) : undefined;
      fnCache.set(key, fn);
      return fn;
    },
    enclosingLoop(at) {
      let found: { loop: Node; parts: NonNullable<ReturnType<typeof facts.loop>> } | undefined;
      up(at, (n) => {
        const parts = facts.loop(n);
        if (parts) found = { loop: n, parts };
        return !!parts;
      });
      if (!found) return callbackLoop(unit, ev, nodeAt(at));
      const { loop, parts } = found;
      const iter = parts.iter;
      return {
        at: unit.loc(loop),
        iterText: iter?.text,
        iter: iter ? lazy(() => ev.eval(unit, iter)) : undefined,
        targetText: parts.target?.text,
        ...(parts.condition ? { conditionText: parts.condition.text } : {}),
        ...(parts.step ? { stepText: parts.step.text } : {}),
      };
    },
    enclosingCondition(at) {
      let test: Node | undefined;
      let then: Node | undefined;
      const cond = up(at, (n) => {
        const c = facts.conditional(n);
        if (c) [test, then] = [c.test, c.then];
        return !!c;
      });
      if (!cond) return undefined;
      const within = (n: Node | undefined) => !!n && n.startIndex <= at.start && at.end <= n.endIndex;
      const holds = within(test) ? undefined : then ? within(then) : undefined;
      return { at: unit.loc(cond), conditionText: test?.text ?? '', ...(holds === undefined ? {} : { holds }) };
    },
    apart(a, b) {
      const first = nodeAt(a.start <= b.start ? a : b);
      const second = nodeAt(a.start <= b.start ? b : a);
      if (!first || !second) return false;
      // The nodes from each place up to its function (or the module), innermost first.
      const chain = (n: Node): Node[] => {
        const out: Node[] = [];
        for (let x: Node | null = n; x; x = x.parent) {
          out.push(x);
          if (unit.adapter.isFunction(x)) break;
        }
        return out;
      };
      const upFirst = chain(first);
      const upSecond = chain(second);
      const inSecond = new Set(upSecond.map((x) => x.id));
      const common = upFirst.findIndex((x) => inSecond.has(x.id));
      if (common <= 0) return false;
      const shared = upFirst[common];
      if (unit.adapter.isFunction(shared) && upFirst[upFirst.length - 1].id !== upSecond[upSecond.length - 1].id) return false;
      // Different arms of one conditional (neither in its test).
      const cond = facts.conditional(shared);
      if (cond) {
        const armFirst = upFirst[common - 1];
        const armSecond = upSecond[upSecond.findIndex((x) => x.id === shared.id) - 1];
        const test = cond.test?.id;
        if (armFirst && armSecond && armFirst.id !== armSecond.id && armFirst.id !== test && armSecond.id !== test) return true;
      }
      // The earlier place's block leaves the function after it, below the part both share.
      for (let i = 0; i < common - 1; i++) {
        const x = upFirst[i];
        if (facts.leaves(x)) return true;
        for (let s = x.nextSibling; s; s = s.nextSibling) if (s.isNamed && facts.leaves(s)) return true;
      }
      return false;
    },
  };
}

