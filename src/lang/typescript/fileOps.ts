/**
 * Node's file operations: `fs.writeFile(Sync)` / `fs.promises.writeFile` by flag, `appendFile(Sync)`, `readFile`,
 * `rename(Sync)`, `createWriteStream`, `fsync`, and the temp folders (`os.tmpdir`, `mkdtemp`).
 */
import type { FileOp } from '../../core/fileView';
import type { Evaluator } from '../evaluate';
import { argView, filePath, knownString } from '../fileOps';
import type { Node } from '../parsers';
import type { FileUnit } from '../workspace';

const FS = /^(node:)?fs(\/promises)?(\.promises)?\./;

/** `{ flag: 'wx' }` creates a new file, `{ flag: 'a' }` appends: neither truncates one. */
function truncatingFlag(flag: string | undefined): boolean {
  return flag === undefined || /^w\+?$/.test(flag);
}

/** The names of the reads typescriptFileOps finds (`readFile`, `readFileSync`), as a file spells them (the canonical name of an fs function ends in its own). */
const READ = /\breadFile(?:Sync)?\b/;

export function typescriptMayReadFiles(text: string): boolean {
  return READ.test(text);
}

/** A stream the code writes into a pipe: `pipeline(body, fs.createWriteStream(p))`, `res.pipe(fs.createWriteStream(p))`, or the name it is bound to piped to in its function (`const out = fs.createWriteStream(p); res.pipe(out)`). */
function pipedTo(unit: FileUnit, stream: Node): boolean {
  const piping = (call: Node | null | undefined): boolean => {
    if (!call) return false;
    const e = unit.adapter.expr(call);
    if (e.k !== 'call') return false;
    const c = unit.adapter.expr(e.callee);
    return (c.k === 'member' && c.prop === 'pipe') || (c.k === 'ident' && c.name === 'pipeline') || (c.k === 'member' && c.prop === 'pipeline');
  };
  const parent = stream.parent;
  if (parent?.type === 'arguments' && piping(parent.parent)) return true;
  if (parent?.type !== 'variable_declarator') return false;
  const name = parent.childForFieldName('name')?.text;
  if (!name) return false;
  let fn: Node | null = parent;
  while (fn && !unit.adapter.isFunction(fn)) fn = fn.parent;
  const scope = fn ?? unit.tree.rootNode;
  return unit.calls.some((call) => {
    if (call.startIndex < scope.startIndex || call.endIndex > scope.endIndex || !piping(call)) return false;
    const e = unit.adapter.expr(call);
    return e.k === 'call' && e.args.some((a) => a.value.text === name);
  });
}

/**
 * The functions and methods read below, by the name they are called with. The library name of a
 * call on an object ends with the attribute it calls (`fs.promises.writeFile` with `writeFile`),
 * so a call on an object whose attribute is none of these is no operation, and its library name
 * (a look-up per call, of thousands per file, on every change in the editor) is not asked.
 */
const CALLED_NAMES = new Set([
  ...['writeFile', 'appendFile', 'readFile', 'rename', 'fsync', 'fdatasync', 'mkdtemp'].flatMap((f) => [f, `${f}Sync`]),
  'createWriteStream',
  'sync',
  'datasync',
  'tmpdir',
]);

export function typescriptFileOps(unit: FileUnit, ev: Evaluator): FileOp[] {
  const ops: FileOp[] = [];
  for (const node of unit.calls) {
    const e = unit.adapter.expr(node);
    if (e.k !== 'call') continue;
    const c = unit.adapter.expr(e.callee);
    if (c.k === 'member' && !CALLED_NAMES.has(c.prop)) continue;
    const name = ev.calleeName(unit, e.callee);
    const method = c.k === 'member' ? c.prop : c.k === 'ident' ? c.name : undefined;
    const at = unit.loc(node);
    const plain = e.args.filter((a) => !a.spread);
    const args = plain.map((a) => argView(unit, ev, a.value));
    const fp = (i: number) => filePath(unit, ev, plain[i].value);
    if (!name || !FS.test(name)) {
      // `handle.sync()`, `handle.datasync()` on a file handle of fs/promises.
      if ((method === 'sync' || method === 'datasync') && e.args.length === 0) ops.push({ kind: 'fsync', at });
      if (name === 'os.tmpdir' || name === 'node:os.tmpdir') ops.push({ kind: 'temp', at, inDir: false });
      continue;
    }
    const fn = name.slice(name.lastIndexOf('.') + 1);
    if ((fn === 'writeFileSync' || fn === 'writeFile') && args[0]) {
      // The options: an object with a `flag`, or a string, which is the encoding (`'utf8'`), not a flag.
      const opts = args[2]?.value();
      const flag = opts?.kind === 'obj' ? opts.entries.find((x) => x.key === 'flag')?.value : undefined;
      const f = flag?.kind === 'str' && flag.complete ? flag.text : undefined;
      ops.push({ kind: 'write', at, path: fp(0), truncates: truncatingFlag(f), data: args[1] ? [args[1]] : [], ...(f && /^a/.test(f) ? { appends: true } : {}) });
    } else if ((fn === 'appendFileSync' || fn === 'appendFile') && args[0]) {
      ops.push({ kind: 'write', at, path: fp(0), truncates: false, data: args[1] ? [args[1]] : [], appends: true });
    } else if (fn === 'createWriteStream' && args[0]) {
      const opts = args[1]?.value();
      const flags = opts?.kind === 'obj' ? opts.entries.find((x) => x.key === 'flags')?.value : undefined;
      const flag = flags?.kind === 'str' ? flags.text : undefined;
      ops.push({ kind: 'write', at, path: fp(0), truncates: truncatingFlag(flag), data: [], ...(pipedTo(unit, node) ? { streamed: true } : {}), ...(flag && /^a/.test(flag) ? { appends: true } : {}) });
    } else if ((fn === 'readFileSync' || fn === 'readFile') && args[0]) {
      ops.push({ kind: 'read', at, path: fp(0) });
    } else if ((fn === 'renameSync' || fn === 'rename') && args[1]) {
      ops.push({ kind: 'rename', at, from: fp(0), to: fp(1) });
    } else if (fn === 'fsyncSync' || fn === 'fsync' || fn === 'fdatasyncSync' || fn === 'fdatasync') {
      ops.push({ kind: 'fsync', at });
    } else if (fn === 'mkdtempSync' || fn === 'mkdtemp') {
      // Under the folder of the prefix: the system's when it starts from os.tmpdir().
      ops.push({ kind: 'temp', at, inDir: knownString(args[0])?.startsWith('/tmp') === false });
    }
  }
  return ops;
}
