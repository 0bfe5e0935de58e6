/**
 * Between two analyses of a command-line run, the parsed files the workspace keeps for the files
 * that import them keep only the node views their index holds (Workspace.dropViews): the views
 * an analysis made, and the expression views kept on nodes, are let go of. Nothing reads such a
 * view again, and no finding changes.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Analyzer } from '../src/engine/analyzer';
import type { FileResult } from '../src/engine/analyzer';
import { openDocument } from '../src/engine/document';
import { Parsers } from '../src/lang/parsers';
import { readingDroppedViewsFails, Workspace } from '../src/lang/workspace';
import { diskHost, FIXTURES, ROOT, sources } from './helpers';

/** A module whose function a request file calls, with a string deep in one of its calls. */
const MODULE = `import anthropic

client = anthropic.Anthropic()

def send(task):
    header = "You are terse."
    return client.messages.create(model="claude-sonnet-4-6", max_tokens=256, system=header + task, messages=[])
`;

function run(a: Analyzer, file: string): FileResult {
  const doc = openDocument(file, fs.readFileSync(file, 'utf8'));
  if ('notice' in doc) throw new Error(`${file}: ${doc.notice}`);
  return a.analyze(file, doc.analysedText, doc.language);
}

/** What a user sees of a result: findings with their ranges, messages and fixes, and the notice. */
function seen(r: FileResult): unknown {
  return {
    notice: r.notice,
    diagnostics: r.diagnostics.map((d) => ({ rule: d.ruleId, severity: d.severity, at: [d.at.start, d.at.end], message: d.message, fix: d.fix, related: d.related })),
  };
}

beforeAll(() => readingDroppedViewsFails(true));
afterAll(() => readingDroppedViewsFails(false));

describe('node views let go of between analyses', () => {
  it('changes no finding, fix or notice of any fixture, example or workspace shape, and none reads a view let go of', async () => {
    // One run's analyzer for all of them, as a lint thread's: the files parsed for one analysis
    // are kept for the next ones, and their views let go of in between.
    const dropping = await Analyzer.create({ host: diskHost(), textsFromHost: true, textsStay: true });
    const keeping = await Analyzer.create({ host: diskHost(), textsFromHost: true });
    const files = [FIXTURES, path.join(ROOT, 'examples'), path.join(ROOT, 'test', 'robustness', 'workspaces')].flatMap((d) => sources(d));
    expect(files.length).toBeGreaterThan(400);
    const differ: string[] = [];
    for (const file of files) if (JSON.stringify(seen(run(dropping, file))) !== JSON.stringify(seen(run(keeping, file)))) differ.push(path.relative(ROOT, file));
    expect(differ).toEqual([]);
  }, 120_000);

  it('keeps the views the index holds and the parse, and lets go of the others', async () => {
    const parsers = await Parsers.load();
    const file = path.join(ROOT, 'proj', 'llm.py');
    const host = { readFile: (p: string) => (p === file ? MODULE : undefined) };
    const views = (textsStay: boolean) => {
      const ws = new Workspace(parsers, host, 0, undefined, textsStay);
      const unit = ws.setText(file, MODULE, 'python');
      const send = unit.module.bindings.get('send')![0];
      // What an analysis reads: the call's expression view, and a node deep inside it.
      const call = unit.calls.find((c) => c.text.startsWith('client.messages.create'))!;
      unit.adapter.expr(call);
      const deep = unit.tree.rootNode.descendantForIndex(MODULE.indexOf('claude-sonnet'));
      expect(deep.type).toBe('string_content');
      const parsed = ws.parsedChars;
      ws.dropViews();
      return { ws, unit, send, call, deep, parsed };
    };

    const { ws, unit, send, call, deep, parsed } = views(true);
    // The index's nodes are the same objects as before, and the file was not parsed again.
    expect(unit.tree.node(send.nameNode.index)).toBe(send.nameNode);
    expect(unit.tree.node(call.index)).toBe(call);
    expect(unit.calls).toContain(call);
    expect(ws.get(file)).toBe(unit);
    expect(ws.parsedChars).toBe(parsed);
    // What the analysis made of them is read again on demand.
    expect(call.exprView).toBeUndefined();
    expect(unit.tree.madeNode(deep.index)).toBeUndefined();
    expect(() => deep.type).toThrow(/let go of/);
    expect(unit.tree.node(deep.index)!.type).toBe('string_content');

    // A workspace whose texts may change (an editor's) keeps every view.
    const editor = views(false);
    expect(editor.call.exprView).toBeDefined();
    expect(editor.unit.tree.madeNode(editor.deep.index)).toBe(editor.deep);
  });
});
