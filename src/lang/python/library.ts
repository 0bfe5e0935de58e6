/**
 * The Python library as the analysis knows it: what well-known functions produce (keyed by
 * canonical dotted name, the import path followed by attribute names: `datetime.datetime.now`),
 * the builtins, and the built-in methods of strings, lists, dicts and paths.
 */
import type { Loc } from '../../core/span';
import type { Taint, Value } from '../../core/value';
import { HOLE, allTaints, concatStrings, unknown } from '../../core/value';
import type { Evaluator, Env } from '../evaluate';
import { asSelector, itemsOrigin } from '../evaluate';
import type { Library } from '../frontEnd';
import { pythonFileOps, pythonMayReadFiles } from './fileOps';
import type { Node } from '../parsers';
import type { SourceKind } from '../sources';
import type { Arg } from '../syntax';
import type { FileUnit } from '../workspace';

const SOURCES: Record<string, SourceKind> = {
  'datetime.datetime.now': 'clock',
  'datetime.datetime.utcnow': 'clock',
  'datetime.datetime.today': 'clock',
  'datetime.date.today': 'clock',
  'time.time': 'clock',
  'time.strftime': 'clock',
  'time.time_ns': 'clock',
  'time.ctime': 'clock',
  'time.localtime': 'clock',
  'time.gmtime': 'clock',
  'time.asctime': 'clock',
  'time.monotonic': 'clock',
  'time.perf_counter': 'clock',
  'arrow.now': 'clock',
  'arrow.utcnow': 'clock',
  'pendulum.now': 'clock',
  'pendulum.today': 'clock',
  'uuid.uuid1': 'random',
  'uuid.uuid4': 'random',
  'os.urandom': 'random',
  'os.getpid': 'environment',
  'os.getenv': 'environment',
  'os.environ.get': 'environment',
  'socket.gethostname': 'environment',
  'platform.node': 'environment',
  'os.listdir': 'listing',
  'os.scandir': 'listing',
  'os.walk': 'listing',
  'glob.glob': 'listing',
  'glob.iglob': 'listing',
  'json.dumps': 'json-dumps',
  'builtins.sorted': 'sorted',
  'builtins.set': 'set',
  'builtins.frozenset': 'set',
  'builtins.list': 'to-list',
  'builtins.tuple': 'to-list',
  'builtins.str': 'passthrough',
  'builtins.repr': 'passthrough',
  'builtins.format': 'passthrough',
  'builtins.int': 'passthrough',
  'builtins.float': 'passthrough',
  'builtins.round': 'passthrough',
  'builtins.dict': 'passthrough',
  'builtins.bool': 'passthrough',
  'copy.copy': 'clone',
  'copy.deepcopy': 'clone',
};

/**
 * The SDK's request types (`anthropic.types.ToolParam`, `anthropic.types.beta.BetaMemoryTool20250818Param`):
 * TypedDicts, so a call of one makes the dict of its keywords. Read as what they build, their names
 * say nothing of where the data comes from (`...MemoryTool...Param` is a constant tool, not a
 * memory retrieved per request).
 */
const SDK_REQUEST_TYPE = /^anthropic\.types\.(?:\w+\.)*[A-Z]\w*Param$/;

/** Whole modules whose every function is random. */
const RANDOM_MODULES = ['random.', 'secrets.', 'numpy.random.'];

const BUILTINS = new Set(['sorted', 'set', 'frozenset', 'list', 'tuple', 'str', 'repr', 'format', 'int', 'float', 'round', 'dict', 'len', 'print', 'open', 'isinstance', 'range', 'enumerate', 'zip', 'reversed', 'min', 'max', 'sum', 'any', 'all', 'map', 'filter', 'bool', 'id', 'hash', 'type', 'super', 'getattr']);

function method(ev: Evaluator, unit: FileUnit, receiver: Value, prop: string, args: Arg[], node: Node, env: Env | undefined): Value | undefined {
  const at: Loc = unit.loc(node);
  const rtaints: Taint[] = allTaints(receiver);
  if (receiver.kind === 'str' && prop === 'join') {
    const arg = args[0];
    if (!arg) return undefined;
    const items = ev.ordered(unit, ev.eval(unit, arg.value, env), arg.value);
    if (items.kind === 'list' && items.complete && receiver.complete) {
      const parts: Value[] = [];
      items.items.forEach((it, i) => {
        if (i > 0) parts.push(receiver);
        parts.push(ev.markEmbed(it, unit.loc(arg.value)));
      });
      const s = concatStrings(parts, at);
      return { ...s, taints: [...s.taints, ...items.taints.map((t) => ({ ...t, embed: t.embed ?? unit.loc(arg.value) }))] };
    }
    const joined = itemsOrigin(items);
    return { kind: 'str', text: HOLE, complete: false, at, taints: allTaints(items).map((t) => ({ ...t, embed: t.embed ?? unit.loc(arg.value) })), ...(joined ? { origin: joined } : {}) };
  }
  if (receiver.kind === 'str' && prop === 'format') {
    const vals = args.map((a) => ev.markEmbed(ev.eval(unit, a.value, env), unit.loc(a.value)));
    return { kind: 'str', text: receiver.text + HOLE, complete: false, at, taints: [...receiver.taints, ...vals.flatMap((v) => allTaints(v))] };
  }
  if ((prop === 'iterdir' || prop === 'rglob' || (prop === 'glob' && receiver.kind === 'unknown'))) {
    return { kind: 'list', items: [], complete: false, at, taints: [...rtaints.filter((t) => t.cls !== 'unordered'), ev.taint('unordered', 'unsorted-listing', unit, node, at)] };
  }
  // `list.copy()`, `dict.copy()`: the same items and entries, a new object that later changes apply to alone.
  if ((receiver.kind === 'list' || receiver.kind === 'obj') && prop === 'copy' && !args.length) return { ...receiver, at };
  if (receiver.kind === 'obj' && (prop === 'items' || prop === 'keys' || prop === 'values')) {
    return { kind: 'list', items: [], complete: false, at, taints: rtaints };
  }
  if (receiver.kind === 'obj' && prop === 'get') {
    const key = args[0] ? ev.eval(unit, args[0].value, env) : undefined;
    if (key?.kind === 'str' && key.complete) return ev.member(unit, receiver, key.text, node, env);
    if (key && receiver.complete) return unknown(at, 'computed key', [...asSelector(allTaints(key)), ...receiver.entries.flatMap((en) => allTaints(en.value))]);
    return undefined;
  }
  return undefined;
}

const PATH_JOIN = new Set(['os.path.join', 'posixpath.join', 'ntpath.join', 'pathlib.Path', 'pathlib.PurePath', 'pathlib.PosixPath', 'pathlib.PurePosixPath']);
const PATH_CLASS = /^pathlib\.(Pure)?(Posix)?Path$/;

export const pythonLibrary: Library = {
  fileOps: pythonFileOps,
  mayReadFiles: pythonMayReadFiles,
  isPathJoin: (name) => PATH_JOIN.has(name),
  isPathClass: (name) => PATH_CLASS.test(name),
  globalName: (name) => (BUILTINS.has(name) ? `builtins.${name}` : undefined),
  classify(name: string): SourceKind | undefined {
    const hit = SOURCES[name];
    if (hit) return hit;
    if (RANDOM_MODULES.some((m) => name.startsWith(m))) return 'random';
    if (SDK_REQUEST_TYPE.test(name)) return 'record';
    if (name.startsWith('os.environ')) return 'environment';
    return undefined;
  },
  method,
};
