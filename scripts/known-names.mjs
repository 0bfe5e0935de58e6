// @ts-check
/**
 * `npm run known-names`: bundles scripts/known-names/main.ts (TypeScript, with the `typescript`
 * compiler as an external) into scripts/.work/ and runs it. Arguments are passed on (`--check`).
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const esbuild = require('esbuild');

const work = path.join(root, 'scripts', '.work');
fs.mkdirSync(work, { recursive: true });
fs.writeFileSync(path.join(work, '.gitignore'), '*\n');
const outfile = path.join(work, 'known-names.cjs');
await esbuild.build({
  entryPoints: [path.join(root, 'scripts', 'known-names', 'main.ts')],
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: ['typescript'],
  outfile,
  logLevel: 'warning',
});
const r = spawnSync(process.execPath, [outfile, root, ...process.argv.slice(2)], { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_PATH: path.join(root, 'node_modules') } });
process.exitCode = r.status ?? 1;
