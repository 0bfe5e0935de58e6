/**
 * The prefixlint language server over an LSP connection (stdio, IPC, or in-process streams in
 * tests). Pull diagnostics, code actions (fixes, suppressions, docs, fix-all), token-count
 * CodeLens (estimate, or exact via count_tokens), hovers, and a few commands. Every document
 * and notebook is analysed as a Unit (see units.ts) by the engine, with the configuration the
 * CLI would use for the file (engine/config.ts: the project's files, the editor's settings over
 * them). Results are cached per content and per "generation", which moves whenever any file
 * changes, so cross-file values are re-resolved; a changed configuration file (or a project's
 * SDK) makes everything resolve again.
 */
import type {
  CancellationToken,
  CodeAction,
  CodeLens,
  Connection,
  DocumentDiagnosticReport,
  InitializeParams,
  InitializeResult,
  Diagnostic as LspDiagnostic,
  WorkspaceEdit,
} from 'vscode-languageserver';
import {
  CodeActionKind,
  CodeLensRefreshRequest,
  DidChangeWatchedFilesNotification,
  FileChangeType,
  MessageType,
  NotebookCellKind,
  NotebookDocuments,
  ShowMessageNotification,
  TextDocuments,
} from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { loadKnownNames } from '../core/knownNames';
import type { KnownNames } from '../core/knownNames';
import type { RequestCall } from '../core/model';
import { docsUrl } from '../core/rule';
import { requestJson } from '../core/tokens';
import { Analyzer } from '../engine/analyzer';
import type { FileResult } from '../engine/analyzer';
import { affectsConfiguration, ConfigError, Configuration } from '../engine/config';
import type { FileConfig } from '../engine/config';
import { analyzeOptionsFor, openDocument, sourceDocument } from '../engine/document';
import { diffMarkdown } from '../engine/diffReport';
import { rulePage, rulesPage } from '../engine/docs';
import { initializeResult } from './capabilities';
import { fixToFixpoint } from '../engine/fixpoint';
import { allRules, ruleById } from '../engine/registry';
import { discoverFiles } from '../host/files';
import { DiskHost } from '../host/source';
import { minimalEdit, quickFixes } from './codeActions';
import { breakdownMarkdown, breakdownText, estimate, lensTitle } from './codeLens';
import type { ExactView } from './codeLens';
import { toLspDiagnostics } from './convert';
import type { TextLookup } from './convert';
import { ExactCounter } from './exactTokens';
import type { ExactOptions } from './exactTokens';
import { callHover, diagnosticHover } from './hover';
import { heapCollector } from '../host/heap';
import { IdleCollection } from './idleCollection';
import { CLIENT_COMMANDS, CONFIG_FILE_NAMES, FIX_ALL_KIND, MARKDOWN, SERVER_COMMANDS, SET_API_KEY, SET_TRUST, STATUS } from '../shared/protocol';
import type { InitializationOptions, MarkdownParams, SetApiKeyParams, SetTrustParams, StatusParams, WireEdit } from '../shared/protocol';
import { readSettings, unknownNames } from './settings';
import type { Settings } from './settings';
import { ClosedFileUnit, DocumentUnit, LANGUAGES, NotebookUnit, pathOf, uriOf } from './units';
import type { Unit } from './units';

export interface ServerOptions {
  /** Folder with the tree-sitter WASM files (default: beside the bundle, then node_modules). */
  wasmDir?: string;
  /** Quiet time after a change before it is analysed (ms). */
  debounceMs?: number;
  /** Overrides for exact counts (tests point baseURL at a local server). */
  exact?: Partial<Pick<ExactOptions, 'baseURL' | 'debounceMs' | 'timeoutMs' | 'retryFailedAfterMs'>>;
  /** Where ANTHROPIC_API_KEY is read from (default: process.env). */
  env?: Record<string, string | undefined>;
  /**
   * The `initialize` request the client sent, when it has been answered already (with
   * initializeResult) by the code that loaded this server: the server then registers no
   * handler for it and goes on from these parameters.
   */
  initialized?: InitializeParams;
}

interface Analysis {
  id: string;
  unit: Unit;
  settings: Settings;
  /** The file's configuration; undefined when it is broken (nothing is analysed, as in the CLI). */
  config?: FileConfig;
  result: FileResult;
  byUri: Map<string, LspDiagnostic[]>;
}

interface LensData {
  uri: string;
  index: number;
}



export function startServer(connection: Connection, options: ServerOptions = {}): { dispose(): void } {
  const documents = new TextDocuments(TextDocument);
  const notebooks = new NotebookDocuments(TextDocument);
  const env = options.env ?? process.env;
  const debounceMs = options.debounceMs ?? 150;

  let analyzer: Analyzer | undefined;
  /**
   * Settles once the parsers are loaded (started by initialize, which does not wait for them, so
   * that the editor's activation does not): every handler that analyses awaits it first.
   */
  let analyzerLoaded: Promise<void> = Promise.resolve();
  let trusted = true;
  let secretKey: string | null = null;
  let canPullConfig = false;
  let canRefreshLenses = false;
  let canRefreshDiagnostics = false;
  /** The client asks for diagnostics (LSP 3.17 pull); others get them pushed (publishDiagnostics). */
  let pullDiagnostics = false;
  let canShowDocument = false;
  /** The client applies versioned document changes (a fix that edits several files is sent as those). */
  let canApplyDocumentChanges = false;
  /** The workspace folders: a fix that changes a definition other files may use searches them for its uses. */
  let workspaceRoots: string[] = [];
  let clientCommands = new Set<string>();
  let hoverShowsDiagnostics = false;
  /** The client watches files only when asked to (Neovim, Helix, Zed); ours watches them itself. */
  let registerWatchers = false;
  let generation = 0;
  const settingsCache = new Map<string, Promise<Settings>>();
  const analyses = new Map<string, Analysis>();
  /** What an analysis leaves in the young generation is collected after it has answered (idleCollection.ts). */
  const idleCollection = new IdleCollection(heapCollector());
  /** What was last analysed when linting on save: the text at open or at the last save. */
  const saved = new Map<string, Unit>();
  /** Files whose diagnostics were pushed by "lint workspace" (not open). */
  const pushed = new Set<string>();
  const warnedNames = new Set<string>();
  const reportedConfigErrors = new Set<string>();
  const openNotebooks = new Set<string>();

  const log = (m: string) => connection.console.log(m);
  const status = (p: StatusParams) => void connection.sendNotification(STATUS, p);

  /** The URIs of the open text documents, by the path the engine knows them by. */
  const openByPath = new Map<string, string>();
  const openDocByPath = (file: string): TextDocument | undefined => {
    const uri = openByPath.get(file);
    return uri === undefined ? undefined : documents.get(uri);
  };
  /** Files on disk, read afresh each time, with the open buffers standing for their files. */
  const host = new DiskHost({ cache: false, overlay: (file) => openDocByPath(file)?.getText() });
  /** The one configuration path, shared with the CLI (set up once the parsers are loaded). */
  let config = new Configuration(host);
  const texts: TextLookup = {
    lookup(file) {
      const open = openDocByPath(file);
      if (open) return { uri: open.uri, text: open.getText(), version: open.version };
      const text = host.readFile(file);
      return text === undefined ? undefined : { uri: uriOf(file), text };
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

  /** The editor's settings for a document or folder URI (cached until the client says they changed). */
  function settingsFor(uri: string): Promise<Settings> {
    let s = settingsCache.get(uri);
    if (!s) {
      const editor = canPullConfig
        ? connection.workspace.getConfiguration({ scopeUri: uri, section: 'prefixlint' }).then(
            (v: unknown) => v as Record<string, unknown>,
            () => undefined,
          )
        : Promise.resolve(undefined);
      s = editor.then((e) => {
        const settings = readSettings(e);
        for (const name of unknownNames(settings)) {
          if (warnedNames.has(name)) continue;
          warnedNames.add(name);
          connection.console.warn(`unknown rule or group '${name}' in the prefixlint settings`);
        }
        return settings;
      });
      settingsCache.set(uri, s);
    }
    return s;
  }

  /**
   * The configuration of a file with the editor's settings over it, as `prefixlint check` with
   * the same options resolves it; undefined when the configuration is broken (reported once).
   */
  function configOf(file: string, settings: Settings): FileConfig | undefined {
    try {
      return config.configFor(file, settings.overrides);
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      const message = `prefixlint configuration: ${err.message}`;
      if (!reportedConfigErrors.has(message)) {
        reportedConfigErrors.add(message);
        connection.console.error(message);
        void connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Error, message: `${message} (nothing is linted where it applies)` });
      }
      return undefined;
    }
  }

  // ------------------------------------------------------------------------------ analysis

  function analysisId(unit: Unit, settings: Settings): string {
    return `${unit.key}#${generation}#${JSON.stringify(settings)}`;
  }

  async function analyse(unit: Unit): Promise<Analysis | undefined> {
    await analyzerLoaded;
    const settings = await settingsFor(unit.uri);
    if (!analyzer) return undefined;
    const id = analysisId(unit, settings);
    const cached = analyses.get(unit.uri);
    if (cached?.id === id) return cached;
    const t0 = performance.now();
    const fileConfig = configOf(unit.file, settings);
    const result: FileResult = fileConfig
      ? analyzer.analyze(unit.file, unit.text, unit.language, analyzeOptionsFor(unit, fileConfig.analyze))
      : { file: unit.file, language: unit.language, diagnostics: [], calls: [] };
    const ms = performance.now() - t0;
    if (ms > 500) log(`analysed ${unit.file} in ${ms.toFixed(0)} ms`);
    if (result.notice?.startsWith('internal error')) {
      connection.console.error(`${unit.file}: ${result.notice}`);
      status({ state: 'error', message: result.notice });
    }
    const analysis: Analysis = { id, unit, settings, config: fileConfig, result, byUri: toLspDiagnostics(unit, result.diagnostics, texts) };
    analyses.set(unit.uri, analysis);
    idleCollection.workDone();
    return analysis;
  }

  function quiet(ms: number, token: CancellationToken): Promise<boolean> {
    // No quiet time (tests, the benchmark's server): no timer either, whose shortest wait is 1 ms.
    if (ms <= 0) return Promise.resolve(!token.isCancellationRequested);
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
    await analyzerLoaded;
    let unit = unitFor(uri);
    if (!unit || !analyzer) return empty;
    const settings = await settingsFor(unit.uri);
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
    await analyzerLoaded;
    for (const uri of uris) {
      let unit = notebooks.getNotebookDocument(uri) ? notebookUnit(uri) : unitFor(uri);
      if (!unit || !analyzer) continue;
      const settings = await settingsFor(unit.uri);
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

  /**
   * The edit of "fix all": the safe fixes to a fixpoint through the engine's fix loop (the one
   * `prefixlint check --fix` runs), as one minimal edit per changed document (each changed cell
   * of a notebook).
   */
  async function fixAllEdit(uri: string): Promise<WorkspaceEdit | undefined> {
    await analyzerLoaded;
    const unit = unitFor(uri);
    if (!unit || !analyzer) return undefined;
    const a = await analyse(unit);
    if (!a?.config) return undefined;
    const current = a.unit.key === unit.key ? a.result : undefined;
    const opts = { unsafe: false, analyze: a.config.analyze, result: current };
    // The fixed texts were analysed under the file's name; the fix loop drops them, and the open
    // buffers (with the edit applied) are what counts.
    analyses.delete(unit.uri);
    if (unit instanceof DocumentUnit) {
      const fixed = fixToFixpoint(analyzer, sourceDocument(unit.file, unit.text, unit.language), opts);
      const edit = minimalEdit(unit.doc, fixed.document.text);
      return { changes: { [uri]: edit ? [edit] : [] } };
    }
    if (!(unit instanceof NotebookUnit)) return undefined;
    const fixed = fixToFixpoint(analyzer, unit.cells, opts);
    const changes: Record<string, WireEdit[]> = {};
    for (const cell of fixed.document.cells) {
      const doc = unit.document(cell.index);
      const edit = doc && minimalEdit(doc, cell.source);
      if (doc && edit) changes[doc.uri] = [edit];
    }
    return { changes };
  }

  // ------------------------------------------------------------------------------ lint workspace

  /** Pushes the diagnostics of every closed file of the workspace folders, as `prefixlint check` finds and reports them. */
  async function lintWorkspace(): Promise<{ files: number; problems: number }> {
    await analyzerLoaded;
    const folders = (await connection.workspace.getWorkspaceFolders()) ?? [];
    let files = 0;
    let problems = 0;
    for (const uri of pushed) void connection.sendDiagnostics({ uri, diagnostics: [] });
    pushed.clear();
    for (const folder of folders) {
      const root = pathOf(folder.uri);
      const settings = await settingsFor(folder.uri);
      if (!settings.enable) continue;
      const excluded = (abs: string, isDir: boolean) => config.excluded(abs, isDir);
      for (const file of discoverFiles([root], root, excluded).files) {
        const uri = uriOf(file);
        if (documents.get(uri) || notebooks.getNotebookDocument(uri) || !analyzer) continue;
        const read = host.read(file);
        if (!('text' in read)) continue;
        const doc = openDocument(file, read.text);
        if ('notice' in doc) continue;
        const fileConfig = configOf(file, settings);
        if (!fileConfig) continue;
        const result = analyzer.analyze(file, doc.analysedText, doc.language, analyzeOptionsFor(doc, fileConfig.analyze));
        const unit = new ClosedFileUnit(doc, TextDocument.create(uri, doc.language, 0, read.text));
        const items = toLspDiagnostics(unit, result.diagnostics, texts).get(uri) ?? [];
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

  /** The known names the analysis used (the table, the project's configuration and its own SDKs). */
  function knownOf(a: Analysis): KnownNames {
    return a.config?.analyze.known ?? loadKnownNames();
  }

  function callsIn(a: Analysis, uri: string): RequestCall[] {
    return a.result.calls.filter((c) => a.unit.position(c.at.start)?.uri === uri);
  }

  // ------------------------------------------------------------------------------ handlers

  /** What `initialize` tells the server about the client (and its answer, which does not depend on it). */
  const initialize = (params: InitializeParams): InitializeResult => {
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
    canApplyDocumentChanges = !!params.capabilities.workspace?.workspaceEdit?.documentChanges;
    workspaceRoots = (params.workspaceFolders ?? []).map((f) => pathOf(f.uri));
    if (!workspaceRoots.length && params.rootUri) workspaceRoots = [pathOf(params.rootUri)];
    host.useProject(workspaceRoots.length ? { folders: workspaceRoots } : undefined);
    registerWatchers = !!params.capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration && clientCommands.size === 0;
    // The parsers load while the client goes on (the handlers that analyse wait for them).
    analyzerLoaded = Analyzer.create({ host, wasmDir: options.wasmDir }).then(
      (a) => {
        analyzer = a;
        config = new Configuration(host, a.parsers);
        log(`prefixlint server ready in ${(performance.now() - t0).toFixed(0)} ms (Node ${process.version}); diagnostics ${pullDiagnostics ? 'pulled by the client' : 'pushed'}`);
      },
      (err: unknown) => {
        const message = `prefixlint could not load its parsers: ${err instanceof Error ? err.message : String(err)}`;
        connection.console.error(message);
        status({ state: 'error', message });
      },
    );
    return initializeResult();
  };

  // Started by dist/server.js, which answered `initialize` itself before loading this code.
  if (options.initialized) initialize(options.initialized);
  else connection.onInitialize(initialize);

  connection.onInitialized(() => {
    status({ state: 'ready' });
    if (registerWatchers) {
      // Configuration files (their edits re-resolve the configuration) and sources (other files import their values).
      const watchers = [{ globPattern: `**/{${CONFIG_FILE_NAMES.join(',')}}` }, { globPattern: '**/*.{py,pyi,ts,tsx,mts,cts,js,jsx,mjs,cjs}' }];
      void connection.client.register(DidChangeWatchedFilesNotification.type, { watchers }).catch((err: unknown) => connection.console.warn(`prefixlint: could not watch files: ${String(err)}`));
    }
  });

  const changed = () => {
    generation++;
  };

  /** A buffer changed: other files that import it must see the new text (read through `host`). */
  const bufferChanged = (doc: TextDocument) => {
    const language = LANGUAGES[doc.languageId];
    analyzer?.edited(pathOf(doc.uri, language), doc.getText(), language);
    changed();
  };

  /** TextDocuments fires a content change right after each open: that one is no edit. */
  let justOpened: string | undefined;
  documents.onDidOpen((e) => {
    openByPath.set(pathOf(e.document.uri, LANGUAGES[e.document.languageId]), e.document.uri);
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
    const file = pathOf(e.document.uri, LANGUAGES[e.document.languageId]);
    if (openByPath.get(file) === e.document.uri) openByPath.delete(file);
    settingsCache.delete(e.document.uri);
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
    analyses.delete(nb.uri);
    saved.delete(nb.uri);
    pushQueue.delete(nb.uri);
    for (const cell of nb.cells) clearPushed(cell.document);
    analyzer?.invalidate(pathOf(nb.uri));
  });

  connection.onDidChangeWatchedFiles((p) => {
    let configChanged = false;
    // Files changed on disk: the folders are walked, and their texts read, again when a fix next searches them.
    if (p.changes.length) host.useProject(workspaceRoots.length ? { folders: workspaceRoots } : undefined);
    for (const c of p.changes) {
      const file = pathOf(c.uri);
      if (!openDocByPath(file)) analyzer?.invalidate(file);
      if (c.type === FileChangeType.Deleted) pushed.delete(c.uri);
      if (affectsConfiguration(file)) configChanged = true;
    }
    if (configChanged) {
      // A configuration file (or a project's SDK) changed: resolve every file's configuration,
      // and read the SDKs' names, again; every analysis is stale.
      config.clear();
      reportedConfigErrors.clear();
      analyses.clear();
    }
    changed();
    refreshDiagnostics();
    refreshLenses();
    schedulePush(undefined, true);
  });

  connection.onDidChangeConfiguration(() => {
    settingsCache.clear();
    analyses.clear();
    refreshDiagnostics();
    refreshLenses();
    schedulePush(undefined, true);
  });

  connection.languages.diagnostics.on((p, token) => diagnosticsFor(p.textDocument.uri, p.previousResultId, token));

  connection.onCodeAction(async (p): Promise<CodeAction[]> => {
    await analyzerLoaded;
    const uri = p.textDocument.uri;
    const unit = unitFor(uri);
    const doc = documents.get(uri) ?? notebooks.cellTextDocuments.get(uri);
    if (!unit || !doc || !analyzer) return [];
    const only = p.context.only;
    const out: CodeAction[] = [];
    if (!only || only.some((k) => k === CodeActionKind.QuickFix || CodeActionKind.QuickFix.startsWith(k + '.'))) {
      // Parsed only when a "disable for this line" action needs the comment's place: code
      // actions are asked for on every cursor move, mostly with no prefixlint diagnostic.
      const anchorOf = analyzer.suppressionAnchors(unit.text, unit.language);
      out.push(
        ...quickFixes(withData(uri, p.context.diagnostics, unit), {
          doc,
          unit,
          language: unit.language,
          version,
          docs: clientCommands.has(CLIENT_COMMANDS.showDocumentation) ? 'client' : canShowDocument ? 'showDocument' : 'none',
          documentChanges: canApplyDocumentChanges,
          commentLine(line, character) {
            const offset = unit.offsetAt(uri, line, character);
            if (offset === undefined) return line;
            const pos = unit.position(anchorOf(offset));
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
    const settings = await settingsFor(unit.uri);
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
    const e = estimate(call, knownOf(a), a.settings);
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
    const d = a.result.diagnostics.find((x) => x.at.start <= offset && offset <= x.at.end);
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
      return { contents: { kind: 'markdown', value: diagnosticHover(d, ruleById(d.ruleId), where, { repeat: !hoverShowsDiagnostics }) } };
    }
    const call = a.result.calls.find((c) => c.callee.start <= offset && offset <= c.callee.end);
    if (call) {
      const e = estimate(call, knownOf(a), a.settings);
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
      const rule = ruleById(String(p.arguments?.[0] ?? ''));
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
      const e = estimate(call, knownOf(a), a.settings);
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
    if (p.what === 'rules') return rulesPage(allRules);
    if (p.what.startsWith('rule:')) {
      const rule = ruleById(p.what.slice(5));
      return rule ? rulePage(rule, { link: `[Page in the repository](${docsUrl(rule.meta.id)})` }) : `# Unknown rule\n\nNo rule is named \`${p.what.slice(5)}\`.\n`;
    }
    if (p.what === 'diff' && p.texts) return diffMarkdown(p.texts[0], p.texts[1], p.names?.[0], p.names?.[1]);
    return '';
  });

  // Answered once the parsers have loaded: the client sends `exit` after this answer, and a
  // thread that ends while V8 still compiles its grammars in the background takes the whole
  // process down (the extension host, when the server is its worker thread; see the CLI's
  // stopLintWorkers). A client that stops the server just after starting it waits that long.
  connection.onShutdown(async () => {
    exact.dispose();
    await analyzerLoaded;
  });

  documents.listen(connection);
  notebooks.listen(connection);
  return { dispose: () => exact.dispose() };
}
