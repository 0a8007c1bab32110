import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIdempotencyPurgeJob } from '../../src/jobs/idempotency-purge-schedule.ts';
import { answerRecords, recordId } from '../../src/idempotency/answer-records.ts';
import { startApi, type ApiHarness } from '../support/api-harness.ts';
import { eventually } from '../support/eventually.ts';

describe('the Idempotency-Key answer purge job', () => {
  let api: ApiHarness;
  let now = new Date('2026-10-05T08:00:00.000Z').getTime();
  beforeAll(async () => {
    api = await startApi({ clock: { now: () => new Date(now) } });
  });
  afterAll(async () => api.close());

  it('when an answer is past its 24 hours, the job deletes it and keeps the younger ones', async () => {
    const records = answerRecords(api.runtime.readStore);
    const [old, young] = [recordId('token-a', 'old'), recordId('token-a', 'young')];
    expect((await records.claim(old, 'token-a', 'fingerprint', new Date(now))).won).toBe(true);
    now += 12 * 60 * 60 * 1000;
    const youngClaimedAt = new Date(now).toISOString();
    expect((await records.claim(young, 'token-a', 'fingerprint', new Date(now))).won).toBe(true);
    now += 12 * 60 * 60 * 1000 + 1;

    const job = startIdempotencyPurgeJob(api.runtime, '* * * * * *');
    try {
      await eventually(async () => (await records.find(old)) === null, 5000);
    } finally {
      await job.stop();
    }
    expect(await records.find(young)).toMatchObject({ _id: young, tokenId: 'token-a', claimedAt: youngClaimedAt });
  });
});
