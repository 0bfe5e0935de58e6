/**
 * Runs the built CLI (dist/cli.js) as a user would, in temporary folders made here (see
 * cli-harness.ts; the bundle is rebuilt first when it is older than the sources).
 */
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { version } from '../package.json';
import { BAD_PY, BAD_TS, CLI as cli, GOOD_PY, MODULE_PROMPT_PY, ROOT as root, SAFE_FIX_PY, json, notebookOf, project, run as runCli, useCli } from './cli-harness';

useCli();
// Every test runs the CLI, several times; a busy machine makes that slow.
vi.setConfig({ testTimeout: 180_000 });

const run = (cwd: string, ...args: string[]) => runCli(cwd, args);

/** The text between two 1-based positions (columns in UTF-16 code units). */
function slice(text: string, line: number, column: number, endLine: number, endColumn: number): string {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') starts.push(i + 1);
  return text.slice(starts[line - 1] + column - 1, starts[endLine - 1] + endColumn - 1);
}

describe('the command line', () => {
  it('prints its version and help', () => {
    const dir = project({});
    const v = run(dir, '--version');
    expect(v.code).toBe(0);
    expect(v.stdout.trim()).toBe(`prefixlint ${version}`);
    const h = run(dir, 'check', '--help');
    expect(h.code).toBe(0);
    expect(h.stdout).toContain('UTF-16');
    expect(h.stdout).toContain('--unsafe-fixes');
    const none = run(dir);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('Usage');
  });

  it('treats unknown commands, options and formats as usage errors', () => {
    const dir = project({ 'a.py': GOOD_PY });
    for (const args of [['lint'], ['check', '--frobnicate'], ['check', '--format', 'xml'], ['explain']]) {
      const r = run(dir, ...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/prefixlint: error: /);
      expect(r.stdout).toBe('');
    }
  });
});

describe('check', () => {
  it('passes a clean folder with exit 0', () => {
    const dir = project({ 'app/good.py': GOOD_PY, 'README.md': '# not checked' });
    const r = run(dir, 'check');
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('All checks passed.');
    expect(r.code).toBe(0);
  });

  it('shows each finding with its severity, the source line, a marker under the range and the fix', () => {
    const dir = project({ 'src/bad.py': BAD_PY, 'src/good.py': GOOD_PY });
    const r = run(dir, 'check');
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(
      [
        'error[volatile-system-prompt]: The system prompt includes the current time (`datetime.now()`), which',
        '  changes on every call; the cached prefix is rewritten each time and never read.',
        '  --> src/bad.py:12:62',
        '   |',
        '12 |         system=f"You are a helpful assistant. Current time: {datetime.now()}",',
        '   |                                                              ^^^^^^^^^^^^^^',
        '   |',
        '   = fix: an unsafe fix is available (--unsafe-fixes shows it)',
        '',
        'Found 1 problem (1 error, 0 warnings, 0 infos) in 1 file. 1 fixable with --fix --unsafe-fixes.',
        '',
      ].join('\n'),
    );
  });

  it('--format concise reports findings as path:line:col: rule message, with a summary that adds up, and exits 1', () => {
    const dir = project({ 'src/bad.py': BAD_PY, 'src/bad.ts': BAD_TS, 'src/good.py': GOOD_PY });
    const text = run(dir, 'check', '--format', 'concise');
    const found = json(run(dir, 'check', '--format', 'json'));
    expect(text.code).toBe(1);
    expect(found.length).toBeGreaterThan(0);
    const lines = text.stdout.split('\n').filter((l) => /^\S+:\d+:\d+: /.test(l));
    expect(lines).toHaveLength(found.length);
    for (const f of found) {
      const marker = f.fix?.applicability === 'safe' ? ' [*]' : '';
      expect(lines).toContain(`${f.file}:${f.line}:${f.column}: ${f.ruleId}${marker} ${f.message}`);
    }
    const count = (s: string) => found.filter((f) => f.severity === s).length;
    const files = new Set(found.map((f) => f.file)).size;
    const n = (k: number, w: string) => `${k} ${w}${k === 1 ? '' : 's'}`;
    expect(text.stdout).toContain(
      `Found ${n(found.length, 'problem')} (${n(count('error'), 'error')}, ${n(count('warning'), 'warning')}, ${n(count('info'), 'info')}) in ${n(files, 'file')}.`,
    );
    // The clock is reported in both languages, nothing in the good file.
    expect(found.filter((f) => f.ruleId === 'volatile-system-prompt').map((f) => f.file).sort()).toEqual(['src/bad.py', 'src/bad.ts']);
    expect(found.some((f) => f.file === 'src/good.py')).toBe(false);
  });

  it('gives JSON with 1-based positions that point at the finding, and fixes with edits', () => {
    const dir = project({ 'bad.py': BAD_PY, 'bad.ts': BAD_TS });
    const r = run(dir, 'check', '--format', 'json', '--unsafe-fixes');
    expect(r.code).toBe(1);
    const found = json(r);
    for (const f of found) {
      expect(Object.keys(f).slice(0, 9)).toEqual(['ruleId', 'severity', 'file', 'line', 'column', 'endLine', 'endColumn', 'message', 'url']);
      expect(f).toHaveProperty('fix');
      // The rule's page in the repository (test/docs.test.ts checks that every such file exists).
      expect(f.url).toBe(`https://github.com/prefixlint/prefixlint/blob/main/docs/rules/${f.ruleId}.md`);
      expect(fs.existsSync(path.join(root, 'docs', 'rules', `${f.ruleId}.md`))).toBe(true);
      expect(f.line).toBeGreaterThanOrEqual(1);
      expect(f.column).toBeGreaterThanOrEqual(1);
      const source = fs.readFileSync(path.join(dir, f.file), 'utf8');
      expect(slice(source, f.line, f.column, f.endLine, f.endColumn).length).toBeGreaterThan(0);
      for (const e of f.fix?.edits ?? []) {
        expect(e.line <= e.endLine).toBe(true);
        expect(typeof e.newText).toBe('string');
      }
    }
    const clocks = found.filter((f) => f.ruleId === 'volatile-system-prompt');
    expect(clocks).toHaveLength(2);
    for (const f of clocks) {
      const source = fs.readFileSync(path.join(dir, f.file), 'utf8');
      const reported = slice(source, f.line, f.column, f.endLine, f.endColumn);
      expect(reported).toMatch(/datetime\.now\(\)|new Date\(\)/);
    }
  });

  it('gives the related places of a finding in JSON and as SARIF relatedLocations, in the other file too', () => {
    const dir = project({
      'store/_loader.py': 'import json\n\n\ndef load_run(run_dir):\n    with open(run_dir / "run_state.json") as f:\n        return json.load(f)\n',
      'store/saver.py': 'import json\n\nfrom _loader import load_run\n\n\ndef save_run(run_dir, state):\n    with open(run_dir / "run_state.json", "w") as f:\n        json.dump(state, f)\n',
    });
    const found = json(run(dir, 'check', '--format', 'json', '--select', 'non-atomic-checkpoint'));
    expect(found.map((f) => [f.file, f.line])).toEqual([['store/saver.py', 7]]);
    expect(found[0].related).toEqual([{ file: 'store/_loader.py', line: 5, column: 10, endLine: 5, endColumn: 42, message: 'the file is read back here' }]);
    const sarif = JSON.parse(run(dir, 'check', '--format', 'sarif', '--select', 'non-atomic-checkpoint').stdout);
    const [result] = sarif.runs[0].results;
    expect(result.relatedLocations).toEqual([
      {
        id: 0,
        message: { text: 'the file is read back here' },
        physicalLocation: { artifactLocation: { uri: 'store/_loader.py', uriBaseId: '%SRCROOT%' }, region: { startLine: 5, startColumn: 10, endLine: 5, endColumn: 42 } },
      },
    ]);
  });

  it('counts columns in UTF-16 code units', () => {
    const dir = project({ 'emoji.ts': BAD_TS.replace('system: `', 'system: /* \u{1F600} */ `') });
    const [f] = json(run(dir, 'check', '--format', 'json', '--select', 'volatile-system-prompt'));
    const line = BAD_TS.replace('system: `', 'system: /* \u{1F600} */ `').split('\n')[f.line - 1];
    expect(line.indexOf('new Date()') + 1).toBe(f.column);
    expect(line.includes('\u{1F600}')).toBe(true);
  });

  it('respects .gitignore files (nested ones too), the default excludes, and explicit files', () => {
    const dir = project({
      '.gitignore': 'generated/\n*.skip.py\n',
      'generated/bad.py': BAD_PY,
      'keep/bad.skip.py': BAD_PY,
      'keep/.gitignore': 'local.py\n',
      'keep/local.py': BAD_PY,
      'keep/seen.py': BAD_PY,
      'node_modules/pkg/bad.py': BAD_PY,
      '.venv/lib/bad.py': BAD_PY,
      'nb/.ipynb_checkpoints/x-checkpoint.ipynb': notebookOf([BAD_PY]),
      'web/widget.min.js': BAD_TS,
      'web/widget.js': BAD_TS,
    });
    const files = new Set(json(run(dir, 'check', '--format', 'json')).map((f) => f.file));
    expect([...files].sort()).toEqual(['keep/seen.py', 'web/widget.js']);
    expect(new Set(json(run(dir, 'check', '--format', 'json', 'web/*.js')).map((f) => f.file))).toEqual(new Set(['web/widget.js']));
    // Named explicitly, an ignored file is checked, and so is a minified bundle.
    const explicit = json(run(dir, 'check', '--format', 'json', 'generated/bad.py', 'web/widget.min.js'));
    expect(new Set(explicit.map((f) => f.file))).toEqual(new Set(['generated/bad.py', 'web/widget.min.js']));
  });

  it('reads the .gitignore files above the folder it is given, up to the repository root', () => {
    const dir = project({ '.git/HEAD': 'ref: refs/heads/main\n', '.gitignore': 'sub/hidden/\n', 'sub/hidden/bad.py': BAD_PY, 'sub/bad.py': BAD_PY });
    const r = run(path.join(dir, 'sub'), 'check', '--format', 'json', '.');
    expect(new Set(json(r).map((f) => f.file))).toEqual(new Set(['bad.py']));
  });

  it('walks a folder given from outside it and outside any repository as from inside it: its .gitignore files rule every depth below them', () => {
    const tree = {
      '.gitignore': 'generated/\n*.skip.py\n',
      'generated/bad.py': BAD_PY,
      'pkg/generated/bad.py': BAD_PY,
      'pkg/deep/bad.skip.py': BAD_PY,
      'keep/.gitignore': 'local.py\n',
      'keep/local.py': BAD_PY,
      'keep/deep/local.py': BAD_PY,
      'keep/deep/seen.py': BAD_PY,
      'seen.py': BAD_PY,
    };
    const dir = project({ 'checked/.keep': '', ...Object.fromEntries(Object.entries(tree).map(([f, t]) => [`checked/${f}`, t])), 'elsewhere/.keep': '' });
    const found = (cwd: string, ...args: string[]) => [...new Set(json(run(cwd, 'check', '--format', 'json', ...args)).map((f) => path.relative(path.join(dir, 'checked'), path.resolve(cwd, f.file)).split(path.sep).join('/')))].sort();
    expect(found(path.join(dir, 'checked'))).toEqual(['keep/deep/seen.py', 'seen.py']);
    expect(found(path.join(dir, 'elsewhere'), path.join(dir, 'checked'))).toEqual(['keep/deep/seen.py', 'seen.py']);
    expect(found(path.join(dir, 'elsewhere'), '../checked/keep')).toEqual(['keep/deep/seen.py']);
  });

  it('expands globs, and warns about one that matches nothing', () => {
    const dir = project({ 'a/bad.py': BAD_PY, 'a/bad.ts': BAD_TS, 'b/deep/bad.py': BAD_PY, 'ignored/bad.py': BAD_PY, '.gitignore': 'ignored/\n' });
    const r = run(dir, 'check', '--format', 'json', '**/*.py');
    expect(new Set(json(r).map((f) => f.file))).toEqual(new Set(['a/bad.py', 'b/deep/bad.py']));
    const none = run(dir, 'check', 'nothing/**/*.py');
    expect(none.code).toBe(0);
    expect(none.stderr).toContain('nothing/**/*.py: no files matched');
  });

  it('exits 2 naming a path that does not exist', () => {
    const dir = project({ 'a.py': BAD_PY });
    const r = run(dir, 'check', 'a.py', 'missing/file.py');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('missing/file.py');
    expect(r.stdout).toBe('');
  });

  it('skips unreadable, binary, non-UTF-8 and huge files with a one-line notice and goes on', () => {
    const dir = project({
      'bad.py': BAD_PY,
      'binary.py': Buffer.from([0x69, 0x6d, 0x00, 0x01, 0x02]),
      'latin1.py': Buffer.from('x = "caf\xe9"\n', 'latin1'),
      'huge.py': '#'.repeat(5 * 1024 * 1024 + 1),
      'broken.ipynb': '{"cells": [',
    });
    fs.symlinkSync(path.join(dir, 'no-such-target.py'), path.join(dir, 'dangling.py'));
    const r = run(dir, 'check');
    expect(r.code).toBe(1); // the findings in bad.py, not 2
    const notices = r.stderr.trim().split('\n');
    const expected: Array<[string, RegExp]> = [
      ['binary.py', /binary/],
      ['latin1.py', /UTF-8/],
      ['huge.py', /larger than 5 MB/],
      ['dangling.py', /cannot read/],
      ['broken.ipynb', /invalid JSON/],
    ];
    for (const [file, reason] of expected) {
      const line = notices.filter((n) => n.startsWith(`${file}: `));
      expect(line, file).toHaveLength(1);
      expect(line[0]).toMatch(/^\S+: skipped: /);
      expect(line[0]).toMatch(reason);
    }
    expect(notices).toHaveLength(expected.length);
    expect(r.stdout).toContain('bad.py:');
  });

  it('selects and ignores rules by id or group, and rejects unknown ids by name', () => {
    const dir = project({ 'bad.py': BAD_PY });
    const all = json(run(dir, 'check', '--format', 'json'));
    expect(all.some((f) => f.ruleId === 'volatile-system-prompt')).toBe(true);
    const selected = json(run(dir, 'check', '--format', 'json', '--select', 'volatile-system-prompt'));
    expect(selected.map((f) => f.ruleId)).toEqual(all.filter((f) => f.ruleId === 'volatile-system-prompt').map((f) => f.ruleId));
    const byGroup = json(run(dir, 'check', '--format', 'json', '--select', 'cache'));
    expect(byGroup.some((f) => f.ruleId === 'volatile-system-prompt')).toBe(true);
    const ignored = run(dir, 'check', '--ignore', 'volatile-system-prompt,unknown-beta');
    expect(ignored.stdout).not.toContain('volatile-system-prompt');
    const unknown = run(dir, 'check', '--select', 'volatile-system-prompt,volatile-sytem-prompt');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("'volatile-sytem-prompt'");
    expect(unknown.stderr).toContain("did you mean 'volatile-system-prompt'");
  });

  it('shows unsafe fixes only with --unsafe-fixes, and applies them only with --fix --unsafe-fixes', () => {
    const dir = project({ 'bad.py': BAD_PY, 'module_prompt.py': MODULE_PROMPT_PY });
    const plain = json(run(dir, 'check', '--format', 'json'));
    const shown = json(run(dir, 'check', '--format', 'json', '--unsafe-fixes'));
    expect(plain.some((f) => f.fix?.applicability === 'unsafe')).toBe(false);
    expect(shown.length).toBe(plain.length);
    const unsafe = shown.filter((f) => f.fix?.applicability === 'unsafe');
    expect(unsafe.map((f) => f.file)).toContain('module_prompt.py');
    for (const [i, f] of plain.entries()) {
      if (f.fix) expect(shown[i].fix).toEqual(f.fix);
      else expect(shown[i].fix?.applicability ?? 'none').not.toBe('safe');
    }
    const text = run(dir, 'check');
    expect(text.stdout).toMatch(/fixable with --fix --unsafe-fixes\./);
    const marked = run(dir, 'check', '--format', 'concise', '--unsafe-fixes').stdout.split('\n').filter((l) => l.startsWith('module_prompt.py:'));
    expect(marked.length).toBeGreaterThan(0);
    for (const l of marked) expect(l).toContain(' [*] ');
    // The default format says which fixes are unsafe, and that --unsafe-fixes shows the hidden ones.
    expect(text.stdout).toContain('= fix: an unsafe fix is available (--unsafe-fixes shows it)');
    expect(run(dir, 'check', '--unsafe-fixes').stdout).toMatch(/= fix: .+ \(unsafe: applied by --fix --unsafe-fixes\)/);

    run(dir, 'check', '--fix');
    expect(fs.readFileSync(path.join(dir, 'module_prompt.py'), 'utf8')).toBe(MODULE_PROMPT_PY);
    run(dir, 'check', '--fix', '--unsafe-fixes');
    expect(fs.readFileSync(path.join(dir, 'module_prompt.py'), 'utf8')).not.toBe(MODULE_PROMPT_PY);
    expect(json(run(dir, 'check', '--format', 'json', '--unsafe-fixes')).filter((f) => f.fix)).toEqual([]);
  });

  it('--fix applies safe fixes, writes the file, and the result is clean and still parses', () => {
    const dir = project({ 'bad.py': SAFE_FIX_PY, 'good.py': GOOD_PY });
    const before = json(run(dir, 'check', '--format', 'json'));
    const safe = before.filter((f) => f.fix?.applicability === 'safe');
    expect(safe.length).toBeGreaterThan(0);
    const r = run(dir, 'check', '--fix');
    expect(r.stdout).toMatch(/Fixed \d+ problems? in 1 file\./);
    const fixed = fs.readFileSync(path.join(dir, 'bad.py'), 'utf8');
    expect(fixed).not.toBe(SAFE_FIX_PY);
    expect(fs.readFileSync(path.join(dir, 'good.py'), 'utf8')).toBe(GOOD_PY);
    // Each safe edit's new text is in the file now.
    for (const f of safe) for (const e of f.fix!.edits) expect(fixed).toContain(e.newText);
    const after = run(dir, 'check', '--format', 'json');
    expect(after.stderr).toBe(''); // no syntax-error notice
    expect(json(after).filter((f) => f.fix?.applicability === 'safe')).toEqual([]);
    expect(r.code).toBe(json(after).length ? 1 : 0);
  });

  it("names another place of a notebook by its cell and the cell's line, not by the line of the cells joined", () => {
    const setup = 'import anthropic\n\nclient = anthropic.Anthropic()\ninterviewer = "You interview candidates for a backend role."\nquestions = ["Tell me about a migration.", "How do you test?"]\n';
    const loop = [
      'transcript = []',
      'for q in questions:',
      '    transcript.append({"role": "user", "content": q})',
      '    r = client.messages.create(model="claude-sonnet-4-6", max_tokens=300, system=f"{interviewer} Ask next: {q}", messages=transcript, cache_control={"type": "ephemeral"})',
      '    transcript.append({"role": "assistant", "content": r.content})',
      '',
    ].join('\n');
    const dir = project({ 'interview.ipynb': notebookOf([setup, loop]) });
    const [f] = json(run(dir, 'check', '--format', 'json')).filter((x) => x.ruleId === 'system-rebuilt-in-loop');
    // The loop is the second line of cell index 2; joined after the first code cell it is line 7.
    expect(f.message).toContain('`for q in questions` loop at cell index 2, line 2 ');
    expect(f.message).not.toContain('line 7');
  });

  it('reports notebook findings at the raw file line with the cell, and fixes them in place', () => {
    const [imports, call] = BAD_PY.split('\n\n\n');
    const nbText = notebookOf([imports + '\n', '%load_ext autoreload\n' + call]);
    const dir = project({ 'explore.ipynb': nbText });
    const r = run(dir, 'check', '--format', 'json');
    expect(r.code).toBe(1);
    const [f] = json(r).filter((x) => x.ruleId === 'volatile-system-prompt');
    expect(f.file).toBe('explore.ipynb');
    expect(f.cell).toBe(2); // cells: markdown, imports, call
    const cellLines = ('%load_ext autoreload\n' + call).split('\n');
    expect(cellLines[f.cellLine! - 1]).toContain('datetime.now()');
    expect(cellLines[f.cellLine! - 1].indexOf('datetime.now()') + 1).toBe(f.cellColumn);
    const rawLine = nbText.split('\n')[f.line - 1];
    expect(rawLine.indexOf('datetime.now()') + 1).toBe(f.column);
    const text = run(dir, 'check', '--format', 'concise');
    expect(text.stdout).toContain(`explore.ipynb:${f.line}:${f.column}: volatile-system-prompt`);
    expect(text.stdout).toContain(`(cell index 2, line ${f.cellLine})`);
    // The default format shows the cell's own line, numbered as in the cell.
    const full = run(dir, 'check').stdout;
    expect(full).toContain(`--> explore.ipynb:${f.line}:${f.column} (cell index 2, line ${f.cellLine}, column ${f.cellColumn})`);
    expect(full).toContain(`\n${f.cellLine} | ${cellLines[f.cellLine! - 1]}\n`);

    // Moving the time into the user turn is an unsafe fix.
    run(dir, 'check', '--fix', '--unsafe-fixes');
    const fixed = fs.readFileSync(path.join(dir, 'explore.ipynb'), 'utf8');
    expect(fixed).toBe(JSON.stringify(JSON.parse(fixed), null, 1) + '\n');
    const cells = (JSON.parse(fixed) as { cells: Array<{ source: string[] }> }).cells.map((c) => c.source.join(''));
    expect(cells[2].startsWith('%load_ext autoreload\n')).toBe(true);
    expect(json(run(dir, 'check', '--format', 'json', '--select', 'volatile-system-prompt'))).toEqual([]);
  });
});

describe('rules and explain', () => {
  it('lists every rule as a table and as JSON', () => {
    const dir = project({});
    const r = run(dir, 'rules', '--format', 'json');
    expect(r.code).toBe(0);
    const rules = JSON.parse(r.stdout) as Array<{ id: string; group: string; severity: string; fix: string; summary: string }>;
    expect(rules.length).toBeGreaterThanOrEqual(7);
    const table = run(dir, 'rules');
    expect(table.code).toBe(0);
    const rows = table.stdout.trim().split('\n');
    expect(rows[0]).toMatch(/^RULE\s+GROUP\s+SEVERITY\s+FIX\s+SUMMARY$/);
    expect(rows).toHaveLength(rules.length + 1);
    for (const rule of rules) {
      expect(rule.id).toMatch(/^[a-z]+(-[a-z]+)*$/);
      const row = rows.find((l) => l.startsWith(rule.id + ' '));
      expect(row, rule.id).toBeDefined();
      expect(row!.split(/\s{2,}/)).toEqual([rule.id, rule.group, rule.severity, rule.fix, rule.summary]);
    }
  });

  it('explains a rule with a header from its metadata and its docs rendered for a terminal', () => {
    const dir = project({});
    const [rule] = (JSON.parse(run(dir, 'rules', '--format', 'json').stdout) as Array<{ id: string; group: string; severity: string }>).filter(
      (x) => x.id === 'volatile-system-prompt',
    );
    const r = run(dir, 'explain', 'volatile-system-prompt');
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n').slice(0, 2)).toEqual(['volatile-system-prompt', '='.repeat('volatile-system-prompt'.length)]);
    expect(r.stdout).toContain(`Group: ${rule.group} · Severity: ${rule.severity} · Fix: sometimes available · Docs: https://github.com/prefixlint/prefixlint/blob/main/docs/rules/volatile-system-prompt.md\n`);
    expect(r.stdout).toMatch(/\nWhat it does\n-+\n/);
    // The page that docs/rules/ and the editor show, down to how to turn the rule off.
    expect(r.stdout).toMatch(/\nConfiguration\n-+\n/);
    expect(r.stdout).toContain('`# prefixlint: disable=volatile-system-prompt -- reason`');
    expect(r.stdout).not.toContain('```');
    expect(r.stdout).not.toMatch(/^#+ /m);
    const unknown = run(dir, 'explain', 'volatile-system');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("'volatile-system'");
  });
});

describe('the build', () => {
  it('fails when vscode reaches a bundle that forbids it', async () => {
    const build = createRequire(__filename)(path.join(root, 'esbuild.js')) as {
      buildOptions(b: object): object;
    };
    const esbuild = await import('esbuild');
    const dir = project({ 'entry.ts': "import * as vscode from 'vscode';\nconsole.log(vscode);\n" });
    const options = build.buildOptions({ name: 'test', entry: path.join(dir, 'entry.ts'), outfile: path.join(dir, 'out.js'), forbidden: ['vscode'] });
    await expect(esbuild.build({ ...options, logLevel: 'silent' })).rejects.toThrow(/'vscode' must not be imported into the test bundle/);
  });

  it('puts the CLI and the WASM files in dist/', () => {
    expect(fs.readFileSync(cli, 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
    for (const f of ['web-tree-sitter.wasm', 'tree-sitter-python.wasm', 'tree-sitter-typescript.wasm', 'tree-sitter-tsx.wasm', 'tree-sitter-javascript.wasm']) {
      expect(fs.existsSync(path.join(root, 'dist', f)), f).toBe(true);
    }
  });
});
