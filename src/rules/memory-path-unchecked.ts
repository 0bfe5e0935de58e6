import type { ArgView, FunctionView } from '../core/fileView';
import type { Loc } from '../core/span';
import { defineRule } from '../core/rule';
import type { TextTest } from '../core/rule';
import { pythonFunctionSpans } from '../core/pythonFunctionSpans';
import { fileText } from './util';

const MEMORY_COMMANDS = /["'](view|create|str_replace|insert|delete|rename)["']/g;
/** A part that names a path taken from the request (`path`, `rel_path`, `tool_input["path"]`, `input.new_path`). */
const PATH_PART = /path|file_?name|\bfile\b|_file\b|\bname\b|\bdest|\bsrc\b|\btarget|\brel\b/i;
/** Tool input read in the function: the model chose the value. */
const TOOL_INPUT = /\binput\b|tool_input|toolInput|\.input\[|\["input"\]|arguments/;
const HANDLER_NAME = /memor|tool|handle|command|dispatch/i;
/** Resolving the joined path (symlinks and `..`). */
const RESOLVES = /realpath|abspath|normpath|\.resolve\(|path\.resolve|realpathSync|realpath\.native|path\.normalize/;
/** Checking containment after resolving. */
const CONTAINS = /is_relative_to|relative_to\(|commonpath|\.startswith\(|\.startsWith\(|path\.relative\(/;
/** A helper that does both (`safe_path(...)`, `resolveInside(...)`, `_check_path(...)`). */
const GUARD_HELPER = /(safe|validat|check|ensure|assert|guard|confine|sandbox)\w*(path|inside|within|root)|(resolve|join)_?(inside|within|safe)|is_?within|is_?inside/i;

/**
 * What makes a file the memory tool's: its tool type (\`memory_20250818\`), the SDK's memory-tool
 * helpers, or a root under \`/memories\`. Command names alone are not enough: a CLI's
 * create/delete subcommands and a key map's insert/delete keys have them too.
 */
const MEMORY_MARKER = /\bmemory_\d{8}\b|["'`][^"'`\n]*\/memories\b/;
/**
 * The SDK's memory-tool helpers (Python \`BetaAbstractMemoryTool\` subclasses, TypeScript
 * \`betaMemoryTool({...})\` handlers): one method or handler per command, each given the model's
 * command (\`command.path\`).
 */
const SDK_MEMORY_TOOL = /\bBeta(Async)?AbstractMemoryTool\b|\bbetaMemoryTool\s*\(|\bMemoryToolHandlers\b|\bBetaMemoryTool20250818\w*Command\b/;
/** A name made safe before it is joined: a sanitiser, \`basename\`, or a full-match allow-list without separators or dots. */
const SANITISED = /sanitiz|secure_filename|\bbasename\(|slugify|re\.fullmatch\(\s*r?["'][^"'/.]*["']|\/\^\[[^\]/.]*\][+*]\$\/\.test\(/i;
/** A memory-tool module as `checkFile` sees one: the SDK's helpers, or the tool's marker and the command names `memoryHandler` counts. */
const MEMORY_MODULE_TEXT = {
  // A plain word first (found fast) before the patterns that start at every quote.
  anyOf: [
    [/MemoryTool/, SDK_MEMORY_TOOL],
    [/memor/, MEMORY_MARKER, new RegExp(MEMORY_COMMANDS.source)],
  ],
};
/** A Python function named like a handler: the name is the one after `def` (a lambda has none). */
const PYTHON_HANDLER_DEF = new RegExp(String.raw`\bdef[\s\\]+[^\s\\(]*(?:${HANDLER_NAME.source})`, 'i');
/**
 * The text of a file with a handler as `handles` sees one: a memory-tool module, or tool input
 * read in a function named like a handler or in a file with request calls.
 */
const HANDLES_TEXT = {
  // The handler's name before the tool input: on the real-code corpus it is in a sixth of the
  // files and `input` in a quarter, and its pattern is the faster of the two.
  python: { anyOf: [MEMORY_MODULE_TEXT, [{ anyOf: ['requests' as const, PYTHON_HANDLER_DEF] }, TOOL_INPUT]] },
  typescript: { anyOf: [MEMORY_MODULE_TEXT, [{ anyOf: ['requests' as const, HANDLER_NAME] }, TOOL_INPUT]] },
};
/**
 * A Python function named like a handler whose own text reads tool input (what `handles` asks of
 * a function when the file is no memory-tool module and holds no request): the whole text may
 * have both in different functions (a CLI's `input()` prompt and a `handle_*` method), and then
 * nothing is reported. Where the text is not plain enough to find its functions' extents, the
 * whole text is read instead.
 */
const PYTHON_HANDLER_READS_INPUT: TextTest = {
  test(text) {
    if (!PYTHON_HANDLER_DEF.test(text) || !TOOL_INPUT.test(text)) return false;
    const spans = pythonFunctionSpans(text);
    return !spans || spans.some((f) => HANDLER_NAME.test(f.name) && TOOL_INPUT.test(text.slice(f.start, f.end)));
  },
};
/**
 * pathlib's `/` on a name that says it is a path (`base_dir / name`, `(self.root) / p`). A comment
 * in between runs to the end of its line: a comment that could end anywhere made a banner like
 * `# path ####…` take exponential time to fail.
 */
const PATHISH_DIVIDED = /(?:root|dir|base|path|folder|home|directory)(?:[\s\\)]|#[^\n]*(?=\n|$))*\/(?![/=])/i;
/** pathlib's `/` on a resolved path: `root.resolve() / name`, `Path(p).expanduser() / name` (the arguments' own parentheses end in the gap). */
const RESOLVED_DIVIDED = /\b(?:resolve|expanduser|absolute)\s*\([^)]*\)(?:[\s\\)]|#[^\n]*(?=\n|$))*\/(?![/=])/;
/**
 * `os.path.join`, as a file names it: `import os` and `os.path.join(...)`, `from os import path`,
 * `from os.path import join`, `import os.path as osp` (a library name never comes from another file).
 */
const OS_PATH_JOIN = [/\bos[\s\\]*\.[\s\\]*path\b|\bfrom\s+os\s+import\b/, /\bjoin\b/];
/** Node's `path.join` / `path.resolve`: the module is imported or required by its name. */
const NODE_PATH_JOIN = [/["'\x60](?:node:)?path["'\x60]/, /\b(?:join|resolve)\b/];

function memoryHandler(f: FunctionView): boolean {
  return new Set([...f.text.matchAll(MEMORY_COMMANDS)].map((m) => m[1])).size >= 2;
}

/**
 * The name a browser suggests for a download (Playwright's \`download.suggested_filename\`,
 * \`download.suggestedFilename()\`): the browser reduces it to a bare file name before a page's
 * script or the model sees it, so it names no folder outside the one it is joined to. Only the
 * name itself, read off a name or attribute chain: \`args.get("name") or download.suggested_filename\`
 * is the model's when it gives one.
 */
const BROWSER_DOWNLOAD_NAME = /^[\w$.]+\.(?:suggested_filename|suggestedFilename\(\s*\))$/;

/**
 * A part the model chose: not a literal, and named like a path (or built from a parameter that
 * is); not a browser's download name, written in the join or read from the name it was assigned
 * to (\`file_name = download.suggested_filename\`).
 */
function fromModel(p: ArgView, textOf: (at: Loc) => string): boolean {
  const v = p.value();
  if (v.kind === 'str' && v.complete) return false;
  if (BROWSER_DOWNLOAD_NAME.test(p.text.trim()) || (v.at && BROWSER_DOWNLOAD_NAME.test(textOf(v.at).trim()))) return false;
  return PATH_PART.test(p.text) || v.taints.some((t) => t.kind === 'parameter' && PATH_PART.test(t.text));
}

/** The function handles tool calls: the file is a memory-tool module, or it reads tool input and is named like a handler (or sits next to the requests). */
function handles(memoryModule: boolean, f: FunctionView, fileHasRequests: boolean): boolean {
  if (memoryModule) return true;
  return TOOL_INPUT.test(f.text) && (HANDLER_NAME.test(f.name ?? '') || fileHasRequests);
}

export default defineRule({
  meta: {
    id: 'memory-path-unchecked',
    group: 'state',
    severity: 'error',
    fix: 'none',
    // A report is about a path join (by its library name, or pathlib's `/` on a path) with a
    // part named like a path (PATH_PART), in a function that handles tool calls: any function of
    // a memory-tool module (the SDK's memory helpers, or the tool's marker and its command
    // names), or a function that reads tool input (TOOL_INPUT) and is named like a handler or
    // sits next to request calls.
    // The words of a handler first: they are in far fewer files than a word like `path` (the
    // triggers are read in every file of a run).
    // In Python, last (it reads the text through): a handler's name and the tool input in one function.
    triggers: {
      python: [HANDLES_TEXT.python, PATH_PART, { anyOf: [/\b(?:Pure)?(?:Posix|Windows)?Path\b/, /\b(?:posixpath|ntpath)\b/, OS_PATH_JOIN, RESOLVED_DIVIDED, PATHISH_DIVIDED] }, { anyOf: [MEMORY_MODULE_TEXT, 'requests', PYTHON_HANDLER_READS_INPUT] }],
      typescript: [HANDLES_TEXT.typescript, PATH_PART, NODE_PATH_JOIN],
    },
    // A handler in a test file is the test's own double: no model drives it in production, and
    // the test's paths are its own fixtures.
    skips: { tests: true },
    summary: 'A memory-tool (or other tool) handler joins a model-supplied path to its root without resolving it and checking containment.',
    docs: `## What it does
Finds handlers of the memory tool (functions that dispatch \`view\`, \`create\`, \`str_replace\`, \`insert\`, \`delete\`, \`rename\` in a file that is the memory tool's: it declares \`memory_20250818\` or keeps its files under \`/memories\`; and every method of a \`BetaAbstractMemoryTool\` subclass or \`betaMemoryTool({...})\` handler, given the model's \`command.path\`), and other tool handlers that read a path from the tool input, which join that path to a root — \`os.path.join(root, path)\`, \`root / path\`, \`Path(root, path)\`, \`path.join(root, p)\`, \`path.resolve(root, p)\` — in a function that never resolves the result and checks that it is still inside the root. A name made safe first — a sanitiser (\`sanitize_filename(name)\`, \`secure_filename\`), \`basename\`, a full-match allow-list without separators or dots (\`re.fullmatch(r"[\\w-]+", name)\`) — is not reported, nor the name a browser suggests for a download (Playwright's \`download.suggested_filename\`, \`download.suggestedFilename()\`), which the browser reduces to a bare file name. Test files (what the test runners collect: \`test_*.py\`, \`conftest.py\`, \`*.test.ts\`, \`__tests__/\`) are not checked: a handler there is a test's double, which no model drives in production.

## Why is this bad?
The path comes from the model, and the model can be steered by anything it reads: a document, a web page, a tool result. \`../../.ssh/authorized_keys\` or an absolute path (which makes \`os.path.join\` and \`path.resolve\` drop the root entirely) walks out of the memory directory, and the handler then reads, overwrites or deletes any file the process can reach. Stripping a leading \`/\` or rejecting \`..\` by string match is not enough: symlinks inside the root escape as well. The memory tool documentation asks handlers to validate every path.

## Example
\`\`\`python
import os

MEMORY_ROOT = "/srv/agent/memories"

def handle_memory(command, tool_input):
    full = os.path.join(MEMORY_ROOT, tool_input["path"])
    if command == "view":
        with open(full) as f:
            return f.read()
    if command == "create":
        with open(full, "x") as f:
            f.write(tool_input["file_text"])
        return "created"
    return "unsupported"
\`\`\`

\`\`\`ts
import * as fs from 'node:fs';
import * as path from 'node:path';

const MEMORY_ROOT = '/srv/agent/memories';

export function handleMemory(command: string, input: { path: string; file_text?: string }) {
  const full = path.join(MEMORY_ROOT, input.path);
  if (command === 'view') return fs.readFileSync(full, 'utf8');
  if (command === 'create') fs.writeFileSync(full, input.file_text ?? '', { flag: 'wx' });
  return 'ok';
}
\`\`\`

## Use instead
\`\`\`python
import os

MEMORY_ROOT = os.path.realpath("/srv/agent/memories")

def handle_memory(command, tool_input):
    full = os.path.realpath(os.path.join(MEMORY_ROOT, tool_input["path"]))
    if os.path.commonpath([full, MEMORY_ROOT]) != MEMORY_ROOT:
        return "error: path outside the memory directory"
    if command == "view":
        with open(full) as f:
            return f.read()
    if command == "create":
        with open(full, "x") as f:
            f.write(tool_input["file_text"])
        return "created"
    return "unsupported"
\`\`\`

\`\`\`ts
import * as fs from 'node:fs';
import * as path from 'node:path';

const MEMORY_ROOT = fs.realpathSync('/srv/agent/memories');

export function handleMemory(command: string, input: { path: string; file_text?: string }) {
  const full = path.resolve(MEMORY_ROOT, input.path);
  const rel = path.relative(MEMORY_ROOT, full);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return 'error: path outside the memory directory';
  if (command === 'view') return fs.readFileSync(full, 'utf8');
  if (command === 'create') fs.writeFileSync(full, input.file_text ?? '', { flag: 'wx' });
  return 'ok';
}
\`\`\`
`,
  },

  checkFile(ctx) {
    const view = ctx.view;
    const text = fileText(ctx);
    // The plain words first: found fast, where the patterns start at every quote.
    const memoryModule = (text.includes('MemoryTool') && SDK_MEMORY_TOOL.test(text)) || (text.includes('memor') && MEMORY_MARKER.test(text) && view.functions.some(memoryHandler));
    for (const join of view.pathJoins) {
      if (join.parts.length < 2) continue;
      const fn = view.enclosingFunction(join.at);
      if (!fn) continue;
      // What the function's text says first: a part's value may be read through its callers,
      // in other files, and most joins are in functions that handle no tool call.
      if (!handles(memoryModule, fn, ctx.calls.length > 0)) continue;
      if ((RESOLVES.test(fn.text) && CONTAINS.test(fn.text)) || GUARD_HELPER.test(fn.text) || SANITISED.test(fn.text)) continue;
      const part = join.parts.slice(1).find((p) => fromModel(p, (at) => ctx.textOf(at)));
      if (!part) continue;
      ctx.report({
        message: `\`${shorten(ctx.textOf(join.at))}\` joins \`${shorten(part.text)}\`, a path the model chose, to a root, and nothing checks that the resolved result stays inside it: \`../\` or an absolute path reaches any file the process can. Resolve the joined path and check it is inside the resolved root.`,
        at: join.at,
      });
    }
  },
});

function shorten(text: string): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > 50 ? one.slice(0, 49) + '…' : one;
}
