/**
 * The parsed files a workspace keeps for the files that import them are bounded in number and in
 * characters (Workspace.evictUnits). Room is made before a text is parsed: the file's own
 * analysis follows its parse, and a long file's analysis is what takes the most memory of a run.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Parsers } from '../src/lang/parsers';
import { Workspace } from '../src/lang/workspace';

/** A module of `lines` lines (6 characters each for one-digit `n`). */
const moduleText = (n: number, lines: number) => `x = ${n}\n`.repeat(lines);

describe('the parsed files a workspace keeps', () => {
  let parsers: Parsers;
  beforeAll(async () => {
    parsers = await Parsers.load();
  });

  /** A workspace over `files`, and the characters it kept at each parse it asked for. */
  function counting(files: Record<string, string>): { ws: Workspace; keptAtParse: number[] } {
    const keptAtParse: number[] = [];
    const ws: Workspace = new Workspace(
      Object.create(parsers, {
        parse: { value: (language: Parameters<Parsers['parse']>[0], text: string) => (keptAtParse.push(ws.keptChars), parsers.parse(language, text)) },
      }) as Parsers,
      { readFile: (p) => files[p] },
      0,
    );
    return { ws, keptAtParse };
  }

  it('makes room for a long text before it parses it, for its own analysis and for an import', () => {
    const imported = moduleText(4, 80_000);
    const { ws, keptAtParse } = counting({ '/p/d.py': imported });
    // Three texts of 480 K characters, with room for two (MAX_UNIT_CHARS, 1 M).
    for (const n of [1, 2, 3]) ws.setText(`/p/m${n}.py`, moduleText(n, 80_000));
    expect(keptAtParse).toEqual([0, 480_000, 480_000]);
    expect(ws.keptChars).toBe(960_000);
    // A module read for an import makes room alike.
    expect(ws.get('/p/d.py')?.text).toBe(imported);
    expect(keptAtParse).toEqual([0, 480_000, 480_000, 480_000]);
    expect(ws.keptChars).toBe(960_000);
  });

  it('keeps short texts as before: only what goes past the bound goes', () => {
    const { ws, keptAtParse } = counting({});
    for (let n = 0; n < 10; n++) ws.setText(`/p/s${n}.py`, moduleText(n, 1_000));
    expect(keptAtParse).toEqual(Array.from({ length: 10 }, (_, n) => n * 6_000));
    expect(ws.keptChars).toBe(60_000);
  });
});
