/**
 * Parsers loaded at the same time in one thread share one parser runtime (startRuntime in
 * parsers.ts). web-tree-sitter made a runtime for each load in flight, and the last to finish
 * took over while the grammars the others had read stayed in their own runtime's memory. This
 * file's loads are the thread's first (vitest runs each test file in a thread of its own), so
 * the race is what they meet.
 */
import * as fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Parsers } from '../src/lang/parsers';
import type { CompiledGrammars } from '../src/lang/parsers';
import { treeReading } from '../src/lang/syntaxTree';
import { FIXTURES, sources, treeNodes } from './helpers';

describe('parser runtime', () => {
  it('starts once for loads made at the same time, and every load parses with it', async () => {
    const compiled = await Parsers.compile();
    // Counts the runtimes started from the compiled modules: each takes the compiled runtime once (Parsers.load's instantiateWasm).
    let started = 0;
    const counted: CompiledGrammars = {
      get runtime() {
        started++;
        return compiled.runtime;
      },
      grammars: compiled.grammars,
    };
    // As the unit suite met it: a language server's parsers loading from their files while a
    // command-line run in the same thread loads from the compiled modules.
    const loads = await Promise.all([Parsers.load(), Parsers.load(undefined, counted), Parsers.load(undefined, counted)]);
    // The runtime is the first load's (from its file); the others joined it.
    expect(started).toBe(0);
    // A load after them joins it too.
    loads.push(await Parsers.load(undefined, counted));
    expect(started).toBe(0);

    const files = sources(FIXTURES).filter((f) => (f.endsWith('.py') || f.endsWith('.ts')) && fs.statSync(f).size > 300);
    expect(files.length).toBeGreaterThan(10);
    for (const file of files.slice(0, 12)) {
      const lang = file.endsWith('.py') ? 'python' : 'typescript';
      const text = fs.readFileSync(file, 'utf8');
      const trees = loads.map((p) => p.parse(lang, text));
      // Each tree is read from the runtime's own memory (a runtime the reader was not bound to
      // would fall back to web-tree-sitter's cursor), and all give the same nodes.
      expect(treeReading(), file).toBe('memory');
      for (const t of trees.slice(1)) expect(treeNodes(t), file).toEqual(treeNodes(trees[0]));
      expect(trees[0].length).toBeGreaterThan(5);
    }
  });
});
