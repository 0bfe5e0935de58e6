/**
 * Facts of TypeScript and JavaScript code that the file view and the filters read: conditions,
 * filters, loops, assignments, functions and where a value goes, in the normalised forms of
 * ../frontEnd.ts.
 */
import type { FilterView, FunctionView } from '../../core/fileView';
import type { Condition, FactSyntax } from '../frontEnd';
import type { Node } from '../parsers';
import { typescriptAdapter } from './adapter';

const WRAPPERS = new Set(['parenthesized_expression', 'await_expression', 'as_expression', 'non_null_expression', 'satisfies_expression']);

function named(n: Node): Node[] {
  return n.namedChildren.filter((c): c is Node => !!c && c.type !== 'comment');
}

/** `(b) => expr`, `function (b) { return expr; }`: its one parameter and the returned expression. */
function callback(n: Node): { param: string; body: Node } | undefined {
  if (n.type !== 'arrow_function' && n.type !== 'function_expression' && n.type !== 'function') return undefined;
  const single = n.childForFieldName('parameter');
  let param: string | undefined = single?.type === 'identifier' ? single.text : undefined;
  if (!param) {
    const list = n.childForFieldName('parameters');
    const ps = list ? named(list) : [];
    const pattern = ps.length === 1 ? (ps[0].childForFieldName('pattern') ?? ps[0]) : undefined;
    if (pattern?.type === 'identifier') param = pattern.text;
  }
  const body = n.childForFieldName('body');
  if (!param || !body) return undefined;
  if (body.type !== 'statement_block') return { param, body };
  const stmts = named(body);
  if (stmts.length === 1 && stmts[0].type === 'return_statement') {
    const v = named(stmts[0])[0];
    return v ? { param, body: v } : undefined;
  }
  return undefined;
}

function target(left: Node | null): FilterView['usedAs'] {
  if (!left) return { kind: 'other' };
  const e = typescriptAdapter.expr(left);
  if (e.k === 'ident') return { kind: 'name', name: e.name };
  if (e.k === 'member') return { kind: 'key', name: e.prop };
  if (e.k === 'index') {
    const k = typescriptAdapter.expr(e.index);
    return k.k === 'str' ? { kind: 'key', name: k.value } : { kind: 'other' };
  }
  return { kind: 'other' };
}

export const typescriptFacts: FactSyntax = {
  nodeTypes: { assignment: new Set(['variable_declarator', 'assignment_expression', 'augmented_assignment_expression']), filter: new Set(['call_expression']) },

  condition(n: Node): Condition {
    switch (n.type) {
      case 'parenthesized_expression': {
        const inner = named(n)[0];
        return inner ? { k: 'group', inner } : { k: 'other' };
      }
      case 'unary_expression': {
        const arg = n.childForFieldName('argument');
        return n.childForFieldName('operator')?.text === '!' && arg ? { k: 'not', arg } : { k: 'other' };
      }
      case 'binary_expression': {
        const left = n.childForFieldName('left');
        const right = n.childForFieldName('right');
        const op = n.childForFieldName('operator')?.text ?? '';
        if (!left || !right) return { k: 'other' };
        if (op === '&&') return { k: 'and', left, right };
        if (op === '||') return { k: 'or', left, right };
        return { k: 'compare', left, op, right };
      }
      case 'call_expression': {
        const fn = n.childForFieldName('function');
        const args = named(n.childForFieldName('arguments') ?? n);
        if (fn?.type !== 'member_expression' || args.length !== 1) return { k: 'other' };
        const prop = fn.childForFieldName('property')?.text;
        const obj = fn.childForFieldName('object');
        if (!obj) return { k: 'other' };
        if (prop === 'includes') return { k: 'includes', list: obj, value: args[0] };
        if (prop === 'some') {
          const cb = callback(args[0]);
          return cb ? { k: 'some', iter: obj, param: cb.param, body: cb.body } : { k: 'other' };
        }
        return { k: 'other' };
      }
      default:
        return { k: 'other' };
    }
  },

  readsTypeOf(n: Node, item: string): boolean {
    const e = typescriptAdapter.expr(n);
    if (e.k === 'wrap') return typescriptFacts.readsTypeOf(e.inner, item);
    // `b.type ?? ''`, `b.type || 'text'`: either side, and a literal fallback is never a block's own type.
    if (e.k === 'cond' && !e.test) {
      const fallback = typescriptAdapter.expr(e.options[1]);
      return (fallback.k === 'str' || fallback.k === 'null') && typescriptFacts.readsTypeOf(e.options[0], item);
    }
    if (e.k === 'member') return e.prop === 'type' && e.object.text === item;
    if (e.k === 'index') {
      const k = typescriptAdapter.expr(e.index);
      return k.k === 'str' && k.value === 'type' && e.object.text === item;
    }
    return false;
  },

  filter(n: Node) {
    if (n.type !== 'call_expression') return undefined;
    const fn = n.childForFieldName('function');
    const args = named(n.childForFieldName('arguments') ?? n);
    if (fn?.type !== 'member_expression' || fn.childForFieldName('property')?.text !== 'filter' || args.length !== 1) return undefined;
    const cb = callback(args[0]);
    const obj = fn.childForFieldName('object');
    return cb && obj ? { iter: obj, item: cb.param, conditions: [cb.body] } : undefined;
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
      // One branch of `c ? a : b`.
      if (p.type === 'ternary_expression' && p.childForFieldName('condition')?.id !== cur.id) {
        cur = p;
        continue;
      }
      // `Array.from(<filter>)`.
      const call = p.type === 'arguments' && named(p).length === 1 ? p.parent : null;
      if (call && call.childForFieldName('function')?.text === 'Array.from') {
        cur = call;
        continue;
      }
      break;
    }
    const p = cur.parent;
    if (!p) return { kind: 'other' };
    switch (p.type) {
      case 'assignment_expression':
      case 'augmented_assignment_expression':
        return p.childForFieldName('right')?.id === cur.id ? target(p.childForFieldName('left')) : { kind: 'other' };
      case 'variable_declarator': {
        const name = p.childForFieldName('name');
        return name?.type === 'identifier' ? { kind: 'name', name: name.text } : { kind: 'other' };
      }
      case 'pair': {
        const key = p.childForFieldName('key');
        if (!key || p.childForFieldName('value')?.id !== cur.id) return { kind: 'other' };
        const k = typescriptAdapter.expr(key);
        return { kind: 'key', name: k.k === 'str' ? k.value : k.k === 'ident' ? k.name : key.text };
      }
      case 'return_statement':
        return { kind: 'return' };
      case 'arrow_function':
        return p.childForFieldName('body')?.id === cur.id ? { kind: 'return' } : { kind: 'other' };
      default:
        return { kind: 'other' };
    }
  },

  functionName: (fn) => fn.childForFieldName('name')?.text ?? (fn.parent?.type === 'variable_declarator' ? fn.parent.childForFieldName('name')?.text : undefined),

  functionContext(fn: Node) {
    const out: Pick<FunctionView, 'decorators' | 'passedTo' | 'exported'> = {};
    if (fn.parent?.type === 'arguments') {
      const callee = fn.parent.parent?.childForFieldName('function');
      if (callee) out.passedTo = callee.text.replace(/\s+/g, '');
    }
    let decl: Node | null = fn.parent;
    if (decl?.type === 'variable_declarator') decl = decl.parent?.parent ?? null;
    if (decl?.type === 'export_statement') out.exported = true;
    return out;
  },

  callbackIteration(fn: Node) {
    const call = fn.parent?.type === 'arguments' ? fn.parent.parent : null;
    const callee = call?.type === 'call_expression' ? call.childForFieldName('function') : null;
    if (!call || callee?.type !== 'member_expression') return undefined;
    if (!['forEach', 'map', 'flatMap'].includes(callee.childForFieldName('property')?.text ?? '')) return undefined;
    const iter = callee.childForFieldName('object');
    const params = fn.childForFieldName('parameters');
    const named = params ? params.namedChildren.filter((c) => !!c && c.type !== 'comment') : [];
    const target = params ? named[0] : fn.childForFieldName('parameter');
    // The item's index (`(step, i) =>`): it numbers each pass too.
    return iter ? { call, iter, target: target ?? undefined, index: named[1] ?? undefined } : undefined;
  },

  assignment(n: Node) {
    if (n.type === 'variable_declarator') {
      const target = n.childForFieldName('name');
      const value = n.childForFieldName('value');
      return target && value ? { target, value } : undefined;
    }
    if (n.type !== 'assignment_expression' && n.type !== 'augmented_assignment_expression') return undefined;
    const target = n.childForFieldName('left');
    const value = n.childForFieldName('right');
    if (!target || !value) return undefined;
    return n.type === 'augmented_assignment_expression' ? { target, value, augmented: true } : { target, value };
  },

  loop(n: Node) {
    // `for (;;)`: its parts are not an iteration of a value; what a pass ends with changes its counter.
    if (n.type === 'for_statement') return { step: n.childForFieldName('increment') ?? undefined };
    if (n.type === 'for_in_statement') return { iter: n.childForFieldName('right') ?? undefined, target: n.childForFieldName('left') ?? undefined };
    if (n.type === 'while_statement' || n.type === 'do_statement') return { condition: n.childForFieldName('condition') ?? undefined };
    return undefined;
  },

  conditional(n: Node) {
    if (n.type === 'if_statement' || n.type === 'ternary_expression') return { test: n.childForFieldName('condition') ?? undefined, then: n.childForFieldName('consequence') ?? undefined };
    return undefined;
  },

  catches(n: Node) {
    return n.type === 'catch_clause';
  },

  handles(n: Node) {
    return n.type === 'catch_clause';
  },

  contextOf() {
    return undefined;
  },

  leaves(n: Node) {
    if (n.type === 'return_statement' || n.type === 'throw_statement') return true;
    // `process.exit(1)` as a statement of its own.
    const parts = n.type === 'expression_statement' ? n.namedChildrenButComments : [];
    const call = parts.length === 1 ? parts[0] : undefined;
    return call?.type === 'call_expression' && /^process\.exit$/.test(call.childForFieldName('function')?.text ?? '');
  },
};
