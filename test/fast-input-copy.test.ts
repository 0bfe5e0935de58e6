/**
 * The parser's runtime copies the text it parses into WASM memory natively (withNativeInputCopy
 * in treeSitterRuntime.ts), where web-tree-sitter as published copies it one character at a time.
 * Both must read every text to the same tree: texts whose characters outside the Basic
 * Multilingual Plane and lone surrogates straddle the 5,119-character chunks the text is copied
 * in, long lines, CRLF, a byte order mark.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { LanguageId } from '../src/core/model';
import { Parsers } from '../src/lang/parsers';

let product: Parsers;
let published: Parsers;

beforeAll(async () => {
  product = await Parsers.load();
  published = await Parsers.load(undefined, undefined, { inputCopy: 'as-published' });
});

/** Each node of the tree as `type start end`, in pre-order, with the tree's S-expression. */
function read(parsers: Parsers, language: LanguageId, text: string): string {
  const tree = parsers.parser(language).parse(text)!;
  const out: string[] = [tree.rootNode.toString()];
  const cursor = tree.walk();
  for (let more = true; more; ) {
    out.push(`${cursor.nodeType} ${cursor.startIndex} ${cursor.endIndex}`);
    if (cursor.gotoFirstChild()) continue;
    while (!cursor.gotoNextSibling()) {
      if (!cursor.gotoParent()) {
        more = false;
        break;
      }
    }
  }
  cursor.delete();
  tree.delete();
  return out.join('\n');
}

/** A text of `length` characters made of `unit` repeated, cut to length. */
const filler = (unit: string, length: number) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
const CHUNK = 5119;

function texts(): Array<[LanguageId, string]> {
  const out: Array<[LanguageId, string]> = [];
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

describe("the runtime's input copy", () => {
  it('is the native one, and web-tree-sitter as published is its own', () => {
    expect(product.inputCopy).toBe('native');
    expect(published.inputCopy).toBe('as-published');
  });

  it('reads every text to the same tree as web-tree-sitter as published', () => {
    const all = texts();
    for (let i = 0; i < all.length; i++) {
      const [language, text] = all[i];
      const ours = read(product, language, text);
      // A tree of more than the root: the text was read to its end.
      expect(ours.split('\n').length).toBeGreaterThan(3);
      expect(ours, `text ${i} (${language}, ${text.length} characters)`).toBe(read(published, language, text));
    }
  });
});
