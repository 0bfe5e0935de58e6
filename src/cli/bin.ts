/**
 * The `prefixlint` command (dist/cli.js): loads the CLI's bundle (dist/cli-main.js, built from
 * cli/main.ts) and runs it as if it were this file, the script that the process or a lint worker
 * started with (its `require`, `module`, `__filename`; a worker is started with this file too).
 *
 * Why a loader: Node reads a script through a string that doubles as it grows, and frees it.
 * The bundle is 1.4 MB, so each thread that loaded it (the main thread and every lint worker)
 * freed a 2 MB block, and that raised malloc's threshold for the rest of the process (see
 * core/pageBacked.ts). Here the bundle is read into memory malloc does not serve. On the
 * real-code corpus (2 threads, 8 alternating runs with the other such blocks gone), peak RSS
 * was 255–266 MB with this loader against 260–275 MB without (and 263–272 MB before any of these changes).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vm from 'node:vm';
import { readFully } from '../core/pageBacked';

/** The CLI's bundle, beside this file. */
export const CLI_BUNDLE = 'cli-main.js';

function readAll(file: string): Uint8Array {
  const fd = fs.openSync(file, 'r');
  try {
    return readFully(fs.fstatSync(fd).size, (b, at, length) => fs.readSync(fd, b, at, length, null));
  } finally {
    fs.closeSync(fd);
  }
}

const bundle = path.join(__dirname, CLI_BUNDLE);
// The bundle is ASCII (esbuild.js checks): V8 keeps its text one byte a character.
const text = new TextDecoder().decode(readAll(bundle));
const run = vm.compileFunction(text, ['exports', 'require', 'module', '__filename', '__dirname'], { filename: bundle });
run.call(module.exports, module.exports, require, module, __filename, __dirname);
