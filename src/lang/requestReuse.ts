/**
 * Keeps the requests read from an editor buffer for its next analysis: a keystroke changes one
 * top-level statement (a function, a class, an assignment) of a file that may hold dozens of
 * requests, and reading every request again (its parameters, the client, what callers pass)
 * was about a third of each keystroke's analysis. A request that the changed statement cannot
 * reach is taken as it was, with its places moved by the change in length.
 *
 * What a changed top-level statement can do to code outside it, in the file: define or assign a
 * name of the module (`def helper`, `SYSTEM = ...`, `client = Anthropic()`), call a function or
 * method of the file (its callers decide its parameters: `build(...)`, `self.build(...)`), or
 * change a value of the module in place (`HISTORY.append(...)`, `CONFIG["model"] = ...`): the
 * changed statements' names of each kind, before and after the change. A name of the module that
 * is bound or changed can only change what a statement reads where its reading of that name gets
 * to the module's scope (a function's own `messages` or parameter `system` is not the module's,
 * however the module's changes); a function of the file that is called can change what its own
 * statement reads of its parameters (kept as a written name, its `def`). A statement that reads
 * an affected name so and binds a name of the module (a function that calls a changed helper)
 * affects that name too, and so on. A kept request is read again when a top-level statement that
 * holds its call or a place of its value (the parameters, what a name was bound to, the callers a
 * parameter came from, each taint and the assignments it was followed through) reads an affected
 * name so, or when one of those places is in the changed statement. Nothing is taken over across
 * a change that touches an import (which decides what the file's requests are at all), after an
 * analysis that reached its bounds, or once another file changed (its values may come from
 * there). A change that leaves a syntax error is compared only when the error is in the one
 * statement parsed again alone (the others are then the trees they were); what the parser could
 * not place there is in no binding, call or change of the file's index, so the analysis, which
 * reads the tree, reads nothing of it.
 */
import type { RequestCall } from '../core/model';
import type { EvalBudget } from './evaluate';
import { readsModuleScope } from './evaluate';
import type { Node } from './parsers';
import { commonPrefix, commonSuffix } from './parsers';
import type { FileUnit } from './workspace';

type Place = { file: string; start: number; end: number };

interface Kept {
  calls: RequestCall[];
  /** The places of this file in its value, each once (to test against the change and to move). */
  places: Place[];
  /** Steps its reading spent: charged again when it is reused, so the file's bound is reached as before. */
  steps: number;
}

/** What is known of one top-level statement; the same for the same statement at another offset. */
interface Statement {
  start: number;
  end: number;
  /** The module's names it binds (`def helper`, `SYSTEM = ...`). */
  bound: ReadonlySet<string>;
  /** Those, and the module's names it changes in place (`HISTORY.append(...)`). */
  changes: ReadonlySet<string>;
  /** The functions of the file (and names of the module) it calls: their callers decide their parameters. */
  calls: ReadonlySet<string>;
  /** Every name written in it (read when first needed). */
  names?: Set<string>;
  /**
   * The names it reads at the module's scope (readsModuleScope), read when first needed. The same
   * for the same statement anywhere in the file: what answers a name before the module's scope is
   * inside the statement.
   */
  moduleReads?: Set<string>;
}

/** What one analysis of a file left: its text and top-level statements, and its requests by the place of their call. */
interface Analysed {
  text: string;
  language: string;
  statements: Statement[];
  kept: Map<string, Kept>;
}

/** Where the text changed since the last analysis, as whole top-level statements: [start, oldEnd) of the old text is [start, newEnd) of the new one. */
interface Change {
  start: number;
  oldEnd: number;
  newEnd: number;
  delta: number;
  /**
   * The module's names whose value the change may alter: those the changed statements bind or
   * change in place, before and after, and the names bound by statements that read an affected
   * name, and so on. They count where a statement's reading gets to the module's scope.
   */
  rebound: ReadonlySet<string>;
  /** The functions whose callers the change may alter (the changed statements' calls, before and after): they count wherever written. */
  called: ReadonlySet<string>;
}

const IDENTIFIER = /[A-Za-z_$][\w$]*/g;
/** Node types that may read a name (`identifier`, `shorthand_property_identifier`, ...; also names that read none, such as `property_identifier`, which costs only a reading kept). */
const NAME_NODE = /identifier$/;
/** A change that touches these may change what the file's requests are (imports, a module's scope). */
const GLOBAL_WORDS = /\b(?:import|require|global|nonlocal)\b/;

/** Whether a name node may read a name: not the member of an access (`client.messages`) nor the keyword of an argument (`messages=...`). */
function readsAName(unit: FileUnit, node: Node): boolean {
  const parent = node.parent;
  if (!parent) return true;
  const around = unit.adapter.expr(parent);
  if (around.k === 'member') return around.object.id === node.id;
  // A keyword argument's name: its call is a few levels up (keyword_argument, argument_list, call).
  for (let n: Node | null = parent, up = 0; n && up < 3; n = n.parent, up++) {
    const e = up === 0 ? around : unit.adapter.expr(n);
    if (e.k === 'call') return !e.args.some((a) => a.nameNode?.id === node.id);
  }
  return true;
}

/** Whether `test` holds for some name of the set (stops at the first). */
function anyOf(names: ReadonlySet<string>, test: (name: string) => boolean): boolean {
  for (const n of names) if (test(n)) return true;
  return false;
}

function namesIn(text: string, into = new Set<string>()): Set<string> {
  for (const m of text.matchAll(IDENTIFIER)) into.add(m[0]);
  return into;
}

/**
 * The places of `file` in a value, each object once, into `out`; false when the value refers to
 * the evaluator's own tables (`ref`: a function, a class, a library object), which only the
 * analysis that made it can read (such a request is always read again).
 */
function placesOf(v: unknown, file: string, seen: Set<object>, out: Place[]): boolean {
  if (v === null || typeof v !== 'object' || seen.has(v)) return true;
  seen.add(v);
  const o = v as Record<string, unknown>;
  if (o.ref !== undefined && typeof o.kind === 'string') return false;
  if (typeof o.start === 'number' && typeof o.end === 'number' && o.file === file) out.push(o as Place);
  if (Array.isArray(v)) {
    for (const x of v) if (!placesOf(x, file, seen, out)) return false;
    return true;
  }
  for (const k in o) {
    const x = o[k];
    if (x !== null && typeof x === 'object' && !placesOf(x, file, seen, out)) return false;
  }
  return true;
}

type Span = { start: number; end: number };

/** The index of the top-level statement that holds `offset`, or -1. */
function statementAt(statements: readonly Span[], offset: number): number {
  let lo = 0;
  let hi = statements.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (statements[mid].end <= offset) lo = mid + 1;
    else if (statements[mid].start > offset) hi = mid - 1;
    else return mid;
  }
  return -1;
}

/** Where two texts differ: [start, oldEnd) of `before` is [start, oldEnd + delta) of `after`; undefined when they are the same. */
function changedRange(before: string, after: string): { start: number; oldEnd: number } | undefined {
  if (before === after) return undefined;
  const start = commonPrefix(before, after);
  return { start, oldEnd: before.length - commonSuffix(before, after, Math.min(before.length, after.length) - start) };
}

/** The change widened to whole top-level statements of both texts (a statement that the change ends or starts is changed as a whole), until the two agree. */
function topLevelStatements(oldStatements: readonly Span[], newStatements: readonly Span[], start: number, oldEnd: number, delta: number): { start: number; oldEnd: number } {
  for (let widened = true; widened; ) {
    widened = false;
    for (const [statements, end, shift] of [
      [oldStatements, oldEnd, 0],
      [newStatements, oldEnd + delta, delta],
    ] as const) {
      const first = statementAt(statements, start);
      const last = statementAt(statements, Math.max(start, end - 1));
      if (first >= 0 && statements[first].start < start) {
        start = statements[first].start;
        widened = true;
      }
      if (last >= 0 && statements[last].end - shift > oldEnd) {
        oldEnd = statements[last].end - shift;
        widened = true;
      }
    }
  }
  return { start, oldEnd };
}

/**
 * The requests of one editor buffer kept between its analyses (see the file's comment). `begin`
 * at the start of an analysis, `reuse` and `keep` for each call with a request's callee, `end`
 * when the requests are read.
 */
export class RequestReuse {
  /** The last analysis that compared its text with the one before (see `end`). */
  private last?: Analysed;
  private next?: Map<string, Kept>;
  private change?: Change;
  private statements: Statement[] = [];
  private unit?: FileUnit;
  /** Requests taken from the last analysis so far (for tests and the editor probe). */
  reused = 0;

  /** Starts an analysis of `unit`: what the change since the last one may affect is worked out here. */
  begin(unit: FileUnit): void {
    this.unit = unit;
    this.functions = undefined;
    this.next = new Map();
    this.change = undefined;
    // A tree with a syntax error is compared only when the error is in the one statement parsed
    // again, the others kept as they were read before (Parsers.parseEdited): a parse of the whole
    // text may read the statements beside an error otherwise.
    const children = unit.tree.rootNode.children;
    const withError = unit.tree.rootNode.hasError;
    const spliced = unit.tree.splicedText;
    if (withError && (!spliced || unit.tree.spliced !== 'with-error' || children.some((c) => c.hasError && (c.endIndex <= spliced.start || c.startIndex >= spliced.end)))) {
      this.statements = [];
      return;
    }
    const spans: Span[] = children.map((c) => ({ start: c.startIndex, end: c.endIndex }));
    const last = this.last?.language === unit.language ? this.last : undefined;
    const edit = last ? changedRange(last.text, unit.text) : undefined;
    if (!last) {
      this.statements = this.readStatements(spans);
      return;
    }
    if (!edit) {
      this.statements = last.statements;
      this.change = { start: 0, oldEnd: 0, newEnd: 0, delta: 0, rebound: new Set(), called: new Set() };
      return;
    }
    const delta = unit.text.length - last.text.length;
    const { start, oldEnd } = topLevelStatements(last.statements, spans, edit.start, edit.oldEnd, delta);
    const newEnd = oldEnd + delta;
    // The statements outside the change are the last analysis's, moved; those inside are read now.
    const statements: Statement[] = [];
    const changedOld: Statement[] = [];
    for (const o of last.statements) {
      if (o.end <= start) statements.push(o);
      else if (o.start >= oldEnd) break;
      else changedOld.push(o);
    }
    const changedNew = this.readStatements(spans.filter((sp) => sp.end > start && sp.start < newEnd));
    statements.push(...changedNew);
    for (const o of last.statements) if (o.start >= oldEnd) statements.push(delta ? { ...o, start: o.start + delta, end: o.end + delta } : o);
    this.statements = statements;
    if (statements.length !== spans.length || statements.some((st, i) => st.start !== spans[i].start || st.end !== spans[i].end)) {
      // The statements around the change came out otherwise than they were: read them all again.
      this.statements = this.readStatements(spans);
      return;
    }
    if (GLOBAL_WORDS.test(last.text.slice(start, oldEnd)) || GLOBAL_WORDS.test(unit.text.slice(start, newEnd))) return;
    const rebound = new Set<string>();
    const called = new Set<string>();
    for (const st of [...changedOld, ...changedNew]) {
      for (const n of st.changes) rebound.add(n);
      for (const n of st.calls) called.add(n);
    }
    const change: Change = { start, oldEnd, newEnd, delta, rebound, called };
    // A statement that reads an affected name and binds one of the module's names affects that one too.
    for (let grew = rebound.size + called.size > 0; grew; ) {
      grew = false;
      for (const st of statements) {
        if (!st.bound.size || !this.depends(st, change)) continue;
        for (const b of st.bound) if (!rebound.has(b)) {
          rebound.add(b);
          grew = true;
        }
      }
    }
    this.change = change;
  }

  /** The names of the functions and methods the unit defines, anywhere (read once per analysis). */
  private functionNames(): ReadonlySet<string> {
    if (this.functions) return this.functions;
    const out = new Set<string>();
    for (const scope of this.unit!.scopes.values()) for (const [name, bindings] of scope.bindings) if (bindings.some((b) => b.kind === 'function')) out.add(name);
    return (this.functions = out);
  }
  private functions?: ReadonlySet<string>;

  private namesOf(st: Statement): Set<string> {
    return (st.names ??= namesIn(this.unit!.text.slice(st.start, st.end)));
  }

  /** Whether what a statement reads may differ after `change`: it writes a function whose callers changed, or reads a changed name of the module at the module's scope. */
  private depends(st: Statement, change: Change): boolean {
    const names = this.namesOf(st);
    for (const n of change.called) if (names.has(n)) return true;
    // Only names written in it can be read in it: the text's names answer most statements without the tree.
    if (!anyOf(change.rebound, (n) => names.has(n))) return false;
    const reads = this.moduleReadsOf(st);
    return anyOf(change.rebound, (n) => reads.has(n));
  }

  /** The names a statement of the unit reads at the module's scope (Statement.moduleReads). */
  private moduleReadsOf(st: Statement): Set<string> {
    if (st.moduleReads) return st.moduleReads;
    const unit = this.unit!;
    const tree = unit.tree;
    const out = new Set<string>();
    for (let c = tree.firstChild(0); c >= 0 && tree.start[c] < st.end; c = tree.nextSibling(c)) {
      if (tree.end[c] <= st.start) continue;
      for (let i = c, stop = tree.subtreeEnd[c]; i < stop; i++) {
        if (!NAME_NODE.test(tree.typeName(i))) continue;
        const name = unit.text.slice(tree.start[i], tree.end[i]);
        if (out.has(name)) continue;
        const node = tree.node(i)!;
        if (!readsAName(unit, node)) continue;
        // The name a function's binding binds there (`resp = ...` in its body) is no reading of it.
        const scope = unit.scopeOf(node);
        if (scope !== unit.module && scope.bindings.get(name)?.some((b) => b.nameNode.id === node.id && b.kind !== 'aug')) continue;
        if (readsModuleScope(unit, node, name)) out.add(name);
      }
    }
    return (st.moduleReads = out);
  }

  /**
   * What the top-level statements `spans` of the unit bind and expose: the module's names each
   * binds, calls or changes in place. One pass over the module's bindings, the calls and the
   * changes in place for all of them (a file's first analysis reads every statement).
   */
  private readStatements(spans: readonly Span[]): Statement[] {
    const unit = this.unit!;
    const moduleNames = unit.module.bindings;
    const functions = this.functionNames();
    const out: Statement[] = spans.map(({ start, end }) => ({ start, end, bound: new Set<string>(), changes: new Set<string>(), calls: new Set<string>() }));
    const at = (offset: number): Statement | undefined => {
      const k = statementAt(out, offset);
      return k < 0 ? undefined : out[k];
    };
    for (const [name, bindings] of moduleNames) {
      for (const b of bindings) {
        const st = at(b.at.startIndex);
        if (st) {
          (st.bound as Set<string>).add(name);
          (st.changes as Set<string>).add(name);
        }
      }
    }
    // A call passes values to a function of the file, whose callers decide its parameters: a
    // function of the module called by name, or a function or method of the file called as a
    // member (`self.build(...)`, `store.save(...)`). A member of something else
    // (`client.messages.create`) is no function of the file.
    for (const st of out) {
      const calls = st.calls as Set<string>;
      for (let i = unit.firstCallFrom(st.start); i < unit.calls.length && unit.calls[i].startIndex < st.end; i++) {
        const call = unit.adapter.expr(unit.calls[i]);
        if (call.k !== 'call') continue;
        const callee = unit.adapter.expr(call.callee);
        if (callee.k === 'ident') {
          if (moduleNames.has(callee.name) || functions.has(callee.name)) calls.add(callee.name);
        } else if (callee.k === 'member') {
          if (functions.has(callee.prop)) calls.add(callee.prop);
        } else {
          for (const m of call.callee.text.matchAll(IDENTIFIER)) if (moduleNames.has(m[0]) || functions.has(m[0])) calls.add(m[0]);
        }
      }
    }
    for (const scope of unit.scopes.values()) {
      for (const [name, mutations] of scope.mutations) {
        if (!moduleNames.has(name)) continue;
        for (const m of mutations) (at(m.node.startIndex)?.changes as Set<string> | undefined)?.add(name);
      }
    }
    return out;
  }

  /** The requests of a call node as the last analysis read them, with their places moved; undefined when they must be read again. */
  reuse(node: Node, budget: EvalBudget, moved: Set<object>): RequestCall[] | undefined {
    const change = this.change;
    if (!change || !this.last) return undefined;
    const start = node.startIndex;
    const end = node.endIndex;
    if (start < change.newEnd && end > change.start) return undefined;
    const oldStart = start >= change.newEnd ? start - change.delta : start;
    const kept = this.last.kept.get(`${oldStart}:${oldStart + (end - start)}`);
    if (!kept) return undefined;
    for (const l of kept.places) if (l.start < change.oldEnd && l.end > change.start) return undefined;
    // What it depends on: what the statements that hold its call and its places read.
    if (change.rebound.size || change.called.size) {
      const seen = new Set<number>();
      for (const offset of [oldStart, ...kept.places.map((l) => l.start)]) {
        const k = statementAt(this.statements, offset >= change.oldEnd ? offset + change.delta : offset);
        if (k < 0 || seen.has(k)) continue;
        seen.add(k);
        if (this.depends(this.statements[k], change)) return undefined;
      }
    }
    // The same steps as reading it again would spend: the bound is reached where it was.
    if (kept.steps && !budget.spend(kept.steps)) return undefined;
    // Moved in place: the kept requests belong to this cache and to the result of the analysis this one replaces.
    if (change.delta) {
      for (const l of kept.places) {
        if (l.start < change.oldEnd || moved.has(l)) continue;
        moved.add(l);
        l.start += change.delta;
        l.end += change.delta;
      }
    }
    this.next!.set(`${start}:${end}`, kept);
    this.reused += kept.calls.length;
    return kept.calls;
  }

  /** Keeps the requests just read for a call node, unless their reading was cut short or refers to the evaluator's tables. */
  keep(node: Node, calls: RequestCall[], steps: number, complete: boolean): void {
    const unit = this.unit;
    if (!this.next || !unit || !complete || !this.statements.length) return;
    const places: Place[] = [];
    if (!placesOf(calls, unit.file, new Set(), places)) return;
    this.next.set(`${node.startIndex}:${node.endIndex}`, { calls, places, steps });
  }

  /** Ends the reading of the requests: what it read is what the next analysis may reuse. */
  end(budget: EvalBudget): void {
    const unit = this.unit;
    // An analysis that compared nothing (a syntax error beside the statement parsed again) leaves
    // the last one as it was: the next text is compared with that one. One that did compare has
    // moved the places of what it took over: it is the last one now.
    if (unit && this.statements.length) this.last = this.next && !budget.hit && !budget.cuts && !budget.failedImports.size ? { text: unit.text, language: unit.language, statements: this.statements, kept: this.next } : undefined;
    this.next = undefined;
    this.change = undefined;
    this.unit = undefined;
  }
}

