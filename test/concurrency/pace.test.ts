import { describe, expect, it } from 'vitest';
import { createPace, type PaceClock } from '../../src/concurrency/pace.ts';

/**
 * A pace spreads batches of background work out to a rate: each batch waits its turn, turns go in the
 * order asked, and an idle pace saves no credit up. Read on a clock the spec moves, never timed.
 */
const manualClock = () => {
  let now = 0;
  const clock: PaceClock & { advance: (ms: number) => void } = {
    now: () => now,
    sleep: async (ms) => {
      now += ms;
    },
    advance: (ms) => {
      now += ms;
    },
  };
  return clock;
};

describe('a pace for background work', () => {
  it('when batches of 64 are asked for one after another at 600 a second, each starts 64/600 s after the one before it', async () => {
    const clock = manualClock();
    const pace = createPace(600, clock);
    const starts: number[] = [];
    for (let batch = 0; batch < 4; batch++) {
      await pace.reserve(64);
      starts.push(clock.now());
    }
    expect(starts.map((start) => Math.round(start * 10) / 10)).toEqual([0, 106.7, 213.3, 320]);
  });

  it('when two loops ask at the same moment, the second waits for the first batch, in the order they asked', async () => {
    const clock = manualClock();
    const sleeps: number[] = [];
    const pace = createPace(100, { now: clock.now, sleep: async (ms) => void sleeps.push(ms) });
    await Promise.all([pace.reserve(10), pace.reserve(20), pace.reserve(5)]);
    // 10 items at 100 a second hold the pace 100 ms, then 20 items 200 ms more.
    expect(sleeps).toEqual([100, 300]);
  });

  it('when the pace has been idle, the next batch goes at once and no credit is saved up for the ones after it', async () => {
    const clock = manualClock();
    const pace = createPace(100, clock);
    await pace.reserve(10);
    clock.advance(5_000);
    const before = clock.now();
    await pace.reserve(10);
    expect(clock.now()).toBe(before);
    await pace.reserve(10);
    expect(clock.now()).toBe(before + 100);
  });

  it('when no rate is given, every batch goes at once; a rate of zero or less is refused', async () => {
    const clock = manualClock();
    const unpaced = createPace(Number.POSITIVE_INFINITY, clock);
    for (let batch = 0; batch < 10; batch++) await unpaced.reserve(1_000);
    expect(clock.now()).toBe(0);
    expect(() => createPace(0, clock)).toThrow(RangeError);
  });
});
