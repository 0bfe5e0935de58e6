/**
 * The language server with a client that does not pull diagnostics and has none of the VS Code
 * client's commands, as Neovim, Helix and Zed are: it gets diagnostics pushed
 * (textDocument/publishDiagnostics) on open, after edits (its own and those of files it
 * imports) and clears on close; quick fixes from those diagnostics, with or without their `data`;
 * the rule's page through window/showDocument; the token breakdown in a hover and as a message.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CodeAction, Diagnostic } from 'vscode-languageserver/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../src/cli/main';
import { FIXTURES } from './helpers';
import { Client } from './lsp-client';

/** What Neovim 0.10 announces, in substance: push diagnostics with related information, showDocument, no pull. */
const PUSH_ONLY = {
  workspace: { applyEdit: true, configuration: false, workspaceEdit: { documentChanges: false } },
  textDocument: {
    publishDiagnostics: { relatedInformation: true, versionSupport: true, dataSupport: true },
    codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix', 'source'] } }, dataSupport: true, resolveSupport: { properties: ['edit'] } },
    codeLens: {},
    hover: { contentFormat: ['markdown', 'plaintext'] },
  },
  window: { showDocument: { support: true }, showMessage: {} },
};

let client: Client;
let dir: string;

beforeAll(async () => {
  client = new Client({ debounceMs: 20 });
  await client.initialize({ capabilities: PUSH_ONLY, initializationOptions: undefined });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'prefixlint-push-'));
});
afterAll(async () => {
  await client.dispose();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function cliJson(cwd: string, file: string): Promise<Array<{ ruleId: string; line: number; column: number; endLine: number; endColumn: number; message: string }>> {
  let out = '';
  const io = { out: (t: string) => void (out += t), err: () => undefined, readStdin: () => Buffer.alloc(0), stdoutIsTTY: false, cwd };
  await main(['check', '--format', 'json', file], io as Parameters<typeof main>[1]);
  return JSON.parse(out);
}

const key = (d: Diagnostic) => `${d.code}@${d.range.start.line + 1}:${d.range.start.character + 1}-${d.range.end.line + 1}:${d.range.end.character + 1} ${d.message}`;

function copyFixture(rel: string, name = path.basename(rel)): string {
  const to = path.join(dir, name);
  fs.copyFileSync(path.join(FIXTURES, rel), to);
  return to;
}

describe('a push-only LSP client (Neovim, Helix, Zed)', () => {
  it('gets the diagnostics pushed on open, the same as the CLI reports, for the version it sent', async () => {
    const file = copyFixture('volatile-system-prompt/bad.py', 'pushed.py');
    const uri = await client.open(file);
    const pushed = await client.pushedFor(uri);
    const cli = await cliJson(dir, file);
    expect(cli.length).toBeGreaterThan(0);
    expect(pushed.map(key).sort()).toEqual(cli.map((f) => `${f.ruleId}@${f.line}:${f.column}-${f.endLine}:${f.endColumn} ${f.message}`).sort());
    expect(pushed.every((d) => d.source === 'prefixlint' && d.data)).toBe(true);
    expect(client.published.get(uri)!.version).toBe(1);
    await client.close(uri);
    await client.until('cleared diagnostics', () => (client.published.get(uri)?.diagnostics.length === 0 ? true : undefined));
  });

  it('gets quick fixes for pushed diagnostics (with their data, or without it) and new diagnostics after each edit', async () => {
    const file = copyFixture('stale-beta/bad.py', 'fixes.py');
    const uri = await client.open(file);
    let diags = await client.pushedFor(uri);
    const first = diags.find((d) => (d.data as { fix?: { applicability: string } }).fix?.applicability === 'safe')!;
    const titles = (actions: CodeAction[]) => actions.map((a) => a.title);
    const withData = await client.actions(uri, [first]);
    // A client that drops `data` gets the same actions from the server's analysis of the text.
    const { data: _dropped, ...bare } = first;
    const withoutData = await client.actions(uri, [bare as Diagnostic]);
    expect(titles(withoutData)).toEqual(titles(withData));
    expect(withData.find((a) => a.isPreferred)?.edit).toBeDefined();
    for (let i = 0; i < 50; i++) {
      let applied = false;
      for (const d of diags) {
        const fix = (await client.actions(uri, [d])).find((a) => a.isPreferred);
        if (!fix) continue;
        await client.apply(fix.edit!);
        applied = true;
        break;
      }
      if (!applied) break;
      diags = await client.pushedFor(uri);
    }
    expect(client.text(uri)).toBe(fs.readFileSync(path.join(FIXTURES, 'stale-beta', 'bad.fixed.py'), 'utf8'));
    await client.close(uri);
  });

  it('re-pushes the diagnostics of an open file when a file it imports changes', async () => {
    copyFixture('volatile-system-prompt/_prompts.py');
    const importer = copyFixture('volatile-system-prompt/bad-crossfile.py', 'crossfile.py');
    const importerUri = await client.open(importer);
    expect((await client.pushedFor(importerUri)).map((d) => d.code)).toEqual(['volatile-system-prompt', 'volatile-system-prompt']);
    const promptsUri = await client.open(path.join(dir, '_prompts.py'));
    await client.pushedFor(promptsUri);
    // The prompts module stops reading the clock: the importer's findings go.
    const stable = client.text(promptsUri).replace(/datetime\.now\(\)[.\w()]*|date\.today\(\)[.\w()]*|time\.time\(\)|uuid\.uuid4\(\)[.\w()]*/g, '"2026-01-01"');
    expect(stable).not.toBe(client.text(promptsUri));
    const before = client.published.get(importerUri);
    await client.change(promptsUri, stable);
    const after = await client.until('a new push for the importer', () => {
      const p = client.published.get(importerUri);
      return p !== before ? p : undefined;
    });
    expect(after!.diagnostics).toEqual([]);
    await client.close(promptsUri);
    await client.close(importerUri);
  });

  it('opens the rule page through window/showDocument, shows the token breakdown as a message and in the hover', async () => {
    const file = copyFixture('volatile-tools/bad.py', 'tools.py');
    const uri = await client.open(file);
    const [d] = await client.pushedFor(uri);
    const docs = (await client.actions(uri, [d])).find((a) => a.title === `Show documentation for ${d.code}`)!;
    expect(docs.command!.command).toBe('prefixlint.server.openRulePage');
    await client.conn.sendRequest('workspace/executeCommand', { command: docs.command!.command, arguments: docs.command!.arguments });
    expect(client.shownDocuments.at(-1)).toEqual({ uri: `https://github.com/prefixlint/prefixlint/blob/main/docs/rules/${d.code}.md`, external: true });

    const [lens] = await client.lenses(uri);
    expect(lens.command!.command).toBe('prefixlint.server.showTokens');
    const result = (await client.conn.sendRequest('workspace/executeCommand', { command: lens.command!.command, arguments: lens.command!.arguments })) as { text: string };
    const message = await client.until('the breakdown message', () => client.messages.find((m) => m === result.text));
    expect(message.split('\n')[0]).toContain(lens.command!.title);
    expect(message).toMatch(/^tools [\d,]+ = tool-use system prompt [\d,]+/m);

    const lines = client.text(uri).split('\n');
    const callLine = lines.findIndex((l) => /messages\.create\(/.test(l));
    const hover = await client.hover(uri, callLine, lines[callLine].indexOf('create') + 1);
    const text = (hover!.contents as { value: string }).value;
    expect(text).toContain('| section | block | ≈ tokens | breakpoint |');
    expect(text).toMatch(/\| tools \| tool-use system prompt \(the API adds it whenever tools are sent\) \| [\d,]+ \| \|/);
    // On the finding, the hover says what an editor without related locations cannot show.
    const onFinding = await client.hover(uri, d.range.start.line, d.range.start.character);
    const explained = (onFinding!.contents as { value: string }).value;
    expect(explained).toContain(`\`${d.code}\`: ${d.message}`);
    await client.close(uri);
  });

  it('is asked to watch the configuration files, and gets the findings of an edited configuration pushed', async () => {
    const watching = new Client({ debounceMs: 20 });
    await watching.initialize({ capabilities: { ...PUSH_ONLY, workspace: { ...PUSH_ONLY.workspace, didChangeWatchedFiles: { dynamicRegistration: true } } }, initializationOptions: undefined });
    const project = fs.mkdtempSync(path.join(os.tmpdir(), 'prefixlint-push-config-'));
    try {
      fs.mkdirSync(path.join(project, '.git'));
      const file = path.join(project, 'app.py');
      fs.copyFileSync(path.join(FIXTURES, 'volatile-system-prompt', 'bad.py'), file);
      const uri = await watching.open(file);
      const before = await watching.pushedFor(uri);
      expect(before.some((d) => d.code === 'volatile-system-prompt')).toBe(true);
      const registration = await watching.until('a file watcher registration', () => watching.registrations.find((r) => r.method === 'workspace/didChangeWatchedFiles'));
      const globs = (registration.registerOptions as { watchers: Array<{ globPattern: string }> }).watchers.map((w) => w.globPattern);
      expect(globs).toContain('**/{.prefixlintrc.json,pyproject.toml,package.json}');
      // As the editor's watcher reports it: the configuration now ignores the rule.
      fs.writeFileSync(path.join(project, '.prefixlintrc.json'), JSON.stringify({ ignore: ['volatile-system-prompt'] }));
      watching.published.delete(uri);
      await watching.conn.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: pathToFileURL(path.join(project, '.prefixlintrc.json')).toString(), type: 1 }] });
      const after = await watching.pushedFor(uri);
      expect(after.map(key)).toEqual((await cliJson(project, file)).map((f) => `${f.ruleId}@${f.line}:${f.column}-${f.endLine}:${f.endColumn} ${f.message}`));
      expect(after.some((d) => d.code === 'volatile-system-prompt')).toBe(false);
    } finally {
      await watching.dispose();
      fs.rmSync(project, { recursive: true, force: true });
    }
  });

  it('is not asked to watch files it did not offer to watch, nor is the VS Code client (it watches them itself)', () => {
    expect(client.registrations.filter((r) => r.method === 'workspace/didChangeWatchedFiles')).toEqual([]);
  });
});
