/**
 * Finding and resolving the project configuration for a file. The CLI and the language server
 * reach it through engine/config.ts (`configFor`); it reads files only through a ConfigHost and
 * knows the rules only as they are given to it.
 *
 * The project of a file is the nearest folder, from the file's folder up, that has a
 * configuration: `.prefixlintrc.json` (JSON with comments), `pyproject.toml` with a
 * `[tool.prefixlint]` table, or `package.json` with a `"prefixlint"` key. The search stops at
 * the folder that holds `.git`. When one folder has several, they are merged in that order of
 * precedence (see mergeLayers). Folders above the project's are not read: the nearest wins.
 */
import * as path from 'node:path';
import ignore from 'ignore';
import type { Ignore } from 'ignore';
import { parse as parseJsonc, printParseErrorCode } from 'jsonc-parser';
import type { ParseError } from 'jsonc-parser';
import picomatch from 'picomatch';
import { parse as parseToml, TomlError } from 'smol-toml';
import type { Severity } from '../core/diagnostic';
import { SEVERITY_RANK } from '../core/diagnostic';
import { loadKnownNames, modelInfo, withProjectSdks } from '../core/knownNames';
import type { KnownNames, ModelInfo, ProjectSdkNames } from '../core/knownNames';
import { RULE_GROUPS } from '../core/rule';
import type { Rule } from '../core/rule';
import { LineIndex } from '../core/span';
import { findSdkLocations, ProjectSdkReader } from './projectSdk';
import type { FolderSdks } from './projectSdk';
import type { DeclarationParser } from './projectSdk';
import { ConfigError, mergeLayers, validateLayer } from './schema';
import type { ConfigLayer, RuleLevel } from './schema';

export { ConfigError };

export interface ConfigHost {
  /** A file's text, or undefined when it does not exist or cannot be read. */
  readFile(absPath: string): string | undefined;
  /** Whether a file or folder exists. */
  exists(absPath: string): boolean;
  /** The names in a folder (optional: finding a Python environment's `lib/python3.X` uses it when `pyvenv.cfg` does not say). */
  listDir?(absPath: string): string[] | undefined;
}

export const CONFIG_FILE = '.prefixlintrc.json';

/**
 * The sources of a folder, highest precedence first. `pyproject.toml` and `package.json`
 * belong to other tools: one that does not parse is prefixlint's concern only when its text
 * shows that it configures prefixlint (`claims`); a templated or broken one elsewhere in a
 * repository is passed over.
 */
const SOURCES: ReadonlyArray<{ name: string; where: string; read(text: string, file: string): unknown; claims?: RegExp }> = [
  { name: CONFIG_FILE, where: '', read: readJsonc },
  { name: 'pyproject.toml', where: '[tool.prefixlint]', read: (text, file) => table(readToml(text, file), ['tool', 'prefixlint']), claims: /^\s*\[\[?\s*tool\s*\.\s*prefixlint\s*[\].]|^\s*tool\s*\.\s*prefixlint\s*[.=]/m },
  { name: 'package.json', where: '"prefixlint"', read: (text, file) => table(readJson(text, file), ['prefixlint']), claims: /"prefixlint"\s*:/ },
];

/** The names of the files a configuration can be in, highest precedence first (an editor watches them). */
export const CONFIG_FILE_NAMES: readonly string[] = SOURCES.map((s) => s.name);

/** The default when neither the command line nor a configuration says. */
export const DEFAULT_FAIL_LEVEL: Severity = 'warning';

export interface ProjectConfig {
  /** The folder the configuration files are in; globs are relative to it. */
  root: string;
  /** The files read, highest precedence first. */
  files: string[];
  settings: ConfigLayer;
  known: KnownNames;
}

/**
 * What the command line (or an editor's settings) sets over the configuration: one more layer,
 * above the project's files and their per-path overrides.
 */
export interface ConfigOverrides {
  /** Replaces the selection of every configuration (select, ignore and "off"). */
  select?: readonly string[];
  /** Added to every configuration's ignore list. */
  ignore?: readonly string[];
  /**
   * Severity per rule id or group, over the configuration's (an id over its group); "off" turns
   * the rule off. A level does not turn on a rule that the configuration turned off.
   */
  rules?: Readonly<Record<string, RuleLevel>>;
  failLevel?: Severity;
}

/** The configuration in force for one file. */
export interface FileConfig {
  project?: ProjectConfig;
  /** The rules to run. */
  rules: Rule[];
  /** Severity overrides for the rules that run. */
  severity: Record<string, Severity>;
  known: KnownNames;
  failLevel: Severity;
}

export class ConfigResolver {
  private readonly byDir = new Map<string, ProjectConfig | null>();
  /** Folders whose configuration is broken, with the error (thrown again for each file there). */
  private readonly errors = new Map<string, ConfigError>();
  private defaultKnown?: KnownNames;
  private readonly matchers = new Map<ProjectConfig, { include?: picomatch.Matcher; exclude?: Ignore; overrides: picomatch.Matcher[] }>();
  private sdkReader?: ProjectSdkReader;
  private readonly sdksByDir = new Map<string, ProjectSdkNames[]>();
  /** What each folder holds of the SDK search (findSdkLocations), for the resolver's lifetime as sdksByDir. */
  private readonly sdkFolders = new Map<string, FolderSdks>();
  private readonly knownWithSdks = new Map<string, KnownNames>();

  constructor(
    private readonly host: ConfigHost,
    /** Every rule there is (the registry). */
    private readonly rules: readonly Rule[],
  ) {}

  /**
   * Reads the project's own SDKs (node_modules, Python environments) with these parsers from now
   * on, so that their names count as known. Without it only the table and the configuration do.
   * Pass a long-lived reader to keep what it read across resolvers.
   */
  useParsers(parser: DeclarationParser, reader?: ProjectSdkReader): this {
    this.sdkReader = reader ?? new ProjectSdkReader(parser);
    return this;
  }

  /**
   * The project configuration that applies in a folder (absolute), if there is one. Throws
   * ConfigError, for every folder the broken configuration governs (and only those).
   */
  projectFor(dir: string): ProjectConfig | undefined {
    const cached = this.byDir.get(dir);
    if (cached !== undefined) return cached ?? undefined;
    const broken = this.errors.get(dir);
    if (broken) throw broken;
    let found: ProjectConfig | null;
    try {
      found = this.read(dir);
    } catch (err) {
      if (err instanceof ConfigError) this.errors.set(dir, err);
      throw err;
    }
    if (!found) {
      const parent = path.dirname(dir);
      const stop = parent === dir || this.host.exists(path.join(dir, '.git'));
      try {
        found = stop ? null : (this.projectFor(parent) ?? null);
      } catch (err) {
        if (err instanceof ConfigError) this.errors.set(dir, err);
        throw err;
      }
    }
    this.byDir.set(dir, found);
    return found ?? undefined;
  }

  /**
   * forFile's answers by folder, for each set of command-line overrides: a file that no
   * `overrides` entry of its project matches gets its folder's configuration (a run asks for
   * every file, most of them in folders it has seen).
   */
  private readonly byFolder = new WeakMap<ConfigOverrides, Map<string, FileConfig>>();

  /** The configuration in force for a file (absolute path). Throws ConfigError. */
  forFile(file: string, over: ConfigOverrides = {}): FileConfig {
    const dir = path.dirname(file);
    const project = this.projectFor(dir);
    const overrides = project ? this.matchingOverrides(project, file) : [];
    let folders: Map<string, FileConfig> | undefined;
    if (!overrides.length) {
      folders = this.byFolder.get(over);
      if (!folders) this.byFolder.set(over, (folders = new Map()));
      const known = folders.get(dir);
      if (known) return known;
    }
    const config = this.resolveFor(dir, project, overrides, over);
    folders?.set(dir, config);
    return config;
  }

  private resolveFor(dir: string, project: ProjectConfig | undefined, overrides: ReturnType<ConfigResolver['matchingOverrides']>, over: ConfigOverrides): FileConfig {
    const s = project?.settings ?? {};
    const levels: Record<string, RuleLevel> = { ...s.rules };
    for (const o of overrides) Object.assign(levels, o.rules);

    let selected: Rule[];
    let ignored: string[];
    if (over.select?.length) {
      selected = this.rules.filter((r) => matches(r, over.select!));
      ignored = [...(over.ignore ?? [])];
    } else {
      const select = [...overrides].reverse().find((o) => o.select?.length)?.select ?? s.select;
      selected = select?.length ? this.rules.filter((r) => matches(r, select)) : [...this.rules];
      ignored = [...(s.ignore ?? []), ...overrides.flatMap((o) => o.ignore ?? []), ...(over.ignore ?? [])];
      selected = selected.filter((r) => levels[r.meta.id] !== 'off');
    }
    const overLevel = (r: Rule): RuleLevel | undefined => over.rules?.[r.meta.id] ?? over.rules?.[r.meta.group];
    const rules = selected.filter((r) => !matches(r, ignored) && overLevel(r) !== 'off');
    const severity: Record<string, Severity> = {};
    for (const r of rules) {
      const level = overLevel(r) ?? levels[r.meta.id];
      if (level && level !== 'off') severity[r.meta.id] = level;
    }
    const base = project?.known ?? (this.defaultKnown ??= loadKnownNames());
    return {
      project,
      rules,
      severity,
      known: this.withSdks(base, dir, project),
      failLevel: over.failLevel ?? s.failLevel ?? DEFAULT_FAIL_LEVEL,
    };
  }

  /** The names of the SDKs installed for files in `dir` merged in, one KnownNames per distinct set. */
  private withSdks(base: KnownNames, dir: string, project: ProjectConfig | undefined): KnownNames {
    if (!this.sdkReader) return base;
    const configured = project?.settings.python?.interpreter;
    const interpreter = configured ? path.resolve(project!.root, configured) : undefined;
    const key = `${dir}\0${interpreter ?? ''}`;
    let sdks = this.sdksByDir.get(key);
    if (!sdks) {
      sdks = [];
      try {
        for (const at of findSdkLocations(this.host, dir, interpreter, this.sdkFolders)) {
          const names = this.sdkReader.read(this.host, at);
          if (names) sdks.push(names);
        }
      } catch {
        // A folder we cannot look into has no SDK for us; the table's names still apply.
      }
      this.sdksByDir.set(key, sdks);
    }
    if (!sdks.length) return base;
    const id = `${project?.root ?? ''}\0${sdks.map((s) => `${s.dir}@${s.version}`).join('\0')}`;
    let known = this.knownWithSdks.get(id);
    if (!known) {
      known = withProjectSdks(base, sdks);
      this.knownWithSdks.set(id, known);
    }
    return known;
  }

  /**
   * Whether a file or folder found by walking a folder is left out: by the `exclude` patterns of
   * its project, or (files only) by not matching its `include` globs.
   */
  excluded(abs: string, isDir: boolean): boolean {
    let project: ProjectConfig | undefined;
    try {
      project = this.projectFor(isDir ? abs : path.dirname(abs));
    } catch (err) {
      // A broken configuration excludes nothing; each file it governs reports the error.
      if (err instanceof ConfigError) return false;
      throw err;
    }
    if (!project) return false;
    const rel = relative(project.root, abs);
    if (rel === undefined || rel === '') return false;
    const m = this.matchersOf(project);
    if (m.exclude?.ignores(isDir ? `${rel}/` : rel)) return true;
    return !isDir && m.include !== undefined && !m.include(rel);
  }

  private matchingOverrides(project: ProjectConfig, file: string) {
    const list = project.settings.overrides ?? [];
    if (!list.length) return [];
    const rel = relative(project.root, file);
    if (rel === undefined) return [];
    const m = this.matchersOf(project);
    return list.filter((_, i) => m.overrides[i](rel));
  }

  private matchersOf(project: ProjectConfig) {
    let m = this.matchers.get(project);
    if (!m) {
      const s = project.settings;
      m = {
        include: s.include?.length ? globMatcher(s.include) : undefined,
        exclude: s.exclude?.length ? ignore().add(s.exclude) : undefined,
        overrides: (s.overrides ?? []).map((o) => globMatcher(o.files)),
      };
      this.matchers.set(project, m);
    }
    return m;
  }

  /** The configuration files of one folder, merged; null when it has none. */
  private read(dir: string): ProjectConfig | null {
    const layers: ConfigLayer[] = [];
    const files: string[] = [];
    const ctx = { ruleIds: this.rules.map((r) => r.meta.id), groups: RULE_GROUPS };
    for (const source of SOURCES) {
      const file = path.join(dir, source.name);
      // Asked for every folder walked: most have no such file, and a failed read costs far more than the check.
      if (!this.host.exists(file)) continue;
      const text = this.host.readFile(file);
      if (text === undefined) continue;
      // Another tool's file that never names prefixlint (not even through an escape) holds no configuration of ours.
      if (source.claims && !text.includes('prefixlint') && !text.includes('\\u')) continue;
      let raw: unknown;
      try {
        raw = source.read(text, file);
      } catch (err) {
        if (err instanceof ConfigError && source.claims && !source.claims.test(text)) continue;
        throw err;
      }
      if (raw === undefined) continue;
      layers.push(validateLayer(raw, file, source.where, ctx));
      files.push(file);
    }
    if (!layers.length) return null;
    const settings = mergeLayers(layers);
    return { root: dir, files, settings, known: knownNames(settings) };
  }
}

/** Known names with the configuration's additions and model figures. */
function knownNames(s: ConfigLayer): KnownNames {
  const base = loadKnownNames();
  const models: ModelInfo[] = [];
  for (const [match, o] of Object.entries(s.models ?? {})) {
    const table = modelInfo(base, match);
    const price = table?.price || o.price ? { ...{ input: 0, write5m: 0, write1h: 0, read: 0 }, ...table?.price, ...o.price } : undefined;
    // A model the table lacks gets the common minimum unless the configuration says; a table
    // model whose minimum no source confirms keeps it unknown.
    const minCacheable = o.minCacheable ?? table?.minCacheable ?? (table ? undefined : 1024);
    models.push({
      id: match,
      prefix: true,
      family: table?.family ?? match,
      ...(minCacheable !== undefined ? { minCacheable } : {}),
      tokenizer: o.tokenizer ?? table?.tokenizer ?? 1,
      ...(price ? { price } : {}),
      ...(table?.toolPrompt ? { toolPrompt: table.toolPrompt } : {}),
    });
  }
  if (!s.known?.betas?.length && !s.known?.toolTypes?.length && !models.length) return base;
  return loadKnownNames({ betas: s.known?.betas, toolTypes: s.known?.toolTypes, models });
}

/** Whether a rule is named by id or by its group. */
export function matches(rule: Rule, names: readonly string[]): boolean {
  return names.some((n) => n === rule.meta.id || n === rule.meta.group);
}

/** Findings at or above the fail level fail the run. */
export function fails(severity: Severity, failLevel: Severity): boolean {
  return SEVERITY_RANK[severity] >= SEVERITY_RANK[failLevel];
}

/** A path relative to a folder in POSIX form, or undefined when it is outside it. */
function relative(root: string, abs: string): string | undefined {
  const rel = path.relative(root, abs);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
  return rel.split(path.sep).join('/');
}

/**
 * Globs relative to the configuration's folder; a glob without a slash matches a file name
 * at any depth (`*.ipynb`), as in .gitignore.
 */
function globMatcher(globs: readonly string[]): picomatch.Matcher {
  return picomatch(
    globs.map((g) => (g.includes('/') ? g.replace(/^\.\//, '').replace(/^\//, '') : `**/${g}`)),
    { dot: true },
  );
}

function table(value: unknown, keys: readonly string[]): unknown {
  let v = value;
  for (const k of keys) {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined;
    v = (v as Record<string, unknown>)[k];
  }
  return v;
}

function readJsonc(text: string, file: string, strict = false): unknown {
  if (text.trim() === '') throw new ConfigError(file, 'the file is empty (write {} for no settings)');
  const errors: ParseError[] = [];
  const value: unknown = parseJsonc(text, errors, { allowTrailingComma: !strict, disallowComments: strict });
  if (errors.length) {
    const p = new LineIndex(text).position(errors[0].offset);
    throw new ConfigError(file, `invalid JSON at line ${p.line + 1}, column ${p.column + 1} (${printParseErrorCode(errors[0].error)})`);
  }
  return value;
}

function readJson(text: string, file: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // The JSON parser of jsonc-parser says where the problem is.
    return readJsonc(text, file, true);
  }
}

function readToml(text: string, file: string): unknown {
  try {
    return parseToml(text);
  } catch (err) {
    if (err instanceof TomlError) {
      const what = err.message.replace(/^Invalid TOML document:\s*/, '').split('\n')[0];
      throw new ConfigError(file, `invalid TOML at line ${err.line}, column ${err.column} (${what})`);
    }
    throw new ConfigError(file, `invalid TOML (${err instanceof Error ? err.message.split('\n')[0] : String(err)})`);
  }
}
