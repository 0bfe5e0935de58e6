/**
 * A name found in a text without a regular expression made for it (core/words.ts, and the
 * definition heads of typescript/modules.ts): the same places as the patterns they replace, on
 * hand-written edge cases and on generated texts, with the patterns themselves as the oracle.
 */
import { describe, expect, it } from 'vitest';
import { generator } from './generator';
import { assignsName, declaresAfterKeyword, isWordBoundary, readsWholeName, wholeNameOffsets } from '../src/core/words';
import type { DefinitionHead } from '../src/lang/typescript/modules';
import { definitionHeads, typescriptModules } from '../src/lang/typescript/modules';

const escaped = (name: string) => name.replace(/[$]/g, '\\$');
const wholeNamePattern = (name: string, flags = '') => new RegExp(`(?<![\\w$])${escaped(name)}(?![\\w$])`, flags);
const keywordPattern = (keywords: readonly string[], name: string) => new RegExp(`\\b(?:${keywords.join('|')})\\s+${escaped(name)}\\b`);
const assignPattern = (name: string) => new RegExp(`\\b${escaped(name)}[ \\t]{0,8}(?::[^=\\n]{0,200})?=[^=]`);

/** The pattern definitionText read definition heads with, one per name, before definitionHeads. */
function definitionHeadPattern(name: string): RegExp {
  const n = escaped(name);
  return new RegExp(
    `(?:\\bfunction[ \\t]{0,8}\\*?[ \\t]{0,8}${n}[ \\t]{0,8}\\(|(?<![\\w$.])${n}[ \\t]{0,8}(?:=|:)[ \\t]{0,8}(?:async[ \\t]{0,8})?(?:function\\b|\\([^)]{0,400}\\)[ \\t]{0,8}(?::[^=\\n]{0,200})?=>|[\\w$]{1,80}[ \\t]{0,8}=>)|^[ \\t]{0,80}(?<method>(?:(?:public|private|protected|static|async|override|readonly)[ \\t]{1,8}){0,6})${n}[ \\t]{0,8}(?:<[^>\\n]{0,200}>)?[ \\t]{0,8}\\()`,
    'gm',
  );
}

/** The heads that pattern finds: where each starts, its text, and a method's modifiers. */
function headsByPattern(text: string, name: string): DefinitionHead[] {
  return [...text.matchAll(definitionHeadPattern(name))].map((m) => (m.groups?.method === undefined ? { index: m.index, head: m[0] } : { index: m.index, head: m[0], method: m.groups.method }));
}

/** Texts made of the pieces the patterns turn on: names and their neighbours, keywords, spaces of every kind, line breaks, brackets. */
function generatedText(seed: number, names: readonly string[]): string {
  const g = generator(seed);
  const pieces = [
    ...names,
    ...names.map((n) => `${n}x`),
    ...names.map((n) => `$${n}`),
    ...names.map((n) => `.${n}`),
    'function',
    'function*',
    'class',
    'def',
    'enum',
    'namespace',
    'async',
    'static',
    'public',
    'private',
    'readonly',
    'override',
    ' ',
    '  ',
    '\t',
    '\n',
    '\r\n',
    '\u2028',
    '\u00a0',
    '\u3000',
    '(',
    ')',
    '{',
    '}',
    '<T>',
    '<',
    '>',
    '=',
    '==',
    '=>',
    ':',
    ': string',
    ',',
    ';',
    '*',
    '.',
    'x',
    '_',
    '1',
    'é',
    // Pieces of definition heads, so that the generated texts hold many of each kind.
    'function ',
    ' = ',
    ' = (',
    ') => ',
    ' => ',
    '(x)',
    '(a, b) ',
    ' = async ',
    ' = function ',
    'x => ',
    '\n  ',
    '\n\t',
    'static async ',
    'public ',
    '(',
    ') {',
  ];
  let text = '';
  const length = 20 + g.int(120);
  for (let i = 0; i < length; i++) text += g.pick(pieces);
  return text;
}

describe('a name found without a pattern made for it', () => {
  it('finds whole names as `(?<![\\w$])name(?![\\w$])` does, on from the end of each one found', () => {
    expect(wholeNameOffsets('history history2 _history $history history', 'history')).toEqual([0, 35]);
    expect(wholeNameOffsets('aaa aa aa', 'aa')).toEqual([4, 7]);
    expect(wholeNameOffsets('$el.$el', '$el')).toEqual([0, 4]);
    expect(wholeNameOffsets('café x', 'caf')).toEqual([0]);
    expect(readsWholeName('if not history2:', 'history')).toBe(false);
    expect(readsWholeName('if not (history):', 'history')).toBe(true);
  });

  it('reads `\\b` as the patterns do: ASCII word characters only, `$` not one of them', () => {
    expect(isWordBoundary('a b', 1)).toBe(true);
    expect(isWordBoundary('ab', 1)).toBe(false);
    expect(isWordBoundary('$a', 1)).toBe(true);
    expect(isWordBoundary('é', 0)).toBe(false);
    expect(isWordBoundary('x', 1)).toBe(true);
  });

  it('finds a declaration after a keyword over any space `\\s` matches, and not inside a longer word', () => {
    expect(declaresAfterKeyword('class\u00a0Agent:', ['class'], 'Agent')).toBe(true);
    expect(declaresAfterKeyword('subclass Agent', ['class'], 'Agent')).toBe(false);
    expect(declaresAfterKeyword('class Agents', ['class'], 'Agent')).toBe(false);
    expect(declaresAfterKeyword('classAgent', ['class'], 'Agent')).toBe(false);
    expect(declaresAfterKeyword('def  send(', ['class', 'def'], 'send')).toBe(true);
  });

  it('finds an assignment or an annotated one, not a comparison', () => {
    expect(assignsName('Agent = make()', 'Agent')).toBe(true);
    expect(assignsName('Agent: type[Base] = make()', 'Agent')).toBe(true);
    expect(assignsName('if Agent == other:', 'Agent')).toBe(false);
    expect(assignsName('MyAgent = 1', 'Agent')).toBe(false);
  });

  it('agrees with the patterns on generated texts', () => {
    const names = ['send', 'get', 'a$b', '$el', 'static'];
    for (let seed = 1; seed <= 3000; seed++) {
      const text = generatedText(seed, names);
      for (const name of names) {
        const where = `seed ${seed}, ${JSON.stringify(name)} in ${JSON.stringify(text)}`;
        expect(wholeNameOffsets(text, name), where).toEqual([...text.matchAll(wholeNamePattern(name, 'g'))].map((m) => m.index));
        expect(readsWholeName(text, name), where).toBe(wholeNamePattern(name).test(text));
        expect(declaresAfterKeyword(text, ['class', 'def', 'function', 'namespace', 'enum'], name), where).toBe(keywordPattern(['class', 'def', 'function', 'namespace', 'enum'], name).test(text));
        expect(assignsName(text, name), where).toBe(assignPattern(name).test(text));
      }
    }
  });
});

describe('the definitions of a name in a TypeScript or JavaScript module text', () => {
  const definitions = (text: string, name: string) => typescriptModules.definitions(text)(name);

  it('reads functions, assigned functions and arrow functions, and methods with their modifiers', () => {
    const text = [
      'export async function send(prompt) {',
      '  return client.messages.create({ system: prompt });',
      '}',
      'const complete = async (prompt: string): Promise<string> => {',
      '  return send(prompt);',
      '};',
      'const short = (x) => x + 1;',
      'class Chat {',
      '  private static async reply<T>(turn: T): Promise<void> {',
      '    await send(turn);',
      '  }',
      '  run() { this.reply(1); }',
      '}',
      '',
    ].join('\n');
    expect(definitions(text, 'send')).toBe('function send(prompt) {\n  return client.messages.create({ system: prompt });\n}');
    expect(definitions(text, 'complete')).toBe('complete = async (prompt: string): Promise<string> => {\n  return send(prompt);\n}');
    expect(definitions(text, 'short')).toBe('short = (x) => x + 1;');
    expect(definitions(text, 'reply')).toBe('  private static async reply<T>(turn: T): Promise<void> {\n    await send(turn);\n  }');
    expect(definitions(text, 'missing')).toBeUndefined();
  });

  it('does not take a call, a longer name or an attribute for a definition', () => {
    const text = ['function sender() {}', 'obj.send = (x) => x;', '  send(prompt);', 'resend = function () {};', ''].join('\n');
    expect(definitions(text, 'send')).toBeUndefined();
  });

  it('reads a head found inside another head as part of that one (the search goes on from its end)', () => {
    const text = 'export const send = (send = (x) => x) => {\n  return send;\n};\n';
    expect(definitions(text, 'send')).toBe('send = (send = (x) => x) => {\n  return send;\n}');
    expect(definitionHeads(text, 'send')).toEqual(headsByPattern(text, 'send'));
  });

  it('finds the heads the pattern it replaces finds, on generated texts (no overlapping heads, the first alternative at a place)', () => {
    const names = ['send', 'get', 'a$b', 'static'];
    const kinds = { function: 0, assigned: 0, method: 0 };
    for (let seed = 1; seed <= 3000; seed++) {
      const text = generatedText(seed, names);
      for (const name of names) {
        const heads = definitionHeads(text, name);
        expect(heads, `seed ${seed}, ${JSON.stringify(name)} in ${JSON.stringify(text)}`).toEqual(headsByPattern(text, name));
        for (const h of heads) kinds[h.method !== undefined ? 'method' : text.startsWith('function', h.index) ? 'function' : 'assigned']++;
      }
    }
    // The texts hold heads of each kind (the comparison is not of empty lists only).
    expect(Math.min(kinds.function, kinds.assigned, kinds.method)).toBeGreaterThanOrEqual(20);
  });
});
