/** The names an installed TypeScript SDK (`node_modules/@anthropic-ai/sdk`) declares, read from its `.d.ts` files. */
import * as path from 'node:path';
import type { SdkHost } from '../../core/knownNames';
import type { ProjectSdkNames } from '../../core/knownNames';
import type { Parse } from '../sdkFiles';
import { defaultApiVersion, readSmall, unique } from '../sdkFiles';
import type { SyntaxNode } from '../syntaxTree';

export function typescriptSdkVersion(host: SdkHost, _parse: Parse, dir: string): string | undefined {
  const text = readSmall(host, path.join(dir, 'package.json'));
  if (!text) return undefined;
  try {
    const pkg = JSON.parse(text) as { name?: unknown; version?: unknown };
    return pkg.name === '@anthropic-ai/sdk' && typeof pkg.version === 'string' ? pkg.version : undefined;
  } catch {
    return undefined;
  }
}

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

/** A `key: value` pair of an object literal. */
function pair(n: SyntaxNode): { key: SyntaxNode; value: SyntaxNode } | undefined {
  if (n.type !== 'pair') return undefined;
  const key = n.childForFieldName('key');
  const value = n.childForFieldName('value');
  return key && value ? { key, value } : undefined;
}

export function typescriptSdkNames(host: SdkHost, parse: Parse, dir: string, version: string): ProjectSdkNames {
  const load = (rel: string): TsFile | undefined => {
    const text = readSmall(host, path.join(dir, rel));
    return text === undefined ? undefined : tsDeclarations(parse('typescript', text).rootNode);
  };
  const beta = load('resources/beta/beta.d.ts');
  const messages = load('resources/messages/messages.d.ts');
  const betaMessages = load('resources/beta/messages/messages.d.ts');
  const credentials = load('lib/credentials/types.d.ts');
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
    apiVersion: defaultApiVersion(host, parse, dir, ['client.js', 'index.js'], 'javascript', pair, tsString),
    betas: unique([...tsLiterals(beta?.aliases.get('AnthropicBeta')), ...(federation ? [tsString(federation)].filter((s): s is string => !!s) : [])]),
    models: unique(tsLiterals(messages?.aliases.get('Model'))),
    toolTypes: unique([...tsMemberTypes(messages?.aliases.get('ToolUnion'), files), ...tsMemberTypes(betaMessages?.aliases.get('BetaToolUnion'), files)]),
    editTypes: unique(tsMemberTypes(editsUnion, files)),
    contentBlockTypes: unique([...tsMemberTypes(messages?.aliases.get('ContentBlockParam'), files), ...tsMemberTypes(betaMessages?.aliases.get('BetaContentBlockParam'), files)]),
  };
}

