/**
 * Trees read from the parser's memory (src/lang/treeMemory.ts) against trees read with
 * tree-sitter's cursor (syntaxTree.ts's other reader): every column of every node must be the
 * same, for every fixture and example of each language, whole, cut short, with brackets and
 * quotes dropped in and with lines shuffled (ERROR and MISSING nodes, aliases, fields through
 * hidden nodes, extras). syntaxTree.test.ts compares the trees read from memory with
 * web-tree-sitter's own nodes; this one pins the two readers to each other column by column.
 */
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LanguageId } from '../src/core/model';
import { languageForPath, Parsers } from '../src/lang/parsers';
import type { Tree } from '../src/lang/parsers';
import { parserMemory, readTreesFromMemory, treeReading } from '../src/lang/syntaxTree';
import { readTreeMemory } from '../src/lang/treeMemory';
import type { NodeSink } from '../src/lang/treeMemory';
import { FIXTURES, ROOT } from './helpers';
import { collectInputs, Rng } from './robustness/fuzz';

let parsers: Parsers;
beforeAll(async () => {
  parsers = await Parsers.load();
});
afterAll(() => readTreesFromMemory(true));

const COLUMNS = ['typeId', 'fieldId', 'flags', 'start', 'end', 'parentOf', 'subtreeEnd', 'depth'] as const;

/** Both readers' trees of a text, and how the first was read. */
function bothWays(lang: LanguageId, text: string): { memory: Tree; cursor: Tree; how: string } {
  readTreesFromMemory(true);
  const memory = parsers.parse(lang, text);
  const how = treeReading();
  readTreesFromMemory(false);
  const cursor = parsers.parse(lang, text);
  readTreesFromMemory(true);
  return { memory, cursor, how };
}

/** The first column that differs, or undefined. */
function difference(a: Tree, b: Tree): string | undefined {
  if (a.length !== b.length) return `${a.length} nodes from memory, ${b.length} from the cursor`;
  for (const c of COLUMNS) {
    const x = a[c];
    const y = b[c];
    for (let i = 0; i < a.length; i++) if (x[i] !== y[i]) return `${c}[${i}]: ${x[i]} from memory, ${y[i]} from the cursor (a ${b.rootNode.descendantForIndex(b.start[i])?.type ?? '?'} at ${b.start[i]})`;
  }
  return undefined;
}

/** Variants of a text that make tree-sitter recover from errors. */
function variants(text: string, rng: Rng): Array<[string, string]> {
  const insert = (t: string, pieces: readonly string[]) => {
    for (let n = 0; n < 6; n++) {
      const at = rng.int(0, t.length);
      t = t.slice(0, at) + rng.pick(pieces) + t.slice(at);
    }
    return t;
  };
  const lines = text.split('\n');
  for (let i = lines.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [lines[i], lines[j]] = [lines[j], lines[i]];
  }
  return [
    ['whole', text],
    ['cut', text.slice(0, rng.int(1, Math.max(1, text.length - 1)))],
    ['brackets', insert(text, ['(', ')', '{', '}', '[', '"', "'", '`', ':', '=>', '<div>', 'def ', 'class ', '\n    '])],
    ['shuffled', lines.join('\n')],
  ];
}

describe('trees read from memory', () => {
  const inputs = collectInputs([FIXTURES, path.join(ROOT, 'examples')]).filter((x) => languageForPath(x.file));

  it('are the trees the cursor reads, column for column, for every input of every language, whole and broken', () => {
    const rng = new Rng(11);
    const problems: string[] = [];
    const languages = new Set<string>();
    let errors = 0;
    let missing = 0;
    for (const input of inputs) {
      const lang = languageForPath(input.file)!;
      for (const [label, text] of variants(input.text, rng)) {
        const { memory, cursor, how } = bothWays(lang, text);
        if (how !== 'memory') problems.push(`${path.relative(ROOT, input.file)} (${label}): read ${how}`);
        const d = difference(memory, cursor);
        if (d) problems.push(`${path.relative(ROOT, input.file)} (${label}): ${d}`);
        languages.add(lang);
        if (cursor.rootNode.hasError) errors++;
        if (cursor.flags.some((f) => (f & 2) !== 0)) missing++;
      }
    }
    expect(problems.slice(0, 10)).toEqual([]);
    expect(languages).toEqual(new Set(['python', 'typescript', 'tsx', 'javascript']));
    // The broken variants must really exercise error recovery, MISSING tokens included.
    expect(errors).toBeGreaterThan(inputs.length);
    expect(missing).toBeGreaterThan(10);
  });

  it('are read for empty texts, a lone comment, and a tree deeper than the reader first allows', () => {
    const texts: Array<[LanguageId, string]> = [
      ['python', ''],
      ['typescript', ''],
      ['python', '# only a comment\n'],
      ['tsx', '<a>{/* c */}</a>'],
      ['javascript', `f(${'('.repeat(300)}1${')'.repeat(300)});\n`],
      ['python', `x = ${'{"a": '.repeat(200)}1${'}'.repeat(200)}\n`],
    ];
    for (const [lang, text] of texts) {
      const { memory, cursor, how } = bothWays(lang, text);
      expect(how, text.slice(0, 20)).toBe('memory');
      expect(difference(memory, cursor), text.slice(0, 20)).toBeUndefined();
    }
  });

  it('are not read when the memory does not hold what the grammar says, or more or fewer nodes than the root counts', () => {
    const text = 'def f(a, b=1):\n    return a + b\n';
    const wasm = parsers.parser('python').parse(text)!;
    try {
      const tree = parsers.parse('python', text);
      const column = () => new Int32Array(64);
      const sink: NodeSink = { length: 0, typeId: new Uint16Array(64), fieldId: new Uint16Array(64), flags: new Uint8Array(64), start: column(), end: column(), parent: column(), subtreeEnd: column(), depth: column() };
      const module = parserMemory()!;
      expect(module).toBeDefined();
      const grammar = { typeCount: tree.grammar.types.length, fieldCount: tree.grammar.fields.length, named: tree.grammar.named, flags: { named: 1, missing: 2, error: 4 } };
      const address = (wasm as unknown as { 0: number })[0];
      // The same counts: read. Another grammar's counts, or another number of nodes than the root counts: not.
      expect(readTreeMemory(module, address, sink, grammar, tree.length, {})).toBe(true);
      expect(sink.length).toBe(tree.length);
      sink.length = 0;
      expect(readTreeMemory(module, address, sink, { ...grammar, typeCount: grammar.typeCount + 1 }, tree.length, {})).toBe(false);
      sink.length = 0;
      expect(readTreeMemory(module, address, sink, { ...grammar, fieldCount: grammar.fieldCount - 1 }, tree.length, {})).toBe(false);
      sink.length = 0;
      expect(readTreeMemory(module, address, sink, grammar, tree.length + 1, {})).toBe(false);
    } finally {
      wasm.delete();
    }
  });

  it('are read with the cursor, whole, when the memory read is refused half-way', () => {
    // The root's count of its descendants, halved: the columns are made that small, and the
    // memory read fills them and is refused at the first node past them; the cursor then reads
    // the tree from the start over what it wrote, growing the columns. (Taking a refused read
    // for a tree fails this test.)
    const halving = <T extends object>(tree: T): T =>
      new Proxy(tree, {
        get(target, key) {
          if (key === 'rootNode') {
            const root = Reflect.get(target, key, target) as object;
            return new Proxy(root, { get: (r, k) => (k === 'descendantCount' ? Math.floor((Reflect.get(r, k, r) as number) / 2) : Reflect.get(r, k, r)) });
          }
          const value: unknown = Reflect.get(target, key, target);
          return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
        },
      });
    const checked = new Set<string>();
    for (const input of inputs) {
      const lang = languageForPath(input.file)!;
      if (checked.has(lang) || input.text.length < 2_000) continue;
      checked.add(lang);
      readTreesFromMemory(true);
      const whole = parsers.parse(lang, input.text);
      expect(treeReading()).toBe('memory');
      const parser = parsers.parser(lang);
      const parse = parser.parse;
      parser.parse = ((...args: Parameters<typeof parse>) => {
        const tree = parse.apply(parser, args);
        return tree && halving(tree);
      }) as typeof parse;
      let refused: Tree;
      try {
        refused = parsers.parse(lang, input.text);
      } finally {
        parser.parse = parse;
      }
      expect(treeReading(), input.file).toBe('direct');
      expect(difference(refused, whole), input.file).toBeUndefined();
    }
    expect(checked).toEqual(new Set(['python', 'typescript', 'tsx', 'javascript']));
  });
});
