/**
 * End to end in a real VS Code (code-server 4.139 = VS Code 1.139, Node extension host) through
 * Debian's Chromium: package the .vsix and check its contents, install it with
 * --install-extension, open the bundled examples, and assert from the workbench's DOM that the
 * squiggles sit on the lines the CLI reports, the token CodeLens renders, a quick fix changes
 * the text and "fix all" gives the CLI's --fix output; then run the extension-host suite
 * (test/e2e/suite) through code-server's smoke-test driver. Screenshot: test-output/.
 *
 *   npm run test:e2e          (installs code-server and chromium into ~/.cache/prefixlint-e2e on first run)
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliFinding, CodeServer } from './harness';
import { CHROMIUM, CHROMIUM_ARGS, cliFindings, cliFixed, cliFixedAcross, copyTree, E2E_DIR, install, installExtension, log, logFiles, OUTPUT, packageVsix, ROOT, serverDir, startCodeServer, until, zipEntries, zipText } from './harness';

/** The few DOM types the page functions use (the project compiles without the DOM lib). */
interface DomElement {
  style: { top: string };
  textContent: string | null;
  querySelector(selector: string): DomElement | null;
  querySelectorAll(selector: string): Iterable<DomElement> & { length: number };
}
declare const document: DomElement;

const setup = await install();
const skip = setup.skip;
if (skip) log(`SKIPPED: ${skip}`);

const VSIX = path.join(E2E_DIR, 'prefixlint.vsix');
/** What the .vsix may contain (paths inside its `extension/` folder), and nothing else. */
const ALLOWED = [/^package\.json$/, /^readme\.md$/, /^changelog\.md$/, /^LICENSE\.txt$/, /^dist\/(extension|server|server-core|anthropic-sdk)\.js$/, /^dist\/[\w-]+\.wasm$/, /^dist\/web-tree-sitter\.cjs$/, /^media\/icon\.png$/, /^syntaxes\/[\w.-]+\.json$/];
const REQUIRED = ['package.json', 'readme.md', 'changelog.md', 'LICENSE.txt', 'dist/extension.js', 'dist/server.js', 'dist/server-core.js', 'dist/anthropic-sdk.js', 'dist/web-tree-sitter.cjs', 'dist/web-tree-sitter.wasm', 'dist/tree-sitter-python.wasm', 'dist/tree-sitter-typescript.wasm', 'dist/tree-sitter-tsx.wasm', 'dist/tree-sitter-javascript.wasm', 'media/icon.png'];

let server: CodeServer | undefined;
let browser: Browser | undefined;
let ws: string;
let findings: CliFinding[];
const temps: string[] = [];
const timings: string[] = [];
const T0 = Date.now();
const mark = (what: string, since: number) => {
  const line = `${what}: ${((Date.now() - since) / 1000).toFixed(1)} s`;
  timings.push(line);
  log(line);
};

/** The prefixlint log and extension-host errors, read while the window is still open. */
interface LogCheck {
  activated?: string;
  ready?: string;
  errors: string[];
  sample: string;
}

function checkLogs(userData: string): LogCheck {
  const logs = logFiles(userData).map((f) => ({ file: f, rel: path.relative(userData, f) }));
  const ours = logs.filter((l) => /prefixlint/i.test(l.rel)).map((l) => fs.readFileSync(l.file, 'utf8')).join('\n');
  const host = logs.filter((l) => /exthost/i.test(path.basename(l.file))).map((l) => fs.readFileSync(l.file, 'utf8')).join('\n');
  const context = (text: string, keep: (l: string) => boolean) => {
    const lines = text.split('\n');
    return lines.flatMap((l, i) => (/\[error\]/i.test(l) && keep(l) ? [lines.slice(i, i + 4).join('\n')] : []));
  };
  return {
    activated: /prefixlint activated in (\d+) ms/.exec(ours)?.[1],
    ready: /prefixlint server ready in (\d+) ms/.exec(ours)?.[1],
    errors: [...context(ours, () => true), ...context(host, (l) => /prefixlint/i.test(l))],
    sample: ours.slice(0, 2000),
  };
}

let logCheck: LogCheck | undefined;

describe.skipIf(!!skip)('prefixlint in code-server', () => {
  beforeAll(async () => {
    timings.push(`install.sh: ${setup.seconds.toFixed(1)} s`);
    let t = Date.now();
    fs.rmSync(VSIX, { force: true });
    packageVsix(VSIX);
    mark('build + vsce package', t);
    ws = fs.mkdtempSync(path.join(os.tmpdir(), 'prefixlint-ws-'));
    temps.push(ws);
    copyTree(path.join(ROOT, 'examples'), ws);
    findings = cliFindings(ws);
    t = Date.now();
    const dir = serverDir();
    temps.push(dir);
    const list = installExtension(dir, VSIX);
    expect(list).toContain('prefixlint.prefixlint@');
    mark('code-server --install-extension', t);
    t = Date.now();
    server = await startCodeServer(dir, { smokeTestDriver: true });
    mark('code-server start', t);
    // The browser's own files (crash reports, dconf) go to the temp folder too, not to $HOME.
    const xdg = { XDG_CONFIG_HOME: path.join(dir, 'xdg', 'config'), XDG_CACHE_HOME: path.join(dir, 'xdg', 'cache') };
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, env: { ...process.env, ...xdg } });
  }, 900_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    for (const t of temps) fs.rmSync(t, { recursive: true, force: true });
    mark('e2e total (after install)', T0);
    fs.mkdirSync(OUTPUT, { recursive: true });
    fs.writeFileSync(path.join(OUTPUT, 'e2e-timings.txt'), timings.join('\n') + '\n');
  }, 60_000);

  it('the .vsix holds only the bundles, WASM grammars, media, syntaxes, README, CHANGELOG and LICENSE', () => {
    const entries = zipEntries(VSIX).filter((e) => e.startsWith('extension/')).map((e) => e.slice('extension/'.length));
    const unexpected = entries.filter((e) => !ALLOWED.some((re) => re.test(e)));
    expect(unexpected).toEqual([]);
    for (const r of REQUIRED) expect(entries).toContain(r);
    // The Marketplace page: how to install and use the extension, not how to develop prefixlint.
    const readme = zipText(VSIX, 'extension/readme.md');
    expect(readme).toBe(fs.readFileSync(path.join(ROOT, 'docs', 'vscode-readme.md'), 'utf8'));
    expect(readme).not.toMatch(/npm (ci|test|run)/);
    const size = fs.statSync(VSIX).size;
    timings.push(`vsix: ${(size / 1024).toFixed(0)} KiB, ${entries.length} files`);
  });

  it('shows squiggles on the CLI lines, the token CodeLens, applies a quick fix and fix all', async () => {
    const page = await browser!.newPage({ viewport: { width: 1500, height: 1500 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    try {
      let t = Date.now();
      await page.goto(`${server!.url}/?folder=${encodeURIComponent(ws)}`, { waitUntil: 'domcontentloaded' });
      await page.waitForSelector('.monaco-workbench', { timeout: 120_000 });
      await page.locator('.explorer-folders-view .monaco-list-row').first().waitFor({ timeout: 120_000 });
      mark('workbench ready', t);

      // 1. squiggles where the CLI reports findings, and nowhere else (in a file with a safe fix, for step 3)
      const file = findings.find((f) => f.cell === undefined && f.fix?.applicability === 'safe' && f.fix.edits[0]?.newText)?.file ?? 'python/support_agent.py';
      t = Date.now();
      await openFile(page, file);
      mark('quick open of the first file', t);
      t = Date.now();
      const want = findings.filter((f) => f.file === file);
      expect(want.length).toBeGreaterThan(0);
      const lines = await page.waitForFunction(
        (expected: number[]) => {
          const ed = document.querySelector('.editor-instance .monaco-editor');
          if (!ed) return undefined;
          const tops = new Map<string, number>();
          for (const d of ed.querySelectorAll('.margin-view-overlays > div')) {
            const n = d.querySelector('.line-numbers');
            if (n) tops.set(d.style.top, Number(n.textContent));
          }
          const found = new Set<number>();
          for (const d of ed.querySelectorAll('.view-overlays > div')) {
            if (d.querySelector('[class*="squiggly-"]') && tops.has(d.style.top)) found.add(tops.get(d.style.top)!);
          }
          return expected.every((l) => found.has(l)) ? [...found].sort((a, b) => a - b) : undefined;
        },
        want.map((f) => f.line),
        { timeout: 60_000, polling: 100 },
      );
      const squiggled = (await lines.jsonValue()) as number[];
      mark('first squiggles after the editor opened (activation + analysis + render)', t);
      for (const l of squiggled) expect(want.some((f) => f.line <= l && l <= f.endLine), `squiggle on line ${l} without a finding`).toBe(true);
      const problems = await page.locator('[id="status.problems"]').first().getAttribute('aria-label');
      log(`status bar problems: ${problems}; squiggled lines ${squiggled.join(', ')}`);

      // 2. the token CodeLens
      const lens = page.locator('.monaco-editor .codelens-decoration', { hasText: 'tokens:' }).first();
      await lens.waitFor({ timeout: 60_000 });
      const lensText = await lens.innerText();
      expect(lensText).toMatch(/≈ [\d,]+\+? tokens: tools [\d,]+ · system [\d,]+ · messages [\d,]+ \| /);
      log(`CodeLens: ${lensText}`);
      const status = await page.locator('.statusbar-item', { hasText: 'prefixlint' }).first().innerText();
      expect(status).toMatch(/prefixlint: \d+/);

      // 3. a quick fix (Ctrl+. at the finding, Enter on the preferred fix) changes the text
      const fixable = want.find((f) => f.fix?.applicability === 'safe' && f.fix.edits[0]?.newText);
      expect(fixable, 'a finding with a safe fix in the example').toBeDefined();
      const squiggleSelector = '.editor-instance .monaco-editor .view-overlays [class*="squiggly-"]';
      const before = await page.locator(squiggleSelector).count();
      const row = page.locator('.action-widget .monaco-list-row', { hasText: fixable!.fix!.title }).first();
      // On a loaded machine the menu can open before the code actions arrive, or the cursor can
      // land before the editor took the Go to Line: the menu is closed and asked for again.
      for (let attempt = 1; ; attempt++) {
        await goTo(page, fixable!.line, fixable!.column);
        await page.keyboard.press('Control+.');
        try {
          await row.waitFor({ state: 'visible', timeout: 20_000 });
          break;
        } catch (err) {
          if (attempt >= 3) throw err;
          log(`quick fix menu without "${fixable!.fix!.title}" (attempt ${attempt}); asking again`);
          await page.keyboard.press('Escape');
        }
      }
      await row.click();
      const newText = fixable!.fix!.edits[0].newText.trim().replace(/^[,\s]+/, '');
      await page.locator('.editor-instance .view-line', { hasText: newText }).first().waitFor({ timeout: 30_000 });
      log(`quick fix applied: "${fixable!.fix!.title}"`);
      // the squiggle of the fixed finding goes away, the others stay
      await page.waitForFunction(([sel, n]) => document.querySelectorAll(sel as string).length < (n as number), [squiggleSelector, before], { timeout: 30_000, polling: 100 });
      fs.mkdirSync(OUTPUT, { recursive: true });
      await page.mouse.move(0, 0);
      await page.screenshot({ path: path.join(OUTPUT, 'e2e-code-server.png') });

      // 4. fix all (command palette), saved: the file equals the CLI's --fix output
      const target = [...new Set(findings.filter((f) => f.cell === undefined && f.fix?.applicability === 'safe').map((f) => f.file))].find((f) => f !== file)!;
      const expected = cliFixed(ws, target);
      await openFile(page, target);
      await page.locator('.editor-instance .monaco-editor .view-overlays [class*="squiggly-"]').first().waitFor({ timeout: 60_000 });
      await runCommand(page, 'prefixlint: Fix All Safe Problems in This File');
      await page.keyboard.press('Control+S');
      await until(`${target} saved with the fixes`, 30_000, () => fs.readFileSync(path.join(ws, target), 'utf8') === expected);
      log(`fix all applied and saved: ${target}`);

      // 5. in a notebook, the status bar counts the findings of all its cells
      const notebook = [...new Set(findings.filter((f) => f.cell !== undefined).map((f) => f.file))][0];
      expect(notebook, 'a notebook among the examples').toBeDefined();
      const inNotebook = findings.filter((f) => f.file === notebook).length;
      // Opened as the other files are (openFile: a quick open that picked nothing is tried again;
      // on a loaded machine an Enter once left the previous file in front).
      await openFile(page, notebook!, false);
      await page.locator('.statusbar-item', { hasText: `prefixlint: ${inNotebook}` }).first().waitFor({ timeout: 60_000 });
      log(`status bar in ${notebook}: prefixlint: ${inNotebook}`);
      expect(errors.filter((e) => /prefixlint/i.test(e))).toEqual([]);
      // Before the window closes: its shutdown cancels requests in flight, which the host logs.
      logCheck = checkLogs(server!.userData);
    } catch (err) {
      fs.mkdirSync(OUTPUT, { recursive: true });
      await page.screenshot({ path: path.join(OUTPUT, 'e2e-code-server-failure.png') }).catch(() => undefined);
      throw err;
    } finally {
      await page.close();
    }
  }, 600_000);

  it('activates with no error in the output channel or the extension host log', () => {
    expect(logCheck, 'the UI test did not get far enough to read the logs').toBeDefined();
    const c = logCheck!;
    expect(c.activated, `no activation line in the prefixlint log:\n${c.sample}`).toBeDefined();
    timings.push(`activation (client; the server starts in the background): ${c.activated} ms; server ready (WASM loaded): ${c.ready ?? '?'} ms`);
    log(timings[timings.length - 1]);
    expect(c.errors).toEqual([]);
  });

  it('passes the extension-host suite in code-server (smoke-test driver)', async () => {
    const t = Date.now();
    const suiteDir = fs.mkdtempSync(path.join(os.tmpdir(), 'prefixlint-suite-'));
    temps.push(suiteDir);
    const esbuild = await import('esbuild');
    await esbuild.build({ entryPoints: [path.join(__dirname, 'suite', 'index.ts')], outfile: path.join(suiteDir, 'index.js'), bundle: true, platform: 'node', format: 'cjs', target: 'node20', external: ['vscode'], logLevel: 'warning' });
    const suiteWs = fs.mkdtempSync(path.join(os.tmpdir(), 'prefixlint-suite-ws-'));
    temps.push(suiteWs);
    copyTree(path.join(ROOT, 'examples'), suiteWs);
    const all = cliFindings(suiteWs);
    const fixable = [...new Set(all.filter((f) => f.cell === undefined && f.fix?.applicability === 'safe').map((f) => f.file))];
    // A configuration the suite writes into the workspace while the editor is open: what the CLI reports with it.
    const first = all.find((f) => f.cell === undefined)!;
    const other = all.find((f) => f.file === first.file && f.ruleId !== first.ruleId);
    const config = { ignore: [first.ruleId], ...(other ? { rules: { [other.ruleId]: other.severity === 'info' ? 'error' : 'info' } } : {}) };
    const configured = fs.mkdtempSync(path.join(os.tmpdir(), 'prefixlint-suite-config-'));
    temps.push(configured);
    copyTree(suiteWs, configured);
    fs.writeFileSync(path.join(configured, '.prefixlintrc.json'), JSON.stringify(config));
    const withConfig = { file: first.file, config, findings: cliFindings(configured).filter((f) => f.file === first.file) };
    // The bundled example's headline finding: a time built in prompts.py, fixed across both files.
    const headline = cliFindings(suiteWs, '--unsafe-fixes').find((f) => f.ruleId === 'volatile-system-prompt' && (f.fix?.files?.length ?? 0) > 1);
    const across = headline && { file: headline.file, rule: headline.ruleId, line: headline.line, column: headline.column, endLine: headline.endLine, endColumn: headline.endColumn, title: headline.fix!.title, texts: cliFixedAcross(suiteWs, headline.ruleId, headline.fix!.files!.map((x) => x.file)) };
    fs.writeFileSync(path.join(suiteDir, 'expected.json'), JSON.stringify({ findings: all, fixed: Object.fromEntries(fixable.map((f) => [f, cliFixed(suiteWs, f)])), withConfig, across }));

    const page = await browser!.newPage();
    const lines: string[] = [];
    let done: (code: number) => void = () => undefined;
    const exited = new Promise<number>((resolve) => (done = resolve));
    await page.exposeFunction('codeAutomationLog', (_type: string, args: unknown[]) => lines.push(args.map(String).join(' ')));
    await page.exposeFunction('codeAutomationExit', (code: number) => done(code));
    page.on('console', (m) => {
      const text = m.text().replace(/%c/g, '');
      if (!/E2E (PASS|FAIL)|\d+ passed, \d+ failed/.test(text)) return;
      const line = text.replace(/^.*?(E2E |\d+ passed)/, '$1');
      if (!lines.includes(line)) log(line.split('\n')[0]);
      lines.push(line);
    });
    const authority = new URL(server!.url).host;
    const payload = [
      ['extensionDevelopmentPath', `vscode-remote://${authority}${ROOT}`],
      ['extensionTestsPath', `vscode-remote://${authority}${path.join(suiteDir, 'index.js')}`],
    ];
    await page.goto(`${server!.url}/?folder=${encodeURIComponent(suiteWs)}&payload=${encodeURIComponent(JSON.stringify(payload))}`);
    const code = await Promise.race([exited, new Promise<number>((_, reject) => setTimeout(() => reject(new Error(`the extension-host suite did not finish:\n${lines.join('\n')}`)), 300_000))]);
    await page.close();
    const report = [...new Set(lines)].filter((l) => /E2E (PASS|FAIL)|passed, \d+ failed/.test(l));
    mark('extension-host suite', t);
    expect(report.filter((l) => l.includes('E2E FAIL'))).toEqual([]);
    expect(report.some((l) => /^\d+ passed, 0 failed/.test(l))).toBe(true);
    expect(code).toBe(0);
  }, 400_000);
});

/** Opens a file by quick open; a text file's editor is then waited for (a notebook has its own, which its caller waits on). */
async function openFile(page: Page, rel: string, textEditor = true): Promise<void> {
  const name = path.basename(rel);
  const active = page.locator('.tabs-container .tab.active', { hasText: name });
  // Quick open fills its list in two passes (recent files, then the file search); an Enter that
  // lands between them can pick nothing. The user would simply try again, and so does the test.
  for (let attempt = 1; ; attempt++) {
    await page.locator('.monaco-workbench').click({ position: { x: 700, y: 400 } }).catch(() => undefined);
    await page.keyboard.press('Control+P');
    await page.waitForSelector('.quick-input-widget input', { state: 'visible', timeout: 20_000 });
    await page.keyboard.type(rel, { delay: 10 });
    const row = page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first();
    await row.waitFor({ timeout: 20_000 });
    await row.click();
    try {
      await active.waitFor({ timeout: 10_000 });
      break;
    } catch (err) {
      if (attempt === 3) throw err;
      await page.keyboard.press('Escape');
    }
  }
  if (textEditor) await page.waitForSelector('.editor-instance .monaco-editor .view-lines', { timeout: 30_000 });
}

async function goTo(page: Page, line: number, column: number): Promise<void> {
  await page.keyboard.press('Control+G');
  await page.waitForSelector('.quick-input-widget input', { state: 'visible', timeout: 20_000 });
  await page.keyboard.type(`${line}:${column}`, { delay: 10 });
  await page.keyboard.press('Enter');
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 20_000 });
}

async function runCommand(page: Page, title: string): Promise<void> {
  await page.keyboard.press('F1');
  await page.waitForSelector('.quick-input-widget input', { state: 'visible', timeout: 20_000 });
  await page.keyboard.type(title, { delay: 10 });
  await page.locator('.quick-input-list .monaco-list-row', { hasText: title.replace(/^prefixlint: /, '') }).first().waitFor({ timeout: 20_000 });
  await page.keyboard.press('Enter');
}
