/**
 * The names a file calls, read from its bytes for the search of a function's callers
 * (lang/callIndex.ts): the names the patterns it stands for find in the decoded text, on
 * hand-written cases, on every source file of the repository and on generated texts, with the
 * patterns themselves as the oracle.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generator } from './generator';
import { byteOrderMarkLength, callDigest, digestHas, moduleBaseName, nameKey } from '../src/lang/callIndex';

/** What an import statement names under another name: `:name` of `name as alias`, `:default:m` of `import alias from './m'`. */
function importedByPattern(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/(?<![\w$])import(?=\s)/g)) {
    const at = m.index;
    if (at === 0 || text[at - 1] === '\n') {
      const d = /^import\s+(?:type\s+)?[A-Za-z_$][\w$]*\s*(?:,\s*\{[^}]{0,2000}\}\s*)?from\s*['"]([^'"\n]{1,500})['"]/.exec(text.slice(at));
      if (d) out.push(`:default:${moduleBaseName(d[1])}`);
    }
    const names = at + 7 + /^[^\S\n]*/.exec(text.slice(at + 7))![0].length;
    const close = text[names] === '(' ? ')' : text[names] === '{' ? '}' : '\n';
    let end = text.indexOf(close, names);
    if (end === -1 || end - names > 4000) end = Math.min(text.length, names + 4000);
    const list = text.slice(names, end);
    for (const a of list.matchAll(/ as /g)) {
      const name = /[\w$]*$/.exec(list.slice(0, a.index))![0];
      if (name) out.push(`:${name}`);
    }
  }
  return out;
}

/**
 * The names the patterns find in a text, in the order callDigest keeps them: the imported ones,
 * then the member names (`.name(`, `. name(`, `.#name(`) and the names called on their own
 * (`:name`) in the order of their `(`.
 */
function namesByPattern(text: string): string[] {
  const found: Array<[number, string]> = [];
  for (const m of text.matchAll(/\.\s*#?([A-Za-z_$][\w$]*)\(/g)) found.push([m.index + m[0].length, m[1]]);
  for (const m of text.matchAll(/(?<![\w$#]|\.\s*)([A-Za-z_$][\w$]*)\(/g)) found.push([m.index + m[0].length, `:${m[1]}`]);
  return [...new Set([...importedByPattern(text), ...found.sort((a, b) => a[0] - b[0]).map((f) => f[1])])];
}

/** The digest of names, each key once in the order given. */
const digestOf = (names: readonly string[]) => [...new Set(names.map(nameKey))].join('');

/** callDigest of a text written as UTF-8. */
const digestOfText = (text: string) => callDigest(Buffer.from(text, 'utf8'));

/** Pieces of import statements, calls and the characters around them: every kind of space (one to four bytes in UTF-8), quotes, brackets, non-ASCII names and text. */
const PIECES = [
  'import',
  'import ',
  'from',
  ' from ',
  'type ',
  ' as ',
  'as',
  'send',
  'xfrom',
  'a',
  '$',
  '_1',
  '9',
  '.',
  '#',
  ',',
  ', {',
  '{',
  '}',
  '(',
  ')',
  "'./llm'",
  '"../lib/llm.js"',
  "'",
  '"',
  ' ',
  '\t',
  '\n',
  '\r\n',
  '\u00a0',
  '\u1680',
  '\u2003',
  '\u2028',
  '\u202f',
  '\u205f',
  '\u3000',
  '\ufeff',
  '\u00e9',
  '\u4e2d',
  '\u{1f600}',
  '\u200b',
];

function generatedText(seed: number): string {
  const g = generator(seed);
  let text = '';
  for (let i = 0, n = 5 + g.int(60); i < n; i++) text += g.pick(PIECES);
  return text;
}

describe('the names a file calls, read from its bytes', () => {
  it('finds `.name(` with space, a line break or `#` between, and `name(` on its own', () => {
    expect(digestOfText('client.messages.create(x); this.#send(y); obj .\n  run(z)')).toBe(digestOf(['create', 'send', 'run']));
    expect(digestOfText('f(x); a.b; .9x(; .# y(; a.b (c); $.$x(1); a.b_1$(2)')).toBe(digestOf([':f', ':y', '$x', 'b_1$']));
    expect(digestOfText('from .llm import ask\nask(q)\ndef ask(q): pass\nif (x) {}')).toBe(digestOf([':ask']));
    expect(digestOfText('')).toBe('');
    expect(digestOfText('(.(a(.b(')).toBe(digestOf([':a', 'b']));
    // A space of two or three bytes between the dot and the name.
    expect(digestOfText('x.\u00a0y(1); x.\u3000\u2028z(2)')).toBe(digestOf(['y', 'z']));
  });

  it('keeps 4 bytes a name, in which each name and only those is found', () => {
    const digest = digestOfText('client.messages.create(x); f(y); this.#send(z); run(w); f(v)');
    expect(digest.length).toBe(2 * 4);
    for (const name of ['create', ':f', 'send', ':run']) expect(digestHas(digest, nameKey(name))).toBe(true);
    for (const name of ['f', ':create', 'messages', 'client', 'run', 'sen', 'sendx', '']) expect(digestHas(digest, nameKey(name))).toBe(false);
    expect(digestHas('', nameKey('create'))).toBe(false);
    // A key found across two hashes (at an odd offset) is not a name of the file.
    expect(digestHas('ABCD', 'BC')).toBe(false);
    expect(digestHas('ABCD', 'CD')).toBe(true);
    expect(digestHas('ABCBC', 'BC')).toBe(false);
    expect(digestHas('ABBCBC', 'BC')).toBe(true);
  });

  it('records a name imported under another one, and a default import by its module', () => {
    expect(digestOfText('from app.llm import complete as send, ask\nsend(q)')).toBe(digestOf([':complete', ':send']));
    expect(digestOfText('from app.llm import (\n    ask,\n    complete as send,\n)\nx = y as z')).toBe(digestOf([':complete']));
    expect(digestOfText("import { complete as send } from './llm';\nimport mail, { a as b } from '../lib/digest.js';\nimport x from './jobs/index';\nconst v = w as T;\n")).toBe(
      digestOf([':complete', ':default:digest', ':a', ':default:jobs']),
    );
    // `type` read as the keyword, then as the name; a name whose end reads `from`.
    expect(digestOfText("import type Llm from './llm'\nimport type from './kinds'\nimport xfrom './odd'\n")).toBe(digestOf([':default:llm', ':default:kinds', ':default:odd']));
    // A module path that is not ASCII, hashed as its code units.
    expect(digestOfText("import resume from './r\u00e9sum\u00e9'\n")).toBe(digestOf([':default:r\u00e9sum\u00e9']));
    expect(moduleBaseName('./lib/llm.ts')).toBe('llm');
    expect(moduleBaseName('src/llm/index.ts')).toBe('llm');
  });

  it('reads a file with a byte order mark as its text without it', () => {
    const text = "import x from './jobs'\n.send(1)";
    const marked = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]);
    expect(byteOrderMarkLength(marked)).toBe(3);
    expect(byteOrderMarkLength(Buffer.from(text))).toBe(0);
    expect(callDigest(marked)).toBe(digestOf([':default:jobs', 'send']));
    // The mark is no space before a name at the text's start.
    expect(callDigest(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('.send(1)')]))).toBe(digestOf(['send']));
  });

  it('counts the bounds of an import list in code units, as the patterns do', () => {
    for (const filler of ['a', '\u00e9', '\u4e2d', '\u{1f600}']) {
      for (const units of [3990, 3996, 3999, 4000, 4001, 4002]) {
        const list = filler.repeat(Math.floor(units / filler.length)).slice(0, units);
        const text = `import x, { ${list} a as b } from 'm'\nimport (${list} c as d)\n`;
        expect(digestOfText(text), `${filler} ${units}`).toBe(digestOf(namesByPattern(text)));
      }
      for (const units of [1998, 1999, 2000, 2001]) {
        const list = filler.repeat(Math.ceil(units / filler.length)).slice(0, units);
        const text = `import x, {${list}} from './${list.slice(0, 499)}'\n`;
        expect(digestOfText(text), `${filler} ${units}`).toBe(digestOf(namesByPattern(text)));
      }
    }
  });

  it('gives what the patterns give on every source file of the repository and on edge-case texts', () => {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (/\.(ts|py|js|tsx)$/.test(e.name)) files.push(p);
      }
    };
    walk(path.join(__dirname, '..', 'src'));
    walk(path.join(__dirname, 'fixtures'));
    expect(files.length).toBeGreaterThan(100);
    const texts = [...files.map((f) => fs.readFileSync(f, 'utf8')), '.a(', 'x.\u00a0y(', 'x.\u2028#y(', 'x\t.\t#\tz(', '.#(', '..a(', 'a.b.c.d(e.f(g.h()))', '$.(', '\u00e9.a(', '#a(', '9a(b('];
    for (const text of texts) expect(digestOfText(text)).toBe(digestOf(namesByPattern(text)));
  });

  it('gives what the patterns give on generated texts', () => {
    let withImports = 0;
    let withCalls = 0;
    for (let seed = 1; seed <= 4000; seed++) {
      const text = generatedText(seed);
      const names = namesByPattern(text);
      if (names.some((n) => n.startsWith(':default:')) || importedByPattern(text).length) withImports++;
      if (names.some((n) => !n.startsWith(':default:'))) withCalls++;
      expect(digestOfText(text), `seed ${seed}`).toBe(digestOf(names));
    }
    // The texts hold what is compared.
    expect(withImports).toBeGreaterThan(100);
    expect(withCalls).toBeGreaterThan(500);
  });
});
