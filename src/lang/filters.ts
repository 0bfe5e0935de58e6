/**
 * Filters over lists (`[b for b in c if b["type"] != "tool_result"]`, `c.filter((b) => ...)`,
 * `filter(lambda b: ..., c)`) read for what they drop by block `type`, for the FileView.
 */
import type { FilterView } from '../core/fileView';
import type { FactSyntax } from './frontEnd';
import type { Node } from './parsers';
import { walkTypes } from './walk';
import type { FileUnit } from './workspace';

/** What a condition says about an item, as far as block types go. */
type Summary =
  /** The item is of one of these types; `guarded`: and a further condition holds (`b.type == "tool_result" and keep(b)`). */
  | { k: 'is'; types: Set<string>; guarded?: boolean }
  /** The item is of none of these types; `sometimes`: items of these types are kept only when a further condition holds. */
  | { k: 'not'; types: Set<string>; sometimes?: Set<string> }
  /** The item holds (does not hold) a block of one of these types. */
  | { k: 'has' | 'nothas'; types: Set<string> }
  /** Says nothing about types; `at` is the condition, when there is one to read. */
  | { k: 'other'; at?: Node };

const OTHER: Summary = { k: 'other' };

/**
 * A condition that keeps a tool_result only when it still has its tool_use (`b["tool_use_id"] in
 * kept_ids`): dropping the others repairs the history instead of breaking it.
 */
const PAIRING_GUARD = /tool_use_id|toolUseId|_ids?\b|\bids?\b|Ids?\b|pair|orphan|answered|matched/;

function negate(s: Summary): Summary {
  switch (s.k) {
    case 'is':
      return { k: 'not', types: s.types };
    case 'not':
      return s.sometimes?.size ? OTHER : { k: 'is', types: s.types };
    case 'has':
      return { k: 'nothas', types: s.types };
    case 'nothas':
      return { k: 'has', types: s.types };
    default:
      // The negation of a test that says nothing about types says nothing about them either.
      return s;
  }
}

const union = (a: Set<string>, b: Set<string>) => new Set([...a, ...b]);
const inter = (a: Set<string>, b: Set<string>) => new Set([...a].filter((x) => b.has(x)));
const minus = (a: Set<string>, b: Set<string>) => new Set([...a].filter((x) => !b.has(x)));
const none = new Set<string>();

function notTypes(types: Set<string>, sometimes: Set<string>): Summary {
  const s = minus(sometimes, types);
  return s.size ? { k: 'not', types, sometimes: s } : { k: 'not', types };
}

/** `a and b`: a conjunct that says nothing about types (`isinstance(c, list)`) is a guard and is left out. */
function and(a: Summary, b: Summary): Summary {
  if (a.k === 'other') return b.k === 'is' ? { ...b, guarded: true } : b;
  if (b.k === 'other') return a.k === 'is' ? { ...a, guarded: true } : a;
  if (a.k === 'not' && b.k === 'not') return notTypes(union(a.types, b.types), union(a.sometimes ?? none, b.sometimes ?? none));
  if (a.k === 'is' && b.k === 'is') return { k: 'is', types: inter(a.types, b.types), guarded: a.guarded || b.guarded };
  if (a.k === 'is' && b.k === 'not') return { k: 'is', types: minus(a.types, b.types), guarded: a.guarded || !!b.sometimes?.size };
  if (a.k === 'not' && b.k === 'is') return and(b, a);
  if (a.k === 'nothas' && b.k === 'nothas') return { k: 'nothas', types: union(a.types, b.types) };
  return OTHER;
}

/**
 * `a or b`: an item is kept when either side keeps it. Beside `b.type != "tool_result"`, a side
 * that says nothing about types (`or keep_results`, `or (b.type == "tool_result" and <test>)`)
 * keeps those blocks only when it holds: they are dropped on the other runs.
 */
function or(a: Summary, b: Summary): Summary {
  if (a.k === 'other' && b.k === 'other') return OTHER;
  if (b.k === 'not' && a.k !== 'not') return or(b, a);
  if (a.k === 'not') {
    const all = union(a.types, a.sometimes ?? none);
    if (b.k === 'other') return b.at && !PAIRING_GUARD.test(b.at.text) ? notTypes(none, all) : OTHER;
    if (b.k === 'is') return notTypes(minus(a.types, b.types), b.guarded ? all : minus(all, b.types));
    if (b.k === 'not') {
      const kept = inter(a.types, b.types);
      return notTypes(kept, minus(inter(all, union(b.types, b.sometimes ?? none)), kept));
    }
    return OTHER;
  }
  if (a.k === 'other' || b.k === 'other') return OTHER;
  if (a.k === 'is' && b.k === 'is') return { k: 'is', types: union(a.types, b.types), guarded: a.guarded || b.guarded };
  if (a.k === 'has' && b.k === 'has') return { k: 'has', types: union(a.types, b.types) };
  if (a.k === 'nothas' && b.k === 'nothas') return { k: 'nothas', types: inter(a.types, b.types) };
  return OTHER;
}

/** Reads conditions over an item for what they say about its block type, through the front end's facts. */
class Reader {
  private readonly facts: FactSyntax;

  constructor(private readonly unit: FileUnit) {
    this.facts = unit.frontEnd.facts;
  }

  /** The string literals a node is: one string, or a list (tuple, set, array) of them. */
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

  /** A comparison `type-of-item OP literal(s)`. */
  private compare(left: Node, op: string, right: Node, item: string): Summary {
    const [access, lit] = this.facts.readsTypeOf(left, item) ? [left, right] : this.facts.readsTypeOf(right, item) ? [right, left] : [undefined, undefined];
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
    const s = this.read(n, item);
    return s.k === 'other' && !s.at ? { k: 'other', at: n } : s;
  }

  private read(n: Node, item: string): Summary {
    const c = this.facts.condition(n);
    switch (c.k) {
      case 'group':
        return this.summarize(c.inner, item);
      case 'not':
        return negate(this.summarize(c.arg, item));
      case 'and':
      case 'or': {
        const a = this.summarize(c.left, item);
        const b = this.summarize(c.right, item);
        return c.k === 'and' ? and(a, b) : or(a, b);
      }
      case 'compare':
        return this.compare(c.left, c.op, c.right, item);
      case 'instance':
        // LangChain: a `ToolMessage` carries a tool_result, an `AIMessage` the tool_use blocks.
        if (c.subject.text !== item) return OTHER;
        if (c.cls === 'ToolMessage') return { k: 'is', types: new Set(['tool_result']) };
        if (c.cls === 'AIMessage') return { k: 'is', types: new Set(['tool_use']) };
        return OTHER;
      case 'some':
        return this.holds(this.summarize(c.body, c.param), c.iter, item);
      case 'includes': {
        if (!this.facts.readsTypeOf(c.value, item)) return OTHER;
        const types = this.strings(c.list);
        return types ? { k: 'is', types } : OTHER;
      }
      default:
        return OTHER;
    }
  }
}

export function findFilters(unit: FileUnit): FilterView[] {
  const out: FilterView[] = [];
  const r = new Reader(unit);
  const facts = unit.frontEnd.facts;
  walkTypes(unit.tree.rootNode, facts.nodeTypes.filter, (n) => {
    const f = facts.filter(n);
    if (!f) return;
    let s: Summary | undefined;
    for (const c of f.conditions) {
      const one = r.summarize(c, f.item);
      s = s ? and(s, one) : one;
    }
    if (!s) return;
    out.push({
      at: unit.loc(n),
      iterText: f.iter.text,
      dropsTypes: s.k === 'not' ? [...s.types] : [],
      dropsSometimes: s.k === 'not' ? [...(s.sometimes ?? [])] : [],
      dropsHolding: s.k === 'nothas' ? [...s.types] : [],
      keepsOnly: s.k === 'is' ? [...s.types] : [],
      usedAs: facts.usedAs(n),
    });
  });
  return out;
}
