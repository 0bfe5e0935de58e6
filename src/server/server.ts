/**
 * The prefixlint language server over an LSP connection (stdio, IPC, or in-process streams in
 * tests). Pull diagnostics, code actions (fixes, suppressions, docs, fix-all), token-count
 * CodeLens (estimate, or exact via count_tokens), hovers, and a few commands. Every document
 * and notebook is analysed as a Unit (see units.ts); results are cached per content and per
 * "generation", which moves whenever any file changes, so cross-file values are re-resolved.
 */
import type {
  CancellationToken,
  CodeAction,
  CodeLens,
  Connection,
  DocumentDiagnosticReport,
  InitializeResult,
  Diagnostic as LspDiagnostic,
  WorkspaceEdit,
} from 'vscode-languageserver';
import {
  CodeActionKind,
  CodeLensRefreshRequest,
  FileChangeType,
  MessageType,
  NotebookCellKind,
  NotebookDocuments,
  ShowMessageNotification,
  TextDocumentSyncKind,
  TextDocuments,
} from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { FileResult, SourceHost } from '../engine/analyzer';
import { Analyzer } from '../engine/analyzer';
import { openDocument } from '../engine/document';
import { discoverFiles } from '../host/files';
import { readSource } from '../host/source';
import type { RequestCall } from '../core/model';
import type { Tree } from '../lang/parsers';
import { docsUrl } from '../core/rule';
import { requestJson } from '../core/tokens';
import { VirtualPython } from '../lang/notebook';
import { loadKnownNames } from '../core/knownNames';
import type { KnownNames } from '../core/knownNames';
import { allRules } from '../rules';
import { commentAnchor, fixToFixpoint, MAX_FIX_PASSES, minimalEdit, quickFixes, safeFixEdits } from './codeActions';
import { breakdownMarkdown, breakdownText, estimate, lensTitle } from './codeLens';
import type { ExactView } from './codeLens';
import { RuleFilter, SEVERITY, toLspDiagnostics } from './convert';
import type { TextLookup } from './convert';
import { diffMarkdown } from './diff';
import { ruleMarkdown, rulesMarkdown } from './docs';
import { ExactCounter } from './exactTokens';
import type { ExactOptions } from './exactTokens';
import { callHover, diagnosticHover } from './hover';
import { CLIENT_COMMANDS, FIX_ALL_KIND, MARKDOWN, SERVER_COMMANDS, SET_API_KEY, SET_TRUST, STATUS } from './protocol';
import type { InitializationOptions, MarkdownParams, SetApiKeyParams, SetTrustParams, StatusParams, WireEdit } from './protocol';
import { effectiveSettings, NO_PROJECT_CONFIG } from './settings';
import type { ProjectConfigLoader, Settings } from './settings';
import { DocumentUnit, LANGUAGES, NotebookUnit, pathOf, uriOf } from './units';
import type { Unit } from './units';

export interface ServerOptions {
  /** Folder with the tree-sitter WASM files (default: beside the bundle, then node_modules). */
  wasmDir?: string;
  /** Reads the project's configuration file (issue 4); none by default. */
  projectConfig?: ProjectConfigLoader;
  /** Quiet time after a change before it is analysed (ms). */
  debounceMs?: number;
  /** Overrides for exact counts (tests point baseURL at a local server). */
  exact?: Partial<Pick<ExactOptions, 'baseURL' | 'debounceMs' | 'timeoutMs' | 'retryFailedAfterMs'>>;
  /** Where ANTHROPIC_API_KEY is read from (default: process.env). */
  env?: Record<string, string | undefined>;
}

interface Analysis {
  id: string;
  unit: Unit;
  settings: Settings;
  result: FileResult;
  filter: RuleFilter;
  byUri: Map<string, LspDiagnostic[]>;
}

interface LensData {
  uri: string;
  index: number;
}

const NOTEBOOK_TYPE = 'jupyter-notebook';


export function startServer(connection: Connection, options: ServerOptions = {}): { dispose(): void } {
  const documents = new TextDocuments(TextDocument);
  const notebooks = new NotebookDocuments(TextDocument);
  const env = options.env ?? process.env;
  const projectConfig = options.projectConfig ?? NO_PROJECT_CONFIG;
  const debounceMs = options.debounceMs ?? 150;

  let analyzer: Analyzer | undefined;
  const known = loadKnownNames();
  let trusted = true;
  let secretKey: string | null = null;
  let canPullConfig = false;
  let canRefreshLenses = false;
  let canRefreshDiagnostics = false;
  /** The client asks for diagnostics (LSP 3.17 pull); others get them pushed (publishDiagnostics). */
  let pullDiagnostics = false;
  let canShowDocument = false;
  let clientCommands = new Set<string>();
  let hoverShowsDiagnostics = false;
  let generation = 0;
  const settingsCache = new Map<string, Promise<Settings>>();
  /** Known names per document: the table, the project's configuration and its own SDKs. */
  const knownCache = new Map<string, KnownNames>();
  const analyses = new Map<string, Analysis>();
  /** What was last analysed when linting on save: the text at open or at the last save. */
  const saved = new Map<string, Unit>();
  /** Files whose diagnostics were pushed by "lint workspace" (not open). */
  const pushed = new Set<string>();
  const warnedNames = new Set<string>();
  const openNotebooks = new Set<string>();

  const log = (m: string) => connection.console.log(m);
  const status = (p: StatusParams) => void connection.sendNotification(STATUS, p);

  const openDocByPath = (file: string): TextDocument | undefined => documents.all().find((d) => pathOf(d.uri, LANGUAGES[d.languageId]) === file);
  const host: SourceHost = {
    readFile(file) {
      const open = openDocByPath(file);
      if (open) return open.getText();
      const r = readSource(file);
      return 'text' in r ? r.text : undefined;
    },
  };
  const texts: TextLookup = {
    lookup(file) {
      const open = openDocByPath(file);
      if (open) return { uri: open.uri, text: open.getText() };
      const r = readSource(file);
      return 'text' in r ? { uri: uriOf(file), text: r.text } : undefined;
    },
  };

  let rpm = 20;
  const exact = new ExactCounter({
    apiKey: () => secretKey ?? env.ANTHROPIC_API_KEY ?? undefined,
    requestsPerMinute: () => rpm,
    log,
    onSettled: () => refreshLenses(),
    ...options.exact,
  });

  const refreshLenses = () => {
    if (canRefreshLenses) void connection.sendRequest(CodeLensRefreshRequest.type);
  };
  const refreshDiagnostics = () => {
    if (canRefreshDiagnostics) void connection.languages.diagnostics.refresh();
  };

  // ------------------------------------------------------------------------------ units

  function notebookUnit(notebookUri: string): NotebookUnit | undefined {
    const nb = notebooks.getNotebookDocument(notebookUri);
    if (!nb) return undefined;
    const cells = nb.cells.flatMap((cell, index) => {
      const document = cell.kind === NotebookCellKind.Code ? notebooks.getCellTextDocument(cell) : undefined;
      return document && document.languageId === 'python' ? [{ index, document }] : [];
    });
    return new NotebookUnit(nb.uri, cells);
  }

  function unitFor(uri: string): Unit | undefined {
    const nb = notebooks.findNotebookDocumentForCell(uri);
    if (nb) return notebookUnit(nb.uri);
    const doc = documents.get(uri);
    const language = doc && LANGUAGES[doc.languageId];
    return doc && language ? new DocumentUnit(doc, language) : undefined;
  }

  function snapshot(unit: Unit): Unit {
    const copy = (d: TextDocument) => TextDocument.create(d.uri, d.languageId, d.version, d.getText());
    if (unit instanceof DocumentUnit) return new DocumentUnit(copy(unit.doc), unit.language);
    const nb = notebooks.getNotebookDocument(unit.uri);
    const cells = unit.documents.map((d) => ({ index: nb?.cells.findIndex((c) => c.document === d.uri) ?? 0, document: copy(d) }));
    return new NotebookUnit(unit.uri, cells);
  }

  function version(uri: string): number | undefined {
    const doc = documents.get(uri) ?? notebooks.cellTextDocuments.get(uri);
    return doc?.version;
  }

  // ------------------------------------------------------------------------------ settings

  function knownFor(uri: string, file: string): KnownNames {
    let k = knownCache.get(uri);
    if (!k) {
      k = projectConfig.known?.(file) ?? known;
      knownCache.set(uri, k);
    }
    return k;
  }

  function settingsFor(unit: Unit): Promise<Settings> {
    let s = settingsCache.get(unit.uri);
    if (!s) {
      const editor = canPullConfig
        ? connection.workspace.getConfiguration({ scopeUri: unit.uri, section: 'prefixlint' }).then(
            (v: unknown) => v as Record<string, unknown>,
            () => undefined,
          )
        : Promise.resolve(undefined);
      s = editor.then((e) => effectiveSettings(e, projectConfig.load(unit.file)));
      settingsCache.set(unit.uri, s);
    }
    return s;
  }

  // ------------------------------------------------------------------------------ analysis

  function analysisId(unit: Unit, settings: Settings): string {
    return `${unit.key}#${generation}#${JSON.stringify(settings)}`;
  }

  async function analyse(unit: Unit): Promise<Analysis | undefined> {
    const settings = await settingsFor(unit);
    if (!analyzer) return undefined;
    const id = analysisId(unit, settings);
    const cached = analyses.get(unit.uri);
    if (cached?.id === id) return cached;
    const t0 = performance.now();
    const result = analyzer.analyze(unit.file, unit.text, unit.language, { known: knownFor(unit.uri, unit.file) });
    const ms = performance.now() - t0;
    if (ms > 500) log(`analysed ${unit.file} in ${ms.toFixed(0)} ms`);
    if (result.notice?.startsWith('internal error')) {
      connection.console.error(`${unit.file}: ${result.notice}`);
      status({ state: 'error', message: result.notice });
    }
    const filter = new RuleFilter(allRules, settings);
    for (const name of filter.unknownNames) {
      if (warnedNames.has(name)) continue;
      warnedNames.add(name);
      connection.console.warn(`unknown rule or group '${name}' in the prefixlint settings`);
    }
    const analysis: Analysis = { id, unit, settings, result, filter, byUri: toLspDiagnostics(unit, result.diagnostics, filter, texts) };
    analyses.set(unit.uri, analysis);
    return analysis;
  }

  function quiet(ms: number, token: CancellationToken): Promise<boolean> {
    return new Promise((resolve) => {
      const sub = token.onCancellationRequested(() => {
        clearTimeout(timer);
        resolve(false);
      });
      const timer = setTimeout(() => {
        sub.dispose();
        resolve(true);
      }, ms);
    });
  }

  async function diagnosticsFor(uri: string, previousResultId: string | undefined, token: CancellationToken): Promise<DocumentDiagnosticReport> {
    const empty: DocumentDiagnosticReport = { kind: 'full', items: [] };
    let unit = unitFor(uri);
    if (!unit || !analyzer) return empty;
    const settings = await settingsFor(unit);
    if (!settings.enable) return empty;
    if (settings.run === 'onSave') {
      unit = saved.get(unit.uri) ?? unit;
    } else if (analyses.get(unit.uri)?.id !== analysisId(unit, settings)) {
      const last = analyses.get(unit.uri)?.byUri.get(uri) ?? [];
      if (!(await quiet(debounceMs, token))) return { kind: 'full', items: last };
      unit = unitFor(uri);
      if (!unit) return empty;
    }
    const wasCached = analyses.get(unit.uri)?.id === analysisId(unit, settings);
    const a = await analyse(unit);
    if (!a) return empty;
    // A change in one cell can change the findings of another: have the client pull them all.
    if (!wasCached && unit instanceof NotebookUnit) refreshDiagnostics();
    if (previousResultId === a.id) return { kind: 'unchanged', resultId: a.id };
    return { kind: 'full', resultId: a.id, items: a.byUri.get(uri) ?? [] };
  }

  // ------------------------------------------------------------------------------ push diagnostics

  /** Units (by URI) to analyse and push to a client that does not pull, in order. */
  const pushQueue = new Set<string>();
  let pushTimer: ReturnType<typeof setTimeout> | undefined;
  let pushing: Promise<void> = Promise.resolve();
  /** Document URIs whose diagnostics were pushed, so that closing or turning off clears them. */
  const published = new Set<string>();

  function openUnitUris(): string[] {
    return [...documents.all().filter((d) => LANGUAGES[d.languageId]).map((d) => d.uri), ...openNotebooks];
  }

  /**
   * Pushes fresh diagnostics for these units after the quiet time, the first one first: a change
   * in one file can change the findings of the files that import it, so every open unit follows.
   */
  function schedulePush(first: string | undefined, all: boolean): void {
    if (pullDiagnostics) return;
    if (first) pushQueue.add(first);
    if (all) for (const uri of openUnitUris()) pushQueue.add(uri);
    if (pushTimer) clearTimeout(pushTimer);
    pushTimer = setTimeout(() => {
      pushTimer = undefined;
      const uris = [...pushQueue];
      pushQueue.clear();
      pushing = pushing.then(() => pushUnits(uris)).catch((err: unknown) => connection.console.error(`prefixlint: pushing diagnostics failed: ${String(err)}`));
    }, debounceMs);
  }

  async function pushUnits(uris: readonly string[]): Promise<void> {
    for (const uri of uris) {
      let unit = notebooks.getNotebookDocument(uri) ? notebookUnit(uri) : unitFor(uri);
      if (!unit || !analyzer) continue;
      const settings = await settingsFor(unit);
      if (!settings.enable) {
        for (const d of unit.documents) clearPushed(d.uri);
        continue;
      }
      if (settings.run === 'onSave') unit = saved.get(unit.uri) ?? unit;
      const a = await analyse(unit);
      if (!a) continue;
      for (const [docUri, items] of a.byUri) {
        published.add(docUri);
        void connection.sendDiagnostics({ uri: docUri, version: a.unit.versions[docUri], diagnostics: items });
      }
    }
  }

  function clearPushed(uri: string): void {
    if (published.delete(uri)) void connection.sendDiagnostics({ uri, diagnostics: [] });
  }

  /**
   * The diagnostics a code action is asked for, with their `data`: a client that drops it
   * (it should keep it, LSP 3.16) gets it back from the analysis of the current text.
   */
  function withData(uri: string, diagnostics: readonly LspDiagnostic[], unit: Unit): LspDiagnostic[] {
    const current = analyses.get(unit.uri)?.byUri.get(uri) ?? [];
    const same = (a: LspDiagnostic, b: LspDiagnostic) =>
      a.code === b.code && a.message === b.message && a.range.start.line === b.range.start.line && a.range.start.character === b.range.start.character && a.range.end.line === b.range.end.line && a.range.end.character === b.range.end.character;
    return diagnostics.map((d) => (d.data === undefined && d.source === 'prefixlint' ? (current.find((c) => same(c, d)) ?? d) : d));
  }

  // ------------------------------------------------------------------------------ fix all

  async function fixAllEdit(uri: string): Promise<WorkspaceEdit | undefined> {
    const unit = unitFor(uri);
    if (!unit || !analyzer) return undefined;
    if (unit instanceof DocumentUnit) {
      const a = await analyse(unit);
      if (!a) return undefined;
      const engine = analyzer;
      const withKnown = { known: knownFor(unit.uri, unit.file) };
      const fixed = fixToFixpoint({ analyze: (f, t, l) => engine.analyze(f, t, l, withKnown), parsesCleanly: (f, t, l) => engine.parsesCleanly(f, t, l) }, unit.file, unit.text, unit.language, (d) => a.filter.level(d) !== 'off');
      // The intermediate texts were analysed under the file's name; the open buffer is what counts.
      analyzer.invalidate(unit.file);
      analyses.delete(unit.uri);
      const edit = minimalEdit(unit.doc, fixed);
      return { changes: { [uri]: edit ? [edit] : [] } };
    }
    // A notebook: fix the cell sources to a fixpoint, then one minimal edit per changed cell.
    const a = await analyse(unit);
    if (!a) return undefined;
    const nb = notebooks.getNotebookDocument(unit.uri);
    const cells = unit.documents.map((d) => ({ index: nb?.cells.findIndex((c) => c.document === d.uri) ?? -1, source: d.getText(), doc: d }));
    for (let pass = 0; pass < MAX_FIX_PASSES; pass++) {
      const virtual = VirtualPython.build(cells);
      const result = pass === 0 ? a.result : analyzer.analyze(unit.file, virtual.text, 'python', { known: knownFor(unit.uri, unit.file) });
      const byCell = virtual.toCellEdits(safeFixEdits(result.diagnostics, (d) => a.filter.level(d) !== 'off'));
      if (!byCell?.size) break;
      for (const cell of cells) {
        const edits = [...(byCell.get(cell.index) ?? [])].sort((x, y) => y.start - x.start);
        for (const e of edits) cell.source = cell.source.slice(0, e.start) + e.newText + cell.source.slice(e.end);
      }
    }
    analyzer.invalidate(unit.file);
    analyses.delete(unit.uri);
    const changes: Record<string, WireEdit[]> = {};
    for (const cell of cells) {
      const edit = minimalEdit(cell.doc, cell.source);
      if (edit) changes[cell.doc.uri] = [edit];
    }
    return { changes };
  }

  // ------------------------------------------------------------------------------ lint workspace

  async function lintWorkspace(): Promise<{ files: number; problems: number }> {
    const folders = (await connection.workspace.getWorkspaceFolders()) ?? [];
    let files = 0;
    let problems = 0;
    for (const uri of pushed) void connection.sendDiagnostics({ uri, diagnostics: [] });
    pushed.clear();
    for (const folder of folders) {
      const root = pathOf(folder.uri);
      const editor = canPullConfig
        ? await connection.workspace.getConfiguration({ scopeUri: folder.uri, section: 'prefixlint' }).then((v: unknown) => v as Record<string, unknown>, () => undefined)
        : undefined;
      for (const file of discoverFiles([root], root).files) {
        const uri = uriOf(file);
        if (documents.get(uri) || notebooks.getNotebookDocument(uri) || !analyzer) continue;
        const read = readSource(file);
        if (!('text' in read)) continue;
        const doc = openDocument(file, read.text);
        if ('notice' in doc) continue;
        const settings = effectiveSettings(editor, projectConfig.load(file));
        if (!settings.enable) continue;
        const filter = new RuleFilter(allRules, settings);
        const result = analyzer.analyze(file, doc.analysedText, doc.language, { known: projectConfig.known?.(file) ?? known });
        const items: LspDiagnostic[] = [];
        for (const d of result.diagnostics) {
          const level = filter.level(d);
          if (level === 'off') continue;
          const s = doc.locate(d.at.start);
          const e = doc.locate(d.at.end);
          items.push({
            range: { start: { line: s.line, character: s.column }, end: { line: e.line, character: e.column } },
            severity: SEVERITY[level],
            code: d.ruleId,
            codeDescription: { href: docsUrl(d.ruleId) },
            source: 'prefixlint',
            message: d.message,
          });
        }
        files++;
        problems += items.length;
        if (items.length) {
          pushed.add(uri);
          void connection.sendDiagnostics({ uri, diagnostics: items });
        }
      }
    }
    return { files, problems };
  }

  // ------------------------------------------------------------------------------ lenses

  function exactView(uri: string, index: number, call: RequestCall, settings: Settings, model: string | undefined): ExactView | undefined {
    if (settings.tokens.mode !== 'exact') return undefined;
    if (!trusted) return { state: { kind: 'failed', reason: 'off in untrusted workspaces' }, placeholders: 0 };
    const { body, placeholders } = requestJson(call);
    if (!model) return { state: { kind: 'failed', reason: 'the model is not known statically (set prefixlint.tokens.model)' }, placeholders: 0 };
    rpm = settings.tokens.requestsPerMinute;
    return { state: exact.state(`${uri}#${index}`, body, model, call.beta), placeholders: placeholders.length };
  }

  function callsIn(a: Analysis, uri: string): RequestCall[] {
    return a.result.calls.filter((c) => a.unit.position(c.at.start)?.uri === uri);
  }

  // ------------------------------------------------------------------------------ handlers

  connection.onInitialize(async (params): Promise<InitializeResult> => {
    const t0 = performance.now();
    const init = (params.initializationOptions ?? {}) as InitializationOptions;
    trusted = init.trusted !== false;
    clientCommands = new Set(Array.isArray(init.clientCommands) ? init.clientCommands : []);
    hoverShowsDiagnostics = init.hoverShowsDiagnostics === true;
    canPullConfig = !!params.capabilities.workspace?.configuration;
    canRefreshLenses = !!params.capabilities.workspace?.codeLens?.refreshSupport;
    canRefreshDiagnostics = !!params.capabilities.workspace?.diagnostics?.refreshSupport;
    pullDiagnostics = !!params.capabilities.textDocument?.diagnostic;
    canShowDocument = !!params.capabilities.window?.showDocument?.support;
    analyzer = await Analyzer.create({ host, wasmDir: options.wasmDir });
    projectConfig.useParsers?.(analyzer.parsers);
    log(`prefixlint server ready in ${(performance.now() - t0).toFixed(0)} ms (Node ${process.version}); diagnostics ${pullDiagnostics ? 'pulled by the client' : 'pushed'}`);
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
        notebookDocumentSync: { notebookSelector: [{ notebook: { notebookType: NOTEBOOK_TYPE }, cells: [{ language: 'python' }] }], save: true },
        diagnosticProvider: { identifier: 'prefixlint', interFileDependencies: true, workspaceDiagnostics: false },
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, FIX_ALL_KIND], resolveProvider: true },
        codeLensProvider: { resolveProvider: true },
        hoverProvider: true,
        executeCommandProvider: { commands: Object.values(SERVER_COMMANDS) },
      },
      serverInfo: { name: 'prefixlint' },
    };
  });

  connection.onInitialized(() => status({ state: 'ready' }));

  const changed = () => {
    generation++;
  };

  /** A buffer changed: other files that import it must see the new text (read through `host`). */
  const bufferChanged = (doc: TextDocument) => {
    analyzer?.invalidate(pathOf(doc.uri, LANGUAGES[doc.languageId]));
    changed();
  };

  /** TextDocuments fires a content change right after each open: that one is no edit. */
  let justOpened: string | undefined;
  documents.onDidOpen((e) => {
    bufferChanged(e.document);
    if (pushed.delete(e.document.uri)) void connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] });
    const unit = unitFor(e.document.uri);
    if (unit) saved.set(unit.uri, snapshot(unit));
    justOpened = e.document.uri;
    schedulePush(e.document.uri, false);
  });
  documents.onDidChangeContent((e) => {
    if (justOpened === e.document.uri) {
      justOpened = undefined;
      return;
    }
    bufferChanged(e.document);
    schedulePush(e.document.uri, true);
  });
  documents.onDidSave((e) => {
    const unit = unitFor(e.document.uri);
    if (unit) saved.set(unit.uri, snapshot(unit));
    changed();
    schedulePush(e.document.uri, true);
  });
  documents.onDidClose((e) => {
    changed();
    settingsCache.delete(e.document.uri);
    knownCache.delete(e.document.uri);
    analyses.delete(e.document.uri);
    saved.delete(e.document.uri);
    pushQueue.delete(e.document.uri);
    clearPushed(e.document.uri);
    analyzer?.invalidate(pathOf(e.document.uri, LANGUAGES[e.document.languageId]));
  });
  notebooks.onDidOpen((nb) => {
    changed();
    openNotebooks.add(nb.uri);
    const unit = notebookUnit(nb.uri);
    if (unit) saved.set(nb.uri, snapshot(unit));
    schedulePush(nb.uri, false);
  });
  notebooks.onDidChange((e) => {
    changed();
    schedulePush(e.notebookDocument.uri, true);
  });
  notebooks.onDidSave((nb) => {
    const unit = notebookUnit(nb.uri);
    if (unit) saved.set(nb.uri, snapshot(unit));
    changed();
    schedulePush(nb.uri, true);
  });
  notebooks.onDidClose((nb) => {
    changed();
    openNotebooks.delete(nb.uri);
    settingsCache.delete(nb.uri);
    knownCache.delete(nb.uri);
    analyses.delete(nb.uri);
    saved.delete(nb.uri);
    pushQueue.delete(nb.uri);
    for (const cell of nb.cells) clearPushed(cell.document);
    analyzer?.invalidate(pathOf(nb.uri));
  });

  connection.onDidChangeWatchedFiles((p) => {
    for (const c of p.changes) {
      const file = pathOf(c.uri);
      if (!openDocByPath(file)) analyzer?.invalidate(file);
      if (c.type === FileChangeType.Deleted) pushed.delete(c.uri);
    }
    changed();
    refreshDiagnostics();
    refreshLenses();
    schedulePush(undefined, true);
  });

  connection.onDidChangeConfiguration(() => {
    settingsCache.clear();
    knownCache.clear();
    analyses.clear();
    refreshDiagnostics();
    refreshLenses();
    schedulePush(undefined, true);
  });

  connection.languages.diagnostics.on((p, token) => diagnosticsFor(p.textDocument.uri, p.previousResultId, token));

  connection.onCodeAction(async (p): Promise<CodeAction[]> => {
    const uri = p.textDocument.uri;
    const unit = unitFor(uri);
    const doc = documents.get(uri) ?? notebooks.cellTextDocuments.get(uri);
    if (!unit || !doc || !analyzer) return [];
    const only = p.context.only;
    const out: CodeAction[] = [];
    if (!only || only.some((k) => k === CodeActionKind.QuickFix || CodeActionKind.QuickFix.startsWith(k + '.'))) {
      // Parsed only when a "disable for this line" action needs the comment's place: code
      // actions are asked for on every cursor move, mostly with no prefixlint diagnostic.
      const parsers = analyzer.parsers;
      let tree: Tree | undefined;
      const parsed = () => (tree ??= parsers.parse(unit.language, unit.text));
      out.push(
        ...quickFixes(withData(uri, p.context.diagnostics, unit), {
          doc,
          unit,
          language: unit.language,
          version,
          docs: clientCommands.has(CLIENT_COMMANDS.showDocumentation) ? 'client' : canShowDocument ? 'showDocument' : 'none',
          commentLine(line, character) {
            const offset = unit.offsetAt(uri, line, character);
            if (offset === undefined) return line;
            const anchor = commentAnchor(parsed().rootNode.descendantForIndex(offset), offset);
            const pos = unit.position(anchor);
            return pos && pos.uri === uri ? pos.line : line;
          },
        }),
      );
    }
    if (only?.some((k) => k === 'source' || k === CodeActionKind.SourceFixAll || k === FIX_ALL_KIND)) {
      out.push({ title: 'Fix all safe prefixlint problems', kind: FIX_ALL_KIND, data: { uri } });
    }
    return out;
  });

  connection.onCodeActionResolve(async (action) => {
    const data = action.data as { uri?: string } | undefined;
    if (action.kind === FIX_ALL_KIND && data?.uri) action.edit = await fixAllEdit(data.uri);
    return action;
  });

  connection.onCodeLens(async (p): Promise<CodeLens[]> => {
    const unit = unitFor(p.textDocument.uri);
    if (!unit) return [];
    const settings = await settingsFor(unit);
    if (!settings.enable || settings.tokens.mode === 'off') return [];
    const a = await analyse(unit);
    if (!a) return [];
    return callsIn(a, p.textDocument.uri).map((c, index) => {
      const line = a.unit.position(c.at.start)!.line;
      const data: LensData = { uri: p.textDocument.uri, index };
      return { range: { start: { line, character: 0 }, end: { line, character: 0 } }, data };
    });
  });

  connection.onCodeLensResolve(async (lens) => {
    const data = lens.data as LensData;
    const unit = unitFor(data.uri);
    const a = unit && (await analyse(unit));
    const call = a && callsIn(a, data.uri)[data.index];
    if (!a || !call || !analyzer) return { ...lens, command: { title: '…', command: '' } };
    const e = estimate(call, knownFor(data.uri, unit.file), a.settings);
    const ex = exactView(data.uri, data.index, call, a.settings, e.model);
    const title = lensTitle(e, ex);
    if (clientCommands.has(CLIENT_COMMANDS.showMarkdown)) {
      return { ...lens, command: { title, command: CLIENT_COMMANDS.showMarkdown, arguments: [`tokens-${data.index + 1}`, breakdownMarkdown(call, e, ex)] } };
    }
    // Another editor: the breakdown comes back as a message (and shows in the call's hover).
    return { ...lens, command: { title, command: SERVER_COMMANDS.showTokens, arguments: [data.uri, data.index] } };
  });

  connection.onHover(async (p) => {
    const uri = p.textDocument.uri;
    const unit = unitFor(uri);
    const a = unit && (await analyse(unit));
    if (!unit || !a || !analyzer) return null;
    const offset = unit.offsetAt(uri, p.position.line, p.position.character);
    if (offset === undefined) return null;
    const d = a.result.diagnostics.find((x) => x.at.start <= offset && offset <= x.at.end && a.filter.level(x) !== 'off');
    if (d) {
      const where = (r: { at: { file: string; start: number } }) => {
        if (r.at.file === unit.file) {
          const pos = unit.position(r.at.start);
          return pos ? `line ${pos.line + 1}` : 'here';
        }
        const other = texts.lookup(r.at.file);
        const line = other ? other.text.slice(0, r.at.start).split('\n').length : 0;
        return `${r.at.file.split(/[\\/]/).pop()}:${line}`;
      };
      return { contents: { kind: 'markdown', value: diagnosticHover(d, allRules.find((r) => r.meta.id === d.ruleId), where, { repeat: !hoverShowsDiagnostics }) } };
    }
    const call = a.result.calls.find((c) => c.callee.start <= offset && offset <= c.callee.end);
    if (call) {
      const e = estimate(call, knownFor(uri, unit.file), a.settings);
      // Without our token view, the hover carries the breakdown that the lens would open.
      const breakdown = clientCommands.has(CLIENT_COMMANDS.showMarkdown) ? undefined : breakdownMarkdown(call, e);
      return { contents: { kind: 'markdown', value: callHover(call, e) + (breakdown ? `\n\n---\n\n${breakdown}` : '') } };
    }
    return null;
  });

  connection.onExecuteCommand(async (p) => {
    if (p.command === SERVER_COMMANDS.applyFixAll) {
      const uri = String(p.arguments?.[0] ?? '');
      const edit = await fixAllEdit(uri);
      if (edit) await connection.workspace.applyEdit({ label: 'prefixlint: fix all', edit });
      return { applied: !!edit };
    }
    if (p.command === SERVER_COMMANDS.lintWorkspace) return lintWorkspace();
    if (p.command === SERVER_COMMANDS.openRulePage) {
      const rule = allRules.find((r) => r.meta.id === String(p.arguments?.[0] ?? ''));
      if (!rule || !canShowDocument) return { shown: false };
      const r = await connection.window.showDocument({ uri: docsUrl(rule.meta.id), external: true });
      return { shown: r.success };
    }
    if (p.command === SERVER_COMMANDS.showTokens) {
      const [lensUri, index] = [String(p.arguments?.[0] ?? ''), Number(p.arguments?.[1])];
      const unit = unitFor(lensUri);
      const a = unit && (await analyse(unit));
      const call = a && callsIn(a, lensUri)[index];
      if (!a || !call) return undefined;
      const e = estimate(call, known, a.settings);
      const text = breakdownText(call, e, exactView(lensUri, index, call, a.settings, e.model));
      // A notification, which every client shows; showInformationMessage would be a request.
      void connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Info, message: text });
      return { text };
    }
    return undefined;
  });

  connection.onNotification(SET_API_KEY, (p: SetApiKeyParams) => {
    secretKey = p.key || null;
    exact.clear();
    refreshLenses();
  });
  connection.onNotification(SET_TRUST, (p: SetTrustParams) => {
    trusted = p.trusted;
    refreshLenses();
  });
  connection.onRequest(MARKDOWN, (p: MarkdownParams): string => {
    if (p.what === 'rules') return rulesMarkdown(allRules);
    if (p.what.startsWith('rule:')) {
      const rule = allRules.find((r) => r.meta.id === p.what.slice(5));
      return rule ? ruleMarkdown(rule) : `# Unknown rule\n\nNo rule is named \`${p.what.slice(5)}\`.\n`;
    }
    if (p.what === 'diff' && p.texts) return diffMarkdown(p.texts[0], p.texts[1], p.names?.[0], p.names?.[1]);
    return '';
  });

  connection.onShutdown(() => exact.dispose());

  documents.listen(connection);
  notebooks.listen(connection);
  return { dispose: () => exact.dispose() };
}
