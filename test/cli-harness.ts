/**
 * Running the built CLI (dist/cli.js) as a user would, in temporary folders. The bundle is
 * (re)built first when it is missing or older than the sources, under a lock so that test
 * files running in parallel do not build it at the same time.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import type { SpawnSyncOptions } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll } from 'vitest';

export const ROOT = path.resolve(__dirname, '..');
export const CLI = path.join(ROOT, 'dist', 'cli.js');
const temps: string[] = [];

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : fs.statSync(p).mtimeMs);
  }
  return newest;
}

function stale(): boolean {
  const built = fs.existsSync(CLI) ? fs.statSync(CLI).mtimeMs : 0;
  return built < Math.max(newestMtime(path.join(ROOT, 'src')), fs.statSync(path.join(ROOT, 'esbuild.js')).mtimeMs);
}

/** Builds dist/ when it is older than the sources; one process at a time. */
export function ensureBuilt(): void {
  if (!stale()) return;
  const lock = path.join(os.tmpdir(), `prefixlint-build-${Buffer.from(ROOT).toString('hex').slice(-32)}.lock`);
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch {
      // Another test file is building; a lock older than the deadline is left over from a crash.
      if (Date.now() > deadline) fs.rmSync(lock, { recursive: true, force: true });
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    }
  }
  try {
    if (stale()) execFileSync(process.execPath, ['esbuild.js'], { cwd: ROOT, stdio: 'pipe' });
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

/** Registers the build before and the clean-up after the tests of a file. */
export function useCli(): void {
  beforeAll(() => ensureBuilt(), 120_000);
  afterAll(() => {
    for (const t of temps.splice(0)) fs.rmSync(t, { recursive: true, force: true });
  });
}

/** A temporary folder with these files (a Buffer is written as is). */
export function project(files: Record<string, string | Buffer>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'prefixlint-cli-'));
  temps.push(dir);
  for (const [name, content] of Object.entries(files)) {
    const p = path.join(dir, name);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, content);
  }
  return dir;
}

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The signal that ended the child, and why it could not be run or was stopped (spawnSync's error). */
  signal?: NodeJS.Signals | null;
  error?: string;
}

/** Runs `prefixlint <args>` in `cwd`; `input` is standard input. */
export function run(cwd: string, args: string[], opts: { input?: string | Buffer; env?: NodeJS.ProcessEnv; spawn?: SpawnSyncOptions } = {}): Run {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    cwd,
    encoding: 'utf8',
    input: opts.input ?? '',
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '', ...opts.env },
    // The SARIF log of every fixture passed spawnSync's 1 MB default, which kills the child.
    maxBuffer: 64 * 1024 * 1024,
    ...opts.spawn,
  });
  return { code: r.status, stdout: String(r.stdout), stderr: String(r.stderr), signal: r.signal, ...(r.error ? { error: r.error.message } : {}) };
}

export interface JsonEdit {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  newText: string;
}

export interface JsonFinding {
  ruleId: string;
  severity: 'error' | 'warning' | 'info';
  file: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  message: string;
  url: string;
  fix: null | { title: string; applicability: 'safe' | 'unsafe'; edits: JsonEdit[] };
  related: Array<{ file: string; line: number; column: number; endLine: number; endColumn: number; message: string }>;
  cell?: number;
  cellLine?: number;
  cellColumn?: number;
}

/** The findings a `--format json` run printed; when its output is no JSON, an error that says how the run ended. */
export function json(r: Run): JsonFinding[] {
  try {
    return JSON.parse(r.stdout) as JsonFinding[];
  } catch (err) {
    throw new Error(`the run printed no JSON (${err instanceof Error ? err.message : String(err)}): exit ${r.code}, signal ${r.signal ?? 'none'}${r.error ? `, ${r.error}` : ''}; stdout ${JSON.stringify(r.stdout.slice(0, 300))}; stderr ${JSON.stringify(r.stderr.slice(0, 2000))}`, { cause: err });
  }
}

/** A git repository in `dir` with everything in it committed (for --changed-since). */
export function gitInit(dir: string): (...args: string[]) => string {
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=prefixlint tests', '-c', 'user.email=tests@prefixlint.invalid', '-c', 'commit.gpgsign=false', ...args], {
      cwd: dir,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'initial');
  return git;
}

// A clock in the system prompt, next to a user message the fix can extend.
export const BAD_PY = `from datetime import datetime
import anthropic

client = anthropic.Anthropic()


def ask(question: str) -> str:
    resp = client.messages.create(
        model="claude-sonnet-4-6",
        max_tokens=512,
        cache_control={"type": "ephemeral"},
        system=f"You are a helpful assistant. Current time: {datetime.now()}",
        messages=[{"role": "user", "content": question}],
    )
    return resp.content[0].text
`;

export const BAD_TS = `import Anthropic from '@anthropic-ai/sdk';

const client = new Anthropic();

export async function ask(question: string) {
  // \u{1F600} an emoji before the finding on another line does not move its column
  return client.messages.create({
    model: 'claude-sonnet-4-6',
    max_tokens: 512,
    cache_control: { type: 'ephemeral' },
    system: \`You are a helpful assistant. Now: \${new Date().toISOString()}\`,
    messages: [{ role: 'user', content: question }],
  });
}
`;

// The prompt is built once at import time: moving the time changes behaviour, so the fix is unsafe.
export const MODULE_PROMPT_PY = `from datetime import datetime
import anthropic

client = anthropic.Anthropic()
PROMPT = f"You are the refund assistant. Built at: {datetime.now().isoformat()}"


def refund(question: str) -> str:
    resp = client.messages.create(
        model="claude-sonnet-4-6",
        max_tokens=512,
        cache_control={"type": "ephemeral"},
        system=PROMPT,
        messages=[{"role": "user", "content": question}],
    )
    return resp.content[0].text
`;

export const GOOD_PY = `import anthropic

client = anthropic.Anthropic()
SYSTEM = "You are a helpful assistant."


def ask(question: str) -> str:
    resp = client.messages.create(
        model="claude-sonnet-4-6",
        max_tokens=512,
        system=SYSTEM,
        messages=[{"role": "user", "content": question}],
    )
    return resp.content[0].text
`;

/** Findings of two severities: an error (the clock) and a warning (an unsorted json.dumps). */
// Its one finding has a safe fix: the removed namespace fails on every call, and the request stays the same.
export const SAFE_FIX_PY = `import anthropic

client = anthropic.Anthropic()


def ask(question: str) -> str:
    resp = client.beta.prompt_caching.messages.create(
        model="claude-sonnet-4-6",
        max_tokens=512,
        system="You are a helpful assistant.",
        messages=[{"role": "user", "content": question}],
    )
    return resp.content[0].text
`;

export const MIXED_PY = `import json
from datetime import datetime
import anthropic

client = anthropic.Anthropic()
with open("team.json") as f:
    TEAM = json.load(f)


def ask(question: str) -> str:
    resp = client.messages.create(
        model="claude-sonnet-4-6",
        max_tokens=512,
        cache_control={"type": "ephemeral"},
        system=f"Team: {json.dumps(TEAM)}. Time: {datetime.now()}",
        messages=[{"role": "user", "content": question}],
    )
    return resp.content[0].text
`;

export function notebookOf(cells: string[]): string {
  const nb = {
    cells: [
      { cell_type: 'markdown', metadata: {}, source: ['# Notes'] },
      ...cells.map((source) => ({
        cell_type: 'code',
        execution_count: null,
        metadata: {},
        outputs: [],
        source: source.split(/(?<=\n)/),
      })),
    ],
    metadata: { kernelspec: { display_name: 'Python 3', language: 'python', name: 'python3' } },
    nbformat: 4,
    nbformat_minor: 5,
  };
  return JSON.stringify(nb, null, 1) + '\n';
}
