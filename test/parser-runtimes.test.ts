/**
 * Each Parsers has a parser runtime of its own (treeSitterRuntime.ts runs web-tree-sitter's
 * script again for each): loads made at the same time in one thread each parse in their own
 * memory, a tree is read from the memory of the runtime that parsed it, and a command-line run's
 * Parsers drops a runtime whose memory long texts have grown for a new one (Parsers.renew).
 *
 * What the loads at the same time guard against: with one web-tree-sitter module per thread, a
 * load in flight while another started made a runtime of its own, the last to finish took over,
 * and grammars read into the others' memory were handed to it by address ("Incompatible language
 * version", "memory access out of bounds"). This file's loads are the thread's first (vitest runs
 * each test file in a thread of its own), so that race is what they meet.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Parsers } from '../src/lang/parsers';
import type { CompiledGrammars } from '../src/lang/parsers';
import { keptWasmTreeCount, treeReading } from '../src/lang/syntaxTree';
import { INITIAL_PAGES, newTreeSitterModule, RUNTIME_SCRIPT, withInitialPages, withNativeInputCopy } from '../src/lang/treeSitterRuntime';
import { FIXTURES, sources, treeNodes } from './helpers';

const PACKAGE = path.join(__dirname, '..', 'node_modules', 'web-tree-sitter');

/** A Python text of about `chars` characters: functions with calls, strings and comprehensions. */
function longPython(chars: number): string {
  const unit = 'def f{n}(a, b=None):\n    """Doc."""\n    x = [i * 2 for i in range(a) if i % 3]\n    return g(x, key="k{n}", other={"a": 1, "b": [1, 2, 3]})\n\n';
  const out: string[] = [];
  for (let n = 0, size = 0; size < chars; n++) {
    const s = unit.replaceAll('{n}', String(n));
    out.push(s);
    size += s.length;
  }
  return out.join('');
}

/** Lets the event loop run (a standby runtime is made asynchronously). */
const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('parser runtimes', () => {
  it('are one per load, also for loads made at the same time, and every load parses with its own', async () => {
    const compiled = await Parsers.compile();
    // Counts the runtimes started from the compiled modules: each takes the compiled runtime once (Runtime.start).
    let started = 0;
    const counted: CompiledGrammars = {
      get runtime() {
        started++;
        return compiled.runtime;
      },
      grammars: compiled.grammars,
      initialPages: compiled.initialPages,
    };
    // As the unit suite met it: a language server's parsers loading from their files while a
    // command-line run in the same thread loads from the compiled modules.
    const loads = await Promise.all([Parsers.load(), Parsers.load(undefined, counted), Parsers.load(undefined, counted)]);
    expect(started).toBe(2);
    loads.push(await Parsers.load(undefined, counted));
    expect(started).toBe(3);

    const files = sources(FIXTURES).filter((f) => (f.endsWith('.py') || f.endsWith('.ts')) && fs.statSync(f).size > 300);
    expect(files.length).toBeGreaterThan(10);
    for (const file of files.slice(0, 12)) {
      const lang = file.endsWith('.py') ? 'python' : 'typescript';
      const text = fs.readFileSync(file, 'utf8');
      // Parses in turn from each load: each tree is read from its runtime's own memory (a tree read
      // with another runtime's binding would fall back to web-tree-sitter's cursor).
      const trees = loads.map((p) => {
        const tree = p.parse(lang, text);
        expect(treeReading(), file).toBe('memory');
        return tree;
      });
      for (const t of trees.slice(1)) expect(treeNodes(t), file).toEqual(treeNodes(trees[0]));
      expect(trees[0].length).toBeGreaterThan(5);
    }
  });

  it('are instances of web-tree-sitter that share nothing', async () => {
    const script = path.join(PACKAGE, RUNTIME_SCRIPT);
    const a = newTreeSitterModule(script);
    const b = newTreeSitterModule(script);
    expect(a.inputCopy).toBe('native');
    expect(a.module.Parser).not.toBe(b.module.Parser);
    const optionsA: Record<string, unknown> = {};
    const optionsB: Record<string, unknown> = {};
    await a.module.Parser.init(optionsA);
    await b.module.Parser.init(optionsB);
    expect(optionsA.HEAP8).toBeInstanceOf(Int8Array);
    expect((optionsA.HEAP8 as Int8Array).buffer).not.toBe((optionsB.HEAP8 as Int8Array).buffer);
    // As published, the runtime's memory starts at 32 MB.
    expect((optionsA.HEAP8 as Int8Array).length).toBe(32 * 1024 * 1024);
  });

  it('start with a small memory that grows as the parser needs it', async () => {
    const parsers = await Parsers.load();
    expect(parsers.memoryBytes).toBeLessThan(4 * 1024 * 1024);
    const text = longPython(400_000);
    const before = parsers.memoryBytes;
    const tree = parsers.parse('python', text);
    expect(tree.length).toBeGreaterThan(50_000);
    expect(parsers.memoryBytes).toBeGreaterThan(before + 4 * 1024 * 1024);
    // The tree is the one of a runtime as published (32 MB from the start).
    const published = await Parsers.load(undefined, undefined, { inputCopy: 'as-published' });
    expect(published.memoryBytes).toBe(32 * 1024 * 1024);
    expect(treeNodes(published.parse('python', text))).toEqual(treeNodes(tree));
  });

  it('are renewed after long texts in a run that asks for it, between parses of short ones', async () => {
    const parsers = await Parsers.load(undefined, undefined, { renew: true });
    await turn();
    const short = fs.readFileSync(path.join(FIXTURES, sources(FIXTURES).find((f) => f.endsWith('.py') && fs.statSync(f).size > 500)!.slice(FIXTURES.length + 1)), 'utf8');
    const expected = treeNodes(parsers.parse('python', short));
    const long = longPython(400_000);
    const longTree = treeNodes(parsers.parse('python', long));
    const grown = parsers.memoryBytes;
    expect(grown).toBeGreaterThan(8 * 1024 * 1024);
    // A long text after it is parsed with the grown runtime; a short one, with a new one.
    expect(treeNodes(parsers.parse('python', long))).toEqual(longTree);
    expect(parsers.renewals).toBe(0);
    expect(treeNodes(parsers.parse('python', short))).toEqual(expected);
    expect(treeReading()).toBe('memory');
    expect(parsers.renewals).toBe(1);
    expect(parsers.memoryBytes).toBeLessThan(grown / 2);
    // The next standby is made while the event loop runs; the new runtime parses long texts too.
    await turn();
    expect(treeNodes(parsers.parse('python', long))).toEqual(longTree);
    expect(parsers.renewals).toBe(1);
    expect(treeNodes(parsers.parse('python', short))).toEqual(expected);
    expect(parsers.renewals).toBe(2);
  });

  it('are not renewed while a tree keeps its WASM tree, nor unless asked', async () => {
    const kept = await Parsers.load(undefined, undefined, { renew: true });
    await turn();
    const long = longPython(400_000);
    const edited = kept.parseEdited('python', long);
    expect(keptWasmTreeCount()).toBeGreaterThan(0);
    kept.parse('python', 'x = 1\n');
    expect(kept.renewals).toBe(0);
    edited.release();
    kept.parse('python', 'x = 1\n');
    expect(kept.renewals).toBe(1);

    const editor = await Parsers.load();
    await turn();
    editor.parse('python', long);
    await turn();
    editor.parse('python', 'x = 1\n');
    expect(editor.renewals).toBe(0);
  });
});

describe("the changes made to web-tree-sitter's code and module", () => {
  it('find the input copy loop once in the installed script', () => {
    const published = fs.readFileSync(path.join(PACKAGE, RUNTIME_SCRIPT), 'utf8');
    const native = withNativeInputCopy(published);
    expect(native).toBeDefined();
    expect(native).toMatch(/Buffer\.from\(HEAPU8\.buffer, outPtr, units \* 2\)\.write\(/);
    expect(native).not.toMatch(/LE_HEAP_STORE_I16\(\(outPtr >> 1\) \* 2, codeUnit\)/);
    // A script without the loop, or with it twice, is left as published.
    expect(withNativeInputCopy('var x = 1;')).toBeUndefined();
    const loop = /for \(var (\w+) = 0; \1 < numCharsToWrite;[\s\S]*?outPtr \+= 2;\s*\}/.exec(published)![0];
    expect(withNativeInputCopy(`${loop}\n${loop}`)).toBeUndefined();
  });

  it("lower the runtime module's memory minimum in place", () => {
    const published = fs.readFileSync(path.join(PACKAGE, 'web-tree-sitter.wasm'));
    const smaller = withInitialPages(published, INITIAL_PAGES)!;
    expect(smaller).toBeDefined();
    expect(smaller.length).toBe(published.length);
    // The module imports a memory of at least INITIAL_PAGES pages now, and 512 (32 MB) before.
    const Wasm = (globalThis as unknown as { WebAssembly: { Module: new (b: Uint8Array) => object; validate(b: Uint8Array): boolean } }).WebAssembly;
    expect(Wasm.validate(smaller)).toBe(true);
    const changed: number[] = [];
    for (let i = 0; i < published.length; i++) if (published[i] !== smaller[i]) changed.push(i);
    expect(changed.length).toBeGreaterThan(0);
    expect(changed.length).toBeLessThanOrEqual(2);
    expect(withInitialPages(published, 1000)).toBeUndefined();
    expect(withInitialPages(new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]), 16)).toBeUndefined();
    expect(withInitialPages(published.subarray(0, 100), 16)).toBeUndefined();
  });
});
