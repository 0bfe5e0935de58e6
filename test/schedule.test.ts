/**
 * The order in which worker threads get their files (src/cli/lint.ts, Schedule): each worker a run
 * of consecutive files, the largest run left split when a worker runs out, every file handed
 * out exactly once, and the files of a lost worker handed out again first. And how many workers
 * a run gets (workerCount).
 */
import { describe, expect, it } from 'vitest';
import { Schedule, workerCount } from '../src/cli/lint';

describe('workers for a run', () => {
  it('are one per core (up to 8), fewer for few files', () => {
    expect(workerCount(20_000, undefined, 2)).toBe(2);
    expect(workerCount(20_000, undefined, 32)).toBe(8);
    expect(workerCount(100, undefined, 8)).toBe(3);
    expect(workerCount(20_000, 3, 2)).toBe(3);
  });

  it('are at least one on a machine of one core, so that every file gets a bounded heap and a deadline', () => {
    expect(workerCount(20_000, undefined, 1)).toBe(1);
    expect(workerCount(40, undefined, 1)).toBe(1);
  });

  it('are none (the main thread lints) for --threads 1 and for a run of few files', () => {
    expect(workerCount(20_000, 1, 8)).toBe(0);
    expect(workerCount(39, undefined, 8)).toBe(0);
    expect(workerCount(39, 4, 8)).toBe(0);
    expect(workerCount(0, undefined, 1)).toBe(0);
  });
});

/** Takes every file, round robin over the workers that still get one. */
function takeAll(s: Schedule, workers: number): number[][] {
  const got: number[][] = Array.from({ length: workers }, () => []);
  for (let active = true; active; ) {
    active = false;
    for (let w = 0; w < workers; w++) {
      const i = s.take(w);
      if (i === undefined) continue;
      got[w].push(i);
      active = true;
    }
  }
  return got;
}

describe('schedule', () => {
  it('gives each worker a run of consecutive files, and every file once', () => {
    const s = new Schedule(10, 2);
    expect([s.take(0), s.take(0), s.take(1), s.take(1)]).toEqual([0, 1, 5, 6]);
    const got = takeAll(new Schedule(1000, 3), 3);
    expect(got.flat().sort((a, b) => a - b)).toEqual(Array.from({ length: 1000 }, (_, i) => i));
    // Long runs of consecutive files: a worker switches runs only when it has finished its own.
    for (const g of got) expect(g.filter((x, i) => i > 0 && x !== g[i - 1] + 1).length).toBeLessThan(12);
  });

  it('splits the largest run left for a worker that has finished its own', () => {
    const s = new Schedule(20, 2);
    for (let i = 0; i < 10; i++) expect(s.take(0)).toBe(i);
    expect(s.take(1)).toBe(10);
    // Worker 0 is done; worker 1 has 11..19 left: worker 0 takes the upper half.
    expect(s.take(0)).toBe(15);
    expect(s.take(1)).toBe(11);
    expect(takeAll(s, 2).flat().sort((a, b) => a - b)).toEqual([12, 13, 14, 16, 17, 18, 19]);
    expect(s.take(0)).toBeUndefined();
    expect(s.take(1)).toBeUndefined();
  });

  it('hands the files of a lost worker out again first, and drains what is left', () => {
    const s = new Schedule(6, 2);
    expect([s.take(0), s.take(0)]).toEqual([0, 1]);
    s.giveBack([1]);
    expect(s.take(1)).toBe(1);
    expect(s.take(1)).toBe(3);
    s.giveBack([3]);
    expect(s.drain()).toEqual([2, 3, 4, 5]);
    expect(s.take(0)).toBeUndefined();
  });

  it('has nothing to give with no files, and one worker takes them in order', () => {
    expect(new Schedule(0, 2).take(1)).toBeUndefined();
    expect(takeAll(new Schedule(5, 1), 1)).toEqual([[0, 1, 2, 3, 4]]);
  });
});
