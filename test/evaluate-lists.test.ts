/**
 * What the evaluator knows of a list's ends after the code changes or cuts it: the first items
 * (`head`) and whether the last item seen is the last (`tailKnown`). Rules read the newest turn
 * and the leading blocks from these, and a fix writes into that turn: a claim that does not hold
 * moves data into a turn the request does not send.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { ListValue, Value } from '../src/core/value';
import { EvalBudget, Evaluator } from '../src/lang/evaluate';
import type { Node } from '../src/lang/parsers';
import { Parsers } from '../src/lang/parsers';
import { walk } from '../src/lang/walk';
import { Workspace } from '../src/lang/workspace';

let parsers: Parsers;
beforeAll(async () => {
  parsers = await Parsers.load();
});

/** The value of the expression `returned` in the last `return` of `text`, read by an evaluator that applies only the changes that certainly run when `certain`. */
function returned(file: string, text: string, certain = false): Value {
  const ws = new Workspace(parsers, { readFile: () => undefined });
  const unit = ws.setText(file, text);
  let last: Node | undefined;
  walk(unit.tree.rootNode, (n) => {
    if (n.type === 'return_statement') last = n.namedChildren[0];
  });
  expect(last, 'a return statement').toBeDefined();
  return new Evaluator(new EvalBudget(), certain).eval(unit, last!);
}

function list(v: Value): ListValue {
  expect(v.kind).toBe('list');
  return v as ListValue;
}

describe('the ends of a list', () => {
  it('a cut at the end leaves no last item known (Python and TypeScript)', () => {
    const py = 'def f(history):\n    turns = [*history, {"role": "user", "content": "q"}]\n    return turns[:-1]\n';
    expect(list(returned('/w/a.py', py)).tailKnown).toBeFalsy();
    const whole = 'def f(history):\n    turns = [*history, {"role": "user", "content": "q"}]\n    return turns[1:]\n';
    expect(list(returned('/w/b.py', whole)).tailKnown).toBe(true);
    const ts = 'function f(history: any[]) {\n  const turns = [...history, { role: "user", content: "q" }];\n  return turns.slice(0, -1);\n}\n';
    expect(list(returned('/w/a.ts', ts)).tailKnown).toBeFalsy();
    const tsFrom = 'function f(history: any[]) {\n  const turns = [...history, { role: "user", content: "q" }];\n  return turns.slice(-4);\n}\n';
    expect(list(returned('/w/b.ts', tsFrom)).tailKnown).toBe(true);
  });

  it('a change that may run and is left out keeps the first items only when it adds at the end', () => {
    const base = (change: string) => `SYSTEM = {"role": "system", "content": "s"}\n\ndef f(history, flag):\n    msgs = [SYSTEM, *history]\n    if flag:\n        ${change}\n    return msgs\n`;
    expect(list(returned('/w/c.py', base('msgs.append({"role": "user", "content": "x"})'), true)).head).toBe(1);
    expect(list(returned('/w/d.py', base('msgs.insert(0, {"role": "user", "content": "x"})'), true)).head ?? 0).toBe(0);
    expect(list(returned('/w/e.py', base('msgs.pop(0)'), true)).head ?? 0).toBe(0);
  });
});
