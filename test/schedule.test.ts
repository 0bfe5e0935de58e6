/**
 * The order in which worker threads get their files (src/cli/lint.ts, Schedule): each worker a run
 * of consecutive files, the largest run left split when a worker runs out, every file handed
 * out exactly once, and the files of a lost worker handed out again first. And how many workers
 * a run gets (workerCount).
 */
import { describe, expect, it } from 'vitest';
import { queueTarget, Schedule, sharedSegments, workerCount } from '../src/cli/lint';

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

  it('are one for a run of few files whose workers were started for its walk, none for --threads 1 or no file', () => {
    expect(workerCount(6, undefined, 8, true)).toBe(1);
    expect(workerCount(39, 4, 8, true)).toBe(1);
    expect(workerCount(6, 1, 8, true)).toBe(0);
    expect(workerCount(0, undefined, 8, true)).toBe(0);
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

  it('cuts the runs where the paths part highest up, near the middle', () => {
    // Three repositories of a folder: 30 files of a, 45 of b (in two packages), 25 of c.
    const paths = [
      ...Array.from({ length: 30 }, (_, i) => `/repos/a/src/m${String(i).padStart(2, '0')}.py`),
      ...Array.from({ length: 20 }, (_, i) => `/repos/b/core/m${String(i).padStart(2, '0')}.py`),
      ...Array.from({ length: 25 }, (_, i) => `/repos/b/web/m${String(i).padStart(2, '0')}.ts`),
      ...Array.from({ length: 25 }, (_, i) => `/repos/c/m${String(i).padStart(2, '0')}.py`),
    ];
    expect(sharedSegments(paths).slice(28, 33)).toEqual(new Uint16Array([4, 4, 2, 4, 4]));
    // The middle (50) is inside b, between its packages; the repositories part at 30 and 75, too far from it.
    const s = new Schedule(paths.length, 2, paths);
    expect(s.take(0)).toBe(0);
    expect(s.take(1)).toBe(50);
    // Three workers: the cut asked at 33 moves to 30 (between a and b); the one at 66 stays, as no
    // parting is within 66 ± 8 (b's packages part at 50, b and c at 75). The third worker's run,
    // 66..99, holds the end of b (9 files) and all of c (25): c, the larger, comes first.
    const three = new Schedule(paths.length, 3, paths);
    expect([three.take(0), three.take(1), three.take(2)]).toEqual([0, 30, 75]);
    for (let i = 76; i < 100; i++) expect(three.take(2)).toBe(i);
    expect(three.take(2)).toBe(66);
    // Every file once, whatever the cuts.
    const got = takeAll(new Schedule(paths.length, 3, paths), 3);
    expect(got.flat().sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i));
  });

  it('splits the largest run left where its paths part highest up', () => {
    const paths = [...Array.from({ length: 12 }, (_, i) => `/r/x/f${String(i).padStart(2, '0')}.py`), ...Array.from({ length: 8 }, (_, i) => `/r/y/f${i}.py`)];
    const s = new Schedule(paths.length, 2, paths);
    // Runs: 0..11 (the cut moves from 10 to 12, between x and y), 12..19.
    expect(s.take(1)).toBe(12);
    for (let i = 0; i < 12; i++) expect(s.take(0)).toBe(i);
    for (let i = 13; i < 16; i++) expect(s.take(1)).toBe(i);
    // Worker 0 is done; worker 1 has 16..19 left, all in y: cut in the middle.
    expect(s.take(0)).toBe(18);
  });

  it('gives a worker that has finished whole projects from the end of the fullest list, up to half of it', () => {
    // Two repositories of 40 files for the first worker, then five small ones of 4 for the second.
    const paths = [
      ...Array.from({ length: 40 }, (_, i) => `/w/big1/f${String(i).padStart(2, '0')}.py`),
      ...Array.from({ length: 40 }, (_, i) => `/w/big2/f${String(i).padStart(2, '0')}.py`),
      ...['s1', 's2', 's3', 's4', 's5'].flatMap((r) => Array.from({ length: 4 }, (_, i) => `/w/${r}/f${i}.py`)),
    ];
    const s = new Schedule(paths.length, 2, paths);
    // The middle (50) is inside big2; the nearest parting within 50 ± 12 is at 40 (big1 | big2).
    expect(s.take(0)).toBe(0);
    expect(s.take(1)).toBe(40);
    for (let i = 41; i < 80; i++) expect(s.take(1)).toBe(i);
    // Then s1..s5 (4 each, in place order): worker 0 is still in big1.
    const second: number[] = [];
    for (let i = 0; i < 20; i++) second.push(s.take(1)!);
    expect(second).toEqual(Array.from({ length: 20 }, (_, i) => 80 + i));
    // Worker 1 is done; worker 0 has 1..39 left, one project: it takes the second half of it.
    expect(s.take(1)).toBe(20);
    expect(takeAll(s, 2).flat().length + 2 + 40 + 20).toBe(paths.length);
  });

  it('takes whole projects rather than half of one when the fullest list has several', () => {
    const paths = [
      ...Array.from({ length: 20 }, (_, i) => `/w/a/f${String(i).padStart(2, '0')}.py`),
      ...Array.from({ length: 10 }, (_, i) => `/w/b/f${i}.py`),
      ...Array.from({ length: 10 }, (_, i) => `/w/c/f${i}.py`),
      ...Array.from({ length: 4 }, (_, i) => `/w/d/f${i}.py`),
    ];
    // Runs: a (the cut asked at 22 moves to 20, a | b), and b, c, d (b and c equal: in place order).
    const s = new Schedule(paths.length, 2, paths);
    expect(s.take(1)).toBe(20);
    for (let i = 0; i < 20; i++) expect(s.take(0)).toBe(i);
    // Worker 0 is done; worker 1 has 23 left: b (9), c (10), d (4). Whole projects from the end, up
    // to half (11.5): d; c would make 14.
    expect([s.take(0), s.take(0), s.take(0), s.take(0)]).toEqual([40, 41, 42, 43]);
    // Then b (9) and c (10) are left: c alone is more than half, so the second half of the largest, c.
    expect(s.take(0)).toBe(35);
    expect(takeAll(s, 2).flat().sort((a, b) => a - b)).toEqual([...Array.from({ length: 9 }, (_, i) => 21 + i), 30, 31, 32, 33, 34, 36, 37, 38, 39]);
  });

  it('schedules a list of 300,000 paths', () => {
    const paths = Array.from({ length: 300_000 }, (_, i) => `/big/p${Math.floor(i / 1000)}/f${String(i).padStart(6, '0')}.py`);
    const s = new Schedule(paths.length, 4, paths);
    // The cuts fall between the folders of 1,000 files.
    expect([s.take(0), s.take(1), s.take(2), s.take(3)]).toEqual([0, 75_000, 150_000, 225_000]);
  });

  it('has nothing to give with no files, and one worker takes them in order', () => {
    expect(new Schedule(0, 2).take(1)).toBeUndefined();
    expect(takeAll(new Schedule(5, 1), 1)).toEqual([[0, 1, 2, 3, 4]]);
  });

  it('counts the files not handed out yet, taken over and given back included', () => {
    const s = new Schedule(10, 2);
    expect(s.left()).toBe(10);
    s.take(0);
    s.take(1);
    expect(s.left()).toBe(8);
    // Worker 0 runs out of its own and takes over half of worker 1's: still not handed out.
    for (let i = 0; i < 4; i++) s.take(0);
    expect(s.left()).toBe(4);
    s.take(0);
    expect(s.left()).toBe(3);
    s.giveBack([0, 1]);
    expect(s.left()).toBe(5);
  });
});

describe("a worker's queue", () => {
  it('holds what the worker lints in about 60 ms, between 2 and 192 files', () => {
    expect(queueTarget(1, 20_000, 2)).toBe(60);
    expect(queueTarget(30, 20_000, 2)).toBe(2);
    expect(queueTarget(0.1, 20_000, 2)).toBe(192);
  });

  it('holds no more than its share of the files left near the end of the run, and at least 2', () => {
    expect(queueTarget(0.1, 100, 2)).toBe(50);
    expect(queueTarget(0.1, 9, 2)).toBe(5);
    expect(queueTarget(0.1, 1, 2)).toBe(2);
    expect(queueTarget(0.1, 0, 2)).toBe(2);
    expect(queueTarget(1, 300, 4)).toBe(60);
  });
});
