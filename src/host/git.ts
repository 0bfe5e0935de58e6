/**
 * `--changed-since <ref>`: the files changed since a git ref. That is what the branch changed
 * since it left the ref (`git diff <ref>...HEAD`, i.e. from their merge base), what is changed
 * in the working tree and the index (`git diff HEAD`), and untracked files that .gitignore does
 * not ignore. Deleted files are left out.
 */
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';

function git(args: string[], cwd: string): { ok: true; out: string } | { ok: false; err: string; missing?: boolean } {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.error) return { ok: false, err: r.error.message, missing: (r.error as NodeJS.ErrnoException).code === 'ENOENT' };
  if (r.status !== 0) return { ok: false, err: r.stderr.trim().split('\n')[0] ?? '' };
  return { ok: true, out: r.stdout };
}

function list(out: string, root: string): string[] {
  return out
    .split('\0')
    .filter(Boolean)
    .map((p) => path.resolve(root, p));
}

/** Absolute paths of the files changed since `ref`, or a one-line error. */
export function changedSince(ref: string, cwd: string): { files: string[] } | { error: string } {
  const top = git(['rev-parse', '--show-toplevel'], cwd);
  if (!top.ok) {
    if (top.missing) return { error: '--changed-since needs git, which is not installed' };
    return { error: `--changed-since needs a git repository: ${cwd} is not inside one` };
  }
  const root = top.out.trim();
  if (ref.startsWith('-') || !git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], root).ok) {
    return { error: `--changed-since: '${ref}' is not a commit, branch or tag in this repository` };
  }
  const files: string[] = [];
  const runs: string[][] = [
    ['diff', '--name-only', '-z', '--diff-filter=d', `${ref}...HEAD`, '--'],
    ['diff', '--name-only', '-z', '--diff-filter=d', 'HEAD', '--'],
    ['ls-files', '--others', '--exclude-standard', '-z', '--full-name'],
  ];
  for (const args of runs) {
    const r = git(args, root);
    if (!r.ok) return { error: `--changed-since: git ${args[0]} failed: ${r.err}` };
    files.push(...list(r.out, root));
  }
  return { files: [...new Set(files)].sort() };
}

/** Lines (1-based) of a file that the branch changed, or 'all' for a file git does not track. */
export type ChangedLines = ReadonlySet<number> | 'all';

/**
 * `--diff <ref>`: the lines changed since the branch left `ref`, per file (absolute path): what
 * `git diff <merge-base>` shows as added or changed in the working tree (commits of the branch,
 * staged and unstaged changes), plus every line of untracked files that .gitignore does not
 * ignore. Deleted lines leave nothing to report on.
 */
export function changedLines(ref: string, cwd: string): { files: Map<string, ChangedLines> } | { error: string } {
  const top = git(['rev-parse', '--show-toplevel'], cwd);
  if (!top.ok) {
    if (top.missing) return { error: '--diff needs git, which is not installed' };
    return { error: `--diff needs a git repository: ${cwd} is not inside one` };
  }
  const root = top.out.trim();
  if (ref.startsWith('-') || !git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], root).ok) {
    return { error: `--diff: '${ref}' is not a commit, branch or tag in this repository` };
  }
  const base = git(['merge-base', ref, 'HEAD'], root);
  if (!base.ok) return { error: `--diff: '${ref}' and HEAD have no common ancestor` };
  // Plain, comparable output whatever the user's git configuration says.
  const diff = git(
    ['-c', 'core.quotePath=false', 'diff', '--no-color', '--no-ext-diff', '--no-textconv', '--ignore-submodules', '-U0', '--src-prefix=a/', '--dst-prefix=b/', '--diff-filter=d', base.out.trim(), '--'],
    root,
  );
  if (!diff.ok) return { error: `--diff: git diff failed: ${diff.err}` };
  const files = new Map<string, ChangedLines>();
  for (const [file, lines] of parseUnifiedDiff(diff.out)) files.set(path.resolve(root, file), lines);
  const untracked = git(['ls-files', '--others', '--exclude-standard', '-z', '--full-name'], root);
  if (!untracked.ok) return { error: `--diff: git ls-files failed: ${untracked.err}` };
  for (const file of list(untracked.out, root)) files.set(file, 'all');
  return { files };
}

/** The new-side line numbers of each file's hunks in a `git diff -U0` patch. */
export function parseUnifiedDiff(patch: string): Map<string, Set<number>> {
  const out = new Map<string, Set<number>>();
  let current: Set<number> | undefined;
  for (const line of patch.split('\n')) {
    if (line.startsWith('+++ ')) {
      const name = line.slice(4).replace(/\t$/, '');
      current = undefined;
      if (name === '/dev/null') continue;
      const file = unquote(name).replace(/^b\//, '');
      current = out.get(file) ?? new Set<number>();
      out.set(file, current);
      continue;
    }
    const hunk = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/.exec(line);
    if (hunk && current) {
      const start = Number(hunk[1]);
      const count = hunk[2] === undefined ? 1 : Number(hunk[2]);
      for (let l = start; l < start + count; l++) current.add(l);
    }
  }
  return out;
}

/** A path as git writes it in a patch header: plain, or in double quotes with C escapes. */
function unquote(name: string): string {
  if (!name.startsWith('"')) return name;
  const bytes: number[] = [];
  const body = name.slice(1, name.endsWith('"') ? -1 : undefined);
  const escapes: Record<string, number> = { n: 10, t: 9, r: 13, a: 7, b: 8, f: 12, v: 11, '\\': 92, '"': 34 };
  for (let i = 0; i < body.length; i++) {
    const ch = body[i];
    if (ch !== '\\') {
      bytes.push(...Buffer.from(ch, 'utf8'));
      continue;
    }
    const next = body[i + 1];
    if (/[0-7]/.test(next)) {
      bytes.push(parseInt(body.slice(i + 1, i + 4), 8));
      i += 3;
    } else {
      bytes.push(escapes[next] ?? next.charCodeAt(0));
      i += 1;
    }
  }
  return Buffer.from(bytes).toString('utf8');
}
