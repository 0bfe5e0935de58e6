/**
 * Collects the young generation of the server's heap right after an analysis has answered,
 * instead of in the middle of the next one.
 *
 * Why: one keystroke's analysis of a 3,000-line file allocates ~5 MB, nearly all of it live until
 * the analysis ends (request values, the file's index, the tree). V8 collects the young
 * generation when it fills, so about one keystroke in three paid a scavenge that copied most of
 * what that analysis had built so far (7–13 ms, most of the editor's p95). Collected once the
 * answer is out, the young generation holds only the last analysis's results and garbage, and
 * the next keystroke starts with it empty (bench/editor-probe.ts measures both).
 *
 * Node has no API that asks for a collection; V8's `gc` function (the `--expose-gc` flag) is
 * made for one new context and the flag is turned off again at once, so no other code of the
 * process (the extension host runs other extensions) gets a `gc` global.
 */
import * as v8 from 'node:v8';
import * as vm from 'node:vm';

export type Collect = (options: { type: 'minor' | 'major'; execution?: 'sync' | 'async' }) => void;

/** V8's collection function, or undefined where it cannot be had (the flag is refused). */
export function heapCollector(): Collect | undefined {
  const exposed = typeof (globalThis as { gc?: unknown }).gc === 'function';
  if (exposed) return (globalThis as unknown as { gc: Collect }).gc;
  try {
    v8.setFlagsFromString('--expose-gc');
    const collect: unknown = vm.runInNewContext('gc');
    return typeof collect === 'function' ? (collect as Collect) : undefined;
  } catch {
    return undefined;
  } finally {
    v8.setFlagsFromString('--no-expose-gc');
  }
}

/**
 * Growth of the used heap since the last full collection at which the next idle collection is a
 * full one: V8 would otherwise finish a full collection in the middle of a keystroke's analysis
 * every ~30 keystrokes (4–9 ms), while one at rest takes 3–5 ms on the 3,000-line benchmark file.
 */
const FULL_AFTER_GROWTH = 16 * 1024 * 1024;

export class IdleCollection {
  private pending = false;
  /** The used heap after the last full collection asked for here. */
  private usedAfterFull = 0;

  constructor(
    private readonly collect: Collect | undefined,
    private readonly usedHeap: () => number = () => v8.getHeapStatistics().used_heap_size,
  ) {}

  /**
   * Called when an analysis is done: the young generation is collected once the messages
   * already waiting have been handled (the answer is sent first), and the whole heap when it
   * has grown by FULL_AFTER_GROWTH (or a quarter) since the last time. Several analyses in a
   * row (the cells of a notebook, the files that import a changed one) make one collection.
   */
  workDone(): void {
    if (!this.collect || this.pending) return;
    this.pending = true;
    // A timer, not setImmediate: the connection writes its answer from a setImmediate queued after
    // this call, and a collection queued before it would delay the answer by its own length.
    setTimeout(() => {
      this.pending = false;
      const used = this.usedHeap();
      if (used - this.usedAfterFull < Math.max(FULL_AFTER_GROWTH, this.usedAfterFull / 4)) return this.collect!({ type: 'minor' });
      this.collect!({ type: 'major' });
      this.usedAfterFull = this.usedHeap();
    }, 0).unref();
  }
}
