import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Response } from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { savStreamName } from '../../../src/events/after-sales/events.ts';
import { jpeg, mp4, png, text } from '../../files/file-server.ts';
import { complaint, seedSales, startSavApi, type SavApi } from '../core/sav/sav-api.ts';

/**
 * A SAV's photos and videos sent as the request body itself, streamed to disk as they arrive rather
 * than held in memory as data URLs of a JSON document: the way for large files, for the core API and
 * the chatbot alike. The content decides what a file is; a refused upload records nothing and leaves
 * nothing on disk.
 */

const mib = 1024 * 1024;

/** The bytes of a download, whatever its type. */
const bytesOf = (response: Response): Buffer => response.body as Buffer;

describe('POST /api/sale-sav/{id}/files and POST /api/sav/{savId}/files: a SAV file as the body', () => {
  let api: SavApi;
  let chatbot: string;
  let savId: number;

  beforeAll(async () => {
    api = await startSavApi();
    chatbot = await api.tokenFor('chatbot');
    const { first } = await seedSales(api);
    const created = await api.post('/api/sale-sav/create-for-sale-product', { saleProductId: first.sofa, data: complaint() });
    savId = created.body.sav_id as number;
  });
  afterAll(async () => api.close());

  const upload = (target: string, body: Buffer, type: string, headers: Record<string, string> = { Authorization: `Bearer ${api.token}` }) =>
    api.request
      .post(target)
      .set(headers)
      .set('Content-Type', type)
      .send(body as unknown as string);
  const eventsOf = async () => (await api.runtime.eventStore.readStream(savStreamName(savId))).length;
  const uploadsLeft = async () => {
    const folder = path.join(api.dataDir, 'sav-files', '.uploads');
    return existsSync(folder) ? (await readdir(folder)).length : 0;
  };
  const download = (url: string, headers: Record<string, string>) =>
    api.request
      .get(new URL(url).pathname)
      .set(headers)
      .buffer(true)
      .parse((response, done) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => done(null, Buffer.concat(chunks)));
      });

  it('when staff send a JPEG photo, it is stored and recorded on the SAV (201), and downloads byte for byte', async () => {
    const response = await upload(`/api/sale-sav/${savId}/files?category=damage&file_name=pied%20cass%C3%A9.jpg`, jpeg, 'image/jpeg');

    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      success: true,
      file: { kind: 'image', category: 'damage', name: 'pied cassé.jpg', state: 'stored', content_type: 'image/jpeg', size: jpeg.length, attempts: 0 },
    });
    const got = await download(response.body.file.download_url as string, { Authorization: `Bearer ${api.token}` });
    expect([got.status, bytesOf(got).equals(jpeg)]).toEqual([200, true]);
    expect(await uploadsLeft()).toBe(0);
  });

  it('when the chatbot sends a video, it is stored under the chatbot path, its kind read from its content', async () => {
    const response = await upload(`/api/sav/${savId}/files`, mp4, 'application/octet-stream', { 'X-API-Token': chatbot });

    expect(response.status).toBe(201);
    expect(response.body.file).toMatchObject({ kind: 'video', category: 'video', content_type: 'video/mp4', size: mp4.length });
    expect(response.body.file.download_url).toMatch(new RegExp(`/api/sav/${savId}/files/`));
    const got = await download(response.body.file.download_url as string, { 'X-API-Token': chatbot });
    expect(bytesOf(got).equals(mp4)).toBe(true);
  });

  it('when a file of 20 MiB is sent (over the 16 MiB of a JSON body), it is stored whole', async () => {
    const large = Buffer.concat([png, Buffer.alloc(20 * mib)]);

    const response = await upload(`/api/sale-sav/${savId}/files`, large, 'image/png');

    expect([response.status, response.body.file?.size]).toEqual([201, large.length]);
  });

  it.each([
    [
      'is a text file declared as an image',
      text,
      'image/jpeg',
      415,
      'the file is not an accepted image or video (JPEG, PNG, GIF, WebP, HEIC/HEIF, AVIF, MP4, MOV, 3GP, WebM, MKV or AVI)',
    ],
    ['is a video declared as an image', mp4, 'image/jpeg', 415, 'the file was declared image/jpeg but is video/mp4'],
    [
      'is sent as JSON',
      Buffer.from('{"photo":"x"}'),
      'application/json',
      415,
      'The request body must be the file itself, declared as image/*, video/* or application/octet-stream, uncompressed',
    ],
  ])('when the body %s, it answers %i and records nothing', async (_case, body, type, status, message) => {
    const before = await eventsOf();

    const response = await upload(`/api/sale-sav/${savId}/files`, body, type);

    expect([response.status, response.body.message]).toEqual([status, message]);
    expect(await eventsOf()).toBe(before);
    expect(await uploadsLeft()).toBe(0);
  });

  it('when the file is over 50 MiB, it answers 413 and keeps nothing of it', async () => {
    const before = await eventsOf();

    const response = await upload(`/api/sale-sav/${savId}/files`, Buffer.concat([jpeg, Buffer.alloc(50 * mib)]), 'image/jpeg');

    expect([response.status, response.body]).toEqual([413, { success: false, error: 'Payload Too Large', message: 'The request body exceeds 50 MiB' }]);
    expect(await eventsOf()).toBe(before);
    expect(await uploadsLeft()).toBe(0);
  });

  it('when the SAV does not exist, the chatbot is told in French and nothing is kept', async () => {
    const response = await upload('/api/sav/999999/files', jpeg, 'image/jpeg', { 'X-API-Token': chatbot });

    expect([response.status, response.body]).toEqual([404, { success: false, error: 'SAV non trouvé', message: "Aucun SAV avec l'identifiant 999999" }]);
    expect(existsSync(path.join(api.dataDir, 'sav-files', '999999'))).toBe(false);
  });

  it('when no token comes with it, it answers 401 before reading the file', async () => {
    const response = await upload(`/api/sale-sav/${savId}/files`, jpeg, 'image/jpeg', {});

    expect(response.status).toBe(401);
    expect(await uploadsLeft()).toBe(0);
  });
});
