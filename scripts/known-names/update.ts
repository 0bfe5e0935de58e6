/**
 * Merges the names an SDK declares (readSdk.ts) into the known-names table, keeping the facts
 * that only the docs give (statuses, GA dates, the betas a type needs, minimum cacheable
 * lengths, prices, lifecycle dates, sources). Names the table has and the SDK lacks stay: the
 * docs and the SDKs' own code use names outside the unions. Models the SDK no longer lists
 * (retired ones) stay with their lifecycle facts, so the rules keep reporting code that sends
 * them.
 */
import type { BetaInfo, KnownNamesFile, ModelInfo } from '../../src/core/knownNames';
import { modelInfo } from '../../src/core/knownNames';
import type { SdkNames } from './readSdk';

export interface MergeResult {
  table: KnownNamesFile;
  /** Lines for the person running the script: what was added, what needs facts from the docs. */
  notes: string[];
}

/** `claude-opus-5-5` -> `Claude Opus 5.5`, `claude-3-5-haiku` -> `Claude Haiku 3.5`. */
export function familyName(id: string): string {
  const words = id.replace(/^claude-/, '').split('-');
  const names = words.filter((w) => !/^\d+$/.test(w)).map((w) => w[0].toUpperCase() + w.slice(1));
  const version = words.filter((w) => /^\d+$/.test(w)).join('.');
  return ['Claude', ...names, ...(version ? [version] : [])].join(' ');
}

/** A beta the SDK union lacks because it was retired or graduated before (scripts/known-names/historical-betas.json). */
export type HistoricalBeta = Pick<BetaInfo, 'name' | 'status' | 'gaSince' | 'deprecatedSince' | 'supersededBy' | 'removal' | 'note'> & { sources: string[] };

export function mergeSdkNames(current: KnownNamesFile, sdk: SdkNames, pkg = '@anthropic-ai/sdk', historical: readonly HistoricalBeta[] = []): MergeResult {
  const table: KnownNamesFile = structuredClone(current);
  const notes: string[] = [];
  const at = `${pkg}@${sdk.version}`;
  table.sdk = { package: pkg, version: sdk.version, ...(sdk.published ? { published: sdk.published } : {}), ...(sdk.apiVersion ? { apiVersion: sdk.apiVersion } : {}) };
  if (sdk.published && sdk.published > table.asOf) table.asOf = sdk.published;

  const betaNames = new Set(table.betas.map((b) => b.name));
  const addBeta = (name: string, where: string) => {
    if (betaNames.has(name)) return;
    betaNames.add(name);
    const entry: BetaInfo = { name, status: 'current', sources: [`${at} ${where}`] };
    table.betas.push(entry);
    notes.push(`added beta ${name} (status current: check the docs for a GA date)`);
  };
  for (const name of sdk.betas) addBeta(name, 'AnthropicBeta');
  for (const name of sdk.sentBetas) addBeta(name, 'sends it itself (lib/credentials)');
  const declared = new Set([...sdk.betas, ...sdk.sentBetas]);
  // The hand-kept list is where these names' facts live: its entry replaces the table's.
  for (const h of historical) {
    if (declared.has(h.name)) {
      notes.push(`historical beta ${h.name} is in ${at}: take it out of historical-betas.json`);
      continue;
    }
    const entry: BetaInfo = { ...h, sources: [...h.sources] };
    const i = table.betas.findIndex((b) => b.name === h.name);
    if (i >= 0) table.betas[i] = entry;
    else {
      table.betas.push(entry);
      betaNames.add(h.name);
      notes.push(`added historical beta ${h.name} (${h.status})`);
    }
  }
  for (const b of table.betas) if (!declared.has(b.name)) notes.push(`kept ${b.name}: not in ${at}, from ${b.sources?.join('; ') ?? 'the docs'}`);

  const toolNames = new Set(table.toolTypes.map((t) => t.name));
  const gaTools = new Set(sdk.toolTypes);
  for (const name of [...sdk.toolTypes, ...sdk.betaToolTypes]) {
    if (toolNames.has(name)) continue;
    toolNames.add(name);
    table.toolTypes.push({ name });
    notes.push(gaTools.has(name) ? `added tool type ${name}` : `added tool type ${name}: only in BetaToolUnion, add the beta it needs ("betas") from the docs`);
  }
  // Managed Agents agent-configuration types the Messages tool unions lack: a table entry in
  // `toolTypes` for one of them would make a Messages request that sends it look valid.
  const messagesTools = new Set([...sdk.toolTypes, ...sdk.betaToolTypes]);
  table.agentConfigTypes ??= [];
  const agentNames = new Set(table.agentConfigTypes.map((t) => t.name));
  for (const { name, field } of sdk.agentConfigTypes) {
    if (messagesTools.has(name)) continue;
    if (!agentNames.has(name)) {
      agentNames.add(name);
      table.agentConfigTypes.push({ name, field, sources: [`${at} AgentCreateParams.${field}`] });
      notes.push(`added Managed Agents agent-configuration type ${name} (${field})`);
    }
    const asTool = table.toolTypes.findIndex((t) => t.name === name);
    if (asTool >= 0) {
      table.toolTypes.splice(asTool, 1);
      notes.push(`removed ${name} from toolTypes: ${at} declares it only for a Managed Agents agent's ${field}`);
    }
  }
  const editNames = new Set(table.editTypes.map((t) => t.name));
  for (const name of sdk.editTypes) {
    if (editNames.has(name)) continue;
    editNames.add(name);
    table.editTypes.push({ name });
    notes.push(`added edit type ${name}: add the beta it needs ("betas") from the docs`);
  }
  const blocks = new Set(table.contentBlockTypes);
  for (const name of [...sdk.contentBlockTypes, ...sdk.betaContentBlockTypes]) {
    if (blocks.has(name)) continue;
    blocks.add(name);
    table.contentBlockTypes.push(name);
    notes.push(`added content block type ${name}`);
  }

  for (const id of sdk.models) {
    const entry = modelInfo(table, id);
    if (entry) {
      if (entry.id !== id && !entry.aliases?.includes(id)) entry.aliases = [...(entry.aliases ?? []), id];
      continue;
    }
    const stub: ModelInfo = { id, family: familyName(id), sources: [`${at} Model`] };
    table.models.push(stub);
    notes.push(`added model ${id}: fill in minCacheable, tokenizer, price and released from the docs`);
  }
  for (const [id, date] of Object.entries(sdk.deprecatedModels)) {
    const entry = modelInfo(table, id);
    if (!entry) {
      notes.push(`deprecated model ${id} (end of life ${date}) is not in the table`);
      continue;
    }
    if (entry.retires === date) continue;
    entry.retires = date;
    const source = `${at} internal/data/deprecated-models`;
    if (!entry.sources?.includes(source)) entry.sources = [...(entry.sources ?? []), source];
    notes.push(`${entry.id}: end of life ${date} (from ${source})`);
  }
  return { table, notes };
}

/**
 * The table as JSON with one entry per line, as the file is kept (diffs of a name are one line).
 */
export function formatTable(table: KnownNamesFile): string {
  const inline = (v: unknown): string => {
    if (Array.isArray(v)) return `[${v.map(inline).join(', ')}]`;
    if (v && typeof v === 'object') {
      const parts = Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined);
      return parts.length ? `{ ${parts.map(([k, x]) => `${JSON.stringify(k)}: ${inline(x)}`).join(', ')} }` : '{}';
    }
    return JSON.stringify(v);
  };
  const out: string[] = ['{'];
  const keys = Object.keys(table) as Array<keyof KnownNamesFile>;
  keys.forEach((key, i) => {
    const value = table[key];
    const comma = i < keys.length - 1 ? ',' : '';
    if (Array.isArray(value) && value.length && typeof value[0] === 'string') {
      const lines: string[] = [];
      let line = '';
      for (const s of value as string[]) {
        const item = JSON.stringify(s);
        if (line && line.length + item.length + 2 > 100) {
          lines.push(line + ',');
          line = '';
        }
        line += (line ? ', ' : '') + item;
      }
      if (line) lines.push(line);
      out.push(`  ${JSON.stringify(key)}: [`, ...lines.map((l) => `    ${l}`), `  ]${comma}`);
    } else if (Array.isArray(value)) {
      if (!value.length) {
        out.push(`  ${JSON.stringify(key)}: []${comma}`);
        return;
      }
      out.push(`  ${JSON.stringify(key)}: [`);
      value.forEach((entry, j) => out.push(`    ${inline(entry)}${j < value.length - 1 ? ',' : ''}`));
      out.push(`  ]${comma}`);
    } else {
      out.push(`  ${JSON.stringify(key)}: ${inline(value)}${comma}`);
    }
  });
  out.push('}');
  return out.join('\n') + '\n';
}

/** Names the SDK declares that the table lacks, by kind (empty when the table is up to date). */
export function missingFromTable(table: KnownNamesFile, sdk: SdkNames): Record<string, string[]> {
  const betas = new Set(table.betas.map((b) => b.name));
  const tools = new Set(table.toolTypes.map((t) => t.name));
  const edits = new Set(table.editTypes.map((t) => t.name));
  const blocks = new Set(table.contentBlockTypes);
  const messagesTools = new Set([...sdk.toolTypes, ...sdk.betaToolTypes]);
  const agents = new Set((table.agentConfigTypes ?? []).map((t) => t.name));
  const out: Record<string, string[]> = {
    betas: [...sdk.betas, ...sdk.sentBetas].filter((n) => !betas.has(n)),
    toolTypes: [...new Set([...sdk.toolTypes, ...sdk.betaToolTypes])].filter((n) => !tools.has(n)),
    agentConfigTypes: sdk.agentConfigTypes.filter(({ name }) => !messagesTools.has(name) && !agents.has(name)).map(({ name }) => name),
    agentConfigTypesInToolTypes: sdk.agentConfigTypes.filter(({ name }) => !messagesTools.has(name) && tools.has(name)).map(({ name }) => name),
    editTypes: sdk.editTypes.filter((n) => !edits.has(n)),
    contentBlockTypes: [...new Set([...sdk.contentBlockTypes, ...sdk.betaContentBlockTypes])].filter((n) => !blocks.has(n)),
    models: sdk.models.filter((id) => {
      const m = modelInfo(table, id);
      return !m || (m.id !== id && !m.aliases?.includes(id));
    }),
    deprecatedModels: Object.entries(sdk.deprecatedModels)
      .filter(([id, date]) => modelInfo(table, id)?.retires !== date)
      .map(([id, date]) => `${id} (end of life ${date})`),
  };
  for (const k of Object.keys(out)) if (!out[k].length) delete out[k];
  return out;
}
