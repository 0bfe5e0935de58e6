/**
 * What is read from module texts without parsing them (the reach search and the
 * `'reaches-requests'` trigger): the names a Python text imports, and whether a module leads to
 * a request a given number of imports away, whatever order the depths are asked in; the member
 * names a text calls (the search for a method's callers).
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { Analyzer } from '../src/engine/analyzer';
import { importedNamesOf } from '../src/lang/frontEnds';
import { Parsers } from '../src/lang/parsers';
import { python } from '../src/lang/python';
import { pythonModules } from '../src/lang/python/modules';
import { textMayReach } from '../src/lang/textReach';
import { AnswersByPlace, Workspace } from '../src/lang/workspace';


/** A module whose `send(task)` puts its argument in a cached system prompt. */
const CACHED_SEND = `import anthropic

client = anthropic.Anthropic()

def send(task):
    return client.messages.create(
        model="claude-sonnet-4-6",
        max_tokens=256,
        system=[{"type": "text", "text": task, "cache_control": {"type": "ephemeral"}}],
        messages=[{"role": "user", "content": "Go on."}],
    )
`;

describe('the imports of a Python text, read without parsing it', () => {
  const names = (text: string) => python.modules.importedNames(text).map((n) => [n.spec, n.name ?? null, n.local]);

  it('reads both statements at the start of a line, indented or not, the `from` ones first', () => {
    const text = ['import os, json as j', 'def f():', '    from .tools import (', '        run,', '        importer as imp,', '    )', '    import a.b.c', 'from importlib import import_module', ''].join('\n');
    expect(names(text)).toEqual([
      ['.tools', 'run', 'run'],
      ['.tools', 'importer', 'imp'],
      ['importlib', 'import_module', 'import_module'],
      ['os', null, 'os'],
      ['json', null, 'j'],
      ['a.b.c', null, 'a'],
    ]);
  });

  it('takes every line break a multiline pattern takes: \\r, \\r\\n, U+2028', () => {
    expect(names('import a\rfrom b import c\r')).toEqual([['b', 'c', 'c'], ['a', null, 'a']]);
    expect(names('x = 1\r\nimport q\r\n')).toEqual([['q', null, 'q']]);
    expect(names('x = 1\u2028import q')).toEqual([['q', null, 'q']]);
  });

  it('ignores the word where no statement starts: comments, strings, a line too long before it', () => {
    expect(names('# import os\nx = "import sys"\n')).toEqual([]);
    // A list may be read for more than it imports (never for less): a line inside it that reads
    // like an import statement is read as one too, as the patterns over the whole text read it.
    expect(names('from m import (\n  a,\nimport b,\n)\n')).toEqual([['m', 'a', 'a'], ['m', 'import', 'import'], ['b', null, 'b']]);
    expect(names(`${' '.repeat(500)}import os\n`)).toEqual([]);
    expect(names(`x = ${'y'.repeat(600)} import os\nimport z`)).toEqual([['z', null, 'z']]);
  });

  it('keeps the lists of the texts asked about last, one per front end for the same text', () => {
    const text = 'from a import b\nimport c\n';
    expect(importedNamesOf('python', text)).toBe(importedNamesOf('python', text));
    expect(importedNamesOf('typescript', text)).not.toBe(importedNamesOf('python', text));
    expect(importedNamesOf('python', text).map((n) => n.local)).toEqual(['b', 'c']);
  });
});

describe('whether a module leads to a request, a number of imports away', () => {
  let parsers: Parsers;
  beforeAll(async () => {
    parsers = await Parsers.load();
  });

  // a -> b -> c -> d, d makes the request; e imports a and itself; f imports nothing.
  const files = new Map<string, string>([
    ['/p/a.py', 'from b import go\n'],
    ['/p/b.py', 'import c\nimport a\n'],
    ['/p/c.py', 'from d import send\n'],
    ['/p/d.py', 'def send(c):\n    return c.messages.create(model="m", max_tokens=1, messages=[])\n'],
    ['/p/e.py', 'import e\nimport a\n'],
    ['/p/f.py', 'x = 1\n'],
  ]);
  const holds = (text: string) => text.includes('messages.create');
  const answers = (order: Array<[string, number]>, textsStay = false) => {
    const ws = new Workspace(parsers, { readFile: (p) => files.get(p) }, undefined, undefined, textsStay);
    return order.map(([file, depth]) => ws.leadsTo(`/p/${file}.py`, holds, depth));
  };

  it('is the same whichever depth is asked first, whether the texts may change or stay', () => {
    const asked: Array<[string, number]> = [];
    for (const file of ['a', 'b', 'c', 'd', 'e', 'f']) for (let depth = 0; depth <= 5; depth++) asked.push([file, depth]);
    const expected = asked.map(([file, depth]) => ({ a: depth >= 3, b: depth >= 2, c: depth >= 1, d: true, e: depth >= 4, f: false })[file]!);
    for (const textsStay of [false, true]) {
      expect(answers(asked, textsStay)).toEqual(expected);
      expect(answers([...asked].reverse(), textsStay)).toEqual([...expected].reverse());
      // Shallow after deep, and deep after shallow, on the modules of a cycle (a <-> b).
      expect(answers([['a', 5], ['a', 2], ['b', 1], ['b', 2], ['e', 3], ['e', 4]], textsStay)).toEqual([true, false, false, true, false, true]);
    }
  });

  it('reads a module again when it is given another text, unless told that texts stay (a run that fixes nothing)', () => {
    // c stops importing d: it no longer leads to the request.
    const changed = 'x = 1\n';
    const read = (textsStay: boolean) => {
      const ws = new Workspace(parsers, { readFile: (p) => files.get(p) }, undefined, undefined, textsStay);
      const before = ws.leadsTo('/p/c.py', holds, 1);
      ws.setOverlay('/p/c.py', changed, 'python');
      ws.forgetText('/p/c.py');
      return [before, ws.leadsTo('/p/c.py', holds, 1)];
    };
    expect(read(false)).toEqual([true, false]);
    // The promise of a run that fixes nothing: the text given is the one read, and nothing is
    // kept to tell another one apart.
    expect(read(true)).toEqual([true, true]);
  });
});

describe('whether a function may lead to a request, read from module texts', () => {
  let parsers: Parsers;
  beforeAll(async () => {
    parsers = await Parsers.load();
  });

  // `steps.plan` calls `agents.run`, whose only way to a request is back through `steps.plan`,
  // which also calls `client.send`. Both lead to one, whichever is asked first.
  const files = new Map<string, string>([
    ['/q/steps.py', 'from agents import run\nfrom client import send\n\ndef plan(task):\n    run(task)\n    return send(task)\n'],
    ['/q/agents.py', 'from steps import plan\n\ndef run(task):\n    return plan(task)\n'],
    ['/q/client.py', 'def send(c, task):\n    return c.messages.create(model="m", max_tokens=1, messages=[{"role": "user", "content": task}])\n'],
  ]);
  const answers = (order: Array<[string, string]>) => {
    const ws = new Workspace(parsers, { readFile: (p) => files.get(p) });
    return order.map(([file, name]) => textMayReach(ws, `/q/${file}.py`, name));
  };

  it('is the same whichever function of a cycle of calls is asked first', () => {
    expect(answers([['agents', 'run'], ['steps', 'plan']])).toEqual([true, true]);
    expect(answers([['steps', 'plan'], ['agents', 'run']])).toEqual([true, true]);
  });
});

describe('what a module text is read for when it may lead to a request', () => {
  let parsers: Parsers;
  beforeAll(async () => {
    parsers = await Parsers.load();
  });
  const answers = (files: Record<string, string>, order: Array<[string, string]>) => {
    const ws = new Workspace(parsers, { readFile: (p) => files[p] });
    return order.map(([file, name]) => textMayReach(ws, file, name));
  };
  const sdkCall = 'client.messages.create({ model: "claude-sonnet-4-6", max_tokens: 256, messages: [{ role: "user", content: q }] })';

  it('does not take `if (`, `while (` or `return (` for a call, nor a block after one for a function', () => {
    const files = {
      '/t/util.ts': [
        'import { client } from "./client";',
        'export function fileSize(n: number): string {',
        '  if (n < 1024) {',
        '    return n + " B";',
        '  }',
        '  while (n > 1024) {',
        '    n /= 1024;',
        '  }',
        '  return (n.toFixed(1) + " KiB");',
        '}',
        'export async function ask(q: string, cached: boolean) {',
        '  if (!cached) {',
        `    return ${sdkCall};`,
        '  }',
        '}',
        '',
      ].join('\n'),
    };
    expect(answers(files, [['/t/util.ts', 'fileSize'], ['/t/util.ts', 'ask']])).toEqual([false, true]);
  });

  it("reads a Python function to its end past a string's lines at the margin, and not past the statement after it", () => {
    const files = {
      '/t/prompts.py': [
        'import anthropic',
        '',
        'client = anthropic.Anthropic()',
        '',
        '',
        'def ask(question):',
        '    template = """',
        'Answer briefly.',
        '"""',
        '    return client.messages.create(model="claude-sonnet-4-6", max_tokens=256, messages=[{"role": "user", "content": template + question}])',
        '',
        '',
        'def label(text):',
        '    return text.upper()',
        '(FIRST, SECOND) = (client.messages.create(model="claude-sonnet-4-6", max_tokens=256, messages=[{"role": "user", "content": "a"}]), "b")',
        '',
      ].join('\n'),
    };
    // A reading by indentation alone ended `ask` at the string's first line, and ran `label` on
    // into the assignment after it (a line that starts with no name).
    expect(answers(files, [['/t/prompts.py', 'ask'], ['/t/prompts.py', 'label']])).toEqual([true, false]);
  });

  it('does not take a line that calls a name for a method that defines it', () => {
    const files = {
      '/t/notes.js': [
        'import { client } from "./client.js";',
        'export function note(text) {',
        '  track(text)',
        '}',
        'export function track(text) {',
        '  console.log(text)',
        '}',
        'export async function ask(q) {',
        '  track(q)',
        `  return ${sdkCall}`,
        '}',
        '',
      ].join('\n'),
    };
    expect(answers(files, [['/t/notes.js', 'note'], ['/t/notes.js', 'ask']])).toEqual([false, true]);
  });

  it('follows SDK calls only: a framework named in a function (a provider switch) is no request the search reads', () => {
    const files = {
      '/t/providers.py': [
        'def provider_label(name):',
        '    if name == "litellm":',
        '        return "LiteLLM"',
        '    return name',
        '',
        'def ask(client, q):',
        '    return client.messages.create(model="claude-sonnet-4-6", max_tokens=256, messages=[{"role": "user", "content": q}])',
        '',
      ].join('\n'),
    };
    expect(answers(files, [['/t/providers.py', 'provider_label'], ['/t/providers.py', 'ask']])).toEqual([false, true]);
  });

  it('does not keep a "yes" that a search found only because its depth ran out', () => {
    // x -> w1 -> w2 -> w3 -> y -> z1 -> ... -> z5, which calls nothing: asked from x, y is read
    // with too little depth left to see that z5 is a dead end; asked itself, it leads nowhere.
    const lines = ['def send(client, q):', '    return client.messages.create(model="m", max_tokens=1, messages=[])', ''];
    const chain = ['x', 'w1', 'w2', 'w3', 'y', 'z1', 'z2', 'z3', 'z4', 'z5'];
    chain.forEach((f, i) => lines.push(`def ${f}(q):`, i + 1 < chain.length ? `    return ${chain[i + 1]}(q)` : '    return q', ''));
    const files = { '/t/chain.py': lines.join('\n') };
    expect(answers(files, [['/t/chain.py', 'y']])).toEqual([false]);
    expect(answers(files, [['/t/chain.py', 'x'], ['/t/chain.py', 'y']])).toEqual([true, false]);
    expect(answers(files, [['/t/chain.py', 'x'], ['/t/chain.py', 'w3'], ['/t/chain.py', 'x']])).toEqual([true, true, true]);
  });
});

describe('what is known of a module, when its text changes', () => {
  let parsers: Parsers;
  beforeAll(async () => {
    parsers = await Parsers.load();
  });
  const request = 'def send(c, q):\n    return c.messages.create(model="m", max_tokens=1, messages=[{"role": "user", "content": q}])\n';
  const before = `${request}\ndef f(c, q):\n    return q\n`;
  const after = `${request}\ndef f(c, q):\n    return c.messages.create(model="m", max_tokens=1, messages=[])\n`;

  it('forgets what a parsed text said once the buffer holds another, however it got there', () => {
    for (const steps of [
      // A keystroke: the parsed text, then another.
      (ws: Workspace) => ws.setText('/m/a.py', after),
      // The parse dropped for the same text held unparsed, then another text parsed.
      (ws: Workspace) => {
        ws.setOverlay('/m/a.py', before);
        ws.setText('/m/a.py', after);
      },
      // The same, the other text held unparsed.
      (ws: Workspace) => ws.setOverlay('/m/a.py', after),
    ]) {
      const ws = new Workspace(parsers, { readFile: () => undefined });
      ws.setText('/m/a.py', before);
      expect(textMayReach(ws, '/m/a.py', 'f')).toBe(false);
      steps(ws);
      expect(textMayReach(ws, '/m/a.py', 'f')).toBe(true);
    }
  });

  it('forgets it for a module whose parse was evicted, and keeps it for the same text', () => {
    const ws = new Workspace(parsers, { readFile: () => undefined });
    ws.setText('/m/a.py', before);
    expect(textMayReach(ws, '/m/a.py', 'f')).toBe(false);
    // Enough other parsed text to evict the module's parse.
    for (let i = 0; i < 80; i++) ws.setText(`/m/filler${i}.py`, `x = ${i}\n`.repeat(2000));
    ws.setText('/m/a.py', before);
    expect(textMayReach(ws, '/m/a.py', 'f')).toBe(false);
    for (let i = 0; i < 80; i++) ws.setText(`/m/filler${i}.py`, `y = ${i}\n`.repeat(2000));
    ws.setText('/m/a.py', after);
    expect(textMayReach(ws, '/m/a.py', 'f')).toBe(true);
  });
});

describe('the functions a search may enter, read from their code', () => {
  // The same cycle in code: `steps.plan` calls `agents.run` and the client; `agents.run` leads
  // to a request only back through `steps.plan`. A date passed to either reaches the cached
  // system prompt, whichever caller is analysed first.
  const files: Record<string, string> = {
    '/r/client.py': CACHED_SEND,
    '/r/steps.py': 'from agents import run\nfrom client import send\n\ndef plan(task, again=False):\n    if again:\n        run(task)\n    return send(task)\n',
    '/r/agents.py': 'from steps import plan\n\ndef run(task):\n    return plan(task, again=False)\n',
    '/r/nightly.py': 'from datetime import datetime\nfrom steps import plan\n\ndef nightly():\n    return plan(f"Tonight is {datetime.now():%A}.")\n',
    '/r/daily.py': 'from datetime import datetime\nfrom agents import run\n\ndef daily():\n    return run(f"Today is {datetime.now():%A}.")\n',
  };
  const host = { readFile: (p: string) => files[p], exists: (p: string) => p in files };
  const rules = async (order: string[]) => {
    const analyzer = await Analyzer.create({ host });
    return order.map((f) => analyzer.analyze(`/r/${f}.py`, files[`/r/${f}.py`]).diagnostics.map((d) => d.ruleId));
  };

  it('finds both callers, in either order', async () => {
    expect(await rules(['nightly'])).toEqual([['volatile-system-prompt']]);
    expect(await rules(['daily'])).toEqual([['volatile-system-prompt']]);
    expect(await rules(['daily', 'nightly'])).toEqual([['volatile-system-prompt'], ['volatile-system-prompt']]);
    expect(await rules(['nightly', 'daily'])).toEqual([['volatile-system-prompt'], ['volatile-system-prompt']]);
  });
});

describe('where a Python import is looked for, when files appear and go', () => {
  let parsers: Parsers;
  beforeAll(async () => {
    parsers = await Parsers.load();
  });

  // A folder that is not a package is on Python's path (a script's folder); a package's folder is not.
  it('follows a package marker that appears or goes, told as a changed file or as a new text', () => {
    const files = new Map<string, string>([
      ['/r/app/main.py', 'import helper\n'],
      ['/r/app/helper.py', 'X = 1\n'],
    ]);
    const ws = new Workspace(parsers, { readFile: (p) => files.get(p) });
    const from = { file: '/r/app/main.py', language: 'python' as const };
    expect(ws.modulePath(from, 'helper')).toBe('/r/app/helper.py');
    files.set('/r/app/__init__.py', '');
    ws.invalidate('/r/app/__init__.py');
    expect(ws.modulePath(from, 'helper')).toBeUndefined();
    files.delete('/r/app/__init__.py');
    ws.invalidate('/r/app/__init__.py');
    expect(ws.modulePath(from, 'helper')).toBe('/r/app/helper.py');
    // An unsaved buffer of a new file: given as a text, never written to disk.
    ws.setOverlay('/r/app/__init__.py', '');
    expect(ws.modulePath(from, 'helper')).toBeUndefined();
  });
  // What exists is asked once per path, however many files of the folder are then analysed: a
  // notebook on disk (which no import names) is such a file, as a source file is.
  it('keeps what it found exists when the text of a file on disk is given, a notebook too', () => {
    const files = new Map<string, string>([
      ['/r/app/main.py', 'import helper\n'],
      ['/r/app/helper.py', 'X = 1\n'],
      ['/r/app/tour.ipynb', '{"cells": []}'],
      ['/r/app/other.py', 'import helper\n'],
    ]);
    const asked: string[] = [];
    const ws = new Workspace(parsers, { readFile: (p) => files.get(p), exists: (p) => (asked.push(p), files.has(p)) });
    const from = { file: '/r/app/main.py', language: 'python' as const };
    expect(ws.modulePath(from, 'helper')).toBe('/r/app/helper.py');
    const before = asked.length;
    ws.setOverlay('/r/app/tour.ipynb', 'import helper\n', 'python');
    ws.setText('/r/app/other.py', 'import helper\n');
    expect(ws.modulePath(from, 'helper')).toBe('/r/app/helper.py');
    expect(asked.slice(before).filter((p) => p !== '/r/app/tour.ipynb' && p !== '/r/app/other.py')).toEqual([]);
  });

  it('resolves an absolute import once for the folders that look it up in the same places, and apart for the others', () => {
    // pkg/ and pkg/sub/ are packages: their files look absolute imports up in /r (pkg's parent).
    // scripts/ is no package: its own folder comes first. pkg/sub/json.py importing `json` is
    // not importing itself.
    const files = new Map<string, string>([
      ['/r/pkg/__init__.py', ''],
      ['/r/pkg/a.py', 'import helper\n'],
      ['/r/pkg/sub/__init__.py', ''],
      ['/r/pkg/sub/b.py', 'import helper\n'],
      ['/r/pkg/sub/json.py', 'import json\n'],
      ['/r/helper.py', 'X = 1\n'],
      ['/r/json.py', 'Y = 1\n'],
      ['/r/scripts/run.py', 'import helper\n'],
      ['/r/scripts/helper.py', 'Z = 1\n'],
    ]);
    const ws = new Workspace(parsers, { readFile: (p) => files.get(p), exists: (p) => files.has(p) });
    const resolved = vi.spyOn(pythonModules, 'modulePath');
    const at = (file: string) => ({ file, language: 'python' as const });
    try {
      expect(ws.modulePath(at('/r/pkg/a.py'), 'helper')).toBe('/r/helper.py');
      expect(ws.modulePath(at('/r/pkg/sub/b.py'), 'helper')).toBe('/r/helper.py');
      // Looked up in the same folders: resolved once.
      expect(resolved).toHaveBeenCalledTimes(1);
    } finally {
      resolved.mockRestore();
    }
    expect(ws.modulePath(at('/r/scripts/run.py'), 'helper')).toBe('/r/scripts/helper.py');
    expect(ws.modulePath(at('/r/pkg/sub/json.py'), 'json')).toBe('/r/json.py');
    expect(ws.modulePath(at('/r/pkg/sub/b.py'), 'json')).toBe('/r/json.py');
    // A module named like the import finds itself skipped, whatever was answered for its folder.
    files.set('/r/pkg/sub/helper.py', 'import helper\n');
    ws.invalidate('/r/pkg/sub/helper.py');
    expect(ws.modulePath(at('/r/pkg/sub/helper.py'), 'helper')).toBe('/r/helper.py');
    expect(ws.modulePath(at('/r/pkg/sub/b.py'), 'helper')).toBe('/r/helper.py');
  });
});

describe('answers kept by place', () => {
  it('keeps each answer under its place and name, and lets the places asked about first go past the bound', () => {
    const python = {};
    const typescript = {};
    const answers = new AnswersByPlace<object, string | null>(3);
    answers.set(python, '/r/a', 'json', null);
    answers.set(python, '/r/a', 'helper', '/r/a/helper.py');
    answers.set(typescript, '/r/a', 'helper', '/r/a/helper.ts');
    expect(answers.get(python, '/r/a', 'json')).toBeNull();
    expect(answers.get(python, '/r/a', 'helper')).toBe('/r/a/helper.py');
    expect(answers.get(typescript, '/r/a', 'helper')).toBe('/r/a/helper.ts');
    expect(answers.get(python, '/r/b', 'helper')).toBeUndefined();
    // The same answer set again counts once.
    answers.set(python, '/r/a', 'helper', '/r/a/helper.py');
    expect(answers.get(python, '/r/a', 'json')).toBeNull();
    // A fourth answer: the first place of a front end (both of its answers) goes; the new one stays.
    answers.set(python, '/r/b', 'helper', '/r/b/helper.py');
    expect(answers.get(python, '/r/a', 'json')).toBeUndefined();
    expect(answers.get(python, '/r/a', 'helper')).toBeUndefined();
    expect(answers.get(python, '/r/b', 'helper')).toBe('/r/b/helper.py');
    expect(answers.get(typescript, '/r/a', 'helper')).toBe('/r/a/helper.ts');
    answers.clear();
    expect(answers.get(typescript, '/r/a', 'helper')).toBeUndefined();
  });
});

describe('a command-line run', () => {
  it('lists no folder and forgets nothing for a file no rule needs', async () => {
    const files: Record<string, string> = { '/r/app/util.py': 'import os\n\ndef slug(s):\n    return s.lower().replace(" ", "-")\n' };
    const listed: string[] = [];
    const host = {
      readFile: (p: string) => files[p],
      listFolder: (d: string) => (listed.push(d), d === '/r/app' ? ['util.py'] : d === '/r' ? ['app'] : d === '/' ? ['r'] : []),
    };
    const analyzer = await Analyzer.create({ host, textsFromHost: true });
    expect(analyzer.analyze('/r/app/util.py', files['/r/app/util.py']).diagnostics).toEqual([]);
    // The text is the host's own: the workspace is not told it (which listed the folder to see the file exists).
    expect(listed).toEqual([]);
    // An editor's buffer is told, as before.
    const editor = await Analyzer.create({ host });
    editor.analyze('/r/app/util.py', files['/r/app/util.py']);
    expect(listed).toContain('/r/app');
  });
});

describe('a keystroke in an open buffer', () => {
  // nightly.py passes a date to a helper module whose function makes a cached request.
  const client = CACHED_SEND;
  const nightly = 'from datetime import datetime\nfrom client import send\n\ndef nightly():\n    return send(f"Tonight is {datetime.now():%A}.")\n';
  const setup = async () => {
    const files: Record<string, string> = { '/r/client.py': client, '/r/nightly.py': nightly };
    const reads: string[] = [];
    const listed: string[] = [];
    const host = {
      readFile: (p: string) => (reads.push(p), files[p]),
      listFolder: (d: string) => (listed.push(d), d === '/r' ? Object.keys(files).map((f) => f.slice(3)) : d === '/' ? ['r'] : []),
    };
    const analyzer = await Analyzer.create({ host });
    return { analyzer, reads, listed, files };
  };

  it('reads the modules it imports and lists their folders again only when their text changes', async () => {
    const { analyzer, reads, listed } = await setup();
    expect(analyzer.analyze('/r/nightly.py', nightly).diagnostics.map((d) => d.ruleId)).toEqual(['volatile-system-prompt']);
    const [readBefore, listedBefore] = [reads.length, listed.length];
    // Typing in nightly.py: a comment, then the date taken out.
    for (const text of [`${nightly}# to do\n`, nightly.replace('{datetime.now():%A}', 'tonight')]) {
      analyzer.edited('/r/nightly.py', text, 'python');
      analyzer.analyze('/r/nightly.py', text);
    }
    expect(reads.slice(readBefore)).toEqual([]);
    expect(listed.slice(listedBefore)).toEqual([]);
  });

  it('sees a module that exists only as an unsaved buffer, once it is typed in, also two imports away', async () => {
    const { analyzer, files } = await setup();
    // nightly.py -> client.py -> transport.py, which is not on disk: an unsaved buffer makes it.
    const transport = files['/r/client.py'].replace('def send(task):', 'def post(task):');
    files['/r/client.py'] = 'from transport import post\n\ndef send(task):\n    return post(task)\n';
    expect(analyzer.analyze('/r/nightly.py', nightly).diagnostics.map((d) => d.ruleId)).toEqual([]);
    analyzer.edited('/r/transport.py', transport, 'python');
    expect(analyzer.analyze('/r/nightly.py', nightly).diagnostics.map((d) => d.ruleId)).toEqual(['volatile-system-prompt']);
  });

  it('sees a function of an imported module that now leads to the request through a function of another', async () => {
    const { analyzer, files } = await setup();
    // nightly.py -> steps.f -> client.route, which sends the request only once it is typed in.
    files['/r/client.py'] = `${client}\ndef route(task):\n    return task\n`;
    files['/r/steps.py'] = 'from client import route\n\ndef plan(task):\n    return route(task)\n';
    const planned = 'from datetime import datetime\nfrom steps import plan\n\ndef nightly():\n    return plan(f"Tonight is {datetime.now():%A}.")\n';
    expect(analyzer.analyze('/r/nightly.py', planned).diagnostics.map((d) => d.ruleId)).toEqual([]);
    analyzer.edited('/r/client.py', files['/r/client.py'].replace('    return task\n', '    return send(task)\n'), 'python');
    expect(analyzer.analyze('/r/nightly.py', planned).diagnostics.map((d) => d.ruleId)).toEqual(['volatile-system-prompt']);
  });

  it('sees the new text of an imported module typed in', async () => {
    const { analyzer } = await setup();
    expect(analyzer.analyze('/r/nightly.py', nightly).diagnostics.map((d) => d.ruleId)).toEqual(['volatile-system-prompt']);
    // The helper's buffer: the date now goes after the breakpoint, in the user turn.
    const moved = client.replace('"text": task, "cache_control"', '"text": "You plan tasks.", "cache_control"').replace('"content": "Go on."', '"content": task');
    analyzer.edited('/r/client.py', moved, 'python');
    expect(analyzer.analyze('/r/nightly.py', nightly).diagnostics.map((d) => d.ruleId)).toEqual([]);
    analyzer.edited('/r/client.py', client, 'python');
    expect(analyzer.analyze('/r/nightly.py', nightly).diagnostics.map((d) => d.ruleId)).toEqual(['volatile-system-prompt']);
  });
});

describe('the search for the files that call a name', () => {
  it('finds the same callers in a project whichever projects were searched before, past the bound on what is kept', async () => {
    const parsers = await Parsers.load();
    // Two projects of four files each, every file 100 characters; the bound keeps about one project.
    const files = new Map<string, string>();
    for (const project of ['one', 'two']) for (let i = 0; i < 4; i++) files.set(`/${project}/m${i}.py`, `send(${i})\n`.padEnd(100, '#'));
    const host = { readFile: (p: string) => files.get(p), projectFiles: (p: string) => [...files.keys()].filter((f) => f.startsWith(p.slice(0, 5))) };
    const callers = (order: string[]) => {
      const ws = new Workspace(parsers, host, 0, 450);
      return order.map((project) => ws.filesCalling(`/${project}/m0.py`, 'send', true));
    };
    const two = ['/two/m1.py', '/two/m2.py', '/two/m3.py'];
    expect(callers(['two'])).toEqual([two]);
    expect(callers(['one', 'two'])).toEqual([['/one/m1.py', '/one/m2.py', '/one/m3.py'], two]);
    expect(callers(['one', 'two', 'one', 'two'])[3]).toEqual(two);
  });

  it("drops the other projects' names past the bound on what is kept, and still reads a project up to the reading bound", async () => {
    const parsers = await Parsers.load();
    // Two projects of four files of 100 characters; names of 450 characters of files are kept, 10,000 read.
    const files = new Map<string, string>();
    for (const project of ['one', 'two']) for (let i = 0; i < 4; i++) files.set(`/${project}/m${i}.py`, `send(${i})\n`.padEnd(100, '#'));
    const read: string[] = [];
    const host = {
      readFile: (p: string) => {
        read.push(p);
        return files.get(p);
      },
      projectFiles: (p: string) => [...files.keys()].filter((f) => f.startsWith(p.slice(0, 5))),
    };
    const ws = new Workspace(parsers, host, 0, 10_000, false, 450);
    const one = ['/one/m1.py', '/one/m2.py', '/one/m3.py'];
    const two = ['/two/m1.py', '/two/m2.py', '/two/m3.py'];
    expect(ws.filesCalling('/one/m0.py', 'send', true)).toEqual(one);
    expect(ws.filesCalling('/two/m0.py', 'send', true)).toEqual(two);
    // Project one's names went while project two was read (300 + 300 characters): it is read again, whole.
    read.length = 0;
    expect(ws.filesCalling('/one/m0.py', 'send', true)).toEqual(one);
    expect(read).toEqual(one);
    // Kept up to the reading bound (as before), nothing is read again.
    const keeping = new Workspace(parsers, host, 0, 10_000, false, 10_000);
    keeping.filesCalling('/one/m0.py', 'send', true);
    keeping.filesCalling('/two/m0.py', 'send', true);
    read.length = 0;
    expect(keeping.filesCalling('/one/m0.py', 'send', true)).toEqual(one);
    expect(read).toEqual([]);
  });

  it('answers a search asked again from the same and other files of a project, and again after a file changes', async () => {
    const parsers = await Parsers.load();
    const files = new Map<string, string>([
      ['/p/a.py', 'send(1)\n'],
      ['/p/b.py', 'client.send(2)\n'],
      ['/p/c.py', 'other(3)\n'],
    ]);
    // One list for the project, as the command line's project scope gives: the answers are kept for it.
    const project = [...files.keys()];
    let reads = 0;
    const host = {
      readFile: (p: string) => {
        reads++;
        return files.get(p);
      },
      projectFiles: () => project,
    };
    const ws = new Workspace(parsers, host);
    expect(ws.filesCalling('/p/c.py', 'send', true)).toEqual(['/p/a.py', '/p/b.py']);
    expect(ws.filesCalling('/p/a.py', 'send', true)).toEqual(['/p/b.py']);
    expect(ws.filesCalling('/p/b.py', 'send', true)).toEqual(['/p/a.py']);
    expect(ws.filesCalling('/p/c.py', 'send')).toEqual(['/p/b.py']);
    expect(ws.filesCalling('/p/b.py', 'send', true)).toEqual(['/p/a.py']);
    const readsBefore = reads;
    expect(ws.filesCalling('/p/a.py', 'other', true)).toEqual(['/p/c.py']);
    expect(reads).toBe(readsBefore);
    // b.py no longer calls it, and c.py does.
    files.set('/p/b.py', 'pass\n');
    files.set('/p/c.py', 'x.send(4)\n');
    ws.invalidate('/p/b.py');
    ws.invalidate('/p/c.py');
    expect(ws.filesCalling('/p/a.py', 'send', true)).toEqual(['/p/c.py']);
    expect(ws.filesCalling('/p/c.py', 'send', true)).toEqual(['/p/a.py']);
    expect(ws.filesCalling('/p/a.py', 'other', true)).toEqual([]);
    // A text given for a file (an analysis, an editor's buffer): the same text is not read again,
    // and another is searched as it is now.
    ws.setOverlay('/p/c.py', 'x.send(4)\n');
    ws.setText('/p/a.py', 'send(1)\n');
    let readsThen = reads;
    expect(ws.filesCalling('/p/b.py', 'send', true)).toEqual(['/p/a.py', '/p/c.py']);
    expect(reads).toBe(readsThen);
    ws.setOverlay('/p/c.py', 'x.other(4)\n');
    ws.setText('/p/a.py', 'pass\n');
    readsThen = reads;
    expect(ws.filesCalling('/p/b.py', 'send', true)).toEqual([]);
    expect(ws.filesCalling('/p/b.py', 'other')).toEqual(['/p/c.py']);
    expect(reads).toBe(readsThen);
  });

  it('reads the bytes the host gives for the search, not its texts, and finds what their texts give', async () => {
    const parsers = await Parsers.load();
    const files = new Map<string, string>([
      ['/p/a.py', 'send(1)\n'],
      // A byte order mark, and a default import of the module asked about.
      ['/p/b.ts', "\ufeffimport jobs from './m';\nclient.send(2);\n"],
      ['/p/c.py', 'other(3)\n'],
      ['/p/gone.py', 'send(4)\n'],
    ]);
    const project = [...files.keys()];
    const texts: string[] = [];
    const bytes: string[] = [];
    const host = {
      readFile: (p: string) => (texts.push(p), files.get(p)),
      readBytes: (p: string) => {
        bytes.push(p);
        // One file cannot be read as source text when the search reads it.
        return p === '/p/gone.py' ? { skipped: 'not valid UTF-8' } : { bytes: Buffer.from(files.get(p)!, 'utf8') };
      },
      projectFiles: () => project,
    };
    const ws = new Workspace(parsers, host);
    expect(ws.filesCalling('/p/c.py', 'send', true)).toEqual(['/p/a.py', '/p/b.ts']);
    expect(ws.filesCalling('/p/c.py', 'default:m', true)).toEqual(['/p/b.ts']);
    expect(ws.filesCalling('/p/c.py', 'send')).toEqual(['/p/b.ts']);
    expect(bytes).toEqual(['/p/a.py', '/p/b.ts', '/p/gone.py']);
    expect(texts).toEqual([]);
    // A text the workspace has for a file (an editor's buffer) is searched instead of its bytes.
    ws.setOverlay('/p/a.py', 'pass\n');
    ws.setOverlay('/p/c.py', 'x.send(5)\n');
    // (Setting a text reads what it replaces.)
    texts.length = 0;
    expect(ws.filesCalling('/p/c.py', 'send', true)).toEqual(['/p/b.ts']);
    expect(ws.filesCalling('/p/a.py', 'send')).toEqual(['/p/b.ts', '/p/c.py']);
    expect(bytes).toEqual(['/p/a.py', '/p/b.ts', '/p/gone.py']);
    expect(texts).toEqual([]);
  });

  it('searches, and reads, only the files of the family asked for: a TypeScript front end beside a Python service', async () => {
    const parsers = await Parsers.load();
    const files = new Map<string, string>([
      ['/p/api.py', 'def send(x): pass\n'],
      ['/p/jobs.py', 'client.send(1)\n'],
      ['/p/web/app.ts', 'client.send(2);\n'],
      ['/p/web/view.tsx', 'export const v = () => api.send(3);\n'],
      ['/p/web/old.js', 'send(4);\n'],
      ['/p/notes.ipynb', '{"cells": []}'],
    ]);
    const project = [...files.keys()].sort();
    const read: string[] = [];
    const host = { readFile: (p: string) => (read.push(p), files.get(p)), projectFiles: () => project };
    const ws = new Workspace(parsers, host);
    expect(ws.filesCalling('/p/api.py', 'send', true, 'python')).toEqual(['/p/jobs.py']);
    expect(read).toEqual(['/p/jobs.py']);
    expect(ws.filesCalling('/p/web/app.ts', 'send', true, 'js')).toEqual(['/p/web/old.js', '/p/web/view.tsx']);
    expect(read.sort()).toEqual(['/p/jobs.py', '/p/web/old.js', '/p/web/view.tsx']);
    // Without a family, every file of the project (the answers kept per family are not mixed up).
    expect(ws.filesCalling('/p/api.py', 'send', true)).toEqual(['/p/jobs.py', '/p/web/app.ts', '/p/web/old.js', '/p/web/view.tsx']);
    expect(ws.filesCalling('/p/jobs.py', 'send', false, 'python')).toEqual([]);
    expect(ws.filesCalling('/p/web/old.js', 'send', false, 'js')).toEqual(['/p/web/app.ts', '/p/web/view.tsx']);
  });
});
