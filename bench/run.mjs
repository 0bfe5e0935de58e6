// @ts-check
/**
 * `npm run bench`: builds dist/ (the CLI and server under test) and the benchmark harness, then
 * runs it. Arguments are passed on: `npm run bench -- --corpus /work/corpus`, `--quick`,
 * `--repeats 3`, `--skip eslint`, `--help`.
 * Everything generated (the corpus, the harness bundle) goes to bench/.work/, which ignores itself.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const esbuild = require('esbuild');
const { buildOptions } = require(path.join(root, 'esbuild.js'));

const work = path.join(root, 'bench', '.work');
fs.mkdirSync(path.join(work, 'build'), { recursive: true });
fs.writeFileSync(path.join(work, '.gitignore'), '*\n');

execFileSync(process.execPath, [path.join(root, 'esbuild.js')], { cwd: root, stdio: 'inherit' });
for (const name of ['main', 'floor', 'editor-server']) {
  await esbuild.build({
    ...buildOptions({ name: `bench-${name}`, entry: `bench/${name}.ts`, outfile: `bench/.work/build/${name}.cjs` }),
    sourcemap: 'inline',
  });
}
const r = spawnSync(process.execPath, ['--expose-gc', path.join(work, 'build', 'main.cjs'), ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
process.exitCode = r.status ?? 1;
