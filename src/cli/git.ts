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
