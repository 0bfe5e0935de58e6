/**
 * The quick test in front of a folder's gitignore rules (GatedIgnore): a path it lets past
 * without running the rules must be one that no rule matches, whatever the patterns hold
 * (brackets, escapes, negations, wildcards, case, spaces). Checked against the `ignore` package
 * itself, pattern by pattern and for whole files of patterns, on paths and folder paths built
 * from names that do and do not hold the patterns' words.
 */
import ignore from 'ignore';
import { describe, expect, it } from 'vitest';
import { GatedIgnore, requiredName, requiredWord, requiredWords } from '../src/host/files';

const PATTERNS = [
  '*.pyc',
  '__pycache__/',
  '/build',
  'build/',
  '!keep.pyc',
  '[Bb]in/',
  '[Dd]ebug*/',
  'x[Dd]ebug',
  '**/logs',
  'logs/**',
  'a/**/b',
  '\\#foo',
  '\\!x',
  'foo\\ bar',
  'foo\\*bar',
  '*.log',
  '.env*',
  '!.env.example',
  '[[:alpha:]]x',
  '[[:alpha:]x]z',
  '[]a]b',
  'x[!a]y',
  '[a\\]b]c',
  'q\\]r',
  '*',
  '?',
  'node_modules',
  '  spaced',
  'trailing   ',
  'trailing\\ ',
  'K*',
  'Kelvin',
  'ÄÖ',
  'src/*.py',
  'tmp[',
  'a]b[c',
  '  #notacomment',
  './dot',
  'dist/',
  '*.egg-info/',
  'Thumbs.db',
  '.DS_Store',
  'sub/dir/',
  '/docs/_build/',
  'lib/',
  '!lib/keep',
  'docs/dot.d',
  '..',
  '*.py[cod]',
  '*.[oa]',
  'data[0-9].csv',
  'x[._]y',
  '!keep.py[c]',
  '**/*.min.js',
];

const NAMES = ['build', 'Build', 'BUILD', 'dist', 'node_modules', '__pycache__', 'a.pyc', 'keep.pyc', 'x.py', 'Debug', 'debugX', 'xdebug', 'xDebug', 'bin', 'Bin', 'logs', 'app.log', '.env', '.env.local', '.env.example', 'foo bar', 'foo*bar', '#foo', '!x', 'ax', 'z', 'Xz', 'xz', ']b', 'ab', 'bb', 'xby', 'xay', ']c', 'ac', 'q]r', 'qr', 'spaced', '  spaced', 'trailing', 'trailing ', 'K', 'Kx', '\u212a', '\u212ax', 'kelvin', 'ÄÖ', 'äö', 'src', 'y.py', 'tmp', 'tmp[', 'a]b[c', 'a', 'b', 'sub', 'dir', 'docs', '_build', 'pkg.egg-info', 'thumbs.db', '.ds_store', 'app.min.js', 'dot', '  #notacomment', 'plain.ts', 'lib', 'LIB', 'libs', 'mylib', 'keep', 'dot.d', '...', 'x.pyc', 'x.PYO', 'x.pyd', 'x.pyx', 'keep.pyc', 'a.o', 'a.A', 'a.b', 'data1.csv', 'datax.csv', 'x.y', 'x_y', 'xzy'];

/** Paths one to three names deep, as files and as folders (a trailing `/`, as the walk asks). */
function paths(): string[] {
  const out: string[] = [];
  const pick = (i: number) => NAMES[i % NAMES.length];
  for (let i = 0; i < NAMES.length; i++) {
    out.push(pick(i), `${pick(i)}/`);
    for (let j = 0; j < NAMES.length; j += 7) {
      out.push(`${pick(i)}/${pick(j)}`, `${pick(j)}/${pick(i)}/`);
      out.push(`${pick(j)}/${pick(i + j)}/${pick(i)}`);
    }
  }
  return out;
}

describe('the quick test in front of gitignore rules', () => {
  it('gives what the rules give for every pattern alone, and for files of them with negations', () => {
    const all = paths();
    const texts = [
      ...PATTERNS,
      PATTERNS.join('\n'),
      PATTERNS.filter((p) => p !== '*' && p !== '?').join('\r\n'),
      '# a comment\n\n*.pyc\n!keep.pyc\n[Bb]in/\nbuild/\n!build/keep\n',
      'logs/**\n!logs/keep/\n.env*\n!.env.example\n',
    ];
    let gated = 0;
    for (const text of texts) {
      const quick = new GatedIgnore([text]);
      const rules = ignore().add(text);
      for (const p of all) {
        const got = quick.test(p);
        const want = rules.test(p);
        expect({ text, path: p, ignored: got.ignored, unignored: got.unignored }).toEqual({ text, path: p, ignored: want.ignored, unignored: want.unignored });
        if (!got.ignored && !got.unignored) gated++;
        // The same path asked as an entry of its folder (as a walk asks).
        const isDir = p.endsWith('/');
        const parts = (isDir ? p.slice(0, -1) : p).split('/');
        const entry = quick.entryTest(parts.slice(0, -1).join('/'))(parts[parts.length - 1], isDir);
        expect({ text, path: p, ignored: entry.ignored, unignored: entry.unignored }).toEqual({ text, path: p, ignored: want.ignored, unignored: want.unignored });
      }
    }
    // The test can fail: many paths go past the quick test.
    expect(gated).toBeGreaterThan(all.length);
  });

  it('reads the word each pattern requires, and none where a pattern requires none', () => {
    expect(requiredWord('*.pyc')).toBe('.pyc');
    expect(requiredWord('__pycache__/')).toBe('__pycache__');
    expect(requiredWord('!.env.example')).toBe('.env.example');
    expect(requiredWord('[Bb]in/')).toBe('in');
    expect(requiredWord('x[Dd]ebug')).toBe('ebug');
    expect(requiredWord('[[:alpha:]x]z')).toBe('z');
    expect(requiredWord('foo\\*barbaz')).toBe('barbaz');
    expect(requiredWord('Thumbs.db')).toBe('thumbs.db');
    expect(requiredWord('*')).toBeUndefined();
    expect(requiredWord('[abc]')).toBeUndefined();
    expect(requiredWord('ÄÖ')).toBeUndefined();
    expect(requiredWord('# comment')).toBe('');
    expect(requiredWord('   ')).toBe('');
  });

  it('reads the words a pattern with one set of plain characters requires through it, when they are longer', () => {
    expect(requiredWords('*.py[cod]')).toEqual(['.pyc', '.pyo', '.pyd']);
    expect(requiredWords('[Bb]in/')).toEqual(['bin']);
    expect(requiredWords('*.[oa]')).toEqual(['.o', '.a']);
    expect(requiredWords('data[0-9].csv')).toEqual(['data']);
    expect(requiredWords('x[!a]y')).toEqual(['x']);
    expect(requiredWords('a\\[bc]d')).toEqual(['a']);
    expect(requiredWords('longname[ab]')).toEqual(['longnamea', 'longnameb']);
    expect(requiredWords('# comment')).toEqual([]);
    expect(requiredWords('*')).toBeUndefined();
  });

  it('reads the name a pattern of plain names requires, and none for any other pattern', () => {
    expect(requiredName('build/')).toBe('build');
    expect(requiredName('/docs/_build/')).toBe('_build');
    expect(requiredName('!.env.example')).toBe('.env.example');
    expect(requiredName('Thumbs.db')).toBe('thumbs.db');
    expect(requiredName('./dot')).toBe('dot');
    expect(requiredName('..')).toBeUndefined();
    expect(requiredName('*.pyc')).toBeUndefined();
    expect(requiredName('[Bb]in/')).toBeUndefined();
    expect(requiredName('logs/**')).toBeUndefined();
    expect(requiredName('foo\\ bar')).toBeUndefined();
    expect(requiredName('trailing   ')).toBeUndefined();
    expect(requiredName('# comment')).toBeUndefined();
    expect(requiredName('')).toBeUndefined();
  });

  it('lets past a path under a folder that only holds a pattern name as part of a longer name', () => {
    // `lib/` names a whole folder: a path under `libs/` holds no name of the patterns.
    const quick = new GatedIgnore(['lib/\n']);
    const ig = (quick as unknown as { ig: { test(p: string): unknown } }).ig;
    let asked = 0;
    const test = ig.test.bind(ig);
    ig.test = (p: string) => {
      asked++;
      return test(p);
    };
    expect(quick.entryTest('libs/agno')('models.py', false)).toEqual({ ignored: false, unignored: false });
    expect(asked).toBe(0);
    expect(quick.entryTest('src/lib')('models.py', false)).toMatchObject({ ignored: true });
    expect(asked).toBe(1);
  });

  it('lets a file of patterns with one that requires no word run every rule', () => {
    // `*` requires no word: no path may skip the rules.
    const quick = new GatedIgnore(['*.pyc\n*\n!keep.py\n']);
    expect(quick.test('plain.ts')).toMatchObject({ ignored: true, unignored: false });
    expect(quick.test('keep.py')).toMatchObject({ ignored: false, unignored: true });
  });
});
