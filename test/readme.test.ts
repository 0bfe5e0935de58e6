/**
 * The README as a new user reads it: the first lines are the two commands for a fresh clone
 * (and .ci/run runs exactly the second), then how to install the CLI, the extension, the editor
 * setups and the CI integrations, and only then how to develop; every version and id in it is
 * the package's; the editor setups all start the server the same way. The .vsix has its own
 * README, which opens with installing and using the extension.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import pkg from '../package.json';
import { main } from '../src/cli/main';
import { readmeRuleTable } from '../src/engine/docs';
import { allRules } from '../src/engine/registry';
import { editorCommands } from './editors';
import { ROOT } from './helpers';

const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const headings = [...readme.matchAll(/^(#{2,3}) (.+)$/gm)].map((m) => m[2]);

describe('README.md', () => {
  it('starts with the two commands for a fresh clone, and .ci/run runs exactly the test command', () => {
    const first = /^# prefixlint\n\n```sh\n([^\n]+)\n([^\n]+)\n```\n/.exec(readme);
    expect(first, 'the first lines').not.toBeNull();
    const command = (line: string) => line.replace(/\s+#.*$/, '').trim();
    expect(command(first![1])).toBe('npm ci && npm run demo');
    expect(command(first![2])).toBe('npm ci && npm test');
    const ci = fs.readFileSync(path.join(ROOT, '.ci', 'run'), 'utf8').trim().split('\n');
    expect(ci.at(-1)).toBe(command(first![2]));
  });

  it('says how to install the CLI, the extension, the editor setups and the CI integrations before how to develop', () => {
    const at = (h: string) => {
      const i = headings.indexOf(h);
      expect(i, h).toBeGreaterThanOrEqual(0);
      return i;
    };
    const install = at('Install');
    const parts = ['The command line', 'VS Code', 'Neovim, Helix, Zed and other editors', 'GitHub Actions', 'pre-commit'].map(at);
    expect(parts.every((i) => i > install)).toBe(true);
    expect(install).toBe(0);
    expect(Math.max(...parts)).toBeLessThan(at('Development'));
  });

  it('names the package, extension id, action and hook versions the package has', () => {
    expect(readme).toContain('npm install --save-dev prefixlint');
    const id = `${pkg.publisher}.${pkg.name}`;
    expect(readme).toContain(`code --install-extension ${id}`);
    expect(readme).toContain(`the same id, \`${id}\``);
    for (const m of readme.matchAll(/prefixlint\/prefixlint@(v[\d.]+)|rev: (v[\d.]+)/g)) expect(m[1] ?? m[2]).toBe(`v${pkg.version}`);
    expect(readme).toMatch(/rev: v[\d.]+/);
  });

  it('has the rule table that `prefixlint rules --format markdown` prints, one row per rule (npm run docs writes it)', async () => {
    let out = '';
    const io = { out: (t: string) => void (out += t), err: () => undefined, readStdin: () => Buffer.alloc(0), stdoutIsTTY: false, cwd: ROOT };
    expect(await main(['rules', '--format', 'markdown'], io)).toBe(0);
    expect(readmeRuleTable(readme), 'run npm run docs').toBe(out);
    const rows = out.split('\n').filter((l) => l.startsWith('| [`'));
    expect(rows.map((r) => /^\| \[`([\w-]+)`\]/.exec(r)![1]).sort()).toEqual(allRules.map((r) => r.meta.id).sort());
    for (const r of allRules) expect(out).toContain(`| [\`${r.meta.id}\`](https://github.com/prefixlint/prefixlint/blob/main/docs/rules/${r.meta.id}.md) | ${r.meta.group} | ${r.meta.severity} | ${r.meta.fix === 'none' ? '—' : r.meta.fix} | `);
  });

  it('has Neovim, Helix and Zed start the server the same way: prefixlint server --stdio', () => {
    const zed = fs.readFileSync(path.join(ROOT, 'editors', 'zed', 'src', 'lib.rs'), 'utf8');
    const commands = editorCommands(readme, zed);
    expect(commands).toEqual({ neovim: ['prefixlint', 'server', '--stdio'], helix: ['prefixlint', 'server', '--stdio'], zed: ['prefixlint', 'server', '--stdio'] });
    const ext = parseToml(fs.readFileSync(path.join(ROOT, 'editors', 'zed', 'extension.toml'), 'utf8')) as { version: string; language_servers: Record<string, { languages: string[] }> };
    expect(ext.version).toBe(pkg.version);
    expect(ext.language_servers.prefixlint.languages).toEqual(['Python', 'TypeScript', 'TSX', 'JavaScript']);
  });
});

describe('the .vsix README', () => {
  const file = path.join(ROOT, 'docs', 'vscode-readme.md');

  it('is the one `npm run package` and the end-to-end test package', () => {
    expect(pkg.scripts.package).toContain('--readme-path docs/vscode-readme.md');
    expect(fs.readFileSync(path.join(ROOT, 'test', 'e2e', 'harness.ts'), 'utf8')).toContain("'--readme-path', 'docs/vscode-readme.md'");
  });

  it('opens with installing and using the extension, and has no developer commands', () => {
    const text = fs.readFileSync(file, 'utf8');
    const intro = text.split(/^## /m)[0];
    expect(intro).toContain(`${pkg.publisher}.${pkg.name}`);
    expect(text).not.toMatch(/npm (ci|test|run)/);
    const sections = [...text.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    expect(sections[0]).toBe('Install');
  });
});
