/**
 * The prefilter (rules' `triggers`, the engine's request words) only saves work: every fixture,
 * example and real-code shape gives exactly the same findings, fixes and notices with it on
 * as with it off, and a file that no rule needs is not parsed.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { Analyzer, triggeredRules } from '../src/engine/analyzer';
import type { FileResult } from '../src/engine/analyzer';
import { openDocument } from '../src/engine/document';
import { languageForPath } from '../src/lang/parsers';
import { FRAMEWORK_PART, FRAMEWORK_WORD, mayHoldRequests } from '../src/lang/requests';
import { allRules } from '../src/rules';
import { diskHost, FIXTURES, ROOT, sources } from './helpers';

function run(a: Analyzer, file: string): FileResult {
  const text = fs.readFileSync(file, 'utf8');
  const doc = openDocument(file, text);
  if ('notice' in doc) throw new Error(`${file}: ${doc.notice}`);
  return a.analyze(file, doc.analysedText, doc.language);
}

/** What a user sees of a result: findings with their ranges, messages and fixes, and the notice. */
function seen(r: FileResult): unknown {
  return {
    notice: r.notice?.startsWith('has syntax errors') ? undefined : r.notice,
    diagnostics: r.diagnostics.map((d) => ({ rule: d.ruleId, severity: d.severity, at: [d.at.start, d.at.end], message: d.message, fix: d.fix, related: d.related })),
  };
}

let on: Analyzer;
let off: Analyzer;
beforeAll(async () => {
  on = await Analyzer.create({ host: diskHost() });
  off = await Analyzer.create({ host: diskHost(), prefilter: false });
});

describe('prefilter', () => {
  const files = [FIXTURES, path.join(ROOT, 'examples'), path.join(ROOT, 'test', 'robustness', 'workspaces')].flatMap((d) => sources(d));

  it('covers the fixtures, the examples and the workspace shapes', () => {
    expect(files.length).toBeGreaterThan(400);
  });

  it('changes no finding, fix or notice of any of them', () => {
    const differ: string[] = [];
    for (const file of files) {
      const a = seen(run(on, file));
      const b = seen(run(off, file));
      if (JSON.stringify(a) !== JSON.stringify(b)) differ.push(path.relative(ROOT, file));
    }
    expect(differ).toEqual([]);
  }, 120_000);

  it('tells from the bytes of a file alone only files of which the analysis says nothing, and finds the same in the others with what it read', () => {
    let screenedOut = 0;
    const differ: string[] = [];
    for (const file of files) {
      const bytes = fs.readFileSync(file);
      const doc = openDocument(file, bytes.toString('utf8'));
      if ('notice' in doc || doc.analysedText !== bytes.toString('utf8')) continue;
      const words = on.wordsToAnalyse(file, bytes, doc.language);
      const whole = on.analyze(file, doc.analysedText, doc.language);
      if (!words) {
        screenedOut++;
        if (whole.diagnostics.length || whole.notice || whole.steps) differ.push(`${path.relative(ROOT, file)}: screened out, but the analysis reports`);
        continue;
      }
      if (JSON.stringify(seen(on.analyze(file, doc.analysedText, doc.language, {}, words))) !== JSON.stringify(seen(whole))) differ.push(path.relative(ROOT, file));
    }
    expect(differ).toEqual([]);
    // Some of them hold no word of any trigger (the test means something).
    expect(screenedOut).toBeGreaterThan(5);
  }, 120_000);

  it('asks the part every framework word contains before the framework words themselves, and rejects nothing they accept', () => {
    // One text for each alternative of FRAMEWORK_WORD, in its order: an alternative added
    // without one here fails the count below.
    const words = ['langchain_anthropic', '@langchain/anthropic', 'litellm', '@ai-sdk/anthropic', 'createReactAgent', 'create_react_agent', 'smolagents', 'agno.models.anthropic', 'from instructor'];
    let depth = 0;
    let alternatives = 1;
    for (const c of FRAMEWORK_WORD.source) {
      if (c === '(') depth++;
      else if (c === ')') depth--;
      else if (c === '|' && depth === 0) alternatives++;
    }
    expect(words).toHaveLength(alternatives);
    for (const w of [...words, 'createAgent', 'create_agent', 'import  instructor']) {
      expect(FRAMEWORK_WORD.test(w), w).toBe(true);
      expect(FRAMEWORK_PART.test(w), w).toBe(true);
    }
    // Over every fixture and example: whatever the words accept, the part accepts.
    for (const file of [...sources(FIXTURES), ...sources(path.join(ROOT, 'examples'))]) {
      const text = fs.readFileSync(file, 'utf8');
      if (FRAMEWORK_WORD.test(text)) expect(FRAMEWORK_PART.test(text), file).toBe(true);
    }
  });

  it('does not parse a file that no rule needs, and does parse one a rule does', () => {
    const plain = on.analyze(path.join(ROOT, 'plain.py'), 'def add(a, b):\n    return a + b\n');
    expect(plain.steps).toBe(0);
    expect(plain.diagnostics).toEqual([]);
    expect(mayHoldRequests('client.messages.create(model="m")')).toBe(true);
    expect(mayHoldRequests('from langchain_anthropic import ChatAnthropic')).toBe(true);
    expect(mayHoldRequests('def add(a, b):\n    return a + b\n')).toBe(false);
    const request = on.analyze(path.join(ROOT, 'req.py'), 'import anthropic\nanthropic.Anthropic().messages.create(model="claude-sonnet-4-6", max_tokens=1, messages=[])\n');
    expect(request.calls).toHaveLength(1);
  });

  it('reads no request from a method every object has (with the prefilter off, which would let it through)', () => {
    for (const method of ['toString', 'constructor', 'valueOf']) {
      const other = off.analyze(path.join(ROOT, `${method}.py`), `import anthropic\nanthropic.Anthropic().messages.${method}(model="claude-sonnet-4-6", max_tokens=1, messages=[])\n`);
      expect(other.calls, method).toHaveLength(0);
    }
  });

  it('lets through every callee chain the request finder reads, and not a mere mention of messages', () => {
    const py = (call: string) => `import anthropic\n\nclient = anthropic.Anthropic()\n${call}(model="claude-sonnet-4-6", max_tokens=1, messages=[])\n`;
    const ts = (call: string) => `import Anthropic from '@anthropic-ai/sdk';\nconst client = new Anthropic();\n${call}({ model: 'claude-sonnet-4-6', max_tokens: 1, messages: [] });\n`;
    const shapes: Array<[string, string]> = [
      ['a.py', py('client.messages.create')],
      ['b.py', py('client.beta.messages.with_raw_response.create')],
      ['c.py', 'import anthropic\n\nclient = anthropic.Anthropic()\nclient.messages.batches.create(requests=[{"custom_id": "a", "params": {"model": "claude-sonnet-4-6", "max_tokens": 1, "messages": []}}])\n'],
      ['d.py', py('client.messages \\\n    .count_tokens')],
      ['e.py', py('(client.messages  # the GA namespace\n    .stream)')],
      ['f.ts', ts('client.messages.countTokens')],
      ['g.ts', ts('(client.messages as Anthropic.Messages).stream')],
      ['h.ts', ts('client.messages!.create')],
      ['i.ts', ts('client.beta.messages?.toolRunner')],
      ['j.ts', ts('client.messages /* GA */\n  .create')],
    ];
    for (const [file, text] of shapes) {
      expect(mayHoldRequests(text), file).toBe(true);
      expect(off.analyze(path.join(ROOT, file), text).calls.length, file).toBeGreaterThan(0);
    }
    // A chat widget's `messages` state and `Object.create`: no request chain.
    expect(mayHoldRequests('const s={messages:[],draft:""};const o=Object.create(null);s.messages.push(o);')).toBe(false);
  });

  it('lets through each framework request the adapters read, and not a mere mention of the framework', () => {
    const shapes: Array<[string, string]> = [
      ['lc.py', 'from langchain.agents import create_agent\n\nagent = create_agent("anthropic:claude-sonnet-4-6", tools=[], system_prompt="You help.")\nagent.invoke({"messages": [{"role": "user", "content": "hi"}]})\n'],
      ['lg.py', 'from langgraph.prebuilt import create_react_agent\n\nagent = create_react_agent("anthropic:claude-sonnet-4-6", tools=[])\nagent.invoke({"messages": [{"role": "user", "content": "hi"}]})\n'],
      ['lc.ts', "import { createAgent } from 'langchain';\n\nconst agent = createAgent({ model: 'anthropic:claude-sonnet-4-6', tools: [] });\nawait agent.invoke({ messages: [{ role: 'user', content: 'hi' }] });\n"],
      ['ll.py', 'import litellm\n\nlitellm.completion(model="anthropic/claude-sonnet-4-6", messages=[{"role": "user", "content": "hi"}])\n'],
      ['ll2.py', 'from litellm import acompletion\n\nasync def ask(q):\n    return await acompletion(model="claude-sonnet-4-6", messages=[{"role": "user", "content": q}])\n'],
      ['in.py', 'import anthropic\nimport instructor\n\nclient = instructor.from_anthropic(anthropic.Anthropic())\nclient.messages.create(model="claude-sonnet-4-6", max_tokens=100, messages=[], response_model=str)\n'],
      ['in2.py', 'import instructor\n\nclient = instructor.from_provider("anthropic/claude-sonnet-4-6")\nclient.create(messages=[{"role": "user", "content": "hi"}], response_model=str)\n'],
      ['sa.py', 'from smolagents import CodeAgent, LiteLLMModel\n\nmodel = LiteLLMModel(model_id="anthropic/claude-sonnet-4-6")\nCodeAgent(tools=[], model=model).run("hi")\n'],
    ];
    for (const [file, text] of shapes) {
      expect(mayHoldRequests(text), file).toBe(true);
      expect(off.analyze(path.join(ROOT, file), text).calls.length, file).toBeGreaterThan(0);
    }
    // Mentions of a framework that hold none of its requests: a provider name in another language's
    // file, an exception type, a method of the same name in another library, instructor's types.
    const mentions = [
      "export const PROVIDERS = ['openai', 'litellm', 'anthropic'];\n",
      'import litellm\n\ntry:\n    pass\nexcept litellm.RateLimitError:\n    pass\n',
      'class Team:\n    def create_agent(self, name):\n        return {"name": name}\n',
      "import { createAgent } from './agents/index.js';\nexport const a = createAgent;\n",
      'from instructor import Mode\n\nMODE = Mode.TOOLS\n',
      'from smolagents import tool\n\n@tool\ndef add(a: int, b: int) -> int:\n    return a + b\n',
    ];
    for (const text of mentions) expect(mayHoldRequests(text), text).toBe(false);
  });

  it("parses for a file rule only the code that names what the rule reads, in the file's language", () => {
    const ids = (file: string, text: string) => triggeredRules(allRules, text, languageForPath(file)!).map((r) => r.meta.id);
    // Everyday code: loops, str.replace, ", ".join, a read, an input() call, a path: no rule can report.
    const plainPy = 'import os\n\ndef names(rows, path):\n    out = []\n    for row in rows:\n        out.append(row["name"].replace("-", "_"))\n    with open(path) as f:\n        f.read()\n    answer = input("name? ")\n    return ", ".join(out) + answer\n';
    expect(ids('plain.py', plainPy)).toEqual([]);
    const plainTs = "import * as path from 'node:path';\nexport function label(input: { name: string }, file: string) {\n  for (const part of file.split('/')) console.log(part.replace('-', '_'));\n  return [input.name, path.basename(file)].join(', ');\n}\n";
    expect(ids('plain.ts', plainTs)).toEqual([]);
    // A write in place (Python: a write mode; Node: the fs module's writers).
    expect(ids('save.py', 'import json\n\ndef save(state, p):\n    with open(p, "w") as f:\n        json.dump(state, f)\n')).toEqual(['non-atomic-checkpoint']);
    expect(ids('save.py', 'def save(p, text):\n    p.write_text(text)\n')).toEqual(['non-atomic-checkpoint']);
    expect(ids('save.py', 'import os, tempfile\n\ndef save(p):\n    fd, tmp = tempfile.mkstemp()\n    os.replace(tmp, p)\n')).toEqual(['non-atomic-checkpoint']);
    expect(ids('save.ts', "import * as fs from 'node:fs';\nexport const save = (f: string, s: string) => fs.writeFileSync(f, s);\n")).toEqual(['non-atomic-checkpoint']);
    expect(ids('save.js', "const { writeFile } = require('fs/promises');\nmodule.exports = (f, s) => writeFile(f, s);\n")).toEqual(['non-atomic-checkpoint']);
    // Python's `open` counts only called or bound to a name, and only with a mode that empties the
    // file — or, for a temp file renamed into place, with any mode that writes.
    expect(ids('read.py', '# webbrowser.open shows it; open the file first\ndef size(p):\n    with open(p) as f:\n        return {"x": len(f.read()), "a": 1}\n')).toEqual([]);
    expect(ids('read.py', 'def show(url):\n    # webbrowser.open it when it is ready\n    return {"w": url}\n')).toEqual([]);
    expect(ids('save.py', 'from io import open as io_open\n\ndef save(p, s):\n    with io_open(p, "w") as f:\n        f.write(s)\n')).toEqual(['non-atomic-checkpoint']);
    expect(ids('save.py', 'import os\n\ndef save(p, s):\n    with open(p + ".tmp", "x") as f:\n        f.write(s)\n    os.replace(p + ".tmp", p)\n')).toEqual(['non-atomic-checkpoint']);
    // Node's writer names in Python, and Python's in TypeScript, are no file operation there.
    expect(ids('x.py', 'def f(fs, s):\n    fs.writeFileSync("a", s)\n')).toEqual([]);
    expect(ids('x.ts', "export const f = (p: { write_text(s: string): void }) => p.write_text('w');\n")).toEqual([]);
    // A handler that joins the model's path to a root.
    expect(ids('memory.py', 'import os\n\ndef handle_tool(tool_input):\n    return os.path.join("/srv/m", tool_input["path"])\n')).toEqual(['memory-path-unchecked']);
    expect(ids('memory.py', 'from pathlib import Path\n\ndef handle_tool(tool_input):\n    return Path("/srv/m") / tool_input["path"]\n')).toEqual(['memory-path-unchecked']);
    expect(ids('memory.py', 'def handle_tool(base_dir, tool_input):\n    return base_dir / tool_input["path"]\n')).toEqual(['memory-path-unchecked']);
    expect(ids('memory.ts', "import * as path from 'node:path';\nexport function handleTool(input: { path: string }) {\n  return path.join('/srv/m', input.path);\n}\n")).toEqual(['memory-path-unchecked']);
  });

  it('finds the Python writes non-atomic-checkpoint reports through each form of its trigger, as without the prefilter', () => {
    const load = '\n\ndef load():\n    with open(STATE) as f:\n        return json.load(f)\n';
    const shapes = {
      // The mode in a constant: the literal is elsewhere in the file.
      constantMode: `import json\n\nSTATE = "state.json"\nMODE = "w"\n\ndef save(state):\n    with open(STATE, MODE) as f:\n        json.dump(state, f)${load}`,
      // `open` imported under another name.
      aliasedOpen: `import json\nfrom io import open as io_open\n\nSTATE = "state.json"\n\ndef save(state):\n    with io_open(STATE, "w") as f:\n        json.dump(state, f)${load}`,
      // A temp file opened with "x" (which does not empty a file) and renamed into place without an fsync.
      renamedTemp: `import json\nimport os\n\nSTATE = "state.json"\n\ndef save(state):\n    tmp = STATE + ".tmp"\n    with open(tmp, "x") as f:\n        json.dump(state, f)\n    os.replace(tmp, STATE)${load}`,
    };
    for (const [name, text] of Object.entries(shapes)) {
      const file = `/p/app/${name}.py`;
      const found = on.analyze(file, text).diagnostics.map((d) => [d.ruleId, d.at.start, d.at.end]);
      expect(found.map(([id]) => id), name).toEqual(['non-atomic-checkpoint']);
      expect(off.analyze(file, text).diagnostics.map((d) => [d.ruleId, d.at.start, d.at.end]), name).toEqual(found);
    }
  });

  it('tells a file with no request chain from one quickly, however its comments run', () => {
    // Runs of `/`, `#` and comments after `messages` (comment banners) once took exponential time to fail.
    const started = performance.now();
    expect(mayHoldRequests(`// messages ${'/'.repeat(400)}\n`)).toBe(false);
    expect(mayHoldRequests(`messages ${'#'.repeat(400)}\n`)).toBe(false);
    expect(mayHoldRequests(`messages ${'/* c */ '.repeat(200)}\n`)).toBe(false);
    const banner = `def handle_tool(tool_input):\n    # path ${'#'.repeat(400)}\n    return tool_input["path"]\n`;
    expect(triggeredRules(allRules, banner, 'python').map((r) => r.meta.id)).toEqual([]);
    expect(performance.now() - started).toBeLessThan(1000);
    // A comment still sits between the segments of a real chain, to the end of its line.
    expect(mayHoldRequests('client.messages  # the GA one // or /* this */\n    .create(model="m")')).toBe(true);
    expect(mayHoldRequests('client.messages /* a */ /* b */.create({})')).toBe(true);
  });

  it('runs no rule on the files it skips, with the prefilter on or off', () => {
    const save = 'import json\n\nSTATE = "state.json"\n\ndef save(state):\n    with open(STATE, "w") as f:\n        json.dump(state, f)\n\ndef load():\n    with open(STATE) as f:\n        return json.load(f)\n';
    const ids = (file: string) => triggeredRules(allRules, save, 'python', file).map((r) => r.meta.id);
    expect(ids('/p/app/store.py')).toEqual(['non-atomic-checkpoint']);
    // Test files (the test runner's names) and the scripts of a CI workflow.
    expect(ids('/p/tests/test_store.py')).toEqual([]);
    expect(ids('/p/tests/conftest.py')).toEqual([]);
    expect(ids('/p/.github/scripts/store.py')).toEqual([]);
    for (const a of [on, off]) {
      expect(a.analyze('/p/app/store.py', save).diagnostics.map((d) => d.ruleId)).toEqual(['non-atomic-checkpoint']);
      expect(a.analyze('/p/tests/test_store.py', save).diagnostics).toEqual([]);
      expect(a.analyze('/p/.github/scripts/store.py', save).diagnostics).toEqual([]);
    }
    // A test file still gets the rules that do not skip it (a removed namespace fails there too), not those that do.
    const ts = "import * as fs from 'node:fs';\nimport * as path from 'node:path';\nexport function handleTool(input: { path: string }) {\n  return fs.readFileSync(path.join('/srv/m', input.path), 'utf8');\n}\nexport const old = client.beta.promptCaching;\n";
    expect(triggeredRules(allRules, ts, 'typescript', '/p/src/tool.ts').map((r) => r.meta.id)).toEqual(['memory-path-unchecked', 'removed-namespace']);
    expect(triggeredRules(allRules, ts, 'typescript', '/p/src/tool.test.ts').map((r) => r.meta.id)).toEqual(['removed-namespace']);
  });

  it('parses for the path rule only a handler by the names the rule reads', () => {
    const ids = (file: string, text: string) => triggeredRules(allRules, text, languageForPath(file)!).map((r) => r.meta.id);
    // Python: a handler is a `def` named like one, a memory-tool module needs its marker beside the command names.
    expect(ids('a.py', 'import os\n\ndef read_attachment(tool_input):\n    return os.path.join("/srv/m", tool_input["path"])\n')).toEqual([]);
    expect(ids('a.py', 'import os\n\nasync def dispatch(tool_input):\n    return os.path.join("/srv/m", tool_input["path"])\n')).toEqual(['memory-path-unchecked']);
    expect(ids('a.py', 'import os\n\ndef run(command, path):\n    if command == "view":\n        return os.path.join("/srv/m", path)\n    if command == "create":\n        return path\n')).toEqual([]);
    expect(ids('a.py', 'import os\n\nROOT = "/srv/memories"\n\ndef run(command, path):\n    if command == "view":\n        return os.path.join(ROOT, path)\n    if command == "create":\n        return path\n')).toEqual(['memory-path-unchecked']);
    // A path join by its library's name: not any `join` in a file that imports os, nor any `resolve`.
    expect(ids('a.py', 'import os\n\ndef handle_tool(tool_input):\n    return ", ".join([os.getcwd(), tool_input["path"]])\n')).toEqual([]);
    expect(ids('a.py', 'def handle_tool(tool_input, resolver):\n    return resolver.resolve(tool_input["path"])\n')).toEqual([]);
    for (const text of ['from os import path\n\ndef handle_tool(tool_input):\n    return path.join("/srv/m", tool_input["path"])\n', 'def handle_tool(root, tool_input):\n    return (root.resolve(strict=bool(1))  # the real root\n        / tool_input["path"])\n']) {
      expect(ids('a.py', text)).toEqual(['memory-path-unchecked']);
      expect(reported(text, 'a.py')).toEqual(['memory-path-unchecked']);
    }
    expect(ids('a.ts', 'export function handleTool(input: { path: string }, tools: { join(a: string, b: string): string }) {\n  return tools.join("/srv/m", input.path);\n}\n')).toEqual([]);
    const required = "const { join } = require('path');\nexport function handleTool(input: { path: string }) {\n  return join('/srv/m', input.path);\n}\n";
    expect(ids('a.ts', required)).toEqual(['memory-path-unchecked']);
    expect(reported(required, 'a.ts')).toEqual(['memory-path-unchecked']);
    // Next to a request call any function may be the handler.
    expect(ids('a.py', 'import os\n\ndef read_attachment(tool_input):\n    return os.path.join("/srv/m", tool_input["path"])\n\nclient.messages.create(model="m")\n')).toContain('memory-path-unchecked');
    // A Python handler reads the tool input in its own text: a CLI's `input()` in another function is not it.
    const cli = 'import os\n\n\nclass Runner:\n    def handle_command(self, name):\n        return os.path.join(self.root, name)\n\n\ndef main():\n    runner = Runner()\n    print(runner.handle_command(input("name: ")))\n';
    expect(ids('a.py', cli)).toEqual([]);
    expect(reported(cli, 'a.py')).toEqual([]);
    const reads = cli.replace('def handle_command(self, name):', 'def handle_command(self, tool_input):\n        name = tool_input["path"]');
    expect(ids('a.py', reads)).toEqual(['memory-path-unchecked']);
    expect(reported(reads, 'a.py')).toEqual(['memory-path-unchecked']);
    // Where the functions cannot be told from the text (here a string left open), the whole text decides, as before.
    expect(ids('a.py', cli + 'x = "open\n')).toEqual(['memory-path-unchecked']);
  });

  /** The rules the analysis with the prefilter off reports in a text: what a trigger must let through. */
  const reported = (text: string, file: string) => [...new Set(off.analyze(path.join(ROOT, file), text).diagnostics.map((d) => d.ruleId))];

  it('parses for the filter rule only code that compares a type with tool_result in a filter', () => {
    const ids = (file: string, text: string) => triggeredRules(allRules, text, languageForPath(file)!).map((r) => r.meta.id);
    expect(ids('a.py', 'BLOCK = "tool_result"\n\ndef kinds():\n    return [BLOCK, "text"]\n')).toEqual([]);
    // Building tool_result blocks (and looping over them) compares nothing with the literal.
    expect(ids('a.py', 'def answer(results):\n    return [{"type": "tool_result", "tool_use_id": r.id, "content": r.text} for r in results if r.ok]\n')).toEqual([]);
    expect(ids('a.ts', "export const answer = (rs: R[]) => rs.filter((r) => r.ok).map((r) => ({ type: 'tool_result', tool_use_id: r.id }));\n")).toEqual([]);
    // Every way a filter's condition can compare the type with the literal.
    for (const cond of ['b["type"] != "tool_result"', "b.get('type') not in ('text', 'tool_result')", 'b.type is not "tool_result"', '"tool_result" != b["type"]', 'b["type"] != (  # the result\n    "tool_result"\n)', 'b["type"] not in (\n    "thinking",  # kept below\n    "tool_result",\n)']) {
      const text = `def keep(content):\n    return [b for b in content if ${cond}]\n`;
      expect(ids('a.py', text), cond).toEqual(['tool-result-removed']);
      expect(reported(text, 'a.py'), cond).toEqual(['tool-result-removed']);
    }
    expect(ids('a.py', 'from langchain_core.messages import ToolMessage\n\ndef keep(ms):\n    return [m for m in ms if not isinstance(m, ToolMessage)]\n')).toEqual(['tool-result-removed']);
    for (const cond of ["b.type !== 'tool_result'", '"tool_result" != b.type', "b.type !== /* kept */ ('tool_result')", "!['thinking', 'tool_result'].includes(b.type)", "!(['tool_result'] as const)?.includes(b.type)"]) {
      const text = `export const keep = (c: B[]) => c.filter((b) => ${cond});\n`;
      expect(ids('a.ts', text), cond).toEqual(['tool-result-removed']);
      expect(reported(text, 'a.ts'), cond).toEqual(['tool-result-removed']);
    }
    expect(ids('a.py', 'def keep(content):\n    return [b for b in content if b["type"] != "tool_result"]\n')).toEqual(['tool-result-removed']);
    expect(ids('a.py', 'def keep(content):\n    return list(filter(lambda b: b["type"] != "tool_result", content))\n')).toEqual(['tool-result-removed']);
    expect(ids('a.ts', "export const KINDS = ['tool_result', 'text'];\n")).toEqual([]);
    expect(ids('a.ts', "export const keep = (c: Array<{ type: string }>) => c.filter((b) => b.type !== 'tool_result');\n")).toEqual(['tool-result-removed']);
  });

  it('parses of the modules a file imports, for their reads, only those that name a reader', async () => {
    const files = new Map([
      ['/w/app.py', 'import json\nfrom helpers import greet\nfrom store import load_state\n\nSTATE = "state.json"\n\ndef save(state):\n    with open(STATE, "w") as f:\n        json.dump(state, f)\n'],
      ['/w/helpers.py', 'def greet(name):\n    return "hello " + name\n'],
      ['/w/store.py', 'import json\n\ndef load_state():\n    with open("state.json") as f:\n        return json.load(f)\n'],
    ]);
    const a = await Analyzer.create({ host: { readFile: (p) => files.get(p), exists: (p) => files.has(p) } });
    const parsed: string[] = [];
    const name = (text: string) => [...files].find(([, t]) => t === text)?.[0] ?? '?';
    const parse = a.parsers.parse.bind(a.parsers);
    const parseEdited = a.parsers.parseEdited.bind(a.parsers);
    a.parsers.parse = (lang, text) => (parsed.push(name(text)), parse(lang, text));
    a.parsers.parseEdited = (lang, text, previous) => (parsed.push(name(text)), parseEdited(lang, text, previous));
    const r = a.analyze('/w/app.py', files.get('/w/app.py')!);
    expect(r.diagnostics.map((d) => [d.ruleId, d.related.map((x) => x.at.file)])).toEqual([['non-atomic-checkpoint', ['/w/store.py']]]);
    expect(parsed).toEqual(['/w/app.py', '/w/store.py']);
  });

  it('every rule that checks whole files declares what triggers it', () => {
    for (const rule of allRules) if (rule.checkFile) expect(rule.meta.triggers, rule.meta.id).toBeDefined();
  });

  it('the languages of the inputs are all covered', () => {
    expect(new Set(files.map((f) => (f.endsWith('.ipynb') ? 'notebook' : languageForPath(f))))).toEqual(new Set(['python', 'typescript', 'tsx', 'javascript', 'notebook']));
  });
});
