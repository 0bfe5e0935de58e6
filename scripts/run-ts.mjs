// @ts-check
/**
 * Runs one of the repository's TypeScript scripts: `node scripts/run-ts.mjs scripts/x.ts [args]`.
 * The script is bundled with the project's own esbuild options into a temporary file (Node 20
 * cannot run TypeScript), run from the repository root with the remaining arguments, and removed.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const esbuild = require('esbuild');
const { buildOptions } = require(path.join(root, 'esbuild.js'));

const [entry, ...args] = process.argv.slice(2);
if (!entry) {
  console.error('usage: node scripts/run-ts.mjs <script.ts> [args...]');
  process.exit(2);
}
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'prefixlint-script-'));
try {
  const outfile = path.join(dir, path.basename(entry).replace(/\.ts$/, '.cjs'));
  await esbuild.build({ ...buildOptions({ name: path.basename(entry), entry, outfile }), sourcemap: 'inline' });
  const r = spawnSync(process.execPath, ['--enable-source-maps', outfile, ...args], { cwd: root, stdio: 'inherit' });
  process.exitCode = r.status ?? 1;
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
