/**
 * The extension-host suite (test/e2e/suite) in desktop VS Code through @vscode/test-electron,
 * for machines that have a VS Code binary: set VSCODE_EXECUTABLE, or have `code` on PATH. No
 * binary can be downloaded on the project's machines, so without one the suite is skipped with
 * a message (the same suite runs in code-server's extension host in code-server.e2e.ts).
 *
 *   VSCODE_EXECUTABLE=/path/to/code npm run test:electron
 */
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliFindings, cliFixed, copyTree, log, ROOT } from './harness';

function findVsCode(): string | undefined {
  const fromEnv = process.env.VSCODE_EXECUTABLE;
  if (fromEnv) return fs.existsSync(fromEnv) ? fromEnv : undefined;
  const which = spawnSync('sh', ['-c', 'command -v code'], { encoding: 'utf8' });
  const code = which.status === 0 ? which.stdout.trim() : '';
  if (!code) return undefined;
  // `code` on PATH is usually a launcher script; test-electron needs the Electron binary beside it.
  const real = fs.realpathSync(code);
  for (const candidate of [path.join(path.dirname(real), '..', 'code'), path.join(path.dirname(real), '..', '..', 'code'), real]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

const executable = findVsCode();
if (!executable) log('SKIPPED: no VS Code binary (set VSCODE_EXECUTABLE or put `code` on PATH); the same suite runs in code-server: npm run test:e2e');

describe.skipIf(!executable)('prefixlint in desktop VS Code (@vscode/test-electron)', () => {
  it('passes the extension-host suite', async () => {
    const { runTests } = await import('@vscode/test-electron');
    execFileSync(process.execPath, [path.join(ROOT, 'esbuild.js')], { cwd: ROOT, stdio: 'inherit' });
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'prefixlint-electron-'));
    try {
      const esbuild = await import('esbuild');
      await esbuild.build({ entryPoints: [path.join(__dirname, 'suite', 'index.ts')], outfile: path.join(tmp, 'suite', 'index.js'), bundle: true, platform: 'node', format: 'cjs', target: 'node20', external: ['vscode'], logLevel: 'warning' });
      const ws = path.join(tmp, 'ws');
      copyTree(path.join(ROOT, 'examples'), ws);
      const findings = cliFindings(ws);
      const fixable = [...new Set(findings.filter((f) => f.cell === undefined && f.fix?.applicability === 'safe').map((f) => f.file))];
      fs.writeFileSync(path.join(tmp, 'suite', 'expected.json'), JSON.stringify({ findings, fixed: Object.fromEntries(fixable.map((f) => [f, cliFixed(ws, f)])) }));
      const code = await runTests({
        vscodeExecutablePath: executable,
        extensionDevelopmentPath: ROOT,
        extensionTestsPath: path.join(tmp, 'suite', 'index.js'),
        launchArgs: [ws, '--disable-workspace-trust', '--user-data-dir', path.join(tmp, 'ud'), '--extensions-dir', path.join(tmp, 'exts')],
      });
      expect(code).toBe(0);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  }, 600_000);
});
