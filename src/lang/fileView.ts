/** Builds the core FileView of a parsed file (see src/core/fileView.ts). */
import type { Assignment, CallSite, FileOp, FileView, FunctionView, KeyAssignment } from '../core/fileView';
import type { Loc } from '../core/span';
import type { Value } from '../core/value';
import type { Evaluator } from './evaluate';
import { findFilters } from './filters';
import { findPathJoins } from './paths';
import type { Node } from './parsers';
import { walkTypes } from './walk';
import type { FileUnit } from './workspace';

/** `items.forEach((item) => ...)`: the callback around `node` iterates the receiver. */
function callbackLoop(unit: FileUnit, ev: Evaluator, node: Node | undefined): ReturnType<FileView['enclosingLoop']> {
  let fn: Node | null = node?.parent ?? null;
  while (fn && !unit.adapter.isFunction(fn)) fn = fn.parent;
  const it = fn ? unit.frontEnd.facts.callbackIteration(fn) : undefined;
  if (!it) return undefined;
  return { at: unit.loc(it.call), iterText: it.iter.text, iter: lazy(() => ev.eval(unit, it.iter)), targetText: it.target?.text.replace(/\s*:.*$/s, '') };
}

function lazy(f: () => Value): () => Value {
  let v: Value | undefined;
  return () => (v ??= f());
}

export function buildFileView(unit: FileUnit, ev: Evaluator): FileView {
  const facts = unit.frontEnd.facts;
  const nodeAt = (at: Loc): Node | undefined => {
    if (at.file !== unit.file) return undefined;
    return unit.tree.rootNode.descendantForIndex(at.start, Math.max(at.start, at.end - 1)) ?? undefined;
  };
  const text = (n: Node) => n.text;

  // Each part is built when a rule first reads it: most files need only one or two of them,
  // and the call list evaluates every callee of the file.
  const buildCalls = (): CallSite[] => {
    const calls: CallSite[] = [];
    for (const node of unit.calls) {
      const e = unit.adapter.expr(node);
      if (e.k !== 'call' && e.k !== 'new') continue;
      const c = unit.adapter.expr(e.callee);
      const method = c.k === 'member' ? c.prop : c.k === 'ident' ? c.name : e.callee.text;
      const calleeText = e.callee.text.replace(/\s+/g, '');
      let name: string | undefined;
      const receiver =
        c.k === 'member'
          ? { at: unit.loc(c.object), text: text(c.object), value: lazy(() => ev.eval(unit, c.object)) }
          : undefined;
      const callee = e.callee;
      calls.push({
        at: unit.loc(node),
        // Resolved when a rule asks, from this file's bindings only (see Evaluator.calleeName).
        get name() {
          return (name ??= ev.calleeName(unit, callee) ?? calleeText);
        },
        calleeText,
        method,
        isNew: e.k === 'new',
        receiver,
        args: e.args.map((a) => ({ name: a.name, at: unit.loc(a.value), text: text(a.value), value: lazy(() => ev.eval(unit, a.value)) })),
      });
    }
    return calls;
  };

  const buildFunctions = () => {
    const functions: FunctionView[] = [];
    const fnByNode = new Map<number, FunctionView>();
    walkTypes(unit.tree.rootNode, unit.adapter.functionTypes, (n) => {
      if (unit.adapter.isFunction(n)) {
        const name = facts.functionName(n);
        const f: FunctionView = { at: unit.loc(n), name, params: unit.adapter.params(n).map((b) => b.name), text: n.text, ...facts.functionContext(n) };
        functions.push(f);
        fnByNode.set(n.id, f);
      }
    });
    return { functions, fnByNode };
  };

  const buildAssignments = () => {
    const keyAssignments: KeyAssignment[] = [];
    const assignments: Assignment[] = [];
    walkTypes(unit.tree.rootNode, facts.nodeTypes.assignment, (n) => {
      const a = facts.assignment(n);
      if (!a) return;
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
    });
    return { assignments, keyAssignments };
  };

  const up = (at: Loc, match: (n: Node) => boolean): Node | undefined => {
    for (let n = nodeAt(at)?.parent ?? null; n; n = n.parent) {
      if (match(n)) return n;
      if (unit.adapter.isFunction(n)) return undefined;
    }
    return undefined;
  };

  const fnCache = new Map<number, FunctionView | undefined>();
  let filters: FileView['filters'] | undefined;
  let pathJoins: FileView['pathJoins'] | undefined;
  let fileOps: FileView['fileOps'] | undefined;
  let importedReads: FileView['importedReads'] | undefined;
  let calls: CallSite[] | undefined;
  let fns: ReturnType<typeof buildFunctions> | undefined;
  let assigns: ReturnType<typeof buildAssignments> | undefined;
  return {
    get calls() {
      return (calls ??= buildCalls());
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
    get pathJoins() {
      return (pathJoins ??= findPathJoins(unit, ev));
    },
    get fileOps() {
      return (fileOps ??= unit.frontEnd.library.fileOps(unit, ev));
    },
    get importedReads() {
      return (importedReads ??= ev.importedModules(unit).flatMap((m) => m.frontEnd.library.fileOps(m, ev).filter((o): o is Extract<FileOp, { kind: 'read' }> => o.kind === 'read')));
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
      return { at: unit.loc(loop), iterText: iter?.text, iter: iter ? lazy(() => ev.eval(unit, iter)) : undefined, targetText: parts.target?.text, ...(parts.condition ? { conditionText: parts.condition.text } : {}) };
    },
    enclosingCondition(at) {
      let test: Node | undefined;
      const cond = up(at, (n) => {
        const c = facts.conditional(n);
        if (c) test = c.test;
        return !!c;
      });
      if (!cond) return undefined;
      return { at: unit.loc(cond), conditionText: test?.text ?? '' };
    },
  };
}
