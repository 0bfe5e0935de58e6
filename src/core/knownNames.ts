/**
 * The known-names table (betas, tool types, edit types, content block types, models): data,
 * kept in one dated file (src/data/known-names.json), extendable from config.
 */
import data from '../data/known-names.json';
import { editDistance } from './editDistance';

export interface BetaInfo {
  name: string;
  status: 'current' | 'ga' | 'deprecated';
  gaSince?: string;
  note?: string;
}
export interface TypeInfo {
  name: string;
  /** The beta header this type needs, if any. */
  beta?: string;
  minTrigger?: number;
}
export interface ModelInfo {
  match: string;
  family: string;
  minCacheable: number;
  tokenizer: number;
  price?: { input: number; write5m: number; write1h: number; read: number };
  toolPrompt?: { auto: number; any: number };
}

export interface KnownNames {
  asOf: string;
  betas: Map<string, BetaInfo>;
  toolTypes: Map<string, TypeInfo>;
  editTypes: Map<string, TypeInfo>;
  contentBlockTypes: Set<string>;
  models: ModelInfo[];
}

export interface KnownNamesExtra {
  betas?: string[];
  toolTypes?: string[];
  models?: ModelInfo[];
}

export function loadKnownNames(extra: KnownNamesExtra = {}): KnownNames {
  const betas = new Map<string, BetaInfo>();
  for (const b of data.betas as BetaInfo[]) betas.set(b.name, b);
  for (const name of extra.betas ?? []) betas.set(name, { name, status: 'current' });
  const toolTypes = new Map<string, TypeInfo>();
  for (const t of data.toolTypes as TypeInfo[]) toolTypes.set(t.name, t);
  for (const name of extra.toolTypes ?? []) toolTypes.set(name, { name });
  const editTypes = new Map<string, TypeInfo>();
  for (const t of data.editTypes as TypeInfo[]) editTypes.set(t.name, t);
  // Config models go first so that they override the table for the same prefix.
  const models = [...(extra.models ?? []), ...(data.models as ModelInfo[])];
  return { asOf: data.asOf, betas, toolTypes, editTypes, contentBlockTypes: new Set(data.contentBlockTypes), models };
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

export function modelInfo(known: KnownNames, model: string): ModelInfo | undefined {
  // Longest prefix wins, so `claude-opus-4-5` is not taken for `claude-opus-4`.
  let best: ModelInfo | undefined;
  for (const m of known.models) if (model.startsWith(m.match) && (!best || m.match.length > best.match.length)) best = m;
  return best;
}
