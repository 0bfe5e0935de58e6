/**
 * The language server's fix across files: the quick fix of a finding whose cause is in another
 * module is one WorkspaceEdit over both files, as versioned document changes when the client
 * takes them (the open file at its version, a closed one with null), and as `changes` otherwise;
 * applying it gives the files `check --fix --unsafe-fixes` writes, and the finding is gone.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CodeAction, TextDocumentEdit, TextEdit } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { afterEach, describe, expect, it } from 'vitest';
import { FIX_ALL_KIND } from '../src/shared/protocol';
import { analyzer, FIXTURES } from './helpers';
import { Client } from './lsp-client';

const CASE = path.join(FIXTURES, '_crossfile', 'python-helper');
const HELPDESK = path.join(CASE, 'project', 'app', 'helpdesk.py');
const PROMPTS = path.join(CASE, 'project', 'app', 'prompts.py');
const expected = (rel: string) => fs.readFileSync(path.join(CASE, 'unsafe-fixed', rel), 'utf8');
/** prompts.py after helpdesk.py's fix alone (unsafe-fixed/ has the fix of escalations.py too). */
const promptsAfterHelpdesk = () => fs.readFileSync(PROMPTS, 'utf8').replace('return f"{BASE}\\nCurrent time: {datetime.now(timezone.utc).isoformat()}"', 'return f"{BASE}"');
const uri = (file: string) => pathToFileURL(file).toString();

const CAPABILITIES = {
  workspace: { configuration: true, applyEdit: true, workspaceEdit: { documentChanges: true }, diagnostics: { refreshSupport: true } },
  textDocument: { diagnostic: {}, codeAction: { resolveSupport: { properties: ['edit'] } } },
};

let client: Client | undefined;
afterEach(async () => {
  await client?.dispose();
  client = undefined;
});

async function moveAction(c: Client, file: string): Promise<CodeAction> {
  const u = await c.open(file);
  const diagnostics = (await c.diagnostics(u)).filter((d) => d.code === 'volatile-system-prompt');
  expect(diagnostics).toHaveLength(1);
  const actions = await c.actions(u, diagnostics);
  const move = actions.find((a) => a.title.startsWith('Move the time into the user message'));
  expect(move, actions.map((a) => a.title).join('; ')).toBeDefined();
  return move!;
}

describe('fixes across files in the editor', () => {
  it('is one WorkspaceEdit with versioned document changes for both files; applied, both files read as check --fix writes them and the finding is gone', async () => {
    client = new Client();
    await client.initialize({ capabilities: CAPABILITIES });
    const promptsUri = await client.open(PROMPTS);
    await client.change(promptsUri, fs.readFileSync(PROMPTS, 'utf8'));
    const move = await moveAction(client, HELPDESK);
    expect(move.title).toBe('Move the time into the user message (from `helpdesk_prompt` in prompts.py) (unsafe fix)');
    const changes = (move.edit?.documentChanges ?? []) as TextDocumentEdit[];
    expect(changes.map((c) => [c.textDocument.uri, c.textDocument.version])).toEqual([
      [uri(HELPDESK), 1],
      [promptsUri, 2],
    ]);
    for (const c of changes) {
      const doc = client.docs.get(c.textDocument.uri)!;
      await client.change(c.textDocument.uri, TextDocument.applyEdits(doc, c.edits as TextEdit[]));
    }
    expect(client.text(uri(HELPDESK))).toBe(expected('app/helpdesk.py'));
    expect(promptsAfterHelpdesk()).not.toBe(fs.readFileSync(PROMPTS, 'utf8'));
    expect(client.text(promptsUri)).toBe(promptsAfterHelpdesk());
    const after = await client.diagnostics(uri(HELPDESK));
    expect(after.filter((d) => d.code === 'volatile-system-prompt')).toEqual([]);
  });

  it('names a closed file with version null, and offers no fix once the other file changed since the analysis', async () => {
    client = new Client();
    await client.initialize({ capabilities: CAPABILITIES });
    const u = await client.open(HELPDESK);
    const diagnostics = (await client.diagnostics(u)).filter((d) => d.code === 'volatile-system-prompt');
    const [move] = (await client.actions(u, diagnostics)).filter((a) => a.title.startsWith('Move the time'));
    const changes = (move.edit?.documentChanges ?? []) as TextDocumentEdit[];
    expect(changes.map((c) => [c.textDocument.uri, c.textDocument.version])).toEqual([
      [u, 1],
      [uri(PROMPTS), null],
    ]);
    // prompts.py opened (and so possibly edited) after the analysis: the fix's offsets may be stale.
    await client.open(PROMPTS);
    const stale = (await client.actions(u, diagnostics)).filter((a) => a.title.startsWith('Move the time'));
    expect(stale).toEqual([]);
  });

  it('gives plain `changes` for both files to a client without document changes', async () => {
    client = new Client();
    await client.initialize({ capabilities: { ...CAPABILITIES, workspace: { ...CAPABILITIES.workspace, workspaceEdit: {} } } });
    const move = await moveAction(client, HELPDESK);
    expect(Object.keys(move.edit?.changes ?? {}).sort()).toEqual([uri(HELPDESK), uri(PROMPTS)].sort());
  });

  it('offers the headline fix of the bundled example (support_agent.py, the time from prompts.py) across both files; applied, both parse and the rule is silent', async () => {
    const examples = path.join(FIXTURES, '..', '..', 'examples', 'python');
    const agent = path.join(examples, 'support_agent.py');
    const prompts = path.join(examples, 'prompts.py');
    client = new Client();
    await client.initialize({ capabilities: CAPABILITIES });
    const move = await moveAction(client, agent);
    expect(move.title).toBe('Move the time into the user message (from `support_prompt` in prompts.py) (unsafe fix)');
    const changes = (move.edit?.documentChanges ?? []) as TextDocumentEdit[];
    expect(changes.map((c) => c.textDocument.uri)).toEqual([uri(agent), uri(prompts)]);
    // Applied as the editor applies it: prompts.py is opened to take its edit.
    const promptsUri = await client.open(prompts);
    for (const c of changes) await client.change(c.textDocument.uri, TextDocument.applyEdits(client.docs.get(c.textDocument.uri)!, c.edits as TextEdit[]));
    expect(client.text(promptsUri)).toContain('    return f"{SUPPORT_PROMPT}"\n');
    expect(client.text(uri(agent))).toContain('f"[time: {datetime.now():%Y-%m-%d %H:%M}] " + req.question');
    const after = await client.diagnostics(uri(agent));
    expect(after.filter((d) => d.code === 'volatile-system-prompt')).toEqual([]);
    // Both still parse.
    const a = await analyzer();
    expect(a.parsesCleanly(agent, client.text(uri(agent)))).toBe(true);
    expect(a.parsesCleanly(prompts, client.text(promptsUri))).toBe(true);
  });

  it('for a notebook whose prompt comes from a module: the cell and the module, each at its version', async () => {
    const dir = path.join(FIXTURES, '_crossfile', 'notebook');
    const notebook = path.join(dir, 'project', 'labelling.ipynb');
    const module = path.join(dir, 'project', 'lab_prompts.py');
    client = new Client();
    await client.initialize({ capabilities: CAPABILITIES });
    const cells = await client.openNotebook(notebook);
    const cell = cells.get(2)!;
    const diagnostics = (await client.diagnostics(cell)).filter((d) => d.code === 'volatile-system-prompt');
    expect(diagnostics).toHaveLength(1);
    const move = (await client.actions(cell, diagnostics)).find((a) => a.title.startsWith('Move the time'));
    const changes = (move?.edit?.documentChanges ?? []) as TextDocumentEdit[];
    // The import goes into the cell of the imports, the time into the request's cell, and the module loses it.
    expect(changes.map((c) => [c.textDocument.uri, c.textDocument.version]).sort()).toEqual(
      [
        [cells.get(1)!, 1],
        [cell, 1],
        [uri(module), null],
      ].sort(),
    );
    const edited = changes.find((c) => c.textDocument.uri === uri(module))!;
    expect(TextDocument.applyEdits(TextDocument.create(uri(module), 'python', 0, fs.readFileSync(module, 'utf8')), edited.edits as TextEdit[])).toBe(fs.readFileSync(path.join(dir, 'unsafe-fixed', 'lab_prompts.py'), 'utf8'));
  });

  it('for a notebook whose retrieved data goes through a helper of a module: the cell and the module, and the cell reads the caller\'s name', async () => {
    const dir = path.join(FIXTURES, '_crossfile', 'notebook-retrieval');
    const notebook = path.join(dir, 'project', 'contract_review.ipynb');
    const module = path.join(dir, 'project', 'review_prompts.py');
    client = new Client();
    await client.initialize({ capabilities: CAPABILITIES });
    const cells = await client.openNotebook(notebook);
    const cell = cells.get(2)!;
    const diagnostics = (await client.diagnostics(cell)).filter((d) => d.code === 'dynamic-content-before-breakpoint');
    expect(diagnostics).toHaveLength(1);
    const move = (await client.actions(cell, diagnostics)).find((a) => a.title.startsWith('Move `hits`'));
    expect(move?.title).toBe('Move `hits` into the newest user message (from `reviewer_system` in review_prompts.py) (unsafe fix)');
    const changes = (move?.edit?.documentChanges ?? []) as TextDocumentEdit[];
    expect(changes.map((c) => [c.textDocument.uri, c.textDocument.version])).toEqual([
      [cell, 1],
      [uri(module), null],
    ]);
    const expectedCells = (JSON.parse(fs.readFileSync(path.join(dir, 'unsafe-fixed', 'contract_review.ipynb'), 'utf8')) as { cells: Array<{ source: string[] }> }).cells;
    await client.change(cell, TextDocument.applyEdits(client.docs.get(cell)!, changes[0].edits as TextEdit[]));
    expect(client.text(cell)).toBe(expectedCells[2].source.join(''));
    const edited = changes[1];
    expect(TextDocument.applyEdits(TextDocument.create(uri(module), 'python', 0, fs.readFileSync(module, 'utf8')), edited.edits as TextEdit[])).toBe(fs.readFileSync(path.join(dir, 'unsafe-fixed', 'review_prompts.py'), 'utf8'));
  });

  it('fix all applies only the safe fixes within the file: never one that reaches another file (safe or unsafe), never an unsafe one', async () => {
    const dir = path.join(FIXTURES, '_crossfile', 'python-tools', 'project', 'desk');
    const agent = path.join(dir, 'agent.py');
    const tools = path.join(dir, 'tools.py');
    // One more request whose set is written in this file: its safe fix is fix all's to apply.
    const local = `\n\ndef local(question: str) -> anthropic.types.Message:\n    return client.messages.create(\n        model="claude-sonnet-4-6",\n        max_tokens=1024,\n        cache_control={"type": "ephemeral"},\n        tools=[{"name": n, "input_schema": {"type": "object"}} for n in {"refund", "search_orders"}],\n        messages=[{"role": "user", "content": question}],\n    )\n`;
    const text = fs.readFileSync(agent, 'utf8') + local;
    client = new Client();
    await client.initialize({ capabilities: CAPABILITIES });
    const u = await client.open(agent, text);
    const before = (await client.diagnostics(u)).filter((d) => d.code === 'volatile-tools');
    expect(before).toHaveLength(5);
    // The safe fix of DESK_TOOLS is a quick fix, preferred, that edits tools.py alone.
    const actions = await client.actions(u, before);
    const desk = actions.find((a) => a.title === 'Sort the set before iterating (in `DESK_TOOLS`, tools.py)');
    expect(desk?.isPreferred).toBe(true);
    expect(((desk?.edit?.documentChanges ?? []) as TextDocumentEdit[]).map((c) => c.textDocument.uri)).toEqual([uri(tools)]);
    expect(actions.filter((a) => a.title.endsWith('(unsafe fix)')).map((a) => a.title)).toEqual([
      'Sort the listing (in `plugin_tools`, tools.py; admin.py:6 also uses it) (unsafe fix)',
      'Sort the set before iterating (in `requested_tools`, tools.py) (unsafe fix)',
    ]);

    const [fixAll] = await client.actions(u, [], [FIX_ALL_KIND]);
    const edit = (await client.resolve(fixAll)).edit!;
    expect(Object.keys(edit.changes ?? {})).toEqual([u]);
    expect(edit.documentChanges).toBeUndefined();
    await client.apply(edit);
    expect(client.text(u)).toBe(text.replace('for n in {"refund", "search_orders"}]', 'for n in sorted({"refund", "search_orders"})]'));
    // The fixes across files are all still there, offered as before.
    const after = (await client.diagnostics(u)).filter((d) => d.code === 'volatile-tools');
    expect(after.map((d) => d.message)).toEqual(before.slice(0, 4).map((d) => d.message));
    expect(fs.readFileSync(tools, 'utf8')).toContain('DESK_TOOLS = [SPECS[name] for name in ENABLED]');
  });
});
