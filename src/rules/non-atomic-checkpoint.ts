import type { ShapeArg } from '../core/edits';
import type { ArgView, Assignment, CallSite, FileOp, FilePath, FileView, FunctionView } from '../core/fileView';
import { leavesLoopAfter } from '../core/fileView';
import { param } from '../core/model';
import { HOLE, allTaints } from '../core/value';
import { defineRule } from '../core/rule';
import type { RuleContext } from '../core/rule';
import type { Loc, TextEdit } from '../core/span';
import { sameLoc } from '../core/span';
import { fileText } from './util';

/**
 * Files of other programs that code writes on purpose (a browser profile, an editor's rules):
 * their format and their readers are not the program's own.
 */
const FOREIGN_FILES = new Set(['History', 'Local State', 'Preferences', 'Bookmarks', 'Cookies', 'Login Data', '.cursorrules']);
/**
 * Files of a project's source tree that scripts and scaffolders edit (manifests, build and docs
 * configuration): kept in version control, so a torn write is undone with a checkout.
 */
const PROJECT_FILES = new Set(['package.json', 'manifest.json', 'pyproject.toml', 'setup.cfg', 'setup.py', 'mkdocs.yml', 'mkdocs.yaml', 'tsconfig.json', 'Cargo.toml', 'go.mod', 'requirements.txt', 'versions.json', 'README.md', 'CHANGELOG.md', 'HISTORY.md', 'AGENTS.md', 'CLAUDE.md', 'Dockerfile', 'docker-compose.yml', 'docker-compose.yaml', '.env.example']);
/** Whether a file name is one of PROJECT_FILES, or a TypeScript configuration that extends one (`tsconfig.build.json`). */
function projectFile(name: string | undefined): boolean {
  return !!name && (PROJECT_FILES.has(name) || /^tsconfig\.[\w.-]+\.json$/.test(name));
}
/**
 * The fixed start and end of a glob pattern (`chat-` and `.json` of `chat-*.json`), when both are
 * known and the end names no folder.
 */
function fixedParts(pattern: string): { prefix: string; suffix: string } | undefined {
  const cut = pattern.search(/[*?[]/);
  if (cut < 0 || pattern.slice(0, cut).includes(HOLE)) return undefined;
  const end = Math.max(pattern.lastIndexOf('*'), pattern.lastIndexOf('?'), pattern.lastIndexOf(']')) + 1;
  const suffix = pattern.slice(end);
  return suffix.includes(HOLE) || suffix.includes('/') ? undefined : { prefix: pattern.slice(0, cut), suffix };
}

/** A test of whether some file exists, alone: `os.path.exists(p)`, `path.exists()`, `fs.existsSync(p)`. */
const EXISTENCE_TEST = /^(os\.path\.(exists|isfile)\([^()]*\)|[\w.]+\.(exists|is_file)\(\)|(fs\.)?existsSync\([^()]*\))$/;

/** The folder of a project's evaluation harness. */
const EVAL_FOLDER = /^evals?$/i;
/** A folder of a project's tests (below its root: a project under `/home/me/tests` is not all tests). */
const TEST_FOLDER = /^(tests?|e2e)$/i;
/** The name of a test double (`core-stub.ts`, `mock_client.py`, `fakes.ts`) or pytest's `conftest.py`. */
const TEST_SUPPORT_NAME = /(^|[-_.])(stubs?|mocks?|fakes?|doubles?)([-_.]|$)|^conftest\./i;
/** An import of a test framework, or of the tests' own pytest fixtures (`from ..conftest import ...`). */
const TEST_FRAMEWORK = /^\s*(?:import|from)\s+(?:pytest|unittest)\b|^\s*from\s+(?:\.+|(?:\.*\w+\.)*)conftest\s+import\b|^\s*import\s+(?:\w+\.)*conftest\b|(?:from|require\()\s*["'](?:vitest|jest|@jest\/globals|mocha|node:test|@playwright\/test|chai|sinon)["']/m;
/** The same named in full: a harness outside the package's sources, not a library's `src/evaluation` module. */
const EVALUATION_FOLDER = /^evaluations?$/i;
const SOURCE_ROOT = /^(src|lib)$/i;

/** A project's evaluation harness, from the folders below the project's root down to the file. */
function evaluationHarness(folders: readonly string[]): boolean {
  return folders.some((f, i) => EVAL_FOLDER.test(f) || (EVALUATION_FOLDER.test(f) && !folders.slice(0, i).some((x) => SOURCE_ROOT.test(x))));
}
/** A call that tests whether a file or folder exists (`p.exists()`, `os.path.isdir(d)`, `fs.existsSync(f)`). */
const EXISTS_CALL = /^(exists|existsSync|isfile|is_file|isdir|is_dir|pathExists|pathExistsSync)$/;
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
/** The text reads the name (not an attribute of that name: `self.name`). */
const mentions = (text: string, name: string) => new RegExp(`(?<![\\w$.])${name.replace(/\$/g, '\\$')}(?![\\w$])`).test(text);

/**
 * `open` where the front end can read a call of it: called (`open(`, `Path(p).open(`, over a
 * line break), or bound to another name (`from io import open as io_open`, `opener = open`,
 * `(open, ...)`). The word first, what comes before it looked back at: a pattern that started at
 * every `,`, `(` and `=` took three times as long over the corpus's Python files.
 */
const OPEN_NAMED = /\bopen\b(?:[\s\\]*\(|(?<=(?:\bimport|[,(=])[\s\\]*open))/;
/** A mode string that empties the file (`"w"`, `"wb"`, `'w+'`): the writes this rule reports. */
const TRUNCATING_MODE = /["'][rbtUax+]*w[rbtUwax+]*["']/;
/** A mode string that writes (`"w"`, `"a"`, `"x"`, `"r+"`). */
const WRITING_MODE = /["'][rbtU]*[wax+][rbtUwax+]*["']/;

/** The script runs git: `subprocess.run(["git", ...])`, `execSync('git ...')`, `spawnSync('git', ...)`. */
const RUNS_GIT = /\[\s*["']git["']\s*,|\b(exec|execSync|execFileSync|spawn|spawnSync|execFile|check_output|check_call|run|getoutput|system)\(\s*["'`]git\b/;
/** Words of a name that mark a temp file: `tmp`, `temp`, `.part`, `.partial`, `.new`. */
const TEMP_WORDS = new Set(['tmp', 'temp', 'part', 'partial', 'new', 'tempfile']);

type Read = Extract<FileOp, { kind: 'read' }>;
/** Data written as a serialised structure: the program's own state, not text it passes through. */
const SERIALISED = /\b(json|orjson|ujson|yaml|pickle|dill|cloudpickle|toml|tomli_w|tomlkit|marshal)\.(dumps?|safe_dump)\b|JSON\.stringify\b|\.model_dump_json\(|\.to_json\(|\.SerializeToString\(/;

/** The words of a path expression or name: `self.tmp_path` -> self, tmp, path; `tmpFile` -> tmp, file. */
function words(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** The words of the names a counting loop's step changes: `part++`, `i += 2, j--`, `cursor = next(cursor)` (not `next`). */
function counters(step: string): string[] {
  const names = [...step.matchAll(/(?:\+\+|--)\s*([A-Za-z_$][\w$]*)|([A-Za-z_$][\w$]*)\s*(?:\+\+|--|[-+*/%]?=(?!=))/g)].map((m) => m[1] ?? m[2]);
  return names.flatMap(words);
}

/**
 * Keys under which two paths name the same file: the same expression (or the one a name is bound
 * to), the same known path, the same file name, or the same path-building function of the file.
 */
// TypeScript's non-null assertion (`this.file!`) names the same file as `this.file`.
const expr = (text: string) => `e:${text.replace(/\s+/g, '').replace(/([\w$\])])!(?!=)/g, '$1').replace(/^\((.*)\)$/, '$1')}`;

const SOURCE_EXT = /\.(py|pyi|js|mjs|cjs|ts|tsx|jsx|md|mdx|html|css|sh|rs|go|java)$/i;
/** A walk of the tree for source or document files: a glob whose pattern ends in such an extension. */
const SOURCE_WALK = /\b(r?glob|iglob|globSync|glob\.sync)\s*\(\s*[rbuf]*["'`][^"'`]*\*[^"'`/]*\.(ipynb|py|pyi|js|mjs|cjs|ts|tsx|jsx|md|mdx|rst|html|css)["'`]/i;

/** Two classes of the file, neither derived from the other by name (methods of one object's class and its base are one object's). */
function unrelatedClasses(a: FunctionView['ofClass'], b: FunctionView['ofClass']): boolean {
  if (!a || !b || a.start === b.start) return false;
  return !(a.name && b.bases.includes(a.name)) && !(b.name && a.bases.includes(b.name));
}

/** pathKeys of each path, computed once: read-back compares every write with every read. */
const keysOf = new WeakMap<FilePath, string[]>();

function pathKeys(p: FilePath): string[] {
  let keys = keysOf.get(p);
  if (!keys) keysOf.set(p, (keys = pathKeysUncached(p)));
  return keys;
}

function pathKeysUncached(p: FilePath): string[] {
  const keys = [expr(p.arg.text)];
  if (p.origin) keys.push(expr(p.origin));
  if (p.builder) keys.push(`f:${p.builder}`);
  const v = p.arg.value();
  if (v.kind === 'str' && v.complete) keys.push(`s:${v.text}`);
  // A file name with an extension names one file; `"{run_id}"` or a bare folder does not.
  // Source and document files (`main.py`, `README.md`) written by scaffolders share names across folders.
  if (p.name && /^[\w.-]*\w\.\w+$/.test(p.name) && !SOURCE_EXT.test(p.name)) keys.push(`b:${p.name}`);
  return keys;
}

/** A pattern for a test that a file (a text matching the pattern `name`) exists: `os.path.exists(name)`, `os.path.isfile(name)`, `name.exists()`, `name.is_file()`, `fs.existsSync(name)`. */
function existenceCall(name: string): string {
  return `(os\\.path\\.(exists|isfile)\\(\\s*${name}\\s*\\)|${name}\\.(exists|is_file)\\(\\)|(fs\\.)?existsSync\\(\\s*${name}\\s*\\))`;
}

/**
 * The `if` (or `elif`) that the `else` on line `i` (at `indent`) belongs to tests that the file
 * (a text matching `name`) exists: the `else` runs only when it does not.
 */
function elseOfExists(lines: readonly string[], i: number, indent: number, name: string): boolean {
  const exists = new RegExp(`^\\s*(\\}\\s*)?(el)?(if|else if)\\s*\\(?\\s*${existenceCall(name)}\\s*\\)?\\s*[:{]`);
  for (let j = i - 1; j >= 0; j--) {
    const line = lines[j];
    if (!line.trim()) continue;
    const at = /^[ \t]*/.exec(line)![0].length;
    if (at < indent) return false;
    if (at === indent && /^\s*(\}\s*)?(if|elif|else if)\b/.test(line)) return exists.test(line);
  }
  return false;
}

/** The test of a write that only creates a missing file: `if not path.exists():`, `if (!fs.existsSync(file))`. */
const WRITE_ONCE = /^\s*\(?\s*(not\s+[\w.]*(exists|isfile|is_file)\b|!\s*[\w.]*(existsSync|exists)\b)/;

/** Words of a loop over a collection's items that name none of them (`for (const [k, v] of Object.entries(x))`, `enumerate(x)`). */
const ITERATION_HELPERS = new Set(['const', 'let', 'var', 'of', 'in', 'Object', 'entries', 'keys', 'values', 'items', 'enumerate', 'zip', 'sorted', 'list', 'reversed']);

/** Callables and modules that build a path from their arguments without adding a name of their own. */
const PATH_CALLS = new Set(['Path', 'PurePath', 'os', 'path', 'pathlib', 'join', 'resolve', 'abspath', 'expanduser', 'normpath', 'realpath', 'str', 'fspath', 'String', 'await']);
/**
 * The system's temp folder: `/tmp/...`, `tempfile.gettempdir()`, `os.tmpdir()`, a `mkdtemp` folder,
 * a temporary directory made for a block (`with tempfile.TemporaryDirectory() as d`, a project's
 * own `GitTemporaryDirectory()` around it), removed when the block ends.
 */
const TEMP_DIR = /(^|["'`\s])\/tmp\/|gettempdir\(|\btmpdir\(|mkdtemp|TemporaryDirectory\(/;
/** Files that describe a running process (its PID, its port, its lock): its writer's crash ends what they describe. */
const PROCESS_FILE_WORDS = new Set(['pid', 'pidfile', 'port', 'lock', 'lockfile']);
/** A name made new on each write: a uuid (`uuid4()`, `uuidv4()`, `randomUUID()`, `nanoid()`, the AI SDK's `generateId()`), random bytes, a timestamp. */
const FRESH_NAME = /\buuid(v?\d)?\(|\buuid\.uuid\d\(|randomUUID\(|\b(nanoid|ulid|cuid2?|createId|generateId)\(|randomBytes\(|\btoken_(hex|urlsafe)\(|\bDate\.now\(\)|\btime\.time\(\)|\.now\(\)(\.(strftime|isoformat)|:%)|\btimestamp\b/;
/**
 * Data that is only the clock (`str(time.time())`, `String(Date.now())`, `new Date().toISOString()`):
 * a stamp. A torn one fails to parse and reads as no stamp, so the next run writes it again.
 */
const CLOCK_ONLY = /^(time\.(time|monotonic|time_ns)\(\)|Date\.now\(\)|new Date\(\)\.(toISOString|getTime|toJSON)\(\)|(datetime\.)?datetime\.(now|utcnow)\([^()]*\)(\.isoformat\(\))?)$/;
/** `str(int(time.time()))` -> `time.time()`, `String(Date.now())` / `Date.now().toString()` -> `Date.now()`. */
function stripWrappers(text: string): string {
  let t = text;
  for (let i = 0; i < 4; i++) {
    const call = /^(?:str|String|int|float|Number|repr|round)\((.*)\)$/.exec(t);
    const method = /^(.*)\.toString\(\)$/.exec(t);
    if (call) t = call[1];
    else if (method) t = method[1];
    else break;
  }
  return t;
}
/** A file made private right after it is written (`os.chmod(p, 0o600)`, `fs.chmodSync(p, 0o600)`), named as a login's: credentials, which a torn write makes the user fetch again by logging in. */
const PRIVATE_MODE = /^(0o?[0-7]?[46]00|384|256)$/;
const CREDENTIAL_WORDS = new Set(['token', 'tokens', 'credential', 'credentials', 'auth', 'oauth', 'login']);
/** Configuration folders of other tools (editors, coding agents) that installers write into: `~/.claude`, `.cursor/`, Claude Desktop's config. */
const FOREIGN_TOOL_DIR = /(^|["'`/\\\s])\.(claude|codex|cursor|vscode|windsurf|hermes|openclaw|continue|gemini)\b|claude_desktop_config/;

const SAVE_VERBS = new Set(['save', 'write', 'store', 'persist', 'dump', 'put', 'set', 'export', 'update']);
const LOAD_VERBS = new Set(['load', 'read', 'restore', 'get', 'fetch', 'import', 'open', 'resume', 'from']);
/** Words of a handler's name that say how it is called, not what it saves (`handle_write_file`, `on_save`). */
const HANDLER_WORDS = new Set(['handle', 'handler', 'on', 'do', 'cmd', 'command', 'api', 'tool', 'rpc', 'async']);
/** Words too general to name one kind of file. */
const GENERIC_NOUNS = new Set(['file', 'files', 'path', 'text', 'data', 'bytes', 'json', 'yaml', 'yml', 'toml', 'pickle', 'csv', 'content', 'to', 'from', 'disk']);

/** The words of a name that say what kind of file it is about: not its verbs, formats or handler words. */
const nouns = (ws: string[]) => ws.filter((x) => !SAVE_VERBS.has(x) && !LOAD_VERBS.has(x) && !GENERIC_NOUNS.has(x) && !HANDLER_WORDS.has(x));

/** `save_history` / `load_history`, `saveTranscript` / `loadTranscript`: a saver and its loader of one kind of file. */
function savesAndLoads(writer: string | undefined, reader: string | undefined): boolean {
  if (!writer || !reader) return false;
  const w = words(writer);
  const r = words(reader);
  if (!w.some((x) => SAVE_VERBS.has(x)) || !r.some((x) => LOAD_VERBS.has(x))) return false;
  const wn = nouns(w);
  const rn = new Set(nouns(r));
  // `save(path)` / `load(path)` of one class or module: the pair by its verbs alone (the caller
  // checks that the data is serialised). `write_json_file` / `read_json_file` name a format, not a
  // file: a generic helper, whose callers decide what the file is.
  if (!wn.length && !rn.size) return ![...w, ...r].some((x) => GENERIC_NOUNS.has(x));
  return wn.length > 0 && wn.every((x) => rn.has(x)) && rn.size === wn.length;
}

/**
 * The file's name is known and is not a source or document file's (`main.py`, `AGENTS.md`,
 * `cli-reference.mdx`): a file of the program's own, not one of the source tree that a
 * generator or a scaffolder compares in one mode and writes in another.
 */
function ownDataFile(p: FilePath): boolean {
  const v = p.arg.value();
  const name = p.name ?? (v.kind === 'str' ? v.text.slice(v.text.lastIndexOf('/') + 1) : '');
  return /^[\w.-]*\w\.\w+$/.test(name) && !SOURCE_EXT.test(name);
}

function isTempPath(p: FilePath): boolean {
  const v = p.arg.value();
  const known = v.kind === 'str' ? v.text : '';
  return words(p.arg.text).some((w) => TEMP_WORDS.has(w)) || /(^|\/)tmp\//.test(known) || /\.(tmp|part|partial|new)$/.test(p.name ?? known);
}

/** The file is the memory tool's: it names the tool type (`memory_20250818`), or a path is under `/memories`. */
function memoryTool(ctx: RuleContext, ops: readonly FileOp[]): boolean {
  // `/memories` in a path, not in a URL of some HTTP API (the plain word first: the pattern starts at every quote).
  const text = fileText(ctx);
  if (text.includes('memor') && /\bmemory_\d{8}\b|["'`](?![a-z]+:\/\/)[^"'`\n]*\/memories\b/.test(text)) return true;
  const declared = ctx.calls.some((c) => {
    const tools = param(c, 'tools');
    return tools?.kind === 'list' && tools.items.some((t) => t.kind === 'obj' && t.entries.some((e) => e.key === 'type' && e.value.kind === 'str' && /^memory_\d{8}$/.test(e.value.text)));
  });
  if (declared) return true;
  return ops.some((o) => {
    const p = o.kind === 'write' || o.kind === 'read' ? o.path : o.kind === 'rename' ? o.to : undefined;
    const v = p?.arg.value();
    return v?.kind === 'str' && /(^|\/)memories(\/|$)/.test(v.text);
  });
}

export default defineRule({
  meta: {
    id: 'non-atomic-checkpoint',
    group: 'state',
    severity: 'warning',
    fix: 'sometimes',
    // Every report is about a file operation the front end reads by its library name, and the
    // names of those are in the file's text: an in-place write (a truncating write), or a rename
    // in a function that writes or makes a temp file. Python: `open` called (`open(`, `.open(`)
    // or bound to another name (`from io import open as io_open`), with a mode that truncates —
    // `w`, which the file spells —, pathlib's `write_text` / `write_bytes`, `os.open` for
    // writing, a rename (`os.replace`, `os.rename`, `shutil.move`, `Path.replace`) with
    // `tempfile`'s names, or with a temp file the function opens for writing in any mode
    // (`w`, `a`, `x` or `+`). (The word `open` and any writing mode took 745 files of the
    // real-code corpus, 275 of them with neither a truncating write nor a rename: `open` in a
    // comment, `"x"` for a coordinate, a file only appended to; this takes 667, 197 of them so:
    // `wave.open(f, "wb")`; `aiofiles.open` was one of them then, and is read as `open` now.)
    // Node: the `fs` module's `writeFile(Sync)` / `createWriteStream`, or its `rename(Sync)`
    // with `os.tmpdir` / `mkdtemp`.
    triggers: {
      python: {
        anyOf: [
          [OPEN_NAMED, TRUNCATING_MODE],
          /\bwrite_(?:text|bytes)\b/,
          [/\bos\.open\b/, /\bO_(?:WRONLY|RDWR)\b/],
          [/\b(?:replace|renames?|move)\b/, { anyOf: [/\b(?:NamedTemporaryFile|mkstemp|TemporaryFile|mkdtemp|TemporaryDirectory|SpooledTemporaryFile|gettempdir)\b/, [OPEN_NAMED, WRITING_MODE]] }],
        ],
      },
      typescript: [/\bfs\b/, { anyOf: [/\b(?:writeFileSync|writeFile|createWriteStream)\b/, [/\b(?:renameSync|rename)\b/, /\b(?:tmpdir|mkdtempSync|mkdtemp)\b/]] }],
    },
    // A test's files, fixtures and sessions are its own scaffolding, not the program's state; the
    // scripts of a CI workflow run on a throwaway checkout, where a crash loses nothing.
    skips: { tests: true, paths: /(^|[\\/])\.github[\\/]/ },
    summary: 'A file the program reads back (state, checkpoints, sessions, memory) written in place, renamed without an fsync, or through a temp file in /tmp.',
    docs: `## What it does
Finds code that saves state a crash can corrupt: a file the program writes in place and also reads back (a checkpoint, a session, a conversation history, a memory file), writes again on every pass of a loop, names on the first call of the writing function and writes again on every later one (\`if not self.history_file: self.history_file = ...\` before \`json.dump(self.messages, open(..., "w"))\`: a chat saved after each message), or keeps for the memory tool; or that it writes only when the file is missing and then only appends to and reads back (notes seeded once, then added to: the seed is skipped once the file exists, so a torn one stays under every append); or that it fills from a stream (a download, a copy: chunks written in a loop, \`shutil.copyfileobj\`, a write stream piped to) only when the file is missing (\`if path.exists(): return path\`, \`continue\` in a loop over files) — a fill cut short, by a crash or by a network error, leaves a partial file that exists, and every later run skips the fill and takes it as complete (a cache filled so is not rebuilt either):
- written in place: \`json.dump(state, open(path, "w"))\`, \`with open(path, "w") as f: ...\` (and asyncio's \`async with aiofiles.open(path, "w") as f: ...\`), \`path.write_text(...)\`, \`fs.writeFileSync(path, ...)\`, \`await writeFile(path, ...)\`;
- written to a temp file and renamed over the target without an \`fsync\` of the temp file first;
- written to a temp file in the system temp directory (\`tempfile.NamedTemporaryFile()\` without \`dir=\`, \`os.tmpdir()\`, \`/tmp/...\`) and then renamed into place.

"Reads it back" means a read of the same path in the same file — the same expression (or the one a name is bound to: \`p = state_path(name)\`; an attribute of \`self\` or \`this\` in the methods of one class, or of a class and one derived from it), the same path-building function of the file or method of the object (\`self._note_path(namespace, name)\`), the same known path, or the same file name (\`"state.json"\`) — or a read of the same known path or file name in a project module the file imports (a loader kept in a helper module). A generic helper's file (\`_write_file(self, path, data)\`, \`readJson(file)\`) is the file its calls in the same file pass: a reading helper reads, at each of its calls, the file that call passes, and a helper that serialises what it is handed into the path it is given writes, at each of its calls, the file that call passes (not one the caller itself is given: one level of callers) — so \`self._write_file(os.path.join(d, "agent.json"), data)\` is read back by \`self._read_file(os.path.join(d, "agent.json"))\`. A read the helper makes after writing the file itself sees what the same call wrote, and counts at no call. A bare parameter or local name links a read and a write only inside one function — across functions only a saver and loader named as a pair (\`save_history(path)\` / \`load_history(path)\`, \`save\` / \`load\`) that serialise the data take the same parameter for the same file — and text read and written back in one pass of one function is an edit (a version bump), not a read-back (a function that serialises data only for what it prints or logs, \`print(json.dumps(summary))\`, still writes text). A read that one call of the function never runs together with the write — in another arm of an \`if\`, or in a block that returns first (\`if args.resume: names = open(STATE).read().split(); ...; return\`) — is another mode of the program, which loads what an earlier run saved (for a file whose name the code shows and that is not a source or document file: a generator's check mode compares a file it writes otherwise). A file named anew on each save is read back when the program lists the files of that name and loads them: a glob of the name's fixed parts (\`glob.glob(f"{BASE}*.json")\` for \`f"{BASE}{stamp}.json"\`, \`sessions.glob("chat-*.json")\`), or a listing of its folder (\`os.listdir(d)\`, \`fs.readdirSync(dir)\`, with the name filters it applies), followed by a read in the listing's function or, when the listing hands the names on, a loader of that kind of file taking the name it is given (\`load_conversation(params, filename)\`).

Not reported: files written once and never read by the program (exports, reports, downloads), a write that only creates a missing file (under \`if not path.exists()\`, after \`if path.exists(): return\`, one that refuses to overwrite (\`raise FileExistsError(...)\`) or one that stops the program (\`sys.exit(1)\`, \`process.exit(1)\`) — also of the folder it is written into, through the name the path is bound to as well (\`manifest = plugin_dir / "plugin.yaml"\`) —, in a \`FileNotFoundError\` branch or the \`else\` of \`if os.path.isfile(path):\`; also in a function that every call in the file makes only behind such a test: \`if os.path.exists(self.path): self.load(); return\` before \`self.save()\`) unless it is filled from a stream (above), a file of the same name in another folder (\`template_root / "task.json"\` read, \`task_dir / "task.json"\` written), source files a scaffolder writes (\`main.py\`), a file named anew on each write (a uuid or a timestamp in its name, also through an attribute the same function has just set: \`self.run_id = f"{now}-{uuid4()}"\`) that nothing lists back (a listing that only prunes old files loads nothing), a file made under a name that a loop has just picked free (\`while (SKILLS / name).exists(): name = f"{base}-{n}"\`, in the writing function or before every call of it in the file), a record the module only creates (the write composes it anew in the writing function, the module answers whether the file exists — \`vm_exists(name)\` returns that test, the guard its callers create behind — and no function of the file reads it and writes it back), a loop that writes a different file on each pass (its item, its index or its counter in the name, also through a value built from it: \`settings = settings_for(kind)\` then \`OUT_DIR / settings["file"]\`) or leaves the loop after the write (a retry loop), an empty marker file or a clock stamp (\`f.write("")\`, \`write_text(str(time.time()))\`), a failure record (the text of an error an exception handler caught, the clock and fixed labels: \`{"error": str(exc), "ts": now}\`), a login's credentials made private after the write (\`os.chmod(token_file, 0o600)\`; not a file of refresh tokens, which is rewritten on every refresh), a file read back only after the same function has written it (write, read, wrap, write again), a record read and rewritten in one function through an attribute that the file only ever sets to a new name (a run's own folder: \`self.run_id = f"{now}-{uuid4()}"\` in one method, \`self.root / self.run_id / "summary.json"\` read, updated and written back in another — a later run has a new name and never loads it; a loader of it elsewhere is still a read-back), a file the same function has just made from a source that stays (an archive extracted into its folder), caches (unless filled from a stream, above), other tools' configuration (\`~/.claude/settings.json\`, \`.cursor/\`), a file copied to a backup just before it is written (also by every call in the file of the helper that writes it), a path made only of what the caller passes (\`Path(params["path"])\`, \`safe_join(self.root, name)\`, also through a helper, a method as well, whose only strings are the error it raises and ones without a letter, such as the \`'..'\` of a test that the path stays inside its root: a file API's or an editor tool's target) unless a saver/loader pair takes it, scratch files in the system's temp folder (also a folder made by \`mkdtemp\`, or for a block by \`with tempfile.TemporaryDirectory() as d\`) unless another run loads them (the files of a name the program lists back, a read in another mode of the writing function), files that describe a running process (its PID, port or lock), generic helpers named by a format (\`write_json_file(path, data)\`: their callers decide what the file is — a call of one in the same file that passes a file read back is reported, above), other programs' files (a browser's \`Local State\`), files of a repository that a maintenance script keeps beside itself (the script runs git, and the path is anchored on \`__file__\`, \`__dirname\` or \`import.meta.url\`: a release script's \`Path(__file__).parent / "removals.json"\`), files of a source tree that scripts edit (the source or document files a glob walks, in the writing function or at every call of it: \`for nb in Path(".").rglob("*.ipynb")\`; \`package.json\` — also when what is written is named so, or when every call of the writing helper names one —, \`manifest.json\`, \`pyproject.toml\`, \`tsconfig.build.json\`, \`mkdocs.yml\`, \`README.md\`), scripts under \`.github/\`, a project's evaluation harness (its \`eval\`, \`evals\` or \`evaluation\` folder below the project's root, not a package's \`src/evaluation\` module: a crash there costs running the evaluation again), calls that are not file writes (\`session.write_bytes(remote_path, data)\` on a remote API), test files and, in a test folder below the project's root (\`tests/\`, \`test/\`, \`e2e/\`), the tests' doubles and helpers (a file named as a stub, mock or fake, or one that imports a test framework or the tests' \`conftest\`).

## Why is this bad?
Opening a file for writing truncates it first. A crash, a kill or a full disk before the write finishes leaves an empty or half-written checkpoint, and the next read of it fails — often discovered only on the restart that needed it. The safe pattern is a temp file in the same directory, flushed and fsynced, then renamed over the target (\`os.replace\`, \`fs.renameSync\`): the rename is atomic, so readers see the old file or the new one. Without the fsync, a power loss can persist the rename before the data. A temp file in \`/tmp\` is often on another filesystem: the rename then fails with \`EXDEV\` (\`Invalid cross-device link\`), or \`shutil.move\` silently falls back to a copy that is not atomic.

## Example
\`\`\`python
import json

def save_checkpoint(state, path="checkpoint.json"):
    with open(path, "w") as f:
        json.dump(state, f)

def load_checkpoint(path="checkpoint.json"):
    with open(path) as f:
        return json.load(f)
\`\`\`

\`\`\`ts
import * as fs from 'node:fs';

export function saveSession(session: object, file = 'session.json') {
  fs.writeFileSync(file, JSON.stringify(session));
}

export function loadSession(file = 'session.json'): object {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}
\`\`\`

## Use instead
\`\`\`python
import json
import os
import tempfile

def save_checkpoint(state, path="checkpoint.json"):
    directory = os.path.dirname(os.path.abspath(path))
    with tempfile.NamedTemporaryFile("w", dir=directory, delete=False) as f:
        json.dump(state, f)
        f.flush()
        os.fsync(f.fileno())
    os.replace(f.name, path)

def load_checkpoint(path="checkpoint.json"):
    with open(path) as f:
        return json.load(f)
\`\`\`

\`\`\`ts
import * as fs from 'node:fs';
import * as path from 'node:path';

export function saveSession(session: object, file = 'session.json') {
  const tmp = path.join(path.dirname(file), \`.\${path.basename(file)}.tmp\`);
  const fd = fs.openSync(tmp, 'w');
  fs.writeSync(fd, JSON.stringify(session));
  fs.fsyncSync(fd);
  fs.closeSync(fd);
  fs.renameSync(tmp, file);
}

export function loadSession(file = 'session.json'): object {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}
\`\`\`

## Fix safety
For an in-place write of text — \`with open(path, "w") as f:\` around a single \`json.dump\` / \`f.write\`, \`json.dump(data, open(path, "w"))\`, \`path.write_text(text)\`, \`fs.writeFileSync(path, data)\`, \`await writeFile(path, data)\` — the fix replaces the write with a call to \`atomic_write_text(path, text)\` / \`atomicWriteFileSync(path, data)\`, a helper it adds to the file once (temp file in the same directory, flush, fsync, rename, then an fsync of the directory where the platform allows it). It is unsafe: the helper writes UTF-8 text, leaves the file with default permissions, and in an async function it writes synchronously. A rename without an fsync and a temp file in \`/tmp\` are reported without a fix.
`,
  },

  checkFile(ctx) {
    const view = ctx.view;
    const ops = view.fileOps;
    if (!ops.some((o) => o.kind === 'write' || o.kind === 'rename')) return;
    // A project's evaluation harness (its `eval` / `evals` / `evaluation` folder) writes the results of a run: a
    // crash costs running it again, not state the program keeps.
    if (evaluationHarness(view.projectFolders)) return;
    // In a test folder below the project's root, the helpers, doubles and fixtures of the tests
    // (`tests/helpers.py`, `src/test/core-stub.ts`, a Playwright file under `e2e/tests/`), as test
    // files are; a script kept there (a benchmark run by hand) is still the program's.
    if (view.projectFolders.some((f) => TEST_FOLDER.test(f)) && (TEST_SUPPORT_NAME.test(ctx.file.slice(Math.max(ctx.file.lastIndexOf('/'), ctx.file.lastIndexOf('\\')) + 1)) || TEST_FRAMEWORK.test(fileText(ctx)))) return;
    const reads = ops.filter((o): o is Read => o.kind === 'read');
    const fnOf = (at: Loc): FunctionView | undefined => view.enclosingFunction(at);
    /**
     * A generic helper's file (`_write_file(self, path, data)`, `readJson(file)`): its path is a
     * parameter of the helper, so which file it is depends on the caller. The paths the file's own
     * calls of the helper pass for that parameter (`self._write_file(agent_file, data)`), each at
     * its call: what a helper writes or reads is what its callers hand it.
     */
    /**
     * The calls of a function of the file (a plain call, or one through its object:
     * `self._write_file(...)`, `this.writeJson(...)`) with what each passes for one of its
     * parameters: undefined where a spread argument (`*args`, `...rest`) hides which one lands
     * there. `complete` when every call the file makes of it is listed.
     */
    const argumentsOfCache = new Map<string, { calls: Array<{ at: Loc; arg?: ArgView }>; complete: boolean }>();
    const argumentsOf = (fn: FunctionView, param: string): { calls: Array<{ at: Loc; arg?: ArgView }>; complete: boolean } => {
      const key = `${fn.at.start}:${param}`;
      let found = argumentsOfCache.get(key);
      if (found) return found;
      found = { calls: [], complete: true };
      // A method called through its object gets `self` first in Python; a plain call passes every parameter.
      const skipsSelf = /^(self|cls)$/.test(fn.params[0] ?? '');
      for (const c of fn.name ? view.calls : []) {
        if (c.method !== fn.name) continue;
        const callee = c.calleeText.replace(/\s+/g, '');
        const throughObject = /^(self|cls|this)\.[\w$]+$/.test(callee);
        if (!throughObject && callee !== fn.name) continue;
        if (found.calls.length >= 32) {
          found.complete = false;
          break;
        }
        const index = fn.params.indexOf(param) - (throughObject && skipsSelf ? 1 : 0);
        const positional = c.args.filter((a) => !a.name);
        const named = c.args.find((a) => a.name === param);
        const spread = positional.some((a) => /^\s*(\*|\.\.\.)/.test(a.text));
        found.calls.push({ at: c.at, arg: named ?? (spread ? undefined : index >= 0 ? positional[index] : undefined) });
      }
      argumentsOfCache.set(key, found);
      return found;
    };
    /** The file each call of the helper passes for `p` (a parameter of it), at the call: undefined where it cannot be read. */
    const passedPathsCache = new Map<string, { calls: Array<{ at: Loc; path?: FilePath }>; complete: boolean }>();
    const passedPaths = (at: Loc, p: FilePath): { calls: Array<{ at: Loc; path?: FilePath }>; complete: boolean } => {
      const fn = fnOf(at);
      const param = p.arg.text.trim();
      if (!fn?.name || !bare(p) || !fn.params.includes(param)) return { calls: [], complete: false };
      const key = `${fn.at.start}:${param}`;
      let found = passedPathsCache.get(key);
      if (!found) {
        const args = argumentsOf(fn, param);
        passedPathsCache.set(key, (found = { calls: args.calls.map(({ at: call, arg }) => ({ at: call, path: arg && view.pathAt(arg.at) })), complete: args.complete }));
      }
      return found;
    };
    const callerPaths = (at: Loc, p: FilePath): Array<{ at: Loc; path: FilePath }> => passedPaths(at, p).calls.filter((c): c is { at: Loc; path: FilePath } => !!c.path);
    /** Every call of the helper that writes `p` (a parameter of it) passes a file for which `test` holds; false when a call cannot be read or there is none. */
    const everyCaller = (at: Loc, p: FilePath, test: (call: Loc, path: FilePath) => boolean): boolean => {
      const { calls, complete } = passedPaths(at, p);
      return complete && calls.length > 0 && calls.every((c) => !!c.path && test(c.at, c.path));
    };
    // A bare name (`path`, `file_path`) is a parameter or a local of its function: in another
    // function the same name is another file. Across functions only what the name stands for
    // links a write and a read: the expression it is bound to, a path-building function, a known
    // path or file name, or an expression that is not a bare name (`self.state_file`, `STATE`).
    // One exception: a saver and its loader named as a pair (`save_history(path)` and
    // `load_history(path)`) that serialises the program's data take the same file.
    const bare = (p: FilePath) => /^[A-Za-z_$][\w$]*$/.test(p.arg.text.trim());
    const keysFor = (p: FilePath, crossFunction: boolean): string[] => {
      const keys = pathKeys(p);
      return crossFunction && bare(p) ? keys.filter((k) => k !== expr(p.arg.text)) : keys;
    };
    /** A path that changes on each pass of a loop: by the loop's target name, or by a value of it. */
    const perPass = (p: FilePath, l: NonNullable<ReturnType<typeof view.enclosingLoop>>): boolean => {
      // Also through the names its parts are bound to (a `stubName` built from the loop's item, then `path.join(outDir, stubName)`).
      const pathWords = words(`${p.arg.text} ${p.origin ?? ''} ${p.provenance ?? ''}`);
      if (l.targetText && pathWords.some((w) => words(l.targetText!).includes(w))) return true;
      // A counting loop's counter (`for (let part = 0; ...; part++)`): a name built from it differs on every pass.
      if (l.stepText && pathWords.some((w) => counters(l.stepText!).includes(w))) return true;
      return allTaints(p.arg.value()).some((t) => t.kind === 'loop-variable' && t.at.file === l.at.file && t.at.start >= l.at.start && t.at.end <= l.at.end);
    };
    // A path made only of what the caller passes (`path`, `Path(target)`, `join(root, rel)`) is the
    // caller's file: a tool's or an API's output, the file an editor edits. A read elsewhere of a
    // path made the same way links to it only as a saver/loader pair.
    /** The names the loop around `at` sets on each pass, when it iterates over parameters of its function only (`for rel in rels`, `Object.entries(edits)`, `edits.items()`). */
    const loopOverParameters = (at: Loc): string[] => {
      const loop = view.enclosingLoop(at);
      const params = fnOf(at)?.params ?? [];
      if (!loop?.targetText || !loop.iterText) return [];
      const names = (t: string) => [...t.matchAll(/(?<![.\w$])([A-Za-z_$][\w$]*)/g)].map((m) => m[1]);
      const iterNames = names(loop.iterText.replace(/\.\s*(items|keys|values|entries)\s*\(\s*\)/g, '')).filter((n) => !ITERATION_HELPERS.has(n));
      if (!iterNames.length || !iterNames.every((n) => params.includes(n))) return [];
      return names(loop.targetText).filter((n) => !ITERATION_HELPERS.has(n));
    };
    const callerChosen = (at: Loc, p: FilePath): boolean => {
      if (p.name) return false;
      // A path-building function of the file that adds a name of its own (a folder constant, an
      // extension: `STATE_DIR / f"{name}.json"`) names the program's own place for the file; one
      // that only joins and checks its arguments (`_inside(root, name)`) names the caller's.
      if (p.builder) {
        // A method builder is qualified by its class (`class@120._target`); the file's functions go by their own names.
        const builderName = p.builder.slice(p.builder.lastIndexOf('.') + 1);
        const fn = view.functions.find((f) => f.name === builderName);
        // Its docstrings, comments and the message of an error it raises (also after an `if` on the same line) name no file.
        const body = (fn?.text ?? '')
          .replace(/("{3}|'{3})[\s\S]*?\1/g, '')
          .replace(/(^|\n)\s*(#|\/\/)[^\n]*/g, '')
          .replace(/\b(raise|throw)\b[^\n]*/g, '');
        // A string with a letter in it (not a test of a path's form: `rel.startsWith('..')`), a
        // quote left over (a string over several lines), or a constant's name.
        const code = body.replace(/^[^\n]*\n/, '');
        const strings = [...code.matchAll(STRING_LITERAL)];
        if (!fn || strings.some((m) => /[A-Za-z]/.test(m[2])) || /["'`]/.test(code.replace(STRING_LITERAL, '')) || /\b[A-Z][A-Z0-9_]{2,}\b/.test(code)) return false;
      }
      const v = p.arg.value();
      if (v.kind === 'str' && /[A-Za-z]/.test(v.text.split(HOLE).join(''))) return false;
      const taints = allTaints(v);
      if (taints.length > 0 && taints.every((t) => t.kind === 'parameter')) return true;
      // By the text: every name the path is built from is a parameter (`Path(params["path"])`), or
      // the variable of a loop over a parameter (`for (const [rel, text] of Object.entries(edits))`).
      const params = [...(fnOf(at)?.params ?? []), ...loopOverParameters(at)];
      const text = (p.origin ?? p.arg.text).replace(/\[[^\]]*\]/g, '');
      if (/["'`][^"'`]*[A-Za-z]/.test(text)) return false;
      // The names a path is built from, not the functions that build it (`resolve_path(path)`).
      const roots = [...text.matchAll(/(?<![.\w$])([A-Za-z_$][\w$]*)(?![\w$]|\s*\()/g)].map((m) => m[1]).filter((n) => !PATH_CALLS.has(n));
      if (roots.length > 0 && roots.every((n) => params.includes(n))) return true;
      // A file the caller names inside a folder of the object (`self.dags_dir / dag_file`): the
      // last part of the join is a parameter, and nothing in the path is a name of the program's.
      const last = p.dir !== undefined ? undefined : lastJoinPart(text);
      return !!last && params.includes(last) && roots.every((n) => params.includes(n) || n === 'self' || n === 'this');
    };
    const lastJoinPart = (text: string): string | undefined => {
      const m = /(?:\/\s*|,\s*)([A-Za-z_$][\w$]*)\s*\)?\s*$/.exec(text);
      return m?.[1];
    };
    /** A write of the same file earlier in the read's function (not in a loop around both). */
    const writtenBeforeRead = (r: Read): boolean =>
      ops.some((o) => {
        if (o.kind !== 'write' || o.at.start >= r.at.start || !sameFn(o.at, r.at) || view.enclosingLoop(o.at)) return false;
        const mine = new Set(pathKeys(o.path));
        return pathKeys(r.path).some((k) => mine.has(k));
      });
    /**
     * The reads, and each read of a reading helper as the read of every call of it (at the call, of
     * the file it passes). Not a read the helper makes after writing the same file itself: that
     * read sees what the same call wrote.
     */
    let readsAndCallers: Read[] | undefined;
    const readsWithCallers = (): Read[] =>
      (readsAndCallers ??= [...reads, ...reads.flatMap((r) => (writtenBeforeRead(r) ? [] : callerPaths(r.at, r.path).map((c): Read => ({ kind: 'read', at: c.at, path: c.path }))))]);
    /** Reads that readBack found in another mode of the writing function (another run of the program). */
    const otherRunReads = new WeakSet<Read>();
    const readBack = (at: Loc, p: FilePath, structured: boolean): Read | undefined => {
      const here = fnOf(at);
      const loopHere = view.enclosingLoop(at);
      const perRun = runAttributes(`${p.arg.text} ${p.origin ?? ''} ${p.provenance ?? ''}`);
      for (const r of readsWithCallers()) {
        // One call of a helper that both reads and writes the file it is given (a migration: load,
        // rewrite, check): the helper's own order of the two decides, at its own operations.
        if (sameLoc(r.at, at)) continue;
        // Read, changed and written back through the same per-run name in one function: this
        // run's own record updated (at the end of the run); a loader elsewhere still reads it back.
        if (fnOf(r.at) === here && perRun.some((a) => new RegExp(`\\b${a.replace(/[.$]/g, '\\$&')}(?![\\w$])`).test(`${r.path.arg.text} ${r.path.origin ?? ''} ${r.path.provenance ?? ''}`))) continue;
        const there = fnOf(r.at);
        const same = there === here;
        if (!same && structured && (bare(p) || callerChosen(at, p)) && p.arg.text.trim() === r.path.arg.text.trim() && savesAndLoads(here?.name, there?.name)) return r;
        if (!same && callerChosen(at, p)) continue;
        // A read that one call of the function never runs together with the write (another arm
        // of it, or a block that returns first: `if args.resume: names = open(STATE).read(); ...;
        // return`) is another mode of the program, which loads what an earlier run saved. Not a
        // file of the source tree (nor one whose name the code does not show), which a generator
        // compares in a check mode and writes otherwise.
        const otherRun = same && ownDataFile(p) && view.apart(r.at, at);
        if (!otherRun) {
          // Text read and written in one pass of one function (or of a script's top level): an edit
          // of the file (`bump_version(path)`: read, change, write back) or a check of what was just
          // written, not state that a later run loads. Serialised data loaded, changed and saved
          // there (a session) is state; a loop around the write makes it a resume.
          if (same && !structured && (!loopHere || perPass(p, loopHere))) continue;
          // Read again later in the same pass, or after the loop that writes: the code reads what it has just written.
          if (same && r.at.start > at.start && (!loopHere || r.at.start >= loopHere.at.end)) continue;
          // Read after an earlier write of the same file in this function (write, read back, wrap,
          // write again): the read sees what this call wrote, not what an earlier run saved.
          if (same && writtenBeforeRead(r)) continue;
        }
        const mine = new Set(keysFor(p, !same));
        // The same file name in two folders the code names differently (`template_root / "main.py"`
        // read, `task_dir / "main.py"` written) is two files; a folder the caller passes may be either.
        // (In one function two folders named differently are two folders, parameters or not.)
        const otherFolder = (k: string) => k.startsWith('b:') && p.dir && r.path.dir && p.dir !== r.path.dir && (same || (!p.dirIsParam && !r.path.dirIsParam));
        // `self.db_path` in the methods of two classes is an attribute of two objects: only what it
        // holds (a known path, a file name) can make it one file.
        const otherObject = (k: string) => /^e:(self|this)\./.test(k) && unrelatedClasses(here?.ofClass, there?.ofClass);
        if (keysFor(r.path, !same).some((k) => mine.has(k) && !otherFolder(k) && !otherObject(k))) {
          if (otherRun) otherRunReads.add(r);
          return r;
        }
      }
      return undefined;
    };
    // Reads in the modules this file imports: a saver whose loader lives in a helper module. Only
    // the same file name or known path links them; an expression means something else there.
    let importedKeys: Map<string, Read> | undefined;
    const readElsewhere = (p: FilePath): Read | undefined => {
      // A path with neither key cannot match: the imported modules are not parsed for it.
      if (!pathKeys(p).some((k) => /^[sb]:/.test(k))) return undefined;
      if (!importedKeys) {
        importedKeys = new Map();
        for (const r of view.importedReads) for (const k of pathKeys(r.path)) if (/^[sb]:/.test(k) && !importedKeys.has(k)) importedKeys.set(k, r);
      }
      for (const k of pathKeys(p)) {
        const r = /^[sb]:/.test(k) ? importedKeys.get(k) : undefined;
        if (r) return r;
      }
      return undefined;
    };
    // Asked only of a write that earlier tests leave standing: it evaluates the path of every file operation.
    let memoryKnown: boolean | undefined;
    const memory = (): boolean => (memoryKnown ??= memoryTool(ctx, ops));
    /**
     * A copy of the file is taken first in the same function (`shutil.copy2(path, backup)`): a torn
     * write is undone from it. Or the same function has just made the file from a source that
     * stays (an archive extracted into its folder, a copy onto it): the write patches a fresh file.
     */
    const backedUp = (at: Loc, p: FilePath): boolean => {
      const fn = fnOf(at);
      if (!fn) return false;
      const target = p.arg.text.trim();
      const folder = p.dir;
      return view.calls.some((c) => {
        if (c.at.start >= at.start || fnOf(c.at) !== fn) return false;
        if (/(^|\.)(copy|copy2|copyfile|copyFileSync|copyFile|cp|cpSync)$/.test(c.name) && c.args[0]?.text.trim() === target) return true;
        return /^(extractall|extractAllTo|extractAll|unpack_archive|copytree)$/.test(c.method) && !!folder && c.args.some((a) => a.text.replace(/\s+/g, '') === folder);
      });
    };
    /** The write's function returns early when the file exists (`if path.exists(): return`) or writes it in a `FileNotFoundError` branch. */
    const createsOnly = (at: Loc, p: FilePath): boolean => {
      const fn = fnOf(at);
      if (!fn) return false;
      const before = fn.text.slice(0, Math.max(0, at.start - fn.at.start));
      // The file, or the folder it is written into (`skill_dir / "SKILL.md"`, `path.join(skillDir,
      // 'SKILL.md')`): a folder that did not exist holds no file yet.
      // Also through the name the path was bound to (`skill_md = skill_dir / "SKILL.md"`).
      const written = p.arg.text.trim();
      const folderOf = (t: string) => /^([\w.]+)\s*\/\s*\S/.exec(t)?.[1] ?? /^(?:os\.)?path\.join\(\s*([\w.]+)\s*,/.exec(t)?.[1];
      const folders = [folderOf(written), p.origin === undefined ? undefined : folderOf(p.origin.trim())].filter((f): f is string => f !== undefined);
      const name = `(?:${[written, ...folders].map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})`;
      // `if path.exists(): return ...` (also `try: return load(path)` inside it) before the write,
      // or one that refuses to overwrite (`raise FileExistsError(...)`, `throw new Error(...)`); the
      // test must be the whole condition (`if path.exists() and not overwrite:` may go on to write);
      // a `return` in a comment there (`# return`) leaves nothing.
      const test = `if\\s*\\(?\\s*([\\w.]+\\s*(and|&&)\\s*)?${existenceCall(name)}\\s*[):]`;
      // The `return` on the `if`'s line or anywhere in its block (the lines indented below it: a
      // load in a `try`, notes and a fallback before it), not a `return` of a later test.
      // A command that stops (`sys.exit(1)`, `process.exit(1)`) leaves as well.
      for (const m of before.matchAll(new RegExp(test, 'g'))) if (leavesInBlock(before, m.index!, LEAVES_FUNCTION)) return true;
      const cond = view.enclosingCondition(at);
      if (/except\s+\(?\s*FileNotFoundError|ENOENT/.test(cond?.conditionText ?? '')) return true;
      // The blocks around the write, by indentation: an `except FileNotFoundError:` or an
      // `if not path.exists():` anywhere above it (`if create:` inside the except, say).
      const lines = before.split('\n');
      let min = /^[ \t]*/.exec(lines[lines.length - 1])![0].length;
      for (let i = lines.length - 2; i >= 0 && min > 0; i--) {
        const line = lines[i];
        if (!line.trim()) continue;
        const indent = /^[ \t]*/.exec(line)![0].length;
        if (indent >= min) continue;
        min = indent;
        if (/^\s*except\b[^:]*\bFileNotFoundError\b/.test(line) || WRITE_ONCE.test(line.replace(/^\s*(el)?if\b/, ''))) return true;
        // The `else` of a test that the file exists (`if os.path.isfile(path): load ... else: write`).
        if (/^\s*(\}\s*)?else\b\s*[:{]/.test(line) && elseOfExists(lines, i, indent, name)) return true;
        if (/^\s*(async\s+)?(def|class)\b/.test(line)) break;
      }
      return false;
    };
    /**
     * The write's function is called in the file only behind that test (`if os.path.exists(self.path):
     * self.load(); return` before `self.save()`): it only ever creates the file. A method writing
     * `self.x` counts only calls on the same object (`self.save()`); the function's own calls of
     * itself do not count, and there must be one call at least.
     */
    const createsOnlyAtEveryCall = (at: Loc, p: FilePath): boolean => {
      const fn = fnOf(at);
      if (!fn?.name || bare(p)) return false;
      const onObject = /^(self|this)\./.test(p.arg.text.trim());
      const calls = view.calls.filter((c) => c.method === fn.name && !(c.at.start >= fn.at.start && c.at.end <= fn.at.end));
      return calls.length > 0 && calls.every((c) => (!onObject || /^(self|this)$/.test(c.receiver?.text ?? '')) && createsOnly(c.at, p));
    };
    /** The path is the variable of the loop around `at` over a walk of source or document files (`Path(".").rglob("*.ipynb")`, `glob.glob("docs/*.md")`). */
    const walkedSourceFile = (at: Loc, p: FilePath): boolean => {
      const loop = view.enclosingLoop(at);
      return !!loop?.targetText && loop.targetText.trim() === p.arg.text.trim() && SOURCE_WALK.test(loop.iterText ?? '');
    };
    const sameFn = (a: Loc, b: Loc) => fnOf(a) === fnOf(b);
    /** The text of the write's function before the write (the module's text before it at top level). */
    const textBefore = (at: Loc): string => {
      const fn = fnOf(at);
      return fn ? fn.text.slice(0, Math.max(0, at.start - fn.at.start)) : ctx.textOf({ file: at.file, start: 0, end: at.start });
    };
    /**
     * An attribute of the path that the writing function names only on its first call (`if not
     * self.history_file: self.history_file = ...`, `this.file ??= ...`), before a write that every
     * call makes: each later call rewrites the file that holds what the earlier calls saved.
     */
    const namedOnFirstCall = (at: Loc, built: string): Assignment | undefined => {
      const fn = fnOf(at);
      if (!fn) return undefined;
      for (const m of built.matchAll(/\b(self|this)\.([A-Za-z_$][\w$]*)\b(?!\s*\()/g)) {
        const target = `${m[1]}.${m[2]}`;
        const t = target.replace(/[.$]/g, '\\$&');
        const unset = new RegExp(`^\\(?\\s*(not\\s+${t}|${t}\\s+is\\s+None|!\\s*${t}|${t}\\s*===?\\s*(undefined|null))\\s*\\)?$`);
        for (const a of view.assignments) {
          if (a.at.start >= at.start || fnOf(a.at) !== fn || squash(a.targetText) !== target) continue;
          if (/^[^=]*(\?\?|\|\|)=/.test(ctx.textOf(a.at))) return a;
          // Set under the test, and written after the test's block: on every call, not only the first.
          const test = view.enclosingCondition(a.at);
          if (test && test.at.end <= at.start && unset.test(test.conditionText.trim())) return a;
        }
      }
      return undefined;
    };
    /**
     * Loops that pick a free name: `while (SKILLS_DIR / name).exists(): name = f"{base}-{n}"`,
     * `while (fs.existsSync(path.join(dir, name))) name = ...`. The loop ends at the first name of
     * which nothing exists, so a file made under it is new. Per function: the loop and the names
     * it sets that its existence test reads.
     */
    const probesOf = new Map<FunctionView | undefined, Array<{ at: Loc; names: Set<string> }>>();
    const probes = (fn: FunctionView | undefined): Array<{ at: Loc; names: Set<string> }> => {
      let found = probesOf.get(fn);
      if (found) return found;
      found = [];
      for (const c of view.calls) {
        if (!EXISTS_CALL.test(c.method) || fnOf(c.at) !== fn) continue;
        const loop = view.enclosingLoop(c.at);
        const test = squash(ctx.textOf(c.at));
        if (!loop?.conditionText || ![test, `(${test})`].includes(squash(loop.conditionText))) continue;
        const names = new Set(view.assignments.filter((a) => a.at.start >= loop.at.start && a.at.end <= loop.at.end && IDENTIFIER.test(a.targetText) && mentions(test, a.targetText)).map((a) => a.targetText));
        if (names.size) found.push({ at: loop.at, names });
      }
      probesOf.set(fn, found);
      return found;
    };
    /**
     * The name holds, at `at`, a value a loop before it picked free: its last assignment there is
     * the loop's, or comes just before the loop, or copies a name the loop picked (`name = chosen`).
     */
    const pickedFree = (at: Loc, name: string, depth = 0): boolean => {
      const fn = fnOf(at);
      const loops = probes(fn).filter((l) => l.at.end <= at.start && l.names.has(name));
      const last = view.assignments.filter((a) => a.targetText === name && a.at.start < at.start && fnOf(a.at) === fn).pop();
      if (loops.some((l) => !last || last.at.start < l.at.end)) return true;
      const copied = last && !last.augmented ? ctx.textOf(last.valueAt).trim() : '';
      return depth < 2 && IDENTIFIER.test(copied) && pickedFree(last!.at, copied, depth + 1);
    };
    /**
     * The path is made from a name picked free just before: in the writing function, or, for a
     * parameter, by every call of it in the file (`_write_skill(chosen, body)` after the loop).
     */
    const probedFree = (at: Loc, built: string): boolean => {
      const fn = fnOf(at);
      const names = new Set([...built.matchAll(/(?<![\w$.])[A-Za-z_$][\w$]*(?![\w$])/g)].map((m) => m[0]));
      if ([...names].some((n) => pickedFree(at, n))) return true;
      return !!fn && fn.params.some((param) => {
        if (!names.has(param)) return false;
        const { calls, complete } = argumentsOf(fn, param);
        return complete && calls.length > 0 && calls.every((c) => !!c.arg && IDENTIFIER.test(c.arg.text.trim()) && pickedFree(c.at, c.arg.text.trim()));
      });
    };
    /**
     * A part of the path that the same function has just set to a new name (`self.run_id =
     * f"{now}-{uuid4()}"`, then `self.root / self.run_id / "run.json"`): each call writes a new file.
     */
    const freshAttribute = (at: Loc, built: string): boolean => {
      const before = textBefore(at);
      for (const m of built.matchAll(/\b(self|this)\.([A-Za-z_$][\w$]*)\b(?!\s*\()/g)) {
        const set = new RegExp(`\\b${m[1]}\\.${m[2].replace(/\$/g, '\\$')}\\s*=(?!=)([^\\n]*)`, 'g');
        const last = [...before.matchAll(set)].pop();
        // Set in the write's own block (not only on a first call: `if not self.name: self.name = ...`, then a write on every call).
        if (last && FRESH_NAME.test(last[1]) && sameBlock(before, last.index!)) return true;
      }
      return false;
    };
    /**
     * Attributes in a path that the file only ever sets to a new name (`self.trajectory_id =
     * f"{now:%Y%m%d}_{uuid4().hex[:4]}"`, or to nothing): each run of the object has a folder of its
     * own, so a read through the same attribute reads what this run wrote. A later run, with a
     * new name, never loads it (a loader given the name by its caller still does).
     */
    const runAttributes = (built: string): string[] => {
      const out: string[] = [];
      for (const m of built.matchAll(/\b(self|this)\.([A-Za-z_$][\w$]*)\b(?!\s*\()/g)) {
        const target = `${m[1]}.${m[2]}`;
        const sets = view.assignments.filter((a) => a.targetText.replace(/\s+/g, '') === target && !a.augmented);
        const values = sets.map((a) => ctx.textOf(a.valueAt).trim());
        // Only a new name: not one the caller may pass instead (`session_id or uuid4().hex`, `id ?? randomUUID()`).
        const fresh = (v: string) => FRESH_NAME.test(v) && !/\bor\b|\?\?|\|\||\bif\b|\?/.test(v);
        if (values.some(fresh) && values.every((v) => fresh(v) || /^(None|null|undefined|""|''|``)$/.test(v))) out.push(target);
      }
      return out;
    };
    /** The statement at `offset` of `before` is in a block that runs on to the end of `before` (by indentation). */
    const sameBlock = (before: string, offset: number): boolean => {
      const indent = (line: string) => /^[ \t]*/.exec(line)![0].length;
      const lines = before.slice(before.lastIndexOf('\n', offset) + 1).split('\n');
      const own = indent(lines[0]);
      return lines.slice(1).every((line) => !line.trim() || indent(line) >= own);
    };
    /** What is written is nothing (`f.write("")`: a marker whose existence is the signal) or only the clock (a stamp), or a failure record. */
    const nothingToLose = (w: Extract<FileOp, { kind: 'write' }> | undefined): boolean => {
      if (!w || w.data.length !== 1) return false;
      const text = w.data[0].text.replace(/\s+/g, '');
      if (/^b?(""|''|``)$/.test(text)) return true;
      return CLOCK_ONLY.test(stripWrappers(text));
    };
    /**
     * What a write writes as a record: what a serialiser in it is handed (`json.dumps(record)`,
     * `JSON.stringify(record, null, 2) + "\\n"`), or the data itself (`json.dump(record, f)`).
     */
    const recordOf = (data: ArgView): Loc => {
      const serialiser = view.calls.find((c) => c.at.start >= data.at.start && c.at.end <= data.at.end && c.args.length > 0 && SERIALISED.test(`${c.calleeText.replace(/\s+/g, '')}(`));
      return serialiser ? serialiser.args[0].at : data.at;
    };
    /**
     * A record the module only creates: the write composes it anew (an object written in the
     * writing function, of its arguments, constants and the clock), the module answers whether the
     * file exists (`vm_exists(name)`: a function that returns that test, the guard its callers
     * create behind), and no function of the file reads the record and writes it back (reading it
     * itself, or through a function of the file that does). A creation step: a crash in it has no
     * earlier copy to destroy.
     */
    const createdRecord = (at: Loc, p: FilePath, w: Extract<FileOp, { kind: 'write' }> | undefined): boolean => {
      const fn = fnOf(at);
      if (!fn || !w || w.data.length !== 1) return false;
      const v = view.valueAt(recordOf(w.data[0]));
      if (v?.kind !== 'obj' || !v.at || fnOf(v.at) !== fn) return false;
      const mine = new Set(keysFor(p, true));
      if (!mine.size) return false;
      const same = (q: FilePath | undefined) => !!q && keysFor(q, true).some((k) => mine.has(k));
      const existence = view.calls.some((c) => {
        if (!EXISTS_CALL.test(c.method)) return false;
        const tested = c.args[0] ?? c.receiver;
        const holder = fnOf(c.at);
        if (!tested || !holder || !same(view.pathAt(tested.at))) return false;
        const call = ctx.textOf(c.at).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        return new RegExp(`\\breturn\\s+${call}\\s*(;|}|\\n|$)`).test(holder.text);
      });
      if (!existence) return false;
      const readers = new Set(reads.filter((r) => same(r.path)).map((r) => fnOf(r.at)));
      return ops.every((o) => {
        if (o.kind !== 'write' || !same(o.path)) return true;
        const writer = fnOf(o.at);
        if (!writer || readers.has(writer)) return false;
        return !view.calls.some((c) => c.at.start < o.at.start && fnOf(c.at) === writer && [...readers].some((r) => r?.name === c.method));
      });
    };
    /**
     * A record of a failure: the text of an error being handled, the clock and fixed labels
     * (`{"error": str(exc), "ts": now}`, `JSON.stringify({ error: String(err), at })`). It tells
     * of one failure, written when it happens; a torn one loses that account, nothing saved before.
     */
    const failureRecord = (data: ArgView): boolean => {
      const v = view.valueAt(recordOf(data));
      if (v?.kind !== 'obj' || !v.complete || !v.entries.length) return false;
      let error = false;
      for (const e of v.entries) {
        const x = e.value;
        if (x.kind === 'str' && x.complete && !x.taints.length) continue;
        if (x.taints.length && x.taints.every((t) => t.cls === 'clock')) continue;
        if (!x.at || !errorText(x.at)) return false;
        error = true;
      }
      return error;
    };
    /**
     * `str(exc)`, `repr(err)`, `String(err)`, `err.message`, `err.stack`: the text of a caught error,
     * or of a parameter every call of its function in the file fills with one; in a handler,
     * Python's `traceback.format_exc()` (the error being handled, with its trace).
     */
    const errorText = (at: Loc): boolean => {
      const text = ctx.textOf(at).trim();
      if (/^traceback\.format_exc\(\s*\)$/.test(text)) return view.inHandler(at);
      const m = /^(?:str|repr|String)\(\s*([A-Za-z_$][\w$]*)\s*\)$|^([A-Za-z_$][\w$]*)\??\.(?:message|stack)$/.exec(text);
      const name = m?.[1] ?? m?.[2];
      if (!name) return false;
      if (view.caughtError(at, name)) return true;
      const fn = fnOf(at);
      if (!fn?.params.includes(name)) return false;
      const { calls, complete } = argumentsOf(fn, name);
      return complete && calls.length > 0 && calls.every((c) => !!c.arg && IDENTIFIER.test(c.arg.text.trim()) && view.caughtError(c.arg.at, c.arg.text.trim()));
    };
    /**
     * A login's credentials: a file named for them, made private (mode 0o600) in the same function
     * after the write. Not a refresh token: that file is rewritten on every refresh, unattended,
     * and a torn one logs the user out.
     */
    const credentials = (at: Loc, p: FilePath): boolean => {
      if (!words(`${p.name ?? ''} ${p.arg.text} ${p.origin ?? ''}`).some((x) => CREDENTIAL_WORDS.has(x))) return false;
      if (/refresh/i.test(fnOf(at)?.text ?? '')) return false;
      const target = p.arg.text.trim();
      return view.calls.some((c) => {
        if (c.at.start < at.end || !sameFn(c.at, at) || !/^chmod(Sync)?$/.test(c.method)) return false;
        // `os.chmod(p, 0o600)`, `fs.chmodSync(p, 0o600)`; pathlib's `p.chmod(0o600)`.
        const [first, second] = c.args;
        if (second) return first.text.trim() === target && PRIVATE_MODE.test(second.text.trim());
        return !!first && c.receiver?.text.trim() === target && PRIVATE_MODE.test(first.text.trim());
      });
    };
    /**
     * The program lists the files of the name family a fresh-named write belongs to and loads them
     * back: a glob whose fixed parts the written name has (`glob(f"{BASE}*.json")` for
     * `f"{BASE}{stamp}.json"`, `sessions.glob("chat-*.json")` for `sessions / f"chat-{id}.json"`),
     * or a listing of the folder it is written into (`os.listdir(d)`, `fs.readdirSync(dir)`), whose
     * name filters (`startswith`, `endsWith`) the written name passes. The load: a read after the
     * listing in its function (the newest file picked from it), or, when the listing hands the
     * names on (to a caller, to the model as a tool result), a loader of the program's that
     * takes the file name it is given (`load_conversation(params, filename)`).
     */
    const squash = (text: string) => text.replace(/\s+/g, '');
    /** A path as a folder (as written) and a file name (its value, HOLE for what is not known), through the file's path joins. */
    const splitPath = (arg: { at: Loc; text: string; value(): ReturnType<FilePath['arg']['value']> }, origin?: string): { folder?: string; name?: string; whole?: string } => {
      const join = view.pathJoins.find((j) => sameLoc(j.at, arg.at) || (origin !== undefined && squash(ctx.textOf(j.at)) === squash(origin)));
      const v = arg.value();
      const whole = v.kind === 'str' ? v.text : undefined;
      if (join && join.parts.length === 2) {
        const last = join.parts[1].value();
        return { folder: squash(join.parts[0].text), name: last.kind === 'str' ? last.text : undefined, whole };
      }
      return { name: whole?.slice(whole.lastIndexOf('/') + 1), whole };
    };
    const listedFamily = (at: Loc, p: FilePath): { listing: CallSite; read: Read } | undefined => {
      const written = splitPath(p.arg, p.origin);
      const name = written.name;
      if (!name || !name.includes(HOLE)) return undefined;
      const namePrefix = name.slice(0, name.indexOf(HOLE));
      const nameSuffix = name.slice(name.lastIndexOf(HOLE) + 1);
      const folder = written.folder ?? (p.dir !== undefined ? squash(p.dir) : undefined);
      const whole = written.whole;
      for (const c of view.calls) {
        const glob = /^(glob|iglob|rglob|globSync|sync)$/.test(c.method) && /glob|^fg\b/i.test(c.name);
        const listing = /^(listdir|scandir|iterdir|readdirSync|readdir)$/.test(c.method);
        if (!glob && !listing) continue;
        // pathlib's `folder.glob(pattern)` / `folder.iterdir()` name the folder by their receiver; the glob module's `glob.glob(pattern)` does not.
        const module = /^(glob|fast-?glob|fg)\.|^(node:)?fs\b/.test(c.name);
        const receiverFolder = c.method === 'iterdir' || (glob && !module && /^(glob|rglob)$/.test(c.method)) ? c.receiver : undefined;
        let matches = false;
        if (glob) {
          const arg = c.args[0];
          if (!arg) continue;
          const v = arg.value();
          const pattern: { folder?: string; name?: string; whole?: string } = receiverFolder ? { folder: squash(receiverFolder.text), name: v.kind === 'str' ? v.text : undefined } : splitPath(arg);
          if (pattern.folder !== undefined && pattern.name !== undefined) {
            // `folder.glob("chat-*.json")`, `os.path.join(folder, "chat-*.json")`: the write's folder, and its name's fixed parts.
            const fixed = fixedParts(pattern.name);
            matches = !!fixed && folder === pattern.folder && namePrefix.startsWith(fixed.prefix) && nameSuffix.endsWith(fixed.suffix) && /[A-Za-z]/.test(fixed.prefix + fixed.suffix);
          } else if (pattern.whole !== undefined && whole !== undefined && !whole.startsWith(HOLE)) {
            // A whole pattern: the written path starts with its fixed start (a folder and a name
            // part, not only an extension) and ends with its fixed end.
            const fixed = fixedParts(pattern.whole);
            matches = !!fixed && /[A-Za-z]/.test(fixed.prefix) && whole.slice(0, whole.indexOf(HOLE)).startsWith(fixed.prefix) && nameSuffix.endsWith(fixed.suffix);
          }
        } else {
          const listed = receiverFolder ?? c.args[0];
          if (!listed || !folder || squash(listed.text) !== folder) continue;
          // The names the listing keeps: `startswith("chat-")` / `endsWith('.json')` in its function.
          const around = (fnOf(c.at)?.text ?? ctx.textOf({ file: c.at.file, start: c.at.start, end: Math.min(c.at.end + 400, fileText(ctx).length) })).replace(/("{3}|'{3})[\s\S]*?\1/g, '');
          const starts = [...around.matchAll(/\.(?:startswith|startsWith)\(\s*["'`]([^"'`]+)["'`]/g)].map((m) => m[1]);
          const ends = [...around.matchAll(/\.(?:endswith|endsWith)\(\s*["'`]([^"'`]+)["'`]|\.suffix\s*===?\s*["'`]([^"'`]+)["'`]/g)].map((m) => m[1] ?? m[2]);
          matches = (!starts.length || starts.some((x) => namePrefix.startsWith(x))) && (!ends.length || ends.some((x) => nameSuffix.endsWith(x)));
        }
        if (!matches) continue;
        const where = fnOf(c.at);
        // The newest (or every) listed file read after the listing, in its function.
        // (Also in a callback there: `.map((f) => JSON.parse(fs.readFileSync(f, 'utf8')))`.)
        const within = (r: Read) => (where ? where.at.start <= r.at.start && r.at.end <= where.at.end : !fnOf(r.at));
        const after = reads.find((r) => within(r) && r.at.start > c.at.end && !sameLoc(r.at, at));
        if (after) return { listing: c, read: after };
        // The names handed on: a loader of the program's reads the file name it is given.
        // (The loader may read in a function of its own: `async def _reset(): open(filename)`.)
        const loader = reads.find((r) => {
          if (!bare(r.path)) return false;
          const param = r.path.arg.text.trim();
          const around = view.functions.filter((f) => f.at.file === r.at.file && f.at.start <= r.at.start && r.at.end <= f.at.end);
          if (around.some((f) => f === where || f === fnOf(at))) return false;
          // A loader of this family: its name shares a noun with the written name or with the writer's name (`load_conversation` for `pipecat_conversation_*.json`).
          const family = new Set(nouns(words(`${namePrefix} ${nameSuffix} ${fnOf(at)?.name ?? ''}`)));
          return around.some((f) => words(f.name ?? '').some((x) => LOAD_VERBS.has(x)) && f.params.includes(param) && nouns(words(f.name ?? '')).some((x) => family.has(x)));
        });
        if (loader && !reads.some(within)) return { listing: c, read: loader };
      }
      return undefined;
    };
    /**
     * Appends to a file written only when missing (`p`, one of its names: `for name, text in
     * SEEDS.items()`), and a read of it: in the same folder (as written), under one of its names
     * or a pattern that one of them fits (`notes / f"{target}.md"` for `linux.md`).
     */
    const appendedSeed = (p: FilePath): { append: Extract<FileOp, { kind: 'write' }>; read: Read } | undefined => {
      const seeds = p.name ? [p.name] : (p.names ?? []);
      if (!seeds.length || p.dir === undefined) return undefined;
      const folder = squash(p.dir);
      const isSeed = (q: FilePath): boolean => {
        const s = splitPath(q.arg, q.origin);
        if ((s.folder ?? (q.dir !== undefined ? squash(q.dir) : undefined)) !== folder || s.name === undefined) return false;
        if (!s.name.includes(HOLE)) return seeds.includes(s.name);
        const parts = s.name.split(HOLE);
        const pattern = new RegExp(`^${parts.map((x) => x.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[^/]*')}$`);
        return /[A-Za-z]/.test(parts.join('')) && seeds.some((x) => pattern.test(x));
      };
      const append = ops.find((o): o is Extract<FileOp, { kind: 'write' }> => o.kind === 'write' && !!o.appends && isSeed(o.path));
      const read = append && reads.find((r) => isSeed(r.path));
      return append && read ? { append, read } : undefined;
    };
    /**
     * The write is skipped whenever the file exists: under `if not path.exists():`, after `if
     * path.exists(): return` (or `continue` in a loop over files), in a `FileNotFoundError` branch.
     */
    const skippedWhenExists = (at: Loc, p: FilePath): boolean => {
      // Only existence tests, one of them of this file: `if not path.exists():`, `if (fs.existsSync(a) && fs.existsSync(b)) return`.
      // A second reason to fill again (`or size != remote_size`, a checksum) repairs a partial file.
      const name = p.arg.text.trim().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      const mine = new RegExp(`os\\.path\\.(exists|isfile)\\(\\s*${name}\\s*\\)|\\b${name}\\.(exists|is_file)\\(\\)|existsSync\\(\\s*${name}\\s*\\)`);
      const onlyExists = (test: string, negated: boolean) => {
        const t = test.trim().replace(/^\((.*)\)$/s, '$1').trim();
        const parts = negated ? [t.replace(/^(not\s+|!\s*)/, '')] : t.split(/\s+(?:and)\s+|\s*&&\s*/);
        if (negated && !/^(not\s+|!\s*)/.test(t)) return false;
        return parts.every((x) => EXISTENCE_TEST.test(x.trim())) && mine.test(t);
      };
      if (onlyExists(view.enclosingCondition(at)?.conditionText ?? '', true)) return true;
      // `if path.exists(): return path` (or `continue` in a loop over files) before the write.
      const lines = textBefore(at).split('\n');
      const leave = view.enclosingLoop(at) ? /^\s*(return|continue)\b/ : /^\s*return\b/;
      for (let i = 0; i < lines.length; i++) {
        const m = /^\s*if\s*(.*?)\s*[:{]?\s*(\b(return|continue)\b.*)?$/.exec(lines[i].replace(/\s*(#|\/\/).*$/, ''));
        if (!m || !onlyExists(m[1].replace(/\)\s*$/, ')'), false)) continue;
        if (m[2] && leave.test(m[2])) return true;
        // The `if` block's own statements (by indentation): one of them leaves.
        const indent = (l: string) => /^[ \t]*/.exec(l)![0].length;
        const block = [];
        for (const l of lines.slice(i + 1)) {
          if (!l.trim() || /^\s*(#|\/\/)/.test(l)) continue;
          if (indent(l) <= indent(lines[i])) break;
          block.push(l);
        }
        const own = block.length ? indent(block[0]) : 0;
        if (block.some((l) => indent(l) === own && leave.test(l))) return true;
      }
      return false;
    };
    /**
     * A file of the repository that a maintenance script keeps: the script runs git (a release or
     * docs tool working on a checkout) and the path is anchored on the script's own place
     * (`Path(__file__).parent / "removals.json"`, `path.join(__dirname, ...)`). The file is
     * version-controlled: a torn write is undone with a checkout, or by running the script again.
     * The path's words are read first: a search of the whole file for git at every write was
     * ~60 ms of a run over the real-code corpus.
     */
    const repositoryFile = (p: FilePath): boolean =>
      /\b__file__\b|\b__dirname\b|\bimport\.meta\.(url|dirname)\b/.test(`${p.arg.text} ${p.origin ?? ''} ${p.provenance ?? ''}`) && RUNS_GIT.test(fileText(ctx));
    /** `seeded`: a file written only when missing, then appended to (no created record spares it). */
    type Evidence = { why: string; consequence: string; read?: Read; seeded?: true };
    /**
     * Why a file written here is state a crash must not truncate; undefined when nothing says so.
     * The exemptions that evaluate what is written (a failure record, a record the module only
     * creates) are asked last, and only of a write that would otherwise be reported: evaluating a
     * record can read other modules, and most writes are settled by cheaper tests.
     */
    const evidence = (at: Loc, p: FilePath, structured = true, write?: Extract<FileOp, { kind: 'write' }>, throughCaller = false): Evidence | undefined => {
      const found = evidenceBeforeRecords(at, p, structured, write, throughCaller);
      if (!found || (write?.data.length === 1 && failureRecord(write.data[0]))) return undefined;
      if (!found.seeded && !memory() && createdRecord(at, p, write)) return undefined;
      return found;
    };
    const evidenceBeforeRecords = (at: Loc, p: FilePath, structured: boolean, write: Extract<FileOp, { kind: 'write' }> | undefined, throughCaller: boolean): Evidence | undefined => {
      if (p.name && (FOREIGN_FILES.has(p.name) || projectFile(p.name))) return undefined;
      // A helper's file that every call of it names as a project file (`writeConfig(ROOT_CONFIG, config)`
      // with `ROOT_CONFIG = 'tsconfig.json'`, `bump_version(Path("pyproject.toml"))`).
      if (everyCaller(at, p, (_, c) => projectFile(c.name))) return undefined;
      // A source or document file a walk of the tree found (`for nb in root.rglob("*.ipynb")`), in
      // the writing function or at every call of it: an edit of the source tree, kept by its history.
      if (walkedSourceFile(at, p) || everyCaller(at, p, walkedSourceFile)) return undefined;
      if (repositoryFile(p)) return undefined;
      // An empty marker or a clock stamp: a torn one holds nothing that was not there a moment ago.
      if (nothingToLose(write)) return undefined;
      const named = words(`${p.arg.text} ${p.origin ?? ''}`);
      // The path's value, evaluated only for the tests that need it (after the cheaper ones).
      const knownText = () => {
        const v = p.arg.value();
        return v.kind === 'str' ? v.text : '';
      };
      // A package manifest, by the path's name or by what is written (`JSON.stringify(packageJson)`).
      const written = words(write?.data.map((d) => d.text).join(' ') ?? '');
      if ([named, written].some((ws) => ws.some((w, i) => w === 'package' && ws[i + 1] === 'json'))) return undefined;
      // Filled from a stream (a download, a copy) only when the file is missing: a fill cut short
      // leaves a partial file that exists, so every later run skips the fill and takes it as
      // complete. Neither a cache (rebuilt only when missing) nor a create-only write is spared.
      const partialFill = !!write?.streamed && skippedWhenExists(at, p);
      // A cache is rebuilt when it is missing or unreadable: a torn one costs a recomputation.
      if (!partialFill && words(`${p.arg.text} ${p.origin ?? ''} ${p.name ?? ''}`).some((w) => w === 'cache' || w === 'cached')) return undefined;
      // Written only when the file does not exist yet: there is no good copy for a crash to destroy
      // (but a memory file seeded once and then trusted stays truncated). So is a file named anew
      // each time (a uuid or a timestamp in its name).
      // Unless the program then only appends to it and reads it back (notes seeded once, then
      // added to): the seed is skipped once the file exists, so a torn one stays under every append.
      if (!partialFill && (WRITE_ONCE.test(view.enclosingCondition(at)?.conditionText ?? '') || createsOnly(at, p) || createsOnlyAtEveryCall(at, p)) && !memory()) {
        const seed = appendedSeed(p);
        if (!seed) return undefined;
        return {
          seeded: true,
          why: `it is written only when it is missing, then only appended to (\`${shorten(ctx.textOf(seed.append.at))}\`, ${ctx.lineRef(seed.append.at)}) and read back (\`${shorten(ctx.textOf(seed.read.at))}\`, ${ctx.lineRef(seed.read.at)})`,
          consequence: 'a torn start is never written again: every later read gets it',
          read: seed.read,
        };
      }
      if (backedUp(at, p)) return undefined;
      // A helper's file is the one its callers pass (`_save_config(path, data)`): when every call
      // of it in the file copies that file to a backup first, a torn write is undone from the copy.
      if (everyCaller(at, p, backedUp)) return undefined;
      const built = `${p.arg.text} ${p.origin ?? ''} ${p.provenance ?? ''}`;
      // A file named anew on each write loses nothing saved earlier, unless the program lists the
      // files of its name and loads them back: then a torn newest one is what the loader is offered.
      const fresh = FRESH_NAME.test(built) || freshAttribute(at, built) || probedFree(at, built);
      const family = fresh ? listedFamily(at, p) : undefined;
      if (fresh && !family) return undefined;
      if (credentials(at, p) && !memory()) return undefined;
      if (named.some((w) => PROCESS_FILE_WORDS.has(w))) return undefined;
      // Another tool's configuration (an editor's or another agent's settings): its own format and readers.
      if (FOREIGN_TOOL_DIR.test(`${built} ${knownText()}`)) return undefined;
      const r = family ? undefined : readBack(at, p, structured);
      // A scratch file in the system's temp folder (and a PID file: it describes a process that a
      // crash of its writer ends too). Not when another run of the program loads it: the files it
      // lists back, or a read in another mode of the writing function (`--resume`, `--delete`).
      if (TEMP_DIR.test(`${built} ${knownText()}`) && !family && !(r && otherRunReads.has(r))) return undefined;
      if (partialFill) {
        return {
          why: 'it is filled from a stream and the fill is skipped whenever the file exists',
          consequence: 'every later run takes the partial file as complete (a fill cut off by a network error leaves one too)',
        };
      }
      if (family) {
        // A chained call written over lines (`fs\n  .readdirSync(dir)`) reads as one.
        const listed = `\`${shorten(ctx.textOf(family.listing.at).replace(/\s*\n\s*(?=\.)/g, ''))}\`, ${ctx.lineRef(family.listing.at)}`;
        return {
          why: `although it is named anew on each save, the program lists the files of that name (${listed}) and loads them back (\`${shorten(ctx.textOf(family.read.at))}\`, ${ctx.lineRef(family.read.at)})`,
          consequence: 'the torn newest save is what the loader is offered',
          read: family.read,
        };
      }
      if (r) return { why: `the program reads it back (\`${shorten(ctx.textOf(r.at))}\`, ${ctx.lineRef(r.at)})`, consequence: 'that read then fails or loads half a file', read: r };
      const other = readElsewhere(p);
      if (other) return { why: `the program reads it back (\`${shorten(ctx.textOf(other.at))}\` in ${baseName(other.at.file)}, ${ctx.lineRef(other.at)})`, consequence: 'that read then fails or loads half a file', read: other };
      // A helper that serialises what its caller hands it into the file its caller names: a call
      // of it that passes a file the program reads back. One level of callers: a caller that
      // passes on its own parameters names no file of the program's (an editor tool's target).
      // Text, bytes or a table written so is the caller's content (a scaffolded file, an upload,
      // an export), as for a saver/loader pair. Only a read-back counts there, not a loop around the call.
      if (!throughCaller && !family && structured) {
        for (const c of callerPaths(at, p)) {
          if (callerChosen(c.at, c.path)) continue;
          const viaCall = evidence(c.at, c.path, structured, undefined, true);
          if (!viaCall?.read) continue;
          return {
            why: `a call of it (\`${shorten(ctx.textOf(c.at))}\`, ${ctx.lineRef(c.at)}) writes a file that the program reads back (\`${shorten(ctx.textOf(viaCall.read.at))}\`, ${ctx.lineRef(viaCall.read.at)})`,
            consequence: viaCall.consequence,
            read: viaCall.read,
          };
        }
      }
      if (throughCaller) return undefined;
      const loop = view.enclosingLoop(at);
      // A loop that writes a different file on each pass (`for name in files: open(join(d, name), "w")`) rewrites nothing.
      // A pass that writes and then leaves the loop (`return p` after the write in a retry loop) writes the file once.
      if (loop && !perPass(p, loop) && !leavesLoopAfter(ctx.textOf, at, loop)) return { why: 'it is written again on every pass of this loop', consequence: 'the run loses what it saved' };
      const firstCall = structured ? namedOnFirstCall(at, built) : undefined;
      if (firstCall) {
        return {
          why: `it is named on the first call (\`${shorten(ctx.textOf(firstCall.at))}\`, ${ctx.lineRef(firstCall.at)}) and written again by every later one`,
          consequence: 'what the earlier calls saved is lost',
        };
      }
      if (memory()) return { why: "it is one of the memory tool's files", consequence: 'the memory is lost' };
      return undefined;
    };

    const renames = ops.filter((o): o is Extract<FileOp, { kind: 'rename' }> => o.kind === 'rename');
    const renamedFrom = new Set(renames.flatMap((r) => pathKeys(r.from)));
    for (const r of renames) {
      // A temp file renamed into place: the save is meant to be atomic; check how.
      const temps = ops.filter((o): o is Extract<FileOp, { kind: 'temp' }> => o.kind === 'temp' && sameFn(o.at, r.at));
      if (!temps.length && !isTempPath(r.from)) continue;
      if (!ops.some((o) => (o.kind === 'write' || o.kind === 'temp') && sameFn(o.at, r.at))) continue;
      // Serialised data: by a write of the temp file, or the function serialises what it writes.
      const structured =
        ops.some((o) => o.kind === 'write' && sameFn(o.at, r.at) && (o.serialised || o.data.some((d) => SERIALISED.test(d.text)))) || serialisesBesidesOutput(view, r.at);
      // The temp file filled from a stream (a download copied into it): what the rename saves.
      const fill = ops.find((o): o is Extract<FileOp, { kind: 'write' }> => o.kind === 'write' && !!o.streamed && sameFn(o.at, r.at) && o.at.start < r.at.start);
      const state = evidence(r.at, r.to, structured, fill);
      if (!state) continue;
      const problems: string[] = [];
      if (!ops.some((o) => o.kind === 'fsync' && sameFn(o.at, r.at))) problems.push('nothing fsyncs the temp file before the rename, so after a power loss the rename can be on disk while the data is not');
      const fromValue = r.from.arg.value();
      if (temps.some((t) => !t.inDir) || (fromValue.kind === 'str' && fromValue.text.startsWith('/tmp/'))) problems.push(`the temp file is in the system temp directory, so the rename fails across filesystems (EXDEV) or a move falls back to a copy that is not atomic`);
      if (!problems.length) continue;
      ctx.report({
        message: `\`${shorten(ctx.textOf(r.at))}\` is not an atomic save: ${problems.join('; and ')}. Create the temp file next to the target, flush and fsync it, then rename.`,
        at: r.at,
        related: state.read ? [{ at: state.read.at, message: 'the file is read back here' }] : [],
      });
    }

    for (const w of ops) {
      if (w.kind !== 'write' || !w.truncates) continue;
      // The temp file of an atomic save is written in place on purpose.
      if (renamedFrom.size > 0 && pathKeys(w.path).some((k) => renamedFrom.has(k))) continue;
      // Serialised data: by the write, or the writing function serialises what it writes (`text = json.dumps(payload)`).
      const structured = w.serialised || w.data.some((d) => SERIALISED.test(d.text)) || serialisesBesidesOutput(view, w.at);
      const state = evidence(w.at, w.path, structured, w);
      if (!state) continue;
      const site = view.calls.find((c) => sameLoc(c.at, w.at));
      const edits = site && atomicWrite(site, ctx);
      ctx.report({
        message: `\`${shorten(ctx.textOf(w.at))}\` writes \`${shorten(w.path.arg.text)}\` in place, and ${state.why}: a crash or a full disk mid-write leaves it empty or truncated, and ${state.consequence}. Write a temp file in the same directory, fsync it, and rename it over the file.`,
        at: w.at,
        related: state.read ? [{ at: state.read.at, message: 'the file is read back here' }] : [],
        fix: edits ? { title: 'Write through an atomic-write helper (temp file, fsync, rename)', applicability: 'unsafe', edits } : undefined,
      });
    }
  },
});

/** What a program prints or logs: a serialiser inside one of these makes its output, not a file. */
const OUTPUT_CALL = /^(?:print|console\.\w+|(?:process|sys)\.std(?:out|err)\.write|(?:self\.|this\.)?_?(?:logger|logging|log)\.\w+)$/;

/**
 * Whether the function at `at` serialises data (`text = json.dumps(payload)` before the write),
 * leaving out what it prints or logs: a script that edits a Markdown file and reports what it
 * did as JSON (`process.stdout.write(JSON.stringify({ file, changed }))`) writes no structured data.
 */
function serialisesBesidesOutput(view: FileView, at: Loc): boolean {
  const fn = view.enclosingFunction(at);
  if (!fn || !SERIALISED.test(fn.text)) return false;
  let text = fn.text;
  for (const c of view.calls) {
    if (c.at.start < fn.at.start || c.at.end > fn.at.end || !OUTPUT_CALL.test(c.calleeText.replace(/\s+/g, ''))) continue;
    const from = c.at.start - fn.at.start;
    const to = c.at.end - fn.at.start;
    text = text.slice(0, from) + ' '.repeat(to - from) + text.slice(to);
  }
  return SERIALISED.test(text);
}

function baseName(file: string): string {
  return file.slice(Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\')) + 1);
}

function shorten(text: string): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > 60 ? one.slice(0, 59) + '…' : one;
}

const PYTHON_ATOMIC = `def atomic_write_text(path, text):
    """Replace the file at path with text atomically.

    Writes a temp file in the same directory, flushes and fsyncs it, then renames it over
    path: a crash leaves the old file or the new one, never a truncated one.
    """
    import os
    import tempfile

    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp_path = tempfile.mkstemp(dir=directory, prefix=".tmp-")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as tmp:
            tmp.write(text)
            tmp.flush()
            os.fsync(tmp.fileno())
        os.replace(tmp_path, path)
    except BaseException:
        if os.path.exists(tmp_path):
            os.unlink(tmp_path)
        raise
    if hasattr(os, "O_DIRECTORY"):
        dir_fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)
`;

const atomicBody = (signature: string) => `/** Replaces the file at filePath atomically: a temp file in the same directory, flushed and fsynced, then renamed over filePath (a crash leaves the old file or the new one, never a truncated one). */
function atomicWriteFileSync${signature} {
  const tmpPath = atomicPath.join(atomicPath.dirname(filePath), \`.\${atomicPath.basename(filePath)}.\${process.pid}.tmp\`);
  const fd = atomicFs.openSync(tmpPath, 'w');
  try {
    atomicFs.writeFileSync(fd, data);
    atomicFs.fsyncSync(fd);
  } finally {
    atomicFs.closeSync(fd);
  }
  atomicFs.renameSync(tmpPath, filePath);
}`;

const ATOMIC_HELPER = {
  name: { python: 'atomic_write_text', typescript: 'atomicWriteFileSync' },
  code: { python: PYTHON_ATOMIC, typescript: atomicBody('(filePath: string, data: string | Uint8Array): void'), javascript: atomicBody('(filePath, data)') },
  imports: {
    typescript: [
      { module: 'node:fs', name: 'atomicFs' },
      { module: 'node:path', name: 'atomicPath' },
    ],
  },
};

/** One positional argument, not spread. */
function positional(args: ShapeArg[], i: number): ShapeArg | undefined {
  const a = args[i];
  return a && !a.name && !a.spread ? a : undefined;
}

/** `json.dump(data, file, ...)` with `file` at `fileArg`, as `json.dumps(data, ...)`. */
function dumps(dump: Loc, fileArg: Loc | undefined, ctx: RuleContext): string | undefined {
  const s = ctx.edits.shape(dump);
  const callee = s?.kind === 'call' ? ctx.edits.shape(s.callee) : undefined;
  const module = callee?.kind === 'member' ? ctx.edits.shape(callee.object) : undefined;
  if (s?.kind !== 'call' || callee?.kind !== 'member' || callee.name !== 'dump' || module?.kind !== 'name' || module.name !== 'json') return undefined;
  if (!fileArg || !positional(s.args, 1) || !sameLoc(s.args[1].at, fileArg)) return undefined;
  const rest = s.args.filter((_, i) => i !== 1).map((a) => (a.name ? `${a.name}=${ctx.textOf(a.at)}` : ctx.textOf(a.at)));
  if (s.args.some((a) => a.spread)) return undefined;
  return `json.dumps(${rest.join(', ')})`;
}

/**
 * The write the fix replaces and the helper call that replaces it: \`p.write_text(text)\`;
 * \`json.dump(data, open(p, "w"))\`; \`with open(p, "w") as f:\` around one \`f.write(text)\` or
 * \`json.dump(data, f)\`; \`fs.writeFileSync(p, data)\` and an awaited \`writeFile(p, data)\`.
 */
function atomicCall(c: CallSite, ctx: RuleContext): { replace: Loc; call: string } | undefined {
  const s = ctx.edits.shape(c.at);
  if (s?.kind !== 'call') return undefined;
  const callee = ctx.edits.shape(s.callee);
  const text = (a: ShapeArg) => ctx.textOf(a.at);
  if (c.method === 'write_text' && callee?.kind === 'member') {
    const data = positional(s.args, 0);
    if (!data || s.args.some((a) => a.spread)) return undefined;
    return { replace: s.at, call: `atomic_write_text(${ctx.textOf(callee.object)}, ${text(data)})` };
  }
  if (c.name === 'builtins.open') {
    const path = positional(s.args, 0);
    const parent = s.parent ? ctx.edits.shape(s.parent) : undefined;
    if (!path || !parent) return undefined;
    if (parent.kind === 'call') {
      const json = dumps(parent.at, s.at, ctx);
      return json ? { replace: parent.at, call: `atomic_write_text(${text(path)}, ${json})` } : undefined;
    }
    if (parent.kind !== 'with' || parent.items.length !== 1 || !parent.items[0].name || parent.body.length !== 1) return undefined;
    const file = parent.items[0].name;
    const inner = ctx.edits.shape(parent.body[0]);
    if (inner?.kind !== 'call') return undefined;
    const method = ctx.edits.shape(inner.callee);
    const receiver = method?.kind === 'member' ? ctx.edits.shape(method.object) : undefined;
    const data = positional(inner.args, 0);
    if (method?.kind === 'member' && method.name === 'write' && receiver?.kind === 'name' && receiver.name === file && data && inner.args.length === 1) {
      return { replace: parent.at, call: `atomic_write_text(${text(path)}, ${text(data)})` };
    }
    const fileArg = inner.args[1];
    const named = fileArg ? ctx.edits.shape(fileArg.at) : undefined;
    if (named?.kind !== 'name' || named.name !== file) return undefined;
    const json = dumps(inner.at, fileArg.at, ctx);
    return json ? { replace: parent.at, call: `atomic_write_text(${text(path)}, ${json})` } : undefined;
  }
  if (c.method === 'writeFileSync' || c.method === 'writeFile') {
    if (s.args.length < 2 || s.args.length > 3 || s.args.some((a) => a.spread)) return undefined;
    // The callback style (`writeFile(p, data, (err) => …)`) runs on after the call returns.
    if (ctx.edits.shape(s.args[s.args.length - 1].at)?.kind === 'function') return undefined;
    const awaited = s.parent ? ctx.edits.shape(s.parent) : undefined;
    if (c.method === 'writeFile' && awaited?.kind !== 'await') return undefined;
    return { replace: awaited?.kind === 'await' ? awaited.at : s.at, call: `atomicWriteFileSync(${text(s.args[0])}, ${text(s.args[1])})` };
  }
  return undefined;
}

function atomicWrite(c: CallSite, ctx: RuleContext): TextEdit[] | undefined {
  const found = atomicCall(c, ctx);
  const call = found && ctx.edits.replace(found.replace, found.call);
  const helper = call && ctx.edits.ensureHelper(ATOMIC_HELPER.name, ATOMIC_HELPER.code, ATOMIC_HELPER.imports);
  return call && helper ? [...call, ...helper] : undefined;
}

/** A quoted string on one line: its quote (1) and its text (2). */
const STRING_LITERAL = /(["'`])((?:\\.|(?!\1)[^\\\n])*)\1/g;

/** What leaves a function, as words for leavesInBlock: a return, a raise or throw, or a call that ends the program (`sys.exit(1)`, `process.exit(1)`, `os._exit(1)`, `exit()`). */
const LEAVES_FUNCTION = 'return|raise|throw|_?exit(?=\\s*\\()';

/**
 * Whether the block of the `if` at `at` in `text` (the text of a function up to a write) leaves
 * with `leave` (`return`, `continue`...) outside a comment, and ends before the write: the rest
 * of the `if`'s line, then the lines indented deeper than it, up to the first that is not (the
 * write's own line, whose indentation ends `text`, counts). `if path.exists():` followed, a few
 * statements down, by `return cached`, then the write; not a write inside that block.
 */
function leavesInBlock(text: string, at: number, leave: string): boolean {
  const lineStart = text.lastIndexOf('\n', at) + 1;
  const indent = /^[ \t]*/.exec(text.slice(lineStart))![0].length;
  const word = new RegExp(`^(?:(?!#|\\/\\/)[^\\n])*\\b(?:${leave})\\b`);
  let lineEnd = text.indexOf('\n', at);
  if (lineEnd === -1) return false;
  let leaves = word.test(text.slice(at, lineEnd).replace(/^[^:{]*[:{]/, ''));
  for (let start = lineEnd + 1; start <= text.length; start = lineEnd + 1) {
    lineEnd = text.indexOf('\n', start);
    const last = lineEnd === -1;
    if (last) lineEnd = text.length;
    const line = text.slice(start, lineEnd);
    // The write's line: only its indentation is in the text.
    if (!line.trim() && !last) continue;
    if (/^[ \t]*/.exec(line)![0].length <= indent) return leaves;
    if (last) return false;
    leaves ||= word.test(line);
  }
  return false;
}
