/** The names an installed Python SDK (the `anthropic` package of an environment) declares, read from its modules. */
import * as path from 'node:path';
import type { SdkHost } from '../../core/knownNames';
import type { ProjectSdkNames } from '../../core/knownNames';
import type { Parse } from '../sdkFiles';
import { defaultApiVersion, MAX_FILES_PER_SDK, readSmall, unique } from '../sdkFiles';
import type { SyntaxNode } from '../syntaxTree';

export function pythonSdkVersion(host: SdkHost, parse: Parse, dir: string): string | undefined {
  const text = readSmall(host, path.join(dir, '_version.py'));
  if (!text) return undefined;
  const root = parse('python', text).rootNode;
  let version: string | undefined;
  root.forEachDescendant((n) => {
    if (version || n.type !== 'assignment') return;
    const left = n.childForFieldName('left');
    const right = n.childForFieldName('right');
    if (left?.text === '__version__' && right?.type === 'string') version = pyString(right);
  });
  return version;
}

function pyString(n: SyntaxNode): string | undefined {
  if (n.type !== 'string') return undefined;
  return n.namedChildren.filter((c) => c.type === 'string_content').map((c) => c.text).join('');
}

/** A `key: value` pair of a dict literal. */
function pair(n: SyntaxNode): { key: SyntaxNode; value: SyntaxNode } | undefined {
  if (n.type !== 'pair') return undefined;
  const key = n.childForFieldName('key');
  const value = n.childForFieldName('value');
  return key && value ? { key, value } : undefined;
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

export function pythonSdkNames(host: SdkHost, parse: Parse, dir: string, version: string): ProjectSdkNames {
  let budget = MAX_FILES_PER_SDK;
  const modules = new Map<string, PyModule | null>();
  const load = (file: string): PyModule | undefined => {
    if (modules.has(file)) return modules.get(file) ?? undefined;
    if (budget-- <= 0) return undefined;
    const text = readSmall(host, file);
    const mod = text === undefined ? null : pyModule(parse('python', text).rootNode);
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
    apiVersion: defaultApiVersion(host, parse, dir, ['_client.py'], 'python', pair, pyString),
    betas: unique([...aliasLiterals(path.join(types, 'anthropic_beta_param.py'), 'AnthropicBetaParam'), ...(federationName ? [federationName] : [])]),
    models: unique([...aliasLiterals(path.join(types, 'model_param.py'), 'ModelParam'), ...aliasLiterals(path.join(types, 'model.py'), 'Model')]),
    toolTypes: unique([...memberTypes(path.join(types, 'tool_union_param.py'), 'ToolUnionParam'), ...memberTypes(path.join(types, 'beta', 'beta_tool_union_param.py'), 'BetaToolUnionParam')]),
    editTypes: unique(memberTypes(path.join(types, 'beta', 'beta_context_management_config_param.py'), 'Edit')),
    contentBlockTypes: unique([...memberTypes(path.join(types, 'content_block_param.py'), 'ContentBlockParam'), ...memberTypes(path.join(types, 'beta', 'beta_content_block_param.py'), 'BetaContentBlockParam')]),
  };
}
