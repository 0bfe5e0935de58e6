import * as vm from 'node:vm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { heapCollector, IdleCollection } from '../src/server/idleCollection';
import type { Collect } from '../src/server/idleCollection';

const MB = 1024 * 1024;

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
    collect!({ type: 'minor' });
    expect(vm.runInNewContext('typeof gc')).toBe('undefined');
  });

  it('collects once after the answer has gone out, for several analyses in a row', () => {
    const types: string[] = [];
    const collect: Collect = (o) => void types.push(o.type);
    let used = 40 * MB;
    const idle = new IdleCollection(collect, () => used);
    idle.workDone();
    idle.workDone();
    idle.workDone();
    expect(types).toEqual([]);
    vi.runAllTimers();
    // The first one is full (nothing was collected before), the next young-generation only.
    expect(types).toEqual(['major']);
    used = 45 * MB;
    idle.workDone();
    vi.runAllTimers();
    expect(types).toEqual(['major', 'minor']);
  });

  it('collects the whole heap again once it has grown by 16 MB, or a quarter past that', () => {
    const types: string[] = [];
    let used = 40 * MB;
    const idle = new IdleCollection((o) => void types.push(o.type), () => used);
    const step = (mb: number) => {
      used = mb * MB;
      idle.workDone();
      vi.runAllTimers();
      return types.at(-1);
    };
    expect(step(40)).toBe('major');
    expect(step(55)).toBe('minor');
    expect(step(56)).toBe('major');
    // Past 64 MB the growth that counts is a quarter of the heap.
    expect(step(100)).toBe('major');
    expect(step(120)).toBe('minor');
    expect(step(125)).toBe('major');
  });

  it('does nothing where no collection function can be had', () => {
    const idle = new IdleCollection(undefined);
    idle.workDone();
    expect(vi.getTimerCount()).toBe(0);
  });
});
