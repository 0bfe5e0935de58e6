/**
 * The JavaScript library as the analysis knows it: what well-known functions produce (keyed by
 * canonical dotted name: `crypto.randomUUID`, `node:fs.readdirSync`), the globals, and the
 * built-in methods of arrays.
 */
import type { Loc } from '../../core/span';
import type { ListValue, StrValue, Taint, Value } from '../../core/value';
import { HOLE, allTaints, concatStrings, itemsSeen, listedItems, union, unknown, withoutUnordered, sliceOf } from '../../core/value';
import type { Evaluator, Env } from '../evaluate';
import { itemsOrigin } from '../evaluate';
import type { Library } from '../frontEnd';
import { typescriptFileOps, typescriptMayReadFiles } from './fileOps';
import type { Node } from '../parsers';
import type { SourceKind } from '../sources';
import type { Arg } from '../syntax';
import type { FileUnit } from '../workspace';

const SOURCES: Record<string, SourceKind> = {
  'Date.now': 'clock',
  'performance.now': 'clock',
  'process.hrtime': 'clock',
  'process.hrtime.bigint': 'clock',
  'process.uptime': 'clock',
  dayjs: 'clock',
  'dayjs.default': 'clock',
  moment: 'clock',
  'moment.default': 'clock',
  'luxon.DateTime.now': 'clock',
  'luxon.DateTime.utc': 'clock',
  'Temporal.Now.instant': 'clock',
  'Temporal.Now.plainDateTimeISO': 'clock',
  'Temporal.Now.zonedDateTimeISO': 'clock',
  'Math.random': 'random',
  'crypto.randomUUID': 'random',
  'crypto.randomBytes': 'random',
  'crypto.getRandomValues': 'random',
  'node:crypto.randomUUID': 'random',
  'node:crypto.randomBytes': 'random',
  'uuid.v1': 'random',
  'uuid.v4': 'random',
  'uuid.v7': 'random',
  'nanoid.nanoid': 'random',
  'ulid.ulid': 'random',
  // The AI SDK's ids (chats, messages, tool calls): random, as nanoid's.
  'ai.generateId': 'random',
  '@ai-sdk/provider-utils.generateId': 'random',
  'os.hostname': 'environment',
  'node:os.hostname': 'environment',
  'fs.readdirSync': 'listing',
  'fs.readdir': 'listing',
  'fs.promises.readdir': 'listing',
  'fs/promises.readdir': 'listing',
  'node:fs.readdirSync': 'listing',
  'node:fs.readdir': 'listing',
  'node:fs.promises.readdir': 'listing',
  'node:fs/promises.readdir': 'listing',
  'glob.sync': 'listing',
  'glob.globSync': 'listing',
  'glob.glob': 'listing',
  'fast-glob.default': 'listing',
  'fast-glob.sync': 'listing',
  'JSON.stringify': 'json-stringify',
  'Object.keys': 'object-keys',
  'Object.values': 'object-keys',
  'Object.entries': 'object-entries',
  'Object.fromEntries': 'object-from-entries',
  'Array.from': 'to-list',
  String: 'passthrough',
  Number: 'passthrough',
  Date: 'date-ctor',
  structuredClone: 'clone',
  'Object.assign': 'merge',
  require: 'require',
};

const GLOBALS = new Set(['Date', 'Math', 'JSON', 'crypto', 'performance', 'process', 'Object', 'Array', 'Set', 'Map', 'require', 'String', 'Number', 'Temporal', 'console', 'globalThis', 'structuredClone']);

/** `messages.slice(1)` that takes off a leading system entry (see Evaluator.stripsLeadingSystem). */
function stripsLeadingSystem(ev: Evaluator, unit: FileUnit, receiver: Value, args: Arg[], node: Node): boolean {
  if (args.length !== 1 || args[0].spread) return false;
  const call = unit.adapter.expr(node);
  const callee = call.k === 'call' ? unit.adapter.expr(call.callee) : undefined;
  return callee?.k === 'member' && ev.stripsLeadingSystem(unit, callee.object, receiver, args[0].value, node);
}

function method(ev: Evaluator, unit: FileUnit, receiver: Value, prop: string, args: Arg[], node: Node, env: Env | undefined): Value | undefined {
  const at: Loc = unit.loc(node);
  const rtaints: Taint[] = allTaints(receiver);
  if (prop === 'filter' && receiver.kind !== 'list' && receiver.kind !== 'str' && !ev.refOf(receiver)) {
    // `TOOLS.filter((t) => user.scopes.includes(t.name))` on a list that is not resolved here.
    const cref = ev.refOf(args[0] ? ev.eval(unit, args[0].value, env) : undefined);
    if (cref?.kind === 'function' && !rtaints.some((t) => t.cls === 'per-request')) {
      const kept = ev.invoke(cref, [ev.itemOf(receiver, at)], at);
      const picked = allTaints(kept).filter((t) => t.cls === 'per-request').map((t) => ({ ...t, kind: 'filter' as const }));
      if (picked.length) return { kind: 'list', items: [], complete: false, at, taints: [...rtaints, ...picked], trims: receiver.trims };
    }
  }
  if ((prop === 'map' || prop === 'flatMap') && receiver.kind !== 'list' && receiver.kind !== 'str') {
    const cref = ev.refOf(args[0] ? ev.eval(unit, args[0].value, env) : undefined);
    if (cref?.kind === 'function' && !ev.refOf(receiver)) {
      const mapped = ev.invoke(cref, [ev.itemOf(receiver, at)], at);
      return { kind: 'list', items: [{ ...mapped, repeated: at } as Value], complete: false, covered: true, at, taints: rtaints, trims: receiver.trims };
    }
  }
  if (prop === 'slice' && receiver.kind === 'unknown' && !ev.refOf(receiver) && args[0] && ev.isCount(unit, args[0].value, env)) {
    const trims = stripsLeadingSystem(ev, unit, receiver, args, node) ? [...(receiver.trims ?? [])] : [...(receiver.trims ?? []), ev.trim(unit, 'slice', node)];
    return { kind: 'list', items: [], complete: false, at, taints: rtaints, trims };
  }
  if (receiver.kind === 'unknown' && receiver.origin && !ev.refOf(receiver)) {
    // `resp.content.filter(...)` keeps reading the response; `.find(...)` / `.at(i)` read one item of it.
    if (prop === 'filter' || prop === 'slice' || prop === 'toSorted' || prop === 'toReversed') return { ...unknown(at, `${prop}()`, rtaints), origin: receiver.origin };
    if (prop === 'find' || prop === 'at' || prop === 'findLast') return { ...unknown(at, `${prop}()`, rtaints), origin: ev.readFrom(receiver.origin, '[]') };
  }
  if (receiver.kind === 'list') {
    switch (prop) {
      case 'join': {
        const sep = args[0] ? ev.eval(unit, args[0].value, env) : ({ kind: 'str', text: ',', complete: true, taints: [] } as StrValue);
        if (receiver.complete && sep.kind === 'str') {
          const parts: Value[] = [];
          receiver.items.forEach((it, i) => {
            if (i > 0) parts.push(sep);
            parts.push(it);
          });
          const s = concatStrings(parts, at);
          return { ...s, taints: [...s.taints, ...receiver.taints] };
        }
        const joined = itemsOrigin(receiver);
        return { kind: 'str', text: HOLE, complete: false, at, taints: rtaints, ...(joined ? { origin: joined } : {}) };
      }
      case 'sort':
      case 'toSorted': {
        const clean = withoutUnordered(receiver);
        return clean.kind === 'list' ? { ...clean, at, head: 0 } : { ...clean, at };
      }
      case 'slice': {
        const from = args.length === 1 && !args[0].spread ? ev.eval(unit, args[0].value, env) : undefined;
        const out: ListValue = { ...sliceOf(receiver, from, args.length > 1), at, covered: itemsSeen(receiver), trims: [...(receiver.trims ?? [])] };
        if (args[0] && ev.isCount(unit, args[0].value, env) && !stripsLeadingSystem(ev, unit, receiver, args, node)) out.trims!.push(ev.trim(unit, 'slice', node));
        return out;
      }
      case 'concat': {
        let out: Value = receiver;
        for (const a of args) out = ev.combine('+', out, ev.eval(unit, a.value, env), at, unit.loc(a.value));
        return out;
      }
      case 'map':
      case 'flatMap': {
        // `items.map((x) => ({...}))`: the callback's result, with the item bound to its parameter.
        const cb = args[0] ? ev.eval(unit, args[0].value, env) : undefined;
        const cref = ev.refOf(cb);
        const item = ev.itemOf(receiver, at);
        if (cref?.kind === 'function') {
          const mapped = ev.invoke(cref, [item], at);
          return { kind: 'list', items: [{ ...mapped, repeated: at } as Value], complete: false, covered: true, at, taints: receiver.taints, trims: receiver.trims };
        }
        return { kind: 'list', items: [], complete: false, at, taints: rtaints, trims: receiver.trims };
      }
      case 'filter':
      case 'find': {
        const cref = ev.refOf(args[0] ? ev.eval(unit, args[0].value, env) : undefined);
        // `chat.filter((m) => m.role === 'system')`: the items the predicate keeps, decided item by item.
        const kept = cref?.kind === 'function' ? keptBy(ev, cref, receiver, at) : undefined;
        if (kept && prop === 'find') {
          const items = listedItems(kept);
          if (!items.length) return kept.complete ? { kind: 'null', value: null, at, taints: [] } : unknown(at, 'find()', kept.taints);
          const one = items.reduce((a, b) => union(a, b, at));
          return kept.complete && items.length === 1 ? one : { ...unknown(at, 'find()', [...allTaints(one), ...kept.taints]) };
        }
        if (kept) return { ...kept, at };
        if (prop === 'find') break;
        // `TOOLS.filter((t) => user.scopes.includes(t.name))`: the predicate decides per request.
        const picked: Taint[] = [];
        if (cref?.kind === 'function' && !rtaints.some((t) => t.cls === 'per-request')) {
          const kept = ev.invoke(cref, [ev.itemOf(receiver, at)], at);
          picked.push(...allTaints(kept).filter((t) => t.cls === 'per-request').map((t) => ({ ...t, kind: 'filter' as const })));
        }
        return { kind: 'list', items: [], complete: false, at, taints: [...rtaints, ...picked], trims: receiver.trims };
      }
      default:
        break;
    }
  }
  return undefined;
}

/**
 * The list of the items a predicate keeps, when it decides some of them (`(m) => m.role ===
 * 'system'` on items whose role is written): in order and complete when it decides all of a
 * complete list; else the kept items at places not known, with what the list may hold besides.
 */
function keptBy(ev: Evaluator, fn: Parameters<Evaluator['predicateHolds']>[0], receiver: ListValue, at: Loc): ListValue | undefined {
  const items = listedItems(receiver);
  if (!items.length || items.length > 64) return undefined;
  const verdicts = items.map((item) => ev.predicateHolds(fn, item, at));
  if (verdicts.every((v) => v === undefined)) return undefined;
  const kept = items.filter((_, i) => verdicts[i] !== false);
  const exact = receiver.complete && !receiver.possible && verdicts.every((v) => v !== undefined);
  return exact
    ? { kind: 'list', items: kept, complete: true, at, taints: receiver.taints, trims: receiver.trims }
    : { kind: 'list', items: [], complete: false, at, taints: receiver.taints, trims: receiver.trims, ...(kept.length ? { possible: kept } : {}), ...(itemsSeen(receiver) ? { covered: true } : {}) };
}

const PATH_JOIN = /^(node:)?path(\.posix)?\.(join|resolve)$/;

export const typescriptLibrary: Library = {
  fileOps: typescriptFileOps,
  mayReadFiles: typescriptMayReadFiles,
  isPathJoin: (name) => PATH_JOIN.test(name),
  globalName: (name) => (GLOBALS.has(name) ? name : undefined),
  classify(name: string): SourceKind | undefined {
    const hit = SOURCES[name];
    if (hit) return hit;
    if (name.startsWith('process.env')) return 'environment';
    return undefined;
  },
  method,
};
