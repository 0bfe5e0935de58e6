/** Paths built from parts, for the FileView: `os.path.join`, pathlib `/`, `Path(a, b)`, `path.join` / `path.resolve`. */
import type { ArgView, PathJoin } from '../core/fileView';
import type { Value } from '../core/value';
import type { Evaluator } from './evaluate';
import type { Node } from './parsers';
import { walk } from './walk';
import type { FileUnit } from './workspace';

const PY_JOIN = new Set(['os.path.join', 'posixpath.join', 'ntpath.join', 'pathlib.Path', 'pathlib.PurePath', 'pathlib.PosixPath', 'pathlib.PurePosixPath']);
const PY_PATH_CLASS = /^pathlib\.(Pure)?(Posix)?Path$/;
const JS_JOIN = /^(node:)?path(\.posix)?\.(join|resolve)$/;
const PATHISH_NAME = /(root|dir|base|path|folder|home|directory)$/i;

function lazy(f: () => Value): () => Value {
  let v: Value | undefined;
  return () => (v ??= f());
}

export function findPathJoins(unit: FileUnit, ev: Evaluator): PathJoin[] {
  const out: PathJoin[] = [];
  const arg = (n: Node): ArgView => ({ at: unit.loc(n), text: n.text, value: lazy(() => ev.eval(unit, n)) });
  // Library names from this file's bindings only (Evaluator.calleeName): every call of the file is asked.
  const callName = (callee: Node): string | undefined => ev.calleeName(unit, callee);
  /** The library whose call made this value: `Path(p)`, or a name assigned such a call. */
  const externalName = (n: Node): string | undefined => {
    const e = unit.adapter.expr(n);
    if (e.k === 'call' || e.k === 'new') return callName(e.callee);
    if (e.k !== 'ident') return undefined;
    const b = ev.findBinding(unit, n, e.name)?.binding;
    const v = b?.kind === 'assign' && b.value && b.key === undefined ? unit.adapter.expr(b.value) : undefined;
    return v && (v.k === 'call' || v.k === 'new') ? callName(v.callee) : undefined;
  };
  /** The left side of `/` is a path: a pathlib object, another `/` join, or a name that says so. */
  const isPath = (n: Node): boolean => {
    const e = unit.adapter.expr(n);
    if (e.k === 'wrap') return isPath(e.inner);
    if (e.k === 'binary' && e.op === '/') return isPath(e.left);
    if (e.k === 'num') return false;
    const name = externalName(n);
    if (name && PY_PATH_CLASS.test(name)) return true;
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
  walk(unit.tree.rootNode, (n) => {
    // Only calls and `/` expressions can be joins; expr() on every node would cost more than the parse.
    if (n.type !== 'call' && n.type !== 'call_expression' && n.type !== 'binary_operator') return;
    const e = unit.adapter.expr(n);
    if (unit.language === 'python' && e.k === 'binary' && e.op === '/') {
      if (inChain.has(n.id)) return;
      if (!isPath(e.left)) return;
      const right = unit.adapter.expr(e.right);
      if (right.k === 'num') return;
      for (let l = e.left, le = unit.adapter.expr(l); le.k === 'binary' && le.op === '/'; l = le.left, le = unit.adapter.expr(l)) inChain.add(l.id);
      out.push({ at: unit.loc(n), parts: chain(n).map(arg) });
      return;
    }
    if (e.k !== 'call') return;
    const name = callName(e.callee);
    if (!name || e.args.some((a) => a.spread || a.name)) return;
    if (unit.language === 'python' ? PY_JOIN.has(name) : JS_JOIN.test(name)) {
      if (e.args.length >= 2) out.push({ at: unit.loc(n), parts: e.args.map((a) => arg(a.value)) });
    }
  });
  return out;
}
