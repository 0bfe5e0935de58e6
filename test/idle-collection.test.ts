import * as vm from 'node:vm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { heapCollector } from '../src/host/heap';
import type { Collect } from '../src/host/heap';
import { IdleCollection } from '../src/server/idleCollection';


describe('heap collection after an analysis', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('gets V8’s collection function without leaving a `gc` global to contexts made later', () => {
    const collect = heapCollector();
    expect(typeof collect).toBe('function');
    collect!('young');
    expect(vm.runInNewContext('typeof gc')).toBe('undefined');
  });

  it('collects the whole heap when asked for a full collection (an options object made V8 11.3 scavenge only)', async () => {
    vi.useRealTimers();
    const collect = heapCollector()!;
    const made = () => new WeakRef({ values: Array.from({ length: 1000 }, (_, i) => ({ i })) });
    const target = made();
    // A weak reference holds its target until the job that made it (or read it) ends.
    const nextJob = () => new Promise((resolve) => setTimeout(resolve, 0));
    await nextJob();
    collect('young');
    // A scavenge keeps what weak references point to; only a full collection clears them.
    expect(target.deref()).toBeDefined();
    await nextJob();
    collect('full');
    expect(target.deref()).toBeUndefined();
  });

  it('collects the young generation once after the answer has gone out, for several analyses in a row', () => {
    const asked: string[] = [];
    const collect: Collect = (what) => void asked.push(what);
    const idle = new IdleCollection(collect);
    idle.workDone();
    idle.workDone();
    idle.workDone();
    expect(asked).toEqual([]);
    vi.runAllTimers();
    expect(asked).toEqual(['young']);
    idle.workDone();
    vi.runAllTimers();
    expect(asked).toEqual(['young', 'young']);
  });

  it('does nothing where no collection function can be had', () => {
    const idle = new IdleCollection(undefined);
    idle.workDone();
    expect(vi.getTimerCount()).toBe(0);
  });
});
