/**
 * The known-names table (betas, tool types, edit types, content block types, models): data,
 * kept in one dated file (src/data/known-names.json) that `npm run known-names` updates from
 * the pinned SDK's declarations, extendable from config and from the linted project's own SDK.
 */
import data from '../data/known-names.json';
import { editDistance } from './editDistance';
import type { Sdk } from './model';

export type BetaStatus = 'current' | 'ga' | 'deprecated';

/** Where a name is known from: the table, the project's configuration, or the project's own SDK. */
export type NameOrigin = 'table' | 'config' | 'project';

/** The platform a request goes to, from its client class. */
export type Platform = 'anthropic' | 'bedrock' | 'vertex' | 'foundry';

export interface BetaInfo {
  name: string;
  status: BetaStatus;
  gaSince?: string;
  deprecatedSince?: string;
  /** The beta that replaces a deprecated one. */
  supersededBy?: string;
  /** Whether dropping the name leaves the request working the same ('safe' is the default for GA names). */
  removal?: 'safe' | 'unsafe' | 'none';
  note?: string;
  sources?: string[];
  origin?: NameOrigin;
}

/** A beta name that clients send widely and the first-party API accepts, but that no doc lists. */
export interface UndocumentedBeta {
  name: string;
  /** Who sends it, and how widely it is seen. */
  seen: string;
  /** Routes known to answer 400 for it. */
  rejectedOn?: string[];
  sources: string[];
}

export interface TypeInfo {
  name: string;
  /** The beta headers that enable this type (any one of them), if it needs one. */
  betas?: string[];
  minTrigger?: number;
  origin?: NameOrigin;
}

/**
 * A `type` the SDK declares for a Managed Agents agent configuration (`beta.agents.create`),
 * outside the Messages tool unions: valid there, rejected in a Messages request's `tools`.
 */
export interface AgentConfigTypeInfo {
  name: string;
  /** The field of the agent configuration it belongs in (`tools`, `multiagent`). */
  field: string;
  sources?: string[];
}

export interface Price {
  input: number;
  write5m: number;
  write1h: number;
  read: number;
}

/** A model-specific rejection: the API answers 400 for this model. */
export interface ModelRejections {
  /** `tool_choice` of type `any` or `tool`. */
  forcedToolChoice?: { sources: string[] };
  /** Tool types the model does not take, on the listed platforms. */
  toolTypes?: Array<{ type: string; platforms: Platform[]; sources: string[] }>;
}

export interface ModelInfo {
  /** The model id (`claude-sonnet-5-5`); dated snapshots and platform spellings of it match too. */
  id: string;
  /** Other ids of the same model (`claude-haiku-4-5-20251001`). */
  aliases?: string[];
  family: string;
  /** Minimum cacheable prompt length; absent when no source confirms it. */
  minCacheable?: number;
  tokenizer?: number;
  price?: Price;
  /** A second price band for long prompts: the whole request is billed at it above `threshold` input tokens. */
  longPrompt?: Price & { threshold: number };
  toolPrompt?: { auto: number; any: number };
  released?: string;
  /** The date the model was deprecated. */
  deprecated?: string;
  /** End of life: from this date the API rejects the id. */
  retires?: string;
  /** Retired, with no date in the sources. */
  retired?: boolean;
  /** Platforms where the model stays available after `retires`. */
  retiresExcept?: Platform[];
  rejects?: ModelRejections;
  note?: string;
  sources?: string[];
  /** Configuration entries match every id that starts with `id` (a user-declared prefix). */
  prefix?: boolean;
}

/** The SDK a table was generated from. */
export interface SdkRef {
  package: string;
  version: string;
  published?: string;
  /** The `anthropic-version` it sends by default. */
  apiVersion?: string;
}

/** An SDK installed in the linted project (node_modules or a Python environment). */
export interface ProjectSdk {
  /** Which files it serves: Python, or TypeScript/JavaScript. */
  language: 'python' | 'javascript';
  /** `@anthropic-ai/sdk` or `anthropic`. */
  package: string;
  version: string;
  /** The `anthropic-version` its client sends by default, read from its files. */
  apiVersion?: string;
  /** The package folder. */
  dir: string;
}

/** The names a project's own SDK declares. */
/** Reads the files of an installed SDK (the disk, or a test's virtual files). */
export interface SdkHost {
  readFile(absPath: string): string | undefined;
  exists(absPath: string): boolean;
  /** The names in a folder, when the host can list folders (used to find `lib/python3.X`). */
  listDir?(absPath: string): string[] | undefined;
}

/** Where an SDK is installed, before its files are read. */
export interface SdkLocation {
  language: 'python' | 'javascript';
  /** The package folder: `…/node_modules/@anthropic-ai/sdk` or `…/site-packages/anthropic`. */
  dir: string;
}

export interface ProjectSdkNames extends ProjectSdk {
  betas: string[];
  models: string[];
  toolTypes: string[];
  editTypes: string[];
  contentBlockTypes: string[];
}

export interface KnownNames {
  /** The table's date: names newer than this may exist. */
  asOf: string;
  sdk: SdkRef;
  betas: Map<string, BetaInfo>;
  undocumentedBetas: Map<string, UndocumentedBeta>;
  toolTypes: Map<string, TypeInfo>;
  /** Managed Agents agent-configuration types that are not Messages tool types. */
  agentConfigTypes: Map<string, AgentConfigTypeInfo>;
  editTypes: Map<string, TypeInfo>;
  contentBlockTypes: Set<string>;
  models: ModelInfo[];
  /** The linted project's own SDKs whose names are merged in. */
  projectSdks: ProjectSdk[];
}

/** The shape of src/data/known-names.json. */
export interface KnownNamesFile {
  $comment: string;
  asOf: string;
  sdk: SdkRef;
  betas: BetaInfo[];
  undocumentedBetas: UndocumentedBeta[];
  toolTypes: TypeInfo[];
  agentConfigTypes?: AgentConfigTypeInfo[];
  editTypes: TypeInfo[];
  contentBlockTypes: string[];
  models: ModelInfo[];
}

export interface KnownNamesExtra {
  betas?: string[];
  toolTypes?: string[];
  models?: ModelInfo[];
}

const TABLE = data as unknown as KnownNamesFile;

export function loadKnownNames(extra: KnownNamesExtra = {}): KnownNames {
  const betas = new Map<string, BetaInfo>();
  for (const b of TABLE.betas) betas.set(b.name, { ...b, origin: 'table' });
  for (const name of extra.betas ?? []) betas.set(name, { name, status: 'current', origin: 'config' });
  const toolTypes = new Map<string, TypeInfo>();
  for (const t of TABLE.toolTypes) toolTypes.set(t.name, { ...t, origin: 'table' });
  for (const name of extra.toolTypes ?? []) toolTypes.set(name, { name, origin: 'config' });
  const editTypes = new Map<string, TypeInfo>();
  for (const t of TABLE.editTypes) editTypes.set(t.name, { ...t, origin: 'table' });
  const undocumentedBetas = new Map(TABLE.undocumentedBetas.map((u) => [u.name, u]));
  // Config models go first so that they override the table's figures.
  const models = [...(extra.models ?? []), ...TABLE.models];
  return {
    asOf: TABLE.asOf,
    sdk: TABLE.sdk,
    betas,
    undocumentedBetas,
    toolTypes,
    agentConfigTypes: new Map((TABLE.agentConfigTypes ?? []).map((t) => [t.name, t])),
    editTypes,
    contentBlockTypes: new Set(TABLE.contentBlockTypes),
    models,
    projectSdks: [],
  };
}

/**
 * The names with a project's own SDKs merged in: what they declare counts as known (the
 * table's facts about a name, when it has them, stay).
 */
export function withProjectSdks(known: KnownNames, sdks: readonly ProjectSdkNames[]): KnownNames {
  if (!sdks.length) return known;
  const betas = new Map(known.betas);
  const toolTypes = new Map(known.toolTypes);
  const editTypes = new Map(known.editTypes);
  const contentBlockTypes = new Set(known.contentBlockTypes);
  const models = [...known.models];
  for (const sdk of sdks) {
    for (const name of sdk.betas) if (!betas.has(name)) betas.set(name, { name, status: 'current', origin: 'project' });
    for (const name of sdk.toolTypes) if (!toolTypes.has(name)) toolTypes.set(name, { name, origin: 'project' });
    for (const name of sdk.editTypes) if (!editTypes.has(name)) editTypes.set(name, { name, origin: 'project' });
    for (const name of sdk.contentBlockTypes) contentBlockTypes.add(name);
    for (const id of sdk.models) {
      // A model the table lacks is known by name only: no minimum, no price, no lifecycle.
      if (!modelInfo({ ...known, models }, id)) models.push({ id, family: id });
    }
  }
  const projectSdks = [...known.projectSdks, ...sdks.map(({ language, package: pkg, version, apiVersion, dir }) => ({ language, package: pkg, version, ...(apiVersion ? { apiVersion } : {}), dir }))];
  return { ...known, betas, toolTypes, editTypes, contentBlockTypes, models, projectSdks };
}

/** The project SDK that serves requests written against an SDK, if one was found. */
export function projectSdkFor(known: KnownNames, sdk: Sdk): ProjectSdk | undefined {
  const ecosystem = sdk === 'python' ? 'python' : 'javascript';
  return known.projectSdks.find((s) => s.language === ecosystem);
}

/**
 * Where names were looked up, for messages: "prefixlint's table (SDK 1.14.0, as of 2026-12-01)
 * nor in this project's anthropic 2.3.0".
 */
export function lookedUpIn(known: KnownNames): string {
  const table = `prefixlint's table (SDK ${known.sdk.version}, as of ${known.asOf})`;
  // The project's copy of the SDK the table was generated from adds nothing to say.
  const own = known.projectSdks.filter((s) => s.package !== known.sdk.package || s.version !== known.sdk.version);
  if (!own.length) return table;
  return `${table} nor in this project's ${own.map((s) => `${s.package} ${s.version}`).join(' or ')}`;
}

/** Compares dotted version numbers (`0.129.0` < `1.0.0`); a pre-release tag counts as its release. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split(/[.+-]/).map((x) => parseInt(x, 10));
  const pb = b.split(/[.+-]/).map((x) => parseInt(x, 10));
  for (let i = 0; i < 3; i++) {
    const d = (Number.isNaN(pa[i]) ? 0 : (pa[i] ?? 0)) - (Number.isNaN(pb[i]) ? 0 : (pb[i] ?? 0));
    if (d) return d < 0 ? -1 : 1;
  }
  return 0;
}

/** A beta header name: `feature-name-YYYY-MM-DD`. */
export const BETA_NAME_SHAPE = /^[a-z0-9]+(?:-[a-z0-9]+)*-\d{4}-\d{2}-\d{2}$/;
/** A dated type name: `feature_name_YYYYMMDD`. */
export const DATED_TYPE_SHAPE = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*_\d{8}$/;
/** Anything that carries a date, in either spelling or a broken one. */
export const LOOKS_DATED = /\d{4}[-_]?\d{2}[-_]?\d{2}$/;

/** `compact_20260112` -> `compact-2026-01-12`, or undefined when the shape does not fit. */
export function typeToBetaSpelling(name: string): string | undefined {
  const m = /^([a-z0-9_]+?)_(\d{4})(\d{2})(\d{2})$/.exec(name);
  return m ? `${m[1].replace(/_/g, '-')}-${m[2]}-${m[3]}-${m[4]}` : undefined;
}

/** `compact-2026-01-12` -> `compact_20260112`. */
export function betaToTypeSpelling(name: string): string | undefined {
  const m = /^([a-z0-9-]+?)-(\d{4})-(\d{2})-(\d{2})$/.exec(name);
  return m ? `${m[1].replace(/-/g, '_')}_${m[2]}${m[3]}${m[4]}` : undefined;
}

/** Known names within `max` edits, closest first. */
export function closeNames(name: string, known: Iterable<string>, max: number): string[] {
  const scored: Array<[string, number]> = [];
  for (const k of known) {
    const d = editDistance(name, k, max);
    if (d <= max) scored.push([k, d]);
  }
  scored.sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0]));
  const best = scored.length ? scored[0][1] : 0;
  return scored.filter(([, d]) => d === best).map(([k]) => k);
}

/**
 * The id a platform spelling stands for: Vertex `claude-sonnet-4-6@20250929` or `@default`,
 * Bedrock `us.anthropic.claude-sonnet-4-6-v1:0`, and `-latest`.
 */
function baseModelId(model: string): string {
  return model
    .replace(/@[\w.-]*$/, '')
    .replace(/^(?:[a-z]{2,6}\.)?anthropic\./, '')
    .replace(/-v\d+(?::\d+)?$/, '')
    .replace(/-latest$/, '');
}

/**
 * The table entry of a model: its id, one of its aliases, or a dated snapshot of its id
 * (`claude-sonnet-4-20250514`). Never a prefix: `claude-sonnet-5-5` is not `claude-sonnet-5`.
 * Configuration entries marked `prefix` match every id that starts with theirs, and win.
 */
export function modelInfo(known: Pick<KnownNames, 'models'>, model: string): ModelInfo | undefined {
  let best: ModelInfo | undefined;
  for (const m of known.models) if (m.prefix && model.startsWith(m.id) && (!best || m.id.length > best.id.length)) best = m;
  if (best) return best;
  const id = baseModelId(model);
  const undated = id.replace(/-\d{8}$/, '');
  for (const candidate of [model, id, undated]) {
    const hit = known.models.find((m) => !m.prefix && (m.id === candidate || m.aliases?.includes(candidate)));
    if (hit) return hit;
  }
  return undefined;
}

/** `anthropic.AnthropicBedrock`, `@anthropic-ai/vertex-sdk.AnthropicVertex`, … -> the platform; undefined when not seen. */
export function platformOfClient(client: string | undefined): Platform | undefined {
  if (!client) return undefined;
  if (/Bedrock|Aws|AWS/.test(client)) return 'bedrock';
  if (/Vertex/.test(client)) return 'vertex';
  if (/Foundry/.test(client)) return 'foundry';
  return 'anthropic';
}
