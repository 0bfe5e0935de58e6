/**
 * Robustness: prefixlint never falls over on bad input.
 *
 * - fuzz: seeded mutations of every fixture and example file, analysed in-process (and a few
 *   through the CLI): no exception, no internal error, every file gets a result or a one-line
 *   notice, no file takes more than a second. A failing input is saved under
 *   test/fixtures/_fuzz/ (with the seed that made it) and replayed on every run after.
 *   PREFIXLINT_FUZZ=100000 runs the long mode; PREFIXLINT_FUZZ_SEED and PREFIXLINT_FUZZ_CASE
 *   pick the seed and one case.
 * - hostile files through the CLI: huge, minified, deeply nested, binary, not UTF-8, UTF-16,
 *   CRLF and mixed line endings (exact positions), broken and huge notebooks, a symlink loop,
 *   a file that disappears during the run.
 * - fix safety: each fix alone, and all safe fixes (then all unsafe ones) through the fix loop
 *   that `check --fix` and the editor run (engine/fixpoint.ts), keep every fixture and example
 *   parsing, reach a fixpoint, and leave no fixable finding.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { main } from '../src/cli/main';
import { Analyzer } from '../src/engine/analyzer';
import { openDocument } from '../src/engine/document';
import type { SourceDocument } from '../src/engine/document';
import { applicable, fixToFixpoint, MAX_FIX_PASSES } from '../src/engine/fixpoint';
import { Notebook } from '../src/lang/notebook';
import type { Node } from '../src/lang/parsers';
import { walk } from '../src/lang/walk';
import { json, project, run, useCli } from './cli-harness';
import type { JsonFinding } from './cli-harness';
import { diskHost, FIXTURES, ROOT } from './helpers';
import { casePath, check, collectInputs, makeCase, notebookParses, Rng, saveFailure, savedFailures, TIME_LIMIT_MS } from './robustness/fuzz';
import type { Case } from './robustness/fuzz';

const EXAMPLES = path.join(ROOT, 'examples');
const LONG = process.env.PREFIXLINT_FUZZ !== undefined;
const COUNT = Number(process.env.PREFIXLINT_FUZZ ?? 250);
const SEED = Number(process.env.PREFIXLINT_FUZZ_SEED ?? 20261129);
const ONLY = process.env.PREFIXLINT_FUZZ_CASE !== undefined ? Number(process.env.PREFIXLINT_FUZZ_CASE) : undefined;

let analyzer: Analyzer;
beforeAll(async () => {
  analyzer = await Analyzer.create({ host: diskHost() });
});

useCli();

// ---------------------------------------------------------------------------------------------
// Fuzz
// ---------------------------------------------------------------------------------------------

describe('fuzz', () => {
  const inputs = collectInputs([FIXTURES, EXAMPLES]);

  it('has inputs from the fixtures and the examples', () => {
    expect(inputs.length).toBeGreaterThan(20);
    expect(new Set(inputs.map((i) => i.ext))).toEqual(new Set(['.py', '.ts', '.tsx', '.js', '.jsx', '.ipynb']));
  });

  it(
    `${ONLY !== undefined ? `case ${ONLY}` : `${COUNT} mutated inputs`} (seed ${SEED}): no exception, a result or a one-line notice, under ${TIME_LIMIT_MS} ms each`,
    () => {
      const failures: string[] = [];
      const indexes = ONLY !== undefined ? [ONLY] : Array.from({ length: COUNT }, (_, i) => i);
      let slowest = { ms: 0, index: -1 };
      for (const index of indexes) {
        const c = makeCase(inputs, SEED, index);
        const file = casePath(c);
        let outcome = check(analyzer, file, c.text, { fix: index % 10 === 0 });
        // A time over the limit is measured again: a slow input is slow twice, a busy machine rarely is.
        if (!outcome.problem && outcome.ms > TIME_LIMIT_MS) {
          const again = check(analyzer, file, c.text + ' ');
          if (again.ms > TIME_LIMIT_MS) outcome = { ...outcome, problem: `took ${Math.round(Math.min(outcome.ms, again.ms))} ms (limit ${TIME_LIMIT_MS} ms)` };
        }
        if (outcome.ms > slowest.ms) slowest = { ms: outcome.ms, index };
        if (outcome.problem) failures.push(report(c, outcome.problem));
        if (failures.length >= 5) break;
      }
      analyzer.invalidate(casePath({ base: inputs[0] }));
      if (LONG) console.log(`fuzz: ${indexes.length} cases, slowest case ${slowest.index}: ${Math.round(slowest.ms)} ms`);
      expect(failures).toEqual([]);
    },
    LONG ? COUNT * 2 * TIME_LIMIT_MS + 60_000 : 60_000,
  );

  it('saved failing inputs (test/fixtures/_fuzz) stay fixed', () => {
    for (const s of savedFailures()) {
      const base = s.note?.base ? path.join(ROOT, s.note.base) : s.file;
      const file = path.join(path.dirname(base), `__fuzz_case__${path.extname(s.file)}`);
      const outcome = check(analyzer, file, s.text, { fix: true });
      expect(outcome.problem, path.relative(ROOT, s.file)).toBeUndefined();
      analyzer.invalidate(file);
    }
  });

  it('mutated files on disk (raw bytes) through the CLI: exit 0 or 1, JSON output, one-line notices', () => {
    const rng = new Rng(SEED);
    const files: Record<string, Buffer> = {};
    for (let i = 0; i < 12; i++) {
      const c = makeCase(inputs, SEED ^ 0x5bd1e995, i);
      const bytes = Buffer.from(c.text, 'utf8');
      // Raw byte flips too, so the reader meets invalid UTF-8 and NUL bytes.
      if (rng.chance(0.5)) for (let k = rng.int(1, 6); k > 0 && bytes.length; k--) bytes[rng.int(0, bytes.length - 1)] ^= 1 << rng.int(0, 7);
      files[`case${i}${c.base.ext}`] = bytes;
    }
    const dir = project(files);
    const r = run(dir, ['check', '.', '--format', 'json']);
    expect(r.stderr, r.stderr).not.toMatch(/internal error/i);
    expect([0, 1]).toContain(r.code);
    const findings = json(r);
    for (const f of findings) expect(f.line).toBeGreaterThan(0);
    for (const line of r.stderr.split('\n').filter(Boolean)) expect(line).toMatch(/^case\d+\.\w+: \S/);
  });
});

function report(c: Case, problem: string): string {
  const saved = saveFailure(c, problem);
  return `case ${c.index} (${path.relative(ROOT, c.base.file)}; ${c.steps.join(', ')}): ${problem}; saved as ${path.relative(ROOT, saved)}; reproduce with PREFIXLINT_FUZZ_SEED=${c.seed} PREFIXLINT_FUZZ_CASE=${c.index}`;
}

// ---------------------------------------------------------------------------------------------
// Hostile files through the CLI
// ---------------------------------------------------------------------------------------------

const CLOCK_PY = (header: string, eol: string) =>
  [
    header,
    'from datetime import datetime',
    'import anthropic',
    '',
    'client = anthropic.Anthropic()',
    '',
    '',
    'def ask(q):',
    '    resp = client.messages.create(',
    '        model="claude-sonnet-4-6",',
    '        max_tokens=512,',
    '        cache_control={"type": "ephemeral"},',
    '        system=f"Assistant \u{1F600} é. Now: {datetime.now()}",',
    '        messages=[{"role": "user", "content": q}],',
    '    )',
    '    return resp',
    '',
  ].join(eol);

const CLOCK_TS = [
  "import Anthropic from '@anthropic-ai/sdk';",
  '// 中文 \u{1F469}\u200D\u{1F4BB} e\u0301 — non-ASCII text before the finding',
  'const client = new Anthropic();',
  'export async function ask(q: string) {',
  "  return client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 512, cache_control: { type: 'ephemeral' }, system: `\u{1F600} déjà vu — ${new Date().toISOString()}`, messages: [{ role: 'user', content: q }] });",
  '}',
  '',
].join('\n');

/** 1-based line and UTF-16 column of the first `needle`, counting \r\n, \r and \n as line breaks. */
function expectedPosition(text: string, needle: string): { line: number; column: number } {
  const offset = text.indexOf(needle);
  const before = text.slice(0, offset);
  const lines = before.split(/\r\n|\r|\n/);
  return { line: lines.length, column: lines[lines.length - 1].length + 1 };
}

function minifiedJs(bytes: number, withFinding: boolean): string {
  const chunk = 'function a(b,c){var d=b+c;for(var e=0;e<d;e++){d=d*2%7}return{x:d,y:[1,2,3].map(function(f){return f*d})}}var g=a(1,2);';
  const finding = "import Anthropic from'@anthropic-ai/sdk';const client=new Anthropic();client.messages.create({model:'claude-sonnet-4-6',max_tokens:9,cache_control:{type:'ephemeral'},system:'Now '+new Date().toISOString(),messages:[]});";
  const body = chunk.repeat(Math.ceil(bytes / chunk.length)).slice(0, bytes - (withFinding ? finding.length : 0));
  return withFinding ? finding + body.slice(0, body.lastIndexOf(';') + 1) : body;
}

function notebookJson(cells: string[]): string {
  return (
    JSON.stringify(
      {
        cells: cells.map((source, i) => ({ cell_type: 'code', execution_count: null, id: `c${i}`, metadata: {}, outputs: [], source: source.split(/(?<=\n)/) })),
        metadata: { kernelspec: { display_name: 'Python 3', language: 'python', name: 'python3' } },
        nbformat: 4,
        nbformat_minor: 5,
      },
      null,
      1,
    ) + '\n'
  );
}

describe('hostile files', () => {
  const DEEP = 50_000;
  let dir: string;
  let findings: JsonFinding[];
  let notices: Map<string, string>;
  let code: number | null;
  let ms: number;

  const crlf = CLOCK_PY('# header', '\r\n');
  const mixed = CLOCK_PY('# é 中文 \u{1F600} header', '\r\n').replace(/\r\n/g, (_m, offset: number) => ['\r\n', '\r', '\n'][offset % 3]);
  const cr = CLOCK_PY('# classic Mac line endings', '\r');
  const bigNotebookCells = Array.from({ length: 2000 }, (_, i) =>
    i === 1500 ? CLOCK_PY('import json', '\n') : `x${i} = ${i}\nprint(x${i})\n`,
  );

  beforeAll(() => {
    dir = project({
      'min.js': minifiedJs(20 * 1024 * 1024, false),
      'min-1mb.js': minifiedJs(1024 * 1024, true),
      // Each names a request, so that it is parsed and analysed (a file no rule needs is not parsed).
      'deep.py': 'messages = ' + '('.repeat(DEEP) + '1' + ')'.repeat(DEEP) + '\nclient.messages.create(messages=messages)\n',
      'deep.ts': 'const messages = ' + '['.repeat(DEEP) + '1' + ']'.repeat(DEEP) + ';\nclient.messages.create({ messages });\n',
      'deep-call.js': 'client.messages.create(' + 'g('.repeat(DEEP) + ')'.repeat(DEEP + 1) + ';\n',
      'binary.py': Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 256)),
      'invalid-utf8.py': Buffer.concat([Buffer.from('x = "'), Buffer.from([0xc3, 0x28, 0xff, 0xfe]), Buffer.from('"\n')]),
      'utf16.py': Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(CLOCK_PY('# utf-16', '\n'), 'utf16le')]),
      'crlf.py': crlf,
      'mixed.py': mixed,
      'cr.py': cr,
      'nonascii.ts': CLOCK_TS,
      'broken.ipynb': notebookJson([CLOCK_PY('# cell', '\n')]).slice(0, 200),
      'deep.ipynb': '{"cells": [], "metadata": {"x": ' + '['.repeat(DEEP) + ']'.repeat(DEEP) + '}, "nbformat": 4, "nbformat_minor": 5}',
      'cells.ipynb': notebookJson(bigNotebookCells),
      'ok.py': CLOCK_PY('# a plain file: the run goes on around the hostile ones', '\n'),
    });
    // A symbolic link loop: a folder that contains itself, and two files that point at each other.
    fs.mkdirSync(path.join(dir, 'loop'));
    fs.symlinkSync('..', path.join(dir, 'loop', 'up'));
    fs.symlinkSync('b.py', path.join(dir, 'loop', 'a.py'));
    fs.symlinkSync('a.py', path.join(dir, 'loop', 'b.py'));
    const t0 = performance.now();
    const r = run(dir, ['check', '.', '--format', 'json']);
    ms = performance.now() - t0;
    code = r.code;
    expect(r.stderr).not.toMatch(/internal error/i);
    findings = json(r);
    notices = new Map();
    for (const line of r.stderr.split('\n').filter(Boolean)) {
      const m = /^(.+?): (.+)$/.exec(line);
      expect(m, `not a notice line: ${line}`).not.toBeNull();
      notices.set(m![1], m![2]);
    }
  }, 180_000);

  const of = (file: string) => findings.filter((f) => f.file === file);

  it('the run finishes (no crash, no hang) and the plain file is still checked', () => {
    expect(code).toBe(1);
    expect(ms).toBeLessThan(120_000);
    expect(of('ok.py').map((f) => f.ruleId)).toEqual(['volatile-system-prompt']);
  });

  it('a 20 MB single-line minified file: a notice', () => {
    expect(notices.get('min.js')).toMatch(/larger than/);
    expect(of('min.js')).toEqual([]);
  });

  it('a 1 MB single-line minified file: analysed, the finding on line 1 at its column', () => {
    const text = minifiedJs(1024 * 1024, true);
    expect(of('min-1mb.js').map((f) => [f.ruleId, f.line, f.column])).toEqual([['volatile-system-prompt', 1, text.indexOf('new Date()') + 1]]);
  });

  it('a 50,000-deep nested expression: a notice, no stack overflow', () => {
    for (const f of ['deep.py', 'deep.ts', 'deep-call.js']) expect(notices.get(f), f).toMatch(/nests \d+ levels deep/);
    expect(notices.get('deep.ipynb')).toMatch(/nests too deeply/);
  });

  it('binary, invalid UTF-8 and UTF-16 files: a notice each', () => {
    expect(notices.get('binary.py')).toMatch(/binary/);
    expect(notices.get('invalid-utf8.py')).toMatch(/UTF-8/);
    expect(notices.get('utf16.py')).toMatch(/skipped/);
    for (const f of ['binary.py', 'invalid-utf8.py', 'utf16.py']) expect(of(f)).toEqual([]);
  });

  it('CRLF, mixed and lone-CR line endings: exact line and UTF-16 column', () => {
    for (const [file, text] of [['crlf.py', crlf], ['mixed.py', mixed], ['cr.py', cr]] as const) {
      const at = expectedPosition(text, 'datetime.now()');
      expect(of(file).map((f) => [f.ruleId, f.line, f.column, f.endColumn]), file).toEqual([['volatile-system-prompt', at.line, at.column, at.column + 'datetime.now()'.length]]);
      expect(notices.has(file), `${file}: ${notices.get(file)}`).toBe(false);
    }
    // The emoji on the finding's line counts as two UTF-16 code units.
    expect(expectedPosition(mixed, 'datetime.now()').column).toBe('        system=f"Assistant \u{1F600} é. Now: {'.length + 1);
  });

  it('non-ASCII text before the finding: exact line and UTF-16 column', () => {
    const at = expectedPosition(CLOCK_TS, 'new Date()');
    expect(of('nonascii.ts').map((f) => [f.ruleId, f.line, f.column])).toEqual([['volatile-system-prompt', at.line, at.column]]);
  });

  it('a notebook with broken JSON: a notice', () => {
    expect(notices.get('broken.ipynb')).toMatch(/not a notebook: invalid JSON at \d+:\d+/);
  });

  it('a notebook with 2,000 cells: the finding in cell 1500', () => {
    expect(of('cells.ipynb').map((f) => [f.ruleId, f.cell, f.cellLine])).toEqual([['volatile-system-prompt', 1500, 13]]);
  });

  it('a symbolic link loop: no hang, the looping links get a notice', () => {
    expect(notices.get('loop/a.py')).toMatch(/symbolic links|cannot read/);
    expect(notices.get('loop/b.py')).toMatch(/symbolic links|cannot read/);
    expect([...notices.keys()].filter((f) => f.startsWith('loop/up/'))).toEqual([]);
  });
});

describe('a file that disappears during the run', () => {
  it('gets a notice and the run goes on', async () => {
    const dir = project({ 'a.py': 'def broken(:\n    client.messages.create(messages=[])\n', 'b.py': CLOCK_PY('# b', '\n'), 'z.py': CLOCK_PY('# z', '\n') });
    let err = '';
    let out = '';
    // Files are checked in order; the notice for a.py (a syntax error) comes before z.py is read.
    const code = await main(['check', '.', '--format', 'json'], {
      out: (t) => (out += t),
      err: (t) => {
        if (!err && fs.existsSync(path.join(dir, 'z.py'))) fs.rmSync(path.join(dir, 'z.py'));
        err += t;
      },
      readStdin: () => Buffer.alloc(0),
      stdoutIsTTY: false,
      cwd: dir,
    });
    expect(err).toMatch(/^a\.py: /m);
    expect(err).toMatch(/^z\.py: .*(no such file|cannot read)/m);
    expect(err).not.toMatch(/internal error/i);
    expect((JSON.parse(out) as JsonFinding[]).map((f) => f.file)).toEqual(['b.py']);
    expect(code).toBe(1);
  });
});

// ---------------------------------------------------------------------------------------------
// Fix safety
// ---------------------------------------------------------------------------------------------

/** ERROR and MISSING nodes: a fix must not add any. */
function syntaxErrors(a: Analyzer, file: string, text: string): number {
  let lang: 'python' | undefined;
  let source = text;
  if (file.endsWith('.ipynb')) {
    const nb = Notebook.parse(text);
    if (!(nb instanceof Notebook)) return Infinity;
    source = nb.virtualText;
    lang = 'python';
  }
  const tree = a.parsers.parse(lang ?? languageOf(file), source);
  let n = 0;
  walk(tree.rootNode, (node: Node) => {
    if (node.type === 'ERROR' || node.isMissing) n++;
  });
  return n;
}

function languageOf(file: string) {
  const ext = path.extname(file);
  return ext === '.py' ? 'python' : ext === '.tsx' ? 'tsx' : ext === '.ts' ? 'typescript' : 'javascript';
}

function open(file: string, text: string): SourceDocument {
  const doc = openDocument(file, text);
  if ('notice' in doc) throw new Error(`${file}: ${doc.notice}`);
  return doc;
}

describe('fix safety', () => {
  const files = collectInputs([FIXTURES, EXAMPLES]).map((i) => i.file);

  for (const unsafe of [false, true]) {
    it(`${unsafe ? 'unsafe' : 'safe'} fixes on every fixture and example: still parse, reach a fixpoint, leave nothing fixable`, () => {
      const problems: string[] = [];
      let fixedFiles = 0;
      for (const file of files) {
        const original = fs.readFileSync(file, 'utf8');
        const errorsBefore = syntaxErrors(analyzer, file, original);
        const name = path.relative(ROOT, file);
        const doc = open(file, original);
        // Each fix alone keeps the file parsing.
        for (const d of analyzer.analyze(doc.file, doc.analysedText, doc.language).diagnostics) {
          if (!applicable(d, unsafe)) continue;
          const one = doc.applyFixes([d.fix]);
          if ('notice' in one) problems.push(`${name}: ${d.ruleId} fix "${d.fix.title}" alone makes the file unreadable: ${one.notice}`);
          else if (one.applied && syntaxErrors(analyzer, file, one.document.text) > errorsBefore) problems.push(`${name}: ${d.ruleId} fix "${d.fix.title}" alone adds a syntax error`);
        }
        // All of them together, as \`check --fix\` and the editor apply them.
        const fixed = fixToFixpoint(analyzer, doc, { unsafe });
        for (const r of fixed.rejected) problems.push(`${name}: ${r.diagnostic.ruleId} fix "${r.diagnostic.fix.title}" makes the file parse worse with the others`);
        if (fixed.notParsing) problems.push(`${name}: fixes offered on a file that does not parse`);
        const text = fixed.document.text;
        if (text !== original) {
          fixedFiles++;
          if (syntaxErrors(analyzer, file, text) > errorsBefore) problems.push(`${name}: the fixed file adds a syntax error`);
          // A fixpoint: nothing fixable is left, so fixing again changes nothing.
          const left = fixed.result.diagnostics.filter((d) => applicable(d, unsafe));
          if (left.length) problems.push(`${name}: fixable findings left after ${MAX_FIX_PASSES} passes or a fix that changes nothing: ${left.map((d) => d.ruleId).join(', ')}`);
          if (file.endsWith('.ipynb') && errorsBefore === 0 && !notebookParses(analyzer, file, text)) problems.push(`${name}: the fixed notebook no longer parses`);
        } else if (fixed.result.diagnostics.some((d) => applicable(d, unsafe))) {
          problems.push(`${name}: ${fixed.result.diagnostics.filter((d) => applicable(d, unsafe)).map((d) => d.ruleId).join(', ')} offer a fix that changes nothing`);
        }
        // Leave the workspace with the file as it is on disk (other files import some of them).
        analyzer.invalidate(file);
      }
      expect(problems).toEqual([]);
      expect(fixedFiles).toBeGreaterThan(0);
    }, 120_000);
  }
});
