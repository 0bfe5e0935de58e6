/**
 * The walk that finds the files to check, as the discovery worker runs it: its host answers
 * "does this configuration file exist?" from the folders the walk has listed (FolderListed),
 * and the files found are the same as with a host that asks the file system each time.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Configuration } from '../src/engine/config';
import { discoverFiles } from '../src/host/files';
import { DiskHost } from '../src/host/source';
import { ProjectScope } from '../src/host/project';
import { walkedScope } from '../src/cli/main';
import { project, useCli } from './cli-harness';

// For its temporary folders (and their clean-up).
useCli();

function walk(dir: string, listed: boolean): string[] {
  const host = new DiskHost();
  const config = new Configuration(host);
  const found = discoverFiles([], dir, (abs, isDir) => config.excluded(abs, isDir), listed ? (folder, names) => host.folderListed(folder, names) : undefined);
  return found.files.map((f) => path.relative(dir, f).split(path.sep).join('/'));
}

describe('the walk', () => {
  // Configurations and .gitignore files at several depths, one in a folder that a parent ignores.
  const files = {
    '.git/HEAD': 'ref: refs/heads/main\n',
    '.gitignore': '/build/\n*.gen.py\n',
    'app.py': 'x = 1\n',
    'app.gen.py': 'x = 1\n',
    'build/out.py': 'x = 1\n',
    'pkg/.prefixlintrc.json': '{"exclude": ["legacy/", "old.py"]}\n',
    'pkg/new.py': 'x = 1\n',
    'pkg/old.py': 'x = 1\n',
    'pkg/legacy/a.py': 'x = 1\n',
    'pkg/sub/.gitignore': 'skip.ts\n!keep.gen.py\n',
    'pkg/sub/skip.ts': 'export {};\n',
    'pkg/sub/keep.gen.py': 'x = 1\n',
    'pkg/sub/b.ts': 'export {};\n',
    'web/package.json': '{"name": "web", "prefixlint": {"exclude": ["gen/"]}}\n',
    'web/gen/c.ts': 'export {};\n',
    'web/src/d.tsx': 'export {};\n',
  };

  it('finds, with the folders it lists, what it finds asking the file system', () => {
    const dir = project(files);
    const plain = walk(dir, false);
    expect(plain).toEqual(['app.py', 'pkg/new.py', 'pkg/sub/b.ts', 'pkg/sub/keep.gen.py', 'web/src/d.tsx']);
    expect(walk(dir, true)).toEqual(plain);
  });

  it('shared by walkers (each taking some entries of the folders given), finds what one walker finds', () => {
    const dir = project({ ...files, 'root.py': 'x = 1\n', 'z/e.py': 'x = 1\n', 'notes.txt': 'x\n' });
    const one = discoverFiles([], dir);
    for (const walkers of [2, 3]) {
      // Walker w takes the entries w, w + walkers, ... of each folder argument (a fixed hand-out; threads take them as they come).
      const parts = Array.from({ length: walkers }, (_, w) => {
        const next = new Map<number, number>();
        const claim = (k: number) => {
          const t = next.get(k) ?? w;
          next.set(k, t + walkers);
          return t;
        };
        return discoverFiles(['.', 'pkg', 'app.py', 'missing.py'], dir, () => false, undefined, { claim, first: w === 0 });
      });
      const whole = discoverFiles(['.', 'pkg', 'app.py', 'missing.py'], dir);
      expect([...new Set(parts.flatMap((p) => p.files))].sort()).toEqual(whole.files);
      // What is said of the arguments that are no folder is said once, by the first walker.
      expect(parts[0].errors).toEqual(whole.errors);
      expect(parts.slice(1).flatMap((p) => p.errors)).toEqual([]);
      // Every walker found some of the files.
      expect(parts.every((p) => p.files.length > 0)).toBe(true);
    }
    expect(one.files.length).toBeGreaterThan(5);
  });

  it("hands the files it found to the searches of a project's files when only folders were walked and nothing was left out by the configuration", () => {
    const plain = { 'a/pyproject.toml': '', 'a/x.py': 'x = 1\n', 'a/sub/y.py': 'y = 1\n', 'b/z.ts': 'export {};\n', 'b/package.json': '{}\n' };
    const dir = project(plain);
    const scope = (paths: string[], cwd = dir) => walkedScope(paths, cwd, discoverFiles(paths, cwd));
    // The current folder, folders given by path (also from elsewhere): the walk's own files.
    for (const [paths, cwd] of [[[], dir], [['a', 'b'], dir], [[path.join(dir, 'a')], path.join(dir, 'b')]] as Array<[string[], string]>) {
      const s = scope(paths, cwd);
      expect(s.files).toEqual(discoverFiles(paths, cwd).files);
      // And a project's files are the same as those of a walk of its folders again.
      const given = new ProjectScope(s, fs.existsSync).projectFiles(path.join(dir, 'a', 'x.py'));
      const again = new ProjectScope({ folders: s.folders }, fs.existsSync).projectFiles(path.join(dir, 'a', 'x.py'));
      expect(given).toEqual([path.join(dir, 'a', 'sub', 'y.py'), path.join(dir, 'a', 'x.py')]);
      expect(again).toEqual(given);
    }
    // A file or a glob among the paths: the walk did not see every file of a folder.
    expect(scope(['a', 'b/z.ts']).files).toBeUndefined();
    expect(scope(['a/**/*.py']).files).toBeUndefined();
    // Files the configuration leaves out are left out of the walk, not of the project.
    const excluded = project({ ...plain, 'a/.prefixlintrc.json': '{"exclude": ["sub/"]}\n' });
    const host = new DiskHost();
    const config = new Configuration(host);
    const walk = discoverFiles([], excluded, (abs, isDir) => config.excluded(abs, isDir));
    expect(walk.configExcluded).toBe(true);
    expect(walkedScope([], excluded, walk).files).toBeUndefined();
  });

  it("answers from a folder's listing, not from the file system, once the walk has listed it", () => {
    const dir = project(files);
    const host = new DiskHost();
    host.folderListed(path.join(dir, 'pkg'), new Set(['new.py']));
    // The listing says `old.py` is not there (a walk's snapshot), and the host believes it.
    expect(host.exists(path.join(dir, 'pkg', 'old.py'))).toBe(false);
    expect(host.exists(path.join(dir, 'pkg', 'new.py'))).toBe(true);
    // A folder it was not told about is asked of the file system.
    expect(host.exists(path.join(dir, 'web', 'package.json'))).toBe(true);
  });
});
