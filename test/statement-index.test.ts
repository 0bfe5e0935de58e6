/**
 * An editor buffer's index (FileUnit: scopes, bindings, changes in place, calls) and its lists of
 * nodes by type are read again only for the top-level statements an edit's tree did not take over
 * from the previous version; the others are replayed. The oracle: a unit indexed from scratch on
 * the same tree. Seeded edits (typing, deleting, lines added and removed, each slip undone) on
 * every fixture and example and on the editor benchmark's 3,000-line files.
 */
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { editorFile } from '../bench/corpus';
import type { LanguageId } from '../src/core/model';
import { frontEndFor } from '../src/lang/frontEnds';
import { Parsers } from '../src/lang/parsers';
import type { Node } from '../src/lang/parsers';
import type { Binding, Mutation } from '../src/lang/syntax';
import { FileUnit, Workspace } from '../src/lang/workspace';
import { FIXTURES, ROOT } from './helpers';
import { editorBuffers, Rng } from './robustness/fuzz';
import type { EditorBuffer } from './robustness/fuzz';

let parsers: Parsers;
beforeAll(async () => {
  parsers = await Parsers.load();
});

const where = (n: Node | undefined) => (n ? `${n.type}@${n.startIndex}-${n.endIndex}` : '-');
const binding = (b: Binding) => `${b.name}/${b.kind}/${where(b.at)}/${where(b.nameNode)}/${where(b.value)}/${b.position ?? ''}/${b.key ?? ''}/${b.importFrom ? `${b.importFrom.module}:${b.importFrom.name}` : ''}`;
const mutation = (m: Mutation) => `${m.name}/${m.method}/${where(m.node)}/${m.args.map(where).join(',')}`;

/** What the unit's index holds, by place and type (ids are the tree's, the same for both units). */
function described(unit: FileUnit, typeSets: ReadonlyArray<ReadonlySet<string>>): string {
  return JSON.stringify({
    scopes: unit.scopesInOrder.map((s) => ({
      node: where(s.node),
      id: s.node.id,
      parent: where(s.parent?.node),
      same: unit.scopeFor(s.node) === s,
      bindings: [...s.bindings].map(([name, list]) => [name, list.map(binding)]),
      mutations: [...s.mutations].map(([name, list]) => [name, list.map(mutation)]),
    })),
    calls: unit.calls.map(where),
    members: [...unit.memberMutations].map(([cls, byAttr]) => [cls, [...byAttr].map(([attr, list]) => [attr, list.map(mutation)])]),
    nodes: typeSets.map((types) => unit.nodesOfTypes(types).map(where)),
  });
}

/** The binding objects of every scope, in order: the replayed ones must be those a fresh index reads (node views are shared). */
function bindingObjects(unit: FileUnit): Binding[] {
  return unit.scopesInOrder.flatMap((s) => [...s.bindings.values()].flat());
}

/** Every fixture and example as an editor buffer; a notebook is its code cells, as Python. */
function buffers(): EditorBuffer[] {
  return editorBuffers([FIXTURES, path.join(ROOT, 'examples')]);
}

const SNIPPETS = ['x', '(', ')', ':', '"', '{', '}', '\n', '    ', 'def f(a):\n    return a\n', 'self.items.append(1)\n', 'import os\n', 'class K:\n    pass\n', 'const q = [];\n', 'function g(b) { return b; }\n', 'q.push(2);\n'];

/** The next version of a text: typing, a deletion, or a line added or removed. */
function changed(text: string, rng: Rng): string {
  const at = rng.int(0, text.length);
  switch (rng.int(0, 3)) {
    case 0:
      return text.slice(0, at) + SNIPPETS[rng.int(0, SNIPPETS.length - 1)] + text.slice(at);
    case 1:
      return text.slice(0, at) + text.slice(Math.min(text.length, at + rng.int(1, 12)));
    default: {
      const lines = text.split('\n');
      const i = rng.int(0, lines.length - 1);
      if (rng.chance(0.5)) lines.splice(i, 1);
      else lines.splice(i, 0, lines[rng.int(0, lines.length - 1)]);
      return lines.join('\n');
    }
  }
}

/**
 * Gives `versions` to one buffer of an editor's workspace, and after each compares its unit with
 * one indexed from scratch on the same tree; the counts of statements replayed.
 */
function check(file: string, language: LanguageId, versions: readonly string[], failures: string[], asTheServer = false): { replayed: number; statements: number } {
  const workspace = new Workspace(parsers, { readFile: () => undefined });
  const frontEnd = frontEndFor(language);
  const typeSets = [frontEnd.adapter.functionTypes, frontEnd.facts.nodeTypes.assignment, frontEnd.adapter.commentTypes];
  let replayed = 0;
  let statements = 0;
  versions.forEach((text, k) => {
    // The language server tells the workspace of each change before it analyses the text (which drops the last unit).
    if (asTheServer) workspace.edited(file, text, language);
    const unit = workspace.setText(file, text, language);
    const scratch = new FileUnit(workspace, file, language, text, unit.tree);
    const got = described(unit, typeSets);
    const want = described(scratch, typeSets);
    if (got !== want) failures.push(`${file}, version ${k}: the index differs from one read from scratch`);
    else {
      const a = bindingObjects(unit);
      const b = bindingObjects(scratch);
      if (a.length !== b.length || a.some((x, i) => x !== b[i])) failures.push(`${file}, version ${k}: other binding objects than the node views hold`);
    }
    replayed += unit.replayedStatements;
    for (let c = unit.tree.firstChild(0); c >= 0; c = unit.tree.nextSibling(c)) statements++;
  });
  return { replayed, statements };
}

describe('an editor buffer indexed statement by statement', () => {
  it('indexes what an index from scratch reads, edit after edit, in every fixture and example', () => {
    const all = buffers();
    expect(all.length).toBeGreaterThan(100);
    const rng = new Rng(20261204);
    const failures: string[] = [];
    let replayed = 0;
    let statements = 0;
    for (const b of all) {
      const versions = [b.text];
      let text = b.text;
      for (let k = 0; k < 6; k++) {
        const next = changed(text, rng);
        versions.push(next);
        // Every other change is undone (a slip, then its undo): the first version's statements come back.
        if (k % 2 === 1) versions.push(text);
        else text = next;
      }
      const r = check(b.file, b.language, versions, failures);
      replayed += r.replayed;
      statements += r.statements;
      if (failures.length >= 3) break;
    }
    expect(failures).toEqual([]);
    // Most statements are replayed: an edit reaches one or two of them.
    expect(replayed).toBeGreaterThan(statements / 2);
  }, 120_000);

  it('keeps no version of a buffer alive but the last (versions-kept.ts, in a process of its own)', () => {
    const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'run-ts.mjs'), 'test/versions-kept.ts'], { cwd: ROOT, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const kept = JSON.parse(r.stdout) as { versions: number; alive: number; control: boolean };
    expect(kept.control).toBe(false);
    // Each version's lists are read again (nodesOfTypes), after which the previous version's go.
    expect(kept.alive).toBe(1);
  }, 60_000);

  for (const language of ['python', 'typescript'] as const) {
    it(`indexes what an index from scratch reads on the editor benchmark file (${language}), keystroke after keystroke`, () => {
      const original = editorFile(language, 20261204);
      const rng = new Rng(language === 'python' ? 8101 : 8102);
      const versions = [original];
      let text = original;
      for (let k = 0; k < 40; k++) {
        // One character typed where the previous one was, mostly; now and then elsewhere.
        text = changed(text, rng);
        versions.push(text);
      }
      const failures: string[] = [];
      const r = check(language === 'python' ? 'bench.py' : 'bench.ts', language, versions, failures, true);
      expect(failures).toEqual([]);
      expect(r.replayed).toBeGreaterThan(r.statements * 0.8);
    }, 120_000);
  }
});
