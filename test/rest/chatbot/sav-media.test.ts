import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runSavFileFetchesOnce } from '../../../src/jobs/sav-file-fetches.ts';
import { findSavById } from '../../../src/projections/after-sales/queries.ts';
import { jpeg, mp4, startFileServer, text, type FileServer } from '../../files/file-server.ts';
import { dataUrl, fetchOptions, filesShown, namedUrl } from '../../jobs/sav-file-fixtures.ts';
import { expectDocumented, type Json } from '../openapi/documented-schema.ts';
import { expectJson, importOrder, savRequest, seedCatalog, startChatbotApi, type ChatbotApi } from './chatbot-api.ts';

const mib = 1024 * 1024;
const photoTypes = 'image/jpeg, image/png, image/webp, image/gif, image/heic, image/heif, image/avif';

describe("POST /api/sav: the customer's photos and videos, as URLs or data URLs", () => {
  let files: FileServer;
  let api: ChatbotApi;
  beforeAll(async () => {
    files = await startFileServer();
  });
  afterAll(async () => files.close());
  beforeEach(async () => {
    api = await startChatbotApi();
    await seedCatalog(api);
    await importOrder(api);
    files.requested.length = 0;
  });
  afterEach(async () => api.close());

  const open = (media: Record<string, unknown>) => api.post('/api/sav', savRequest(media));
  const download = (url: string) =>
    api.request
      .get(new URL(url).pathname)
      .set('X-API-Token', api.token)
      .buffer(true)
      .parse((response, done) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => done(null, Buffer.concat(chunks)));
      });

  it('when a photo comes as a data URL, it is stored with the SAV; the answer and sav-status link to it, and the chatbot token downloads it', async () => {
    const response = await open({ photos: [dataUrl('image/jpeg', jpeg)] });

    expect(response.status).toBe(200);
    const savId: number = response.body.sav_id;
    const [photo] = (await findSavById(api.runtime.readStore, savId))?.files ?? [];
    const downloadUrl = `http://localhost:3000/api/sav/${savId}/files/${photo?.fileId}`;
    const shown = {
      name: 'photo-1.jpg',
      kind: 'image',
      state: 'stored',
      content_type: 'image/jpeg',
      size: jpeg.length,
      attempts: 0,
      last_error: null,
      download_url: downloadUrl,
    };
    expect(filesShown(response.body.files)).toEqual([shown]);
    const status = await api.get('/api/customer/sav-status?increment_id=100004512');
    expect(filesShown(status.body.sav_records[0].files)).toEqual([shown]);

    const got = await download(downloadUrl);
    expect(got.status).toBe(200);
    expect(got.headers['content-type']).toBe('image/jpeg');
    expect(got.body).toEqual(jpeg);
    const withCoreToken = await api.request.get(new URL(downloadUrl).pathname).set('Authorization', `Bearer ${await api.tokenFor('core')}`);
    // A Bearer header on the chatbot's files: refused, and told which header the chatbot API reads.
    expectJson(withCoreToken, 401, {
      success: false,
      error: 'Non autorisé',
      message: "Token d'API manquant ou invalide",
      hint: "L'API du chatbot attend le token dans l'en-tête X-API-Token (X-API-Token: <token>), et non dans Authorization: Bearer",
    });
  });

  it('when photos and a video are given by URL, they are pending; once the job has run, sav-status and the order show them stored', async () => {
    const response = await open({ photos: [namedUrl(files, '/photo.jpg')], videos: [namedUrl(files, '/clip.mp4')] });
    expect(response.body.files.map((file: { state: string }) => file.state)).toEqual(['pending', 'pending']);

    await runSavFileFetchesOnce(api.runtime, fetchOptions(files));

    const [record] = (await api.get('/api/customer/sav-status?increment_id=100004512')).body.sav_records;
    expect(record.files.map(({ name, state, size }: Record<string, unknown>) => ({ name, state, size }))).toEqual([
      { name: 'photo.jpg', state: 'stored', size: jpeg.length },
      { name: 'clip.mp4', state: 'stored', size: mp4.length },
    ]);
    expect((await api.get('/api/sale/details/100004512')).body.data.sav_history[0].files).toEqual(record.files);
    expect((await download(record.files[1].download_url)).body).toEqual(mp4);
  });

  it('when a photo cannot be had yet, its download answers 404 in French saying so', async () => {
    const savId: number = (await open({ photos: [namedUrl(files, '/photo.jpg')] })).body.sav_id;
    const [photo] = (await findSavById(api.runtime.readStore, savId))?.files ?? [];

    expectJson(await api.get(`/api/sav/${savId}/files/${photo?.fileId}`), 404, {
      success: false,
      error: 'Fichier non trouvé',
      message: `Le fichier ${photo?.fileId} du SAV ${savId} n'est pas encore enregistré : il reste à récupérer`,
    });
  });

  describe('when a photo or a video cannot be taken, it answers 400 in French naming the field, and records nothing', () => {
    it.each([
      [
        'a photo over 10 MiB',
        () => ({ photos: [dataUrl('image/jpeg', Buffer.concat([jpeg, Buffer.alloc(10 * mib)]))] }),
        'Le champ photos.0 dépasse 10 Mio une fois décodé ; envoyez un fichier plus lourd par son URL',
      ],
      [
        'a text sent as a photo',
        () => ({ photos: [dataUrl('image/png', text)] }),
        "Le champ photos.0 est annoncé comme image/png mais son contenu est autre chose qu'une image ou une vidéo acceptée",
      ],
      [
        'a PDF photo',
        () => ({ photos: [dataUrl('application/pdf', text)] }),
        `Le champ photos.0 est une data URL de type application/pdf ; une photo doit être de type ${photoTypes}`,
      ],
      [
        'a video that is a JPEG',
        () => ({ videos: [dataUrl('video/mp4', jpeg)] }),
        'Le champ videos.0 est annoncé comme video/mp4 mais son contenu est image/jpeg',
      ],
      [
        "a photo on the service's own host",
        () => ({ photos: ['http://127.0.0.1:3000/api/files/x.jpg'] }),
        "Le champ photos.0 n'est pas une URL de fichier autorisée",
      ],
      [
        'a photo URL with credentials',
        () => ({ photos: ['https://moi:secret@cdn.example.org/a.jpg'] }),
        "Le champ photos.0 n'est pas une URL de fichier autorisée",
      ],
    ])('%s', async (_case, media, message) => {
      const head = await api.runtime.eventStore.headPosition();

      const response = await open(media());

      expectJson(response, 400, { success: false, error: 'Paramètres invalides', message });
      expect(await api.runtime.eventStore.headPosition()).toBe(head);
    });
  });

  it('when the request exceeds 16 MiB, it answers 413 in French', async () => {
    const response = await open({ photos: [`data:image/jpeg;base64,${'A'.repeat(16 * mib)}`] });

    expectJson(response, 413, { success: false, error: 'Requête trop volumineuse', message: 'Le corps de la requête dépasse 16 Mio' });
  });

  it('when the answers carry files, they are as the OpenAPI document says', async () => {
    const document = (await api.request.get('/openapi.json')).body as Json;
    const opened = await open({ photos: [dataUrl('image/jpeg', jpeg), namedUrl(files, '/photo.jpg')] });
    expectDocumented(document, '/api/sav', 'post', opened);
    expectDocumented(document, '/api/customer/sav-status', 'get', await api.get('/api/customer/sav-status?increment_id=100004512'));
    const pending = opened.body.files[1];
    const notYet = await api.get(`/api/sav/${opened.body.sav_id}/files/${pending.id}`);
    expect(notYet.status).toBe(404);
    expectDocumented(document, '/api/sav/{savId}/files/{fileId}', 'get', notYet);
  });
});
