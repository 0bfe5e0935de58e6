/**
 * The prefilter's words (core/literals.ts): the words read off a pattern are in every text it
 * matches, the scanner finds exactly the words a text holds, and a gate only skips a pattern
 * whose words are all missing.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PatternGate, WordScanner, requiredWords } from '../src/core/literals';
import { triggerTests } from '../src/core/rule';
import { FRAMEWORK_WORD, REQUEST_WORD_PATTERNS } from '../src/lang/requests';
import { allRules } from '../src/rules';
import { FIXTURES, ROOT, sources } from './helpers';

/** Every pattern the analyzer's gate is made of. */
const patterns = [...REQUEST_WORD_PATTERNS, ...allRules.flatMap((r) => triggerTests(r.meta.triggers))].filter((p): p is RegExp => p instanceof RegExp);

describe('requiredWords', () => {
  it('reads the words every match holds', () => {
    expect(requiredWords(/\bToolMessage\b/)).toEqual(['ToolMessage']);
    expect(requiredWords(/prompt_caching|promptCaching/)).toEqual(['promptCaching', 'prompt_caching']);
    expect(requiredWords(/\bcreate(?:React)?Agent\b/)).toEqual(['createAgent', 'createReactAgent']);
    expect(requiredWords(/\bwrite_(?:text|bytes)\b/)).toEqual(['write_bytes', 'write_text']);
    // The longest fixed run of a sequence is kept: `messages` over `.`.
    expect(requiredWords(/\bmessages\s*\.\s*create\b/)).toEqual(['messages']);
    // A lookbehind matches no characters of its own; what follows it is required.
    expect(requiredWords(/(?<=import\s)os\.open/)).toEqual(['os.open']);
    // Repeated at least once: one repetition's words.
    expect(requiredWords(/(?:abc|xyz)+\d/)).toEqual(['abc', 'xyz']);
    expect(requiredWords(/\b(?:import|from)\s+instructor\b/)).toEqual(['instructor']);
  });

  it('reads none where a match need hold no fixed word', () => {
    expect(requiredWords(/\w+/)).toBeUndefined();
    expect(requiredWords(/(?:abc)?\d/)).toBeUndefined();
    expect(requiredWords(/abc|\d+/)).toBeUndefined();
    expect(requiredWords(/x*/)).toBeUndefined();
    // Case ignored, or state kept between tests.
    expect(requiredWords(/ToolMessage/i)).toBeUndefined();
    expect(requiredWords(/ToolMessage/g)).toBeUndefined();
    // One character is no word worth a search; nor is a word the scanner cannot read.
    expect(requiredWords(/a\d/)).toBeUndefined();
    expect(requiredWords(/café/)).toBeUndefined();
    expect(requiredWords(/["'][rbtU]*w["']/)).toBeUndefined();
  });

  it('gives words that every match of every prefilter pattern holds, on every fixture and example', () => {
    const texts = [FIXTURES, path.join(ROOT, 'examples'), path.join(ROOT, 'test', 'robustness', 'workspaces')].flatMap((d) => sources(d)).map((f) => fs.readFileSync(f, 'utf8'));
    expect(texts.length).toBeGreaterThan(400);
    const gated = patterns.filter((p) => requiredWords(p));
    // Most of them have words: the gate is worth its pass.
    expect(gated.length).toBeGreaterThan(patterns.length * 0.7);
    const wrong: string[] = [];
    let matched = 0;
    for (const p of gated) {
      const words = requiredWords(p)!;
      const global = new RegExp(p.source, `${p.flags}g`);
      for (const text of texts) {
        for (const m of text.matchAll(global)) {
          matched++;
          // The match itself holds one (a stronger claim than the text holding one).
          if (!words.some((w) => m[0].includes(w))) wrong.push(`${p}: ${JSON.stringify(m[0])}`);
        }
      }
    }
    expect(matched).toBeGreaterThan(1000);
    expect(wrong).toEqual([]);
  });
});

describe('WordScanner', () => {
  /** A small random generator, so that a failure can be run again. */
  function random(seed: number): () => number {
    let s = seed;
    return () => {
      s = (s * 1103515245 + 12345) & 0x7fffffff;
      return s / 0x80000000;
    };
  }

  it('finds exactly the words a text holds, overlapping and nested ones too', () => {
    const next = random(7);
    const alphabet = ['a', 'b', 'c', 'h', 'e', 's', 'r', 'i', '_', '.', 'é', '\u4e2d', '\n', '\0'];
    for (let round = 0; round < 200; round++) {
      const words = new Set<string>(['he', 'she', 'his', 'hers']);
      const count = 1 + Math.floor(next() * 8);
      while (words.size < 4 + count) {
        let w = '';
        const length = 2 + Math.floor(next() * 5);
        while (w.length < length) w += alphabet[Math.floor(next() * 9)];
        words.add(w);
      }
      const list = [...words];
      const scanner = new WordScanner(list);
      let text = '';
      const length = Math.floor(next() * 300);
      while (text.length < length) text += alphabet[Math.floor(next() * alphabet.length)];
      const held = scanner.scan(text);
      expect(
        list.map((w, i) => [w, held[i] === 1]),
        text,
      ).toEqual(list.map((w) => [w, text.includes(w)]));
      // The same words from the text's UTF-8 bytes (a character of two or three bytes among them).
      expect([...scanner.scanBytes(Buffer.from(text, 'utf8'))], text).toEqual([...held]);
    }
  });

  it('refuses a word it cannot read', () => {
    expect(() => new WordScanner(['café'])).toThrow();
    expect(() => new WordScanner(['a\0b'])).toThrow();
  });
});

describe('PatternGate', () => {
  it('skips a pattern only when none of its words is in the text', () => {
    const toolMessage = /\bToolMessage\b/;
    const caching = /prompt_caching|promptCaching/;
    const anyTool = /tool/i;
    const gate = new PatternGate([toolMessage, caching, anyTool, FRAMEWORK_WORD]);
    expect(gate.gated).toBe(3);
    const held = gate.held('from langchain_core.messages import ToolMessage\nx = {"promptCaching": True}\n');
    expect(held.mayMatch(toolMessage)).toBe(true);
    expect(held.mayMatch(caching)).toBe(true);
    expect(held.mayMatch(FRAMEWORK_WORD)).toBe(false);
    const none = gate.held('def add(a, b):\n    return a + b\n');
    expect(none.mayMatch(toolMessage)).toBe(false);
    expect(none.mayMatch(caching)).toBe(false);
    expect(none.mayMatch(FRAMEWORK_WORD)).toBe(false);
    // A pattern that ignores case is not gated, nor one the gate was not made with: they run.
    expect(none.mayMatch(anyTool)).toBe(true);
    expect(none.mayMatch(/\bToolMessage\b/)).toBe(true);
  });

  it('reads the text once, and only when a gated pattern is asked about', () => {
    const toolMessage = /\bToolMessage\b/;
    const gate = new PatternGate([toolMessage]);
    const scanner = (gate as unknown as { scanner: WordScanner }).scanner;
    let scans = 0;
    const scan = scanner.scan.bind(scanner);
    scanner.scan = (text: string) => {
      scans++;
      return scan(text);
    };
    const held = gate.held('x = ToolMessage(content="")');
    expect(scans).toBe(0);
    expect(held.mayMatch(/unrelated/)).toBe(true);
    expect(scans).toBe(0);
    expect(held.mayMatch(toolMessage)).toBe(true);
    expect(held.mayMatch(toolMessage)).toBe(true);
    expect(scans).toBe(1);
  });
});
