import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { findSavById } from '../../../../src/projections/after-sales/queries.ts';
import { saleLogOfSav } from '../../../support/sale-log.ts';
import { jpeg, mp4, startFileServer, type FileServer } from '../../../files/file-server.ts';
import { expectJson } from '../../chatbot/chatbot-api.ts';
import { complaint, now, savRoutesWith, seedSales, startSavApi, type SavApi } from './sav-api.ts';

const uploadPath = '/api/sale-sav/upload-file';
const mib = 1024 * 1024;

describe('POST /api/sale-sav/upload-file', () => {
  let files: FileServer;
  let otherLoopback: FileServer;
  let api: SavApi;
  let routes: ReturnType<typeof savRoutesWith>;
  let savId: number;
  beforeAll(async () => {
    otherLoopback = await startFileServer();
    files = await startFileServer({
      redirects: { '/to-loopback': otherLoopback.url('/photo.jpg'), '/to-metadata': 'http://169.254.169.254/latest/meta-data/' },
    });
  });
  afterAll(async () => {
    await files.close();
    await otherLoopback.close();
  });
  beforeEach(async () => {
    api = await startSavApi();
    const sales = await seedSales(api);
    savId = (await api.post('/api/sale-sav/create-for-sale-product', { saleProductId: sales.first.sofa, data: complaint() })).body.sav_id;
    // Only this test app allows the loopback file host; the service's own app has no allowlist.
    routes = savRoutesWith(api, { upload: { allowHosts: [files.host], maxBytes: mib, timeoutMs: 1000 } });
    files.requested.length = 0;
    otherLoopback.requested.length = 0;
  });
  afterEach(async () => api.close());

  const upload = (overrides: Record<string, unknown> = {}) =>
    routes.post(uploadPath, { complaint_id: savId, prefix: 'photo', file_url: files.url('/photo.jpg'), file_name: 'Pied cassé.jpg', ...overrides });
  const folder = () => path.join(api.dataDir, 'sav-files', String(savId));
  const storedFiles = async () => (existsSync(folder()) ? readdir(folder()) : []);
  const attached = async () => (await findSavById(api.runtime.readStore, savId))?.files ?? [];

  it('when the URL serves a JPEG, it stores it under DATA_DIR and records it on the SAV, answering 201', async () => {
    const response = await upload();

    const [file] = await attached();
    expectJson(response, 201, {
      success: true,
      message: 'File uploaded',
      file: {
        id: file?.fileId,
        complaint_id: savId,
        category: 'photo',
        kind: 'image',
        name: 'Pied cassé.jpg',
        stored_name: 'Pied-casse.jpg',
        content_type: 'image/jpeg',
        size: jpeg.length,
      },
    });
    expect(await readFile(path.join(folder(), 'Pied-casse.jpg'))).toEqual(jpeg);
    expect(file).toEqual({
      fileId: expect.any(String),
      kind: 'image',
      category: 'photo',
      sourceUrl: files.url('/photo.jpg'),
      storedPath: `sav-files/${savId}/Pied-casse.jpg`,
      fileName: 'Pied cassé.jpg',
      contentType: 'image/jpeg',
      size: jpeg.length,
      attachedAt: now,
      state: 'stored',
      attempts: 0,
      lastError: null,
      nextAttemptAt: null,
    });
    const log = (await saleLogOfSav(api.runtime, savId)).filter((entry) => entry.type === 'SavFileAttached');
    expect(log.map((entry) => entry.summary.fr)).toEqual([`Image « Pied cassé.jpg » ajouté(e) au SAV ${savId}`]);
  });

  it('when the URL serves an MP4 under a name with a path, it is kept as a video, inside the SAV folder, with its own extension', async () => {
    const response = await upload({ prefix: 'video', file_url: files.url('/clip.mp4'), file_name: '../../../etc/passwd' });

    expect(response.status).toBe(201);
    expect(response.body.file).toMatchObject({ kind: 'video', name: 'passwd', stored_name: 'passwd.mp4', content_type: 'video/mp4' });
    expect(await readFile(path.join(folder(), 'passwd.mp4'))).toEqual(mp4);
  });

  it('when the same name is uploaded twice, both files are kept under distinct names', async () => {
    await upload({ file_url: files.url('/image.png'), file_name: 'photo.png' });
    const second = await upload({ file_url: files.url('/image.png'), file_name: 'photo.png' });

    expect(second.body.file.stored_name).toBe('photo-2.png');
    expect((await storedFiles()).sort()).toEqual(['photo-2.png', 'photo.png']);
    expect(await attached()).toHaveLength(2);
  });

  it('when the SAV does not exist, it answers 404 without fetching anything', async () => {
    const response = await upload({ complaint_id: 999_999 });

    expectJson(response, 404, { success: false, error: 'not_found', message: 'No SAV with ID 999999' });
    expect(files.requested).toEqual([]);
  });

  it("when called through the service's own app, the loopback file host is refused like any internal address", async () => {
    const response = await api.post(uploadPath, { complaint_id: savId, prefix: 'photo', file_url: files.url('/photo.jpg'), file_name: 'photo.jpg' });

    expectJson(response, 400, { success: false, error: 'invalid_request', message: 'file_url: the file URL is not allowed' });
    expect(files.requested).toEqual([]);
  });

  describe('when the URL leads inside the network, it answers 400 without saying why (the log has it), fetches nothing and records nothing', () => {
    it.each([
      ['127.0.0.1 on a port not allowed', () => otherLoopback.url('/photo.jpg')],
      ['10.0.0.1', () => 'http://10.0.0.1/photo.jpg'],
      ['169.254.169.254', () => 'http://169.254.169.254/latest/meta-data/'],
      ['[::1]', () => `http://[::1]:${otherLoopback.port}/photo.jpg`],
      ['[::ffff:0:7f00:1], IPv4-translated loopback', () => `http://[::ffff:0:7f00:1]:${otherLoopback.port}/photo.jpg`],
      ['[::ffff:0:a00:1], IPv4-translated 10.0.0.1', () => 'http://[::ffff:0:a00:1]/photo.jpg'],
      ['[::ffff:7f00:1], IPv4-mapped loopback', () => `http://[::ffff:7f00:1]:${otherLoopback.port}/photo.jpg`],
      ['[::7f00:1], IPv4-compatible loopback', () => `http://[::7f00:1]:${otherLoopback.port}/photo.jpg`],
      ['localhost', () => `http://localhost:${otherLoopback.port}/photo.jpg`],
      ['a redirect to loopback', () => files.url('/to-loopback')],
      ['a redirect to the metadata address', () => files.url('/to-metadata')],
    ])('%s', async (_case, url) => {
      const head = await api.runtime.eventStore.headPosition();

      const response = await upload({ file_url: url() });

      expectJson(response, 400, { success: false, error: 'invalid_request', message: 'file_url: the file URL is not allowed' });
      expect(otherLoopback.requested).toEqual([]);
      expect(await api.runtime.eventStore.headPosition()).toBe(head);
      expect(await storedFiles()).toEqual([]);
    });
  });

  it('when the URL is file:///etc/passwd, it answers 400 naming file_url', async () => {
    const response = await upload({ file_url: 'file:///etc/passwd' });

    expectJson(response, 400, { success: false, error: 'invalid_request', message: 'file_url: must be an http(s) URL of at most 2048 characters' });
  });

  it.each([
    ['announces more than the cap', '/big.jpg'],
    ['streams more than the cap with no length', '/big-chunked.jpg'],
  ])('when the file %s, it answers 413 and keeps nothing', async (_case, served) => {
    const response = await upload({ file_url: files.url(served) });

    expectJson(response, 413, { success: false, error: 'file_too_large', message: 'file_url: the file is larger than 1 MiB' });
    expect(await storedFiles()).toEqual([]);
    expect(await attached()).toEqual([]);
  });

  it.each([
    ['a text file', '/notes.txt'],
    ['a text file announced as image/jpeg', '/fake.jpg'],
  ])('when the URL serves %s, it answers 415 and keeps nothing', async (_case, served) => {
    const response = await upload({ file_url: files.url(served) });

    expect(response.status).toBe(415);
    expect(response.body).toEqual({
      success: false,
      error: 'unsupported_media_type',
      message: 'file_url: the file is not an accepted image or video (JPEG, PNG, GIF, WebP, HEIC/HEIF, AVIF, MP4, MOV, 3GP, WebM, MKV or AVI)',
    });
    expect(await storedFiles()).toEqual([]);
    expect(await attached()).toEqual([]);
  });

  it('when the file host answers an error, it answers 502; when it stalls, 504', async () => {
    expectJson(await upload({ file_url: files.url('/missing.jpg') }), 502, {
      success: false,
      error: 'remote_failure',
      message: 'file_url: the file host answered HTTP 404',
    });
    expectJson(await upload({ file_url: files.url('/stalled.jpg') }), 504, {
      success: false,
      error: 'remote_timeout',
      message: 'file_url: the file was not received within 1 s',
    });
    expect(await storedFiles()).toEqual([]);
  });

  it.each([
    ['complaint_id', 'complaint_id: is required'],
    ['prefix', 'prefix: is required'],
    ['file_url', 'file_url: is required'],
    ['file_name', 'file_name: is required'],
  ])('when %s is missing, it answers 400 naming it', async (field, message) => {
    const response = await upload({ [field]: undefined });

    expectJson(response, 400, { success: false, error: 'invalid_request', message });
    expect(files.requested).toEqual([]);
  });
});
