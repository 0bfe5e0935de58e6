/**
 * Incremental parsing of editor buffers (Parsers.parseEdited, Workspace.setText) against the
 * oracle of a parse from scratch: every fixture and example takes a sequence of seeded random
 * edits (typing, deleting, pasting, syntax errors, non-ASCII text, CRLF), and after each one
 * the tree built from the previous one must equal, column by column, the tree `parse` builds
 * from the new text, and the analysis must report what a fresh analyzer reports. Also: the
 * edit's row/column points as web-tree-sitter reads them, and that kept WASM trees are freed.
 *
 * One exception to "equal to a parse from scratch": on text with syntax errors tree-sitter
 * itself sometimes recovers differently when it parses from an old tree. There the tree must
 * equal the one read node by node from the same (incremental) WASM tree instead.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Diagnostic as LspDiagnostic } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { editorFile, Rng as BenchRng } from '../bench/corpus';
import { editScript } from '../bench/editor';
import { Configuration } from '../src/engine/config';
import { DiskHost } from '../src/host/source';
import { toLspDiagnostics } from '../src/server/convert';
import { DocumentUnit } from '../src/server/units';
import { Client, LANGUAGE_IDS } from './lsp-client';
import type { Node as WasmNode, Tree as WasmTree } from 'web-tree-sitter';
import { Analyzer } from '../src/engine/analyzer';
import type { FileResult } from '../src/engine/analyzer';
import type { LanguageId } from '../src/core/model';
import { Parsers, textChange } from '../src/lang/parsers';
import type { Tree } from '../src/lang/parsers';
import { keptWasmTreeCount, SyntaxNode, SyntaxTree } from '../src/lang/syntaxTree';
import { frontEndFor } from '../src/lang/frontEnds';
import { Workspace } from '../src/lang/workspace';
import { diskHost, FIXTURES, ROOT } from './helpers';
import { editorBuffers, Rng } from './robustness/fuzz';
import type { EditorBuffer } from './robustness/fuzz';

let parsers: Parsers;
beforeAll(async () => {
  parsers = await Parsers.load();
});

/** The columns of a SyntaxTree, all but the ids (which are new for every tree). */
const COLUMNS = ['typeId', 'fieldId', 'flags', 'start', 'end', 'parentOf', 'subtreeEnd', 'depth'] as const;
/** A node's links, which the tree derives from its parent and subtree-end columns. */
const LINKS = ['firstChild', 'lastChild', 'nextSibling', 'prevSibling'] as const;

/** The first difference between two trees of the same text, or undefined when they are equal. */
function difference(incremental: Tree, scratch: Tree): string | undefined {
  if (incremental.source !== scratch.source) return 'different source texts';
  if (incremental.length !== scratch.length) return `${incremental.length} nodes incrementally, ${scratch.length} from scratch`;
  for (const column of COLUMNS) {
    const a = incremental[column];
    const b = scratch[column];
    for (let i = 0; i < a.length; i++) {
      if (a[i] !== b[i]) return `${column}[${i}] is ${a[i]} incrementally, ${b[i]} from scratch (node ${scratch.node(i)!.toString()})`;
    }
  }
  for (const link of LINKS) {
    for (let i = 0; i < scratch.length; i++) {
      const a = incremental[link](i);
      const b = scratch[link](i);
      if (a !== b) return `${link}(${i}) is ${a} incrementally, ${b} from scratch (node ${scratch.node(i)!.toString()})`;
    }
  }
  return undefined;
}

/**
 * For a tree spliced around a statement with a syntax error (Parsers.parseEdited): the first
 * difference from what it must be, the top-level nodes of `before` moved by the edit and, in
 * place of the statement the edit is in, the statement's new text parsed alone.
 */
function spliceDifference(before: Tree, tree: Tree, language: LanguageId): string | undefined {
  const shift = tree.source.length - before.source.length;
  const at = tree.splicedText!;
  const change = textChange(before.source, tree.source)!;
  if (!(at.start < change.startIndex && change.newEndIndex <= at.end)) return `the statement parsed alone (${at.start}-${at.end}) does not hold the edit`;
  const part = parsers.parse(language, tree.source.slice(at.start, at.end));
  /** Each top-level node the tree must have: [tree, node, how far its offsets move, how much deeper it is]. */
  const want: Array<[Tree, number, number, number?]> = [];
  let placed = false;
  for (let c = before.firstChild(0); c >= 0; c = before.nextSibling(c)) {
    if (before.end[c] <= at.start) want.push([before, c, 0]);
    else if (before.start[c] >= at.end - shift) want.push([before, c, shift]);
    else if (before.start[c] < at.start || before.end[c] > at.end - shift) return `the old top-level node ${before.node(c)!.toString()} is cut`;
    else if (!placed) {
      placed = true;
      // A statement not read as statements at all (an error at its root) goes in whole.
      if (part.typeId[0] !== before.typeId[0]) want.push([part, 0, at.start, 1]);
      else for (let p = part.firstChild(0); p >= 0; p = part.nextSibling(p)) want.push([part, p, at.start]);
    }
  }
  if (!placed) return 'no old top-level node was replaced';
  const got: number[] = [];
  for (let c = tree.firstChild(0); c >= 0; c = tree.nextSibling(c)) got.push(c);
  if (got.length !== want.length) return `${got.length} top-level nodes, ${want.length} wanted`;
  if (tree.typeId[0] !== before.typeId[0] || tree.start[0] !== before.start[0] || tree.end[0] !== tree.source.length || tree.subtreeEnd[0] !== tree.length) return 'the root differs';
  // (The statement parsed alone may have an error none of its nodes holds: a hidden MISSING token.)
  if (tree.rootNode.hasError !== (want.some(([t, n]) => t.hasError(n)) || part.hasError(0))) return 'the root has the wrong error flag';
  let next = 1;
  for (let k = 0; k < got.length; k++) {
    const [t, o, moved, deeper = 0] = want[k];
    const n = got[k];
    if (n !== next) return `top-level node ${k} is at ${n}, not ${next}`;
    if (tree.parentOf[n] !== 0 || tree.prevSibling(n) !== (k ? got[k - 1] : -1) || tree.fieldId[n] !== t.fieldId[o]) return `top-level node ${k} is linked wrongly`;
    const move = n - o;
    for (let i = o; i < t.subtreeEnd[o]; i++) {
      const j = i + move;
      const link = (x: number, y: number) => (x < 0 ? y < 0 : x + move === y);
      if (t.typeId[i] !== tree.typeId[j] || t.flags[i] !== tree.flags[j] || t.start[i] + moved !== tree.start[j] || t.end[i] + moved !== tree.end[j] || t.depth[i] + deeper !== tree.depth[j] || t.subtreeEnd[i] + move !== tree.subtreeEnd[j]) return `node ${j} (${tree.node(j)!.toString()}) differs: ${JSON.stringify([t.typeId[i], t.flags[i], t.start[i] + moved, t.end[i] + moved, t.depth[i] + deeper, t.subtreeEnd[i] + move])} wanted, ${JSON.stringify([tree.typeId[j], tree.flags[j], tree.start[j], tree.end[j], tree.depth[j], tree.subtreeEnd[j]])} found`;
      if (i > o && (t.fieldId[i] !== tree.fieldId[j] || t.parentOf[i] + move !== tree.parentOf[j] || !link(t.nextSibling(i), tree.nextSibling(j)) || !link(t.prevSibling(i), tree.prevSibling(j)))) return `node ${j} is linked wrongly`;
      if (!link(t.firstChild(i), tree.firstChild(j)) || !link(t.lastChild(i), tree.lastChild(j))) return `node ${j}'s children are linked wrongly`;
    }
    next = t.subtreeEnd[o] + move;
  }
  return next === tree.length ? undefined : `${tree.length - next} nodes too many`;
}

const SNIPPETS = [
  'x',
  '(',
  ')',
  ':',
  '"',
  "'",
  '{',
  '}',
  ' ',
  '\n',
  '\r\n',
  '\r',
  '\t',
  'é',
  '€',
  '\u{1F600}',
  '中文',
  '    ',
  'def f(a, b):\n    return a\n',
  'function g(x: number) {\n  return x;\n}\n',
  'client.messages.create(model="claude", messages=[{"role": "user", "content": "hi"}])\n',
  'if True:\n',
  '/* ',
  '"""',
  '`${',
  'café = "naïve 😀"\r\n',
];

/** One random edit, as an editor would make it; `others` are texts to paste from. */
function edit(text: string, rng: Rng, others: readonly string[]): string {
  const at = rng.int(0, text.length);
  const lineStart = (i: number) => text.lastIndexOf('\n', i - 1) + 1;
  const lineEnd = (i: number) => {
    const e = text.indexOf('\n', i);
    return e < 0 ? text.length : e + 1;
  };
  switch (rng.int(0, 7)) {
    case 0: // type a character or a short token
      return text.slice(0, at) + rng.pick(SNIPPETS) + text.slice(at);
    case 1: // backspace
      return at > 0 ? text.slice(0, at - 1) + text.slice(at) : text.slice(1);
    case 2: // delete a line
      return text.slice(0, lineStart(at)) + text.slice(lineEnd(at));
    case 3: {
      // paste a block copied from this file or another one
      const from = rng.chance(0.5) ? text : rng.pick(others);
      const s = rng.int(0, from.length);
      return text.slice(0, at) + from.slice(s, s + rng.int(1, 400)) + text.slice(at);
    }
    case 4: {
      // replace a selection
      const end = Math.min(text.length, at + rng.int(1, 60));
      return text.slice(0, at) + rng.pick(SNIPPETS) + text.slice(end);
    }
    case 5: {
      // delete a selection, often across lines
      const end = Math.min(text.length, at + rng.int(1, 300));
      return text.slice(0, at) + text.slice(end);
    }
    case 6: // duplicate a line
      return text.slice(0, lineEnd(at)) + text.slice(lineStart(at), lineEnd(at)) + text.slice(lineEnd(at));
    default: {
      // the line endings of a line become CRLF, or an indentation changes
      const s = lineStart(at);
      const e = lineEnd(at);
      const line = text.slice(s, e);
      const changed = rng.chance(0.5) ? line.replace(/\n$/, '\r\n') : rng.chance(0.5) ? '  ' + line : line.replace(/^\s/, '');
      return text.slice(0, s) + changed + text.slice(e);
    }
  }
}

/** Every fixture and example as an editor buffer; a notebook is its code cells, as Python. */
function buffers(): EditorBuffer[] {
  return editorBuffers([FIXTURES, path.join(ROOT, 'examples')]);
}

const EDITS_PER_FILE = 4;

function workspaceOf(analyzer: Analyzer): Workspace {
  return (analyzer as unknown as { workspace: Workspace }).workspace;
}

/**
 * What `analyzer` (a fresh one) reports for `text` read as `tree` reads it: a copy of that tree,
 * with no node views or caches. For a buffer whose tree was spliced around a statement with a
 * syntax error, which a parse of the whole text may read otherwise.
 */
function analysisAs(analyzer: Analyzer, file: string, text: string, language: LanguageId, tree: Tree, options?: Parameters<Analyzer['analyze']>[3]): FileResult {
  const p = (workspaceOf(analyzer) as unknown as { parsers: Parsers }).parsers;
  const { parse, parseEdited } = p;
  // An analyzer parses an editor buffer with parseEdited, a file from disk with parse.
  p.parse = (lang, t) => (t === text ? new SyntaxTree(tree.source, tree.grammar, tree) : parse.call(p, lang, t));
  p.parseEdited = (lang, t, previous) => (t === text ? (previous?.release(), new SyntaxTree(tree.source, tree.grammar, tree)) : parseEdited.call(p, lang, t, previous));
  try {
    return analyzer.analyze(file, text, language, options);
  } finally {
    p.parse = parse;
    p.parseEdited = parseEdited;
  }
}

/** What a result says, without the parts that name their objects. */
function summary(r: FileResult): unknown {
  return { diagnostics: r.diagnostics, notice: r.notice, noticeKind: r.noticeKind };
}

describe('incremental parsing', () => {
  it('reports edits in UTF-16 code units, with the rows and columns tree-sitter keeps for its nodes', () => {
    const change = textChange('a\u{1F600}b\r\nc = "é"\n', 'a\u{1F600}b\r\nc = "éé"\n')!;
    expect({ start: change.startIndex, oldEnd: change.oldEndIndex, newEnd: change.newEndIndex }).toEqual({ start: 12, oldEnd: 12, newEnd: 13 });
    expect([change.startPosition, change.oldEndPosition, change.newEndPosition]).toEqual([
      { row: 1, column: 6 },
      { row: 1, column: 6 },
      { row: 1, column: 7 },
    ]);
    // A change inside a surrogate pair takes the whole character.
    const pair = textChange('x = "\u{1F600}"', 'x = "\u{1F601}"')!;
    expect([pair.startIndex, pair.oldEndIndex, pair.newEndIndex]).toEqual([5, 7, 7]);

    // The convention comes from tree-sitter itself: its columns count UTF-16 code units, as
    // its indexes do (UTF-8 would put `y` at column 13).
    const probe = parsers.parser('python').parse('x = "\u{1F600}" + y\n')!;
    try {
      const y = probe.rootNode.descendantForIndex(11)!;
      expect([y.text, y.startIndex, y.startPosition]).toEqual(['y', 11, { row: 0, column: 11 }]);
    } finally {
      probe.delete();
    }

    // Every node of a tree parsed from an edited tree must have the positions a parse from
    // scratch gives it. (A weak check of the columns: tree-sitter lexes again every token an
    // edit touches and works out positions from the tokens, so wrong columns rarely show. Rows
    // matter more, to Python's indentation; they count '\n' only, on both sides.)
    const cases: Array<[LanguageId, string, string]> = [
      ['python', 'é = "😀"\nx = 1\ndef f():\n    return "ü€"\n', 'é = "😀😀"; y = 2\nx = 1\ndef f():\n    return "ü€"\n'],
      ['python', 'a = "中文"\r\nb = 2\r\n', 'a = "中文中"\r\nb = 22\r\n'],
      ['typescript', 'const s = "ü";\nconst t = `😀${s}`;\n', 'const s = "üü";\nconst t = `😀${s}😀`;\nlet u = 1;\n'],
      ['python', 'x = "😀"\nif x:\n    y = 1\n    z = 2\n', 'x = "😀"\nif x:\n    y = "é"\n    z = 2\n'],
    ];
    for (const [lang, before, after] of cases) {
      const parser = parsers.parser(lang);
      const old = parser.parse(before)!;
      old.edit(parsers.edit(textChange(before, after)!));
      const incremental = parser.parse(after, old)!;
      const scratch = parser.parse(after)!;
      try {
        expect(positions(incremental)).toEqual(positions(scratch));
      } finally {
        old.delete();
        incremental.delete();
        scratch.delete();
      }
    }
  });

  it('builds the trees tree-sitter gives and the findings a fresh analyzer reports, edit after edit', async () => {
    const all = buffers();
    expect(all.length).toBeGreaterThan(100);
    const texts = all.map((b) => b.text);
    const workspace = new Workspace(parsers, diskHost());
    const incremental = await Analyzer.create({ host: diskHost() });
    // One fresh analyzer per edit number: each sees a buffer once, at that edit (a new
    // analyzer per edit would load the grammars thousands of times). After the analysis the
    // buffer is dropped, so other files read it from disk, as they would in a new analyzer.
    const fresh: Analyzer[] = [];
    for (let k = 0; k < EDITS_PER_FILE; k++) fresh.push(await Analyzer.create({ host: diskHost() }));
    const rng = new Rng(20261129);
    let edits = 0;
    let recoveredOtherwise = 0;
    let reused = 0;
    let nodes = 0;
    const spliced = { clean: 0, 'with-error': 0 };
    const failures: string[] = [];
    for (const b of all) {
      let text = b.text;
      let previous = workspace.setText(b.file, text, b.language).tree;
      incremental.analyze(b.file, text, b.language);
      for (let k = 0; k < EDITS_PER_FILE && failures.length < 5; k++) {
        text = edit(text, rng, texts);
        edits++;
        const where = `${path.relative(ROOT, b.file)} after edit ${k + 1}`;
        // The language server drops a buffer's analysis on every change before analysing it again.
        if (rng.chance(0.5)) workspace.invalidate(b.file);
        const tree = workspace.setText(b.file, text, b.language).tree;
        const before = previous;
        previous = tree;
        reused += tree.reusedNodes;
        nodes += tree.length;
        const scratch = parsers.parse(b.language, text);
        // (An edit that changes nothing leaves the tree as it is.)
        if (tree.spliced && tree !== before) spliced[tree.spliced]++;
        if (tree.spliced === 'with-error') {
          // The statement parsed alone, the rest as it was: checked against building that from the parts.
          const problem = tree === before ? undefined : spliceDifference(before, tree, b.language);
          if (problem) failures.push(`${where}: ${problem} (against the statement parsed alone and the rest as before)\n${JSON.stringify(text)}`);
          if (problem && process.env.DBG) fs.writeFileSync(`/tmp/sx/fail-${failures.length}.json`, JSON.stringify({ before: before.source, beforeSpliced: before.spliced, beforeError: before.rootNode.hasError, after: text, lang: b.language }));
          continue;
        }
        // A spliced tree has no WASM tree of its own text, nor one parsed from the language's rewrite
        // of it (StatementSyntax.reread, not kept for the next version); one read from a WASM tree
        // must equal reading it node by node.
        const copying = tree.spliced || !tree.wasmTree ? undefined : difference(tree, new SyntaxTree(tree.source, tree.grammar, tree.wasmTree));
        if (copying) failures.push(`${where}: ${copying} (against reading the same WASM tree)\n${JSON.stringify(text)}`);
        // Against a parse from scratch. Where the text has syntax errors, tree-sitter may
        // recover from them differently when it parses from an old tree (error recovery
        // depends on the subtrees at hand): allowed, and counted. Without errors, and for a
        // statement spliced in as it parsed alone without an error, never.
        const problem = difference(tree, scratch);
        if (problem && (tree.spliced || !(scratch.rootNode.hasError && tree.rootNode.hasError))) failures.push(`${where}: ${problem}${tree.spliced ? ' (spliced)' : ''}\n${JSON.stringify(text)}`);
        if (problem && process.env.DBG) fs.writeFileSync(`/tmp/sx/fail-${failures.length}.json`, JSON.stringify({ before: before.source, beforeSpliced: before.spliced, beforeError: before.rootNode.hasError, after: text, lang: b.language })); 
        if (problem) {
          recoveredOtherwise++;
          continue;
        }
        if (rng.chance(0.5)) incremental.invalidate(b.file);
        const got = summary(incremental.analyze(b.file, text, b.language));
        // The incremental analyzer has seen only some of the versions: its own splice may have an error in it, and a fresh analysis then reads the text as it does.
        const read = workspaceOf(incremental).get(b.file)?.tree;
        const want = summary(read?.spliced === 'with-error' ? analysisAs(fresh[k], b.file, text, b.language, read) : fresh[k].analyze(b.file, text, b.language));
        fresh[k].invalidate(b.file);
        if (JSON.stringify(got) !== JSON.stringify(want)) failures.push(`${where}: findings differ\n${read?.spliced}\n${JSON.stringify((got as {diagnostics: {ruleId: string; at: unknown}[]}).diagnostics.map((d) => [d.ruleId, d.at]))}\n${JSON.stringify((want as {diagnostics: {ruleId: string; at: unknown}[]}).diagnostics.map((d) => [d.ruleId, d.at]))}\n${JSON.stringify(text)}`);
      }
      // Other buffers import this file from disk.
      workspace.invalidate(b.file);
      incremental.invalidate(b.file);
    }
    expect(failures).toEqual([]);
    // A few in a thousand (3 of 1,816 edits here).
    expect(recoveredOtherwise / edits).toBeLessThan(0.01);
    // Both kinds of splice were exercised.
    expect(spliced.clean).toBeGreaterThan(100);
    expect(spliced['with-error']).toBeGreaterThan(100);
    // The copying must have been exercised: 54% of the nodes were copied (fewer than in an
    // editor, as these files are small and the first edit of each has no ids to match yet).
    expect(reused / nodes).toBeGreaterThan(0.4);
  }, 60_000);

  it('takes over the node views of what an edit leaves alone, equal to the views made afresh', async () => {
    const all = buffers();
    const texts = all.map((b) => b.text);
    const analyzer = await Analyzer.create({ host: diskHost() });
    const workspace = (analyzer as unknown as { workspace: Workspace }).workspace;
    const rng = new Rng(20261202);
    let adopted = 0;
    let compared = 0;
    const failures: string[] = [];
    /** A view as text, its nodes as their index (and whether they belong to `tree`). */
    const key = (view: unknown, tree: Tree) => JSON.stringify(view, (_, x: unknown) => (x instanceof SyntaxNode ? `${x.tree === tree ? '' : 'another tree '}#${x.index}` : x));
    for (const b of all) {
      let text = b.text;
      analyzer.analyze(b.file, text, b.language);
      for (let k = 0; k < 3 && failures.length < 5; k++) {
        const before = workspace.get(b.file)?.tree;
        const viewed = new Set<SyntaxNode>();
        for (let i = 0; before && i < before.length; i++) {
          const n = before.madeNode(i);
          if (n && (n.exprView !== undefined || n.functionView !== undefined || n.indexView !== undefined)) viewed.add(n);
        }
        // Every other edit changes one letter to another: the text changes but no offset does,
        // the case where only the text tells a statement parsed again from the old one.
        if (k % 2) text = edit(text, rng, texts);
        else {
          const letters = [...text.matchAll(/[a-z]/g)];
          const at = letters.length ? letters[rng.int(0, letters.length - 1)].index : -1;
          if (at >= 0) text = text.slice(0, at) + (text[at] === 'x' ? 'y' : 'x') + text.slice(at + 1);
        }
        analyzer.invalidate(b.file);
        analyzer.analyze(b.file, text, b.language);
        const tree = workspace.get(b.file)?.tree;
        const scratch = parsers.parse(b.language, text);
        // Where tree-sitter recovered from errors otherwise, the trees (and so the views) may differ.
        if (!tree || difference(tree, scratch)) continue;
        const adapter = frontEndFor(b.language).adapter;
        const where = `${path.relative(ROOT, b.file)} after edit ${k + 1}`;
        for (let i = 0; i < tree.length; i++) {
          const n = tree.madeNode(i);
          if (!n) continue;
          if (n.tree !== tree || n.index !== i) failures.push(`${where}: node ${i} is node ${n.index} of ${n.tree === tree ? 'this' : 'another'} tree`);
          if (viewed.has(n)) adopted++;
          if (n.exprView !== undefined) {
            compared++;
            const fresh = key(adapter.expr(scratch.node(i)!), scratch);
            if (key(n.exprView, tree) !== fresh) failures.push(`${where}: the view of ${n.toString()} is ${key(n.exprView, tree)}, made afresh ${fresh}`);
          }
          if (n.indexView !== undefined) {
            compared++;
            const x = scratch.node(i)!;
            const mutation = adapter.mutation(x);
            const fresh = key({ declares: adapter.declares(x), call: adapter.isCall(x), ...(mutation ? { mutation } : {}), ...(adapter.isScope(x) ? { params: adapter.params(x) } : {}) }, scratch);
            if (key(n.indexView, tree) !== fresh) failures.push(`${where}: the index view of ${n.toString()} is ${key(n.indexView, tree)}, made afresh ${fresh}`);
          }
          if (n.functionView !== undefined) {
            compared++;
            const fresh = key(adapter.functionInfo(scratch.node(i)!), scratch);
            if (key(n.functionView, tree) !== fresh) failures.push(`${where}: the function view of ${n.toString()} is ${key(n.functionView, tree)}, made afresh ${fresh}`);
          }
        }
      }
      analyzer.invalidate(b.file);
    }
    expect(failures).toEqual([]);
    // Views were taken over and checked (most nodes keep theirs from one keystroke to the next).
    expect(adopted).toBeGreaterThan(20_000);
    expect(compared).toBeGreaterThan(50_000);
  }, 120_000);

  it('parses only the statement an edit is in, when that reads the text as a whole parse would', () => {
    /** The tree after editing `before` into `after`, with the way it was made, and whether it equals a parse from scratch. */
    const typed = (language: LanguageId, before: string, after: string) => {
      let tree = parsers.parseEdited(language, before);
      tree = parsers.parseEdited(language, after, parsers.parseEdited(language, before, parsers.parseEdited(language, before + ' ', tree)));
      const same = difference(tree, parsers.parse(language, after)) === undefined;
      tree.release();
      return { spliced: tree.spliced, same };
    };
    // (A statement that is most of its file is parsed with the file: more statements around.)
    const others = (comment: string) => Array.from({ length: 8 }, (_, i) => `${comment} helper ${i}\n`).join('');
    const py = `import os\n\n\ndef load(path):\n    try:\n        return open(path).read()\n    except OSError:\n        return ""\n\n\nx = 1  # one\n${others('#')}`;
    // A keyword half typed: the function alone has the error, the rest is kept.
    expect(typed('python', py, py.replace('    try:', '    trefry:'))).toMatchObject({ spliced: 'with-error' });
    // Typing inside a name: the statement alone reads as the whole text would.
    expect(typed('python', py, py.replace('open(path)', 'open(paths)'))).toEqual({ spliced: 'clean', same: true });
    // A comment typed at the end of a statement takes in the rest of the line, comment and all.
    expect(typed('python', py, py.replace('x = 1  #', 'x = 1#  #'))).toEqual({ spliced: 'clean', same: true });
    // A line break typed into a quoted string: alone, Python's scanner reads one string; in the
    // whole text, an error. The whole is parsed (as is a string that already runs over lines).
    const call = `import os\n\n\ndef send(client):\n    return client.create(cache={"type": "ephemeral"}, tag='a')\n\n\nx = 1\n${others('#')}`;
    expect(typed('python', call, call.replace('"epheme', '"epheme\n'))).toEqual({ spliced: undefined, same: true });
    expect(typed('python', call.replace('"epheme', '"epheme\n'), call.replace('"epheme', '"epheme\nx'))).toEqual({ spliced: undefined, same: true });
    // Triple quotes may run over lines: the statement alone reads as the whole text does.
    const doc = `import os\n\n\ndef send(client):\n    return client.create(system="""Be brief.""")\n\n\nx = 1\n${others('#')}`;
    expect(typed('python', doc, doc.replace('Be brief.', 'Be\nbrief.'))).toEqual({ spliced: 'clean', same: true });
    const ts = `const a = b;\n(run)();\nconst c = d;\nfoo();\n${others('//')}`;
    // Without the semicolon the next line's `(` calls `b`: not the statement alone.
    expect(typed('typescript', ts, ts.replace('b;', 'b'))).toEqual({ spliced: undefined, same: true });
    // A name on the next line starts a statement of its own.
    expect(typed('typescript', ts, ts.replace('d;', 'd'))).toEqual({ spliced: 'clean', same: true });
    // `in` on the next line goes on with the expression.
    const inTs = `const k = key;\nin_list;\n${others('//')}`;
    expect(typed('typescript', inTs, inTs.replace('in_list', 'in list'))).toMatchObject({ same: true });
    expect(typed('typescript', `let x = y;\nlet z = w;\nin\n${others('//')}`, `let x = y;\nlet z = ww\nin\n${others('//')}`)).toMatchObject({ same: true });
  });

  it("keeps tree-sitter's error flag for a MISSING token no cursor visits, whole and spliced", () => {
    // `x = load() a`: tree-sitter ends the assignment with a hidden MISSING `_newline`, an
    // error of the module that none of its visible nodes shows.
    const others = Array.from({ length: 8 }, (_, i) => `# helper ${i}\n`).join('');
    const broken = `import os\nx = load() a\n\n\ndef load(path):\n    return open(path).read()\n${others}`;
    const whole = parsers.parse('python', broken);
    expect(whole.rootNode.hasError).toBe(true);
    expect(whole.rootNode.children.some((c) => c.hasError)).toBe(false);
    // An edit in another statement: the error stays (the text is parsed whole, not spliced).
    let tree = parsers.parseEdited('python', broken);
    tree = parsers.parseEdited('python', broken.replace('open(path)', 'open(paths)'), tree);
    expect(tree.rootNode.hasError).toBe(true);
    tree.release();
    // The edit that makes the error, typed into a clean text: the spliced tree has it too.
    const clean = broken.replace('load() a', 'load()');
    tree = parsers.parseEdited('python', clean);
    expect(tree.rootNode.hasError).toBe(false);
    tree = parsers.parseEdited('python', broken, parsers.parseEdited('python', clean + ' ', tree));
    expect(tree.rootNode.hasError).toBe(true);
    tree.release();
  });

  it('frees every kept WASM tree once its file is edited again, pushed out or evicted', () => {
    const before = keptWasmTreeCount();
    const files = new Map<string, string>();
    for (let i = 0; i < 80; i++) files.set(`/w/m${i}.py`, `x${i} = ${i}\n`);
    const workspace = new Workspace(parsers, { readFile: (p) => files.get(p) });

    // One kept tree per buffer, however often it changes or is invalidated.
    for (let i = 0; i < 5; i++) {
      workspace.setText('/w/buffer.py', `a = ${'1'.repeat(i)}\n`);
      if (i % 2) workspace.invalidate('/w/buffer.py');
    }
    expect(keptWasmTreeCount()).toBe(before + 1);

    // A few buffers keep theirs; older ones are freed.
    for (let i = 0; i < 20; i++) workspace.setText(`/w/b${i}.ts`, `let b${i} = ${i};\n`);
    expect(keptWasmTreeCount()).toBe(before + 8);

    // Files read from disk keep none, and as they evict the buffers' units the trees go too.
    for (const f of files.keys()) workspace.get(f);
    expect(keptWasmTreeCount()).toBe(before);

    // A tree given as the previous one is freed even when it cannot be used (another language).
    const py = parsers.parseEdited('python', 'x = 1\n');
    expect(py.reusable).toBe(false);
    expect(py.wasmTree).toBeDefined();
    const next = parsers.parseEdited('python', 'x = 12\n', py);
    expect(next.reusable).toBe(true);
    const ts = parsers.parseEdited('typescript', 'let x = 12;\n', next);
    expect([py.wasmTree, next.wasmTree, next.reusable]).toEqual([undefined, undefined, false]);
    ts.release();
    ts.release();
    expect(keptWasmTreeCount()).toBe(before);
  });

  it('analyses a buffer being typed in from the kept trees without leaking them', async () => {
    const analyzer = await Analyzer.create();
    const before = keptWasmTreeCount();
    let text = 'import anthropic\nclient = anthropic.Anthropic()\n';
    for (const ch of 'r = client.messages.create(model="claude-sonnet-4-6", max_tokens=10, messages=[])\n') {
      text += ch;
      analyzer.invalidate('/w/typing.py');
      analyzer.analyze('/w/typing.py', text);
    }
    expect(keptWasmTreeCount()).toBe(before + 1);
    expect(summary(analyzer.analyze('/w/typing.py', text))).toEqual(summary((await Analyzer.create()).analyze('/w/typing.py', text)));
  });
});

/** Type, range and points of every node of a WASM tree, in pre-order. */
function positions(tree: WasmTree): string[] {
  const out: string[] = [];
  const visit = (n: WasmNode) => {
    out.push(`${n.type} ${n.startIndex}-${n.endIndex} ${n.startPosition.row}:${n.startPosition.column}-${n.endPosition.row}:${n.endPosition.column}`);
    for (const c of n.children) visit(c);
  };
  visit(tree.rootNode);
  return out;
}

/**
 * The language server as an editor drives it, on the 3,000-line files of the editor benchmark
 * (bench/corpus.ts), in Python and TypeScript: bursts of typing as the benchmark types, and
 * the random edits above (pastes, deleted lines, syntax errors), each sent as an incremental
 * change. After each one the server's diagnostics must be exactly those of a fresh full
 * analysis of the same text (a new parse, no kept tree or view, the configuration the server
 * resolves): the incremental parse, the trees and views taken over from the previous text and
 * everything cached between keystrokes change nothing the user sees.
 */
describe('the language server, keystroke after keystroke, on the editor benchmark files', () => {
  const EDITS = 80;

  for (const language of ['python', 'typescript'] as const) {
    it(`reports what a fresh full analysis reports (${language})`, async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'prefixlint-keystrokes-'));
      fs.mkdirSync(path.join(dir, '.git'));
      const file = path.join(dir, language === 'python' ? 'editor.py' : 'editor.ts');
      const original = editorFile(language, 20261129);
      fs.writeFileSync(file, original);
      const client = new Client();
      try {
        await client.initialize({ root: dir });
        const uri = await client.open(file, original);
        const host = new DiskHost({ cache: false, overlay: (f) => (f === file ? text : undefined) });
        const config = new Configuration(host);
        // A full analysis each time: no tree is kept for a next parse (as in a command-line run).
        const fresh = await Analyzer.create({ host, textsFromHost: true });
        // The same parses the server makes, to tell where tree-sitter recovers from errors otherwise when it parses from the old tree.
        const trees = new Workspace(parsers, host);
        let text = original;
        trees.setText(file, text, language);
        const rng = new Rng(language === 'python' ? 20261203 : 20261204);
        const typing = editScript(original, new BenchRng(20261205), EDITS);
        const others = buffers().map((b) => b.text);
        let version = 1;
        let compared = 0;
        let recoveredOtherwise = 0;
        let splicedWithError = 0;
        const failures: string[] = [];
        /** Where a random edit is undone: the text before it. */
        let undo: string | undefined;
        let last = await client.diagnostics(uri);
        for (let k = 0; k < EDITS && failures.length < 3; k++) {
          // Typing as the benchmark types it; or a random edit, then its undo (so that one broken
          // edit does not leave the rest of the file broken for every edit after it).
          let next: string;
          if (undo !== undefined) {
            next = undo;
            undo = undefined;
          } else if (k % 4 < 2) {
            const t = typing[k];
            next = text.slice(0, t.start) + t.text + text.slice(t.end);
          } else if (k % 8 === 2) {
            // One letter for another: no offset moves (the statements after a syntax error are
            // then told from the old ones by their text alone).
            // Mostly inside what a finding flags, where the letter decides the finding.
            undo = text;
            const doc = TextDocument.create(uri, 'x', 0, text);
            const flagged = last.map((d) => [doc.offsetAt(d.range.start), doc.offsetAt(d.range.end)]);
            const letters = [...text.matchAll(/[a-z]/g)].map((m) => m.index);
            const inFlagged = letters.filter((i) => flagged.some(([a, b]) => a <= i && i < b));
            const pool = inFlagged.length && rng.chance(0.7) ? inFlagged : letters;
            const at = pool[rng.int(0, pool.length - 1)];
            next = text.slice(0, at) + (text[at] === 'x' ? 'y' : 'x') + text.slice(at + 1);
          } else {
            undo = text;
            next = edit(text, rng, others);
          }
          const change = textChange(text, next);
          version++;
          if (change) {
            await client.conn.sendNotification('textDocument/didChange', {
              textDocument: { uri, version },
              contentChanges: [{ range: { start: lsp(change.startPosition), end: lsp(change.oldEndPosition) }, text: next.slice(change.startIndex, change.newEndIndex) }],
            });
          }
          text = next;
          const got = (await client.conn.sendRequest<{ items: LspDiagnostic[] }>('textDocument/diagnostic', { textDocument: { uri } })).items;
          last = got;
          const tree = trees.setText(file, text, language).tree;
          // A statement with a syntax error spliced into the rest as it was: a fresh analysis reads the text as that tree does.
          const asRead = tree.spliced === 'with-error';
          if (asRead) splicedWithError++;
          else if (difference(tree, parsers.parse(language, text))) {
            recoveredOtherwise++;
            continue;
          }
          const fileConfig = config.configFor(file, {});
          const result = asRead ? analysisAs(fresh, file, text, language, tree, fileConfig.analyze) : fresh.analyze(file, text, language, fileConfig.analyze);
          fresh.invalidate(file);
          const doc = TextDocument.create(uri, LANGUAGE_IDS[path.extname(file)], version, text);
          const want = toLspDiagnostics(new DocumentUnit(doc, language), result.diagnostics, { lookup: (f) => (f === file ? { uri, text } : undefined) }).get(uri) ?? [];
          compared++;
          if (JSON.stringify(comparable(got)) !== JSON.stringify(comparable(want))) failures.push(`after edit ${k + 1}: the server reports ${JSON.stringify(comparable(got))}\na fresh analysis ${JSON.stringify(comparable(want))}\n${JSON.stringify(text.slice(Math.max(0, (change?.startIndex ?? 0) - 80), (change?.newEndIndex ?? 0) + 80))}`);
        }
        expect(failures).toEqual([]);
        // Tree-sitter's own recovery differs from a fresh parse rarely; nearly every edit is compared.
        expect(compared).toBeGreaterThan(EDITS * 0.8);
        expect(recoveredOtherwise).toBeLessThan(EDITS * 0.2);
        // Statements were typed into with syntax errors (a keyword half typed) and read alone.
        expect(splicedWithError).toBeGreaterThan(5);
      } finally {
        await client.dispose();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    }, 240_000);
  }
});

/** A tree-sitter point as an LSP position (both count UTF-16 code units). */
function lsp(p: { row: number; column: number }): { line: number; character: number } {
  return { line: p.row, character: p.column };
}

/** What the diagnostics say (the documents' versions in `data` aside). */
function comparable(list: readonly LspDiagnostic[]): unknown[] {
  return list.map((d) => ({ ...d, data: { ...(d.data as object), versions: undefined } }));
}
