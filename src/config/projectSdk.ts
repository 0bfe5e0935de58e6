/**
 * The linted project's own Anthropic SDKs: `node_modules/@anthropic-ai/sdk` found from a file's
 * folder up, and the `anthropic` package of a Python environment (`.venv`, `venv`, or the
 * site-packages of a configured interpreter). Their declared names (betas, models, tool, edit and
 * content block types) count as known, so a project on a newer SDK than prefixlint's table gets
 * no finding on names only that SDK knows. Files are read through the host and parsed with the
 * engine's parsers; nothing of the project is run. One module for the CLI and the language
 * server: they call it through ConfigResolver.
 */
import * as path from 'node:path';
import type { ProjectSdkNames } from '../core/knownNames';
import type { LanguageId } from '../core/model';

export interface SdkHost {
  readFile(absPath: string): string | undefined;
  exists(absPath: string): boolean;
  /** The names in a folder, when the host can list folders (used to find `lib/python3.X`). */
  listDir?(absPath: string): string[] | undefined;
}

/**
 * The parts of a syntax node that reading declarations needs; the engine's syntax trees have
 * them (configuration stays independent of the language front ends, which the engine brings).
 */
export interface SyntaxNode {
  readonly type: string;
  readonly text: string;
  readonly namedChildren: SyntaxNode[];
  childForFieldName(name: string): SyntaxNode | null;
  childrenForFieldName(name: string): SyntaxNode[];
  forEachDescendant(visit: (node: SyntaxNode, depth: number) => void): void;
}

/** What the discovery needs of the engine's parsers (lang/parsers.ts `Parsers`). */
export interface DeclarationParser {
  parse(lang: LanguageId, text: string): { rootNode: SyntaxNode };
}

/** A declaration file larger than this is not read (the largest SDK file is ~330 kB). */
const MAX_FILE_BYTES = 4_000_000;
/** At most this many files per SDK (the Python SDK spreads a union over one file per member). */
const MAX_FILES_PER_SDK = 400;

/** Where an SDK is installed, before its files are read. */
interface SdkLocation {
  language: 'python' | 'javascript';
  /** The package folder: `…/node_modules/@anthropic-ai/sdk` or `…/site-packages/anthropic`. */
  dir: string;
}

/**
 * Reads SDKs' names, cached by package folder and version (an upgrade in place is seen the next
 * time a resolver looks; the version file is small and read each time).
 */
export class ProjectSdkReader {
  private readonly cache = new Map<string, ProjectSdkNames | null>();

  constructor(private readonly parser: DeclarationParser) {}

  read(host: SdkHost, at: SdkLocation): ProjectSdkNames | undefined {
    // A package that does not look like the SDK we know gives no names, never a failure.
    try {
      const version = at.language === 'javascript' ? jsVersion(host, at.dir) : pyVersion(host, this.parser, at.dir);
      if (!version) return undefined;
      const key = `${at.dir}\0${version}`;
      let names = this.cache.get(key);
      if (names === undefined) {
        try {
          names = at.language === 'javascript' ? readJsSdk(host, this.parser, at.dir, version) : readPySdk(host, this.parser, at.dir, version);
        } catch {
          names = null;
        }
        this.cache.set(key, names);
      }
      return names ?? undefined;
    } catch {
      return undefined;
    }
  }
}

/**
 * The SDK locations that serve files in `dir`: the nearest `node_modules/@anthropic-ai/sdk` and
 * the nearest Python environment with `anthropic`, from `dir` up to the folder that holds `.git`.
 * A configured interpreter (absolute) comes before `.venv` / `venv`.
 */
export function findSdkLocations(host: SdkHost, dir: string, pythonInterpreter?: string): SdkLocation[] {
  const out: SdkLocation[] = [];
  let js: SdkLocation | undefined;
  let py: SdkLocation | undefined = pythonInterpreter ? pythonFromInterpreter(host, pythonInterpreter) : undefined;
  for (let d = dir; ; d = path.dirname(d)) {
    if (!js) {
      const pkg = path.join(d, 'node_modules', '@anthropic-ai', 'sdk');
      if (host.exists(path.join(pkg, 'package.json'))) js = { language: 'javascript', dir: pkg };
    }
    if (!py) {
      for (const env of ['.venv', 'venv']) {
        const found = pythonFromEnv(host, path.join(d, env));
        if (found) {
          py = found;
          break;
        }
      }
    }
    if ((js && py) || host.exists(path.join(d, '.git')) || path.dirname(d) === d) break;
  }
  if (js) out.push(js);
  if (py) out.push(py);
  return out;
}

// ------------------------------------------------------------------------------------ Python environments

/** `…/env/bin/python3.12` or `…\env\Scripts\python.exe` -> the env's `anthropic` package. */
function pythonFromInterpreter(host: SdkHost, interpreter: string): SdkLocation | undefined {
  const prefix = path.dirname(path.dirname(interpreter));
  const fromName = /python(\d+\.\d+)/.exec(path.basename(interpreter))?.[1];
  return pythonFromEnv(host, prefix, fromName);
}

function pythonFromEnv(host: SdkHost, env: string, knownVersion?: string): SdkLocation | undefined {
  if (!host.exists(env)) return undefined;
  const candidates: string[] = [path.join(env, 'Lib', 'site-packages')];
  const versions = new Set<string>();
  if (knownVersion) versions.add(knownVersion);
  const cfg = host.readFile(path.join(env, 'pyvenv.cfg'));
  const cfgVersion = cfg && /^\s*(?:version|version_info)\s*=\s*(\d+\.\d+)/m.exec(cfg)?.[1];
  if (cfgVersion) versions.add(cfgVersion);
  for (const name of host.listDir?.(path.join(env, 'lib')) ?? []) {
    const m = /^python(\d+\.\d+)$/.exec(name);
    if (m) versions.add(m[1]);
  }
  for (const v of versions) {
    candidates.push(path.join(env, 'lib', `python${v}`, 'site-packages'), path.join(env, 'lib', `python${v}`, 'dist-packages'), path.join(env, 'local', 'lib', `python${v}`, 'dist-packages'));
  }
  candidates.push(path.join(env, 'lib', 'python3', 'dist-packages'));
  for (const sitePackages of candidates) {
    const pkg = path.join(sitePackages, 'anthropic');
    if (host.exists(path.join(pkg, '_version.py'))) return { language: 'python', dir: pkg };
  }
  return undefined;
}

// ------------------------------------------------------------------------------------ reading files

function readSmall(host: SdkHost, file: string): string | undefined {
  const text = host.readFile(file);
  return text !== undefined && text.length <= MAX_FILE_BYTES ? text : undefined;
}

function jsVersion(host: SdkHost, dir: string): string | undefined {
  const text = readSmall(host, path.join(dir, 'package.json'));
  if (!text) return undefined;
  try {
    const pkg = JSON.parse(text) as { name?: unknown; version?: unknown };
    return pkg.name === '@anthropic-ai/sdk' && typeof pkg.version === 'string' ? pkg.version : undefined;
  } catch {
    return undefined;
  }
}

function pyVersion(host: SdkHost, parser: DeclarationParser, dir: string): string | undefined {
  const text = readSmall(host, path.join(dir, '_version.py'));
  if (!text) return undefined;
  const root = parser.parse('python', text).rootNode;
  let version: string | undefined;
  root.forEachDescendant((n) => {
    if (version || n.type !== 'assignment') return;
    const left = n.childForFieldName('left');
    const right = n.childForFieldName('right');
    if (left?.text === '__version__' && right?.type === 'string') version = pyString(right);
  });
  return version;
}

function unique(xs: string[]): string[] {
  return [...new Set(xs)];
}

// ------------------------------------------------------------------------------------ TypeScript declarations

function tsString(n: SyntaxNode): string | undefined {
  if (n.type !== 'string') return undefined;
  return n.namedChildren.filter((c) => c.type === 'string_fragment').map((c) => c.text).join('');
}

/** Type aliases and interfaces of a declaration file, by name. */
function tsDeclarations(root: SyntaxNode): { aliases: Map<string, SyntaxNode>; interfaces: Map<string, SyntaxNode>; consts: Map<string, SyntaxNode> } {
  const aliases = new Map<string, SyntaxNode>();
  const interfaces = new Map<string, SyntaxNode>();
  const consts = new Map<string, SyntaxNode>();
  root.forEachDescendant((n) => {
    if (n.type === 'type_alias_declaration') {
      const name = n.childForFieldName('name')?.text;
      const value = n.childForFieldName('value');
      if (name && value && !aliases.has(name)) aliases.set(name, value);
    } else if (n.type === 'interface_declaration') {
      const name = n.childForFieldName('name')?.text;
      const body = n.childForFieldName('body');
      if (name && body && !interfaces.has(name)) interfaces.set(name, body);
    } else if (n.type === 'variable_declarator') {
      const name = n.childForFieldName('name')?.text;
      const value = n.childForFieldName('value');
      if (name && value) consts.set(name, value);
    }
  });
  return { aliases, interfaces, consts };
}

/** The members of a union type (nested unions and parentheses flattened). */
function unionMembers(t: SyntaxNode): SyntaxNode[] {
  if (t.type === 'union_type') return t.namedChildren.flatMap(unionMembers);
  if (t.type === 'parenthesized_type') return t.namedChildren.flatMap(unionMembers);
  return [t];
}

function tsLiterals(t: SyntaxNode | undefined): string[] {
  if (!t) return [];
  return unionMembers(t).flatMap((m) => {
    const s = m.type === 'literal_type' ? m.namedChildren.find((c) => c.type === 'string') : undefined;
    const v = s ? tsString(s) : undefined;
    return v !== undefined ? [v] : [];
  });
}

type TsFile = ReturnType<typeof tsDeclarations>;

/** The `type` literals of each member of a union of interfaces (looked up in the given files). */
function tsMemberTypes(union: SyntaxNode | undefined, files: TsFile[]): string[] {
  if (!union) return [];
  const out: string[] = [];
  for (const m of unionMembers(union)) {
    const name = m.type === 'nested_type_identifier' ? m.childForFieldName('name')?.text : m.type === 'type_identifier' ? m.text : undefined;
    if (!name) continue;
    const body = files.map((f) => f.interfaces.get(name)).find((b) => !!b);
    if (!body) continue;
    for (const prop of body.namedChildren) {
      if (prop.type !== 'property_signature' || prop.childForFieldName('name')?.text !== 'type') continue;
      const annotation = prop.childForFieldName('type')?.namedChildren[0];
      out.push(...tsLiterals(annotation));
    }
  }
  return out;
}

function readJsSdk(host: SdkHost, parser: DeclarationParser, dir: string, version: string): ProjectSdkNames {
  const parse = (rel: string): TsFile | undefined => {
    const text = readSmall(host, path.join(dir, rel));
    return text === undefined ? undefined : tsDeclarations(parser.parse('typescript', text).rootNode);
  };
  const beta = parse('resources/beta/beta.d.ts');
  const messages = parse('resources/messages/messages.d.ts');
  const betaMessages = parse('resources/beta/messages/messages.d.ts');
  const credentials = parse('lib/credentials/types.d.ts');
  const files = [betaMessages, messages].filter((f): f is TsFile => !!f);
  const federation = credentials?.consts.get('FEDERATION_BETA_HEADER');
  const editsProp = betaMessages?.interfaces.get('BetaContextManagementConfig')?.namedChildren.find((p) => p.type === 'property_signature' && p.childForFieldName('name')?.text === 'edits');
  const editsType = editsProp?.childForFieldName('type')?.namedChildren[0];
  const editsUnion = editsType?.type === 'generic_type' ? editsType.childForFieldName('type_arguments')?.namedChildren[0] : editsType?.type === 'array_type' ? editsType.namedChildren[0] : undefined;
  return {
    language: 'javascript',
    package: '@anthropic-ai/sdk',
    version,
    dir,
    apiVersion: defaultApiVersion(host, parser, dir, ['client.js', 'index.js'], 'javascript'),
    betas: unique([...tsLiterals(beta?.aliases.get('AnthropicBeta')), ...(federation ? [tsString(federation)].filter((s): s is string => !!s) : [])]),
    models: unique(tsLiterals(messages?.aliases.get('Model'))),
    toolTypes: unique([...tsMemberTypes(messages?.aliases.get('ToolUnion'), files), ...tsMemberTypes(betaMessages?.aliases.get('BetaToolUnion'), files)]),
    editTypes: unique(tsMemberTypes(editsUnion, files)),
    contentBlockTypes: unique([...tsMemberTypes(messages?.aliases.get('ContentBlockParam'), files), ...tsMemberTypes(betaMessages?.aliases.get('BetaContentBlockParam'), files)]),
  };
}

/** The string value of the first `'anthropic-version': '…'` pair in the client's source. */
function defaultApiVersion(host: SdkHost, parser: DeclarationParser, dir: string, files: string[], lang: LanguageId): string | undefined {
  for (const rel of files) {
    const text = readSmall(host, path.join(dir, rel));
    if (text === undefined) continue;
    let found: string | undefined;
    parser.parse(lang, text).rootNode.forEachDescendant((n) => {
      if (found || n.type !== 'pair') return;
      const key = n.childForFieldName('key');
      const value = n.childForFieldName('value');
      const k = key && (lang === 'python' ? pyString(key) : tsString(key));
      if (k === 'anthropic-version' && value) found = (lang === 'python' ? pyString(value) : tsString(value)) ?? undefined;
    });
    if (found) return found;
  }
  return undefined;
}

// ------------------------------------------------------------------------------------ Python modules

function pyString(n: SyntaxNode): string | undefined {
  if (n.type !== 'string') return undefined;
  return n.namedChildren.filter((c) => c.type === 'string_content').map((c) => c.text).join('');
}

/** Strings inside `Literal[...]` anywhere under a node (type annotations and alias values). */
function pyLiterals(n: SyntaxNode | null | undefined): string[] {
  if (!n) return [];
  const out: string[] = [];
  n.forEachDescendant((d) => {
    const isLiteral =
      (d.type === 'subscript' && d.childForFieldName('value')?.text === 'Literal') ||
      (d.type === 'generic_type' && d.namedChildren[0]?.type === 'identifier' && d.namedChildren[0].text === 'Literal');
    if (!isLiteral) return;
    d.forEachDescendant((s) => {
      const v = pyString(s);
      if (v !== undefined) out.push(v);
    });
  });
  return out;
}

interface PyModule {
  /** `Name: TypeAlias = <value>` and `Name = <value>` at module level. */
  assignments: Map<string, SyntaxNode>;
  /** Class name -> the annotation of its `type` field. */
  typeFields: Map<string, SyntaxNode>;
  /** Imported name -> the module it comes from, relative to the importing file (`./tool_param`). */
  imports: Map<string, string>;
}

function pyModule(root: SyntaxNode): PyModule {
  const assignments = new Map<string, SyntaxNode>();
  const typeFields = new Map<string, SyntaxNode>();
  const imports = new Map<string, string>();
  for (const stmt of root.namedChildren) {
    if (stmt.type === 'expression_statement') {
      const a = stmt.namedChildren[0];
      const left = a?.type === 'assignment' ? a.childForFieldName('left') : null;
      const right = a?.childForFieldName('right');
      if (left?.type === 'identifier' && right) assignments.set(left.text, right);
    } else if (stmt.type === 'class_definition') {
      const name = stmt.childForFieldName('name')?.text;
      const body = stmt.childForFieldName('body');
      for (const s of body?.namedChildren ?? []) {
        const a = s.type === 'expression_statement' ? s.namedChildren[0] : undefined;
        if (a?.type === 'assignment' && a.childForFieldName('left')?.text === 'type') {
          const t = a.childForFieldName('type');
          if (name && t) typeFields.set(name, t);
        }
      }
    } else if (stmt.type === 'import_from_statement') {
      const mod = stmt.childForFieldName('module_name');
      if (mod?.type !== 'relative_import') continue;
      const dots = mod.namedChildren.find((c) => c.type === 'import_prefix')?.text ?? '.';
      const dotted = mod.namedChildren.find((c) => c.type === 'dotted_name')?.text ?? '';
      const rel = (dots.length > 1 ? '../'.repeat(dots.length - 1) : './') + dotted.split('.').join('/');
      for (const n of stmt.childrenForFieldName('name')) {
        const imported = n.type === 'aliased_import' ? n.childForFieldName('alias')?.text : n.text;
        if (imported) imports.set(imported, rel);
      }
    }
  }
  return { assignments, typeFields, imports };
}

function readPySdk(host: SdkHost, parser: DeclarationParser, dir: string, version: string): ProjectSdkNames {
  let budget = MAX_FILES_PER_SDK;
  const modules = new Map<string, PyModule | null>();
  const load = (file: string): PyModule | undefined => {
    if (modules.has(file)) return modules.get(file) ?? undefined;
    if (budget-- <= 0) return undefined;
    const text = readSmall(host, file);
    const mod = text === undefined ? null : pyModule(parser.parse('python', text).rootNode);
    modules.set(file, mod);
    return mod ?? undefined;
  };
  const types = path.join(dir, 'types');
  const aliasLiterals = (file: string, name: string) => pyLiterals(load(file)?.assignments.get(name));
  /** The `type` literals of each class in the union alias `name` of `file`, following its imports. */
  const memberTypes = (file: string, name: string): string[] => {
    const mod = load(file);
    const union = mod?.assignments.get(name);
    if (!mod || !union) return [];
    const out: string[] = [];
    union.forEachDescendant((n) => {
      if (n.type !== 'identifier') return;
      const from = mod.imports.get(n.text);
      if (!from) return;
      const member = load(path.join(path.dirname(file), `${from}.py`));
      out.push(...pyLiterals(member?.typeFields.get(n.text)));
    });
    return out;
  };
  const federation = load(path.join(dir, 'lib', 'credentials', '_constants.py'))?.assignments.get('FEDERATION_BETA_HEADER');
  const federationName = federation ? pyString(federation) : undefined;
  return {
    language: 'python',
    package: 'anthropic',
    version,
    dir,
    apiVersion: defaultApiVersion(host, parser, dir, ['_client.py'], 'python'),
    betas: unique([...aliasLiterals(path.join(types, 'anthropic_beta_param.py'), 'AnthropicBetaParam'), ...(federationName ? [federationName] : [])]),
    models: unique([...aliasLiterals(path.join(types, 'model_param.py'), 'ModelParam'), ...aliasLiterals(path.join(types, 'model.py'), 'Model')]),
    toolTypes: unique([...memberTypes(path.join(types, 'tool_union_param.py'), 'ToolUnionParam'), ...memberTypes(path.join(types, 'beta', 'beta_tool_union_param.py'), 'BetaToolUnionParam')]),
    editTypes: unique(memberTypes(path.join(types, 'beta', 'beta_context_management_config_param.py'), 'Edit')),
    contentBlockTypes: unique([...memberTypes(path.join(types, 'content_block_param.py'), 'ContentBlockParam'), ...memberTypes(path.join(types, 'beta', 'beta_content_block_param.py'), 'BetaContentBlockParam')]),
  };
}
