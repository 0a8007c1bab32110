import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startLeasedJob, type LeasedJob } from '../../src/jobs/leased-job.ts';
import { startApi, type ApiHarness } from '../support/api-harness.ts';

describe('a leased job on its schedule', () => {
  let api: ApiHarness;
  let job: LeasedJob | undefined;
  beforeEach(async () => {
    api = await startApi();
    job = undefined;
  });
  afterEach(async () => {
    await job?.stop();
    await api.close();
  });

  it('when a run outlasts the ticks of its schedule, no other run starts beside it, whether the schedule or the lease started it', async () => {
    let running = 0;
    let mostAtOnce = 0;
    let runs = 0;
    job = startLeasedJob(api.runtime, {
      name: 'slow-run-spec',
      pattern: '* * * * * *',
      // The first run (the lease just taken) lasts one and a half ticks of the schedule.
      run: async () => {
        runs++;
        mostAtOnce = Math.max(mostAtOnce, ++running);
        await sleep(runs === 1 ? 1_500 : 10);
        running--;
      },
      failure: 'the spec run failed',
    });
    // The long run spans a tick whenever it starts; the next run comes at the first tick after it ends,
    // up to a second later (awaited up to 5 s: a loaded machine takes the lease later).
    for (const deadline = Date.now() + 5_000; runs < 2 && Date.now() < deadline;) await sleep(50);

    expect(mostAtOnce).toBe(1);
    // After the long run, the schedule goes on.
    expect(runs).toBeGreaterThanOrEqual(2);
  });
});
