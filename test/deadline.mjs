#!/usr/bin/env node
/**
 * Runs a test command with a deadline: `node test/deadline.mjs <seconds> <command> [args...]`.
 *
 * A test runner cannot stop a worker caught in an endless synchronous loop (a parser bug on a
 * fuzzed input, say), so such a hang would otherwise hold CI until its own limit and say
 * nothing. Past the deadline this kills the command's whole process group and fails with one
 * line that says so. Output streams through unchanged; the exit code is the command's own.
 */
import { spawn } from 'node:child_process';
import { clearTimeout, setTimeout } from 'node:timers';

const [seconds, command, ...args] = process.argv.slice(2);
const limit = Number(seconds);
if (!command || !Number.isFinite(limit) || limit <= 0) {
  console.error('usage: node test/deadline.mjs <seconds> <command> [args...]');
  process.exit(2);
}

// detached: the command leads its own process group, so its workers die with it.
const child = spawn(command, args, { stdio: 'inherit', detached: true, shell: process.platform === 'win32' });
const killGroup = (signal) => {
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
};
let timedOut = false;
const timer = setTimeout(() => {
  timedOut = true;
  console.error(`\ndeadline: \`${[command, ...args].join(' ')}\` did not finish within ${limit} s; stopped it (a hang: rerun it with --reporter=verbose to see the last test that finished)`);
  killGroup('SIGTERM');
  setTimeout(() => killGroup('SIGKILL'), 5000).unref();
}, limit * 1000);

for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => killGroup(signal));

child.on('error', (err) => {
  console.error(`deadline: cannot start ${command}: ${err.message}`);
  process.exit(127);
});
child.on('exit', (code, signal) => {
  clearTimeout(timer);
  if (timedOut) process.exit(124);
  process.exit(code ?? (signal ? 128 : 1));
});
