/**
 * Fixes whose edits reach other files. Each case under test/fixtures/_crossfile/ is a small
 * project (`project/`, with its own manifest, so that it is a project of its own) and the files
 * its unsafe fixes change as they must read afterwards (`unsafe-fixed/`, same relative paths).
 * Every source file's findings must equal its `expect:` annotations; `check --fix
 * --unsafe-fixes` over a copy of the project must change exactly the files under `unsafe-fixed/`
 * into them, and nothing else; checking again finds no fix across files left (and no fixable
 * volatile-system-prompt finding).
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
    const expected = path.join(dir, 'unsafe-fixed');

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

    it(`${name}: check --fix --unsafe-fixes changes exactly the expected files, and a second check finds nothing left to fix`, () => {
      const inputs = Object.fromEntries(filesUnder(source).map((f) => [f, fs.readFileSync(path.join(source, f))]));
      const tmp = project(inputs);
      const fixedRun = run(tmp, ['check', '--fix', '--unsafe-fixes', '.']);
      expect(fixedRun.stderr).not.toMatch(/internal error|not applied/);
      const want = new Set(filesUnder(expected));
      for (const f of Object.keys(inputs)) {
        const now = fs.readFileSync(path.join(tmp, f), 'utf8');
        const wanted = want.has(f) ? fs.readFileSync(path.join(expected, f), 'utf8') : inputs[f].toString('utf8');
        expect(now, `${name}/${f}`).toBe(wanted);
      }
      const again = json(run(tmp, ['check', '--format', 'json', '--unsafe-fixes', '.'])) as Array<{ ruleId: string; file: string; fix: null | { files: Array<{ file: string }> } }>;
      expect(again.filter((f) => f.fix?.files.some((p) => p.file !== f.file))).toEqual([]);
      expect(again.filter((f) => f.ruleId === 'volatile-system-prompt' && f.fix)).toEqual([]);
    });
  }

  it('a fix across files is all or nothing: when one of its files would not parse, no file changes', async () => {
    const root = path.join(CASES, 'python-helper', 'project');
    const expectedText = (rel: string) => fs.readFileSync(path.join(CASES, 'python-helper', 'unsafe-fixed', rel), 'utf8');
    const { analyzer } = await projectAnalyzer(root);
    const file = path.join(root, 'app', 'helpdesk.py');
    const prompts = path.join(root, 'app', 'prompts.py');
    const start = open(file, fs.readFileSync(file, 'utf8'));
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
    expect(broken.documents.get(prompts)?.text).toBe(expectedText('app/prompts.py'));
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
    expect(fine.documents.get(prompts)?.text).toBe(expectedText('app/prompts.py'));
    expect(fine.documents.get(file)?.text).toBe(expectedText('app/helpdesk.py'));
  });

  it('offers no fix when the run does not walk the whole project (named files), and says which files the fix edits in JSON and SARIF', () => {
    const source = path.join(CASES, 'python-helper', 'project');
    const tmp = project(Object.fromEntries(filesUnder(source).map((f) => [f, fs.readFileSync(path.join(source, f))])));
    const named = json(run(tmp, ['check', '--format', 'json', '--unsafe-fixes', 'app/helpdesk.py', 'app/prompts.py', 'app/escalations.py'])) as Array<{ ruleId: string; fix: unknown }>;
    expect(named.filter((f) => f.ruleId === 'volatile-system-prompt').map((f) => f.fix)).toEqual([null, null, null]);
    const walked = json(run(tmp, ['check', '--format', 'json', '--unsafe-fixes', '.'])) as Array<{ ruleId: string; file: string; fix: null | { files: Array<{ file: string; edits: unknown[] }> } }>;
    const fixed = walked.filter((f) => f.ruleId === 'volatile-system-prompt' && f.fix);
    expect(fixed.map((f) => [f.file, f.fix!.files.map((p) => [p.file, p.edits.length])])).toEqual([['app/helpdesk.py', [['app/helpdesk.py', 3], ['app/prompts.py', 1]]]]);
    const sarif = JSON.parse(run(tmp, ['check', '--format', 'sarif', '--unsafe-fixes', '.']).stdout) as { runs: Array<{ results: Array<{ ruleId: string; fixes?: Array<{ artifactChanges: Array<{ artifactLocation: { uri: string }; replacements: unknown[] }> }> }> }> };
    const results = sarif.runs[0].results.filter((r) => r.ruleId === 'volatile-system-prompt' && r.fixes);
    expect(results.map((r) => r.fixes![0].artifactChanges.map((c) => [c.artifactLocation.uri, c.replacements.length]))).toEqual([[['app/helpdesk.py', 3], ['app/prompts.py', 1]]]);
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
