/**
 * The editor and the command line agree: the language server over a real LSP connection reports
 * exactly what `prefixlint check --format json` reports, for everything a configuration can say
 * (select, ignore, severities, `known` betas and tool types, models, per-path overrides,
 * suppressions of rules that did not run), for every fixture and example under a set of
 * configurations, and again after the configuration file is edited (the client then sends
 * `workspace/didChangeWatchedFiles`).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { discoverFiles } from '../src/host/files';
import { asJson, cliJsonOf, cliRun, sorted } from './findings';
import type { JsonFinding } from './findings';
import { FIXTURES, ROOT } from './helpers';
import { Client } from './lsp-client';

const temps: string[] = [];
afterAll(() => {
  for (const t of temps) fs.rmSync(t, { recursive: true, force: true });
});

/** A throwaway repository (a folder with `.git`) holding these files. */
function project(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'prefixlint-parity-'));
  temps.push(dir);
  fs.mkdirSync(path.join(dir, '.git'));
  for (const [name, text] of Object.entries(files)) write(dir, name, text);
  return dir;
}

function write(dir: string, name: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
  fs.writeFileSync(path.join(dir, name), text);
}

function editorClient(): Client {
  return new Client();
}

const FileChangeType = { Created: 1, Changed: 2, Deleted: 3 } as const;

/** Tells the server that files changed on disk, as the client's file watcher does. */
async function watched(client: Client, dir: string, changes: Record<string, keyof typeof FileChangeType>): Promise<void> {
  await client.conn.sendNotification('workspace/didChangeWatchedFiles', {
    changes: Object.entries(changes).map(([name, type]) => ({ uri: pathToFileURL(path.join(dir, name)).toString(), type: FileChangeType[type] })),
  });
}

/** Opens every file the CLI would lint in `dir` (notebooks as cells) and returns a function that pulls their diagnostics in the CLI's shape. */
async function openAll(client: Client, dir: string): Promise<() => Promise<JsonFinding[]>> {
  const files = discoverFiles([dir], dir).files;
  const opened: Array<{ file: string; uris: Map<number, string> | string }> = [];
  for (const file of files) opened.push({ file, uris: file.endsWith('.ipynb') ? await client.openNotebook(file) : await client.open(file) });
  return async () => {
    const out: JsonFinding[] = [];
    for (const { file, uris } of opened) {
      if (typeof uris === 'string') {
        for (const d of await client.diagnostics(uris)) out.push(asJson(file, d, dir));
        continue;
      }
      const cellOf = (u: string) => [...uris].find(([, c]) => c === u)![0];
      for (const [index, uri] of uris) {
        if (client.docs.get(uri)?.languageId !== 'python') continue;
        for (const d of await client.diagnostics(uri)) out.push(asJson(file, d, dir, index, cellOf));
      }
    }
    return out;
  };
}

const APP = `import anthropic

client = anthropic.Anthropic()
TOOLS = [{"type": "acme_search_20260101", "name": "search"}]  # prefixlint: disable=volatile-tools

response = client.beta.messages.create(
    model="acme-claude-1",
    max_tokens=1024,
    betas=["my-feature-2026-01-01"],
    tools=TOOLS,
    system=[{"type": "text", "text": "You are a support agent.", "cache_control": {"type": "ephemeral"}}],
    messages=[{"role": "user", "content": "Where is my order?"}],
)
`;

/** What the editor shows for app.py, next to what the CLI reports for it: `line:column rule severity`. */
async function both(client: Client, dir: string, uri: string): Promise<{ editor: string[]; cli: string[] }> {
  const key = (f: JsonFinding) => `${f.line}:${f.column} ${f.ruleId} ${f.severity}`;
  const editor = (await client.diagnostics(uri)).map((d) => key(asJson(path.join(dir, 'app.py'), d, dir))).sort();
  const cli = (await cliJsonOf(dir)).map(key).sort();
  return { editor, cli };
}

describe('the editor reports what the CLI reports', () => {
  it("with the project's known betas, tool types and models, and a suppression of a rule the configuration turns off", async () => {
    const dir = project({
      'app.py': APP,
      '.prefixlintrc.json': JSON.stringify({ ignore: ['volatile-tools'], known: { betas: ['my-feature-2026-01-01'], toolTypes: ['acme_search_20260101'] }, models: { 'acme-claude': { minCacheable: 4096 } } }),
    });
    const client = editorClient();
    await client.initialize();
    try {
      const uri = await client.open(path.join(dir, 'app.py'));
      const { editor, cli } = await both(client, dir, uri);
      // The configuration declares the beta and the tool type, sets the model's minimum and turns off the suppressed rule.
      expect(cli).toEqual(['11:66 prefix-below-minimum info']);
      expect(editor).toEqual(cli);
    } finally {
      await client.dispose();
    }
  });

  it('after the configuration file is edited, created and deleted (workspace/didChangeWatchedFiles)', async () => {
    const dir = project({ 'app.py': APP });
    const client = editorClient();
    await client.initialize();
    try {
      const uri = await client.open(path.join(dir, 'app.py'));
      const before = await both(client, dir, uri);
      expect(before.cli.map((k) => k.split(' ')[1])).toEqual(['unknown-type', 'unused-suppression', 'unknown-beta']);
      expect(before.editor).toEqual(before.cli);

      write(dir, '.prefixlintrc.json', JSON.stringify({ ignore: ['unknown-type', 'volatile-tools'], rules: { 'unknown-beta': 'warning' } }));
      await watched(client, dir, { '.prefixlintrc.json': 'Created' });
      const created = await both(client, dir, uri);
      expect(created.cli).toEqual(['9:12 unknown-beta warning']);
      expect(created.editor).toEqual(created.cli);

      write(dir, '.prefixlintrc.json', JSON.stringify({ select: ['api'], ignore: ['unknown-beta'], known: { toolTypes: ['acme_search_20260101'] } }));
      await watched(client, dir, { '.prefixlintrc.json': 'Changed' });
      const changed = await both(client, dir, uri);
      expect(changed.cli).toEqual([]);
      expect(changed.editor).toEqual(changed.cli);

      // The same settings in pyproject.toml, and the file gone: back to the defaults.
      fs.rmSync(path.join(dir, '.prefixlintrc.json'));
      write(dir, 'pyproject.toml', '[tool.prefixlint]\nselect = ["unknown-beta"]\n\n[tool.prefixlint.rules]\nunknown-beta = "info"\n');
      await watched(client, dir, { '.prefixlintrc.json': 'Deleted', 'pyproject.toml': 'Created' });
      const toml = await both(client, dir, uri);
      expect(toml.cli).toEqual(['9:12 unknown-beta info']);
      expect(toml.editor).toEqual(toml.cli);

      fs.rmSync(path.join(dir, 'pyproject.toml'));
      write(dir, 'package.json', JSON.stringify({ name: 'app', prefixlint: { known: { betas: ['my-feature-2026-01-01'] } } }));
      await watched(client, dir, { 'pyproject.toml': 'Deleted', 'package.json': 'Created' });
      const pkg = await both(client, dir, uri);
      expect(pkg.cli.map((k) => k.split(' ')[1])).toEqual(['unknown-type', 'unused-suppression']);
      expect(pkg.editor).toEqual(pkg.cli);

      fs.rmSync(path.join(dir, 'package.json'));
      await watched(client, dir, { 'package.json': 'Deleted' });
      const after = await both(client, dir, uri);
      expect(after.cli).toEqual(before.cli);
      expect(after.editor).toEqual(after.cli);
    } finally {
      await client.dispose();
    }
  });

  it("after the project's own SDK is installed or upgraded (its names are read again)", async () => {
    const sdkProject = path.join(FIXTURES, '_projects', 'newer-node-sdk');
    const dir = project({});
    for (const name of ['package.json', 'src']) fs.cpSync(path.join(sdkProject, name), path.join(dir, name), { recursive: true });
    const file = path.join(dir, 'src', 'release-notes.ts');
    const key = (f: JsonFinding) => `${f.line}:${f.column} ${f.ruleId} ${f.severity}`;
    const compare = async (uri: string) => {
      const editor = (await client.diagnostics(uri)).map((d) => key(asJson(file, d, dir))).sort();
      const cli = (await cliJsonOf(dir)).filter((f) => f.file === 'src/release-notes.ts').map(key).sort();
      return { editor, cli };
    };
    const client = editorClient();
    await client.initialize();
    try {
      const uri = await client.open(file);
      // No SDK yet: only prefixlint's table counts, and it lacks the newer names.
      const bare = await compare(uri);
      expect(bare.cli.filter((k) => / unknown-(beta|type) /.test(k)).length).toBeGreaterThan(3);
      expect(bare.editor).toEqual(bare.cli);
      // `npm install` puts the SDK in place; the client's watcher reports its package.json.
      fs.cpSync(path.join(sdkProject, 'node_modules'), path.join(dir, 'node_modules'), { recursive: true });
      await watched(client, dir, { 'node_modules/@anthropic-ai/sdk/package.json': 'Created' });
      const installed = await compare(uri);
      expect(installed.cli.filter((k) => / unknown-(beta|type) /.test(k))).toEqual([]);
      expect(installed.editor).toEqual(installed.cli);
    } finally {
      await client.dispose();
    }
  });

  it('with a broken configuration file: nothing is linted where it applies, and the editor says why once', async () => {
    const dir = project({ 'app.py': APP, '.prefixlintrc.json': '{"ignore": ["volatile-tools"' });
    const client = editorClient();
    await client.initialize();
    try {
      const uri = await client.open(path.join(dir, 'app.py'));
      const cli = await cliRun(dir, ['.']);
      expect(cli.code).toBe(2);
      expect(cli.findings).toEqual([]);
      expect(cli.stderr).toMatch(/\.prefixlintrc\.json: invalid JSON at line 1/);
      expect(await client.diagnostics(uri)).toEqual([]);
      expect(await client.diagnostics(uri)).toEqual([]);
      const shown = client.messages.filter((m) => m.includes('.prefixlintrc.json'));
      expect(shown).toHaveLength(1);
      expect(shown[0]).toMatch(/invalid JSON at line 1.*nothing is linted where it applies/);
      // Repaired: the findings are back, as the CLI reports them.
      write(dir, '.prefixlintrc.json', '{"ignore": ["volatile-tools"]}');
      await watched(client, dir, { '.prefixlintrc.json': 'Changed' });
      const repaired = await both(client, dir, uri);
      expect(repaired.cli.length).toBeGreaterThan(0);
      expect(repaired.editor).toEqual(repaired.cli);
    } finally {
      await client.dispose();
    }
  });

  /**
   * Configurations, in the order the sweep writes them; each names where it goes. Together they
   * say everything a configuration can: selection, ignores, severities and "off", known names,
   * model figures, per-path overrides (also by file type), and suppressions of rules that did not run.
   */
  const SWEEP: Array<{ name: string; files: Record<string, string | null> }> = [
    { name: 'no configuration', files: {} },
    {
      name: 'select, ignore, severities and off',
      files: { '.prefixlintrc.json': JSON.stringify({ select: ['cache', 'api'], ignore: ['volatile-tools'], rules: { 'unknown-beta': 'warning', 'unused-suppression': 'info', 'prefix-below-minimum': 'off' } }) },
    },
    {
      name: 'known betas and tool types, model figures',
      files: {
        '.prefixlintrc.json': JSON.stringify({
          known: { betas: ['interleaved-thinking-2025-04-14', 'token-efficient-tool-2025-02-19', 'fast-mode-2026-01-02'], toolTypes: ['memory_2025_08_18', 'web_search_20250306'] },
          models: { 'claude-sonnet-4-6': { minCacheable: 50_000 }, 'claude-haiku-4-5': { minCacheable: 1 } },
        }),
      },
    },
    {
      name: 'per-path overrides',
      files: {
        '.prefixlintrc.json': JSON.stringify({
          ignore: ['state'],
          overrides: [
            { files: ['fixtures/volatile-*/**'], ignore: ['cache'] },
            { files: ['*.ipynb'], rules: { 'unused-suppression': 'error', 'unstable-serialization': 'info' } },
            { files: ['examples/typescript/**'], select: ['context', 'unused-suppression'] },
          ],
        }),
      },
    },
    {
      name: 'pyproject.toml: suppressed rules turned off',
      files: {
        '.prefixlintrc.json': null,
        'pyproject.toml': '[tool.prefixlint]\nignore = ["volatile-system-prompt", "unknown-beta", "stale-beta", "removed-namespace"]\n\n[tool.prefixlint.rules]\nunused-suppression = "info"\n',
      },
    },
    { name: 'package.json: a short selection', files: { 'pyproject.toml': null, 'package.json': JSON.stringify({ name: 'sweep', private: true, prefixlint: { select: ['unused-suppression', 'volatile-tools', 'unknown-type'] } }) } },
    { name: 'no configuration again', files: { 'package.json': null } },
  ];

  it('for every fixture and example, under each configuration in turn (edited in place)', async () => {
    const dir = project({});
    fs.cpSync(FIXTURES, path.join(dir, 'fixtures'), { recursive: true });
    fs.cpSync(path.join(ROOT, 'examples'), path.join(dir, 'examples'), { recursive: true });
    const client = editorClient();
    // The folder is the editor's workspace, as it is the CLI's walk: both see every use of what a fix across files changes.
    await client.initialize({ root: dir });
    try {
      const editor = await openAll(client, dir);
      const seen = new Set<string>();
      for (const step of SWEEP) {
        const changes: Record<string, 'Created' | 'Changed' | 'Deleted'> = {};
        for (const [name, text] of Object.entries(step.files)) {
          const existed = fs.existsSync(path.join(dir, name));
          if (text === null) fs.rmSync(path.join(dir, name));
          else write(dir, name, text);
          changes[name] = text === null ? 'Deleted' : existed ? 'Changed' : 'Created';
        }
        if (Object.keys(changes).length) await watched(client, dir, changes);
        const cli = await cliJsonOf(dir, ['--unsafe-fixes']);
        expect(cli.length, step.name).toBeGreaterThan(10);
        expect(sorted(await editor()), step.name).toEqual(sorted(cli));
        seen.add(JSON.stringify(sorted(cli)));
      }
      // Each configuration changed what is reported (the last repeats the first).
      expect(seen.size).toBe(SWEEP.length - 1);
    } finally {
      await client.dispose();
    }
  }, 300_000);
});
