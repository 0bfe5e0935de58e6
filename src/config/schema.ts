/**
 * The project configuration: its keys, their types, and the checks that turn what a file says
 * into a ConfigLayer or a ConfigError naming the file and the key. One schema for every source
 * (.prefixlintrc.json, `[tool.prefixlint]` in pyproject.toml, `"prefixlint"` in package.json),
 * with the same key names in each.
 */
import type { Severity } from '../core/diagnostic';
import { closeNames } from '../core/knownNames';

export type RuleLevel = Severity | 'off';
export const SEVERITIES: readonly Severity[] = ['error', 'warning', 'info'];
const LEVELS: readonly RuleLevel[] = [...SEVERITIES, 'off'];

export interface Price {
  input: number;
  write5m: number;
  write1h: number;
  read: number;
}

/** A model's figures, over the known-names table (or a model it does not have). */
export interface ModelOverride {
  minCacheable?: number;
  price?: Partial<Price>;
  /** Tokenizer generation: 1, or 2 for Claude Opus 4.7 and later. */
  tokenizer?: number;
}

/** Settings for the files that `files` globs match, over the project's. */
export interface OverrideConfig {
  files: string[];
  select?: string[];
  ignore?: string[];
  rules?: Record<string, RuleLevel>;
}

/** What one configuration source says. Every key is optional. */
export interface ConfigLayer {
  /** Rule ids or groups to run (default: all). */
  select?: string[];
  /** Rule ids or groups not to run. */
  ignore?: string[];
  /** Severity per rule id, or "off". */
  rules?: Record<string, RuleLevel>;
  /** Globs (relative to the config's folder) that files found in folders must match. */
  include?: string[];
  /** .gitignore-style patterns (relative to the config's folder) of files and folders to skip. */
  exclude?: string[];
  /** Findings at or above this severity make `prefixlint check` exit 1. */
  failLevel?: Severity;
  /** Names the known-names table does not have yet. */
  known?: { betas?: string[]; toolTypes?: string[] };
  /** Per model (a name or a prefix such as `claude-sonnet-4`): minimum cacheable length, prices. */
  models?: Record<string, ModelOverride>;
  /** The Python environment whose `anthropic` package counts as the project's SDK (besides `.venv` / `venv`). */
  python?: { interpreter?: string };
  overrides?: OverrideConfig[];
}

/** A configuration problem: `file` is the source (absolute), `detail` names the key. */
export class ConfigError extends Error {
  constructor(
    readonly file: string,
    readonly detail: string,
  ) {
    super(`${file}: ${detail}`);
  }
}

export interface SchemaContext {
  /** Every rule id. */
  ruleIds: readonly string[];
  /** Every rule group. */
  groups: readonly string[];
}

const TOP_KEYS = ['select', 'ignore', 'rules', 'include', 'exclude', 'failLevel', 'known', 'models', 'python', 'overrides'];
const PYTHON_KEYS = ['interpreter'];
const OVERRIDE_KEYS = ['files', 'select', 'ignore', 'rules'];
const KNOWN_KEYS = ['betas', 'toolTypes'];
const MODEL_KEYS = ['minCacheable', 'price', 'tokenizer'];
const PRICE_KEYS = ['input', 'write5m', 'write1h', 'read'];

type Fail = (detail: string) => never;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function describe(v: unknown): string {
  if (Array.isArray(v)) return 'a list';
  if (v === null) return 'null';
  if (isObject(v)) return 'a table';
  return typeof v === 'string' ? JSON.stringify(v) : String(v);
}

function hint(name: string, candidates: readonly string[]): string {
  const close = closeNames(name, candidates, Math.max(2, Math.floor(name.length / 3)));
  return close.length ? ` (did you mean '${close[0]}'?)` : '';
}

function checkKeys(obj: Record<string, unknown>, allowed: readonly string[], path: string, fail: Fail, extra: readonly string[] = []) {
  for (const key of Object.keys(obj)) {
    if (allowed.includes(key) || extra.includes(key)) continue;
    fail(`unknown key '${path ? `${path}.` : ''}${key}'${hint(key, allowed)}`);
  }
}

function strings(v: unknown, path: string, fail: Fail): string[] {
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) fail(`${path}: expected a list of strings, got ${describe(v)}`);
  return v as string[];
}

function ruleOrGroupNames(v: unknown, path: string, ctx: SchemaContext, fail: Fail): string[] {
  const names = strings(v, path, fail);
  for (const n of names) {
    if (!ctx.ruleIds.includes(n) && !ctx.groups.includes(n)) fail(`${path}: unknown rule or group '${n}'${hint(n, [...ctx.ruleIds, ...ctx.groups])}`);
  }
  return names;
}

function ruleLevels(v: unknown, path: string, ctx: SchemaContext, fail: Fail): Record<string, RuleLevel> {
  if (!isObject(v)) fail(`${path}: expected a table of rule ids to ${LEVELS.map((l) => `"${l}"`).join(', ')}, got ${describe(v)}`);
  const out: Record<string, RuleLevel> = {};
  for (const [id, level] of Object.entries(v as Record<string, unknown>)) {
    if (!ctx.ruleIds.includes(id)) {
      const group = ctx.groups.includes(id) ? ' (a group: severities are set per rule)' : hint(id, ctx.ruleIds);
      fail(`${path}: unknown rule '${id}'${group}`);
    }
    if (!LEVELS.includes(level as RuleLevel)) fail(`${path}.${id}: expected ${LEVELS.map((l) => `"${l}"`).join(', ')}, got ${describe(level)}`);
    out[id] = level as RuleLevel;
  }
  return out;
}

function positive(v: unknown, path: string, fail: Fail, integer: boolean): number {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || (integer && !Number.isInteger(v))) {
    fail(`${path}: expected a ${integer ? 'whole ' : ''}number of 0 or more, got ${describe(v)}`);
  }
  return v as number;
}

/**
 * Checks what a source says against the schema. `raw` is the parsed JSON/TOML value;
 * `file` names the source in errors, `where` the part of it (`[tool.prefixlint]`).
 */
export function validateLayer(raw: unknown, file: string, where: string, ctx: SchemaContext): ConfigLayer {
  const fail: Fail = (detail) => {
    throw new ConfigError(file, where ? `${where}: ${detail}` : detail);
  };
  if (!isObject(raw)) fail(`expected a table of settings, got ${describe(raw)}`);
  const obj = raw as Record<string, unknown>;
  // `$schema` is allowed in JSON files, for editors.
  checkKeys(obj, TOP_KEYS, '', fail, ['$schema']);
  const layer: ConfigLayer = {};
  if (obj.select !== undefined) layer.select = ruleOrGroupNames(obj.select, 'select', ctx, fail);
  if (obj.ignore !== undefined) layer.ignore = ruleOrGroupNames(obj.ignore, 'ignore', ctx, fail);
  if (obj.rules !== undefined) layer.rules = ruleLevels(obj.rules, 'rules', ctx, fail);
  if (obj.include !== undefined) layer.include = strings(obj.include, 'include', fail);
  if (obj.exclude !== undefined) layer.exclude = strings(obj.exclude, 'exclude', fail);
  if (obj.failLevel !== undefined) {
    if (!SEVERITIES.includes(obj.failLevel as Severity)) fail(`failLevel: expected ${SEVERITIES.map((l) => `"${l}"`).join(', ')}, got ${describe(obj.failLevel)}`);
    layer.failLevel = obj.failLevel as Severity;
  }
  if (obj.known !== undefined) {
    if (!isObject(obj.known)) fail(`known: expected a table with 'betas' and 'toolTypes', got ${describe(obj.known)}`);
    const known = obj.known as Record<string, unknown>;
    checkKeys(known, KNOWN_KEYS, 'known', fail);
    layer.known = {};
    if (known.betas !== undefined) layer.known.betas = strings(known.betas, 'known.betas', fail);
    if (known.toolTypes !== undefined) layer.known.toolTypes = strings(known.toolTypes, 'known.toolTypes', fail);
  }
  if (obj.models !== undefined) {
    if (!isObject(obj.models)) fail(`models: expected a table of model names, got ${describe(obj.models)}`);
    layer.models = {};
    for (const [name, m] of Object.entries(obj.models as Record<string, unknown>)) {
      const path = `models.${name}`;
      if (!isObject(m)) fail(`${path}: expected a table with ${MODEL_KEYS.map((k) => `'${k}'`).join(', ')}, got ${describe(m)}`);
      checkKeys(m, MODEL_KEYS, path, fail);
      const model: ModelOverride = {};
      if (m.minCacheable !== undefined) model.minCacheable = positive(m.minCacheable, `${path}.minCacheable`, fail, true);
      if (m.tokenizer !== undefined) {
        if (m.tokenizer !== 1 && m.tokenizer !== 2) fail(`${path}.tokenizer: expected 1 or 2, got ${describe(m.tokenizer)}`);
        model.tokenizer = m.tokenizer as number;
      }
      if (m.price !== undefined) {
        if (!isObject(m.price)) fail(`${path}.price: expected a table with ${PRICE_KEYS.map((k) => `'${k}'`).join(', ')} ($ per million tokens), got ${describe(m.price)}`);
        checkKeys(m.price, PRICE_KEYS, `${path}.price`, fail);
        model.price = {};
        for (const k of PRICE_KEYS as Array<keyof Price>) if (m.price[k] !== undefined) model.price[k] = positive(m.price[k], `${path}.price.${k}`, fail, false);
      }
      layer.models[name] = model;
    }
  }
  if (obj.python !== undefined) {
    if (!isObject(obj.python)) fail(`python: expected a table with 'interpreter', got ${describe(obj.python)}`);
    checkKeys(obj.python, PYTHON_KEYS, 'python', fail);
    layer.python = {};
    if (obj.python.interpreter !== undefined) {
      if (typeof obj.python.interpreter !== 'string' || !obj.python.interpreter) fail(`python.interpreter: expected the path of a Python interpreter, got ${describe(obj.python.interpreter)}`);
      layer.python.interpreter = obj.python.interpreter as string;
    }
  }
  if (obj.overrides !== undefined) {
    if (!Array.isArray(obj.overrides)) fail(`overrides: expected a list of tables, got ${describe(obj.overrides)}`);
    layer.overrides = (obj.overrides as unknown[]).map((o, i) => {
      const path = `overrides[${i}]`;
      if (!isObject(o)) fail(`${path}: expected a table, got ${describe(o)}`);
      checkKeys(o, OVERRIDE_KEYS, path, fail);
      if (o.files === undefined) fail(`${path}: 'files' is required (globs of the files it applies to)`);
      const ov: OverrideConfig = { files: strings(o.files, `${path}.files`, fail) };
      if (o.select !== undefined) ov.select = ruleOrGroupNames(o.select, `${path}.select`, ctx, fail);
      if (o.ignore !== undefined) ov.ignore = ruleOrGroupNames(o.ignore, `${path}.ignore`, ctx, fail);
      if (o.rules !== undefined) ov.rules = ruleLevels(o.rules, `${path}.rules`, ctx, fail);
      return ov;
    });
  }
  return layer;
}

/**
 * Layers merged, highest precedence first: a key set in a higher layer replaces the lower one's,
 * except `rules` and `models`, which merge entry by entry.
 */
export function mergeLayers(layers: readonly ConfigLayer[]): ConfigLayer {
  const out: ConfigLayer = {};
  for (const layer of [...layers].reverse()) {
    const { rules, models, ...rest } = layer;
    Object.assign(out, rest);
    if (rules) out.rules = { ...out.rules, ...rules };
    if (models) out.models = { ...out.models, ...models };
  }
  return out;
}

/** What `prefixlint init` writes: every key, with the defaults spelled out. */
export function starterConfig(): ConfigLayer {
  return {
    select: [],
    ignore: [],
    rules: {},
    include: [],
    exclude: [],
    failLevel: 'warning',
    known: { betas: [], toolTypes: [] },
    models: {},
    overrides: [],
  };
}
