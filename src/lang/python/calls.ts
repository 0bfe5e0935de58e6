/** How Python passes options to a call: keyword arguments, and `**mapping` spreads of them. */
import type { ObjValue } from '../../core/value';
import { allTaints } from '../../core/value';
import type { CallConventions } from '../frontEnd';

export const pythonCalls: CallConventions = {
  options(unit, ev, args, env) {
    const value: ObjValue = { kind: 'obj', entries: [], complete: true, taints: [] };
    for (const a of args) {
      if (a.name) {
        value.entries.push({ key: a.name, keyAt: a.nameNode ? unit.loc(a.nameNode) : undefined, valueAt: unit.loc(a.value), value: ev.eval(unit, a.value, env) });
      } else if (a.spread === 'dict') {
        const v = ev.eval(unit, a.value, env);
        if (v.kind === 'obj') {
          value.entries.push(...v.entries);
          value.complete &&= v.complete;
        } else {
          value.complete = false;
          value.taints.push(...allTaints(v));
        }
      } else if (a.spread === 'list') value.complete = false;
    }
    // Where the options are written: the argument list (a keyword or splat argument's value sits one level deeper).
    const first = args[0]?.value.parent;
    const list = first && (first.type === 'keyword_argument' || first.type === 'list_splat' || first.type === 'dictionary_splat') ? first.parent : first;
    return { value, at: list ? unit.loc(list) : undefined };
  },
};
