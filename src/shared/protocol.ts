/**
 * What the VS Code client and the language server agree on besides LSP itself: custom request
 * and notification names, command ids and the shape of a diagnostic's `data`. Plain constants
 * and types, no imports, so both bundles can include it.
 */

/**
 * The files a project configuration can be in (config/resolve.ts reads them, a test keeps the
 * two lists equal): the client watches them, and the server resolves the configuration again
 * when one changes.
 */
export const CONFIG_FILE_NAMES = ['.prefixlintrc.json', 'pyproject.toml', 'package.json'] as const;

/** Client -> server: the API key from the editor's secret storage (or null to forget it). Never logged. */
export const SET_API_KEY = 'prefixlint/setApiKey';
export interface SetApiKeyParams {
  key: string | null;
}

/** Client -> server: the workspace trust state changed (exact token counts need a trusted workspace). */
export const SET_TRUST = 'prefixlint/setTrust';
export interface SetTrustParams {
  trusted: boolean;
}

/** Client -> server: markdown for a read-only view. `what` is `rule:<id>`, `rules` or `diff`. */
export const MARKDOWN = 'prefixlint/markdown';
export interface MarkdownParams {
  what: string;
  /** For `diff`: the two request dumps. */
  texts?: [string, string];
  names?: [string, string];
}

/** Server -> client: findings counts and state for the status bar. */
export const STATUS = 'prefixlint/status';
export interface StatusParams {
  state: 'ready' | 'busy' | 'error';
  message?: string;
}

/** Commands the server executes (workspace/executeCommand). */
export const SERVER_COMMANDS = {
  applyFixAll: 'prefixlint.server.applyFixAll',
  lintWorkspace: 'prefixlint.server.lintWorkspace',
  /** For clients without our views: opens the rule's page through `window/showDocument`. */
  openRulePage: 'prefixlint.server.openRulePage',
  /** For clients without our views: the token breakdown of a call site as a `window/showMessage`. */
  showTokens: 'prefixlint.server.showTokens',
} as const;

/**
 * `initializationOptions` the VS Code client sends. Any other LSP client sends none and gets
 * what LSP alone can show: pushed diagnostics when it does not pull, the rule page through
 * `window/showDocument`, token breakdowns in hovers and messages.
 */
export interface InitializationOptions {
  /** Workspace trust (exact token counts need a trusted workspace); trusted when absent. */
  trusted?: boolean;
  /** The CLIENT_COMMANDS the client implements. */
  clientCommands?: string[];
  /** The client's own hover on a diagnostic shows its message and related locations (VS Code's does). */
  hoverShowsDiagnostics?: boolean;
}

/** Commands the client implements; the server names them in code actions and lenses. */
export const CLIENT_COMMANDS = {
  showDocumentation: 'prefixlint.showDocumentation',
  showMarkdown: 'prefixlint.showMarkdown',
} as const;

/** The code action kind of "fix all" (usable from `editor.codeActionsOnSave`). */
export const FIX_ALL_KIND = 'source.fixAll.prefixlint';

export interface WireEdit {
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  newText: string;
}

/** A diagnostic's `data`: everything a code action needs, so the server keeps no state for it. */
export interface DiagnosticData {
  ruleId: string;
  /** Document versions the positions refer to; a fix is dropped when any of them moved on. */
  versions: Record<string, number>;
  fix?: {
    title: string;
    applicability: 'safe' | 'unsafe';
    changes: Record<string, WireEdit[]>;
    /**
     * For a fix that also edits other files: their URIs and the versions of those open in the
     * editor (null for a file read from disk). The fix is dropped when one of them moved on.
     */
    otherDocuments?: Record<string, number | null>;
  };
}

/**
 * The key of `workerData` under which a server started in a worker thread gets the message
 * port it speaks LSP over (the VS Code extension starts it so; other editors start a process).
 */
export const SERVER_PORT = 'prefixlintServerPort';
