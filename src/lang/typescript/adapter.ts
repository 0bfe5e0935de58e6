/** TypeScript, TSX and JavaScript syntax (tree-sitter-typescript / -javascript) in the normalised form. */
import type { Node } from '../parsers';
import type { Adapter, Arg, Binding, DictEntry, Expr, FunctionInfo, Mutation, TemplatePart } from '../syntax';
import { withKeptExprs } from '../syntax';
import { returnedValues, walk, walkTypes } from '../walk';
import type { FunctionReturnSyntax } from '../walk';

const FUNCTIONS = new Set(['function_declaration', 'function_expression', 'function', 'arrow_function', 'method_definition', 'generator_function_declaration', 'generator_function']);
/** How collectReturns finds a function's returns; definitions inside it have their own. */
const COMMENTS: ReadonlySet<string> = new Set(['comment']);
const RETURNS: FunctionReturnSyntax = { returnType: 'return_statement', commentTypes: COMMENTS, body: (fn) => fn.childForFieldName('body'), expressionBody: (_fn, body) => body.type !== 'statement_block', nested: new Set([...FUNCTIONS, 'class_declaration']) };
const SCOPES = new Set(['program', ...FUNCTIONS, 'class_declaration', 'class']);
const WRAPPERS = new Set(['parenthesized_expression', 'await_expression', 'as_expression', 'satisfies_expression', 'non_null_expression', 'type_assertion']);

const LOOP_STATEMENTS = new Set(['for_statement', 'for_in_statement', 'while_statement', 'do_statement']);
const CONDITIONAL = new Set(['if_statement', 'try_statement', 'switch_statement', 'ternary_expression']);

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"', '`': '`', '0': '\0', b: '\b', f: '\f', v: '\v', $: '$', '\n': '' };

function decodeEscape(seq: string): string {
  const c = seq[1];
  if (c in ESCAPES) return ESCAPES[c];
  if (c === 'x') return String.fromCharCode(parseInt(seq.slice(2), 16) || 0xfffd);
  if (c === 'u') return String.fromCodePoint(parseInt(seq.slice(2).replace(/[{}]/g, ''), 16) || 0xfffd);
  return seq.slice(1);
}

function named(node: Node): Node[] {
  return node.namedChildrenButComments;
}

function stringText(node: Node): string {
  let out = '';
  for (const c of node.namedChildren) {
    if (!c) continue;
    if (c.type === 'string_fragment') out += c.text;
    else if (c.type === 'escape_sequence') out += decodeEscape(c.text);
  }
  return out;
}

function args(list: Node | null): Arg[] {
  if (!list) return [];
  if (list.type === 'template_string') return [{ value: list }];
  return named(list).map((a) => (a.type === 'spread_element' ? { value: named(a)[0] ?? a, spread: 'list' as const } : { value: a }));
}

function propertyKey(key: Node): { key?: string; computed?: Node } {
  switch (key.type) {
    case 'property_identifier':
    case 'identifier':
    case 'private_property_identifier':
      return { key: key.text };
    case 'string':
      return { key: stringText(key) };
    case 'number':
      return { key: String(Number(key.text)) };
    case 'computed_property_name': {
      const inner = named(key)[0];
      if (inner?.type === 'string') return { key: stringText(inner) };
      return { computed: inner ?? key };
    }
    default:
      return { computed: key };
  }
}

/**
 * The names an object pattern binds, each to its key of the destructured object (`{ a, b: c,
 * d = 1, ...rest }`), for a declaration (`kind` 'assign', `value` the object) or a parameter
 * (`kind` 'param', the object is the argument). A key written otherwise (nested, computed) binds
 * an opaque name.
 */
function objectPatternBindings(pattern: Node, kind: 'assign' | 'param', at: Node, value?: Node): Binding[] {
  const out: Binding[] = [];
  const taken: string[] = [];
  let rest: Node | undefined;
  for (const p of named(pattern)) {
    if (p.type === 'shorthand_property_identifier_pattern') {
      out.push({ name: p.text, kind, at, nameNode: p, value, key: p.text });
      taken.push(p.text);
    } else if (p.type === 'pair_pattern') {
      const k = p.childForFieldName('key');
      const v = p.childForFieldName('value');
      const key = k ? propertyKey(k).key : undefined;
      if (key !== undefined) taken.push(key);
      // `{ system: instructions = '' }`: the key's value under another name, with the key's default.
      const target = v?.type === 'assignment_pattern' ? v.childForFieldName('left') : v;
      const d = v?.type === 'assignment_pattern' ? (v.childForFieldName('right') ?? undefined) : undefined;
      if (k && target?.type === 'identifier') out.push({ name: target.text, kind: key === undefined ? 'opaque' : kind, at, nameNode: target, value, key, ...(d ? { fallback: d } : {}) });
      else if (v) for (const n of patternNames(v)) out.push({ name: n.text, kind: 'opaque', at, nameNode: n });
    } else if (p.type === 'object_assignment_pattern') {
      // `{ model = "claude-…" } = options`: the key's value, or the default when it is absent.
      const l = p.childForFieldName('left');
      const r = p.childForFieldName('right');
      if (l?.type === 'shorthand_property_identifier_pattern' && r) {
        out.push({ name: l.text, kind, at, nameNode: l, value, key: l.text, fallback: r });
        taken.push(l.text);
      } else if (l) for (const n of patternNames(l)) out.push({ name: n.text, kind: 'opaque', at, nameNode: n });
    } else if (p.type === 'rest_pattern') rest = named(p).find((c) => c.type === 'identifier');
  }
  // `{ betas, ...rest } = request`: the other keys of the object.
  if (rest) out.push({ name: rest.text, kind, at, nameNode: rest, value, without: taken });
  return out;
}

/** The names a destructuring pattern binds (not the names its defaults read). */
function patternNames(pattern: Node): Node[] {
  switch (pattern.type) {
    case 'identifier':
    case 'shorthand_property_identifier_pattern':
      return [pattern];
    case 'pair_pattern': {
      const v = pattern.childForFieldName('value');
      return v ? patternNames(v) : [];
    }
    case 'object_assignment_pattern':
    case 'assignment_pattern': {
      const l = pattern.childForFieldName('left');
      return l ? patternNames(l) : [];
    }
    case 'object_pattern':
    case 'array_pattern':
    case 'rest_pattern':
      return named(pattern).flatMap(patternNames);
    default:
      return [];
  }
}

/** The node types `declares` and `mutation` read (the cases of their switches). */
const DECLARING = ['variable_declarator', 'assignment_expression', 'augmented_assignment_expression', 'for_in_statement', 'catch_clause', 'function_declaration', 'generator_function_declaration', 'class_declaration', 'import_statement'];
const MUTATING = ['assignment_expression', 'call_expression'];

export const typescriptAdapter: Adapter = withKeptExprs({
  family: 'js',
  indexedTypes: new Set([...SCOPES, ...DECLARING, ...MUTATING, 'call_expression', 'new_expression']),

  expr(node: Node): Expr {
    if (WRAPPERS.has(node.type)) {
      const inner = node.type === 'type_assertion' ? named(node)[named(node).length - 1] : named(node)[0];
      return inner ? { k: 'wrap', inner } : { k: 'other' };
    }
    switch (node.type) {
      case 'string':
        return { k: 'str', value: stringText(node) };
      case 'template_string': {
        const parts: TemplatePart[] = [];
        for (const c of node.namedChildren) {
          if (!c) continue;
          if (c.type === 'string_fragment') parts.push({ text: c.text });
          else if (c.type === 'escape_sequence') parts.push({ text: decodeEscape(c.text) });
          else if (c.type === 'template_substitution') {
            const e = named(c)[0];
            if (e) parts.push({ expr: e, whole: c });
          }
        }
        return { k: 'template', parts };
      }
      case 'number': {
        const v = Number(node.text.replace(/_/g, ''));
        return Number.isFinite(v) ? { k: 'num', value: v } : { k: 'other' };
      }
      case 'true':
        return { k: 'bool', value: true };
      case 'false':
        return { k: 'bool', value: false };
      case 'null':
      case 'undefined':
        return { k: 'null' };
      case 'identifier':
      case 'shorthand_property_identifier':
        return node.text === 'undefined' ? { k: 'null' } : { k: 'ident', name: node.text };
      case 'this':
        return { k: 'self' };
      case 'member_expression': {
        const object = node.childForFieldName('object');
        const prop = node.childForFieldName('property');
        return object && prop ? { k: 'member', object, prop: prop.text.replace(/^#/, '') } : { k: 'other' };
      }
      case 'subscript_expression': {
        const object = node.childForFieldName('object');
        const index = node.childForFieldName('index');
        return object && index ? { k: 'index', object, index } : { k: 'other' };
      }
      case 'call_expression': {
        const callee = node.childForFieldName('function');
        return callee ? { k: 'call', callee, args: args(node.childForFieldName('arguments')) } : { k: 'other' };
      }
      case 'new_expression': {
        const callee = node.childForFieldName('constructor');
        return callee ? { k: 'new', callee, args: args(node.childForFieldName('arguments')) } : { k: 'other' };
      }
      case 'array':
        return { k: 'list', items: named(node).map((c) => (c.type === 'spread_element' ? { value: named(c)[0] ?? c, spread: true } : { value: c })) };
      case 'object': {
        const entries: DictEntry[] = [];
        for (const c of named(node)) {
          if (c.type === 'pair') {
            const key = c.childForFieldName('key');
            const value = c.childForFieldName('value');
            if (!key || !value) continue;
            const k = propertyKey(key);
            entries.push(k.key !== undefined ? { key: k.key, keyNode: key, value } : { computedKey: k.computed, value });
          } else if (c.type === 'shorthand_property_identifier') {
            entries.push({ key: c.text, keyNode: c, value: c });
          } else if (c.type === 'spread_element') {
            const v = named(c)[0];
            if (v) entries.push({ value: v, spread: true });
          }
        }
        return { k: 'dict', entries };
      }
      case 'binary_expression': {
        const left = node.childForFieldName('left');
        const right = node.childForFieldName('right');
        const op = node.childForFieldName('operator');
        if (!left || !right || !op) return { k: 'other' };
        if (op.text === '||' || op.text === '??') return { k: 'cond', options: [left, right], fallback: true };
        return { k: 'binary', op: op.text, left, right };
      }
      case 'ternary_expression': {
        const a = node.childForFieldName('consequence');
        const b = node.childForFieldName('alternative');
        return a && b ? { k: 'cond', options: [a, b], test: node.childForFieldName('condition') ?? undefined } : { k: 'other' };
      }
      case 'unary_expression': {
        const arg = node.childForFieldName('argument');
        const op = node.childForFieldName('operator')?.text;
        if (arg?.type === 'number' && (op === '-' || op === '+')) {
          const v = Number(arg.text);
          return { k: 'num', value: op === '-' ? -v : v };
        }
        if (arg && op === '-') return { k: 'neg', arg };
        return { k: 'other' };
      }
      case 'arrow_function':
      case 'function_expression':
      case 'function':
        return { k: 'func' };
      default:
        return { k: 'other' };
    }
  },

  isScope: (n) => SCOPES.has(n.type),
  isFunction: (n) => FUNCTIONS.has(n.type),
  functionTypes: FUNCTIONS,
  isClass: (n) => n.type === 'class_declaration' || n.type === 'class',
  isCall: (n) => n.type === 'call_expression' || n.type === 'new_expression',

  declares(node: Node): Binding[] {
    switch (node.type) {
      case 'variable_declarator': {
        const name = node.childForFieldName('name');
        const value = node.childForFieldName('value') ?? undefined;
        const at = node.parent && (node.parent.type === 'lexical_declaration' || node.parent.type === 'variable_declaration') ? node.parent : node;
        if (name?.type === 'identifier') return [{ name: name.text, kind: 'assign', at, nameNode: name, value }];
        if (name?.type === 'object_pattern') return objectPatternBindings(name, 'assign', at, value);
        if (name?.type === 'array_pattern') {
          // `const [system, turns] = split(chat)`: each name takes the item at its place (holes
          // count; a rest element makes the places after it depend on the length).
          const rest = named(name).some((c) => c.type === 'rest_pattern');
          let place = 0;
          const out: Binding[] = [];
          for (const c of name.children) {
            if (!c) continue;
            if (c.type === ',') {
              place++;
              continue;
            }
            if (c.type !== 'identifier') continue;
            out.push(!rest && value ? { name: c.text, kind: 'assign', at, nameNode: c, value, position: place } : { name: c.text, kind: 'opaque', at, nameNode: c });
          }
          return out;
        }
        return [];
      }
      case 'assignment_expression': {
        const left = node.childForFieldName('left');
        const right = node.childForFieldName('right');
        if (left?.type === 'identifier') return [{ name: left.text, kind: 'assign', at: stmt(node), nameNode: left, value: right ?? undefined }];
        return [];
      }
      case 'augmented_assignment_expression': {
        const left = node.childForFieldName('left');
        const right = node.childForFieldName('right');
        const op = node.childForFieldName('operator');
        if (left?.type === 'identifier' && right) return [{ name: left.text, kind: 'aug', at: stmt(node), nameNode: left, value: right, op: op?.text.replace(/=$/, '') }];
        return [];
      }
      case 'for_in_statement': {
        const left = node.childForFieldName('left');
        const right = node.childForFieldName('right');
        const isOf = node.childForFieldName('operator')?.text === 'of';
        if (left?.type === 'identifier') return [{ name: left.text, kind: isOf ? 'loop' : 'opaque', at: node, nameNode: left, value: right ?? undefined }];
        if (left) {
          const ids: Node[] = [];
          walk(left, (n) => {
            if (n.type === 'identifier' || n.type === 'shorthand_property_identifier_pattern') ids.push(n);
          });
          return ids.map((c) => ({ name: c.text, kind: 'opaque', at: node, nameNode: c }));
        }
        return [];
      }
      case 'catch_clause': {
        const p = node.childForFieldName('parameter');
        return p?.type === 'identifier' ? [{ name: p.text, kind: 'opaque', at: node, nameNode: p }] : [];
      }
      case 'function_declaration':
      case 'generator_function_declaration':
      case 'class_declaration': {
        const name = node.childForFieldName('name');
        return name ? [{ name: name.text, kind: node.type === 'class_declaration' ? 'class' : 'function', at: node, nameNode: name, value: node }] : [];
      }
      case 'import_statement': {
        const source = node.childForFieldName('source');
        if (!source) return [];
        const module = stringText(source);
        const clause = named(node).find((c) => c.type === 'import_clause');
        if (!clause) return [];
        const out: Binding[] = [];
        for (const c of named(clause)) {
          if (c.type === 'identifier') out.push({ name: c.text, kind: 'import', at: node, nameNode: c, importFrom: { module, name: 'default' } });
          else if (c.type === 'namespace_import') {
            const id = named(c)[0];
            if (id) out.push({ name: id.text, kind: 'import', at: node, nameNode: id, importFrom: { module, name: '*' } });
          } else if (c.type === 'named_imports') {
            for (const s of named(c)) {
              if (s.type !== 'import_specifier') continue;
              const name = s.childForFieldName('name');
              const alias = s.childForFieldName('alias') ?? name;
              if (name && alias) out.push({ name: alias.text, kind: 'import', at: node, nameNode: alias, importFrom: { module, name: name.type === 'string' ? stringText(name) : name.text } });
            }
          }
        }
        return out;
      }
      default:
        return [];
    }
  },

  params(scope: Node): Binding[] {
    if (!FUNCTIONS.has(scope.type)) return [];
    const list = scope.childForFieldName('parameters') ?? scope.childForFieldName('parameter');
    if (!list) return [];
    if (list.type === 'identifier') return [{ name: list.text, kind: 'param', at: list, nameNode: list, paramIndex: 0 }];
    const out: Binding[] = [];
    let index = 0;
    for (const p of named(list)) {
      // `model = 'x'` in JavaScript is an assignment pattern: the name is its left side.
      const pattern = p.type === 'required_parameter' || p.type === 'optional_parameter' ? p.childForFieldName('pattern') : p.type === 'assignment_pattern' ? p.childForFieldName('left') : p;
      const i = index++;
      if (!pattern) continue;
      // `{ system, docs = [] }`: each name is its key of the object passed in.
      if (pattern.type === 'object_pattern') {
        for (const b of objectPatternBindings(pattern, 'param', pattern)) out.push({ ...b, at: b.nameNode, paramIndex: i });
        continue;
      }
      if (pattern.type === 'identifier' || pattern.type === 'rest_pattern') {
        for (const id of pattern.type === 'identifier' ? [pattern] : patternNames(pattern)) out.push({ name: id.text, kind: 'param', at: id, nameNode: id, paramIndex: i, rest: pattern.type === 'rest_pattern' });
        continue;
      }
      // `[system, turns]`: names declared deeper in a pattern are not the argument (index -1: bound from none).
      for (const id of patternNames(pattern)) out.push({ name: id.text, kind: 'param', at: id, nameNode: id, paramIndex: -1 });
    }
    return out;
  },

  mutation(node: Node): Mutation | undefined {
    if (node.type === 'assignment_expression') {
      // `obj[key] = value` / `obj.key = value` on an object held by a name. (The index asks this
      // of every assignment and call: no view is made of the parts of the others.)
      const leftAt = node.fieldChildIndex('left');
      if (leftAt < 0 || !WRITTEN_TARGETS.has(node.tree.typeName(leftAt))) return undefined;
      const left = node.tree.node(leftAt)!;
      const right = node.childForFieldName('right');
      if (!right) return undefined;
      const key = left.type === 'subscript_expression' ? left.childForFieldName('index') : left.type === 'member_expression' ? left.childForFieldName('property') : null;
      if (!key) return undefined;
      let obj = left.childForFieldName('object');
      // `params.tools[params.tools.length - 1].cache_control = value`: a key written below the named value.
      const path: Node[] = [];
      while (obj && (obj.type === 'subscript_expression' || (obj.type === 'member_expression' && !receiverName(obj)))) {
        const step = obj.type === 'subscript_expression' ? obj.childForFieldName('index') : obj.childForFieldName('property');
        if (!step || path.length >= MAX_WRITE_PATH || obj.childForFieldName('optional_chain')) return undefined;
        path.unshift(step);
        obj = obj.childForFieldName('object');
      }
      // `obj.key = value` on a name; `obj[key] = value` also on `this.x`.
      const name = obj ? (left.type === 'member_expression' && !path.length ? (obj.type === 'identifier' ? obj.text : undefined) : receiverName(obj)) : undefined;
      if (name) return { name, method: 'set-key', node, args: [key, right], ...(path.length ? { path } : {}) };
      return undefined;
    }
    if (node.type !== 'call_expression') return undefined;
    const t = node.tree;
    const calleeAt = node.fieldChildIndex('function');
    if (calleeAt < 0 || t.typeName(calleeAt) !== 'member_expression') return undefined;
    const methodAt = t.fieldChild(calleeAt, 'property');
    if (methodAt < 0 || !ARRAY_CHANGES.some((m) => t.textIs(methodAt, m))) return undefined;
    const callee = t.node(calleeAt)!;
    const obj = callee.childForFieldName('object');
    const method = callee.childForFieldName('property')?.text;
    const name = obj ? receiverName(obj) : undefined;
    if (!name || !method) return undefined;
    return { name, method, node, args: args(node.childForFieldName('arguments')).map((a) => a.value) };
  },

  functionInfo(fn: Node): FunctionInfo {
    const params: FunctionInfo['params'] = [];
    // Defaults of plain named parameters (`model = 'claude-…'`, `model: string = '…'`).
    const defaults = new Map<number, Node>();
    const list = fn.childForFieldName('parameters');
    if (list && list.type !== 'identifier') {
      named(list).forEach((p, i) => {
        const name = p.type === 'assignment_pattern' ? p.childForFieldName('left') : p.childForFieldName('pattern');
        const value = p.type === 'assignment_pattern' ? p.childForFieldName('right') : p.childForFieldName('value');
        if ((name?.type === 'identifier' || name?.type === 'object_pattern') && value) defaults.set(i, value);
      });
    }
    for (const b of typescriptAdapter.params(fn)) {
      if (b.kind !== 'param') continue;
      const d = defaults.get(b.paramIndex ?? -1);
      params.push({
        name: b.name,
        index: b.paramIndex ?? 0,
        rest: b.rest,
        ...(d ? { default: d } : {}),
        ...(b.key !== undefined ? { key: b.key } : {}),
        ...(b.fallback ? { keyDefault: b.fallback } : {}),
        ...(b.without ? { without: b.without } : {}),
      });
    }
    // `get name() { ... }` in a class or an object literal.
    const property = fn.type === 'method_definition' && fn.children.some((c) => c.type === 'get');
    let returns: Node[] | undefined;
    return {
      params,
      // Found when first asked: the index reads the parameters of every function, and only some functions' returns are read.
      get returns(): Node[] {
        return (returns ??= returnedValues(fn, RETURNS));
      },
      ...(property ? { property } : {}),
    };
  },

  classHeader(cls: Node) {
    return { name: cls.childForFieldName('name')?.text, bases: cls.children.find((c) => c.type === 'class_heritage')?.text ?? '' };
  },

  classMembers(cls: Node): Map<string, Node[]> {
    const out = new Map<string, Node[]>();
    const add = (name: string, n: Node) => {
      const list = out.get(name) ?? [];
      list.push(n);
      out.set(name, list);
    };
    const body = cls.childForFieldName('body');
    if (!body) return out;
    for (const m of named(body)) {
      if (m.type === 'public_field_definition' || m.type === 'field_definition') {
        const name = m.childForFieldName('name') ?? m.childForFieldName('property');
        const value = m.childForFieldName('value');
        if (name && value) add(name.text.replace(/^#/, ''), value);
      } else if (m.type === 'method_definition') {
        const name = m.childForFieldName('name');
        if (name) add(name.text.replace(/^#/, ''), m);
        // Parameter properties (`constructor(private readonly model = 'claude-…')`): the parameter is the field.
        if (name?.text === 'constructor') {
          for (const p of named(m.childForFieldName('parameters') ?? m)) {
            const pattern = p.childForFieldName('pattern');
            const declares = p.children.some((c) => c.type === 'accessibility_modifier' || c.type === 'readonly' || c.type === 'override_modifier');
            if ((p.type === 'required_parameter' || p.type === 'optional_parameter') && declares && pattern?.type === 'identifier') add(pattern.text, pattern);
          }
        }
        walkTypes(m, ASSIGNMENT, (n) => {
          const left = n.childForFieldName('left');
          const right = n.childForFieldName('right');
          if (left?.type === 'member_expression' && left.childForFieldName('object')?.type === 'this' && right) {
            const prop = left.childForFieldName('property');
            if (prop) add(prop.text.replace(/^#/, ''), right);
          }
        });
      }
    }
    return out;
  },

  enclosingLoop(node: Node, stopAt: Node) {
    for (let n: Node | null = node.parent; n && n.id !== stopAt.id; n = n.parent) {
      if (n.type === 'for_in_statement') {
        const iter = n.childForFieldName('right');
        const body = n.childForFieldName('body');
        if (iter && body && body.startIndex <= node.startIndex) return { loop: n, iter };
      }
      if (FUNCTIONS.has(n.type)) {
        // A callback passed to `.forEach`/`.map` iterates its receiver.
        const call = n.parent?.parent;
        if (n.parent?.type === 'arguments' && call?.type === 'call_expression') {
          const callee = call.childForFieldName('function');
          if (callee?.type === 'member_expression' && ['forEach', 'map', 'flatMap'].includes(callee.childForFieldName('property')?.text ?? '')) {
            const iter = callee.childForFieldName('object');
            if (iter) return { loop: call, iter };
          }
        }
        return undefined;
      }
    }
    return undefined;
  },

  stringLiteralRange(node: Node) {
    if (node.type !== 'string' && node.type !== 'template_string') return undefined;
    return { start: node.startIndex + 1, end: node.endIndex - 1 };
  },

  propertyName: (node) => (node.type === 'property_identifier' ? node.text : undefined),
  isLastIndex(index) {
    // `items[items.length - 1]`
    const parent = index.parent;
    if (parent?.type !== 'subscript_expression' || index.type !== 'binary_expression') return false;
    const left = index.childForFieldName('left');
    const right = index.childForFieldName('right');
    const list = parent.childForFieldName('object');
    return index.childForFieldName('operator')?.text === '-' && right?.text === '1' && left?.type === 'member_expression' && left.childForFieldName('property')?.text === 'length' && !!list && left.childForFieldName('object')?.text === list.text;
  },
  isComment: (node) => node.type === 'comment',
  isBareString: (node) => (node.type === 'string' || node.type === 'template_string') && node.parent?.type === 'expression_statement' && node.parent.namedChildren.length === 1,
  commentTypes: COMMENTS,
  isLoopStatement: (node) => LOOP_STATEMENTS.has(node.type),
  runsConditionally: (node) => LOOP_STATEMENTS.has(node.type) || CONDITIONAL.has(node.type) || (node.type === 'binary_expression' && /^(&&|\|\||\?\?)$/.test(node.childForFieldName('operator')?.text ?? '')),

  ifBranches(node: Node) {
    if (node.type !== 'if_statement') return undefined;
    const out: Array<{ test?: Node; body: Node }> = [];
    // `else if` is an if statement inside the else clause: one chain.
    for (let n: Node | null = node; n; ) {
      const test = n.childForFieldName('condition');
      const body = n.childForFieldName('consequence');
      if (!test || !body) return undefined;
      out.push({ test, body });
      const alt = n.childForFieldName('alternative');
      if (!alt) break;
      const next: Node | undefined = named(alt).find((c) => c.type !== 'comment');
      if (!next) return undefined;
      if (next.type === 'if_statement') n = next;
      else {
        out.push({ body: next });
        break;
      }
    }
    return out;
  },

  condition(node: Node) {
    if (node.type === 'unary_expression') {
      const arg = node.childForFieldName('argument');
      return arg && node.childForFieldName('operator')?.text === '!' ? { op: 'not', operands: [arg] } : undefined;
    }
    if (node.type !== 'binary_expression') return undefined;
    const left = node.childForFieldName('left');
    const right = node.childForFieldName('right');
    const op = node.childForFieldName('operator')?.text;
    if (!left || !right) return undefined;
    if (op === '===' || op === '==') return { op: 'eq', operands: [left, right] };
    if (op === '!==' || op === '!=') return { op: 'ne', operands: [left, right] };
    if (op === '&&') return { op: 'and', operands: [left, right] };
    if (op === '||') return { op: 'or', operands: [left, right] };
    return undefined;
  },
});

/** Keys read on the way to a key written below a named value, at most (`a[1][2][3][4].k = v`). */
const MAX_WRITE_PATH = 4;
/** The methods of an array that change it in place (Adapter.mutation). */
const ARRAY_CHANGES: readonly string[] = ['push', 'unshift', 'shift', 'splice', 'pop'];
/** What an assignment writes a key of (Adapter.mutation). */
const WRITTEN_TARGETS: ReadonlySet<string> = new Set(['subscript_expression', 'member_expression']);
/** Node types of the walks of this file. */
const ASSIGNMENT: ReadonlySet<string> = new Set(['assignment_expression']);

/** `x` -> "x"; `this.x` -> "<self>.x" (a field of the instance, tracked per class). */
function receiverName(obj: Node): string | undefined {
  if (obj.type === 'identifier') return obj.text;
  if (obj.type === 'member_expression' && obj.childForFieldName('object')?.type === 'this') {
    const prop = obj.childForFieldName('property');
    return prop ? `<self>.${prop.text.replace(/^#/, '')}` : undefined;
  }
  return undefined;
}

function stmt(node: Node): Node {
  return node.parent?.type === 'expression_statement' ? node.parent : node;
}

