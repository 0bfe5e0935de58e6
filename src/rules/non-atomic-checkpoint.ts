import type { ShapeArg } from '../core/edits';
import type { CallSite, FileOp, FilePath, FunctionView } from '../core/fileView';
import { param } from '../core/model';
import { defineRule } from '../core/rule';
import type { RuleContext } from '../core/rule';
import type { Loc, TextEdit } from '../core/span';
import { sameLoc } from '../core/span';

/**
 * Files of other programs that code writes on purpose (a browser profile, an editor's rules):
 * their format and their readers are not the program's own.
 */
const FOREIGN_FILES = new Set(['History', 'Local State', 'Preferences', 'Bookmarks', 'Cookies', 'Login Data', '.cursorrules', 'settings.json']);
/** Words of a name that mark a temp file: `tmp`, `temp`, `.part`, `.partial`, `.new`. */
const TEMP_WORDS = new Set(['tmp', 'temp', 'part', 'partial', 'new', 'tempfile']);

type Read = Extract<FileOp, { kind: 'read' }>;

/** The words of a path expression or name: `self.tmp_path` -> self, tmp, path; `tmpFile` -> tmp, file. */
function words(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** Keys under which two paths name the same file: the same expression, the same known path, or the same file name. */
function pathKeys(p: FilePath): string[] {
  const keys = [`e:${p.arg.text.replace(/\s+/g, '').replace(/^\((.*)\)$/, '$1')}`];
  const v = p.arg.value();
  if (v.kind === 'str' && v.complete) keys.push(`s:${v.text}`);
  // A file name with an extension names one file; `"{run_id}"` or a bare folder does not.
  if (p.name && /^[\w.-]*\w\.\w+$/.test(p.name)) keys.push(`b:${p.name}`);
  return keys;
}

function isTempPath(p: FilePath): boolean {
  const v = p.arg.value();
  const known = v.kind === 'str' ? v.text : '';
  return words(p.arg.text).some((w) => TEMP_WORDS.has(w)) || /(^|\/)tmp\//.test(known) || /\.(tmp|part|partial|new)$/.test(p.name ?? known);
}

/** The file is the memory tool's: a request declares `memory_...`, or a path is under `/memories`. */
function memoryTool(ctx: RuleContext, ops: readonly FileOp[]): boolean {
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
    // in a function that writes or makes a temp file. Python: `open` (a write needs a known
    // mode with `w`, `a`, `x` or `+`, which the file spells), pathlib's `write_text` /
    // `write_bytes`, a rename (`os.replace`, `os.rename`, `shutil.move`, `Path.replace`) with
    // `tempfile`'s names. Node: the `fs` module's `writeFile(Sync)` / `createWriteStream`, or
    // its `rename(Sync)` with `os.tmpdir` / `mkdtemp`.
    triggers: {
      python: {
        anyOf: [
          [/\bopen\b/, /["'][rbtU]*[wax+][rbtUwax+]*["']/],
          /\bwrite_(?:text|bytes)\b/,
          [/\b(?:replace|renames?|move)\b/, /\b(?:NamedTemporaryFile|mkstemp|TemporaryFile|mkdtemp|TemporaryDirectory|SpooledTemporaryFile|gettempdir)\b/],
        ],
      },
      typescript: [/\bfs\b/, { anyOf: [/\b(?:writeFileSync|writeFile|createWriteStream)\b/, [/\b(?:renameSync|rename)\b/, /\b(?:tmpdir|mkdtempSync|mkdtemp)\b/]] }],
    },
    summary: 'A file the program reads back (state, checkpoints, sessions, memory) written in place, renamed without an fsync, or through a temp file in /tmp.',
    docs: `## What it does
Finds code that saves state a crash can corrupt: a file the program writes in place and also reads back (a checkpoint, a session, a conversation history, a memory file), writes again on every pass of a loop, or keeps for the memory tool:
- written in place: \`json.dump(state, open(path, "w"))\`, \`with open(path, "w") as f: ...\`, \`path.write_text(...)\`, \`fs.writeFileSync(path, ...)\`, \`await writeFile(path, ...)\`;
- written to a temp file and renamed over the target without an \`fsync\` of the temp file first;
- written to a temp file in the system temp directory (\`tempfile.NamedTemporaryFile()\` without \`dir=\`, \`os.tmpdir()\`, \`/tmp/...\`) and then renamed into place.

"Reads it back" means a read in the same file of the same path: the same expression, the same known path, or the same file name (\`"state.json"\`). Files written once and never read by the program (exports, reports, downloads), other programs' files (a browser's \`Local State\`), calls that are not file writes (\`session.write_bytes(remote_path, data)\` on a remote API) and test files are not reported.

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
    // A test's files, fixtures and sessions are its own scaffolding, not the program's state.
    if (ctx.testFile) return;
    const view = ctx.view;
    const ops = view.fileOps;
    if (!ops.some((o) => o.kind === 'write' || o.kind === 'rename')) return;
    const reads = ops.filter((o): o is Read => o.kind === 'read');
    const readKeys = new Map<string, Read>();
    for (const r of reads) for (const k of pathKeys(r.path)) if (!readKeys.has(k)) readKeys.set(k, r);
    const readBack = (p: FilePath): Read | undefined => {
      for (const k of pathKeys(p)) {
        const r = readKeys.get(k);
        if (r) return r;
      }
      return undefined;
    };
    const memory = memoryTool(ctx, ops);
    const fnOf = (at: Loc): FunctionView | undefined => view.enclosingFunction(at);
    const sameFn = (a: Loc, b: Loc) => fnOf(a) === fnOf(b);
    /** Why a file written here is state a crash must not truncate; undefined when nothing says so. */
    const evidence = (at: Loc, p: FilePath): { why: string; consequence: string; read?: Read } | undefined => {
      if (p.name && FOREIGN_FILES.has(p.name)) return undefined;
      const r = readBack(p);
      if (r) return { why: `the program reads it back (\`${shorten(ctx.textOf(r.at))}\`, line ${lineOf(ctx, r.at)})`, consequence: 'that read then fails or loads half a file', read: r };
      const loop = view.enclosingLoop(at);
      if (loop && !(loop.targetText && words(p.arg.text).some((w) => words(loop.targetText!).includes(w)))) return { why: 'it is written again on every pass of this loop', consequence: 'the run loses what it saved' };
      if (memory) return { why: "it is one of the memory tool's files", consequence: 'the memory is lost' };
      return undefined;
    };

    const renames = ops.filter((o): o is Extract<FileOp, { kind: 'rename' }> => o.kind === 'rename');
    const renamedFrom = new Set(renames.flatMap((r) => pathKeys(r.from)));
    for (const r of renames) {
      // A temp file renamed into place: the save is meant to be atomic; check how.
      const temps = ops.filter((o): o is Extract<FileOp, { kind: 'temp' }> => o.kind === 'temp' && sameFn(o.at, r.at));
      if (!temps.length && !isTempPath(r.from)) continue;
      if (!ops.some((o) => (o.kind === 'write' || o.kind === 'temp') && sameFn(o.at, r.at))) continue;
      const state = evidence(r.at, r.to);
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
      if (pathKeys(w.path).some((k) => renamedFrom.has(k))) continue;
      const state = evidence(w.at, w.path);
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

function lineOf(ctx: RuleContext, at: Loc): number {
  return ctx.textOf({ file: at.file, start: 0, end: at.start }).split('\n').length;
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
