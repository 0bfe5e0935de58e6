import type { ShapeArg } from '../core/edits';
import type { CallSite, FileView, FunctionView } from '../core/fileView';
import { defineRule } from '../core/rule';
import type { RuleContext } from '../core/rule';
import type { Loc, TextEdit } from '../core/span';
import { sameLoc } from '../core/span';

/** Names of files that hold an agent's state: what a crash must not leave half-written. */
const STATE = /state|checkpoint|memor|session|history|conversation|transcript|progress|snapshot|resume|cursor/i;
/** The same, for the data being written, where an HTTP `session` or a DB `cursor` is not state. */
const STATE_DATA = /state|checkpoint|memor|history|conversation|transcript|progress|snapshot|messages/i;
const TEMP = /tmp|temp|\.part\b|\.partial\b|\.new\b/i;
const PY_RENAME = new Set(['os.replace', 'os.rename', 'shutil.move']);
const JS_FS = /^(node:)?fs(\/promises)?(\.promises)?\./;
const FSYNC = new Set(['fsync', 'fsyncSync', 'fdatasync', 'fdatasyncSync', 'sync', 'datasync']);
const PY_TEMPFILE = new Set(['tempfile.NamedTemporaryFile', 'tempfile.mkstemp', 'tempfile.TemporaryFile', 'tempfile.mkdtemp', 'tempfile.TemporaryDirectory', 'tempfile.SpooledTemporaryFile']);
/** Serialising calls: a function that has one and a rename is saving through a temp file. */
const SERIALIZE = /^(json\.dumps?|pickle\.dumps?|yaml\.(safe_)?dump|JSON\.stringify)$/;
const MEMORY_COMMANDS = /["'](view|create|str_replace|insert|delete|rename)["']/g;

function strValue(a: { value(): import('../core/value').Value } | undefined): string | undefined {
  const v = a?.value();
  return v?.kind === 'str' ? v.text : undefined;
}

/** The file a call writes in place, when it is a write: `open(p, "w")`, `p.write_text(...)`, `fs.writeFileSync(p, ...)`. */
function writeTarget(c: CallSite, python: boolean): { text: string; value?: string } | undefined {
  const positional = c.args.filter((a) => !a.name);
  if (python) {
    if (c.name === 'builtins.open' || (c.method === 'open' && c.receiver && c.name !== 'os.open')) {
      const isPathOpen = c.name !== 'builtins.open';
      const mode = strValue(c.args.find((a) => a.name === 'mode') ?? positional[isPathOpen ? 0 : 1]);
      if (!mode || !/w/.test(mode)) return undefined;
      const target = isPathOpen ? c.receiver : positional[0];
      return target ? { text: target.text, value: strValue(target) } : undefined;
    }
    if ((c.method === 'write_text' || c.method === 'write_bytes') && c.receiver) return { text: c.receiver.text, value: strValue(c.receiver) };
    return undefined;
  }
  if (!(c.method === 'writeFileSync' || c.method === 'writeFile')) return undefined;
  if (!JS_FS.test(c.name)) return undefined;
  // `{ flag: 'wx' }` creates a new file, `{ flag: 'a' }` appends: neither truncates one.
  const opts = positional[2]?.value();
  const flag = opts?.kind === 'obj' ? opts.entries.find((e) => e.key === 'flag')?.value : undefined;
  if (flag?.kind === 'str' && !/^w\+?$/.test(flag.text)) return undefined;
  const target = positional[0];
  return target ? { text: target.text, value: strValue(target) } : undefined;
}

function isRename(c: CallSite, python: boolean): boolean {
  if (python) return PY_RENAME.has(c.name) || ((c.method === 'replace' || c.method === 'rename') && !!c.receiver && c.args.length === 1 && !c.name.startsWith('os.'));
  return (c.method === 'renameSync' || c.method === 'rename') && JS_FS.test(c.name);
}

/** The renamed file looks like a temp file: `tmp`, `f"{path}.tmp"`, `tmp.name`, `/tmp/...`. */
function fromTemp(rename: CallSite, python: boolean): boolean {
  const source = python && !PY_RENAME.has(rename.name) ? rename.receiver : rename.args[0];
  if (!source) return false;
  return TEMP.test(source.text) || /\.name$/.test(source.text) || TEMP.test(strValue(source) ?? '');
}

/** A temp file in the system temp directory: `tempfile.*` without `dir=`, `os.tmpdir()`, a `/tmp/...` literal. */
function systemTemp(calls: CallSite[], rename: CallSite, python: boolean): boolean {
  if (strValue(rename.args[0])?.startsWith('/tmp/')) return true;
  if (python) return calls.some((c) => (PY_TEMPFILE.has(c.name) && !c.args.some((a) => a.name === 'dir')) || c.name === 'tempfile.gettempdir');
  return calls.some((c) => /^(node:)?os\.tmpdir$/.test(c.name));
}

function memoryHandler(view: FileView): boolean {
  return view.functions.some((f) => new Set([...f.text.matchAll(MEMORY_COMMANDS)].map((m) => m[1])).size >= 3 && /path/i.test(f.text));
}

export default defineRule({
  meta: {
    id: 'non-atomic-checkpoint',
    group: 'state',
    severity: 'warning',
    fix: 'sometimes',
    // Every report is about a write (`open(..., "w")`, `write_text`, `writeFileSync`, a serialiser,
    // a temp file) of something that says it is state (STATE, STATE_DATA) or in a memory-tool module.
    triggers: [/dumps?\b|\b(open|write\w*|stringify|createWriteStream|NamedTemporaryFile|mkstemp|TemporaryFile|SpooledTemporaryFile)\b/, new RegExp(`${STATE.source}|${STATE_DATA.source}|${MEMORY_COMMANDS.source}`, 'i')],
    summary: 'State or memory files written in place, renamed without an fsync, or through a temp file in /tmp.',
    docs: `## What it does
Finds code that saves an agent's state — checkpoints, sessions, conversation history, memory files: the file's name, the function's name or the data written says so, and every file a memory-tool handler writes — in a way a crash can corrupt:
- written in place: \`json.dump(state, open(path, "w"))\`, \`with open(path, "w") as f: ...\`, \`path.write_text(...)\`, \`fs.writeFileSync(path, ...)\`, \`await writeFile(path, ...)\`;
- written to a temp file and renamed over the target without an \`fsync\` of the temp file first;
- written to a temp file in the system temp directory (\`tempfile.NamedTemporaryFile()\` without \`dir=\`, \`os.tmpdir()\`, \`/tmp/...\`) and then renamed into place.

## Why is this bad?
Opening a file for writing truncates it first. A crash, a kill or a full disk before the write finishes leaves an empty or half-written checkpoint, and the agent cannot resume — often discovered only on the restart that needed it. The safe pattern is a temp file in the same directory, flushed and fsynced, then renamed over the target (\`os.replace\`, \`fs.renameSync\`): the rename is atomic, so readers see the old file or the new one. Without the fsync, a power loss can persist the rename before the data. A temp file in \`/tmp\` is often on another filesystem: the rename then fails with \`EXDEV\` (\`Invalid cross-device link\`), or \`shutil.move\` silently falls back to a copy that is not atomic.

## Example
\`\`\`python
import json

def save_checkpoint(state, path="checkpoint.json"):
    with open(path, "w") as f:
        json.dump(state, f)
\`\`\`

\`\`\`ts
import * as fs from 'node:fs';

export function saveSession(session: object, file = 'session.json') {
  fs.writeFileSync(file, JSON.stringify(session));
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
\`\`\`

## Fix safety
For an in-place write of text — \`with open(path, "w") as f:\` around a single \`json.dump\` / \`f.write\`, \`json.dump(data, open(path, "w"))\`, \`path.write_text(text)\`, \`fs.writeFileSync(path, data)\`, \`await writeFile(path, data)\` — the fix replaces the write with a call to \`atomic_write_text(path, text)\` / \`atomicWriteFileSync(path, data)\`, a helper it adds to the file once (temp file in the same directory, flush, fsync, rename, then an fsync of the directory where the platform allows it). It is unsafe: the helper writes UTF-8 text, leaves the file with default permissions, and in an async function it writes synchronously. A rename without an fsync and a temp file in \`/tmp\` are reported without a fix.
`,
  },

  checkFile(ctx) {
    const python = ctx.language === 'python';
    const view = ctx.view;
    const memory = memoryHandler(view);
    // The calls of each function (and of the module body), since a save is one function's work.
    const scopes = new Map<string, { fn?: FunctionView; calls: CallSite[] }>();
    for (const c of view.calls) {
      const fn = view.enclosingFunction(c.at);
      const k = fn ? `${fn.at.start}:${fn.at.end}` : 'module';
      const scope = scopes.get(k) ?? { fn, calls: [] };
      scope.calls.push(c);
      scopes.set(k, scope);
    }
    for (const { fn, calls } of scopes.values()) {
      // What says it is state: the function's name, or the data it serialises or writes (`json.dump(self.state, f)`).
      const data = calls.flatMap((c) => (SERIALIZE.test(c.name) || c.method === 'write' || c.method === 'write_text' ? [c.args[0]?.text ?? ''] : /^(writeFileSync|writeFile)$/.test(c.method) ? [c.args[1]?.text ?? ''] : []));
      const scopeState = memory || STATE.test(fn?.name ?? '') || data.some((t) => STATE_DATA.test(t));
      // Renames of a temp file (not of user files, as a memory tool's `rename` command does).
      const hasTempfile = calls.some((c) => PY_TEMPFILE.has(c.name) || /^(node:)?os\.tmpdir$/.test(c.name) || /^(node:)?fs(\/promises)?(\.promises)?\.mkdtemp(Sync)?$/.test(c.name));
      const renames = calls.filter((c) => isRename(c, python) && (hasTempfile || fromTemp(c, python)));
      if (renames.length) {
        // A temp file renamed into place: the save is meant to be atomic; check how.
        const writes = calls.some((c) => writeTarget(c, python) || SERIALIZE.test(c.name) || c.method === 'write' || (python ? PY_TEMPFILE.has(c.name) : /^(node:)?fs(\/promises)?(\.promises)?\.(writeSync|writeFileSync|writeFile|createWriteStream)$/.test(c.name)));
        if (!writes || !(scopeState || renames.some((r) => r.args.some((a) => STATE.test(a.text))))) continue;
        const fsynced = calls.some((o) => FSYNC.has(o.method));
        for (const r of renames) {
          const problems: string[] = [];
          if (!fsynced) problems.push('nothing fsyncs the temp file before the rename, so after a power loss the rename can be on disk while the data is not');
          if (systemTemp(calls, r, python)) problems.push(`the temp file is in the system temp directory, so the rename fails across filesystems (EXDEV)${python ? ' or `shutil.move` falls back to a copy that is not atomic' : ''}`);
          if (!problems.length) continue;
          ctx.report({
            message: `\`${shorten(ctx.textOf(r.at))}\` is not an atomic save: ${problems.join('; and ')}. Create the temp file next to the target, flush and fsync it, then rename.`,
            at: r.at,
          });
        }
        continue;
      }
      for (const c of calls) {
        const target = writeTarget(c, python);
        if (!target) continue;
        if (!(scopeState || STATE.test(target.text) || STATE.test(target.value ?? ''))) continue;
        if (TEMP.test(target.text) || TEMP.test(target.value ?? '')) continue;
        const edits = atomicWrite(c, ctx);
        ctx.report({
          message: `\`${shorten(ctx.textOf(c.at))}\` writes the file in place: a crash or a full disk mid-write leaves it empty or truncated, and the next start cannot load it. Write a temp file in the same directory, fsync it, and rename it over the file.`,
          at: c.at,
          fix: edits ? { title: 'Write through an atomic-write helper (temp file, fsync, rename)', applicability: 'unsafe', edits } : undefined,
        });
      }
    }
  },
});

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
