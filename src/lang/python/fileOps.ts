/**
 * Python's file operations: `open` (and `io.open`, `codecs.open`, `Path.open`) by mode, pathlib's
 * `write_text` / `read_text`, the serialisers (`json.dump(x, f)`) and `f.write(x)` on a handle,
 * `os.open` by its flags, `os.replace` / `os.rename` / `shutil.move` and `Path.replace`, `os.fsync`,
 * `tempfile`.
 */
import type { ArgView, FileOp } from '../../core/fileView';
import type { Evaluator } from '../evaluate';
import { argView, filePath, knownString } from '../fileOps';
import type { Node } from '../parsers';
import type { Arg, Expr } from '../syntax';
import { walk } from '../walk';
import type { FileUnit } from '../workspace';

/** `aiofiles.open` is `open` for asyncio code (`async with aiofiles.open(p, "w") as f: await f.write(...)`). */
const OPEN = new Set(['builtins.open', 'io.open', 'codecs.open', 'aiofiles.open']);
const DUMP_FUNCTIONS = ['dump', 'safe_dump', 'dump_all'];
const SERIALIZE_TO_FILE = new RegExp(`^(json|pickle|dill|cloudpickle|marshal|yaml|toml|tomli_w|tomlkit|orjson|ujson)\\.(${DUMP_FUNCTIONS.join('|')})$`);
const LOAD_MODULES = 'json|pickle|dill|cloudpickle|marshal|yaml|toml|tomllib|tomlkit|orjson|ujson';
const LOAD_FUNCTIONS = 'load|safe_load|load_all|full_load';
const LOAD_FROM_FILE = new RegExp(`^(${LOAD_MODULES})\\.(${LOAD_FUNCTIONS})$`);
const RENAME = new Set(['os.replace', 'os.rename', 'shutil.move', 'os.renames', 'aiofiles.os.replace', 'aiofiles.os.rename']);
const FSYNC = new Set(['os.fsync', 'os.fdatasync']);
const TEMPFILE = new Set(['tempfile.NamedTemporaryFile', 'tempfile.mkstemp', 'tempfile.TemporaryFile', 'tempfile.mkdtemp', 'tempfile.TemporaryDirectory', 'tempfile.SpooledTemporaryFile']);
/**
 * The last names of every library function read below (`json.dump` -> `dump`). A call's library
 * name ends with the attribute it calls (`x.y.dump(...)` is `<x.y>.dump` or nothing), so a call on
 * an object whose attribute is none of these (nor a path's or a handle's method) is no operation,
 * and its library name (a look-up per call, of thousands per file, on every change in the
 * editor) is not asked.
 */
const LIBRARY_LAST_NAMES = new Set([
  ...[...OPEN, ...RENAME, ...FSYNC, ...TEMPFILE, 'os.open', 'shutil.copyfileobj', 'tempfile.gettempdir'].map((n) => n.slice(n.lastIndexOf('.') + 1)),
  ...DUMP_FUNCTIONS,
  ...LOAD_FUNCTIONS.split('|'),
]);
const PATH_CLASS = /^pathlib\.(Pure)?(Posix|Windows)?Path$/;
/** The class methods of `Path` that make one: `Path.home()`, `Path.cwd()`. */
const PATH_FACTORY = /^pathlib\.Path\.(home|cwd)$/;
/** Names that say a value is a path (for `p.write_text(...)` on a parameter or attribute). */
const PATHISH = /(path|file|dir|root|folder|filename|dest|target)$/i;

/** A library name of a call that the second pass of pythonFileOps reads (the serialisers, loaders, renames, fsyncs, temp files), or a path's or a handle's method. */
function mayOperate(name: string): boolean {
  const last = name.slice(name.lastIndexOf('.') + 1);
  if (HANDLE_METHODS.has(last) || FILE_METHODS.has(last)) return true;
  return name === 'shutil.copyfileobj' || name === 'os.open' || name === 'tempfile.gettempdir' || RENAME.has(name) || FSYNC.has(name) || TEMPFILE.has(name) || SERIALIZE_TO_FILE.test(name) || LOAD_FROM_FILE.test(name);
}

function positional(args: Arg[]): Arg[] {
  return args.filter((a) => !a.name && !a.spread);
}

/**
 * The names of the reads pythonFileOps finds, as a file spells them: `open` (the builtin, `io.` and
 * `codecs.`, a path's method), `read_text` / `read_bytes`, and a loader's module and function
 * (`json.load`, `from yaml import safe_load`: a canonical name never comes from another file).
 */
const OPEN_OR_READ = /\bopen\b|\bread_(?:text|bytes)\b/;
const LOAD_MODULE = new RegExp(`\\b(?:${LOAD_MODULES})\\b`);
const LOAD_FUNCTION = new RegExp(`\\b(?:${LOAD_FUNCTIONS})\\b`);

export function pythonMayReadFiles(text: string): boolean {
  return OPEN_OR_READ.test(text) || (LOAD_MODULE.test(text) && LOAD_FUNCTION.test(text));
}

/** The methods of a path object that write, read or rename its file. */
const FILE_METHODS = new Set(['write_text', 'write_bytes', 'read_text', 'read_bytes', 'replace', 'rename']);
/** The methods of a file handle (or `os`) that the operations below read when the callee has no library name. */
const HANDLE_METHODS = new Set(['write', 'writelines', 'fsync', 'fdatasync']);

export function pythonFileOps(unit: FileUnit, ev: Evaluator): FileOp[] {
  const ops: FileOp[] = [];
  /** Writes by the node of the `open(...)` call that made their handle. */
  const byOpen = new Map<number, Extract<FileOp, { kind: 'write' | 'read' }>>();
  const view = (n: Node): ArgView => argView(unit, ev, n);
  const fp = (n: Node) => filePath(unit, ev, n);

  /** A path object: `Path(...)`, a `/` join of one, or a name or attribute that is one by its name or its value. */
  const isPath = (n: Node, depth = 0): boolean => {
    if (depth > 6) return false;
    const e = unit.adapter.expr(n);
    if (e.k === 'wrap') return isPath(e.inner, depth + 1);
    if (e.k === 'binary' && e.op === '/') return isPath(e.left, depth + 1);
    if (e.k === 'call') {
      const name = ev.calleeName(unit, e.callee);
      if (name && (PATH_CLASS.test(name) || PATH_FACTORY.test(name))) return true;
      const c = unit.adapter.expr(e.callee);
      // `state_path(name)`: a function of the file whose every return is a path.
      if (c.k === 'ident') {
        const b = ev.findBinding(unit, e.callee, c.name)?.binding;
        if (b?.kind !== 'function' || !b.value) return false;
        const returns = unit.adapter.functionInfo(b.value).returns;
        return returns.length > 0 && returns.every((r) => isPath(r, depth + 1));
      }
      return c.k === 'member' && ['resolve', 'expanduser', 'absolute', 'with_suffix', 'with_name', 'joinpath'].includes(c.prop) && isPath(c.object, depth + 1);
    }
    if (e.k === 'ident') {
      const bound = ev.boundExpression(unit, n, e.name);
      if (bound && isPath(bound, depth + 1)) return true;
      return PATHISH.test(e.name) || annotatedPath(n, e.name);
    }
    if (e.k === 'member') return PATHISH.test(e.prop);
    return false;
  };

  /** A parameter annotated as pathlib's path (`out: Path`, `dest: Optional[pathlib.Path] = None`), whatever its name. */
  const annotatedPath = (n: Node, name: string): boolean => {
    const b = ev.findBinding(unit, n, name)?.binding;
    const param = b?.kind === 'param' ? b.nameNode.parent : undefined;
    const type = param && /^typed_(default_)?parameter$/.test(param.type) ? param.childForFieldName('type') : undefined;
    if (!type || !/Path\b/.test(type.text)) return false;
    let found = false;
    walk(type, (t) => {
      if (!found && (t.type === 'identifier' || t.type === 'attribute')) found = PATH_CLASS.test(ev.calleeName(unit, t) ?? '');
    });
    return found;
  };

  /** The `open(...)` call a handle comes from: the call itself, `with open(...) as f`, `f = open(...)`. */
  const openOf = (n: Node): Node | undefined => {
    const e = unit.adapter.expr(n);
    if (e.k === 'call') return n;
    if (e.k !== 'ident') return undefined;
    const b = ev.findBinding(unit, n, e.name)?.binding;
    if (b?.kind === 'assign' && b.value && b.position === undefined) return unit.adapter.expr(b.value).k === 'call' ? b.value : undefined;
    // `with open(p) as f:`: the binding's statement is the `as` pattern around the call.
    const first = b?.kind === 'opaque' ? b.at.namedChildren[0] : undefined;
    return first && unit.adapter.expr(first).k === 'call' ? first : undefined;
  };

  const openMode = (args: Arg[], at: number): string => {
    const m = args.find((a) => a.name === 'mode') ?? positional(args)[at];
    return (m ? knownString(view(m.value)) : undefined) ?? (m ? '?' : 'r');
  };

  // First the `open` calls, so that the writes on their handles (which may come first in the
  // tree: `json.dump(x, open(p, "w"))`) find them.
  // The other calls with what the first pass read of them (a file has thousands of calls, and
  // the editor reads them all on every change).
  const rest: Array<{ node: Node; e: Extract<Expr, { k: 'call' }>; name: string | undefined; c: Expr }> = [];
  for (const node of unit.calls) {
    const e = unit.adapter.expr(node);
    if (e.k !== 'call') continue;
    const c = unit.adapter.expr(e.callee);
    if (c.k === 'member' && !LIBRARY_LAST_NAMES.has(c.prop) && !HANDLE_METHODS.has(c.prop) && !FILE_METHODS.has(c.prop)) continue;
    const name = ev.calleeName(unit, e.callee);
    const opened =
      name && OPEN.has(name) ? { path: positional(e.args)[0]?.value, mode: openMode(e.args, 1) } : c.k === 'member' && c.prop === 'open' && isPath(c.object) ? { path: c.object, mode: openMode(e.args, 0) } : undefined;
    if (!opened) {
      // Only calls of these names can be an operation: the others need neither their location nor their arguments.
      if (name ? mayOperate(name) : c.k === 'member' && (HANDLE_METHODS.has(c.prop) || FILE_METHODS.has(c.prop))) rest.push({ node, e, name, c });
      continue;
    }
    // A mode that is not known may be either.
    if (!opened.path || opened.mode === '?') continue;
    const at = unit.loc(node);
    const op: Extract<FileOp, { kind: 'write' | 'read' }> = /[wax+]/.test(opened.mode) ? { kind: 'write', at, path: fp(opened.path), truncates: /w/.test(opened.mode), data: [], ...(/a/.test(opened.mode) ? { appends: true } : {}) } : { kind: 'read', at, path: fp(opened.path) };
    ops.push(op);
    byOpen.set(node.id, op);
  }
  for (const { node, e, name, c } of rest) {
    const method = c.k === 'member' ? c.prop : undefined;
    const at = unit.loc(node);
    const pos = positional(e.args);
    if (method && c.k === 'member' && FILE_METHODS.has(method) && isPath(c.object)) {
      if ((method === 'write_text' || method === 'write_bytes') && pos.length === 1) ops.push({ kind: 'write', at, path: fp(c.object), truncates: true, data: [view(pos[0].value)] });
      else if ((method === 'read_text' || method === 'read_bytes') && pos.length === 0) ops.push({ kind: 'read', at, path: fp(c.object) });
      else if ((method === 'replace' || method === 'rename') && pos.length === 1) ops.push({ kind: 'rename', at, from: fp(c.object), to: fp(pos[0].value) });
      continue;
    }
    if (!name) {
      // `f.write(text)` on a handle from `open(..., "w")`.
      if ((method === 'write' || method === 'writelines') && c.k === 'member' && pos.length === 1) {
        const handle = openOf(c.object);
        const op = handle ? byOpen.get(handle.id) : undefined;
        if (op?.kind === 'write') {
          op.data.push(view(pos[0].value));
          // In a loop that the handle's `with` (or its assignment) comes before: piece by piece.
          for (let n = node.parent; n && !unit.adapter.isFunction(n); n = n.parent) {
            if (n.startIndex <= handle!.startIndex) break;
            if (unit.frontEnd.facts.loop(n)) op.streamed = true;
          }
        }
      }
      if (method === 'fsync' || method === 'fdatasync') ops.push({ kind: 'fsync', at });
      continue;
    }
    if (name === 'shutil.copyfileobj' && pos.length >= 2) {
      // `shutil.copyfileobj(response.raw, f)`: the handle is filled from a stream.
      const handle = openOf(pos[1].value);
      const op = handle ? byOpen.get(handle.id) : undefined;
      if (op?.kind === 'write') {
        op.data.push(view(pos[0].value));
        op.streamed = true;
      }
    } else if (SERIALIZE_TO_FILE.test(name) && pos.length >= 2) {
      const handle = openOf(pos[1].value);
      const op = handle ? byOpen.get(handle.id) : undefined;
      if (op?.kind === 'write') {
        op.data.push(view(pos[0].value));
        op.serialised = true;
      }
    } else if (LOAD_FROM_FILE.test(name) && pos.length >= 1) {
      // `json.load(open(p))` is the read of its open call; a path given directly is one too.
      if (!openOf(pos[0].value) && isPath(pos[0].value)) ops.push({ kind: 'read', at, path: fp(pos[0].value) });
    } else if (RENAME.has(name) && pos.length >= 2) {
      ops.push({ kind: 'rename', at, from: fp(pos[0].value), to: fp(pos[1].value) });
    } else if (name === 'os.open' && pos.length >= 2) {
      // `os.open(p, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)`: a write when the flags say so.
      const flags = pos[1].value.text;
      if (/\bO_(WRONLY|RDWR)\b/.test(flags)) ops.push({ kind: 'write', at, path: fp(pos[0].value), truncates: /\bO_TRUNC\b/.test(flags), data: [], ...(/\bO_APPEND\b/.test(flags) ? { appends: true } : {}) });
    } else if (FSYNC.has(name)) {
      ops.push({ kind: 'fsync', at });
    } else if (TEMPFILE.has(name) || name === 'tempfile.gettempdir') {
      ops.push({ kind: 'temp', at, inDir: e.args.some((a) => a.name === 'dir') });
    }
  }
  return ops.sort((a, b) => a.at.start - b.at.start);
}
