/**
 * The evaluator decides an `if` chain from its tests (Evaluator.decide) to know which binding a
 * later use sees. `and` and `or`, and a comparison, read their right operand only when the left
 * one leaves the answer open: reading it can parse the modules it names.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Value } from '../src/core/value';
import { EvalBudget, Evaluator } from '../src/lang/evaluate';
import type { Node } from '../src/lang/parsers';
import { Parsers } from '../src/lang/parsers';
import { walk } from '../src/lang/walk';
import { Workspace } from '../src/lang/workspace';

let parsers: Parsers;
beforeAll(async () => {
  parsers = await Parsers.load();
});

const OTHER = 'FLAG = True\nLEVEL = "debug"\n';

/** The value `f` returns in `main.py` (with `test` as its `if`), and the characters the workspace parsed for it. */
function decided(test: string): { value: Value; parsed: number; main: number } {
  const main = `from other import FLAG, LEVEL\n\nMODE = "prod"\n\ndef f():\n    system = "You are terse."\n    if ${test}:\n        system = "You are verbose."\n    return system\n`;
  const files: Record<string, string> = { '/w/main.py': main, '/w/other.py': OTHER };
  const ws = new Workspace(parsers, { readFile: (p) => files[p], exists: (p) => p in files });
  const unit = ws.setText('/w/main.py', main);
  let last: Node | undefined;
  walk(unit.tree.rootNode, (n) => {
    if (n.type === 'return_statement') last = n.namedChildren[0];
  });
  const value = new Evaluator(new EvalBudget()).eval(unit, last!);
  return { value, parsed: ws.parsedChars, main: main.length };
}

const text = (v: Value) => (v.kind === 'str' ? v.text : v.kind);

describe('deciding a test', () => {
  it('reads the right operand of `and` and `or` only when the left one leaves the answer open', () => {
    for (const [test, expected] of [
      ['MODE == "dev" and FLAG', 'You are terse.'],
      ['MODE == "prod" or FLAG', 'You are verbose.'],
      ['MODE == "dev" and LEVEL == "debug"', 'You are terse.'],
    ] as const) {
      const r = decided(test);
      expect(text(r.value), test).toBe(expected);
      // The module the right operand names was not parsed.
      expect(r.parsed, test).toBe(r.main);
    }
  });

  it('reads it when the answer is open, and then decides from both', () => {
    for (const [test, expected] of [
      ['MODE == "prod" and FLAG', 'You are verbose.'],
      ['MODE == "dev" or LEVEL == "debug"', 'You are verbose.'],
      ['FLAG and MODE == "dev"', 'You are terse.'],
    ] as const) {
      const r = decided(test);
      expect(text(r.value), test).toBe(expected);
      expect(r.parsed, test).toBe(r.main + OTHER.length);
    }
  });
});
