/**
 * Garbage collection asked for by the program: the language server collects after an analysis
 * has answered (server/idleCollection.ts), and a command-line run's main thread collects once
 * its start-up garbage is made (cli/main.ts).
 *
 * Node has no API that asks for a collection; V8's `gc` function (the `--expose-gc` flag) is
 * made for one new context and the flag is turned off again at once, so no other code of the
 * process (the extension host runs other extensions) gets a `gc` global.
 *
 * How it is called matters: without arguments `gc` collects the whole heap. With an options
 * object, the V8 of Node 20 (11.3) runs a young-generation collection (a scavenge) for
 * `{ type: 'major' }` as for `{ type: 'minor' }` (`--trace-gc` shows "Scavenge ... testing"
 * for both), so a full collection is asked for without options.
 */
import * as v8 from 'node:v8';
import * as vm from 'node:vm';

/** A collection of the young generation only, or of the whole heap. */
export type HeapCollection = 'young' | 'full';
export type Collect = (what: HeapCollection) => void;

type V8Gc = (options?: { type: 'minor' }) => void;

/** V8's collection function, or undefined where it cannot be had (the flag is refused). */
export function heapCollector(): Collect | undefined {
  const gc = v8Gc();
  if (!gc) return undefined;
  return (what) => (what === 'full' ? gc() : gc({ type: 'minor' }));
}

function v8Gc(): V8Gc | undefined {
  const exposed = (globalThis as { gc?: unknown }).gc;
  if (typeof exposed === 'function') return exposed as V8Gc;
  try {
    v8.setFlagsFromString('--expose-gc');
    const collect: unknown = vm.runInNewContext('gc');
    return typeof collect === 'function' ? (collect as V8Gc) : undefined;
  } catch {
    return undefined;
  } finally {
    v8.setFlagsFromString('--no-expose-gc');
  }
}
