/**
 * The build leaves no character outside ASCII in a bundle (asciiComments in esbuild.js): V8 keeps
 * a script with one such character as two bytes per character, in every isolate that loads it.
 * Characters in comment lines are replaced one code unit for one (source map columns stay
 * right); one anywhere else fails the build instead of being changed.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '..');
const require = createRequire(__filename);
const { asciiComments, BUNDLES } = require(path.join(root, 'esbuild.js')) as {
  asciiComments(file: string): void;
  BUNDLES: Array<{ outfile: string }>;
};

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'prefixlint-ascii-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function write(name: string, text: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
}

describe('asciiComments', () => {
  it('replaces each code unit outside ASCII in comment lines, keeping every line as long', () => {
    const before = ['/**', ' * a slice (`x[…]`) — then → 👋', ' */', 'const a = "\\u2014";', '  // trailing – note', 'let b = 1;'].join('\n');
    const file = write('comments.js', before);
    asciiComments(file);
    const after = fs.readFileSync(file, 'utf8');
    expect(after).toBe(['/**', ' * a slice (`x[-]`) - then - --', ' */', 'const a = "\\u2014";', '  // trailing - note', 'let b = 1;'].join('\n'));
    expect(after.split('\n').map((l) => l.length)).toEqual(before.split('\n').map((l) => l.length));
  });

  it('fails on a character outside ASCII in code, naming the line, and leaves the file as it was', () => {
    const text = 'const ok = 1;\nconst dash = "—";\n';
    const file = write('code.js', text);
    expect(() => asciiComments(file)).toThrow(/code\.js:2: a character outside ASCII that is not in a comment line/);
    expect(fs.readFileSync(file, 'utf8')).toBe(text);
  });

  it('leaves an ASCII file alone', () => {
    const file = write('plain.js', '// plain\nconst x = 1;\n');
    const stat = fs.statSync(file).mtimeMs;
    asciiComments(file);
    expect(fs.readFileSync(file, 'utf8')).toBe('// plain\nconst x = 1;\n');
    expect(fs.statSync(file).mtimeMs).toBe(stat);
  });
});

describe('the built bundles', () => {
  // `npm test` builds them first, as the CLI's tests need.
  it('hold no character outside ASCII', () => {
    for (const file of BUNDLES.map((b) => path.join(root, b.outfile))) {
      const text = fs.readFileSync(file, 'utf8');
      const at = text.search(/[\u0080-\uffff]/);
      expect(at === -1 ? undefined : `${path.basename(file)} at ${at}: ${JSON.stringify(text.slice(Math.max(0, at - 40), at + 10))}`).toBeUndefined();
    }
  });
});
