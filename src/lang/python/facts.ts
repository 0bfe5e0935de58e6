/**
 * Facts of Python code that the file view and the filters read: conditions, filters, loops,
 * assignments, functions and where a value goes, in the normalised forms of ../frontEnd.ts.
 */
import type { FilterView, FunctionView } from '../../core/fileView';
import type { Condition, FactSyntax } from '../frontEnd';
import type { Node } from '../parsers';
import { pythonAdapter } from './adapter';

const COMPREHENSIONS = new Set(['list_comprehension', 'generator_expression', 'set_comprehension']);
const WRAPPERS = new Set(['parenthesized_expression', 'await']);
const LOOP_COMPREHENSIONS = new Set(['list_comprehension', 'set_comprehension', 'dictionary_comprehension', 'generator_expression']);

function named(n: Node): Node[] {
  return n.namedChildren.filter((c): c is Node => !!c && c.type !== 'comment');
}

/** `lambda b: expr`: its one parameter and its body. */
function callback(n: Node): { param: string; body: Node } | undefined {
  if (n.type !== 'lambda') return undefined;
  const params = n.childForFieldName('parameters');
  const ps = params ? named(params) : [];
  const body = n.childForFieldName('body');
  return ps.length === 1 && ps[0].type === 'identifier' && body ? { param: ps[0].text, body } : undefined;
}

function target(left: Node | null): FilterView['usedAs'] {
  if (!left) return { kind: 'other' };
  const e = pythonAdapter.expr(left);
  if (e.k === 'ident') return { kind: 'name', name: e.name };
  if (e.k === 'member') return { kind: 'key', name: e.prop };
  if (e.k === 'index') {
    const k = pythonAdapter.expr(e.index);
    return k.k === 'str' ? { kind: 'key', name: k.value } : { kind: 'other' };
  }
  if (e.k === 'slice') return target(e.object);
  return { kind: 'other' };
}

export const pythonFacts: FactSyntax = {
  nodeTypes: { assignment: new Set(['assignment', 'augmented_assignment']), filter: new Set([...COMPREHENSIONS, 'call']), pathOperator: new Set(['binary_operator']) },

  condition(n: Node): Condition {
    switch (n.type) {
      case 'parenthesized_expression': {
        const inner = named(n)[0];
        return inner ? { k: 'group', inner } : { k: 'other' };
      }
      case 'not_operator': {
        const arg = n.childForFieldName('argument');
        return arg ? { k: 'not', arg } : { k: 'other' };
      }
      case 'boolean_operator': {
        const left = n.childForFieldName('left');
        const right = n.childForFieldName('right');
        const op = n.childForFieldName('operator')?.text;
        return left && right && (op === 'and' || op === 'or') ? { k: op, left, right } : { k: 'other' };
      }
      case 'comparison_operator': {
        const parts = named(n);
        const ops = n.childrenForFieldName('operators').filter((c): c is Node => !!c);
        if (parts.length !== 2 || ops.length !== 1) return { k: 'other' };
        return { k: 'compare', left: parts[0], op: ops[0].text.replace(/\s+/g, ' '), right: parts[1] };
      }
      case 'call': {
        const fn = n.childForFieldName('function');
        const args = n.childForFieldName('arguments');
        const list = args?.type === 'argument_list' ? named(args) : [];
        if (fn?.text === 'isinstance' && list.length === 2) return { k: 'instance', subject: list[0], cls: list[1].text.replace(/^.*\./, '') };
        if (fn?.text === 'any' && args?.type === 'generator_expression') {
          const body = args.childForFieldName('body');
          const clause = named(args).find((c) => c.type === 'for_in_clause');
          const v = clause?.childForFieldName('left');
          const iter = clause?.childForFieldName('right');
          if (!body || v?.type !== 'identifier' || !iter || named(args).some((c) => c.type === 'if_clause')) return { k: 'other' };
          return { k: 'some', iter, param: v.text, body };
        }
        return { k: 'other' };
      }
      default:
        return { k: 'other' };
    }
  },

  readsTypeOf(n: Node, item: string): boolean {
    const e = pythonAdapter.expr(n);
    if (e.k === 'wrap') return pythonFacts.readsTypeOf(e.inner, item);
    // `b.get("type") or ""`: either side, and a literal fallback is never a block's own type.
    if (e.k === 'cond' && !e.test && n.childForFieldName('operator')?.text === 'or') {
      const fallback = pythonAdapter.expr(e.options[1]);
      return (fallback.k === 'str' || fallback.k === 'null') && pythonFacts.readsTypeOf(e.options[0], item);
    }
    if (e.k === 'member') return e.prop === 'type' && e.object.text === item;
    if (e.k === 'index') {
      const k = pythonAdapter.expr(e.index);
      return k.k === 'str' && k.value === 'type' && e.object.text === item;
    }
    if (e.k === 'call') {
      const c = pythonAdapter.expr(e.callee);
      const first = e.args[0] ? pythonAdapter.expr(e.args[0].value) : undefined;
      if (c.k === 'member' && c.prop === 'get' && c.object.text === item && first?.k === 'str' && first.value === 'type') return true;
      if (c.k === 'ident' && c.name === 'getattr' && e.args[0]?.value.text === item) {
        const second = e.args[1] ? pythonAdapter.expr(e.args[1].value) : undefined;
        return second?.k === 'str' && second.value === 'type';
      }
    }
    return false;
  },

  filter(n: Node) {
    if (COMPREHENSIONS.has(n.type)) {
      const clauses = named(n).filter((c) => c.type === 'for_in_clause');
      const conds = named(n).filter((c) => c.type === 'if_clause');
      const t = clauses[0]?.childForFieldName('left');
      const iter = clauses[0]?.childForFieldName('right');
      if (clauses.length !== 1 || !conds.length || t?.type !== 'identifier' || !iter) return undefined;
      // Only filters that keep the item itself (`[b for b in ...]`), not ones that map it.
      if (n.childForFieldName('body')?.text !== t.text) return undefined;
      const conditions = conds.map((c) => named(c)[0]);
      if (conditions.some((c) => !c)) return undefined;
      return { iter, item: t.text, conditions: conditions as Node[] };
    }
    if (n.type === 'call') {
      const fn = n.childForFieldName('function');
      const args = named(n.childForFieldName('arguments') ?? n);
      if (fn?.text !== 'filter' || args.length !== 2) return undefined;
      const cb = callback(args[0]);
      return cb ? { iter: args[1], item: cb.param, conditions: [cb.body] } : undefined;
    }
    return undefined;
  },

  usedAs(n: Node): FilterView['usedAs'] {
    let cur = n;
    for (;;) {
      const p = cur.parent;
      if (!p) return { kind: 'other' };
      if (WRAPPERS.has(p.type)) {
        cur = p;
        continue;
      }
      // One branch of `a if c else b`.
      if (p.type === 'conditional_expression' && named(p)[1]?.id !== cur.id) {
        cur = p;
        continue;
      }
      // `list(<filter>)`, `list(b for b in ...)`.
      const call = p.type === 'call' && p.childForFieldName('arguments')?.id === cur.id ? p : p.type === 'argument_list' && named(p).length === 1 ? p.parent : null;
      const fn = call?.childForFieldName('function')?.text;
      if (call && (fn === 'list' || fn === 'tuple')) {
        cur = call;
        continue;
      }
      break;
    }
    const p = cur.parent;
    if (!p) return { kind: 'other' };
    switch (p.type) {
      case 'assignment':
      case 'augmented_assignment':
        return p.childForFieldName('right')?.id === cur.id ? target(p.childForFieldName('left')) : { kind: 'other' };
      case 'pair': {
        const key = p.childForFieldName('key');
        if (!key || p.childForFieldName('value')?.id !== cur.id) return { kind: 'other' };
        const k = pythonAdapter.expr(key);
        return { kind: 'key', name: k.k === 'str' ? k.value : k.k === 'ident' ? k.name : key.text };
      }
      case 'keyword_argument':
        return { kind: 'key', name: p.childForFieldName('name')?.text };
      case 'return_statement':
        return { kind: 'return' };
      default:
        return { kind: 'other' };
    }
  },

  functionName: (fn) => fn.childForFieldName('name')?.text,

  functionContext(fn: Node) {
    const out: Pick<FunctionView, 'decorators' | 'passedTo' | 'exported'> = {};
    if (fn.parent?.type === 'decorated_definition') out.decorators = fn.parent.namedChildren.filter((c): c is Node => c?.type === 'decorator').map((c) => c.text);
    if (fn.parent?.type === 'argument_list') {
      const callee = fn.parent.parent?.childForFieldName('function');
      if (callee) out.passedTo = callee.text.replace(/\s+/g, '');
    }
    return out;
  },

  callbackIteration: () => undefined,

  assignment(n: Node) {
    if (n.type !== 'assignment' && n.type !== 'augmented_assignment') return undefined;
    const target = n.childForFieldName('left');
    const value = n.childForFieldName('right');
    if (!target || !value) return undefined;
    return n.type === 'augmented_assignment' ? { target, value, augmented: true } : { target, value };
  },

  loop(n: Node) {
    if (n.type === 'for_statement' || n.type === 'for_in_clause') return { iter: n.childForFieldName('right') ?? undefined, target: n.childForFieldName('left') ?? undefined };
    if (n.type === 'while_statement') return { condition: n.childForFieldName('condition') ?? undefined };
    if (LOOP_COMPREHENSIONS.has(n.type)) {
      const clause = n.namedChildren.find((c) => c?.type === 'for_in_clause');
      return { iter: clause?.childForFieldName('right') ?? undefined, target: clause?.childForFieldName('left') ?? undefined };
    }
    return undefined;
  },

  isPathOperator: (n) => n.type === 'binary_operator' && n.childForFieldName('operator')?.text === '/',

  conditional(n: Node) {
    if (n.type === 'if_statement' || n.type === 'elif_clause') return { test: n.childForFieldName('condition') ?? undefined, then: n.childForFieldName('consequence') ?? undefined };
    // `a if test else b`: the test is the middle part.
    if (n.type === 'conditional_expression') return { test: n.namedChildren[1] ?? undefined, then: n.namedChildren[0] ?? undefined };
    return undefined;
  },

  catches(n: Node) {
    return n.type === 'as_pattern' && (n.parent?.type === 'except_clause' || n.parent?.type === 'except_group_clause');
  },

  handles(n: Node) {
    return n.type === 'except_clause' || n.type === 'except_group_clause';
  },

  contextOf(n: Node) {
    return n.type === 'as_pattern' && n.parent?.type === 'with_item' ? (n.namedChildren[0] ?? undefined) : undefined;
  },

  leaves(n: Node) {
    if (n.type === 'return_statement' || n.type === 'raise_statement') return true;
    // `sys.exit(1)`, `exit()`, `quit()`, `os._exit(1)` as a statement of its own.
    const parts = n.type === 'expression_statement' ? n.namedChildrenButComments : [];
    const call = parts.length === 1 ? parts[0] : undefined;
    return call?.type === 'call' && /^(sys\.exit|exit|quit|os\._exit)$/.test(call.childForFieldName('function')?.text ?? '');
  },
};
