/**
 * Larger rewrites used by the EditBuilder (src/lang/edits.ts): a block filter turned into a
 * placeholder map, and an in-place file write turned into an atomic write with a helper.
 */
import type { TextEdit } from '../core/span';
import type { Node } from './parsers';
import type { FileUnit } from './workspace';

function named(n: Node): Node[] {
  return n.namedChildren.filter((c): c is Node => !!c && c.type !== 'comment');
}

function quoteOf(literal: Node): string {
  const ch = literal.text.replace(/^[a-zA-Z]*/, '')[0];
  return ch === "'" || ch === '"' ? ch : '"';
}

/** `b["type"]`, `b.type`, `b.get("type")` for the item `v`. */
function isTypeAccess(unit: FileUnit, n: Node, v: string): boolean {
  const e = unit.adapter.expr(n);
  if (e.k === 'member') return e.prop === 'type' && e.object.text === v;
  if (e.k === 'index') {
    const k = unit.adapter.expr(e.index);
    return k.k === 'str' && k.value === 'type' && e.object.text === v;
  }
  if (e.k === 'call') {
    const c = unit.adapter.expr(e.callee);
    const first = e.args[0] ? unit.adapter.expr(e.args[0].value) : undefined;
    return c.k === 'member' && c.prop === 'get' && c.object.text === v && first?.k === 'str' && first.value === 'type' && e.args.length === 1;
  }
  return false;
}

/** The comparison `access != "type"` as [access, operator, literal], either side. */
function inequality(unit: FileUnit, cond: Node, v: string, type: string): { access: Node; op: string; literal: Node } | undefined {
  let left: Node | null;
  let right: Node | null;
  let op: string | undefined;
  if (cond.type === 'comparison_operator') {
    const parts = named(cond);
    const ops = cond.childrenForFieldName('operators').filter((c): c is Node => !!c);
    if (parts.length !== 2 || ops.length !== 1) return undefined;
    [left, right] = parts;
    op = ops[0].text;
  } else if (cond.type === 'binary_expression') {
    left = cond.childForFieldName('left');
    right = cond.childForFieldName('right');
    op = cond.childForFieldName('operator')?.text;
  } else return undefined;
  if (!left || !right || !(op === '!=' || op === '!==')) return undefined;
  const [access, literal] = isTypeAccess(unit, left, v) ? [left, right] : isTypeAccess(unit, right, v) ? [right, left] : [undefined, undefined];
  const lit = literal ? unit.adapter.expr(literal) : undefined;
  if (!access || !literal || lit?.k !== 'str' || lit.value !== type) return undefined;
  return { access, op, literal };
}

/**
 * `[b for b in c if b["type"] != "tool_result"]` -> `[{**b, "content": "<p>"} if b["type"] == "tool_result" else b for b in c]`;
 * `c.filter((b) => b.type !== 'tool_result')` -> `c.map((b) => (b.type === 'tool_result' ? { ...b, content: '<p>' } : b))`.
 */
export function keepBlocksWithPlaceholder(unit: FileUnit, node: Node, type: string, placeholder: string): TextEdit[] | undefined {
  if (/["'`\\\n]/.test(placeholder)) return undefined;
  if (unit.language === 'python') {
    if (node.type !== 'list_comprehension' && node.type !== 'generator_expression') return undefined;
    const body = node.childForFieldName('body');
    const parts = named(node);
    const clauses = parts.filter((c) => c.type === 'for_in_clause');
    const ifs = parts.filter((c) => c.type === 'if_clause');
    const v = clauses[0]?.childForFieldName('left');
    if (!body || clauses.length !== 1 || ifs.length !== 1 || v?.type !== 'identifier' || body.text !== v.text) return undefined;
    const cond = named(ifs[0])[0];
    const cmp = cond ? inequality(unit, cond, v.text, type) : undefined;
    if (!cmp) return undefined;
    const q = quoteOf(cmp.literal);
    const open = node.text[0];
    const close = node.text[node.text.length - 1];
    const text = `${open}{**${v.text}, ${q}content${q}: ${q}${placeholder}${q}} if ${cmp.access.text} == ${cmp.literal.text} else ${v.text} ${clauses[0].text}${close}`;
    return [{ start: node.startIndex, end: node.endIndex, newText: text }];
  }
  if (node.type !== 'call_expression') return undefined;
  const fn = node.childForFieldName('function');
  const args = named(node.childForFieldName('arguments') ?? node);
  if (fn?.type !== 'member_expression' || fn.childForFieldName('property')?.text !== 'filter' || args.length !== 1) return undefined;
  const obj = fn.childForFieldName('object');
  const cb = args[0];
  if (!obj || cb.type !== 'arrow_function') return undefined;
  const single = cb.childForFieldName('parameter');
  const list = cb.childForFieldName('parameters');
  const ps = list ? named(list) : [];
  const pattern = single ?? (ps.length === 1 ? (ps[0].childForFieldName('pattern') ?? ps[0]) : undefined);
  const body = cb.childForFieldName('body');
  if (pattern?.type !== 'identifier' || !body || body.type === 'statement_block') return undefined;
  const inner = body.type === 'parenthesized_expression' ? named(body)[0] : body;
  const cmp = inner ? inequality(unit, inner, pattern.text, type) : undefined;
  if (!cmp) return undefined;
  const q = quoteOf(cmp.literal);
  const eq = cmp.op === '!==' ? '===' : '==';
  const v = pattern.text;
  const paramText = list ? list.text : v;
  const text = `${obj.text}.map(${paramText} => (${cmp.access.text} ${eq} ${cmp.literal.text} ? { ...${v}, content: ${q}${placeholder}${q} } : ${v}))`;
  return [{ start: node.startIndex, end: node.endIndex, newText: text }];
}

const PY_ATOMIC_HELPER = `

def atomic_write_text(path, text):
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

const TS_ATOMIC_HELPER = `

/** Replaces the file at filePath atomically: a temp file in the same directory, flushed and fsynced, then renamed over filePath (a crash leaves the old file or the new one, never a truncated one). */
function atomicWriteFileSync(filePath: string, data: string | Uint8Array): void {
  const tmpPath = atomicPath.join(atomicPath.dirname(filePath), \`.\${atomicPath.basename(filePath)}.\${process.pid}.tmp\`);
  const fd = atomicFs.openSync(tmpPath, 'w');
  try {
    atomicFs.writeFileSync(fd, data);
    atomicFs.fsyncSync(fd);
  } finally {
    atomicFs.closeSync(fd);
  }
  atomicFs.renameSync(tmpPath, filePath);
}
`;

const WRITE_FILE = /^(writeFileSync|writeFile)$/;

/** The Python statement that does the write, for the shapes the fix handles, and its replacement call text. */
function pythonWrite(unit: FileUnit, node: Node): { replace: Node; call: string } | undefined {
  if (node.type !== 'call') return undefined;
  const fn = node.childForFieldName('function');
  const args = node.childForFieldName('arguments');
  const e = unit.adapter.expr(node);
  if (!fn || !args || e.k !== 'call') return undefined;
  const c = unit.adapter.expr(fn);
  // `p.write_text(text)`
  if (c.k === 'member' && c.prop === 'write_text') {
    const text = e.args.find((a) => !a.name && !a.spread);
    if (!text || e.args.some((a) => a.spread)) return undefined;
    return { replace: node, call: `atomic_write_text(${c.object.text}, ${text.value.text})` };
  }
  // `open(p, "w")`
  if (!(c.k === 'ident' && c.name === 'open')) return undefined;
  const path = e.args[0];
  if (!path || path.name || path.spread) return undefined;
  const dumps = (dump: Node, fileArg: Node): string | undefined => {
    const de = unit.adapter.expr(dump);
    if (de.k !== 'call') return undefined;
    const dc = unit.adapter.expr(de.callee);
    if (dc.k !== 'member' || dc.prop !== 'dump' || dc.object.text !== 'json') return undefined;
    const rest = de.args.filter((a) => a.value.id !== fileArg.id);
    if (rest.length !== de.args.length - 1 || de.args[1]?.value.id !== fileArg.id) return undefined;
    const argText = rest.map((a) => (a.name ? `${a.name}=${a.value.text}` : a.spread === 'dict' ? `**${a.value.text}` : a.spread ? `*${a.value.text}` : a.value.text)).join(', ');
    return `atomic_write_text(${path.value.text}, json.dumps(${argText}))`;
  };
  // `json.dump(data, open(p, "w"), ...)`
  if (args.parent && node.parent?.type === 'argument_list' && node.parent.parent?.type === 'call') {
    const dump = node.parent.parent;
    const call = dumps(dump, node);
    return call ? { replace: dump, call } : undefined;
  }
  // `with open(p, "w") as f:` + one statement: `json.dump(data, f)` / `f.write(text)`.
  const item = node.parent?.type === 'as_pattern' ? node.parent.parent : undefined;
  const clause = item?.parent;
  const stmt = clause?.parent;
  if (item?.type !== 'with_item' || clause?.type !== 'with_clause' || stmt?.type !== 'with_statement' || named(clause).length !== 1) return undefined;
  const alias = node.parent!.childForFieldName('alias');
  const target = alias?.type === 'as_pattern_target' ? named(alias)[0] : alias;
  const block = stmt.childForFieldName('body');
  const body = block ? named(block) : [];
  if (target?.type !== 'identifier' || body.length !== 1 || body[0].type !== 'expression_statement') return undefined;
  const inner = named(body[0])[0];
  const ie = inner ? unit.adapter.expr(inner) : undefined;
  if (!inner || ie?.k !== 'call') return undefined;
  const ic = unit.adapter.expr(ie.callee);
  if (ic.k === 'member' && ic.prop === 'write' && ic.object.text === target.text && ie.args.length === 1 && !ie.args[0].name && !ie.args[0].spread) {
    return { replace: stmt, call: `atomic_write_text(${path.value.text}, ${ie.args[0].value.text})` };
  }
  const fileArg = ie.args[1]?.value;
  if (fileArg?.type !== 'identifier' || fileArg.text !== target.text) return undefined;
  const call = dumps(inner, fileArg);
  return call ? { replace: stmt, call } : undefined;
}

/** `fs.writeFileSync(p, data[, enc])`, `await fs.promises.writeFile(p, data)`, `await writeFile(p, data)`. */
function jsWrite(unit: FileUnit, node: Node): { replace: Node; call: string } | undefined {
  const e = unit.adapter.expr(node);
  if (e.k !== 'call' || e.args.length < 2 || e.args.length > 3 || e.args.some((a) => a.spread)) return undefined;
  const c = unit.adapter.expr(e.callee);
  const method = c.k === 'member' ? c.prop : c.k === 'ident' ? c.name : undefined;
  if (!method || !WRITE_FILE.test(method)) return undefined;
  const last = e.args[e.args.length - 1].value;
  if (/function|arrow_function/.test(last.type)) return undefined; // callback style
  if (method === 'writeFile' && node.parent?.type !== 'await_expression') return undefined;
  const replace = node.parent?.type === 'await_expression' ? node.parent : node;
  return { replace, call: `atomicWriteFileSync(${e.args[0].value.text}, ${e.args[1].value.text})` };
}

export function replaceWithAtomicWrite(unit: FileUnit, node: Node, importsEnd: number, eol: string): TextEdit[] | undefined {
  const py = unit.language === 'python';
  const found = py ? pythonWrite(unit, node) : jsWrite(unit, node);
  if (!found) return undefined;
  const edits: TextEdit[] = [{ start: found.replace.startIndex, end: found.replace.endIndex, newText: found.call }];
  const text = unit.text;
  if (py) {
    if (!/^def atomic_write_text\(/m.test(text)) edits.push({ start: importsEnd, end: importsEnd, newText: PY_ATOMIC_HELPER.replace(/\n/g, eol) });
    return edits;
  }
  if (/function atomicWriteFileSync\b/.test(text)) return edits;
  const esm = unit.tree.rootNode.namedChildren.some((c) => c?.type === 'import_statement') || unit.language !== 'javascript';
  const imports = esm ? `import * as atomicFs from 'node:fs';${eol}import * as atomicPath from 'node:path';` : `const atomicFs = require('node:fs');${eol}const atomicPath = require('node:path');`;
  let helper = TS_ATOMIC_HELPER.replace(/\n$/, '');
  if (unit.language === 'javascript') helper = helper.replace('(filePath: string, data: string | Uint8Array): void', '(filePath, data)');
  const lead = importsEnd === 0 ? '' : eol;
  edits.push({ start: importsEnd, end: importsEnd, newText: `${lead}${imports}${helper.replace(/\n/g, eol)}${importsEnd === 0 ? eol + eol : ''}` });
  return edits;
}
