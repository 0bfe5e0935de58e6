/**
 * Extension-host tests: run inside a real VS Code extension host (code-server's, through its
 * smoke-test driver, or Electron's through @vscode/test-electron), against a copy of the bundled
 * examples. The harness writes `expected.json` beside this bundle: the CLI's findings for the
 * workspace and the text of each file after `prefixlint check --fix`. Every wait is on an event
 * (diagnostics changed) or a provider's answer, never on a timer.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';

interface Finding {
  ruleId: string;
  severity: string;
  file: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  message: string;
  fix: null | { title: string; applicability: string; edits: Array<{ newText: string }> };
  cell?: number;
  cellLine?: number;
  cellColumn?: number;
  cellEndLine?: number;
  cellEndColumn?: number;
}

interface Expected {
  findings: Finding[];
  fixed: Record<string, string>;
  /** What the CLI reports for one file with a configuration file the suite writes. */
  withConfig: { file: string; config: object; findings: Finding[] };
  /** The headline finding whose fix edits several files, and the texts `check --fix --unsafe-fixes` leaves in them. */
  across?: { file: string; rule: string; line: number; column: number; endLine: number; endColumn: number; title: string; texts: Record<string, string> };
}

const SEVERITY: Record<string, vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  info: vscode.DiagnosticSeverity.Information,
};

function ours(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'prefixlint');
}

/** Resolves when `check` holds, re-checking whenever diagnostics change. */
function whenDiagnostics<T>(what: string, check: () => T | undefined, ms = 30_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const first = check();
    if (first !== undefined) return resolve(first);
    const timer = setTimeout(() => {
      sub.dispose();
      reject(new Error(`timed out waiting for ${what}`));
    }, ms);
    const sub = vscode.languages.onDidChangeDiagnostics(() => {
      const v = check();
      if (v === undefined) return;
      clearTimeout(timer);
      sub.dispose();
      resolve(v);
    });
  });
}

function assert(cond: unknown, message: string): asserts cond {
  if (!cond) throw new Error(message);
}

function same(actual: unknown, expected: unknown, what: string): void {
  const a = JSON.stringify(actual, null, 1);
  const e = JSON.stringify(expected, null, 1);
  if (a !== e) throw new Error(`${what}:\nexpected ${e}\nactual   ${a}`);
}

const codeOf = (d: vscode.Diagnostic) => String(typeof d.code === 'object' ? d.code.value : d.code);
const shape = (d: vscode.Diagnostic) => ({
  line: d.range.start.line + 1,
  column: d.range.start.character + 1,
  endLine: d.range.end.line + 1,
  endColumn: d.range.end.character + 1,
  ruleId: codeOf(d),
  severity: d.severity,
  message: d.message,
});
const byPosition = (a: { line: number; column: number; ruleId: string }, b: { line: number; column: number; ruleId: string }) =>
  a.line - b.line || a.column - b.column || a.ruleId.localeCompare(b.ruleId);

export async function run(): Promise<void> {
  const expected = JSON.parse(fs.readFileSync(path.join(__dirname, 'expected.json'), 'utf8')) as Expected;
  const root = vscode.workspace.workspaceFolders![0].uri;
  const results: string[] = [];
  let failed = 0;
  const test = async (name: string, fn: () => Promise<void>) => {
    const t0 = Date.now();
    try {
      await fn();
      results.push(`E2E PASS ${name} (${Date.now() - t0} ms)`);
    } catch (err) {
      failed++;
      results.push(`E2E FAIL ${name}: ${err instanceof Error ? err.message : String(err)}`);
    }
    console.log(results[results.length - 1]);
  };
  const files = [...new Set(expected.findings.filter((f) => f.cell === undefined).map((f) => f.file))].sort();

  await test('the extension is installed and activates', async () => {
    const ext = vscode.extensions.getExtension('prefixlint.prefixlint');
    assert(ext, 'prefixlint.prefixlint is not installed');
    await ext.activate();
    assert(ext.isActive, 'not active');
    const commands = await vscode.commands.getCommands(true);
    for (const c of ['lintWorkspace', 'fixAll', 'showRules', 'setApiKey', 'clearApiKey', 'restartServer', 'diffRequestDumps']) {
      assert(commands.includes(`prefixlint.${c}`), `command prefixlint.${c} is missing`);
    }
  });

  for (const rel of files) {
    await test(`diagnostics of ${rel} equal the CLI's`, async () => {
      const uri = vscode.Uri.joinPath(root, rel);
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
      const want = expected.findings
        .filter((f) => f.file === rel)
        .map((f) => ({ line: f.line, column: f.column, endLine: f.endLine, endColumn: f.endColumn, ruleId: f.ruleId, severity: SEVERITY[f.severity], message: f.message }))
        .sort(byPosition);
      const got = await whenDiagnostics(`${want.length} diagnostics in ${rel}`, () => {
        const d = ours(uri);
        return d.length === want.length ? d : undefined;
      });
      same(got.map(shape).sort(byPosition), want, rel);
      for (const d of got) assert(String((d.code as { target?: vscode.Uri }).target).startsWith('https://github.com/prefixlint/prefixlint/blob/main/docs/rules/'), 'no docs link');
    });
  }

  await test('the token CodeLens shows above every request call site', async () => {
    const uri = vscode.Uri.joinPath(root, files[0]);
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri, 100);
    const titles = lenses.map((l) => l.command?.title ?? '');
    assert(titles.length > 0, 'no lenses');
    for (const t of titles) assert(/^≈ [\d,]+\+? tokens: tools [\d,]+ · system [\d,]+ · messages [\d,]+ \| /.test(t), `unexpected lens title: ${t}`);
  });

  await test('clicking the lens shows the breakdown; docs and rules open as read-only markdown', async () => {
    const uri = vscode.Uri.joinPath(root, files[0]);
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri, 100);
    const command = lenses[0].command!;
    await vscode.commands.executeCommand(command.command, ...(command.arguments ?? []));
    const view = (name: string) => vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'prefixlint' && d.uri.path === `/${name}.md`);
    assert(view('tokens-1')?.getText().includes('| section | block | ≈ tokens | breakpoint |'), 'no token breakdown view');
    await vscode.commands.executeCommand('prefixlint.showDocumentation', 'volatile-system-prompt');
    assert(view('rule-volatile-system-prompt')?.getText().includes('## What it does'), 'no rule documentation view');
    await vscode.commands.executeCommand('prefixlint.showRules');
    assert(view('rules')?.getText().includes('| rule | group | severity | fix | what it catches |'), 'no rules view');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  await test('hover on a finding explains it', async () => {
    const f = expected.findings.find((x) => x.cell === undefined)!;
    const uri = vscode.Uri.joinPath(root, f.file);
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, new vscode.Position(f.line - 1, f.column));
    const text = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
    assert(text.includes(`\`${f.ruleId}\``), `hover without the rule id: ${text}`);
  });

  const safe = expected.findings.find((f) => f.cell === undefined && f.fix?.applicability === 'safe' && f.fix.edits[0]?.newText);
  await test('a quick fix changes the text', async () => {
    assert(safe, 'no finding with a safe fix in the examples');
    const uri = vscode.Uri.joinPath(root, safe.file);
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    const range = new vscode.Range(safe.line - 1, safe.column - 1, safe.endLine - 1, safe.endColumn - 1);
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, range);
    const fix = actions.find((a) => a.title === safe.fix!.title);
    assert(fix?.edit, `no quick fix titled "${safe.fix!.title}" (got ${actions.map((a) => a.title).join(' | ')})`);
    assert(fix.isPreferred, 'a safe fix is the preferred one');
    assert(await vscode.workspace.applyEdit(fix.edit), 'edit not applied');
    assert(doc.getText().includes(safe.fix!.edits[0].newText), 'the fix text is not in the document');
    await vscode.commands.executeCommand('workbench.action.files.revert');
  });

  const across = expected.across;
  await test('the headline finding offers a fix across files; applied, both files are what the CLI writes and the rule is silent', async () => {
    assert(across, 'the CLI offers no fix across files in the examples');
    const uri = vscode.Uri.joinPath(root, across.file);
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    await whenDiagnostics(`${across.rule} in ${across.file}`, () => (ours(uri).some((d) => codeOf(d) === across.rule) ? true : undefined), 60_000);
    const range = new vscode.Range(across.line - 1, across.column - 1, across.endLine - 1, across.endColumn - 1);
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, range);
    // An unsafe fix is offered with its title and " (unsafe fix)".
    const fix = actions.find((a) => a.title === across.title || a.title === `${across.title} (unsafe fix)`);
    assert(fix?.edit, `no quick fix titled "${across.title}" (got ${actions.map((a) => a.title).join(' | ')})`);
    const touched = fix.edit
      .entries()
      .map(([u]) => path.relative(root.fsPath, u.fsPath).split(path.sep).join('/'))
      .sort();
    same(touched, Object.keys(across.texts).sort(), 'files the fix edits');
    assert(await vscode.workspace.applyEdit(fix.edit), 'edit not applied');
    for (const [rel, text] of Object.entries(across.texts)) {
      const d = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(root, rel));
      same(d.getText(), text, `${rel} after the fix`);
    }
    await whenDiagnostics(`${across.rule} silent in ${across.file}`, () => (ours(uri).some((d) => codeOf(d) === across.rule) ? undefined : true), 60_000);
    for (const rel of Object.keys(across.texts)) {
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(vscode.Uri.joinPath(root, rel)));
      await vscode.commands.executeCommand('workbench.action.files.revert');
    }
  });

  for (const rel of Object.keys(expected.fixed)) {
    await test(`fix all (source.fixAll.prefixlint) turns ${rel} into the CLI's --fix output`, async () => {
      const uri = vscode.Uri.joinPath(root, rel);
      const doc = await vscode.workspace.openTextDocument(uri);
      await vscode.window.showTextDocument(doc);
      const all = new vscode.Range(0, 0, doc.lineCount, 0);
      const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, all, 'source.fixAll.prefixlint', 1);
      const fixAll = actions.find((a) => a.kind?.value === 'source.fixAll.prefixlint');
      assert(fixAll?.edit, 'no resolved fix-all action');
      await vscode.workspace.applyEdit(fixAll.edit);
      same(doc.getText(), expected.fixed[rel], `${rel} after fix all`);
      await vscode.commands.executeCommand('workbench.action.files.revert');
    });
  }

  const cellFindings = expected.findings.filter((f) => f.cell !== undefined);
  const notebooks = [...new Set(cellFindings.map((f) => f.file))];
  for (const rel of notebooks) {
    await test(`notebook cells of ${rel} get the CLI's findings`, async () => {
      const nb = await vscode.workspace.openNotebookDocument(vscode.Uri.joinPath(root, rel));
      await vscode.window.showNotebookDocument(nb);
      const want = cellFindings
        .filter((f) => f.file === rel)
        .map((f) => ({ cell: f.cell, line: f.cellLine, column: f.cellColumn, ruleId: f.ruleId, message: f.message }))
        .sort((a, b) => a.cell! - b.cell! || a.line! - b.line!);
      const got = await whenDiagnostics(`${want.length} diagnostics in the cells of ${rel}`, () => {
        const all = nb.getCells().flatMap((c) => ours(c.document.uri).map((d) => ({ cell: c.index, line: d.range.start.line + 1, column: d.range.start.character + 1, ruleId: codeOf(d), message: d.message })));
        return all.length === want.length ? all : undefined;
      });
      same(got.sort((a, b) => a.cell - b.cell || a.line - b.line), want, rel);
    });
  }

  await test('an edited configuration file applies at once, as the CLI applies it', async () => {
    const { file, config, findings } = expected.withConfig;
    const uri = vscode.Uri.joinPath(root, file);
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    const before = expected.findings.filter((f) => f.file === file).map((f) => ({ line: f.line, column: f.column, endLine: f.endLine, endColumn: f.endColumn, ruleId: f.ruleId, severity: SEVERITY[f.severity], message: f.message })).sort(byPosition);
    const want = findings.map((f) => ({ line: f.line, column: f.column, endLine: f.endLine, endColumn: f.endColumn, ruleId: f.ruleId, severity: SEVERITY[f.severity], message: f.message })).sort(byPosition);
    const key = (l: unknown) => JSON.stringify(l);
    await whenDiagnostics(`the diagnostics of ${file} as opened`, () => (key(ours(uri).map(shape).sort(byPosition)) === key(before) ? true : undefined));
    const configFile = vscode.Uri.joinPath(root, '.prefixlintrc.json');
    // Written through the workspace, as a user saves it: the client's file watcher tells the server.
    await vscode.workspace.fs.writeFile(configFile, Buffer.from(JSON.stringify(config)));
    try {
      await whenDiagnostics(`the diagnostics of ${file} with ${JSON.stringify(config)}`, () => (key(ours(uri).map(shape).sort(byPosition)) === key(want) ? true : undefined));
    } finally {
      await vscode.workspace.fs.delete(configFile);
    }
    await whenDiagnostics(`the diagnostics of ${file} once the configuration is gone`, () => (key(ours(uri).map(shape).sort(byPosition)) === key(before) ? true : undefined));
  });

  console.log(`${results.length - failed} passed, ${failed} failed`);
  if (failed) throw new Error(`${failed} extension-host test(s) failed`);
}
