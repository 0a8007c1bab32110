import { existsSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Response } from 'supertest';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { savStreamName } from '../../../../src/events/after-sales/events.ts';
import { maxSavFileFetchAttempts, nextFetchDelay } from '../../../../src/events/after-sales/sav-file-fetch.ts';
import { runSavFileFetchesOnce } from '../../../../src/jobs/sav-file-fetches.ts';
import { findSavById } from '../../../../src/projections/after-sales/queries.ts';
import { jpeg, mp4, png, startFileServer, text, type FileServer } from '../../../files/file-server.ts';
import { manualClock, type ManualClock } from '../../../jobs/lead-fixtures.ts';
import { dataUrl, fetchOptions, filesShown, intranetHost, namedUrl } from '../../../jobs/sav-file-fixtures.ts';
import { expectJson } from '../../chatbot/chatbot-api.ts';
import { complaint, seedSales, startSavApi, type SavApi } from './sav-api.ts';

const createPath = '/api/sale-sav/create-for-sale-product';
const mib = 1024 * 1024;

/** The bytes of a download, whatever its type. */
const bytesOf = (response: Response): Buffer => response.body as Buffer;

describe('POST /api/sale-sav/create-for-sale-product: "data.images: array of image data", "uploads videos and images when given"', () => {
  let files: FileServer;
  let otherLoopback: FileServer;
  let api: SavApi;
  let clock: ManualClock;
  let sofa: number;
  beforeAll(async () => {
    otherLoopback = await startFileServer();
    files = await startFileServer({ redirects: { '/to-loopback': otherLoopback.url('/photo.jpg') } });
  });
  afterAll(async () => {
    await files.close();
    await otherLoopback.close();
  });
  beforeEach(async () => {
    clock = manualClock('2026-10-05T08:00:00.000Z');
    api = await startSavApi({ clock });
    sofa = (await seedSales(api)).first.sofa;
    files.requested.length = 0;
    otherLoopback.requested.length = 0;
  });
  afterEach(async () => api.close());

  const create = (media: Record<string, unknown>) => api.post(createPath, { saleProductId: sofa, data: complaint(media) });
  const runJob = () => runSavFileFetchesOnce(api.runtime, fetchOptions(files));
  const filesOf = async (savId: number) => (await findSavById(api.runtime.readStore, savId))?.files ?? [];
  const typesOf = async (savId: number) => (await api.runtime.eventStore.readStream(savStreamName(savId))).map((event) => event.type);
  const folder = (savId: number) => path.join(api.dataDir, 'sav-files', String(savId));
  const onDisk = async (savId: number) => (existsSync(folder(savId)) ? (await readdir(folder(savId))).sort() : []);
  const download = (url: string) =>
    api.request
      .get(new URL(url).pathname)
      .set('Authorization', `Bearer ${api.token}`)
      .buffer(true)
      .parse((response, done) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => done(null, Buffer.concat(chunks)));
      });

  describe('files sent as base64 data URLs', () => {
    it('when an image and a video are sent as data URLs, they are stored before the answer, which links to them, and they download as sent', async () => {
      const response = await create({ images: [dataUrl('image/jpeg', jpeg)], videos: [dataUrl('video/mp4', mp4)] });

      expect(response.status).toBe(201);
      const savId: number = response.body.sav_id;
      const [image, video] = await filesOf(savId);
      expect(filesShown(response.body.files)).toEqual([
        {
          name: 'image-1.jpg',
          kind: 'image',
          state: 'stored',
          content_type: 'image/jpeg',
          size: jpeg.length,
          attempts: 0,
          last_error: null,
          download_url: `http://localhost:3000/api/sale-sav/${savId}/files/${image?.fileId}`,
        },
        {
          name: 'video-1.mp4',
          kind: 'video',
          state: 'stored',
          content_type: 'video/mp4',
          size: mp4.length,
          attempts: 0,
          last_error: null,
          download_url: `http://localhost:3000/api/sale-sav/${savId}/files/${video?.fileId}`,
        },
      ]);
      expect(await onDisk(savId)).toEqual(['image-1.jpg', 'video-1.mp4']);
      expect(image).toMatchObject({ sourceUrl: null, storedPath: `sav-files/${savId}/image-1.jpg`, state: 'stored' });

      const got = await download(response.body.files[0].download_url);
      expect(got.status).toBe(200);
      expect(bytesOf(got)).toEqual(jpeg);
      expect(got.headers).toMatchObject({
        'content-type': 'image/jpeg',
        'content-length': String(jpeg.length),
        'content-disposition': 'inline; filename="image-1.jpg"',
        'cache-control': 'private, no-store',
        'x-content-type-options': 'nosniff',
        'content-security-policy': "default-src 'none'; sandbox",
      });
      expect(bytesOf(await download(response.body.files[1].download_url))).toEqual(mp4);
      expect(files.requested).toEqual([]);
    });

    it('when a data URL carries a file over 1 MiB, the route takes it (16 MiB bodies there), where other routes keep 1 MiB', async () => {
      const big = Buffer.concat([jpeg, Buffer.alloc(3 * mib)]);

      const response = await create({ images: [dataUrl('image/jpeg', big)] });

      expect(response.status).toBe(201);
      expect(response.body.files[0]).toMatchObject({ state: 'stored', size: big.length });
      const elsewhere = await api.post('/api/contact-lead', { name: 'Élodie', email: 'elodie@example.fr', project_name: 'x'.repeat(2 * mib) });
      expect(elsewhere.status).toBe(413);
    });

    describe('when a data URL cannot be taken, it answers 400 naming the field, records nothing and keeps nothing', () => {
      const types = 'image/jpeg, image/png, image/webp, image/gif, image/heic, image/heif, image/avif';
      it.each([
        [
          'larger than 10 MiB once decoded',
          () => ({ images: [dataUrl('image/jpeg', Buffer.concat([jpeg, Buffer.alloc(10 * mib)]))] }),
          'data.images.0: is larger than 10 MiB once decoded; give a larger file by its URL',
        ],
        [
          'declared as an SVG image',
          () => ({ images: [dataUrl('image/svg+xml', text)] }),
          `data.images.0: is a data URL of image/svg+xml; an image must be ${types}`,
        ],
        ['a PNG declared as a JPEG', () => ({ images: [dataUrl('image/jpeg', png)] }), 'data.images.0: is declared image/jpeg but its content is image/png'],
        [
          'text declared as an MP4 video',
          () => ({ videos: [dataUrl('video/mp4', text)] }),
          'data.videos.0: is declared video/mp4 but its content is not an accepted image or video',
        ],
        [
          'an image among the videos',
          () => ({ videos: [dataUrl('image/jpeg', jpeg)] }),
          'data.videos.0: is a data URL of image/jpeg; a video must be video/mp4, video/quicktime, video/webm',
        ],
        [
          'not base64',
          () => ({ images: [`data:image/jpeg,${encodeURIComponent('not base64')}`] }),
          'data.images.0: must be a base64 data URL (data:<type>;base64,<data>)',
        ],
        ['empty', () => ({ images: ['data:image/png;base64,'] }), 'data.images.0: is an empty data URL'],
        [
          'the second of two, after a good one',
          () => ({ images: [dataUrl('image/jpeg', jpeg), dataUrl('image/png', jpeg)] }),
          'data.images.1: is declared image/png but its content is image/jpeg',
        ],
      ])('%s', async (_case, media, message) => {
        const head = await api.runtime.eventStore.headPosition();

        const response = await create(media());

        expectJson(response, 400, { success: false, error: 'invalid_request', message });
        expect(await api.runtime.eventStore.headPosition()).toBe(head);
        expect(existsSync(path.join(api.dataDir, 'sav-files'))).toBe(false);
      });
    });

    it('when the body exceeds 16 MiB, it answers 413 saying so, in the core envelope', async () => {
      const response = await create({ images: [`data:image/jpeg;base64,${'A'.repeat(16 * mib)}`] });

      expectJson(response, 413, { success: false, error: 'Payload Too Large', message: 'The request body exceeds 16 MiB' });
    });
  });

  describe('files given by URL, fetched by the job', () => {
    it('when images and videos are given by URL, the answer shows them pending; a run of the job stores them and the SAV then links to them', async () => {
      const response = await create({ images: [namedUrl(files, '/photo.jpg'), namedUrl(files, '/image.png')], videos: [namedUrl(files, '/clip.mp4')] });
      const savId: number = response.body.sav_id;
      const pending = { state: 'pending', content_type: null, size: null, attempts: 0, last_error: null, download_url: null };
      expect(filesShown(response.body.files)).toEqual([
        { name: 'photo.jpg', kind: 'image', ...pending },
        { name: 'image.png', kind: 'image', ...pending },
        { name: 'clip.mp4', kind: 'video', ...pending },
      ]);
      expect(files.requested).toEqual([]);

      const run = await runJob();

      expect(run).toMatchObject({ status: 'completed', failed: [], skipped: [] });
      expect(files.requested.sort()).toEqual(['/clip.mp4', '/image.png', '/photo.jpg']);
      const stored = await filesOf(savId);
      expect(
        stored.map(({ state, storedPath, contentType, size, attempts, nextAttemptAt }) => ({ state, storedPath, contentType, size, attempts, nextAttemptAt })),
      ).toEqual([
        { state: 'stored', storedPath: `sav-files/${savId}/photo.jpg`, contentType: 'image/jpeg', size: jpeg.length, attempts: 1, nextAttemptAt: null },
        { state: 'stored', storedPath: `sav-files/${savId}/image.png`, contentType: 'image/png', size: png.length, attempts: 1, nextAttemptAt: null },
        { state: 'stored', storedPath: `sav-files/${savId}/clip.mp4`, contentType: 'video/mp4', size: mp4.length, attempts: 1, nextAttemptAt: null },
      ]);
      expect(await typesOf(savId)).toEqual([
        'SavCreated',
        'SavFileAttached',
        'SavFileAttached',
        'SavFileAttached',
        'SavFileFetched',
        'SavFileFetched',
        'SavFileFetched',
      ]);
      const photo = await download(`http://localhost:3000/api/sale-sav/${savId}/files/${stored[0]?.fileId}`);
      expect(photo.status).toBe(200);
      expect(bytesOf(photo)).toEqual(jpeg);

      // Nothing is owed any more: the next run fetches nothing.
      files.requested.length = 0;
      expect(await runJob()).toEqual({ status: 'completed', stored: [], failed: [], skipped: [] });
      expect(files.requested).toEqual([]);
    });

    it(`when the URL answers 404, each run after the back-off tries again, and after ${maxSavFileFetchAttempts} attempts the file is given up`, async () => {
      const savId: number = (await create({ images: [namedUrl(files, '/missing.jpg')] })).body.sav_id;

      for (let attempt = 1; attempt <= maxSavFileFetchAttempts; attempt++) {
        expect((await runJob()).status).toBe('completed');
        // Not due again before its back-off: a run in between fetches nothing.
        expect(await runJob()).toEqual({ status: 'completed', stored: [], failed: [], skipped: [] });
        clock.advance(nextFetchDelay(attempt));
      }

      expect(files.requested).toEqual(Array.from({ length: maxSavFileFetchAttempts }, () => '/missing.jpg'));
      const [file] = await filesOf(savId);
      expect(file).toMatchObject({
        state: 'failed',
        attempts: maxSavFileFetchAttempts,
        lastError: 'the file host answered HTTP 404',
        nextAttemptAt: null,
        storedPath: null,
      });
      const failures = (await api.runtime.eventStore.readStream(savStreamName(savId))).filter((event) => event.type === 'SavFileFetchFailed');
      expect(failures.map((event) => (event.data as { nextAttemptAt: string | null }).nextAttemptAt === null)).toEqual([
        ...Array(maxSavFileFetchAttempts - 1).fill(false),
        true,
      ]);
      expect(failures[0]?.data).toMatchObject({ attempt: 1, reason: 'remote_failed', nextAttemptAt: '2026-10-05T08:01:00.000Z' });
      expect(await runJob()).toEqual({ status: 'completed', stored: [], failed: [], skipped: [] });
      expect(await onDisk(savId)).toEqual([]);
    });

    it('when the host does not exist, the attempt is recorded and retried later; once the file can be had, it is stored', async () => {
      const savId: number = (await create({ images: ['http://no-such-host.example.test/photo.jpg', namedUrl(files, '/photo.jpg')] })).body.sav_id;

      const first = await runJob();

      const [lost, found] = await filesOf(savId);
      expect(first).toMatchObject({ stored: [found?.fileId], failed: [lost?.fileId] });
      expect(lost).toMatchObject({ state: 'pending', attempts: 1, lastError: 'the file URL is not allowed', nextAttemptAt: '2026-10-05T08:01:00.000Z' });
    });

    it('when a file host is slow past the time limit, the attempt fails as a time-out and is retried', async () => {
      const savId: number = (await create({ images: [namedUrl(files, '/stalled.jpg')] })).body.sav_id;

      await runSavFileFetchesOnce(api.runtime, fetchOptions(files, { timeoutMs: 300 }));

      expect((await filesOf(savId))[0]).toMatchObject({ state: 'pending', attempts: 1, lastError: 'the file was not received within 0.3 s' });
    });

    describe('the address policy of uploads applies, and the answers never say why a URL is refused', () => {
      it.each([
        ['127.0.0.1', () => otherLoopback.url('/photo.jpg')],
        ['the metadata address', () => 'http://169.254.169.254/latest/meta-data/'],
        ['a decimal loopback address', () => 'http://2130706433/photo.jpg'],
        ['localhost', () => `http://localhost:${otherLoopback.port}/photo.jpg`],
        ['credentials', () => 'https://user:secret@cdn.example.org/photo.jpg'],
      ])('when an image URL names %s, it answers 400 at once and records nothing', async (_case, url) => {
        const head = await api.runtime.eventStore.headPosition();

        const response = await create({ images: [url()] });

        expectJson(response, 400, { success: false, error: 'invalid_request', message: 'data.images.0: the file URL is not allowed' });
        expect(await api.runtime.eventStore.headPosition()).toBe(head);
      });

      it.each([
        ['a host resolving to a private address', () => `http://${intranetHost}/photo.jpg`],
        ['a redirect to loopback', () => namedUrl(files, '/to-loopback')],
      ])('when the URL leads to %s, the job connects to no internal address and gives the file up at once, shown as not allowed', async (_case, url) => {
        const savId: number = (await create({ images: [url()] })).body.sav_id;

        await runJob();

        expect((await filesOf(savId))[0]).toMatchObject({ state: 'failed', attempts: 1, lastError: 'the file URL is not allowed', nextAttemptAt: null });
        expect(otherLoopback.requested).toEqual([]);
        clock.advance(24 * 3600_000);
        expect(await runJob()).toMatchObject({ failed: [], stored: [] });
      });
    });

    it.each([
      ['is larger than the fetch limit', '/big.jpg', 'the file is larger than 1 MiB'],
      [
        'is not an image or a video',
        '/fake.jpg',
        'the file is not an accepted image or video (JPEG, PNG, GIF, WebP, HEIC/HEIF, AVIF, MP4, MOV, 3GP, WebM, MKV or AVI)',
      ],
    ])('when the file %s, it is given up at once: no retry would change it', async (_case, served, message) => {
      const savId: number = (await create({ images: [namedUrl(files, served)] })).body.sav_id;

      await runJob();

      expect((await filesOf(savId))[0]).toMatchObject({ state: 'failed', attempts: 1, lastError: message });
      expect(await onDisk(savId)).toEqual([]);
    });

    it('when the read model lags and proposes a file its stream says is stored, the job checks the stream and fetches nothing', async () => {
      const savId: number = (await create({ images: [namedUrl(files, '/photo.jpg')] })).body.sav_id;
      const stale = await findSavById(api.runtime.readStore, savId);
      await runJob();
      files.requested.length = 0;
      const lagging = { ...api.runtime, readStore: { ...api.runtime.readStore, collection: () => ({ find: () => ({ toArray: async () => [stale] }) }) } };

      const run = await runSavFileFetchesOnce(lagging as unknown as typeof api.runtime, fetchOptions(files));

      expect(run).toEqual({ status: 'completed', stored: [], failed: [], skipped: [stale?.files[0]?.fileId] });
      expect(files.requested).toEqual([]);
      expect((await typesOf(savId)).filter((type) => type === 'SavFileFetched')).toHaveLength(1);
    });

    it('when a run is going, another started on the same runtime answers busy and fetches nothing', async () => {
      await create({ images: [namedUrl(files, '/photo.jpg')] });

      const [first, second] = await Promise.all([runJob(), runJob()]);

      expect([first.status, second.status].sort()).toEqual(['busy', 'completed']);
      expect(files.requested).toEqual(['/photo.jpg']);
    });
  });

  describe('GET /api/sale-sav/{savId}/files/{fileId}', () => {
    it('when the file is still pending, or the path names no file, it answers 404 saying which', async () => {
      const savId: number = (await create({ images: [namedUrl(files, '/photo.jpg')] })).body.sav_id;
      const [file] = await filesOf(savId);
      const get = (pathname: string) => api.get(pathname);

      expectJson(await get(`/api/sale-sav/${savId}/files/${file?.fileId}`), 404, {
        success: false,
        error: 'not_found',
        message: `File ${file?.fileId} of SAV ${savId} is not stored yet: its fetch is pending`,
      });
      const unknown = '00000000-0000-4000-8000-000000000000';
      expectJson(await get(`/api/sale-sav/${savId}/files/${unknown}`), 404, {
        success: false,
        error: 'not_found',
        message: `No file ${unknown} on SAV ${savId}`,
      });
      expectJson(await get('/api/sale-sav/abc/files/..%2F..%2Fevents.sqlite'), 404, {
        success: false,
        error: 'not_found',
        message: 'No file ../../events.sqlite on SAV abc',
      });
    });

    it('when the stored file was removed from the disk behind the service, it answers 500 without internals', async () => {
      const response = await create({ images: [dataUrl('image/jpeg', jpeg)] });
      await rm(path.join(folder(response.body.sav_id), 'image-1.jpg'));

      expectJson(await api.get(new URL(response.body.files[0].download_url).pathname), 500, {
        success: false,
        error: 'Internal Server Error',
        message: 'An unexpected error occurred',
      });
    });
  });
});
