/**
 * What well-known library functions produce, keyed by canonical dotted name (the import
 * path followed by attribute names: `datetime.datetime.now`, `crypto.randomUUID`).
 */

export type SourceKind =
  | 'clock'
  | 'random'
  | 'environment'
  | 'listing'
  | 'json-dumps'
  | 'json-stringify'
  | 'sorted'
  | 'set'
  | 'to-list'
  | 'passthrough'
  | 'object-keys'
  | 'object-entries'
  | 'object-from-entries'
  | 'date-ctor'
  | 'require';

const PYTHON: Record<string, SourceKind> = {
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
};

/** Whole modules whose every function is random. */
const PYTHON_RANDOM_MODULES = ['random.', 'secrets.', 'numpy.random.'];

const JS: Record<string, SourceKind> = {
  'Date.now': 'clock',
  'performance.now': 'clock',
  'process.hrtime': 'clock',
  'process.hrtime.bigint': 'clock',
  'process.uptime': 'clock',
  dayjs: 'clock',
  'dayjs.default': 'clock',
  moment: 'clock',
  'moment.default': 'clock',
  'luxon.DateTime.now': 'clock',
  'luxon.DateTime.utc': 'clock',
  'Temporal.Now.instant': 'clock',
  'Temporal.Now.plainDateTimeISO': 'clock',
  'Temporal.Now.zonedDateTimeISO': 'clock',
  'Math.random': 'random',
  'crypto.randomUUID': 'random',
  'crypto.randomBytes': 'random',
  'crypto.getRandomValues': 'random',
  'node:crypto.randomUUID': 'random',
  'node:crypto.randomBytes': 'random',
  'uuid.v1': 'random',
  'uuid.v4': 'random',
  'uuid.v7': 'random',
  'nanoid.nanoid': 'random',
  'ulid.ulid': 'random',
  'os.hostname': 'environment',
  'node:os.hostname': 'environment',
  'fs.readdirSync': 'listing',
  'fs.readdir': 'listing',
  'fs.promises.readdir': 'listing',
  'fs/promises.readdir': 'listing',
  'node:fs.readdirSync': 'listing',
  'node:fs.readdir': 'listing',
  'node:fs.promises.readdir': 'listing',
  'node:fs/promises.readdir': 'listing',
  'glob.sync': 'listing',
  'glob.globSync': 'listing',
  'glob.glob': 'listing',
  'fast-glob.default': 'listing',
  'fast-glob.sync': 'listing',
  'JSON.stringify': 'json-stringify',
  'Object.keys': 'object-keys',
  'Object.values': 'object-keys',
  'Object.entries': 'object-entries',
  'Object.fromEntries': 'object-from-entries',
  'Array.from': 'to-list',
  String: 'passthrough',
  Number: 'passthrough',
  Date: 'date-ctor',
  require: 'require',
};

export function classifyPython(name: string): SourceKind | undefined {
  const hit = PYTHON[name];
  if (hit) return hit;
  if (PYTHON_RANDOM_MODULES.some((m) => name.startsWith(m))) return 'random';
  if (name.startsWith('os.environ')) return 'environment';
  return undefined;
}

export function classifyJs(name: string): SourceKind | undefined {
  const hit = JS[name];
  if (hit) return hit;
  if (name.startsWith('process.env')) return 'environment';
  return undefined;
}

export const PYTHON_BUILTINS = new Set(['sorted', 'set', 'frozenset', 'list', 'tuple', 'str', 'repr', 'format', 'int', 'float', 'round', 'dict', 'len', 'print', 'open', 'isinstance', 'range', 'enumerate', 'zip', 'reversed', 'min', 'max', 'sum', 'any', 'all', 'map', 'filter', 'bool', 'id', 'hash', 'type', 'super', 'getattr']);

export const JS_GLOBALS = new Set(['Date', 'Math', 'JSON', 'crypto', 'performance', 'process', 'Object', 'Array', 'Set', 'Map', 'require', 'String', 'Number', 'Temporal', 'console', 'globalThis']);

/** Calls whose result is data fetched per request: retrieval, memory, search, user lookups. */
export const RETRIEVAL_NAME = /(retriev|search|recall|memor|lookup|similar|vector|rag_|knowledge|fetch_?context|get_?context|user_?profile|get_?profile|get_?user|load_?user)/i;

/**
 * Code that already cuts history at a user turn or repairs tool_use/tool_result pairs: a role
 * compared with "user", tool_use ids matched up, or a condition that looks at tool_result
 * blocks. (Building a tool_result, or branching on tool_use to run a tool, is not a guard.)
 */
export const TURN_GUARD = new RegExp(
  [
    // a role compared with "user": `m.role === 'user'`, `m["role"] != "user"`, `m.get("role") == "user"`, `role === 'user'`
    String.raw`\brole["']?\s*\]?\s*\)?\s*[!=]==?\s*["']user["']`,
    String.raw`["']user["']\s*[!=]==?\s*[\w.[\]"'()]*\brole\b`,
    // tool_use ids matched up
    String.raw`tool_use_id["']?\]?\s*(?:in\b|not in\b|[!=]==?)`,
    String.raw`toolUseId\s*[!=]==?`,
    // a condition that looks at tool_result blocks
    String.raw`\b(?:if|while)\b[^\n:{]*["']tool_result["']`,
  ].join('|'),
);

export function isAnthropicModule(module: string): boolean {
  return /^anthropic(\.|$)/.test(module) || module.startsWith('@anthropic-ai/');
}
