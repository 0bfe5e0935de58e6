/** What the file-operation readers of every front end share: argument views and the handle a write goes through. */
import type { ArgView, FilePath } from '../core/fileView';
import type { Value } from '../core/value';
import type { Evaluator } from './evaluate';
import type { Node } from './parsers';
import type { FileUnit } from './workspace';

export function argView(unit: FileUnit, ev: Evaluator, n: Node): ArgView {
  let v: Value | undefined;
  return { at: unit.loc(n), text: n.text, value: () => (v ??= ev.eval(unit, n)) };
}

/** The string a view resolves to, when it is fully known. */
export function knownString(a: ArgView | undefined): string | undefined {
  const v = a?.value();
  return v?.kind === 'str' && v.complete ? v.text : undefined;
}

/**
 * A file path as a file operation names it: the argument, and the file's name when the code
 * writes it (a literal, the last part of a join, the literal tail of a template).
 */
export function filePath(unit: FileUnit, ev: Evaluator, n: Node): FilePath {
  const name = literalName(unit, ev, n, 0);
  const names = name ? undefined : loopNames(unit, ev, lastPart(unit, ev, n, 0));
  const from = origin(unit, ev, n, 0);
  const builder = from && builderOf(unit, ev, from);
  const dir = name || names ? folderOf(unit, ev, from) : undefined;
  const parts: string[] = [];
  provenance(unit, ev, from, 0, parts);
  return {
    arg: argView(unit, ev, n),
    ...(name ? { name } : {}),
    ...(names ? { names } : {}),
    ...(from !== n ? { origin: from.text } : {}),
    ...(builder ? { builder } : {}),
    ...(dir ? dir : {}),
    ...(parts.length ? { provenance: parts.join(' ') } : {}),
  };
}

/**
 * The texts a path is built from, through the names its parts are bound to (`join(run_dir,
 * "out.log")` with `run_dir = tempfile.mkdtemp()` -> `tempfile.mkdtemp()`), also of the object
 * a part is a field of (`cfg.output_file` -> what `cfg` is bound to), a few steps deep:
 * where a folder comes from tells a scratch or fresh folder from the program's own.
 */
function provenance(unit: FileUnit, ev: Evaluator, n: Node, depth: number, out: string[]): void {
  if (depth > 3 || out.length > 8) return;
  const e = unit.adapter.expr(n);
  const follow = (x: Node) => provenance(unit, ev, x, depth + 1, out);
  switch (e.k) {
    case 'ident': {
      const bound = ev.boundExpression(unit, n, e.name);
      if (bound) {
        out.push(bound.text);
        follow(bound);
        return;
      }
      // `with tempfile.TemporaryDirectory() as d:`: the name is the context's (a scratch folder).
      const b = ev.findBinding(unit, n, e.name)?.binding;
      const context = b?.kind === 'opaque' ? unit.frontEnd.facts.contextOf(b.at) : undefined;
      if (context) out.push(context.text);
      return;
    }
    case 'wrap':
      return follow(e.inner);
    case 'binary':
      follow(e.left);
      return follow(e.right);
    case 'call':
    case 'new':
      for (const a of e.args) if (!a.name) follow(a.value);
      return;
    case 'template':
      for (const part of e.parts) if ('expr' in part) follow(part.expr);
      return;
    // A field of a value bound to a name (`cfg.outputFile` with `cfg = config_for(kind)`): what that name is bound to.
    case 'member':
    case 'index':
      return follow(e.object);
    default:
      return;
  }
}

/**
 * The folder part of a join that ends in a file name (`template_root / "main.py"` ->
 * `template_root`, `os.path.join(out_dir, "agent.json")` -> `out_dir`), and whether it is only a
 * parameter of the function (a folder the caller picks).
 */
function folderOf(unit: FileUnit, ev: Evaluator, n: Node): { dir: string; dirIsParam: boolean } | undefined {
  const e = unit.adapter.expr(n);
  let folder: Node | undefined;
  if (e.k === 'binary' && e.op === '/') folder = e.left;
  else if (e.k === 'call') {
    const name = ev.calleeName(unit, e.callee);
    const args = e.args.filter((a) => !a.name && !a.spread);
    if (name && unit.frontEnd.library.isPathJoin(name) && args.length >= 2) folder = args[args.length - 2].value;
  }
  if (!folder) return undefined;
  const f = unit.adapter.expr(folder);
  const dirIsParam = f.k === 'ident' && ev.findBinding(unit, folder, f.name)?.binding.kind === 'param';
  return { dir: folder.text.replace(/\s+/g, ''), dirIsParam };
}

/** The expression a path comes from, through names bound once to it (`p = state_path(name)` -> `state_path(name)`). */
function origin(unit: FileUnit, ev: Evaluator, n: Node, depth: number): Node {
  if (depth > 4) return n;
  const e = unit.adapter.expr(n);
  if (e.k === 'wrap') return origin(unit, ev, e.inner, depth + 1);
  if (e.k !== 'ident') return n;
  const bound = ev.boundExpression(unit, n, e.name);
  return bound ? origin(unit, ev, bound, depth + 1) : n;
}

/**
 * The name of a function of this file that a path is the result of (`state_path(name)` ->
 * `state_path`), or of a method of the class around the call, called through its object
 * (`self._target(namespace, path)` -> `_target`, qualified by where its class starts: a method of
 * another class of the file is another builder).
 */
function builderOf(unit: FileUnit, ev: Evaluator, n: Node): string | undefined {
  const e = unit.adapter.expr(n);
  if (e.k !== 'call') return undefined;
  const c = unit.adapter.expr(e.callee);
  if (c.k === 'ident') return ev.findBinding(unit, e.callee, c.name)?.binding.kind === 'function' ? c.name : undefined;
  if (c.k !== 'member' || !/^(self|this)$/.test(c.object.text)) return undefined;
  const cls = unit.enclosingClass(n);
  const method = cls && unit.classMembers(cls).get(c.prop);
  return cls && method?.some((m) => unit.adapter.isFunction(m)) ? `class@${cls.startIndex}.${c.prop}` : undefined;
}

/** The last part of a path as written: through names bound once, `/` joins and path-joining calls (`os.path.join(d, name)` -> `name`). */
function lastPart(unit: FileUnit, ev: Evaluator, n: Node, depth: number): Node {
  if (depth > 4) return n;
  const e = unit.adapter.expr(n);
  const next = (x: Node | undefined) => (x ? lastPart(unit, ev, x, depth + 1) : n);
  switch (e.k) {
    case 'wrap':
      return next(e.inner);
    case 'ident':
      return next(ev.boundExpression(unit, n, e.name));
    case 'binary':
      return e.op === '/' ? next(e.right) : n;
    case 'call': {
      const name = ev.calleeName(unit, e.callee);
      const args = e.args.filter((a) => !a.name && !a.spread);
      return name && unit.frontEnd.library.isPathJoin(name) && args.length ? next(args[args.length - 1].value) : n;
    }
    default:
      return n;
  }
}

/**
 * The names a loop's variable takes when the loop goes over written names: `for name in
 * ["a.md", "b.md"]`, `for name, text in SEEDS.items()`, `for name in SEEDS.keys()`, `for (const
 * [name, text] of Object.entries(SEEDS))`, `Object.keys(SEEDS)`. Undefined for any other name.
 */
function loopNames(unit: FileUnit, ev: Evaluator, n: Node): string[] | undefined {
  const e = unit.adapter.expr(n);
  if (e.k !== 'ident') return undefined;
  const b = ev.findBinding(unit, n, e.name)?.binding;
  if (!b || (b.kind !== 'loop' && b.kind !== 'opaque')) return undefined;
  const loop = unit.frontEnd.facts.loop(b.at);
  if (!loop?.iter || !loop.target) return undefined;
  // The variable itself, or the first of a pair (`name, text`, `[name, text]`).
  const whole = loop.target.text === e.name;
  const first = !whole && loop.target.namedChildren.find((c) => unit.adapter.expr(c).k === 'ident')?.text === e.name;
  if (!whole && !first) return undefined;
  const it = unit.adapter.expr(loop.iter);
  let source: Node | undefined;
  if (it.k === 'call') {
    const callee = unit.adapter.expr(it.callee);
    const args = it.args.filter((a) => !a.name && !a.spread);
    if (callee.k !== 'member') return undefined;
    // `SEEDS.items()` / `SEEDS.keys()`; `Object.entries(SEEDS)` / `Object.keys(SEEDS)`.
    const pairs = callee.prop === 'items' || callee.prop === 'entries';
    const keys = callee.prop === 'keys';
    if ((pairs ? !first : !(keys && whole)) || !(pairs || keys)) return undefined;
    source = callee.object.text === 'Object' ? args[0]?.value : args.length ? undefined : callee.object;
  } else if (whole) source = loop.iter;
  const v = source && ev.eval(unit, source);
  const names =
    v?.kind === 'obj' && v.complete ? v.entries.map((x) => x.key) : v?.kind === 'list' && v.complete && whole ? v.items.map((x) => (x.kind === 'str' && x.complete ? x.text : '')) : undefined;
  return names && names.length > 0 && names.length <= 32 && names.every((x) => /^[\w.-]*\w\.\w+$/.test(x)) ? names : undefined;
}

function literalName(unit: FileUnit, ev: Evaluator, n: Node, depth: number): string | undefined {
  if (depth > 4) return undefined;
  const e = unit.adapter.expr(n);
  const last = (text: string) => {
    const name = text.split(/[\\/]/).pop() ?? '';
    return name.trim() ? name : undefined;
  };
  switch (e.k) {
    case 'str':
      return last(e.value);
    case 'template': {
      const tail = e.parts[e.parts.length - 1];
      return tail && 'text' in tail && /[\\/]|\./.test(tail.text) ? last(tail.text) : undefined;
    }
    case 'wrap':
      return literalName(unit, ev, e.inner, depth + 1);
    case 'ident': {
      // `path = os.path.join(d, "token.json")`: the name a local is bound to once.
      const bound = ev.boundExpression(unit, n, e.name);
      return bound ? literalName(unit, ev, bound, depth + 1) : undefined;
    }
    case 'binary':
      return e.op === '/' ? literalName(unit, ev, e.right, depth + 1) : undefined;
    case 'call': {
      // `os.path.join(dir, "x")`, `Path(dir, "x")`, `path.join(dir, "x")`.
      const name = ev.calleeName(unit, e.callee);
      const args = e.args.filter((a) => !a.name && !a.spread);
      return name && unit.frontEnd.library.isPathJoin(name) && args.length ? literalName(unit, ev, args[args.length - 1].value, depth + 1) : undefined;
    }
    default:
      return undefined;
  }
}
