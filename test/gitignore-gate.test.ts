/**
 * The quick test in front of a folder's gitignore rules (GatedIgnore): a path it lets past
 * without running the rules must be one that no rule matches, whatever the patterns hold
 * (brackets, escapes, negations, wildcards, case, spaces). Checked against the `ignore` package
 * itself, pattern by pattern and for whole files of patterns, on paths and folder paths built
 * from names that do and do not hold the patterns' words.
 */
import ignore from 'ignore';
import { describe, expect, it } from 'vitest';
import { GatedIgnore, requiredWord } from '../src/host/files';

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
  '**/*.min.js',
];

const NAMES = ['build', 'Build', 'BUILD', 'dist', 'node_modules', '__pycache__', 'a.pyc', 'keep.pyc', 'x.py', 'Debug', 'debugX', 'xdebug', 'xDebug', 'bin', 'Bin', 'logs', 'app.log', '.env', '.env.local', '.env.example', 'foo bar', 'foo*bar', '#foo', '!x', 'ax', 'z', 'Xz', 'xz', ']b', 'ab', 'bb', 'xby', 'xay', ']c', 'ac', 'q]r', 'qr', 'spaced', '  spaced', 'trailing', 'trailing ', 'K', 'Kx', '\u212a', '\u212ax', 'kelvin', 'ÄÖ', 'äö', 'src', 'y.py', 'tmp', 'tmp[', 'a]b[c', 'a', 'b', 'sub', 'dir', 'docs', '_build', 'pkg.egg-info', 'thumbs.db', '.ds_store', 'app.min.js', 'dot', '  #notacomment', 'plain.ts'];

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

  it('lets a file of patterns with one that requires no word run every rule', () => {
    // `*` requires no word: no path may skip the rules.
    const quick = new GatedIgnore(['*.pyc\n*\n!keep.py\n']);
    expect(quick.test('plain.ts')).toMatchObject({ ignored: true, unignored: false });
    expect(quick.test('keep.py')).toMatchObject({ ignored: false, unignored: true });
  });
});
