/** Paths built from parts, for the FileView: `os.path.join`, pathlib `/`, `Path(a, b)`, `path.join` / `path.resolve`. */
import type { ArgView, PathJoin } from '../core/fileView';
import type { Value } from '../core/value';
import type { Evaluator } from './evaluate';
import type { Node } from './parsers';
import { walkTypes } from './walk';
import type { FileUnit } from './workspace';

const PATHISH_NAME = /(root|dir|base|path|folder|home|directory)$/i;

function lazy(f: () => Value): () => Value {
  let v: Value | undefined;
  return () => (v ??= f());
}

export function findPathJoins(unit: FileUnit, ev: Evaluator): PathJoin[] {
  const out: PathJoin[] = [];
  const { facts, library } = unit.frontEnd;
  const arg = (n: Node): ArgView => ({ at: unit.loc(n), text: n.text, value: lazy(() => ev.eval(unit, n)) });
  // Library names from this file's bindings only (Evaluator.calleeName): every call of the file is asked.
  const callName = (callee: Node): string | undefined => ev.calleeName(unit, callee);
  /** The library whose call made this value: `Path(p)`, or a name assigned such a call. */
  const externalName = (n: Node): string | undefined => {
    const e = unit.adapter.expr(n);
    if (e.k === 'call' || e.k === 'new') return callName(e.callee);
    if (e.k !== 'ident') return undefined;
    const bound = ev.boundExpression(unit, n, e.name);
    const v = bound ? unit.adapter.expr(bound) : undefined;
    return v && (v.k === 'call' || v.k === 'new') ? callName(v.callee) : undefined;
  };
  /** The left side of `/` is a path: a pathlib object, another `/` join, or a name that says so. */
  const isPath = (n: Node): boolean => {
    const e = unit.adapter.expr(n);
    if (e.k === 'wrap') return isPath(e.inner);
    if (e.k === 'binary' && e.op === '/') return isPath(e.left);
    if (e.k === 'num') return false;
    const name = externalName(n);
    if (name && library.isPathClass?.(name)) return true;
    if (e.k === 'call') {
      const c = unit.adapter.expr(e.callee);
      if (c.k === 'member' && (c.prop === 'resolve' || c.prop === 'expanduser' || c.prop === 'absolute')) return true;
    }
    if (e.k === 'ident') return PATHISH_NAME.test(e.name);
    if (e.k === 'member') return PATHISH_NAME.test(e.prop);
    return false;
  };
  // Parts of a `/` chain, outermost first: `root / a / b` -> [root, a, b].
  const chain = (n: Node): Node[] => {
    const e = unit.adapter.expr(n);
    if (e.k === 'binary' && e.op === '/') return [...chain(e.left), e.right];
    return [n];
  };
  const inChain = new Set<number>();
  // `root / a / b` (pathlib): the operator's chains, outermost first.
  if (facts.isPathOperator) {
    walkTypes(unit.tree.rootNode, facts.nodeTypes.pathOperator!, (n) => {
      if (!facts.isPathOperator!(n) || inChain.has(n.id)) return;
      const e = unit.adapter.expr(n);
      if (e.k !== 'binary' || !isPath(e.left)) return;
      const right = unit.adapter.expr(e.right);
      if (right.k === 'num') return;
      for (let l = e.left, le = unit.adapter.expr(l); le.k === 'binary' && le.op === '/'; l = le.left, le = unit.adapter.expr(l)) inChain.add(l.id);
      out.push({ at: unit.loc(n), parts: chain(n).map(arg) });
    });
  }
  for (const n of unit.calls) {
    const e = unit.adapter.expr(n);
    if (e.k !== 'call' && e.k !== 'new') continue;
    const name = callName(e.callee);
    if (!name || e.args.some((a) => a.spread || a.name)) continue;
    if (library.isPathJoin(name) && e.args.length >= 2) out.push({ at: unit.loc(n), parts: e.args.map((a) => arg(a.value)) });
  }
  out.sort((a, b) => a.at.start - b.at.start || a.at.end - b.at.end);
  return out;
}
