import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSavFileFetchJob, type SavFileFetchJob } from '../../src/jobs/sav-file-fetch-schedule.ts';
import { findSavById } from '../../src/projections/after-sales/queries.ts';
import { startFileServer, type FileServer } from '../files/file-server.ts';
import { complaint, seedSales, startSavApi, type SavApi } from '../rest/core/sav/sav-api.ts';
import { eventually } from '../support/eventually.ts';
import { fetchOptions, namedUrl } from './sav-file-fixtures.ts';

describe('the SAV file fetch job on its schedule', () => {
  let files: FileServer;
  let api: SavApi;
  let sofa: number;
  let job: SavFileFetchJob | undefined;
  beforeAll(async () => {
    files = await startFileServer();
  });
  afterAll(async () => files.close());
  beforeEach(async () => {
    api = await startSavApi();
    sofa = (await seedSales(api)).first.sofa;
    files.requested.length = 0;
    job = undefined;
  });
  afterEach(async () => {
    await job?.stop();
    await api.close();
  });

  const create = async (url: string): Promise<number> =>
    (await api.post('/api/sale-sav/create-for-sale-product', { saleProductId: sofa, data: complaint({ images: [url] }) })).body.sav_id;
  const fileOf = async (savId: number) => (await findSavById(api.runtime.readStore, savId))?.files[0];

  it('when a file was left pending, a tick of the schedule fetches it without any request', async () => {
    const savId = await create(namedUrl(files, '/photo.jpg'));
    expect((await fileOf(savId))?.state).toBe('pending');

    job = startSavFileFetchJob(api.runtime, { everySeconds: 1, ...fetchOptions(files) });

    await eventually(async () => (await fileOf(savId))?.state === 'stored', 5000);
    expect(files.requested).toEqual(['/photo.jpg']);
  });

  it('when a SAV names a file by URL while the job runs, the creation asks the job for a run: it is stored within moments', async () => {
    job = startSavFileFetchJob(api.runtime, { everySeconds: 59, ...fetchOptions(files) });

    const savId = await create(namedUrl(files, '/photo.jpg'));

    await eventually(async () => (await fileOf(savId))?.state === 'stored', 3000);
  });

  it('when the job stops while a file host keeps it waiting, the fetch is broken off at once and the attempt is not counted', async () => {
    job = startSavFileFetchJob(api.runtime, { everySeconds: 59, ...fetchOptions(files, { timeoutMs: 30_000 }) });
    const savId = await create(namedUrl(files, '/silent.jpg'));
    await eventually(() => files.requested.includes('/silent.jpg'), 3000);

    const started = Date.now();
    await job.stop();

    expect(Date.now() - started).toBeLessThan(2000);
    expect(await fileOf(savId)).toMatchObject({ state: 'pending', attempts: 0, lastError: null });
  });

  it('when the period is not 1 to 59 seconds, starting the job throws', () => {
    expect(() => startSavFileFetchJob(api.runtime, { everySeconds: 0 })).toThrow(RangeError);
    expect(() => startSavFileFetchJob(api.runtime, { everySeconds: 60 })).toThrow(RangeError);
  });
});
