/**
 * The language server in-process over a real LSP connection (two streams, JSON-RPC framing):
 * diagnostics for every fixture equal the CLI's JSON output; quick fixes and fix-all produce
 * the `.fixed` / `.unsafe-fixed` files; suppression and docs actions; CodeLens titles; hovers;
 * settings; cross-file re-resolution; notebooks as cells.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CodeLens, Diagnostic } from 'vscode-languageserver/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../src/cli/main';
import { loadKnownNames } from '../src/core/knownNames';
import { estimateRequest } from '../src/core/tokens';
import { lensTitle } from '../src/server/codeLens';
import { FIX_ALL_KIND, MARKDOWN } from '../src/shared/protocol';
import { allRules } from '../src/rules';
import { asJson, cliJsonOf, comparable } from './findings';
import type { JsonFinding } from './findings';
import { analyzer, FIXTURES, ROOT } from './helpers';
import { Client } from './lsp-client';

function fixtureFiles(): string[] {
  return fs
    .readdirSync(FIXTURES, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) => fs.readdirSync(path.join(FIXTURES, d.name)).map((f) => path.join(FIXTURES, d.name, f)))
    .filter((f) => /^(bad|good)[^.]*\.(py|ts|tsx|js|jsx|ipynb)$/.test(path.basename(f)))
    .sort();
}

async function cliJson(): Promise<JsonFinding[]> {
  let out = '';
  const io = { out: (t: string) => void (out += t), err: () => undefined, readStdin: () => Buffer.alloc(0), stdoutIsTTY: false, cwd: ROOT };
  const code = await main(['check', '--format', 'json', '--unsafe-fixes', ...fixtureFiles()], io as Parameters<typeof main>[1]);
  expect(code).toBeLessThan(2);
  return JSON.parse(out) as JsonFinding[];
}

let client: Client;
let temp: string;

beforeAll(async () => {
  temp = fs.mkdtempSync(path.join(os.tmpdir(), 'prefixlint-server-'));
  client = new Client();
  // The fixtures folder is the workspace: it does not hold the whole project of the repository,
  // so, as for the CLI given the fixture files, no fix across files is offered.
  await client.initialize({ root: FIXTURES });
}, 60_000);

afterAll(async () => {
  await client?.dispose();
  fs.rmSync(temp, { recursive: true, force: true });
});

describe('diagnostics', () => {
  it('equal the CLI JSON for every fixture', async () => {
    const expected = (await cliJson()).map(comparable);
    const actual: JsonFinding[] = [];
    for (const file of fixtureFiles()) {
      if (file.endsWith('.ipynb')) {
        const cells = await client.openNotebook(file);
        const cellOf = (u: string) => [...cells].find(([, c]) => c === u)![0];
        for (const [index, uri] of cells) for (const d of await client.diagnostics(uri)) actual.push(asJson(file, d, ROOT, index, cellOf));
      } else {
        const uri = await client.open(file);
        for (const d of await client.diagnostics(uri)) actual.push(asJson(file, d, ROOT));
        await client.close(uri);
      }
    }
    const key = (f: Partial<JsonFinding>) => `${f.file}:${f.cell ?? ''}:${f.cellLine ?? f.line}:${f.cellColumn ?? f.column}:${f.ruleId}:${f.message}`;
    const sort = (l: Array<Partial<JsonFinding>>) => [...l].sort((a, b) => key(a).localeCompare(key(b)));
    expect(expected.length).toBeGreaterThan(20);
    expect(sort(actual.map(comparable))).toEqual(sort(expected));
    for (const uri of [...client.docs.keys()]) if (uri.startsWith('vscode-notebook-cell:')) client.docs.delete(uri);
  }, 120_000);

  it('carry source, code, docs link, related locations and the fix in data', async () => {
    const file = path.join(FIXTURES, 'volatile-system-prompt', 'bad.py');
    const uri = await client.open(file);
    const diags = await client.diagnostics(uri);
    const d = diags.find((x) => x.code === 'volatile-system-prompt' && x.relatedInformation?.length)!;
    expect(d.source).toBe('prefixlint');
    expect(d.codeDescription?.href).toBe('https://github.com/prefixlint/prefixlint/blob/main/docs/rules/volatile-system-prompt.md');
    expect(d.relatedInformation![0].location.uri).toBe(uri);
    expect(d.relatedInformation!.map((r) => r.message).join('\n')).toMatch(/produced here|assigned here/);
    expect((d.data as { versions: Record<string, number> }).versions).toEqual({ [uri]: 1 });
    await client.close(uri);
  });

  it('point related information into the other file for a value imported from it', async () => {
    const file = path.join(FIXTURES, 'volatile-system-prompt', 'bad-crossfile.py');
    const uri = await client.open(file);
    const related = (await client.diagnostics(uri)).flatMap((d) => d.relatedInformation ?? []);
    expect(related.some((r) => r.location.uri.endsWith('/_prompts.py'))).toBe(true);
    await client.close(uri);
  });

  it('re-resolve a value when the imported file changes in the editor', async () => {
    const dir = path.join(temp, 'crossfile');
    fs.mkdirSync(dir, { recursive: true });
    fs.copyFileSync(path.join(FIXTURES, 'volatile-system-prompt', 'bad-crossfile.py'), path.join(dir, 'app.py'));
    fs.copyFileSync(path.join(FIXTURES, 'volatile-system-prompt', '_prompts.py'), path.join(dir, '_prompts.py'));
    const app = await client.open(path.join(dir, 'app.py'));
    const before = (await client.diagnostics(app)).filter((d) => d.code === 'volatile-system-prompt');
    expect(before.length).toBeGreaterThan(0);
    const prompts = await client.open(path.join(dir, '_prompts.py'));
    // Make every value in the imported file constant: the findings in app.py must go away.
    await client.change(prompts, 'BASE_PROMPT = "You are a support assistant."\nTAGGED_PROMPT = BASE_PROMPT\n\n\ndef dated_prompt() -> str:\n    return BASE_PROMPT\n');
    expect((await client.diagnostics(app)).filter((d) => d.code === 'volatile-system-prompt')).toEqual([]);
    // And back: the buffer, not the file on disk, is what counts while it is open.
    await client.change(prompts, fs.readFileSync(path.join(dir, '_prompts.py'), 'utf8'));
    expect((await client.diagnostics(app)).filter((d) => d.code === 'volatile-system-prompt').length).toBe(before.length);
    await client.close(prompts);
    await client.close(app);
  });

  it('follow the settings: severity, selection, enable, run on save', async () => {
    const file = path.join(FIXTURES, 'volatile-system-prompt', 'bad.py');
    const uri = await client.open(file);
    const defaults = await client.diagnostics(uri);
    const notify = () => client.conn.sendNotification('workspace/didChangeConfiguration', { settings: null });
    try {
      client.settings = { severity: { 'volatile-system-prompt': 'info' } };
      await notify();
      expect((await client.diagnostics(uri)).map((d) => d.severity)).toEqual(defaults.map(() => 3));
      client.settings = { ignore: ['volatile-system-prompt'] };
      await notify();
      expect(await client.diagnostics(uri)).toEqual([]);
      client.settings = { select: ['api'] };
      await notify();
      expect(await client.diagnostics(uri)).toEqual([]);
      client.settings = { enable: false };
      await notify();
      expect(await client.diagnostics(uri)).toEqual([]);
      client.settings = { run: 'onSave' };
      await notify();
      await client.change(uri, client.text(uri).replace(/\{datetime\.now\(\)\}/, ''));
      // Not saved yet: still the findings of the text as opened.
      expect((await client.diagnostics(uri)).length).toBe(defaults.length);
      await client.conn.sendNotification('textDocument/didSave', { textDocument: { uri } });
      expect((await client.diagnostics(uri)).length).toBe(defaults.length - 1);
    } finally {
      client.settings = {};
      await notify();
      await client.close(uri);
    }
  });
});

/** The `.fixed` file of a fixture, or undefined. */
function fixedFile(file: string, kind: 'fixed' | 'unsafe-fixed'): string | undefined {
  const ext = path.extname(file);
  const p = file.slice(0, -ext.length) + `.${kind}${ext}`;
  return fs.existsSync(p) ? p : undefined;
}

function notebookSources(file: string): Map<number, string> {
  const nb = JSON.parse(fs.readFileSync(file, 'utf8')) as { cells: Array<{ source: string | string[] }> };
  return new Map(nb.cells.map((c, i) => [i, Array.isArray(c.source) ? c.source.join('') : c.source]));
}

describe("the project's own SDK", () => {
  it('its names count in the editor as in the CLI: no finding on names only that SDK knows, and the same findings without it', async () => {
    const project = path.join(FIXTURES, '_projects', 'newer-python-sdk');
    const withSdk = new Client();
    await withSdk.initialize();
    // The same project without its environment: only prefixlint's table knows the names.
    const bare = fs.mkdtempSync(path.join(os.tmpdir(), 'prefixlint-bare-sdk-'));
    fs.mkdirSync(path.join(bare, '.git'));
    for (const name of fs.readdirSync(project)) if (name !== '.venv') fs.cpSync(path.join(project, name), path.join(bare, name), { recursive: true });
    try {
      const key = (f: JsonFinding) => `${f.line}:${f.column} ${f.ruleId}`;
      const found = await withSdk.diagnostics(await withSdk.open(path.join(project, 'ticket_bot.py')));
      expect(found.map((d) => `${d.code}: ${d.message}`)).toEqual([]);
      expect((await cliJsonOf(project)).filter((f) => f.file.endsWith('ticket_bot.py'))).toEqual([]);
      const without = (await withSdk.diagnostics(await withSdk.open(path.join(bare, 'ticket_bot.py')))).map((d) => key(asJson(path.join(bare, 'ticket_bot.py'), d, bare)));
      expect(without.filter((k) => k.endsWith('unknown-beta')).length).toBe(2);
      expect(without.sort()).toEqual((await cliJsonOf(bare)).filter((f) => f.file === 'ticket_bot.py').map(key).sort());
    } finally {
      await withSdk.dispose();
      fs.rmSync(bare, { recursive: true, force: true });
    }
  });
});

describe('project configuration', () => {
  it('applies in the editor exactly as in the CLI (select, ignore, off, severity, per-path overrides)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'prefixlint-lsp-config-'));
    try {
      fs.mkdirSync(path.join(dir, '.git'));
      fs.mkdirSync(path.join(dir, 'scripts'));
      const bad = fs.readFileSync(path.join(FIXTURES, 'volatile-system-prompt', 'bad.py'), 'utf8');
      const betas = fs.readFileSync(path.join(FIXTURES, 'unknown-beta', 'bad.py'), 'utf8');
      fs.writeFileSync(path.join(dir, 'app.py'), bad);
      fs.writeFileSync(path.join(dir, 'betas.py'), betas);
      fs.writeFileSync(path.join(dir, 'scripts', 'job.py'), bad);
      fs.writeFileSync(
        path.join(dir, '.prefixlintrc.json'),
        JSON.stringify({ rules: { 'volatile-system-prompt': 'warning', 'prefix-below-minimum': 'off' }, ignore: ['state'], overrides: [{ files: ['scripts/**'], ignore: ['cache'] }] }),
      );
      const client = new Client();
      await client.initialize();
      try {
        const fromCli = await cliJsonOf(dir);
        const fromServer: JsonFinding[] = [];
        for (const name of ['app.py', 'betas.py', path.join('scripts', 'job.py')]) {
          const file = path.join(dir, name);
          const uri = await client.open(file);
          for (const d of await client.diagnostics(uri)) fromServer.push(asJson(file, d, dir));
        }
        // Both sides name files relative to the project folder, wherever the clone and TMPDIR are.
        const key = (f: JsonFinding) => `${f.file}:${f.line}:${f.column}:${f.ruleId}:${f.severity}`;
        expect(fromServer.map(key).sort()).toEqual(fromCli.map(key).sort());
        // The configuration took effect: a severity changed, a rule turned off, a path override.
        expect(fromCli.some((f) => f.ruleId === 'volatile-system-prompt' && f.severity === 'warning')).toBe(true);
        expect(fromCli.some((f) => f.ruleId === 'prefix-below-minimum')).toBe(false);
        expect(fromCli.some((f) => f.file.includes('job.py') && f.ruleId === 'volatile-system-prompt')).toBe(false);
      } finally {
        await client.dispose();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('code actions', () => {
  const fixable = fixtureFiles().filter((f) => fixedFile(f, 'fixed') && !f.endsWith('.ipynb'));

  it.each(fixable.map((f) => [path.relative(FIXTURES, f), f]))('fix-all (source.fixAll.prefixlint) turns %s into its .fixed file', async (_, file) => {
    const uri = await client.open(file);
    await client.diagnostics(uri);
    const [action] = await client.actions(uri, [], [FIX_ALL_KIND]);
    expect(action.kind).toBe(FIX_ALL_KIND);
    const resolved = await client.resolve(action);
    await client.apply(resolved.edit!);
    expect(client.text(uri)).toBe(fs.readFileSync(fixedFile(file, 'fixed')!, 'utf8'));
    await client.close(uri);
  });

  it.each(fixable.map((f) => [path.relative(FIXTURES, f), f]))('preferred quick fixes one by one turn %s into its .fixed file', async (_, file) => {
    const uri = await client.open(file);
    for (let i = 0; i < 50; i++) {
      const diags = await client.diagnostics(uri);
      let applied = false;
      for (const d of diags) {
        const fix = (await client.actions(uri, [d])).find((a) => a.isPreferred);
        if (!fix) continue;
        await client.apply(fix.edit!);
        applied = true;
        break;
      }
      if (!applied) break;
    }
    expect(client.text(uri)).toBe(fs.readFileSync(fixedFile(file, 'fixed')!, 'utf8'));
    await client.close(uri);
  });

  const unsafe = fixtureFiles().filter((f) => fixedFile(f, 'unsafe-fixed') && !f.endsWith('.ipynb'));

  it.each(unsafe.map((f) => [path.relative(FIXTURES, f), f]))('every quick fix, safe or unsafe, turns %s into its .unsafe-fixed file', async (_, file) => {
    const uri = await client.open(file);
    for (let i = 0; i < 50; i++) {
      let applied = false;
      for (const d of await client.diagnostics(uri)) {
        const fix = (await client.actions(uri, [d])).find((a) => a.edit && !a.title.startsWith('Disable '));
        if (!fix) continue;
        expect(fix.isPreferred === true).toBe(!fix.title.endsWith('(unsafe fix)'));
        await client.apply(fix.edit!);
        applied = true;
        break;
      }
      if (!applied) break;
    }
    expect(client.text(uri)).toBe(fs.readFileSync(fixedFile(file, 'unsafe-fixed')!, 'utf8'));
    await client.close(uri);
  });

  it('fix-all gives what `prefixlint check --fix` writes, for every example file', async () => {
    const dir = path.join(temp, 'examples');
    fs.cpSync(path.join(ROOT, 'examples'), dir, { recursive: true });
    const files = fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => /\.(py|ts|tsx|js|jsx)$/.test(f));
    expect(files.length).toBeGreaterThan(3);
    const before = new Map(files.map((f) => [f, fs.readFileSync(path.join(dir, f), 'utf8')]));
    const io = { out: () => undefined, err: () => undefined, readStdin: () => Buffer.alloc(0), stdoutIsTTY: false, cwd: dir };
    await main(['check', '--fix', '.'], io as Parameters<typeof main>[1]);
    for (const f of files) {
      const uri = await client.open(path.join(dir, f), before.get(f));
      await client.diagnostics(uri);
      const [action] = await client.actions(uri, [], [FIX_ALL_KIND]);
      await client.apply((await client.resolve(action)).edit!);
      expect(client.text(uri), f).toBe(fs.readFileSync(path.join(dir, f), 'utf8'));
      await client.close(uri);
    }
  });

  it('fix-all on a notebook edits the cells into the .fixed notebook', async () => {
    const file = path.join(FIXTURES, 'stale-beta', 'bad.ipynb');
    const cells = await client.openNotebook(file);
    const first = [...cells.values()].find((u) => client.docs.get(u)!.languageId === 'python')!;
    await client.diagnostics(first);
    const [action] = await client.actions(first, [], [FIX_ALL_KIND]);
    await client.apply((await client.resolve(action)).edit!);
    const expected = notebookSources(fixedFile(file, 'fixed')!);
    for (const [index, uri] of cells) expect(client.text(uri)).toBe(expected.get(index));
  });

  it('offers disable-for-line, disable-for-file and docs; drops fixes of a stale version', async () => {
    const file = path.join(FIXTURES, 'volatile-system-prompt', 'bad.py');
    const uri = await client.open(file);
    const [d] = (await client.diagnostics(uri)).filter((x) => x.code === 'volatile-system-prompt');
    const actions = await client.actions(uri, [d]);
    const titles = actions.map((a) => a.title);
    expect(titles).toContain('Disable volatile-system-prompt for this line');
    expect(titles).toContain('Disable volatile-system-prompt for this file');
    expect(titles).toContain('Show documentation for volatile-system-prompt');
    const line = actions.find((a) => a.title.endsWith('for this line'))!;
    const edit = line.edit!.changes![uri][0];
    expect(edit.newText).toBe('# prefixlint: disable-next-line=volatile-system-prompt\n');
    expect(edit.range.start.line).toBe(d.range.start.line);
    const fileAction = actions.find((a) => a.title.endsWith('for this file'))!;
    expect(fileAction.edit!.changes![uri][0]).toEqual({ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, newText: '# prefixlint: disable-file=volatile-system-prompt\n' });
    const docs = actions.find((a) => a.title.startsWith('Show documentation'))!;
    expect(docs.command).toEqual({ title: docs.title, command: 'prefixlint.showDocumentation', arguments: ['volatile-system-prompt'] });
    const page: string = await client.conn.sendRequest(MARKDOWN, { what: 'rule:volatile-system-prompt' });
    expect(page).toMatch(/^# volatile-system-prompt\n/);
    expect(page).toContain('## What it does');

    await client.change(uri, client.text(uri) + '\n');
    const stale = await client.actions(uri, [d]);
    expect(stale.map((a) => a.title)).toEqual(['Show documentation for volatile-system-prompt']);
    await client.close(uri);
  });

  it('writes TS suppression comments with the indentation of the line', async () => {
    const file = path.join(FIXTURES, 'volatile-system-prompt', 'bad.ts');
    const uri = await client.open(file);
    const [d] = await client.diagnostics(uri);
    const line = (await client.actions(uri, [d])).find((a) => a.title.endsWith('for this line'))!;
    const edit = line.edit!.changes![uri][0];
    const indent = /^[ \t]*/.exec(client.text(uri).split('\n')[edit.range.start.line])![0];
    expect(edit.newText).toBe(`${indent}// prefixlint-disable-next-line ${d.code}\n`);
    await client.close(uri);
  });
});

describe('more of the server', () => {
  it('fades unused suppressions (Unnecessary tag)', async () => {
    const uri = await client.open(path.join(FIXTURES, 'unused-suppression', 'bad.py'));
    const diags = await client.diagnostics(uri);
    const unused = diags.filter((d) => d.code === 'unused-suppression');
    expect(unused.length).toBeGreaterThan(0);
    for (const d of unused) expect(d.tags).toEqual([1]);
    for (const d of diags.filter((x) => x.code !== 'unused-suppression')) expect(d.tags).toBeUndefined();
    await client.close(uri);
  });

  it('lints the closed files of the workspace on request (pushed diagnostics)', async () => {
    const dir = path.join(temp, 'workspace');
    fs.cpSync(path.join(ROOT, 'examples'), dir, { recursive: true });
    const pushed = new Map<string, Diagnostic[]>();
    client.conn.onNotification('textDocument/publishDiagnostics', (p: { uri: string; diagnostics: Diagnostic[] }) => void pushed.set(p.uri, p.diagnostics));
    client.conn.onRequest('workspace/workspaceFolders', () => [{ uri: pathToFileURL(dir).toString(), name: 'examples' }]);
    const r: { files: number; problems: number } = await client.conn.sendRequest('workspace/executeCommand', { command: 'prefixlint.server.lintWorkspace', arguments: [] });
    const cli = (await cliJsonOf(dir)).length;
    expect(r.problems).toBe(cli);
    expect([...pushed.values()].flat().length).toBe(cli);
  });

  it('renders the rules table and diffs two request dumps', async () => {
    const rules: string = await client.conn.sendRequest(MARKDOWN, { what: 'rules' });
    expect(rules).toContain('| [`volatile-system-prompt`](https://github.com/prefixlint/prefixlint/blob/main/docs/rules/volatile-system-prompt.md) | cache |');
    const a = JSON.stringify({ model: 'm', system: 'You are a bot.', messages: [{ role: 'user', content: 'hi' }] });
    const b = JSON.stringify({ model: 'm', system: 'You are a bot. Time: 12:00', messages: [{ role: 'user', content: 'hi' }] });
    const diff: string = await client.conn.sendRequest(MARKDOWN, { what: 'diff', texts: [a, b], names: ['a.json', 'b.json'] });
    // The sentences of `prefixlint diff` on the same two dumps, the excerpts as a list.
    fs.writeFileSync(path.join(temp, 'a.json'), a);
    fs.writeFileSync(path.join(temp, 'b.json'), b);
    let out = '';
    const io = { out: (t: string) => void (out += t), err: () => undefined, readStdin: () => Buffer.alloc(0), stdoutIsTTY: false, cwd: temp };
    await main(['diff', 'a.json', 'b.json'], io);
    const sentences = out.trim().split('\n').filter((l) => !l.startsWith('  '));
    expect(sentences[0]).toBe('First difference in render order at byte 37: system[0], at system[0].text, byte 37 of the block.');
    expect(diff.split('\n\n')).toEqual(['# Request diff', '`a.json` → `b.json`', sentences[0], '- `a.json`: `' + out.split('\n')[1].slice('  a.json: '.length) + '`\n- `b.json`: `' + out.split('\n')[2].slice('  b.json: '.length) + '`', ...sentences.slice(1).map((l) => l + (l === sentences.at(-1) ? '\n' : ''))]);
    expect(await client.conn.sendRequest(MARKDOWN, { what: 'diff', texts: [a, a] })).toContain('No difference in tools, system or messages: the cached prefix is reused.');
  });

  it('highlights the suppression comments it writes (syntaxes/ injection grammar)', () => {
    const grammar = JSON.parse(fs.readFileSync(path.join(ROOT, 'syntaxes', 'prefixlint-suppression.injection.tmLanguage.json'), 'utf8')) as { repository: Record<string, { match: string }> };
    const py = new RegExp(grammar.repository.python.match);
    const ts = new RegExp(grammar.repository.script.match);
    expect(py.exec('# prefixlint: disable-next-line=volatile-tools,unknown-beta -- why')?.slice(1, 8)).toEqual(['prefixlint', ':', 'disable-next-line', '=', 'volatile-tools,unknown-beta', '--', 'why']);
    expect(py.exec('# prefixlint: disable-file=volatile-tools')?.[3]).toBe('disable-file');
    expect(py.exec('# prefixlint: disable=volatile-tools')?.slice(3, 6)).toEqual(['disable', '=', 'volatile-tools']);
    expect(ts.exec('// prefixlint-disable-next-line volatile-tools, unknown-beta')?.slice(1, 3)).toEqual(['prefixlint-disable-next-line', 'volatile-tools, unknown-beta']);
    expect(ts.exec('// prefixlint-disable-file volatile-tools')?.[1]).toBe('prefixlint-disable-file');
    expect(ts.exec('/* prefixlint-disable-line volatile-tools -- A/B test */')?.slice(1, 5)).toEqual(['prefixlint-disable-line', 'volatile-tools', '--', 'A/B test']);
  });
});

describe('robustness', () => {
  it('answers every request while edits race them (stale lenses, diagnostics, broken syntax)', async () => {
    const errors: string[] = [];
    const fire = (p: Promise<unknown>) => p.catch((e: unknown) => void errors.push(String(e)));
    let seed = 7;
    const rnd = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
    for (const rel of ['python/compaction_loop.py', 'typescript/chat-route.tsx']) {
      const file = path.join(ROOT, 'examples', rel);
      const original = fs.readFileSync(file, 'utf8');
      const uri = await client.open(file, original);
      let diags: Diagnostic[] = [];
      let lenses: CodeLens[] = [];
      const pending: Array<Promise<unknown>> = [];
      for (let v = 0; v < 40; v++) {
        const text = client.text(uri);
        const at = rnd(text.length);
        const next = v % 10 === 9 ? original : rnd(2) ? text.slice(0, at) + text.slice(at + 1 + rnd(5)) : text.slice(0, at) + '()"\nx{`'[rnd(7)] + text.slice(at);
        await client.change(uri, next);
        pending.push(fire(client.diagnostics(uri).then((d) => void (diags = d))));
        pending.push(fire((client.conn.sendRequest('textDocument/codeLens', { textDocument: { uri } }) as Promise<CodeLens[]>).then((l) => void (lenses = l))));
        for (const l of lenses) pending.push(fire(client.conn.sendRequest('codeLens/resolve', l)));
        pending.push(fire(client.actions(uri, diags)));
        pending.push(fire(client.actions(uri, [], [FIX_ALL_KIND]).then((a) => Promise.all(a.map((x) => client.resolve(x))))));
        pending.push(fire(client.hover(uri, rnd(50), rnd(60))));
      }
      await Promise.all(pending);
      await client.close(uri);
    }
    expect(errors).toEqual([]);
  });
});

describe('code lens and hover', () => {
  it('shows the token estimate above every request call site', async () => {
    const file = path.join(FIXTURES, 'volatile-system-prompt', 'bad.py');
    const uri = await client.open(file);
    const lenses = await client.lenses(uri);
    const a = await analyzer();
    const calls = a.analyze(file, fs.readFileSync(file, 'utf8')).calls;
    expect(lenses.length).toBe(calls.length);
    const known = loadKnownNames();
    expect(lenses.map((l) => l.command!.title)).toEqual(calls.map((c) => lensTitle(estimateRequest(c, known))));
    for (const l of lenses) {
      expect(l.command!.title).toMatch(/^≈ [\d,]+\+? tokens: tools [\d,]+ · system [\d,]+ · messages [\d,]+ \| /);
      expect(l.command!.command).toBe('prefixlint.showMarkdown');
      expect(String(l.command!.arguments![1])).toContain('| section | block | ≈ tokens | breakpoint |');
    }
    const text = client.text(uri).split('\n');
    expect(text[lenses[0].range.start.line]).toMatch(/messages\.(with_raw_response\.)?create\(/);
    await client.close(uri);
  });

  it('shows no lens when token mode is off', async () => {
    const uri = await client.open(path.join(FIXTURES, 'volatile-system-prompt', 'bad.py'));
    client.settings = { tokens: { mode: 'off' } };
    await client.conn.sendNotification('workspace/didChangeConfiguration', { settings: null });
    expect(await client.lenses(uri)).toEqual([]);
    client.settings = {};
    await client.conn.sendNotification('workspace/didChangeConfiguration', { settings: null });
    await client.close(uri);
  });

  it('explains a flagged value without repeating what VS Code shows of the diagnostic, and a call site with its prefix', async () => {
    const file = path.join(FIXTURES, 'volatile-system-prompt', 'bad.py');
    const uri = await client.open(file);
    const d = (await client.diagnostics(uri)).find((x) => x.relatedInformation?.length)!;
    const onValue = await client.hover(uri, d.range.start.line, d.range.start.character + 1);
    const value = (onValue!.contents as { value: string }).value as string;
    // VS Code's own hover on the squiggle shows the message and the related locations.
    expect(value.split('\n')).toEqual([
      '**prefixlint** · `volatile-system-prompt`',
      '',
      allRules.find((r) => r.meta.id === 'volatile-system-prompt')!.meta.summary,
      '',
      '[Rule documentation](https://github.com/prefixlint/prefixlint/blob/main/docs/rules/volatile-system-prompt.md)',
    ]);
    expect(value).not.toContain(d.message);
    const lines = client.text(uri).split('\n');
    const callLine = lines.findIndex((l) => l.includes('client.messages.create('));
    const onCall = await client.hover(uri, callLine, lines[callLine].indexOf('messages.create') + 2);
    expect((onCall!.contents as { value: string }).value).toMatch(/^\*\*Messages API request\*\* `client\.messages\.create`/);
    expect(await client.hover(uri, 0, 0)).toBeNull();
    await client.close(uri);
  });
});

describe('start-up', () => {
  it('answers initialize before the parsers load, and analyses once they have', async () => {
    const client = new Client();
    try {
      const started = performance.now();
      await client.initialize();
      // The first pull waits for the parsers instead of answering with nothing.
      const uri = await client.open(path.join(FIXTURES, 'volatile-system-prompt', 'bad-async.py'));
      const diagnostics = await client.diagnostics(uri);
      expect(diagnostics.length).toBeGreaterThan(0);
      expect(client.logs.some((l) => l.startsWith('prefixlint server ready in'))).toBe(true);
      expect(performance.now() - started).toBeLessThan(20_000);
    } finally {
      await client.dispose();
    }
  });

  it('reports parsers that cannot be loaded instead of hanging', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'prefixlint-badwasm-'));
    for (const f of ['web-tree-sitter.wasm', 'tree-sitter-python.wasm', 'tree-sitter-typescript.wasm', 'tree-sitter-tsx.wasm', 'tree-sitter-javascript.wasm']) fs.writeFileSync(path.join(empty, f), 'not wasm');
    const client = new Client({ wasmDir: empty });
    try {
      await client.initialize();
      const uri = await client.open(path.join(FIXTURES, 'volatile-system-prompt', 'bad-async.py'));
      expect(await client.diagnostics(uri)).toEqual([]);
      expect(client.logs.some((l) => l.includes('could not load its parsers'))).toBe(true);
    } finally {
      await client.dispose();
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });
});
