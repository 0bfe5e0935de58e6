/**
 * The trees the analysis reads (src/lang/syntaxTree.ts) against tree-sitter itself: for every
 * fixture and example, whole and cut short (to get ERROR and MISSING nodes), every node must
 * have the type, range, named-ness, MISSING and error flags, parent, children, fields and
 * `descendantForIndex` answers that web-tree-sitter gives for the same text.
 */
import * as path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Node as WasmNode, Tree as WasmTree } from 'web-tree-sitter';
import type { LanguageId } from '../src/core/model';
import { languageForPath, Parsers } from '../src/lang/parsers';
import type { Node } from '../src/lang/parsers';
import { readTreesFromMemory, treeReading } from '../src/lang/syntaxTree';
import { FIXTURES, ROOT } from './helpers';
import { collectInputs, Rng } from './robustness/fuzz';

let parsers: Parsers;
beforeAll(async () => {
  parsers = await Parsers.load();
});

interface RawNode {
  node: WasmNode;
  field: string | null;
  depth: number;
}

/** tree-sitter's own pre-order, with each node's field name from the cursor. */
function rawNodes(tree: WasmTree): RawNode[] {
  const out: RawNode[] = [];
  const cursor = tree.walk();
  let depth = 0;
  let descending = true;
  for (;;) {
    if (descending) {
      out.push({ node: cursor.currentNode, field: cursor.currentFieldName, depth });
      if (cursor.gotoFirstChild()) {
        depth++;
        continue;
      }
    }
    if (cursor.gotoNextSibling()) {
      descending = true;
      continue;
    }
    if (!cursor.gotoParent()) break;
    depth--;
    descending = false;
  }
  cursor.delete();
  return out;
}

/** The indexes of the children of node i's parent, in order, from the pre-order and depths. */
function rawChildren(r: RawNode[], i: number): number[] {
  let p = i - 1;
  while (p >= 0 && r[p].depth >= r[i].depth) p--;
  const out: number[] = [];
  for (let j = p + 1; j < r.length && r[j].depth > r[p].depth; j++) if (r[j].depth === r[p].depth + 1) out.push(j);
  return out;
}

function ours(tree: { rootNode: Node }): Node[] {
  const out: Node[] = [];
  tree.rootNode.forEachDescendant((n) => out.push(n));
  return out;
}

/** Differences between the two trees of one text, as readable lines (empty when they agree). */
function compare(lang: LanguageId, text: string, rng: Rng): string[] {
  const problems: string[] = [];
  const raw = parsers.parser(lang).parse(text)!;
  try {
    const mine = parsers.parse(lang, text);
    const r = rawNodes(raw);
    const m = ours(mine);
    if (r.length !== m.length) return [`${r.length} nodes in tree-sitter, ${m.length} here`];
    const indexOfRaw = new Map<number, number>();
    r.forEach((x, i) => indexOfRaw.set(x.node.id, i));
    const indexOfMine = (n: Node | null) => (n ? n.index : -1);
    const rawIndex = (n: WasmNode | null) => (n ? (indexOfRaw.get(n.id) ?? -2) : -1);
    for (let i = 0; i < r.length && problems.length < 5; i++) {
      const a = r[i].node;
      const b = m[i];
      const where = `node ${i} (${a.type} ${a.startIndex}-${a.endIndex})`;
      const same = (what: string, x: unknown, y: unknown) => {
        if (x !== y) problems.push(`${where}: ${what} is ${String(x)} in tree-sitter, ${String(y)} here`);
      };
      same('type', a.type, b.type);
      same('start', a.startIndex, b.startIndex);
      same('end', a.endIndex, b.endIndex);
      same('isNamed', a.isNamed, b.isNamed);
      same('isMissing', a.isMissing, b.isMissing);
      same('isError', a.isError, b.isError);
      same('hasError', a.hasError, b.hasError);
      same('field', r[i].field, b.fieldName);
      same('depth', r[i].depth, mine.depth[b.index]);
      // `parent` of a zero-width node can send tree-sitter into endless recursion; skip those.
      if (a.startIndex !== a.endIndex) same('parent', rawIndex(a.parent), indexOfMine(b.parent));
      same('children', a.children.map((c) => rawIndex(c)).join(','), b.children.map(indexOfMine).join(','));
      same('namedChildren', a.namedChildren.map((c) => rawIndex(c)).join(','), b.namedChildren.map(indexOfMine).join(','));
      // Siblings follow the parent's list of children. (tree-sitter's own nextSibling can
      // disagree with that list inside error recovery, where it skips out of hidden nodes.)
      const siblings = r[i].depth > 0 ? rawChildren(r, i) : [];
      const k = siblings.indexOf(i);
      same('nextSibling', k >= 0 && k + 1 < siblings.length ? siblings[k + 1] : -1, indexOfMine(b.nextSibling));
      const namedBefore = siblings.slice(0, Math.max(0, k)).filter((j) => r[j].node.isNamed);
      same('previousNamedSibling', namedBefore.length ? namedBefore[namedBefore.length - 1] : -1, indexOfMine(b.previousNamedSibling));
      same('text', a.text, b.text);
      same('textIs(text)', true, mine.textIs(b.index, a.text));
      same('textIs(text + "x")', false, mine.textIs(b.index, `${a.text}x`));
      same('textIs(text without its last character)', a.text.length === 0, mine.textIs(b.index, a.text.slice(0, -1)));
      const fields = new Set(a.children.map((_, k) => a.fieldNameForChild(k)).filter((f): f is string => !!f));
      fields.add('nonexistent_field');
      for (const f of fields) {
        same(`childForFieldName(${f})`, rawIndex(a.childForFieldName(f)), indexOfMine(b.childForFieldName(f)));
        same(`fieldChildIndex(${f})`, rawIndex(a.childForFieldName(f)), b.fieldChildIndex(f));
        same(`childrenForFieldName(${f})`, a.childrenForFieldName(f).map((c) => rawIndex(c)).join(','), b.childrenForFieldName(f).map(indexOfMine).join(','));
      }
    }
    for (let k = 0; k < 40 && problems.length < 5; k++) {
      const start = rng.int(0, text.length);
      const end = rng.chance(0.5) ? start : Math.min(text.length, start + rng.int(0, 40));
      const x = rawIndex(raw.rootNode.descendantForIndex(start, end));
      const y = indexOfMine(mine.rootNode.descendantForIndex(start, end));
      if (x !== y) problems.push(`descendantForIndex(${start}, ${end}) is node ${x} in tree-sitter, ${y} here`);
    }
  } finally {
    raw.delete();
  }
  return problems;
}

describe('syntax trees read into JavaScript', () => {
  const inputs = collectInputs([FIXTURES, path.join(ROOT, 'examples')]).filter((x) => languageForPath(x.file));

  it('has inputs in every language', () => {
    expect(new Set(inputs.map((x) => languageForPath(x.file)))).toEqual(new Set(['python', 'typescript', 'tsx', 'javascript']));
  });

  it('agree with tree-sitter on every node of every fixture and example, whole and cut short', () => {
    const rng = new Rng(7);
    const problems: string[] = [];
    let withErrors = 0;
    for (const input of inputs) {
      const lang = languageForPath(input.file)!;
      const cut = input.text.slice(0, rng.int(1, Math.max(1, input.text.length - 1)));
      for (const [label, text] of [['whole', input.text], ['cut', cut]] as const) {
        if (label === 'cut' && parsers.parse(lang, text).rootNode.hasError) withErrors++;
        for (const p of compare(lang, text, rng)) problems.push(`${path.relative(ROOT, input.file)} (${label}): ${p}`);
      }
    }
    expect(problems.slice(0, 20)).toEqual([]);
    // The cut texts must really exercise error recovery.
    expect(withErrors).toBeGreaterThan(inputs.length / 2);
  });

  it("are read from the module's memory, and else with its cursor functions directly (the wrapper only if web-tree-sitter changes)", () => {
    // A deep tree grows the reader's levels, and the cursor's stack during the walk: the cursor is freed at its new address.
    const deep = `x = ${'['.repeat(400)}1${']'.repeat(400)}\n`;
    const tree = parsers.parse('python', deep);
    expect(treeReading()).toBe('memory');
    expect(tree.rootNode.hasError).toBe(false);
    expect(compare('python', deep, new Rng(3))).toEqual([]);
    readTreesFromMemory(false);
    try {
      parsers.parse('python', deep);
      expect(treeReading()).toBe('direct');
      expect(compare('python', deep, new Rng(3))).toEqual([]);
    } finally {
      readTreesFromMemory(true);
    }
  });

  it('find the first node of some types with a text as a walk that tests each node finds it, and make no view of the others', () => {
    const types: ReadonlySet<string> = new Set(['identifier', 'property_identifier', 'string']);
    let asked = 0;
    const problems: string[] = [];
    for (const input of inputs) {
      const lang = languageForPath(input.file)!;
      const walked = parsers.parse(lang, input.text);
      // Texts to look for: those of nodes of the types (found or not), and one no node has.
      const texts = new Set<string>(['no node has this text']);
      walked.rootNode.forEachNamedDescendant((n) => {
        if (types.has(n.type) && texts.size < 40) texts.add(n.text);
      });
      // A fresh tree for the searches: the only view a search may add is that of what it finds.
      const fresh = parsers.parse(lang, input.text);
      const views = () => {
        let n = 0;
        for (let i = 0; i < fresh.length; i++) if (fresh.madeNode(i)) n++;
        return n;
      };
      for (const from of [walked.rootNode, walked.rootNode.namedChildren[1], walked.rootNode.namedChildren[0]?.namedChildren[0]]) {
        if (!from) continue;
        const start = fresh.node(from.index)!;
        for (const text of texts) {
          let expected = -1;
          from.forEachNamedDescendant((n) => {
            if (expected < 0 && types.has(n.type) && n.text === text) expected = n.index;
          });
          const before = views();
          const hadView = expected >= 0 && fresh.madeNode(expected) !== undefined;
          const found = start.firstDescendantWithText(types, text);
          asked++;
          const where = `${path.relative(ROOT, input.file)}: "${text}" from node ${from.index}`;
          if ((found?.index ?? -1) !== expected) problems.push(`${where}: node ${found?.index} here, ${expected} by a walk`);
          if (found && found !== fresh.node(found.index)) problems.push(`${where}: not the node's one view`);
          const added = views() - before;
          if (added !== (expected >= 0 && !hadView ? 1 : 0)) problems.push(`${where}: ${added} views made`);
        }
      }
    }
    expect(problems.slice(0, 10)).toEqual([]);
    expect(asked).toBeGreaterThan(1000);
  });

  it('give each node one object, and ids unique across trees', () => {
    const a = parsers.parse('python', 'x = f(1)\n');
    const b = parsers.parse('python', 'x = f(1)\n');
    const call = a.rootNode.descendantForIndex(4, 8);
    expect(call.type).toBe('call');
    expect(call.parent?.childForFieldName('right')).toBe(call);
    expect(a.rootNode.id).not.toBe(b.rootNode.id);
    expect(call.startPosition).toEqual({ row: 0, column: 4 });
  });
});
