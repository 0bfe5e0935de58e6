/**
 * The node-type lists the walks over whole files rely on. A walk looks only at the nodes whose
 * type is in an adapter's list (`indexedTypes`, `functionTypes`, `commentTypes`, the facts'
 * `nodeTypes`) and never asks the other nodes anything: a type missing from a list would drop a
 * binding, a call or a comment without a sound. So every node of every fixture and example
 * (and of their fuzzed variants, which have syntax errors) that one of the questions answers for
 * must have a listed type. Also: the walks that use the lists visit what a full walk with the
 * same question visits.
 */
import * as path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { LanguageId } from '../src/core/model';
import { frontEndFor } from '../src/lang/frontEnds';
import { Notebook } from '../src/lang/notebook';
import { languageForPath, Parsers } from '../src/lang/parsers';
import type { Node, Tree } from '../src/lang/parsers';
import { collectReturns, walk, walkTypes } from '../src/lang/walk';
import { FIXTURES, ROOT } from './helpers';
import { collectInputs, MUTATIONS, Rng } from './robustness/fuzz';

let parsers: Parsers;
beforeAll(async () => {
  parsers = await Parsers.load();
});

/** Every construct the switches of the adapters and facts read, whether fixtures have it or not. */
const CONSTRUCTS: Record<'python' | 'typescript', string> = {
  python: `import os, a.b as c
import x.y
from m import n, o as p
from . import q
x = 1
a, b = 1, 2
[c, d] = [1, 2]
x += 1
if (y := f()):
    pass
for i in range(3):
    pass
for i, j in pairs:
    pass
z = [k for k in xs if k]
w = [k for k, v in d.items()]
kept = list(filter(lambda t: t.ok, tools))
with open("f") as fh:
    pass
try:
    pass
except Exception as e:
    pass
def f(a, b=1, *args, c: int = 2, **kw):
    return a
class C:
    x = 1
    def m(self):
        self.items.append(1)
lst = []
lst.append(1)
del lst[:1]
d = {}
d["k"] = 1
g = lambda v: v
s = {v for v in xs if v}
dd = {k: v for k, v in xs}
gen = (v for v in xs if v)
path = root / "a" / "b"
@dec
def h():
    pass
# a comment
`,
  typescript: `import a from 'a';
import * as b from 'b';
import { c, d as e, "f" as g } from 'c';
import type { T } from 't';
const x = 1, y = 2;
let { p, q: r, s = 1 } = obj;
const [u, v] = arr;
var w;
w = 3;
w += 1;
for (const k of ks) {}
for (const [k2, v2] of m) {}
for (const k3 in o) {}
try {} catch (err) {}
try {} catch {}
function f(a: number, b = 1, ...rest: number[]) { return a; }
function* gen() { yield 1; }
class C { x = 1; m() { this.items.push(1); } get g() { return 1; } }
const E = class {};
const arrow = (z) => z;
const fe = function () {};
const ge = function* () {};
list.push(1);
obj.key = 1;
obj[k] = 2;
new Foo();
foo();
const kept = tools.filter((t) => t.ok);
// a comment
`,
};

function sources(): Array<{ file: string; language: LanguageId; text: string }> {
  const out: Array<{ file: string; language: LanguageId; text: string }> = [
    { file: 'constructs.py', language: 'python', text: CONSTRUCTS.python },
    { file: 'constructs.ts', language: 'typescript', text: CONSTRUCTS.typescript },
    { file: 'constructs.js', language: 'javascript', text: CONSTRUCTS.typescript.replace(/^import type.*\n/m, '').replace(/: number(\[\])?/g, '') },
  ];
  const rng = new Rng(20261201);
  const inputs = collectInputs([FIXTURES, path.join(ROOT, 'examples')]);
  for (const input of inputs) {
    let text = input.text;
    let language = languageForPath(input.file);
    if (input.ext === '.ipynb') {
      const nb = Notebook.parse(input.text);
      if (!(nb instanceof Notebook)) continue;
      text = nb.virtual.text;
      language = 'python';
    }
    if (!language) continue;
    out.push({ file: input.file, language, text });
    // A broken variant: error recovery makes node shapes that clean code does not have.
    const name = rng.pick(Object.keys(MUTATIONS));
    out.push({ file: `${input.file} (${name})`, language, text: MUTATIONS[name](text, rng, inputs) });
  }
  return out;
}

/** The named nodes of a tree (the walks visit named nodes only). */
function namedNodes(tree: Tree): Node[] {
  const out: Node[] = [];
  walk(tree.rootNode, (n) => out.push(n));
  return out;
}

/** What the questions the index asks answer for a node (empty when nothing). */
function indexAnswers(language: LanguageId, n: Node): string[] {
  const a = frontEndFor(language).adapter;
  const out: string[] = [];
  if (a.declares(n).length) out.push('declares');
  if (a.mutation(n)) out.push('mutation');
  if (a.isCall(n)) out.push('isCall');
  if (a.isScope(n)) out.push('isScope');
  return out;
}

describe('node types the walks look for', () => {
  it('list every type a question answers for, on every fixture and example and broken variants of them', () => {
    const missing = new Set<string>();
    /** Listed types no node answered for: each list must be exercised, or a missing type could go unseen. */
    const unexercised = new Set<string>();
    for (const language of ['python', 'typescript'] as const) {
      const { adapter, facts } = frontEndFor(language);
      for (const t of adapter.indexedTypes) unexercised.add(`${language} indexed ${t}`);
      for (const t of facts.nodeTypes.assignment) unexercised.add(`${language} assignment ${t}`);
      for (const t of facts.nodeTypes.filter) unexercised.add(`${language} filter ${t}`);
      for (const t of facts.nodeTypes.pathOperator ?? []) unexercised.add(`${language} pathOperator ${t}`);
    }
    let nodes = 0;
    for (const s of sources()) {
      const fe = frontEndFor(s.language);
      const { adapter, facts } = fe;
      for (const n of namedNodes(parsers.parse(s.language, s.text))) {
        nodes++;
        const where = `${s.language} ${n.type} (${path.relative(ROOT, s.file)})`;
        const family = s.language === 'python' ? 'python' : 'typescript';
        const answers = indexAnswers(s.language, n);
        for (const q of answers) if (!adapter.indexedTypes.has(n.type)) missing.add(`${where}: ${q}`);
        if (answers.length) unexercised.delete(`${family} indexed ${n.type}`);
        if (adapter.isFunction(n) !== adapter.functionTypes.has(n.type)) missing.add(`${where}: isFunction`);
        if (adapter.isComment(n) && !adapter.commentTypes.has(n.type)) missing.add(`${where}: isComment`);
        if (facts.assignment(n)) {
          if (!facts.nodeTypes.assignment.has(n.type)) missing.add(`${where}: assignment`);
          unexercised.delete(`${family} assignment ${n.type}`);
        }
        if (facts.filter(n)) {
          if (!facts.nodeTypes.filter.has(n.type)) missing.add(`${where}: filter`);
          unexercised.delete(`${family} filter ${n.type}`);
        }
        if (facts.isPathOperator?.(n)) {
          if (!facts.nodeTypes.pathOperator?.has(n.type)) missing.add(`${where}: isPathOperator`);
          unexercised.delete(`${family} pathOperator ${n.type}`);
        }
      }
    }
    expect([...missing].slice(0, 20)).toEqual([]);
    // A listed type no grammar has as a named node (an older grammar's name) cannot be exercised.
    const named = (language: LanguageId) => {
      const g = parsers.parse(language, '').grammar;
      return new Set(g.types.filter((_, id) => g.named[id]));
    };
    const grammars = { python: [named('python')], typescript: [named('typescript'), named('tsx'), named('javascript')] };
    expect([...unexercised].filter((u) => {
      const [family, , type] = u.split(' ');
      return grammars[family as 'python' | 'typescript'].some((g) => g.has(type));
    })).toEqual([]);
    expect(nodes).toBeGreaterThan(100_000);
  }, 120_000);

  it('walkTypes visits what walk visits with the same type check, in the same order and at the same depths', () => {
    const types = new Set(['call', 'call_expression', 'string', 'identifier', 'ERROR', 'module', 'program', 'comment']);
    for (const s of sources().slice(0, 80)) {
      const tree = parsers.parse(s.language, s.text);
      for (const root of [tree.rootNode, ...tree.rootNode.namedChildren.slice(0, 3)]) {
        const full: string[] = [];
        const typed: string[] = [];
        walk(root, (n, depth) => {
          if (types.has(n.type)) full.push(`${n.index}:${depth}`);
        });
        walkTypes(root, types, (n, depth) => typed.push(`${n.index}:${depth}`));
        expect(typed, s.file).toEqual(full);
      }
    }
  });

  it('collectReturns finds the returns that recursing over the named children finds', () => {
    /** The old way: recursion over the named children but comments. */
    const recursive = (node: Node, nested: ReadonlySet<string>, out: Node[]) => {
      for (const c of node.namedChildren.filter((x) => x.type !== 'comment')) {
        if (nested.has(c.type)) continue;
        if (c.type === 'return_statement') {
          const v = c.namedChildren.filter((x) => x.type !== 'comment')[0];
          if (v) out.push(v);
          continue;
        }
        recursive(c, nested, out);
      }
    };
    let found = 0;
    for (const s of sources()) {
      const fe = frontEndFor(s.language);
      const nested = new Set([...fe.adapter.functionTypes, 'class_definition', 'class_declaration']);
      for (const n of namedNodes(parsers.parse(s.language, s.text))) {
        if (!fe.adapter.isFunction(n)) continue;
        const want: Node[] = [];
        const got: Node[] = [];
        recursive(n, nested, want);
        collectReturns(n, { returnType: 'return_statement', commentTypes: new Set(['comment']), nested }, got);
        expect(got.map((x) => x.index), s.file).toEqual(want.map((x) => x.index));
        found += got.length;
      }
    }
    expect(found).toBeGreaterThan(500);
  }, 120_000);
});
