/**
 * Filters over lists (`[b for b in c if b["type"] != "tool_result"]`, `c.filter((b) => ...)`,
 * `filter(lambda b: ..., c)`) read for what they drop by block `type`, for the FileView.
 */
import type { FilterView } from '../core/fileView';
import type { Node } from './parsers';
import { walk } from './walk';
import type { FileUnit } from './workspace';

/** What a condition says about an item, as far as block types go. */
type Summary =
  | { k: 'is' | 'not'; types: Set<string> }
  /** The item holds (does not hold) a block of one of these types. */
  | { k: 'has' | 'nothas'; types: Set<string> }
  | { k: 'other' };

const OTHER: Summary = { k: 'other' };
const WRAPPERS = new Set(['parenthesized_expression', 'await', 'await_expression', 'as_expression', 'non_null_expression', 'satisfies_expression']);
const COMPREHENSIONS = new Set(['list_comprehension', 'generator_expression', 'set_comprehension']);

function named(n: Node): Node[] {
  return n.namedChildren.filter((c): c is Node => !!c && c.type !== 'comment');
}

function negate(s: Summary): Summary {
  switch (s.k) {
    case 'is':
      return { k: 'not', types: s.types };
    case 'not':
      return { k: 'is', types: s.types };
    case 'has':
      return { k: 'nothas', types: s.types };
    case 'nothas':
      return { k: 'has', types: s.types };
    default:
      return s;
  }
}

const union = (a: Set<string>, b: Set<string>) => new Set([...a, ...b]);
const inter = (a: Set<string>, b: Set<string>) => new Set([...a].filter((x) => b.has(x)));

/** `a and b`: a conjunct that says nothing about types (`isinstance(c, list)`) is a guard and is left out. */
function and(a: Summary, b: Summary): Summary {
  if (a.k === 'other') return b;
  if (b.k === 'other') return a;
  if (a.k === 'not' && b.k === 'not') return { k: 'not', types: union(a.types, b.types) };
  if (a.k === 'is' && b.k === 'is') return { k: 'is', types: inter(a.types, b.types) };
  if (a.k === 'is' && b.k === 'not') return { k: 'is', types: new Set([...a.types].filter((t) => !b.types.has(t))) };
  if (a.k === 'not' && b.k === 'is') return and(b, a);
  if (a.k === 'nothas' && b.k === 'nothas') return { k: 'nothas', types: union(a.types, b.types) };
  return OTHER;
}

/** `a or b`: an unknown alternative may keep anything. */
function or(a: Summary, b: Summary): Summary {
  if (a.k === 'other' || b.k === 'other') return OTHER;
  if (a.k === 'is' && b.k === 'is') return { k: 'is', types: union(a.types, b.types) };
  if (a.k === 'not' && b.k === 'not') return { k: 'not', types: inter(a.types, b.types) };
  if (a.k === 'has' && b.k === 'has') return { k: 'has', types: union(a.types, b.types) };
  if (a.k === 'nothas' && b.k === 'nothas') return { k: 'nothas', types: inter(a.types, b.types) };
  return OTHER;
}

class Reader {
  constructor(private readonly unit: FileUnit) {}

  private get py(): boolean {
    return this.unit.language === 'python';
  }

  private strings(n: Node): Set<string> | undefined {
    const e = this.unit.adapter.expr(n);
    if (e.k === 'str') return new Set([e.value]);
    if (e.k === 'list') {
      const out = new Set<string>();
      for (const item of e.items) {
        const ie = this.unit.adapter.expr(item.value);
        if (item.spread || ie.k !== 'str') return undefined;
        out.add(ie.value);
      }
      return out;
    }
    if (e.k === 'wrap') return this.strings(e.inner);
    return undefined;
  }

  /** `v["type"]`, `v.type`, `v?.type`, `v.get("type")`, `getattr(v, "type")`. */
  private isTypeOf(n: Node, item: string): boolean {
    const e = this.unit.adapter.expr(n);
    if (e.k === 'wrap') return this.isTypeOf(e.inner, item);
    if (e.k === 'member') return e.prop === 'type' && e.object.text === item;
    if (e.k === 'index') {
      const k = this.unit.adapter.expr(e.index);
      return k.k === 'str' && k.value === 'type' && e.object.text === item;
    }
    if (e.k === 'call') {
      const c = this.unit.adapter.expr(e.callee);
      const first = e.args[0] ? this.unit.adapter.expr(e.args[0].value) : undefined;
      if (c.k === 'member' && c.prop === 'get' && c.object.text === item && first?.k === 'str' && first.value === 'type') return true;
      if (c.k === 'ident' && c.name === 'getattr' && e.args[0]?.value.text === item) {
        const second = e.args[1] ? this.unit.adapter.expr(e.args[1].value) : undefined;
        return second?.k === 'str' && second.value === 'type';
      }
    }
    return false;
  }

  /** A comparison `type-of-item OP literal(s)`. */
  private compare(left: Node, op: string, right: Node, item: string): Summary {
    const [access, lit] = this.isTypeOf(left, item) ? [left, right] : this.isTypeOf(right, item) ? [right, left] : [undefined, undefined];
    if (!access || !lit) return OTHER;
    const types = this.strings(lit);
    if (!types) return OTHER;
    if (op === '==' || op === '===' || op === 'is') return types.size === 1 ? { k: 'is', types } : OTHER;
    if (op === '!=' || op === '!==' || op === 'is not') return types.size === 1 ? { k: 'not', types } : OTHER;
    if (op === 'in' && access === left) return { k: 'is', types };
    if (op === 'not in' && access === left) return { k: 'not', types };
    return OTHER;
  }

  /** `any(<cond on b> for b in <item>.content)` / `<item>.content.some((b) => <cond on b>)`. */
  private holds(inner: Summary, iterNode: Node, item: string): Summary {
    if (!new RegExp(`^${item.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`).test(iterNode.text)) return OTHER;
    if (inner.k === 'is') return { k: 'has', types: inner.types };
    return OTHER;
  }

  summarize(n: Node, item: string): Summary {
    const t = n.type;
    if (t === 'parenthesized_expression') {
      const inner = named(n)[0];
      return inner ? this.summarize(inner, item) : OTHER;
    }
    if (this.py) {
      if (t === 'not_operator') {
        const arg = n.childForFieldName('argument');
        return arg ? negate(this.summarize(arg, item)) : OTHER;
      }
      if (t === 'boolean_operator') {
        const l = n.childForFieldName('left');
        const r = n.childForFieldName('right');
        const op = n.childForFieldName('operator')?.text;
        if (!l || !r) return OTHER;
        const a = this.summarize(l, item);
        const b = this.summarize(r, item);
        return op === 'and' ? and(a, b) : or(a, b);
      }
      if (t === 'comparison_operator') {
        const parts = named(n);
        const ops = n.childrenForFieldName('operators').filter((c): c is Node => !!c);
        if (parts.length !== 2 || ops.length !== 1) return OTHER;
        return this.compare(parts[0], ops[0].text.replace(/\s+/g, ' '), parts[1], item);
      }
      if (t === 'call') {
        const fn = n.childForFieldName('function');
        const args = n.childForFieldName('arguments');
        // LangChain: a `ToolMessage` carries a tool_result, an `AIMessage` the tool_use blocks.
        const isArgs = args?.type === 'argument_list' ? named(args) : [];
        if (fn?.text === 'isinstance' && isArgs.length === 2 && isArgs[0].text === item) {
          const cls = isArgs[1].text.replace(/^.*\./, '');
          if (cls === 'ToolMessage') return { k: 'is', types: new Set(['tool_result']) };
          if (cls === 'AIMessage') return { k: 'is', types: new Set(['tool_use']) };
        }
        if (fn?.text === 'any' && args?.type === 'generator_expression') {
          const body = args.childForFieldName('body');
          const clause = named(args).find((c) => c.type === 'for_in_clause');
          const v = clause?.childForFieldName('left');
          const iter = clause?.childForFieldName('right');
          if (!body || v?.type !== 'identifier' || !iter || named(args).some((c) => c.type === 'if_clause')) return OTHER;
          return this.holds(this.summarize(body, v.text), iter, item);
        }
      }
      return OTHER;
    }
    if (t === 'unary_expression' && n.childForFieldName('operator')?.text === '!') {
      const arg = n.childForFieldName('argument');
      return arg ? negate(this.summarize(arg, item)) : OTHER;
    }
    if (t === 'binary_expression') {
      const l = n.childForFieldName('left');
      const r = n.childForFieldName('right');
      const op = n.childForFieldName('operator')?.text ?? '';
      if (!l || !r) return OTHER;
      if (op === '&&' || op === '||') {
        const a = this.summarize(l, item);
        const b = this.summarize(r, item);
        return op === '&&' ? and(a, b) : or(a, b);
      }
      return this.compare(l, op, r, item);
    }
    if (t === 'call_expression') {
      const fn = n.childForFieldName('function');
      const args = named(n.childForFieldName('arguments') ?? n);
      if (fn?.type !== 'member_expression' || args.length !== 1) return OTHER;
      const prop = fn.childForFieldName('property')?.text;
      const obj = fn.childForFieldName('object');
      if (!obj) return OTHER;
      if (prop === 'includes' && this.isTypeOf(args[0], item)) {
        const types = this.strings(obj);
        return types ? { k: 'is', types } : OTHER;
      }
      if (prop === 'some') {
        const cb = this.callback(args[0]);
        return cb ? this.holds(this.summarize(cb.body, cb.param), obj, item) : OTHER;
      }
    }
    return OTHER;
  }

  /** `(b) => expr`, `function (b) { return expr; }`, `lambda b: expr`: its one parameter and the returned expression. */
  callback(n: Node): { param: string; body: Node } | undefined {
    if (n.type === 'lambda') {
      const params = n.childForFieldName('parameters');
      const ps = params ? named(params) : [];
      const body = n.childForFieldName('body');
      return ps.length === 1 && ps[0].type === 'identifier' && body ? { param: ps[0].text, body } : undefined;
    }
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

  /** Where a value written at `n` goes (see FilterView.usedAs). */
  usedAs(n: Node): FilterView['usedAs'] {
    let cur = n;
    for (;;) {
      const p = cur.parent;
      if (!p) return { kind: 'other' };
      if (WRAPPERS.has(p.type)) {
        cur = p;
        continue;
      }
      // One branch of `a if c else b` / `c ? a : b`.
      if ((p.type === 'conditional_expression' && named(p)[1]?.id !== cur.id) || (p.type === 'ternary_expression' && p.childForFieldName('condition')?.id !== cur.id)) {
        cur = p;
        continue;
      }
      // `list(<filter>)`, `list(b for b in ...)`, `Array.from(<filter>)`.
      const call = p.type === 'call' && p.childForFieldName('arguments')?.id === cur.id ? p : (p.type === 'argument_list' || p.type === 'arguments') && named(p).length === 1 ? p.parent : null;
      const fn = call?.childForFieldName('function')?.text;
      if (call && (fn === 'list' || fn === 'tuple' || fn === 'Array.from')) {
        cur = call;
        continue;
      }
      break;
    }
    const p = cur.parent;
    if (!p) return { kind: 'other' };
    switch (p.type) {
      case 'assignment':
      case 'assignment_expression':
      case 'augmented_assignment': {
        if (p.childForFieldName('right')?.id !== cur.id) return { kind: 'other' };
        return this.target(p.childForFieldName('left'));
      }
      case 'variable_declarator': {
        const name = p.childForFieldName('name');
        return name?.type === 'identifier' ? { kind: 'name', name: name.text } : { kind: 'other' };
      }
      case 'pair': {
        const key = p.childForFieldName('key');
        if (!key || p.childForFieldName('value')?.id !== cur.id) return { kind: 'other' };
        const k = this.unit.adapter.expr(key);
        return { kind: 'key', name: k.k === 'str' ? k.value : k.k === 'ident' ? k.name : key.text };
      }
      case 'keyword_argument':
        return { kind: 'key', name: p.childForFieldName('name')?.text };
      case 'return_statement':
        return { kind: 'return' };
      case 'arrow_function':
        return p.childForFieldName('body')?.id === cur.id ? { kind: 'return' } : { kind: 'other' };
      default:
        return { kind: 'other' };
    }
  }

  private target(left: Node | null): FilterView['usedAs'] {
    if (!left) return { kind: 'other' };
    const e = this.unit.adapter.expr(left);
    if (e.k === 'ident') return { kind: 'name', name: e.name };
    if (e.k === 'member') return { kind: 'key', name: e.prop };
    if (e.k === 'index') {
      const k = this.unit.adapter.expr(e.index);
      return k.k === 'str' ? { kind: 'key', name: k.value } : { kind: 'other' };
    }
    if (e.k === 'slice') return this.target(e.object);
    return { kind: 'other' };
  }
}


export function findFilters(unit: FileUnit): FilterView[] {
  const out: FilterView[] = [];
  const r = new Reader(unit);
  const push = (whole: Node, iter: Node, summary: Summary) => {
    out.push({
      at: unit.loc(whole),
      iterText: iter.text,
      dropsTypes: summary.k === 'not' ? [...summary.types] : [],
      dropsHolding: summary.k === 'nothas' ? [...summary.types] : [],
      usedAs: r.usedAs(whole),
    });
  };
  walk(unit.tree.rootNode, (n) => {
    if (COMPREHENSIONS.has(n.type)) {
      const clauses = named(n).filter((c) => c.type === 'for_in_clause');
      const conds = named(n).filter((c) => c.type === 'if_clause');
      const target = clauses[0]?.childForFieldName('left');
      const iter = clauses[0]?.childForFieldName('right');
      if (clauses.length !== 1 || !conds.length || target?.type !== 'identifier' || !iter) return;
      // Only filters that keep the item itself (`[b for b in ...]`), not ones that map it.
      if (n.childForFieldName('body')?.text !== target.text) return;
      let s: Summary | undefined;
      for (const c of conds) {
        const cond = named(c)[0];
        if (!cond) return;
        const one = r.summarize(cond, target.text);
        s = s ? and(s, one) : one;
      }
      if (s) push(n, iter, s);
      return;
    }
    if (n.type === 'call' || n.type === 'call_expression') {
      const fn = n.childForFieldName('function');
      const args = named(n.childForFieldName('arguments') ?? n);
      if (!fn) return;
      if (n.type === 'call' && fn.text === 'filter' && args.length === 2) {
        const cb = r.callback(args[0]);
        if (cb) push(n, args[1], r.summarize(cb.body, cb.param));
        return;
      }
      if (n.type === 'call_expression' && fn.type === 'member_expression' && fn.childForFieldName('property')?.text === 'filter' && args.length === 1) {
        const cb = r.callback(args[0]);
        const obj = fn.childForFieldName('object');
        if (cb && obj) push(n, obj, r.summarize(cb.body, cb.param));
      }
    }
  });
  return out;
}
