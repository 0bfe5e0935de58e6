/**
 * The walks over whole trees visit only the node types the front ends declare (Adapter `indexedTypes`,
 * `functionTypes`, `commentTypes`; FactSyntax `nodeTypes`): no node of any other type gets an answer from what the walk asks,
 * in any fixture, example or workspace shape, in every language. A type missing from a list
 * would drop bindings, calls, functions, filters or suppressions without a word.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { LanguageId } from '../src/core/model';
import { openDocument } from '../src/engine/document';
import { frontEndFor } from '../src/lang/frontEnds';
import { Parsers } from '../src/lang/parsers';
import type { Node } from '../src/lang/parsers';
import { FIXTURES, ROOT, sources } from './helpers';

let parsers: Parsers;
beforeAll(async () => {
  parsers = await Parsers.load();
});

describe('walked types', () => {
  const files = [FIXTURES, path.join(ROOT, 'examples'), path.join(ROOT, 'test', 'robustness', 'workspaces')].flatMap((d) => sources(d));

  it('no node of a type a walk passes over gets an answer from it', () => {
    const wrong = new Set<string>();
    const seen = new Set<LanguageId>();
    for (const file of files) {
      const doc = openDocument(file, fs.readFileSync(file, 'utf8'));
      if ('notice' in doc) continue;
      seen.add(doc.language);
      const { adapter, facts } = frontEndFor(doc.language);
      const { indexedTypes: indexed, functionTypes: functions, commentTypes: comments } = adapter;
      const w = facts.nodeTypes;
      const check = (n: Node) => {
        const t = n.type;
        const say = (what: string) => wrong.add(`${doc.language} ${t}: ${what} (${path.relative(ROOT, file)})`);
        if (!indexed.has(t)) {
          if (adapter.declares(n).length) say('declares');
          if (adapter.mutation(n)) say('mutation');
          if (adapter.isCall(n)) say('isCall');
          if (adapter.isScope(n)) say('isScope');
        }
        if (!functions.has(t) && adapter.isFunction(n)) say('isFunction');
        if (!comments.has(t) && adapter.isComment(n)) say('isComment');
        if (!w.assignment.has(t) && facts.assignment(n)) say('assignment');
        if (!w.filter.has(t) && facts.filter(n)) say('filter');
        if (!w.pathOperator?.has(t) && facts.isPathOperator?.(n)) say('isPathOperator');
      };
      parsers.parse(doc.language, doc.analysedText).rootNode.forEachNamedDescendant(check);
    }
    expect([...wrong]).toEqual([]);
    expect(seen).toEqual(new Set(['python', 'typescript', 'tsx', 'javascript']));
  }, 120_000);

  it('names only types its grammars have', () => {
    const missing: string[] = [];
    for (const family of [['python'], ['typescript', 'tsx', 'javascript']] as LanguageId[][]) {
      const names = new Set(family.flatMap((l) => parsers.parser(l).language!.types));
      const { adapter, facts } = frontEndFor(family[0]);
      for (const set of [adapter.indexedTypes, adapter.functionTypes, adapter.commentTypes, ...Object.values(facts.nodeTypes)] as ReadonlySet<string>[]) for (const t of set) if (!names.has(t)) missing.push(`${family[0]}: ${t}`);
    }
    expect(missing).toEqual([]);
  });

  it('a walk by types visits exactly the named nodes of those types, in order', () => {
    const tree = parsers.parse('python', 'def f(a):\n    # c\n    return [x for x in a if x]\n\nclass C:\n    y = f(1)\n');
    const all: string[] = [];
    tree.rootNode.forEachNamedDescendant((n) => {
      if (['function_definition', 'call', 'comment'].includes(n.type)) all.push(`${n.type}@${n.startIndex}`);
    });
    const some: string[] = [];
    tree.rootNode.forEachNamedDescendantOf(tree.typeMask(new Set(['function_definition', 'call', 'comment'])), (n) => some.push(`${n.type}@${n.startIndex}`));
    expect(some).toEqual(all);
    expect(some).toEqual(['function_definition@0', 'comment@14', 'call@67']);
  });

  it('marks in a type mask every id of those names, the ids the grammar does not name as ERROR', () => {
    for (const [language, text] of [['python', 'x = (\n'], ['tsx', 'const a = <div>{b</div>;']] as const) {
      const tree = parsers.parse(language, text);
      const types = tree.grammar.types;
      for (const names of [new Set(['call', 'identifier']), new Set(['ERROR', 'comment']), new Set(['ERROR'])]) {
        const mask = tree.typeMask(names);
        const wrong: number[] = [];
        for (let id = 0; id < 0x10000; id++) {
          const name = id === 0xffff ? 'ERROR' : (types[id] ?? 'ERROR');
          if (mask[id] !== (names.has(name) ? 1 : 0)) wrong.push(id);
        }
        expect(wrong, `${language} ${[...names].join(',')}`).toEqual([]);
        expect(mask.includes(1)).toBe(true);
      }
    }
  });
});
