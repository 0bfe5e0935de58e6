/**
 * How JavaScript passes options to a call: one object argument (`create({ model, messages })`),
 * and the TypeScript SDK's second argument of request options (`{ headers }`).
 */
import type { ObjValue } from '../../core/value';
import { allTaints } from '../../core/value';
import type { CallConventions } from '../frontEnd';

export const typescriptCalls: CallConventions = {
  options(unit, ev, args, env) {
    const first = args.find((a) => !a.spread);
    // No argument: no options (a spread of unknown arguments: unknown ones).
    if (!first) return { value: { kind: 'obj', entries: [], complete: args.length === 0, taints: [] } };
    const v = ev.eval(unit, first.value, env);
    if (v.kind !== 'obj') return { value: { kind: 'obj', entries: [], complete: false, taints: allTaints(v) } as ObjValue };
    // Where the options are written, when they are written in place.
    return { value: v, at: unit.adapter.expr(first.value).k === 'dict' ? unit.loc(first.value) : undefined };
  },
  requestOptions(unit, ev, args, env) {
    const second = args.filter((a) => !a.spread)[1];
    return second ? ev.eval(unit, second.value, env) : undefined;
  },
};
