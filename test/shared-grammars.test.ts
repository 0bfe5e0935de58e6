/**
 * The parser's runtime and grammars compiled once (Parsers.compile) and loaded from those
 * modules, as every lint worker of a run loads them: the trees are the ones the grammars loaded
 * from their files give, node for node, in every language. This file's first load is the one from
 * the compiled modules (web-tree-sitter's runtime starts once per thread), so a runtime started
 * from a module fails here first.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { LanguageId } from '../src/core/model';
import { languageForPath, Parsers } from '../src/lang/parsers';
import type { CompiledGrammars } from '../src/lang/parsers';
import { FIXTURES, sources, treeNodes } from './helpers';

let compiled: CompiledGrammars;
let fromModules: Parsers;
let fromFiles: Parsers;
beforeAll(async () => {
  compiled = await Parsers.compile();
  fromModules = await Parsers.load(undefined, compiled);
  fromFiles = await Parsers.load();
});

describe('grammars compiled once and shared', () => {
  it('are a runtime and one module per language', () => {
    expect(Object.keys(compiled.grammars).sort()).toEqual(['javascript', 'python', 'tsx', 'typescript']);
    expect(compiled.runtime).toBeInstanceOf((globalThis as unknown as { WebAssembly: { Module: new () => unknown } }).WebAssembly.Module);
  });

  const byLanguage = new Map<LanguageId, string[]>();
  for (const file of sources(FIXTURES)) {
    const lang = languageForPath(file);
    if (!lang) continue;
    if (!byLanguage.has(lang)) byLanguage.set(lang, []);
    byLanguage.get(lang)!.push(file);
  }

  for (const lang of ['python', 'typescript', 'tsx', 'javascript'] as const) {
    it(`parse the ${lang} fixtures into the trees the grammar files give`, () => {
      const files = byLanguage.get(lang) ?? [];
      expect(files.length).toBeGreaterThan(3);
      let read = 0;
      for (const file of files) {
        const text = fs.readFileSync(file, 'utf8');
        const a = fromModules.parse(lang, text);
        const b = fromFiles.parse(lang, text);
        expect(treeNodes(a), path.relative(FIXTURES, file)).toEqual(treeNodes(b));
        read += a.length;
      }
      expect(read).toBeGreaterThan(files.length * 20);
    });
  }
});
