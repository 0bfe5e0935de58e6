/**
 * Reads the names an installed `@anthropic-ai/sdk` package declares, with the TypeScript
 * compiler's parser and type checker (never by matching text): the `AnthropicBeta` union, the
 * `Model` union, the `type` of every member of the tool unions, of the content block param
 * unions and of the context-management edits, the `type` of the Managed Agents agent
 * configuration's `tools` and `multiagent` members, the beta the SDK sends itself for
 * workload identity, the default `anthropic-version`, and the deprecated-models data.
 *
 * Used by `npm run known-names` (which writes src/data/known-names.json) and by the test that
 * fails when the table lacks a name the installed SDK has.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';

export interface SdkNames {
  /** The package's version (package.json). */
  version: string;
  /** The release date from the package's CHANGELOG heading for this version, when it has one. */
  published?: string;
  /** The `anthropic-version` header the client sends by default. */
  apiVersion?: string;
  /** `AnthropicBeta` literals. */
  betas: string[];
  /** Beta names the SDK sends itself but does not list in `AnthropicBeta` (workload identity). */
  sentBetas: string[];
  /** `Model` literals. */
  models: string[];
  /** `type` of each member of `ToolUnion`. */
  toolTypes: string[];
  /** `type` of each member of `BetaToolUnion`. */
  betaToolTypes: string[];
  /** `type` of each member of `BetaContextManagementConfig.edits`. */
  editTypes: string[];
  /** `type` of each member of `ContentBlockParam`. */
  contentBlockTypes: string[];
  /** `type` of each member of `BetaContentBlockParam`. */
  betaContentBlockTypes: string[];
  /**
   * `type` of each member of the Managed Agents `AgentCreateParams` fields `tools` and
   * `multiagent`, with the field (an agent's configuration, not a Messages request).
   */
  agentConfigTypes: Array<{ name: string; field: string }>;
  /** Model id -> end-of-life date (YYYY-MM-DD) from `internal/data/deprecated-models`. */
  deprecatedModels: Record<string, string>;
}

/** The declaration files read, relative to the package folder. */
const FILES = {
  beta: 'resources/beta/beta.d.ts',
  messages: 'resources/messages/messages.d.ts',
  betaMessages: 'resources/beta/messages/messages.d.ts',
  credentials: 'lib/credentials/types.d.ts',
  agents: 'resources/beta/agents/agents.d.ts',
};

/** The fields of a Managed Agents agent configuration whose members carry a `type`. */
const AGENT_CONFIG_FIELDS = ['tools', 'multiagent'];

export function sdkPackageDir(root: string): string {
  return path.join(root, 'node_modules', '@anthropic-ai', 'sdk');
}

export function readSdkNames(pkgDir: string): SdkNames {
  const pkg = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8')) as { version: string };
  const roots = Object.values(FILES)
    .map((f) => path.join(pkgDir, f))
    .filter((f) => fs.existsSync(f));
  const program = ts.createProgram(roots, { noEmit: true, skipLibCheck: true, types: [], target: ts.ScriptTarget.ES2022, moduleResolution: ts.ModuleResolutionKind.Bundler, module: ts.ModuleKind.ESNext });
  const checker = program.getTypeChecker();

  const exported = (file: string, name: string): ts.Symbol | undefined => {
    const sf = program.getSourceFile(path.join(pkgDir, file));
    const moduleSymbol = sf && checker.getSymbolAtLocation(sf);
    if (!moduleSymbol) return undefined;
    return checker.getExportsOfModule(moduleSymbol).find((s) => s.name === name);
  };
  const declaredType = (file: string, name: string): ts.Type | undefined => {
    const s = exported(file, name);
    return s ? checker.getDeclaredTypeOfSymbol(s) : undefined;
  };
  /** String literals of a type (a union of literals, `(string & {})` members skipped). */
  const literals = (t: ts.Type | undefined): string[] => {
    if (!t) return [];
    const parts = t.isUnion() ? t.types : [t];
    return parts.filter((p): p is ts.StringLiteralType => p.isStringLiteral()).map((p) => p.value);
  };
  /** The `type` literal of each member of a union of object types. */
  const memberTypes = (t: ts.Type | undefined): string[] => {
    if (!t) return [];
    const out: string[] = [];
    for (const member of t.isUnion() ? t.types : [t]) {
      const prop = member.getProperty('type');
      const decl = prop?.valueDeclaration ?? prop?.declarations?.[0];
      if (!prop || !decl) continue;
      out.push(...literals(checker.getNonNullableType(checker.getTypeOfSymbolAtLocation(prop, decl))));
    }
    return out;
  };
  const editsType = (): ts.Type | undefined => {
    const config = declaredType(FILES.betaMessages, 'BetaContextManagementConfig');
    const edits = config?.getProperty('edits');
    const decl = edits?.valueDeclaration;
    if (!edits || !decl) return undefined;
    const arrayType = checker.getNonNullableType(checker.getTypeOfSymbolAtLocation(edits, decl));
    return checker.isArrayType(arrayType) ? checker.getTypeArguments(arrayType as ts.TypeReference)[0] : undefined;
  };
  /** `AgentCreateParams.<field>` for each field: the `type` of its (element type's) members. */
  const agentConfigTypes = (): Array<{ name: string; field: string }> => {
    const params = declaredType(FILES.agents, 'AgentCreateParams');
    const out: Array<{ name: string; field: string }> = [];
    for (const field of AGENT_CONFIG_FIELDS) {
      const prop = params?.getProperty(field);
      const decl = prop?.valueDeclaration;
      if (!prop || !decl) continue;
      let t = checker.getNonNullableType(checker.getTypeOfSymbolAtLocation(prop, decl));
      if (checker.isArrayType(t)) t = checker.getTypeArguments(t as ts.TypeReference)[0];
      for (const name of memberTypes(t)) if (!out.some((x) => x.name === name)) out.push({ name, field });
    }
    return out;
  };
  const sentBetas = (): string[] => {
    const s = exported(FILES.credentials, 'FEDERATION_BETA_HEADER');
    const decl = s?.valueDeclaration;
    return s && decl ? literals(checker.getTypeOfSymbolAtLocation(s, decl)) : [];
  };

  const unique = (xs: string[]) => [...new Set(xs)];
  return {
    version: pkg.version,
    published: publishedDate(pkgDir, pkg.version),
    apiVersion: defaultApiVersion(pkgDir),
    betas: unique(literals(declaredType(FILES.beta, 'AnthropicBeta'))),
    sentBetas: unique(sentBetas()),
    models: unique(literals(declaredType(FILES.messages, 'Model'))),
    toolTypes: unique(memberTypes(declaredType(FILES.messages, 'ToolUnion'))),
    betaToolTypes: unique(memberTypes(declaredType(FILES.betaMessages, 'BetaToolUnion'))),
    editTypes: unique(memberTypes(editsType())),
    contentBlockTypes: unique(memberTypes(declaredType(FILES.messages, 'ContentBlockParam'))),
    betaContentBlockTypes: unique(memberTypes(declaredType(FILES.betaMessages, 'BetaContentBlockParam'))),
    agentConfigTypes: agentConfigTypes(),
    deprecatedModels: deprecatedModels(pkgDir),
  };
}

/** Parses a source file of the package (TypeScript or JavaScript) without a program. */
function parseFile(file: string): ts.SourceFile | undefined {
  if (!fs.existsSync(file)) return undefined;
  return ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
}

function firstExisting(pkgDir: string, files: string[]): ts.SourceFile | undefined {
  for (const f of files) {
    const sf = parseFile(path.join(pkgDir, f));
    if (sf) return sf;
  }
  return undefined;
}

function propertyName(name: ts.PropertyName): string | undefined {
  return ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNoSubstitutionTemplateLiteral(name) ? name.text : undefined;
}

/** The string value of the first `'anthropic-version': '…'` property in the client source. */
function defaultApiVersion(pkgDir: string): string | undefined {
  const sf = firstExisting(pkgDir, ['src/client.ts', 'client.js', 'index.js']);
  let found: string | undefined;
  const visit = (node: ts.Node) => {
    if (found) return;
    if (ts.isPropertyAssignment(node) && propertyName(node.name) === 'anthropic-version' && ts.isStringLiteralLike(node.initializer)) {
      found = node.initializer.text;
      return;
    }
    ts.forEachChild(node, visit);
  };
  if (sf) visit(sf);
  return found;
}

/** `DEPRECATED_MODELS = { 'claude-…': 'November 30th, 2026', … }`, dates as YYYY-MM-DD. */
function deprecatedModels(pkgDir: string): Record<string, string> {
  const sf = firstExisting(pkgDir, ['src/internal/data/deprecated-models.ts', 'internal/data/deprecated-models.js']);
  const out: Record<string, string> = {};
  const visit = (node: ts.Node) => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.name.text === 'DEPRECATED_MODELS' && node.initializer) {
      let init: ts.Expression = node.initializer;
      while (ts.isAsExpression(init) || ts.isParenthesizedExpression(init) || ts.isSatisfiesExpression(init)) init = init.expression;
      if (ts.isObjectLiteralExpression(init)) {
        for (const p of init.properties) {
          if (!ts.isPropertyAssignment(p) || !ts.isStringLiteralLike(p.initializer)) continue;
          const id = propertyName(p.name);
          const date = englishDate(p.initializer.text);
          if (id && date) out[id] = date;
        }
      }
      return;
    }
    ts.forEachChild(node, visit);
  };
  if (sf) visit(sf);
  return out;
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** `November 30th, 2026` -> `2026-11-30`. */
export function englishDate(text: string): string | undefined {
  const m = /^([A-Za-z]+)\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})$/.exec(text.trim());
  if (!m) return undefined;
  const month = MONTHS.indexOf(m[1].toLowerCase());
  if (month < 0) return undefined;
  return `${m[3]}-${String(month + 1).padStart(2, '0')}-${m[2].padStart(2, '0')}`;
}

/** The date of the CHANGELOG heading `## [1.14.0](…) (2026-11-24)` for this version. */
function publishedDate(pkgDir: string, version: string): string | undefined {
  const file = path.join(pkgDir, 'CHANGELOG.md');
  if (!fs.existsSync(file)) return undefined;
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line.startsWith('## ')) continue;
    const heading = /^## \[?v?([0-9][^\]\s)]*)\]?(?:\([^)]*\))?\s*\((\d{4}-\d{2}-\d{2})\)/.exec(line);
    if (heading && heading[1] === version) return heading[2];
  }
  return undefined;
}
