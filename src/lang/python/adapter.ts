/** Python syntax (tree-sitter-python) in the normalised form of ../syntax.ts. */
import type { Node } from '../parsers';
import { returnedValues, walkTypes } from '../walk';
import type { FunctionReturnSyntax } from '../walk';
import type { Adapter, Arg, Binding, DictEntry, Expr, FunctionInfo, Mutation, TemplatePart } from '../syntax';
import { withKeptExprs } from '../syntax';

const SCOPES = new Set(['module', 'function_definition', 'lambda', 'class_definition', 'list_comprehension', 'set_comprehension', 'dictionary_comprehension', 'generator_expression']);
const FUNCTIONS = new Set(['function_definition', 'lambda']);
/** How collectReturns finds a function's returns; definitions inside it have their own. */
const COMMENTS: ReadonlySet<string> = new Set(['comment']);
const RETURNS: FunctionReturnSyntax = { returnType: 'return_statement', commentTypes: COMMENTS, body: (fn) => fn.childForFieldName('body'), expressionBody: (fn) => fn.type === 'lambda', nested: new Set(['function_definition', 'class_definition', 'lambda']) };
const LOOP_STATEMENTS = new Set(['for_statement', 'while_statement']);
const CONDITIONAL = new Set(['if_statement', 'try_statement', 'match_statement', 'conditional_expression', 'boolean_operator']);
const COMPREHENSIONS = new Set(['list_comprehension', 'set_comprehension', 'dictionary_comprehension', 'generator_expression']);

const SIMPLE_ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"', '0': '\0', a: '\x07', b: '\b', f: '\f', v: '\v', '\n': '' };

function decodeEscape(seq: string): string {
  const c = seq[1];
  if (c in SIMPLE_ESCAPES) return SIMPLE_ESCAPES[c];
  if (c === 'x' || c === 'u' || c === 'U') return String.fromCodePoint(parseInt(seq.slice(2), 16) || 0xfffd);
  if (c === 'N') return '\uFFFD';
  return seq;
}

function stringPrefix(str: Node): string {
  const start = str.children.find((c) => c.type === 'string_start');
  return (start?.text ?? '').replace(/["']+$/, '').toLowerCase();
}

/**
 * The text of a string's parts that are text (a plain string has no others). A loop rather than
 * `map(…).join('')`: the arrays `map` makes differ in their elements' kind (none, strings), and
 * `join` read from each made V8 optimize `expr` again and again (four times in a one-thread run
 * of the real-code corpus, ~50 ms each).
 */
function literalText(parts: readonly TemplatePart[]): string {
  let text = '';
  for (const p of parts) if ('text' in p) text += p.text;
  return text;
}

/** Parts of one `string` node: literal text and interpolations. */
function stringParts(str: Node): TemplatePart[] {
  const prefix = stringPrefix(str);
  const raw = prefix.includes('r');
  const parts: TemplatePart[] = [];
  for (const child of str.children) {
    if (child.type === 'string_content') {
      if (raw) {
        parts.push({ text: child.text });
        continue;
      }
      // Decode escape sequences inside the content.
      let text = '';
      let pos = child.startIndex;
      for (const esc of child.children) {
        if (esc.type !== 'escape_sequence') continue;
        text += sliceText(child, pos, esc.startIndex);
        text += decodeEscape(esc.text);
        pos = esc.endIndex;
      }
      text += sliceText(child, pos, child.endIndex);
      parts.push({ text });
    } else if (child.type === 'escape_sequence') {
      parts.push({ text: decodeEscape(child.text) });
    } else if (child.type === 'interpolation') {
      const expr = child.childForFieldName('expression');
      if (expr) parts.push({ expr, whole: child });
    }
  }
  // `{{` and `}}` in f-strings stand for single braces.
  if (prefix.includes('f')) for (const p of parts) if ('text' in p) p.text = p.text.replace(/\{\{/g, '{').replace(/\}\}/g, '}');
  return parts;
}

function sliceText(node: Node, start: number, end: number): string {
  return node.text.slice(start - node.startIndex, end - node.startIndex);
}

function args(list: Node | null): Arg[] {
  if (!list) return [];
  if (list.type === 'generator_expression') return [{ value: list }];
  const out: Arg[] = [];
  for (const a of list.namedChildren) {
    if (!a) continue;
    if (a.type === 'keyword_argument') {
      const name = a.childForFieldName('name');
      const value = a.childForFieldName('value');
      if (name && value) out.push({ name: name.text, nameNode: name, value });
    } else if (a.type === 'list_splat') {
      const v = a.namedChildren[0];
      if (v) out.push({ value: v, spread: 'list' });
    } else if (a.type === 'dictionary_splat') {
      const v = a.namedChildren[0];
      if (v) out.push({ value: v, spread: 'dict' });
    } else if (a.type !== 'comment') {
      out.push({ value: a });
    }
  }
  return out;
}

function named(node: Node): Node[] {
  return node.namedChildrenButComments;
}

/** The node types `declares` and `mutation` read (the cases of their switches). */
const DECLARING = ['assignment', 'augmented_assignment', 'named_expression', 'for_statement', 'for_in_clause', 'as_pattern', 'function_definition', 'class_definition', 'import_statement', 'import_from_statement'];
const MUTATING = ['delete_statement', 'assignment', 'call'];

export const pythonAdapter: Adapter = withKeptExprs({
  family: 'python',
  indexedTypes: new Set([...SCOPES, ...DECLARING, ...MUTATING, 'call']),

  expr(node: Node): Expr {
    switch (node.type) {
      case 'string': {
        const parts = stringParts(node);
        if (stringPrefix(node).includes('f')) return { k: 'template', parts };
        return { k: 'str', value: literalText(parts) };
      }
      case 'concatenated_string': {
        const parts: TemplatePart[] = [];
        for (const s of named(node)) {
          if (s.type !== 'string') continue;
          if (stringPrefix(s).includes('f')) parts.push(...stringParts(s));
          else parts.push({ text: literalText(stringParts(s)) });
        }
        return { k: 'template', parts };
      }
      case 'integer':
      case 'float': {
        const v = Number(node.text.replace(/_/g, ''));
        return Number.isFinite(v) ? { k: 'num', value: v } : { k: 'other' };
      }
      case 'true':
        return { k: 'bool', value: true };
      case 'false':
        return { k: 'bool', value: false };
      case 'none':
        return { k: 'null' };
      case 'identifier':
        return node.text === 'self' ? { k: 'self' } : { k: 'ident', name: node.text };
      case 'attribute': {
        const object = node.childForFieldName('object');
        const attr = node.childForFieldName('attribute');
        return object && attr ? { k: 'member', object, prop: attr.text } : { k: 'other' };
      }
      case 'subscript': {
        const object = node.childForFieldName('value');
        const sub = node.childForFieldName('subscript');
        if (!object || !sub) return { k: 'other' };
        if (sub.type === 'slice') {
          let lower: Node | undefined;
          let upper: Node | undefined;
          let colons = 0;
          for (const c of sub.children) {
            if (!c) continue;
            if (c.type === ':') colons++;
            else if (c.isNamed && c.type !== 'comment') {
              if (colons === 0) lower = c;
              else if (colons === 1) upper = c;
            }
          }
          return { k: 'slice', object, lower, upper };
        }
        return { k: 'index', object, index: sub };
      }
      case 'call': {
        const callee = node.childForFieldName('function');
        return callee ? { k: 'call', callee, args: args(node.childForFieldName('arguments')) } : { k: 'other' };
      }
      // `return turns, system`: an expression_list is a tuple without parentheses.
      case 'list':
      case 'tuple':
      case 'expression_list':
      case 'set':
        return {
          k: 'list',
          set: node.type === 'set',
          items: named(node).map((c) => (c.type === 'list_splat' ? { value: c.namedChildren[0] ?? c, spread: true } : { value: c })),
        };
      case 'dictionary': {
        const entries: DictEntry[] = [];
        for (const c of named(node)) {
          if (c.type === 'pair') {
            const key = c.childForFieldName('key');
            const value = c.childForFieldName('value');
            if (!key || !value) continue;
            const ke = key.type === 'string' ? pythonAdapter.expr(key) : undefined;
            if (ke && ke.k === 'str') entries.push({ key: ke.value, keyNode: key, value });
            else entries.push({ computedKey: key, value });
          } else if (c.type === 'dictionary_splat') {
            const v = c.namedChildren[0];
            if (v) entries.push({ value: v, spread: true });
          }
        }
        return { k: 'dict', entries };
      }
      case 'binary_operator': {
        const left = node.childForFieldName('left');
        const right = node.childForFieldName('right');
        const op = node.childForFieldName('operator');
        return left && right && op ? { k: 'binary', op: op.text, left, right } : { k: 'other' };
      }
      case 'boolean_operator': {
        const left = node.childForFieldName('left');
        const right = node.childForFieldName('right');
        const or = node.childForFieldName('operator')?.text === 'or';
        return left && right ? { k: 'cond', options: [left, right], ...(or ? { fallback: true } : {}) } : { k: 'other' };
      }
      case 'conditional_expression': {
        const parts = named(node);
        return parts.length === 3 ? { k: 'cond', options: [parts[0], parts[2]], test: parts[1] } : { k: 'other' };
      }
      case 'parenthesized_expression':
      case 'await': {
        const inner = named(node)[0];
        return inner ? { k: 'wrap', inner } : { k: 'other' };
      }
      case 'unary_operator': {
        const arg = node.childForFieldName('argument');
        const op = node.childForFieldName('operator')?.text;
        if (arg && (arg.type === 'integer' || arg.type === 'float')) {
          const v = Number(arg.text.replace(/_/g, ''));
          return { k: 'num', value: op === '-' ? -v : v };
        }
        if (arg && op === '-') return { k: 'neg', arg };
        return { k: 'other' };
      }
      case 'list_comprehension':
      case 'set_comprehension':
      case 'generator_expression':
      case 'dictionary_comprehension': {
        const body = node.childForFieldName('body');
        const clause = named(node).find((c) => c.type === 'for_in_clause');
        const iter = clause?.childForFieldName('right');
        const target = clause?.childForFieldName('left');
        if (!body || !iter || !target) return { k: 'other' };
        const filters = named(node)
          .filter((c) => c.type === 'if_clause')
          .flatMap((c) => named(c).slice(0, 1));
        if (node.type === 'dictionary_comprehension' && body.type === 'pair') {
          const key = body.childForFieldName('key');
          const value = body.childForFieldName('value');
          if (key && value) return { k: 'comprehension', element: value, key, iter, target, dict: true, filters };
        }
        return { k: 'comprehension', element: body, iter, target, set: node.type === 'set_comprehension', filters };
      }
      case 'lambda':
        return { k: 'func' };
      default:
        return { k: 'other' };
    }
  },

  isScope: (n) => SCOPES.has(n.type),
  isFunction: (n) => FUNCTIONS.has(n.type),
  functionTypes: FUNCTIONS,
  isClass: (n) => n.type === 'class_definition',
  isCall: (n) => n.type === 'call',

  declares(node: Node): Binding[] {
    switch (node.type) {
      case 'assignment': {
        const left = node.childForFieldName('left');
        const right = node.childForFieldName('right');
        if (left?.type === 'identifier') return [{ name: left.text, kind: 'assign', at: stmt(node), nameNode: left, value: right ?? undefined }];
        if (left && (left.type === 'pattern_list' || left.type === 'tuple_pattern' || left.type === 'list_pattern')) {
          // `turns, system = split(chat)`: each name takes the item at its place, unless a starred
          // name (`first, *rest = x`) makes the places after it depend on the length.
          const parts = named(left);
          const starred = parts.some((c) => c.type === 'list_splat_pattern');
          return parts.flatMap((c, i): Binding[] =>
            c.type !== 'identifier' ? [] : !starred && right ? [{ name: c.text, kind: 'assign', at: stmt(node), nameNode: c, value: right, position: i }] : [{ name: c.text, kind: 'opaque', at: stmt(node), nameNode: c }],
          );
        }
        return [];
      }
      case 'augmented_assignment': {
        const left = node.childForFieldName('left');
        const right = node.childForFieldName('right');
        const op = node.childForFieldName('operator');
        if (left?.type === 'identifier' && right) return [{ name: left.text, kind: 'aug', at: stmt(node), nameNode: left, value: right, op: op?.text }];
        return [];
      }
      case 'named_expression': {
        const name = node.childForFieldName('name');
        const value = node.childForFieldName('value');
        return name ? [{ name: name.text, kind: 'assign', at: node, nameNode: name, value: value ?? undefined }] : [];
      }
      case 'for_statement':
      case 'for_in_clause': {
        const left = node.childForFieldName('left');
        const right = node.childForFieldName('right');
        if (left?.type === 'identifier') return [{ name: left.text, kind: 'loop', at: node, nameNode: left, value: right ?? undefined }];
        if (left) {
          return named(left).filter((c) => c.type === 'identifier').map((c) => ({ name: c.text, kind: 'opaque', at: node, nameNode: c }));
        }
        return [];
      }
      case 'as_pattern': {
        const alias = node.childForFieldName('alias');
        const id = alias?.type === 'as_pattern_target' ? alias.namedChildren[0] : alias;
        return id && id.type === 'identifier' ? [{ name: id.text, kind: 'opaque', at: node, nameNode: id }] : [];
      }
      case 'function_definition':
      case 'class_definition': {
        const name = node.childForFieldName('name');
        const at = node.parent?.type === 'decorated_definition' ? node.parent : node;
        return name ? [{ name: name.text, kind: node.type === 'class_definition' ? 'class' : 'function', at, nameNode: name, value: node }] : [];
      }
      case 'import_statement': {
        const out: Binding[] = [];
        for (const n of node.childrenForFieldName('name')) {
          if (!n) continue;
          if (n.type === 'aliased_import') {
            const mod = n.childForFieldName('name');
            const alias = n.childForFieldName('alias');
            if (mod && alias) out.push({ name: alias.text, kind: 'import', at: node, nameNode: alias, importFrom: { module: mod.text, name: '*' } });
          } else if (n.type === 'dotted_name') {
            const first = n.namedChildren[0];
            // `import a.b` binds `a`, the top package.
            if (first) out.push({ name: first.text, kind: 'import', at: node, nameNode: first, importFrom: { module: first.text, name: '*' } });
          }
        }
        return out;
      }
      case 'import_from_statement': {
        const mod = node.childForFieldName('module_name');
        if (!mod) return [];
        const module = mod.text;
        const out: Binding[] = [];
        for (const n of node.childrenForFieldName('name')) {
          if (!n) continue;
          if (n.type === 'aliased_import') {
            const name = n.childForFieldName('name');
            const alias = n.childForFieldName('alias');
            if (name && alias) out.push({ name: alias.text, kind: 'import', at: node, nameNode: alias, importFrom: { module, name: name.text } });
          } else if (n.type === 'dotted_name') {
            out.push({ name: n.text, kind: 'import', at: node, nameNode: n, importFrom: { module, name: n.text } });
          }
        }
        return out;
      }
      default:
        return [];
    }
  },

  params(scope: Node): Binding[] {
    if (scope.type !== 'function_definition' && scope.type !== 'lambda') return [];
    const info = pythonAdapter.functionInfo(scope);
    const list = scope.childForFieldName('parameters');
    const out: Binding[] = [];
    if (!list) return out;
    for (const p of info.params) {
      const nameNode = findIdentifier(list, p.name) ?? list;
      out.push({ name: p.name, kind: 'param', at: nameNode, nameNode, paramIndex: p.index, rest: p.rest || p.kwrest });
    }
    return out;
  },

  mutation(node: Node): Mutation | undefined {
    if (node.type === 'delete_statement') {
      const target = named(node)[0];
      if (target?.type === 'subscript') {
        const obj = target.childForFieldName('value');
        const sub = target.childForFieldName('subscript');
        const name = obj ? receiverName(obj) : undefined;
        if (name && sub?.type === 'slice') return { name, method: 'del-slice', node: target, args: [sub] };
      }
      return undefined;
    }
    if (node.type === 'assignment') {
      // `d["key"] = value` / `d[k] = value`: a key written into a dict held by a name. (The
      // index asks this of every assignment and call: no view is made of the parts of the others.)
      const leftAt = node.fieldChildIndex('left');
      if (leftAt < 0 || node.tree.typeName(leftAt) !== 'subscript') return undefined;
      const left = node.tree.node(leftAt)!;
      const right = node.childForFieldName('right');
      if (!right) return undefined;
      let obj = left.childForFieldName('value');
      const key = left.childForFieldName('subscript');
      // `d["tools"][-1]["cache_control"] = value`: a key written below the named value.
      const path: Node[] = [];
      while (obj?.type === 'subscript') {
        const step = obj.childForFieldName('subscript');
        if (!step || step.type === 'slice' || path.length >= MAX_WRITE_PATH) return undefined;
        path.unshift(step);
        obj = obj.childForFieldName('value');
      }
      const name = obj ? receiverName(obj) : undefined;
      if (!name || !key || key.type === 'slice') return undefined;
      return { name, method: 'set-key', node, args: [key, right], ...(path.length ? { path } : {}) };
    }
    if (node.type !== 'call') return undefined;
    const t = node.tree;
    const calleeAt = node.fieldChildIndex('function');
    if (calleeAt < 0 || t.typeName(calleeAt) !== 'attribute') return undefined;
    const methodAt = t.fieldChild(calleeAt, 'attribute');
    if (methodAt < 0 || !LIST_CHANGES.some((m) => t.textIs(methodAt, m))) return undefined;
    const callee = t.node(calleeAt)!;
    const obj = callee.childForFieldName('object');
    const method = callee.childForFieldName('attribute')?.text;
    const name = obj ? receiverName(obj) : undefined;
    if (!name || !method) return undefined;
    return { name, method, node, args: args(node.childForFieldName('arguments')).map((a) => a.value) };
  },

  functionInfo(fn: Node): FunctionInfo {
    const params: FunctionInfo['params'] = [];
    const list = fn.childForFieldName('parameters');
    let index = 0;
    for (const p of list ? named(list) : []) {
      switch (p.type) {
        case 'identifier':
          if (p.text !== 'self' && p.text !== 'cls') params.push({ name: p.text, index: index++ });
          else index++;
          break;
        case 'default_parameter':
        case 'typed_default_parameter': {
          const n = p.childForFieldName('name');
          const d = p.childForFieldName('value');
          const t = p.childForFieldName('type');
          if (n) params.push({ name: n.text, index: index++, default: d ?? undefined, ...(t ? { annotation: t.text } : {}) });
          break;
        }
        case 'typed_parameter': {
          const id = named(p)[0];
          const t = p.childForFieldName('type');
          if (id?.type === 'identifier') {
            if (id.text !== 'self' && id.text !== 'cls') params.push({ name: id.text, index: index++, ...(t ? { annotation: t.text } : {}) });
            else index++;
          } else if (id?.type === 'list_splat_pattern') params.push({ name: named(id)[0]?.text ?? '', index: index++, rest: true });
          else if (id?.type === 'dictionary_splat_pattern') params.push({ name: named(id)[0]?.text ?? '', index: -1, kwrest: true });
          break;
        }
        case 'list_splat_pattern':
          params.push({ name: named(p)[0]?.text ?? '', index: index++, rest: true });
          break;
        case 'dictionary_splat_pattern':
          params.push({ name: named(p)[0]?.text ?? '', index: -1, kwrest: true });
          break;
        default:
          break;
      }
    }
    // Methods: `self` (`cls`) is the first positional parameter, which a method call does not pass.
    const first = list ? named(list)[0] : undefined;
    const firstName = first?.type === 'typed_parameter' ? named(first)[0]?.text : first?.text;
    const receiver = firstName === 'self' || firstName === 'cls';
    const decorators = fn.parent?.type === 'decorated_definition' ? fn.parent.namedChildren.filter((c) => c?.type === 'decorator').map((c) => c!.text.replace(/^@\s*/, '')) : [];
    const property = decorators.some((d) => /^(property|(functools\.)?cached_property)$/.test(d));
    let returns: Node[] | undefined;
    return {
      params,
      // Found when first asked: the index reads the parameters of every function, and only some functions' returns are read.
      get returns(): Node[] {
        return (returns ??= returnedValues(fn, RETURNS));
      },
      ...(receiver ? { receiver } : {}),
      ...(property ? { property } : {}),
    };
  },

  keywordFields(cls: Node) {
    // `@dataclass`, `@dataclasses.dataclass(frozen=True)`, attrs' `@define` / `@attr.s`; a pydantic model by its base.
    const decorated = cls.parent?.type === 'decorated_definition' ? cls.parent : undefined;
    const decorators = decorated ? named(decorated).filter((c) => c.type === 'decorator').map((d) => d.text.replace(/\(.*$/s, '')) : [];
    if (decorators.some((d) => /^@\s*(?:dataclasses\.)?dataclass$|^@\s*(?:attr\.s|attr\.attrs|attrs\.define|attrs\.frozen|attr\.define|define|frozen)$/.test(d))) return true;
    return /\b(?:BaseModel|BaseSettings)\b/.test(cls.childForFieldName('superclasses')?.text ?? '');
  },

  classHeader(cls: Node) {
    return { name: cls.childForFieldName('name')?.text, bases: cls.childForFieldName('superclasses')?.text ?? '' };
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
    for (const stmtNode of named(body)) {
      const inner = stmtNode.type === 'expression_statement' ? named(stmtNode)[0] : stmtNode;
      if (!inner) continue;
      if (inner.type === 'assignment') {
        const left = inner.childForFieldName('left');
        const right = inner.childForFieldName('right');
        if (left?.type === 'identifier' && right) add(left.text, right);
      } else if (inner.type === 'function_definition' || inner.type === 'decorated_definition') {
        const fn = inner.type === 'decorated_definition' ? inner.childForFieldName('definition') : inner;
        const name = fn?.childForFieldName('name');
        if (fn && name) {
          add(name.text, fn);
          // `self.x = value` anywhere in the method body.
          walkTypes(fn, ASSIGNMENT, (n) => {
            const left = n.childForFieldName('left');
            const right = n.childForFieldName('right');
            if (left?.type === 'attribute' && left.childForFieldName('object')?.text === 'self' && right) {
              const attr = left.childForFieldName('attribute');
              if (attr) add(attr.text, right);
            }
          });
        }
      }
    }
    return out;
  },

  enclosingLoop(node: Node, stopAt: Node) {
    for (let n: Node | null = node.parent; n && n.id !== stopAt.id; n = n.parent) {
      if (n.type === 'for_statement') {
        const iter = n.childForFieldName('right');
        const body = n.childForFieldName('body');
        if (iter && body && body.startIndex <= node.startIndex) return { loop: n, iter };
      }
      if (FUNCTIONS.has(n.type)) return undefined;
      if (COMPREHENSIONS.has(n.type)) {
        const clause = named(n).find((c) => c.type === 'for_in_clause');
        const iter = clause?.childForFieldName('right');
        if (iter) return { loop: n, iter };
      }
    }
    return undefined;
  },

  stringLiteralRange(node: Node) {
    if (node.type !== 'string') return undefined;
    const start = node.children.find((c) => c.type === 'string_start');
    const end = node.children.find((c) => c.type === 'string_end');
    return start && end ? { start: start.endIndex, end: end.startIndex } : undefined;
  },

  propertyName: () => undefined,
  isLastIndex(index) {
    // `items[len(items) - 1]`
    const parent = index.parent;
    if (parent?.type !== 'subscript' || index.type !== 'binary_operator') return false;
    const left = index.childForFieldName('left');
    const right = index.childForFieldName('right');
    const list = parent.childForFieldName('value');
    if (index.childForFieldName('operator')?.text !== '-' || right?.text !== '1' || left?.type !== 'call' || left.childForFieldName('function')?.text !== 'len') return false;
    const args = left.childForFieldName('arguments');
    return !!list && !!args && args.namedChildren.length === 1 && args.namedChildren[0]?.text === list.text;
  },
  isComment: (node) => node.type === 'comment',
  isBareString: (node) => (node.type === 'string' || node.type === 'concatenated_string') && node.parent?.type === 'expression_statement' && node.parent.namedChildren.length === 1,
  commentTypes: COMMENTS,
  isLoopStatement: (node) => LOOP_STATEMENTS.has(node.type),
  runsConditionally: (node) => LOOP_STATEMENTS.has(node.type) || CONDITIONAL.has(node.type),

  ifBranches(node: Node) {
    if (node.type !== 'if_statement') return undefined;
    const test = node.childForFieldName('condition');
    const body = node.childForFieldName('consequence');
    if (!test || !body) return undefined;
    const out: Array<{ test?: Node; body: Node }> = [{ test, body }];
    for (const alt of node.childrenForFieldName('alternative')) {
      const b = alt.type === 'elif_clause' ? alt.childForFieldName('consequence') : alt.childForFieldName('body');
      if (!b) return undefined;
      if (alt.type === 'elif_clause') {
        const t = alt.childForFieldName('condition');
        if (!t) return undefined;
        out.push({ test: t, body: b });
      } else out.push({ body: b });
    }
    return out;
  },

  condition(node: Node) {
    if (node.type === 'not_operator') {
      const arg = node.childForFieldName('argument');
      return arg ? { op: 'not', operands: [arg] } : undefined;
    }
    if (node.type === 'boolean_operator') {
      const left = node.childForFieldName('left');
      const right = node.childForFieldName('right');
      const op = node.childForFieldName('operator')?.text;
      return left && right && (op === 'and' || op === 'or') ? { op, operands: [left, right] } : undefined;
    }
    if (node.type === 'comparison_operator') {
      // One comparison of two operands (`a == b`); chains (`a == b == c`) and `is`, `in` are not read.
      const operands = named(node).filter((c) => c.type !== 'comment');
      const ops = node.children.filter((c) => !c.isNamed);
      if (operands.length !== 2 || ops.length !== 1) return undefined;
      if (ops[0].type === '==') return { op: 'eq', operands };
      if (ops[0].type === '!=') return { op: 'ne', operands };
    }
    return undefined;
  },
});

/** Keys read on the way to a key written below a named value, at most (`a[1][2][3][4]["k"] = v`). */
const MAX_WRITE_PATH = 4;
/** The methods of a list (and of a set: `add`, `update`) that change it in place (Adapter.mutation). */
const LIST_CHANGES: readonly string[] = ['append', 'extend', 'insert', 'pop', 'clear', 'remove', 'add', 'update'];
/** Node types of the walks below. */
const ASSIGNMENT: ReadonlySet<string> = new Set(['assignment']);
const IDENTIFIER: ReadonlySet<string> = new Set(['identifier']);

/** `x` -> "x"; `self.x` -> "<self>.x" (an attribute of the instance, tracked per class). */
function receiverName(obj: Node): string | undefined {
  if (obj.type === 'identifier') return obj.text;
  if (obj.type === 'attribute' && obj.childForFieldName('object')?.text === 'self') {
    const attr = obj.childForFieldName('attribute');
    return attr ? `<self>.${attr.text}` : undefined;
  }
  return undefined;
}

function stmt(node: Node): Node {
  return node.parent?.type === 'expression_statement' ? node.parent : node;
}

function findIdentifier(root: Node, name: string): Node | undefined {
  return root.firstDescendantWithText(IDENTIFIER, name) ?? undefined;
}


