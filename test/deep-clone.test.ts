/**
 * The tests pass wherever the clone is: a representative part of the unit suite (the language
 * server against the CLI, project configuration, rule pages, the README, and the
 * built CLI with git) runs again from a copy of the working tree three folders deep, with a
 * TMPDIR five folders deep beside it, so the clone sits shallower than TMPDIR, as most macOS
 * clones do. A path built relative to the clone and resolved against the temp folder (or the
 * other way round) fails here.
 */
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { ROOT } from './helpers';

const SUBSET = ['test/server.test.ts', 'test/config.test.ts', 'test/docs.test.ts', 'test/readme.test.ts', 'test/cli-adoption.test.ts'];

const base = fs.mkdtempSync(path.join(os.tmpdir(), 'prefixlint-deep-'));
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

it('runs part of the unit suite from a clone three folders deep under a five-level TMPDIR', async () => {
  const clone = path.join(base, 'src', 'work', 'repos', 'prefixlint');
  const tmpdir = path.join(base, 'var', 'folders', 'x7', 'k2', 'T');
  fs.mkdirSync(tmpdir, { recursive: true });
  // The working tree as a clone has it (uncommitted changes included), and a repository root.
  const tracked = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const rel of tracked) {
    const from = path.join(ROOT, rel);
    if (!fs.existsSync(from) || fs.lstatSync(from).isDirectory()) continue;
    fs.mkdirSync(path.dirname(path.join(clone, rel)), { recursive: true });
    fs.copyFileSync(from, path.join(clone, rel));
  }
  execFileSync('git', ['init', '-q'], { cwd: clone });
  // The installed packages are the same; installing them again would only take time.
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(clone, 'node_modules'), 'dir');
  expect(path.relative(base, clone).split(path.sep)).toHaveLength(4);
  expect(path.relative(base, tmpdir).split(path.sep)).toHaveLength(5);

  const env: NodeJS.ProcessEnv = { ...process.env, TMPDIR: tmpdir, TMP: tmpdir, TEMP: tmpdir };
  for (const k of Object.keys(env)) if (k.startsWith('VITEST')) delete env[k];
  const vitest = path.join(clone, 'node_modules', 'vitest', 'vitest.mjs');
  const child = spawn(process.execPath, [vitest, 'run', '--reporter=dot', ...SUBSET], { cwd: clone, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (b: Buffer) => (out += b.toString('utf8')));
  child.stderr.on('data', (b: Buffer) => (out += b.toString('utf8')));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  // eslint-disable-next-line no-control-regex
  const plain = out.replace(/\u001b\[[0-9;]*m/g, '');
  expect(code, plain.slice(-4000)).toBe(0);
  expect(plain).toMatch(new RegExp(`Test Files\\s+${SUBSET.length} passed`));
  // The temp folders the tests made are under the deep TMPDIR, and they cleaned up after themselves.
  expect(fs.readdirSync(tmpdir).filter((n) => n.startsWith('prefixlint-'))).toEqual([]);
}, 600_000);
