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
 */
import type { Collect } from '../host/heap';

/**
 * Only the young generation: V8 collects the whole heap itself when it needs to (about once in
 * a hundred keystrokes on the benchmark file). A full collection asked for at rest after every
 * 16 MB of growth (every ~3 keystrokes) made the keystrokes after it slower: on the 3,000-line
 * benchmark file (bench/editor-probe.ts, 200 edits, 3 runs each), p50 9.7 → 10.9–11.3 ms and p95
 * 16.7–17.1 → 18.8–22.1 ms in Python, 10.5–10.7 → 11.2–11.7 and 17.9 → 19.7–23.5 ms in
 * TypeScript. (Until this was found, that full collection had in fact been a young one: see
 * host/heap.ts.)
 */
export class IdleCollection {
  private pending = false;

  constructor(private readonly collect: Collect | undefined) {}

  /**
   * Called when an analysis is done: the young generation is collected once the messages
   * already waiting have been handled (the answer is sent first). Several analyses in a row (the
   * cells of a notebook, the files that import a changed one) make one collection.
   */
  workDone(): void {
    if (!this.collect || this.pending) return;
    this.pending = true;
    // A timer, not setImmediate: the connection writes its answer from a setImmediate queued after
    // this call, and a collection queued before it would delay the answer by its own length.
    setTimeout(() => {
      this.pending = false;
      this.collect!('young');
    }, 0).unref();
  }
}
