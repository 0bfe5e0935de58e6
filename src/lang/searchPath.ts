/**
 * The path of a depth-first search over functions (which function is being read, from which), for
 * the searches that keep their answers between questions (textReach.ts over module texts, reach.ts
 * over code). A call back into a function on the path counts for nothing there; an answer found
 * while such a call was cut short further up the path holds for that search only (asked first, the
 * function further up may well lead on through this one), so it must not be kept.
 */
export class SearchPath {
  /** The functions being read, each with its position on the path. */
  private readonly on = new Map<string, number>();
  /** The outermost position a call back was cut short at, below the function read now. */
  private cutAt = Infinity;

  get size(): number {
    return this.on.size;
  }

  /** How many times a search along this path stopped because its depth ran out (depthRanOut). */
  private runOuts = 0;

  get depthRunOuts(): number {
    return this.runOuts;
  }

  /** A search stopped at its depth and answered as if it went on: what is found above depends on the depth asked. */
  depthRanOut(): void {
    this.runOuts++;
  }

  /** Whether `key` is being read (a call back into it); the cut is noted. */
  backInto(key: string): boolean {
    const at = this.on.get(key);
    if (at === undefined) return false;
    this.cutAt = Math.min(this.cutAt, at);
    return true;
  }

  /** Starts reading `key`: what `leave` is given back. */
  enter(key: string): PathFrame {
    const frame = { key, position: this.on.size, cutAbove: this.cutAt, depthRanOut: this.runOuts };
    this.cutAt = Infinity;
    this.on.set(key, frame.position);
    return frame;
  }

  /** Ends reading a function: whether an answer found for it may be kept (no call back into a function further up was cut short while it was read). */
  leave(frame: PathFrame): boolean {
    this.on.delete(frame.key);
    const cut = this.cutAt;
    this.cutAt = cut < frame.position ? Math.min(frame.cutAbove, cut) : frame.cutAbove;
    return cut >= frame.position;
  }
}

export interface PathFrame {
  key: string;
  position: number;
  cutAbove: number;
  /** SearchPath.depthRunOuts when the function was entered. */
  depthRanOut: number;
}
