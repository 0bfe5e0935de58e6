/**
 * calledChains reads each `(` backwards; the pattern it stands for, searched over the whole text,
 * is the specification: both must give the same calls, in the same order, for any text.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { STATEMENT_WORDS, calledChains } from '../src/lang/textReach';
import { FIXTURES } from './helpers';


/** The specification: the pattern, searched from the start of the text. */
function byPattern(text: string, roots?: readonly string[]): Array<[string, string | undefined]> {
  const out: Array<[string, string | undefined]> = [];
  const seen = new Set<string>();
  const start = roots ? `(${roots.map((r) => r.replace(/\$/g, '\\$')).join('|')})(?![\\w$])` : '([A-Za-z_$][\\w$]{0,200})';
  for (const m of text.matchAll(new RegExp(`(?<![\\w$.])${start}((?:\\s{0,16}\\.\\s{0,16}[A-Za-z_$][\\w$]{0,200}){0,8})\\s{0,16}\\(`, 'g'))) {
    if (!m[2] && STATEMENT_WORDS.has(m[1])) continue;
    const last = m[2] ? /([A-Za-z_$][\w$]*)\s*$/.exec(m[2])?.[1] : undefined;
    const k = `${m[1]}.${last ?? ''}`;
    if (seen.has(k)) continue;
    seen.add(k);
    out.push([m[1], last]);
  }
  return out;
}

/** Names a text calls or reads attributes of, some of them, as the roots of a search. */
function someRoots(text: string, pick: (i: number) => boolean): string[] {
  const names = [...new Set([...text.matchAll(/[A-Za-z_$][\w$]*(?=\s*[.(])/g)].map((m) => m[0]))];
  const roots = names.filter((_, i) => pick(i));
  return roots.length ? roots : ['x'];
}

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(path.join(dir, e.name)) : /\.(py|ts|tsx|js|jsx)$/.test(e.name) ? [path.join(dir, e.name)] : []));
}

/** A small deterministic generator (the same texts on every run). */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('calledChains', () => {
  it('reads the calls of every fixture as the pattern does, with and without roots', () => {
    const files = sources(FIXTURES);
    expect(files.length).toBeGreaterThan(300);
    for (const file of files) {
      const text = fs.readFileSync(file, 'utf8');
      expect(calledChains(text), file).toEqual(byPattern(text));
      const roots = someRoots(text, (i) => i % 3 === 0);
      expect(calledChains(text, roots), file).toEqual(byPattern(text, roots));
    }
  });

  it('reads generated texts as the pattern does: gaps, long chains, long names, digits, dots and spaces', () => {
    const next = random(20261204);
    const parts = ['a', 'b', 'ab', 'if', 'self', 'x1', '1x', '$', '_', '.', '. ', ' .', '(', ')', ' ', '  ', '\n', '\t', '\u00a0', '#', '"', 'return', 'a'.repeat(200), 'b'.repeat(202), ' '.repeat(16), ' '.repeat(17), '.a.b.c.d.e.f.g.h', 'é'];
    for (let n = 0; n < 4000; n++) {
      let text = '';
      const length = 1 + Math.floor(next() * 24);
      for (let i = 0; i < length; i++) text += parts[Math.floor(next() * parts.length)];
      expect(calledChains(text), JSON.stringify(text)).toEqual(byPattern(text));
      const roots = ['a', 'ab', 'self', 'x1', 'b'.repeat(202)].filter(() => next() < 0.5);
      if (roots.length) expect(calledChains(text, roots), JSON.stringify([text, roots])).toEqual(byPattern(text, roots));
    }
  });

  it('reads chains over lines and through attributes', () => {
    expect(calledChains('llm.client.\n    chat(x)\nsend (y)\nif (z)\nfoo . bar . baz(1)')).toEqual([
      ['llm', 'chat'],
      ['send', undefined],
      ['foo', 'baz'],
    ]);
    expect(calledChains('self.llm.chat(x); llm.chat(y); x.llm(z)', ['llm'])).toEqual([['llm', 'chat']]);
  });
});
