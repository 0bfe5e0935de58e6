/**
 * The build replaces web-tree-sitter's copy of the parsed text into WASM memory (fastInputCopy in
 * esbuild.js). Two bundles of the same parse, one with web-tree-sitter as published and one as
 * the product is built, must read every text to the same tree: texts whose characters outside
 * the Basic Multilingual Plane and lone surrogates straddle the 5,119-character chunks the text
 * is copied in, long lines, CRLF, a byte order mark.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '..');
const require = createRequire(__filename);
const esbuild = require('esbuild') as typeof import('esbuild');
const { buildOptions } = require(path.join(root, 'esbuild.js')) as { buildOptions(b: object): import('esbuild').BuildOptions };

/** Each node of each tree as `type start end`, in pre-order, with the tree's S-expression. */
const ENTRY = `
import { Parsers } from './src/lang/parsers';
export async function read(wasmDir: string, texts: Array<[string, string]>): Promise<string[]> {
  const parsers = await Parsers.load(wasmDir);
  return texts.map(([language, text]) => {
    const tree = parsers.parser(language as never).parse(text)!;
    const out: string[] = [tree.rootNode.toString()];
    const cursor = tree.walk();
    for (let more = true; more; ) {
      out.push(cursor.nodeType + ' ' + cursor.startIndex + ' ' + cursor.endIndex);
      if (cursor.gotoFirstChild()) continue;
      while (!cursor.gotoNextSibling()) if (!cursor.gotoParent()) { more = false; break; }
    }
    cursor.delete();
    tree.delete();
    return out.join('\\n');
  });
}
`;

type Reader = { read(wasmDir: string, texts: Array<[string, string]>): Promise<string[]> };

let dir: string;
const bundles: { stock?: Reader; product?: Reader; productSource?: string; stockSource?: string } = {};

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'prefixlint-input-copy-'));
  for (const stock of [true, false]) {
    const outfile = path.join(dir, stock ? 'stock.cjs' : 'product.cjs');
    const options = buildOptions({ name: 'input-copy-test', entry: 'unused', outfile, stockParser: stock });
    await esbuild.build({ ...options, entryPoints: undefined, stdin: { contents: ENTRY, resolveDir: root, loader: 'ts', sourcefile: 'entry.ts' }, sourcemap: false, logLevel: 'silent' });
    const source = fs.readFileSync(outfile, 'utf8');
    if (stock) {
      bundles.stock = require(outfile) as Reader;
      bundles.stockSource = source;
    } else {
      bundles.product = require(outfile) as Reader;
      bundles.productSource = source;
    }
  }
}, 120_000);

afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** A text of `length` characters made of `unit` repeated, cut to length. */
const filler = (unit: string, length: number) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
const CHUNK = 5119;

function texts(): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  // A surrogate pair (an emoji) starting at each place around the first chunk boundaries.
  for (const at of [CHUNK - 2, CHUNK - 1, CHUNK, 2 * CHUNK - 1]) {
    const head = 'x = 1\n# ' + filler('abc ', at - 8);
    out.push(['python', `${head}\u{1F600} tail\ns = "\u{1F680}\u{1F680}"\nprint(s)\n`]);
    out.push(['typescript', `const a = 1;\n// ${filler('xyz ', at - 17)}\u{1F600}\nconst s = "\u{1F4A1}";\n`]);
  }
  // Lone surrogates in strings and comments, astral characters in identifiers' neighbourhood.
  out.push(['python', `a = "\uD800"\nb = "\uDC00x"\n# \uD83D\n${filler('y = a + b\n', 12_000)}c = "\u{10FFFF}"\n`]);
  out.push(['tsx', `const el = <div title="\u{1F600}">{"\uD800"}</div>;\n${filler('let q = 1;\n', 11_000)}`]);
  // One line longer than several chunks; CRLF line ends; a byte order mark.
  out.push(['javascript', `const long = "${filler('\u00e9\u4e2d\u{1F600}', 30_000)}";\nlong.length;\n`]);
  out.push(['python', `\uFEFFimport os\r\n${filler('def f(x):\r\n    return x\r\n', 16_000)}`]);
  // A syntax error late in a long text (the parser reads back and forth over it).
  out.push(['python', `${filler('def g(a, b):\n    return a + b\n', 20_000)}def broken(:\n    pass\n\u{1F600} = 3\n`]);
  return out;
}

describe('the input copy the build puts into web-tree-sitter', () => {
  it('is in the product bundle and not in the floor', () => {
    // (The bundler renames the variables and quotes strings its own way.)
    const copy = /var units = Math\.ceil\(numCharsToWrite\);\s*Buffer\.from\(HEAPU8\.buffer, outPtr, units \* 2\)\.write\(/;
    expect(bundles.productSource).toMatch(copy);
    expect(bundles.stockSource).not.toMatch(copy);
    expect(bundles.stockSource).toMatch(/LE_HEAP_STORE_I16\(\(outPtr >> 1\) \* 2, codeUnit\)/);
  });

  it('reads every text to the same tree as web-tree-sitter as published', async () => {
    const wasmDir = path.join(root, 'dist');
    const all = texts();
    const stock = await bundles.stock!.read(wasmDir, all);
    const product = await bundles.product!.read(wasmDir, all);
    expect(product.length).toBe(all.length);
    for (let i = 0; i < all.length; i++) {
      // A tree of more than the root: the text was read to its end.
      expect(product[i].split('\n').length).toBeGreaterThan(3);
      expect(product[i], `text ${i} (${all[i][0]}, ${all[i][1].length} characters)`).toBe(stock[i]);
    }
  }, 60_000);
});
