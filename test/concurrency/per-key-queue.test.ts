import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createPerKeyQueue, oneAtATime } from '../../src/concurrency/per-key-queue.ts';

describe('the per-key queue', () => {
  it('when tasks share a key, they run one after the other in arrival order', async () => {
    const queue = createPerKeyQueue();
    const trace: string[] = [];
    const task = (name: string) => async () => {
      trace.push(`start ${name}`);
      await sleep(5);
      trace.push(`end ${name}`);
      return name;
    };
    const results = await Promise.all([queue('k', task('1')), queue('k', task('2')), queue('k', task('3'))]);
    expect(results).toEqual(['1', '2', '3']);
    expect(trace).toEqual(['start 1', 'end 1', 'start 2', 'end 2', 'start 3', 'end 3']);
  });

  it('when tasks have different keys, they run side by side', async () => {
    const queue = createPerKeyQueue();
    const trace: string[] = [];
    const task = (name: string) => async () => {
      trace.push(`start ${name}`);
      await sleep(5);
      trace.push(`end ${name}`);
    };
    await Promise.all([queue('a', task('a')), queue('b', task('b'))]);
    expect(trace.slice(0, 2)).toEqual(['start a', 'start b']);
  });

  it('when a task fails, its caller gets the error and the next task of the key still runs', async () => {
    const queue = createPerKeyQueue();
    const failing = queue('k', async () => {
      throw new Error('boom');
    });
    const next = queue('k', async () => 'ran');
    await expect(failing).rejects.toThrow('boom');
    await expect(next).resolves.toBe('ran');
  });
});

describe('one at a time', () => {
  it('runs the tasks one after the other in arrival order, each starting after its caller returned', async () => {
    const serial = oneAtATime();
    const trace: string[] = [];
    const task = (name: string) => async () => {
      trace.push(`start ${name}`);
      await sleep(5);
      trace.push(`end ${name}`);
      return name;
    };
    const pending = [serial(task('1')), serial(task('2')), serial(task('3'))];
    trace.push('queued');
    expect(await Promise.all(pending)).toEqual(['1', '2', '3']);
    expect(trace).toEqual(['queued', 'start 1', 'end 1', 'start 2', 'end 2', 'start 3', 'end 3']);
  });

  it('when a task fails, its caller gets the error and the next task still runs', async () => {
    const serial = oneAtATime();
    const failing = serial(async () => {
      throw new Error('boom');
    });
    const next = serial(async () => 'ran');
    await expect(failing).rejects.toThrow('boom');
    await expect(next).resolves.toBe('ran');
  });
});
