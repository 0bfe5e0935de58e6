/**
 * pythonFunctionSpans: where a Python text's functions may run, read before parsing. Each span
 * must hold its whole function as the parser reads it (checked against the parser here), and a
 * text the reading cannot be sure of has no answer.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { pythonFunctionSpans } from '../src/core/pythonFunctionSpans';
import { Parsers } from '../src/lang/parsers';
import type { Node } from '../src/lang/parsers';

let parsers: Parsers;
beforeAll(async () => {
  parsers = await Parsers.load();
});

/** Each function the parser finds, as [name, start, end]. */
function parsed(text: string): Array<[string, number, number]> {
  const out: Array<[string, number, number]> = [];
  const visit = (n: Node) => {
    if (n.type === 'function_definition') out.push([n.childForFieldName('name')!.text, n.startIndex, n.endIndex]);
    for (const c of n.namedChildren) if (c) visit(c);
  };
  visit(parsers.parse('python', text).rootNode);
  return out;
}

/** The spans as [name, text of the span]. */
function spans(text: string): Array<[string, string]> | undefined {
  return pythonFunctionSpans(text)?.map((s) => [s.name, text.slice(s.start, s.end)]);
}

/** Every function the parser finds lies inside a span of its name. */
function expectCovered(text: string): void {
  const found = pythonFunctionSpans(text)!;
  expect(found).toBeDefined();
  for (const [name, start, end] of parsed(text)) expect(found.some((s) => s.name === name && s.start <= start && end <= s.end), `${name} ${start}-${end}`).toBe(true);
}

describe('pythonFunctionSpans', () => {
  it('runs a function to the next statement indented no deeper, past blank lines, comments and nested functions', () => {
    const text = [
      'import os',
      '',
      'class Store:',
      '    def save(self, name):',
      '        def inner():',
      '            return 1',
      '',
      '# a comment at the margin ends nothing',
      '        return os.path.join(self.root, name)',
      '',
      '    @property',
      '    def root(self):',
      '        return "/srv"',
      '',
      'async def main(): return 2',
      'x = 1',
      '',
    ].join('\n');
    expect(spans(text)).toEqual([
      ['save', '    def save(self, name):\n        def inner():\n            return 1\n\n# a comment at the margin ends nothing\n        return os.path.join(self.root, name)\n\n'],
      ['inner', '        def inner():\n            return 1\n\n# a comment at the margin ends nothing\n'],
      ['root', '    def root(self):\n        return "/srv"\n\n'],
      ['main', 'async def main(): return 2\n'],
    ]);
    expectCovered(text);
  });

  it('is not ended by lines inside strings, brackets or after a backslash, whatever their indentation', () => {
    const text = [
      'def handle(tool_input):',
      '    template = """',
      'def not_a_function():',
      'x = 1',
      '"""',
      '    parts = [',
      'tool_input["path"],',
      '    ]',
      '    total = 1 + \\',
      '2',
      "    label = f'{tool_input[\"path\"]:>{total}} {{literal}}'",
      '    return parts',
      'y = 2',
      '',
    ].join('\n');
    expect(spans(text)?.map(([name, t]) => [name, t.length])).toEqual([['handle', text.indexOf('y = 2')]]);
    expectCovered(text);
  });

  it('reads CRLF line ends as LF', () => {
    const text = 'def a():\r\n    return 1\r\n\r\ndef b():\r\n    return 2\r\n';
    expect(spans(text)).toEqual([
      ['a', 'def a():\r\n    return 1\r\n\r\n'],
      ['b', 'def b():\r\n    return 2\r\n'],
    ]);
    expectCovered(text);
  });

  it('has no answer for a text the parser would recover from in its own way', () => {
    const broken = [
      'def f():\n    s = "open\n',
      'def f():\n    s = """open\n',
      'def f():\n    return (1\n',
      'def f():\n    return [1)\n',
      'def f(x):\n    return f"{x"\n',
      'def f(x):\n    return f"{x]}"\n',
      'def f(x)\n    return x\n',
      'def f(x):\nreturn x\n',
      'def f(x):\n    y = 1\n      return y\n',
      'def f(x):\n    y = 1\n  return y\n',
      'def f(x):\n    return x -\n',
      'def f(x):\n    return x if y els None\n',
      'def f(x):\n    """doc"""rest\n',
      'def f(x) -> t:uple[int]:\n    return x\n',
      'from os\n',
      'def f(x):\n    g(x,\nimport os)\n',
      'x = 1; def f(): pass\n',
      'def f():\r    return 1\n',
      'if x\n    y = 1\n',
      'def f(x):\n    return x\n\\\n    return 2\n',
    ];
    for (const text of broken) expect(pythonFunctionSpans(text), JSON.stringify(text)).toBeUndefined();
  });

  it('reads valid code of the other shapes it checks', () => {
    for (const text of [
      'from m import *\nx = 1,\n',
      'match command:\n    case {"a": 1}:\n        pass\n    case _:\n        pass\nmatch = 3\n',
      'if (y := 2):\n    pass\nprint "python 2"\n',
      'f = lambda x: x\nd = {"a": 1}\nz = d["a"] if d else None\n',
      'def f(x: int = 1) -> dict[str, int]:\n    return {"x": x}\n',
    ]) {
      expect(pythonFunctionSpans(text), JSON.stringify(text)).toBeDefined();
      expectCovered(text);
    }
  });
});
