/**
 * The editor's settings (`prefixlint.*`, resource scope) as the server reads them: whether and
 * when to lint, and what the token lens shows. `select`, `ignore` and `severity` are not merged
 * here: they become one more configuration layer (ConfigOverrides) over the project's
 * configuration files, which engine/config.ts resolves exactly as for the command line.
 */
import type { ConfigOverrides, RuleLevel } from '../engine/config';
import { isRuleOrGroup } from '../engine/registry';

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
  /** The editor's selection and severities, over the project's configuration. */
  overrides: ConfigOverrides;
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
  overrides: {},
  tokens: { mode: 'estimate', model: '', requestsPerMinute: 20 },
};

/** The editor's `prefixlint` section as sent by the client (unknown shapes are ignored). */
export type EditorSettings = Record<string, unknown> | null | undefined;

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const strList = (v: unknown): string[] | undefined => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : undefined);
const LEVELS = new Set<RuleLevel>(['error', 'warning', 'info', 'off']);

function levels(v: unknown): Record<string, RuleLevel> | undefined {
  if (!v || typeof v !== 'object') return undefined;
  const out: Record<string, RuleLevel> = {};
  for (const [k, l] of Object.entries(v)) if (LEVELS.has(l as RuleLevel)) out[k] = l as RuleLevel;
  return Object.keys(out).length ? out : undefined;
}

function price(v: unknown): Price | undefined {
  if (!v || typeof v !== 'object') return undefined;
  const p = v as Record<string, unknown>;
  const nums = ['input', 'write5m', 'write1h', 'read'].map((k) => p[k]);
  if (!nums.every((n) => typeof n === 'number' && Number.isFinite(n) && n >= 0)) return undefined;
  return { input: nums[0] as number, write5m: nums[1] as number, write1h: nums[2] as number, read: nums[3] as number };
}

/** The settings from the editor's section, the defaults for what it does not say. */
export function readSettings(editor: EditorSettings): Settings {
  const e = editor ?? {};
  const tokens = (e.tokens && typeof e.tokens === 'object' ? e.tokens : {}) as Record<string, unknown>;
  const mode = str(tokens.mode);
  const run = str(e.run);
  const rpm = tokens.requestsPerMinute;
  const overrides: ConfigOverrides = {};
  const select = strList(e.select);
  const ignore = strList(e.ignore);
  const severity = levels(e.severity);
  // Names that are no rule or group select nothing and are warned about (unknownNames).
  if (select?.length) overrides.select = select;
  if (ignore?.length) overrides.ignore = ignore;
  if (severity) overrides.rules = severity;
  return {
    enable: typeof e.enable === 'boolean' ? e.enable : DEFAULT_SETTINGS.enable,
    run: run === 'onSave' || run === 'onType' ? run : DEFAULT_SETTINGS.run,
    overrides,
    tokens: {
      mode: mode === 'exact' || mode === 'off' || mode === 'estimate' ? mode : DEFAULT_SETTINGS.tokens.mode,
      model: str(tokens.model) ?? '',
      price: price(tokens.price),
      requestsPerMinute:
        typeof rpm === 'number' && Number.isFinite(rpm) && rpm >= 1 ? Math.floor(rpm) : DEFAULT_SETTINGS.tokens.requestsPerMinute,
    },
  };
}

/** Names in the settings' selection and severities that are neither a rule id nor a group. */
export function unknownNames(settings: Settings): string[] {
  const o = settings.overrides;
  return [...new Set([...(o.select ?? []), ...(o.ignore ?? []), ...Object.keys(o.rules ?? {})])].filter((n) => !isRuleOrGroup(n));
}
