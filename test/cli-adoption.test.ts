/**
 * Adopting prefixlint on an existing code base, through the built CLI: `--diff <ref>` reports
 * only findings on the lines the branch changed, and a baseline (`--write-baseline`, then
 * `--baseline FILE`) hides today's findings, counted per file and rule, and shows new ones.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { parseUnifiedDiff } from '../src/host/git';
import type { Run } from './cli-harness';
import { BAD_PY, GOOD_PY, gitInit, json, MIXED_PY, project, run, useCli } from './cli-harness';

useCli();
vi.setConfig({ testTimeout: 180_000 });

const SECOND_CALL = `

def ask_again(question: str) -> str:
    resp = client.messages.create(
        model="claude-sonnet-4-6",
        max_tokens=512,
        cache_control={"type": "ephemeral"},
        system=f"You are a helpful assistant. Asked at: {datetime.now()}",
        messages=[{"role": "user", "content": question}],
    )
    return resp.content[0].text
`;

const positions = (r: Run) => json(r).map((f) => `${f.file}:${f.line}:${f.ruleId}`);

describe('--diff <ref>', () => {
  it('reports only findings on lines changed since the branch left the ref: committed, staged, unstaged, new files', () => {
    const dir = project({ 'agent.py': BAD_PY, 'other.py': BAD_PY, 'staged.py': GOOD_PY, 'untouched.py': BAD_PY });
    const git = gitInit(dir);
    git('checkout', '-q', '-b', 'feature');
    // A comment above the old finding moves it down a line; the line itself is unchanged.
    fs.writeFileSync(path.join(dir, 'agent.py'), '# The support bot.\n' + BAD_PY + SECOND_CALL);
    git('commit', '-q', '-am', 'second call');
    // Unstaged: a changed line that is not the finding's.
    fs.writeFileSync(path.join(dir, 'other.py'), BAD_PY.replace('max_tokens=512', 'max_tokens=1024'));
    // Staged: the finding's own line.
    fs.writeFileSync(path.join(dir, 'staged.py'), BAD_PY);
    git('add', 'staged.py');
    fs.writeFileSync(path.join(dir, 'new.py'), BAD_PY);

    const all = positions(run(dir, ['check', '--format', 'json']));
    expect(all).toContain('agent.py:13:volatile-system-prompt');
    expect(all).toContain('untouched.py:12:volatile-system-prompt');
    const r = run(dir, ['check', '--format', 'json', '--diff', 'main']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(1);
    expect(positions(r).sort()).toEqual(['agent.py:24:volatile-system-prompt', 'new.py:12:volatile-system-prompt', 'staged.py:12:volatile-system-prompt']);
    // Relative to the branch's own head, only the working tree's changes count.
    expect(positions(run(dir, ['check', '--format', 'json', '--diff', 'HEAD'])).sort()).toEqual(['new.py:12:volatile-system-prompt', 'staged.py:12:volatile-system-prompt']);
    // Paths narrow it further; the summary counts what is shown.
    const narrow = run(dir, ['check', '--diff', 'main', 'agent.py']);
    expect(narrow.stdout).toContain('Found 1 problem (1 error, 0 warnings, 0 infos) in 1 file.');
  });

  it('passes when the changed lines are clean, and rejects what it cannot do', () => {
    const dir = project({ 'agent.py': BAD_PY });
    const git = gitInit(dir);
    fs.writeFileSync(path.join(dir, 'agent.py'), BAD_PY.replace('max_tokens=512', 'max_tokens=1024'));
    const clean = run(dir, ['check', '--diff', 'HEAD']);
    expect([clean.code, clean.stdout.trim()]).toEqual([0, 'All checks passed.']);
    git('commit', '-q', '-am', 'more tokens');
    const errors: Array<[string[], RegExp]> = [
      [['--diff', 'nope'], /^prefixlint: error: --diff: 'nope' is not a commit, branch or tag in this repository$/],
      [['--diff', 'main', '--fix'], /^prefixlint: error: --diff reports the changed lines only, but --fix would change other lines too/],
      [['--diff', 'main', '--changed-since', 'main'], /^prefixlint: error: --diff takes the changed files from git/],
    ];
    for (const [args, pattern] of errors) {
      const r = run(dir, ['check', ...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.split('\n')[0]).toMatch(pattern);
    }
  });

  it('reads the new-side lines of each hunk, quoted paths included', () => {
    const patch = [
      'diff --git a/app.py b/app.py',
      '--- a/app.py',
      '+++ b/app.py',
      '@@ -3 +3,2 @@ def f():',
      '@@ -10,2 +12,0 @@',
      '@@ -20 +21 @@',
      'diff --git "a/caf\\303\\251 \\"x\\".py" "b/caf\\303\\251 \\"x\\".py"',
      '--- /dev/null',
      '+++ "b/caf\\303\\251 \\"x\\".py"',
      '@@ -0,0 +1,3 @@',
    ].join('\n');
    const lines = parseUnifiedDiff(patch);
    expect([...lines.keys()]).toEqual(['app.py', 'café "x".py']);
    expect([...lines.get('app.py')!]).toEqual([3, 4, 21]);
    expect([...lines.get('café "x".py')!]).toEqual([1, 2, 3]);
  });
});

describe('a baseline (--write-baseline, --baseline)', () => {
  it('records findings per file and rule as counts, then reports only new ones', () => {
    const dir = project({ 'src/agent.py': BAD_PY, 'src/mixed.py': MIXED_PY, 'src/good.py': GOOD_PY });
    const write = run(dir, ['check', '--write-baseline', '--baseline', 'prefixlint-baseline.json']);
    expect(write.code).toBe(0);
    expect(write.stdout).toBe('');
    expect(write.stderr).toBe("Recorded 3 findings of 2 files in prefixlint-baseline.json; 'prefixlint check --baseline prefixlint-baseline.json' reports only new ones.\n");
    const recorded = fs.readFileSync(path.join(dir, 'prefixlint-baseline.json'), 'utf8');
    expect(JSON.parse(recorded)).toEqual({
      'src/agent.py': { 'volatile-system-prompt': { count: 1 } },
      'src/mixed.py': { 'unstable-serialization': { count: 1 }, 'volatile-system-prompt': { count: 1 } },
    });
    // The default name, with keys in a stable order.
    run(dir, ['check', '--write-baseline']);
    expect(fs.readFileSync(path.join(dir, 'prefixlint-baseline.json'), 'utf8')).toBe(recorded);

    const clean = run(dir, ['check', '--baseline', 'prefixlint-baseline.json']);
    expect([clean.code, clean.stdout.trim(), clean.stderr]).toEqual([0, 'All checks passed.', '']);

    // Edits that move the recorded findings do not bring them back.
    fs.writeFileSync(path.join(dir, 'src/agent.py'), '"""The support bot."""\n\n' + BAD_PY);
    expect(run(dir, ['check', '--baseline', 'prefixlint-baseline.json']).code).toBe(0);

    // One more finding of a recorded rule in a file: all of that rule's findings there are shown.
    fs.writeFileSync(path.join(dir, 'src/agent.py'), BAD_PY + SECOND_CALL);
    const grown = run(dir, ['check', '--baseline', 'prefixlint-baseline.json', '--format', 'json']);
    expect(grown.code).toBe(1);
    expect(positions(grown)).toEqual(['src/agent.py:12:volatile-system-prompt', 'src/agent.py:23:volatile-system-prompt']);
    expect(grown.stderr).toBe('prefixlint: baseline: src/agent.py: volatile-system-prompt: 2 findings, 1 recorded: all are shown\n');
    // A finding in a file the baseline does not know is new.
    fs.writeFileSync(path.join(dir, 'src/agent.py'), BAD_PY);
    fs.writeFileSync(path.join(dir, 'src/good.py'), BAD_PY);
    expect(positions(run(dir, ['check', '--baseline', 'prefixlint-baseline.json', '--format', 'json']))).toEqual(['src/good.py:12:volatile-system-prompt']);
  });

  it('fails when recorded findings are gone, until the baseline is written again', () => {
    const dir = project({ 'agent.py': BAD_PY, 'mixed.py': MIXED_PY });
    run(dir, ['check', '--write-baseline']);
    fs.writeFileSync(path.join(dir, 'agent.py'), GOOD_PY);
    const stale = run(dir, ['check', '--baseline', 'prefixlint-baseline.json']);
    expect(stale.code).toBe(1);
    expect(stale.stdout.trim()).toBe('All checks passed.');
    expect(stale.stderr.split('\n')).toEqual([
      "prefixlint: the baseline records findings that are gone; write it again (prefixlint check --write-baseline --baseline prefixlint-baseline.json) so that a new finding cannot take their place:",
      '  agent.py: volatile-system-prompt: 0 of 1 recorded',
      '',
    ]);
    expect(run(dir, ['check', '--baseline', 'prefixlint-baseline.json', '--exit-zero']).code).toBe(0);
    // Writing it for part of the tree keeps the entries of the rest.
    run(dir, ['check', '--write-baseline', 'agent.py']);
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'prefixlint-baseline.json'), 'utf8'))).toEqual({
      'mixed.py': { 'unstable-serialization': { count: 1 }, 'volatile-system-prompt': { count: 1 } },
    });
    expect(run(dir, ['check', '--baseline', 'prefixlint-baseline.json']).code).toBe(0);
  });

  it('names the file and the problem of a baseline it cannot use', () => {
    const dir = project({ 'agent.py': BAD_PY, 'broken.json': '{"agent.py": {"volatile-system-prompt": 2}}' });
    const missing = run(dir, ['check', '--baseline', 'none.json']);
    expect([missing.code, missing.stderr]).toEqual([2, 'prefixlint: error: --baseline: none.json: no such file (prefixlint check --write-baseline writes it)\n']);
    const broken = run(dir, ['check', '--baseline', 'broken.json']);
    expect([broken.code, broken.stderr]).toEqual([2, 'prefixlint: error: --baseline: broken.json: agent.py: volatile-system-prompt: expected {"count": <whole number>}\n']);
  });
});
