/**
 * Fixes whose edits reach other files. Each case under test/fixtures/_crossfile/ is a small
 * project (`project/`, with its own manifest, so that it is a project of its own) and the files
 * its fixes change as they must read afterwards, with the same relative paths: `unsafe-fixed/`
 * after `check --fix --unsafe-fixes`, and `fixed/` after `check --fix` (present exactly when a
 * safe fix is offered). Every source file's findings must equal its `expect:` annotations; each
 * fix run over a copy of the project must change exactly the files of its folder into them, and
 * nothing else; every file it changed must parse, and checking again finds no fix left.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LineIndex } from '../src/core/span';
import { Analyzer } from '../src/engine/analyzer';
import { openDocument } from '../src/engine/document';
import type { SourceDocument } from '../src/engine/document';
import { applicableAcross, fixAcrossFiles } from '../src/engine/fixpoint';
import { discoverFiles } from '../src/host/files';
import { DiskHost } from '../src/host/source';
import { json, project, run, useCli } from './cli-harness';
import { diagnosticKey, FIXTURES, parseExpectations } from './helpers';

const CASES = path.join(FIXTURES, '_crossfile');

function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => fs.statSync(path.join(dir, f)).isFile()).sort();
}

/** An analyzer that sees the whole project, as `check` does when it walks the project's folder. */
async function projectAnalyzer(root: string): Promise<{ analyzer: Analyzer; files: string[] }> {
  const host = new DiskHost({ cache: false });
  const files = discoverFiles([root], root).files;
  host.useProject({ folders: [root], files });
  return { analyzer: await Analyzer.create({ host }), files };
}

function open(file: string, text: string): SourceDocument {
  const doc = openDocument(file, text);
  if ('notice' in doc) throw new Error(`${file}: ${doc.notice}`);
  return doc;
}

useCli();

describe('fixes across files', () => {
  for (const name of fs.readdirSync(CASES).sort()) {
    const dir = path.join(CASES, name);
    const source = path.join(dir, 'project');

    it(`${name}: findings equal the annotations of every file`, async () => {
      const { analyzer, files } = await projectAnalyzer(source);
      expect(files.length).toBeGreaterThan(1);
      for (const file of files) {
        const doc = open(file, fs.readFileSync(file, 'utf8'));
        const result = analyzer.analyze(doc.file, doc.analysedText, doc.language);
        expect(result.notice, file).toBeUndefined();
        const index = new LineIndex(doc.analysedText);
        const expectations = parseExpectations(doc.analysedText).filter((e) => e.kind === 'expect');
        expect(result.diagnostics.map((d) => diagnosticKey(index, d)).sort(), path.relative(source, file)).toEqual(expectations.map((e) => e.key).sort());
        for (const e of expectations) {
          if (!e.message) continue;
          const d = result.diagnostics.find((x) => diagnosticKey(index, x) === e.key);
          expect(d?.message).toContain(e.message);
        }
      }
    });

    for (const [kind, args] of [
      ['unsafe-fixed', ['--fix', '--unsafe-fixes']],
      ['fixed', ['--fix']],
    ] as const) {
      it(`${name}: check ${args.join(' ')} changes exactly the files of ${kind}/, which parse, and a second check finds nothing left to fix`, async () => {
        const inputs = Object.fromEntries(filesUnder(source).map((f) => [f, fs.readFileSync(path.join(source, f))]));
        const tmp = project(inputs);
        const offered = json(run(tmp, ['check', '--format', 'json', ...(kind === 'fixed' ? [] : ['--unsafe-fixes']), '.'])) as Array<{ fix: null | { applicability: string } }>;
        const expectedDir = path.join(dir, kind);
        // A folder of expected files exactly when such a fix is offered (an unsafe one, for unsafe-fixed/).
        const wanted = offered.some((f) => f.fix && (kind === 'fixed' ? f.fix.applicability === 'safe' : f.fix.applicability === 'unsafe'));
        expect(fs.existsSync(expectedDir), `${name}/${kind}/`).toBe(wanted);
        const fixedRun = run(tmp, ['check', ...args, '.']);
        expect(fixedRun.stderr).not.toMatch(/internal error|not applied/);
        const want = new Set(filesUnder(expectedDir));
        const { analyzer } = await projectAnalyzer(tmp);
        for (const f of Object.keys(inputs)) {
          const now = fs.readFileSync(path.join(tmp, f), 'utf8');
          const wantedText = want.has(f) ? fs.readFileSync(path.join(expectedDir, f), 'utf8') : inputs[f].toString('utf8');
          expect(now, `${name}/${f}`).toBe(wantedText);
          if (!want.has(f)) continue;
          const doc = open(path.join(tmp, f), now);
          expect(analyzer.parsesCleanly(doc.file, doc.analysedText, doc.language), `${name}/${kind}/${f} parses`).toBe(true);
        }
        const again = json(run(tmp, ['check', '--format', 'json', ...(kind === 'fixed' ? [] : ['--unsafe-fixes']), '.'])) as Array<{ ruleId: string; file: string; fix: null | { files: Array<{ file: string }> } }>;
        expect(again.filter((f) => f.fix)).toEqual([]);
      });
    }
  }

  it('a fix across files is all or nothing: when one of its files would not parse, no file changes', async () => {
    const root = path.join(CASES, 'python-helper', 'project');
    const expectedText = (rel: string) => fs.readFileSync(path.join(CASES, 'python-helper', 'unsafe-fixed', rel), 'utf8');
    const { analyzer } = await projectAnalyzer(root);
    const file = path.join(root, 'app', 'helpdesk.py');
    const prompts = path.join(root, 'app', 'prompts.py');
    const start = open(file, fs.readFileSync(file, 'utf8'));
    // helpdesk.py's fix changes helpdesk_prompt() only (unsafe-fixed/ has escalations.py's too).
    const original = fs.readFileSync(prompts, 'utf8');
    const promptsAfter = original.replace('return f"{BASE}\\nCurrent time: {datetime.now(timezone.utc).isoformat()}"', 'return f"{BASE}"');
    expect(promptsAfter).not.toBe(original);
    const before = analyzer.analyze(start.file, start.analysedText, start.language);
    const across = before.diagnostics.filter((d) => applicableAcross(d, true));
    expect(across.map((d) => d.fix.otherFiles?.map((p) => path.basename(p.file)))).toEqual([['prompts.py']]);
    // A fix whose edit of the other file would leave it unparsable: neither file changes.
    const tampered = {
      ...before,
      diagnostics: before.diagnostics.map((d) => (d.fix?.otherFiles ? { ...d, fix: { ...d.fix, otherFiles: d.fix.otherFiles.map((p) => ({ ...p, edits: p.edits.map((e) => ({ ...e, newText: '"((' })) })) } } : d)),
    };
    const openFile = (f: string) => open(f, fs.readFileSync(f, 'utf8'));
    const broken = fixAcrossFiles(analyzer, start, openFile, { unsafe: true, result: tampered });
    expect(broken.rejectedAcross.map((r) => r.reason)).toEqual([`${prompts} would not parse`]);
    // Nothing of it was left behind: the next pass analysed the files as they were and applied the real fix to both, exactly.
    expect(broken.appliedAcross).toBe(1);
    expect(broken.documents.get(prompts)?.text).toBe(promptsAfter);
    expect(broken.documents.get(file)?.text).toBe(expectedText('app/helpdesk.py'));
    // The other file already broken: nothing could show that the fix keeps it parsing.
    const unparsable = fixAcrossFiles(analyzer, start, (f) => (f === prompts ? breakOn(openFile(f)) : openFile(f)), { unsafe: true, result: before });
    expect(unparsable.appliedAcross).toBe(0);
    expect(unparsable.rejectedAcross.map((r) => r.reason)).toEqual([`${prompts} did not parse cleanly before fixing`]);
    expect(unparsable.documents.get(file)?.text).toBe(start.text);
    expect(unparsable.documents.has(prompts)).toBe(false);
    // The same fix with the file as it is: both files change.
    const fine = fixAcrossFiles(analyzer, start, (f) => open(f, fs.readFileSync(f, 'utf8')), { unsafe: true });
    expect(fine.appliedAcross).toBe(1);
    expect(fine.documents.get(prompts)?.text).toBe(promptsAfter);
    expect(fine.documents.get(file)?.text).toBe(expectedText('app/helpdesk.py'));
  });

  it('offers no fix when the run does not walk the whole project (named files), and says which files the fix edits in JSON and SARIF', () => {
    const source = path.join(CASES, 'python-helper', 'project');
    const tmp = project(Object.fromEntries(filesUnder(source).map((f) => [f, fs.readFileSync(path.join(source, f))])));
    const named = json(run(tmp, ['check', '--format', 'json', '--unsafe-fixes', 'app/helpdesk.py', 'app/prompts.py', 'app/escalations.py'])) as Array<{ ruleId: string; fix: unknown }>;
    expect(named.filter((f) => f.ruleId === 'volatile-system-prompt').map((f) => f.fix)).toEqual([null, null, null]);
    const walked = json(run(tmp, ['check', '--format', 'json', '--unsafe-fixes', '.'])) as Array<{ ruleId: string; file: string; fix: null | { files: Array<{ file: string; edits: unknown[] }> } }>;
    const fixed = walked.filter((f) => f.ruleId === 'volatile-system-prompt' && f.fix);
    const both = [['app/escalations.py', 3], ['app/prompts.py', 1]];
    expect(fixed.map((f) => [f.file, f.fix!.files.map((p) => [p.file, p.edits.length])])).toEqual([
      ['app/escalations.py', both],
      ['app/escalations.py', both],
      ['app/helpdesk.py', [['app/helpdesk.py', 3], ['app/prompts.py', 1]]],
    ]);
    const sarif = JSON.parse(run(tmp, ['check', '--format', 'sarif', '--unsafe-fixes', '.']).stdout) as { runs: Array<{ results: Array<{ ruleId: string; fixes?: Array<{ artifactChanges: Array<{ artifactLocation: { uri: string }; replacements: unknown[] }> }> }> }> };
    const results = sarif.runs[0].results.filter((r) => r.ruleId === 'volatile-system-prompt' && r.fixes);
    expect(results.map((r) => r.fixes![0].artifactChanges.map((c) => [c.artifactLocation.uri, c.replacements.length]))).toEqual([both, both, [['app/helpdesk.py', 3], ['app/prompts.py', 1]]]);
  });
});

type JsonFinding = { ruleId: string; file: string; line: number; fix: null | { title: string; applicability: string; files: Array<{ file: string }> } };

/** The findings of `check --format json --unsafe-fixes .` over a copy of a case's project, with files replaced or added. */
function findingsOf(caseName: string, changes: Record<string, string> = {}): JsonFinding[] {
  const source = path.join(CASES, caseName, 'project');
  const files: Record<string, string | Buffer> = Object.fromEntries(filesUnder(source).map((f) => [f, fs.readFileSync(path.join(source, f))]));
  const tmp = project({ ...files, ...changes });
  return json(run(tmp, ['check', '--format', 'json', '--unsafe-fixes', '.'])) as JsonFinding[];
}

const fixesOf = (found: JsonFinding[], rule: string, file: string) => found.filter((f) => f.ruleId === rule && f.file === file).map((f) => f.fix && [f.fix.applicability, f.fix.title]);

describe('a fix that changes a definition other code uses too', () => {
  it('is unsafe and its title names each other use (file:line), for every rule whose fix reaches another file', () => {
    expect(fixesOf(findingsOf('python-helper'), 'volatile-system-prompt', 'app/escalations.py')).toEqual([
      ['unsafe', 'Move the time into the user message (from `escalation_prompt` in prompts.py; escalations.py:25 also uses it)'],
      ['unsafe', 'Move the time into the user message (from `escalation_prompt` in prompts.py; escalations.py:14 also uses it)'],
    ]);
    expect(fixesOf(findingsOf('ts-helper'), 'volatile-system-prompt', 'src/digest.ts')).toEqual([['unsafe', 'Move the time into the user message (from `DIGEST_PROMPT` in prompts.ts; digest.ts:8 also uses it)']]);
    expect(fixesOf(findingsOf('python-serialization'), 'unstable-serialization', 'app/bot.py')).toEqual([
      ['unsafe', 'Add sort_keys=True (in `catalog_text`, rendering.py)'],
      ['unsafe', 'Add sort_keys=True (in `plans_text`, rendering.py; admin.py:6 also uses it)'],
    ]);
    expect(fixesOf(findingsOf('python-retrieval'), 'dynamic-content-before-breakpoint', 'kb/triage.py')).toEqual([['unsafe', 'Move `similar` into the newest user message (from `triage_system` in prompts.py; audit.py:10 also uses it)']]);
    expect(fixesOf(findingsOf('ts-retrieval'), 'dynamic-content-before-breakpoint', 'src/review.ts')).toEqual([
      ['unsafe', 'Move `past` into the newest user message (from `reviewSystem` in prompts.ts; review.ts:25 also uses it)'],
      ['unsafe', 'Move `past` into the newest user message (from `reviewSystem` in prompts.ts; review.ts:14 also uses it)'],
    ]);
    // Sorting a listing is safe when the request is its only use, and unsafe when the status command prints it too.
    expect(fixesOf(findingsOf('ts-tools'), 'volatile-tools', 'src/planner.ts')).toEqual([
      ['safe', 'Sort the listing (in `plannerTools`, tools.ts)'],
      ['unsafe', 'Sort the listing (in `PLUGIN_TOOLS`, tools.ts; status.ts:5 also uses it)'],
      null,
    ]);
    expect(fixesOf(findingsOf('python-tools'), 'volatile-tools', 'desk/agent.py')).toEqual([
      ['safe', 'Sort the set before iterating (in `DESK_TOOLS`, tools.py)'],
      ['unsafe', 'Sort the listing (in `plugin_tools`, tools.py; admin.py:6 also uses it)'],
      ['unsafe', 'Sort the set before iterating (in `requested_tools`, tools.py)'],
      null,
    ]);
  });

  it('lists three uses and counts the rest; an import is not listed beside a use in the same file, and a docstring or comment that names it is no use', () => {
    const callers = Object.fromEntries(
      [1, 2, 3, 4].map((i) => [`app/report_${i}.py`, `"""Renders helpdesk_prompt() for report ${i}."""\nfrom app.prompts import helpdesk_prompt\n\n\ndef render() -> str:\n    # helpdesk_prompt is shown as is.\n    return helpdesk_prompt()\n`]),
    );
    expect(fixesOf(findingsOf('python-helper', callers), 'volatile-system-prompt', 'app/helpdesk.py')).toEqual([
      ['unsafe', 'Move the time into the user message (from `helpdesk_prompt` in prompts.py; report_1.py:7, report_2.py:7, report_3.py:7 and 1 more also use it)'],
    ]);
    // An import alone (a re-export from a module that is not public) is a use.
    expect(fixesOf(findingsOf('python-helper', { 'app/api.py': 'from app.prompts import helpdesk_prompt\n' }), 'volatile-system-prompt', 'app/helpdesk.py')).toEqual([
      ['unsafe', 'Move the time into the user message (from `helpdesk_prompt` in prompts.py; api.py:1 also uses it)'],
    ]);
    // Only a docstring names it: the fix is the request's alone.
    expect(fixesOf(findingsOf('python-helper', { 'app/notes.py': '"""See helpdesk_prompt() in prompts.py."""\n' }), 'volatile-system-prompt', 'app/helpdesk.py')).toEqual([
      ['unsafe', 'Move the time into the user message (from `helpdesk_prompt` in prompts.py)'],
    ]);
  });

  it('is not offered when some use cannot be seen: a name in a string, an import under another name, a re-export from a public module', () => {
    const none = [null];
    expect(fixesOf(findingsOf('python-helper', { 'app/registry.py': 'import app.prompts as prompts\n\nPROMPT = getattr(prompts, "helpdesk_prompt")\n' }), 'volatile-system-prompt', 'app/helpdesk.py')).toEqual(none);
    expect(fixesOf(findingsOf('python-helper', { 'app/legacy.py': 'from app.prompts import helpdesk_prompt as legacy_prompt\n\nTEXT = legacy_prompt()\n' }), 'volatile-system-prompt', 'app/helpdesk.py')).toEqual(none);
    expect(fixesOf(findingsOf('python-helper', { 'app/__init__.py': 'from app.prompts import helpdesk_prompt\n' }), 'volatile-system-prompt', 'app/helpdesk.py')).toEqual(none);
    expect(fixesOf(findingsOf('ts-tools', { 'package.json': JSON.stringify({ name: 'trip-planner', main: 'src/status.ts', type: 'module' }) }), 'volatile-tools', 'src/planner.ts')).toEqual([
      ['safe', 'Sort the listing (in `plannerTools`, tools.ts)'],
      null,
      null,
    ]);
  });
});

describe('dynamic-content-before-breakpoint across files: the helper parameter is what the request passes', () => {
  const prompts = (body: string) => `BASE = "You answer Acme employees' questions about the staff handbook."\n\n\ndef answer_system(team: str, passages: str = "") -> str:\n${body}\n`;
  const answer = (call: string) =>
    fs.readFileSync(path.join(CASES, 'python-retrieval', 'project', 'kb', 'answer.py'), 'utf8').replace('system=answer_system(TEAM, passages),', `system=${call},`);
  const fixOf = (changes: Record<string, string>) => fixesOf(findingsOf('python-retrieval', changes), 'dynamic-content-before-breakpoint', 'kb/answer.py');

  it('maps a keyword argument, and a positional one by its place', () => {
    const moved = ['unsafe', 'Move `passages` into the newest user message (from `answer_system` in prompts.py)'];
    expect(fixOf({})).toEqual([moved, moved]);
    expect(fixOf({ 'kb/answer.py': answer('answer_system(team=TEAM, passages=passages)') })).toEqual([moved, moved]);
    expect(fixOf({ 'kb/answer.py': answer('answer_system(passages=passages, team=TEAM)') })).toEqual([moved, moved]);
  });

  it('offers nothing when the argument is not a name the user turn can read again, or the parameter is not what the caller passed', () => {
    const none = [null, null];
    // A call: reading it again would retrieve again.
    expect(fixOf({ 'kb/answer.py': answer('answer_system(TEAM, search_handbook(question, k=4))').replace('    passages = search_handbook(question, k=4)\n', '    passages = None\n') })).toEqual(none);
    // A subscript: only names and attribute reads are read again.
    expect(fixOf({ 'kb/answer.py': answer('answer_system(TEAM, passages["text"])') })).toEqual(none);
    // Assigned again in the helper: the text is not the argument any more.
    expect(fixOf({ 'kb/prompts.py': prompts('    passages = passages.strip()\n    return f"{BASE} Team: {team}.\\n\\nRelevant passages:\\n{passages}"') })).toEqual(none);
    // Changed in place in the helper.
    expect(fixOf({ 'kb/prompts.py': prompts('    passages.sort()\n    return f"{BASE} Team: {team}.\\n\\nRelevant passages:\\n{passages}"') })).toEqual(none);
  });

  it('moves an expression over the parameter with the parameter replaced by what the caller passes', () => {
    const changes = {
      'kb/prompts.py': prompts('    return f"{BASE} Team: {team}.\\n\\nPassages found: {len(passages)}"'),
      'kb/answer.py': answer('answer_system(TEAM, docs)').replace('passages = search_handbook', 'docs = search_handbook'),
    };
    const moved = ['unsafe', 'Move `len(docs)` into the newest user message (from `answer_system` in prompts.py)'];
    expect(fixOf(changes)).toEqual([moved, moved]);
  });
});

describe('the bundled example', () => {
  it('check --fix --unsafe-fixes moves the time from examples/python/prompts.py into the user turn of support_agent.py; both parse and the rule is silent after', () => {
    const examples = path.join(FIXTURES, '..', '..', 'examples');
    const files = filesUnder(examples).filter((f) => !f.split(path.sep).includes('node_modules'));
    const tmp = project(Object.fromEntries(files.map((f) => [f, fs.readFileSync(path.join(examples, f))])));
    const before = json(run(tmp, ['check', '--format', 'json', '--unsafe-fixes', '--select', 'volatile-system-prompt', '.'])) as Array<{ file: string; line: number; fix: null | { title: string; files: Array<{ file: string }> } }>;
    const headline = before.find((f) => f.file === 'python/support_agent.py');
    expect(headline?.fix?.title).toBe('Move the time into the user message (from `support_prompt` in prompts.py)');
    expect(headline?.fix?.files.map((p) => p.file)).toEqual(['python/support_agent.py', 'python/prompts.py']);

    const fixed = run(tmp, ['check', '--fix', '--unsafe-fixes', '.']);
    expect(fixed.stderr).not.toMatch(/internal error|not applied|syntax errors/);
    const agent = fs.readFileSync(path.join(tmp, 'python', 'support_agent.py'), 'utf8');
    const prompts = fs.readFileSync(path.join(tmp, 'python', 'prompts.py'), 'utf8');
    expect(prompts).toContain('    return f"{SUPPORT_PROMPT}"\n');
    expect(prompts).not.toContain('datetime.now()');
    expect(agent).toContain('from prompts import support_prompt\nfrom datetime import datetime\n');
    expect(agent).toContain('messages=[*req.history, {"role": "user", "content": f"[time: {datetime.now():%Y-%m-%d %H:%M}] " + req.question}],');
    expect(agent).toContain('system=support_prompt(),');

    const after = run(tmp, ['check', '--format', 'json', '--unsafe-fixes', 'python/support_agent.py', 'python/prompts.py']);
    expect(after.stderr).not.toMatch(/syntax errors|internal error/);
    const left = json(after) as Array<{ ruleId: string; file: string }>;
    expect(left.filter((f) => f.ruleId === 'volatile-system-prompt')).toEqual([]);
  });
});

/** The document with an unclosed bracket added at its end, so that any text made from it does not parse. */
function breakOn(doc: SourceDocument): SourceDocument {
  return open(doc.file, doc.text + '\nBROKEN = (\n');
}

describe('what other files pass to the methods of a class', () => {
  type Related = { file: string; line: number; message: string };
  const relatedOf = (caseName: string, rule: string) =>
    (findingsOf(caseName) as Array<JsonFinding & { related: Related[] }>).filter((f) => f.ruleId === rule).map((f) => f.related.map((r) => `${r.file}:${r.line} ${r.message}`));

  it('names the caller that gets the value and each text it is written into on its way', () => {
    expect(relatedOf('ts-class-provider', 'dynamic-content-before-breakpoint')).toEqual([
      expect.arrayContaining(['src/chat.ts:9 `searchNotes(question)` is produced here', 'src/providers/claude.ts:26 written into a text here']),
    ]);
    expect(relatedOf('python-class-provider', 'dynamic-content-before-breakpoint')).toEqual([
      expect.arrayContaining(['notes/chat.py:12 `search_notes(question)` is produced here', 'notes/providers/claude.py:16 written into a text here']),
    ]);
    expect(relatedOf('ts-class-provider', 'per-user-prefix')).toEqual([expect.arrayContaining(['src/agent.ts:20 `this.ranker.rerank(prompt, tools)` is produced here'])]);
    expect(relatedOf('python-class-provider', 'per-user-prefix')).toEqual([expect.arrayContaining(['notes/agent.py:17 `self.ranker.rerank(prompt, tools)` is produced here'])]);
  });

  it('follows no call when the project is not walked whole (named files): the method stays silent', () => {
    const source = path.join(CASES, 'ts-class-provider', 'project');
    const tmp = project(Object.fromEntries(filesUnder(source).map((f) => [f, fs.readFileSync(path.join(source, f))])));
    const named = json(run(tmp, ['check', '--format', 'json', 'src/providers/claude.ts'])) as JsonFinding[];
    expect(named).toEqual([]);
  });
});
