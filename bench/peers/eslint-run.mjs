// @ts-check
/**
 * ESLint as the benchmark runs it: `node eslint-run.mjs <file list> [concurrency]` lints the
 * files listed (one path a line, relative to the current folder) with bench/peers/eslint-recommended.config.mjs,
 * as `eslint -c bench/peers/eslint-recommended.config.mjs --no-cache <files>` would, and prints one JSON line:
 * files, messages, fatal (parse errors), wall time and peak RSS. The list goes through a file
 * because thousands of paths do not fit a command line; the run is ESLint's own `lintFiles`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import process from 'node:process';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';

const [listFile, concurrency = 'off'] = process.argv.slice(2);
if (!listFile) {
  console.error('usage: node eslint-run.mjs <file list> [concurrency]');
  process.exit(2);
}
const t0 = performance.now();
const files = fs.readFileSync(listFile, 'utf8').split('\n').filter(Boolean);
const eslint = new ESLint({
  cwd: process.cwd(),
  overrideConfigFile: path.join(path.dirname(fileURLToPath(import.meta.url)), 'eslint-recommended.config.mjs'),
  cache: false,
  errorOnUnmatchedPattern: false,
  concurrency: /^\d+$/.test(concurrency) ? Number(concurrency) : /** @type {'auto' | 'off'} */ (concurrency),
});
const results = await eslint.lintFiles(files);
let messages = 0;
let fatal = 0;
for (const r of results) {
  messages += r.messages.length;
  fatal += r.fatalErrorCount;
}
process.stdout.write(JSON.stringify({ files: results.length, messages, fatal, ms: Math.round(performance.now() - t0), maxRssKb: process.resourceUsage().maxRSS }) + '\n');
