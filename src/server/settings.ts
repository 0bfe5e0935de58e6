/**
 * The settings the server works with, and the one place where editor settings (`prefixlint.*`,
 * resource scope) and the project's configuration file are merged: `effectiveSettings`.
 * Precedence, lowest first: defaults < project config (.prefixlintrc.json, pyproject.toml,
 * package.json) < editor settings that the user set explicitly.
 */
import type { DeclarationParser } from '../config/projectSdk';
import type { Severity } from '../core/diagnostic';
import type { KnownNames } from '../core/knownNames';

export type RuleLevel = Severity | 'off';
export type TokenMode = 'estimate' | 'exact' | 'off';

export interface Price {
  input: number;
  write5m: number;
  write1h: number;
  read: number;
}

export interface Settings {
  enable: boolean;
  /** Lint while typing (debounced) or only when the file is saved. */
  run: 'onType' | 'onSave';
  /** Rule ids or groups to run (empty: all). */
  select: string[];
  /** Rule ids or groups not to run. */
  ignore: string[];
  /** Per-rule severity, or 'off'. */
  severity: Record<string, RuleLevel>;
  tokens: {
    mode: TokenMode;
    /** Count and price as this model instead of the one in the code (empty: the code's model). */
    model: string;
    /** $/MTok override for the prices of the model counted. */
    price?: Price;
    /** At most this many count_tokens requests per minute. */
    requestsPerMinute: number;
  };
}

export const DEFAULT_SETTINGS: Settings = {
  enable: true,
  run: 'onType',
  select: [],
  ignore: [],
  severity: {},
  tokens: { mode: 'estimate', model: '', requestsPerMinute: 20 },
};

/** What a project configuration file contributes to the editor (issue 4's loader fills it). */
export interface ProjectConfig {
  select?: string[];
  ignore?: string[];
  severity?: Record<string, RuleLevel>;
  tokens?: { model?: string; price?: Price };
}

/**
 * Finds and reads the project configuration that applies to a file. The configuration module
 * (src/config/) plugs in here; until it exists, no project configuration applies.
 */
export interface ProjectConfigLoader {
  load(fsPath: string): ProjectConfig | undefined;
  /** The known names for a file: the table, the configuration's additions and the project's own SDKs. */
  known?(fsPath: string): KnownNames | undefined;
  /** The engine's parsers, for reading the project's own SDKs (given once the analyzer is loaded). */
  useParsers?(parser: DeclarationParser): void;
}

export const NO_PROJECT_CONFIG: ProjectConfigLoader = { load: () => undefined };

/** The editor's `prefixlint` section as sent by the client (unknown shapes are ignored). */
export type EditorSettings = Record<string, unknown> | null | undefined;

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const strList = (v: unknown): string[] | undefined => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : undefined);
const LEVELS = new Set<RuleLevel>(['error', 'warning', 'info', 'off']);

function levels(v: unknown): Record<string, RuleLevel> | undefined {
  if (!v || typeof v !== 'object') return undefined;
  const out: Record<string, RuleLevel> = {};
  for (const [k, l] of Object.entries(v)) if (LEVELS.has(l as RuleLevel)) out[k] = l as RuleLevel;
  return out;
}

function price(v: unknown): Price | undefined {
  if (!v || typeof v !== 'object') return undefined;
  const p = v as Record<string, unknown>;
  const nums = ['input', 'write5m', 'write1h', 'read'].map((k) => p[k]);
  if (!nums.every((n) => typeof n === 'number' && Number.isFinite(n) && n >= 0)) return undefined;
  return { input: nums[0] as number, write5m: nums[1] as number, write1h: nums[2] as number, read: nums[3] as number };
}

/** THE seam: editor settings over project config over defaults. */
export function effectiveSettings(editor: EditorSettings, project: ProjectConfig | undefined): Settings {
  const e = editor ?? {};
  const tokens = (e.tokens && typeof e.tokens === 'object' ? e.tokens : {}) as Record<string, unknown>;
  const editorSelect = strList(e.select);
  const editorIgnore = strList(e.ignore);
  const mode = str(tokens.mode);
  const run = str(e.run);
  const rpm = tokens.requestsPerMinute;
  return {
    enable: typeof e.enable === 'boolean' ? e.enable : DEFAULT_SETTINGS.enable,
    run: run === 'onSave' || run === 'onType' ? run : DEFAULT_SETTINGS.run,
    select: editorSelect?.length ? editorSelect : (project?.select ?? []),
    ignore: [...(project?.ignore ?? []), ...(editorIgnore ?? [])],
    severity: { ...(project?.severity ?? {}), ...(levels(e.severity) ?? {}) },
    tokens: {
      mode: mode === 'exact' || mode === 'off' || mode === 'estimate' ? mode : DEFAULT_SETTINGS.tokens.mode,
      model: str(tokens.model) || project?.tokens?.model || '',
      price: price(tokens.price) ?? project?.tokens?.price,
      requestsPerMinute:
        typeof rpm === 'number' && Number.isFinite(rpm) && rpm >= 1 ? Math.floor(rpm) : DEFAULT_SETTINGS.tokens.requestsPerMinute,
    },
  };
}
