import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { savStreamName } from '../../../src/events/after-sales/events.ts';
import { findSavById } from '../../../src/projections/after-sales/queries.ts';
import { expectJson, importOrder, now, nowAnswered, order, savRequest, seedCatalog, startChatbotApi, type ChatbotApi } from './chatbot-api.ts';

const created = (savId: number, files: unknown[] = []) => ({ success: true, sav_id: savId, message: 'Votre demande SAV a bien été enregistrée', files });

describe('POST /api/sav', () => {
  let api: ChatbotApi;
  let sale: Awaited<ReturnType<typeof importOrder>>;
  beforeEach(async () => {
    api = await startChatbotApi();
    await seedCatalog(api);
    sale = await importOrder(api);
  });
  afterEach(async () => api.close());

  const recorded = async (savId: number) => (await api.runtime.eventStore.readStream(savStreamName(savId))).map(({ type, data }) => ({ type, data }));

  it('when the order, its customer e-mail in another case and a SKU of the order are given, it records a complaint SAV from the chatbot', async () => {
    const response = await api.post('/api/sav', savRequest({ email: 'CLAIRE.MARTIN@EXAMPLE.ORG' }));

    expect(Number.isInteger(response.body.sav_id)).toBe(true);
    expectJson(response, 200, created(response.body.sav_id));
    expect(await recorded(response.body.sav_id)).toEqual([
      {
        type: 'SavCreated',
        data: {
          savId: response.body.sav_id,
          saleId: sale.saleId,
          incrementId: '100004512',
          saleProductIds: [sale.sofa],
          products: [{ saleProductId: sale.sofa, sku: 'CAN-OSLO-3P-GRY', name: 'Canapé 3 places Oslo gris' }],
          complaint: 'Un pied du canapé est cassé à la livraison.',
          complaintName: 'Produit endommagé',
          savType: 'complaint',
          channel: 'chatbot',
          customerEmail: 'Claire.Martin@example.org',
          createdAt: now,
        },
      },
    ]);
  });

  it('when a request type, a sale product ID, photos and videos are given, the type is the SAV type and the media are attached as links, pending their fetch', async () => {
    const response = await api.post(
      '/api/sav',
      savRequest({
        product_sku: undefined,
        sale_product_id: sale.lamp,
        request_type: 'damaged_product',
        photos: ['https://cdn.example.org/sav/pied%20cass%C3%A9.jpg', 'https://cdn.example.org/'],
        videos: ['https://videos.example.org/clip.mp4'],
      }),
    );

    const sav = await findSavById(api.runtime.readStore, response.body.sav_id);
    expect(response.status).toBe(200);
    expect(response.body.files.map(({ id, name, state, download_url }: Record<string, unknown>) => ({ id, name, state, download_url }))).toEqual(
      (sav?.files ?? []).map(({ fileId, fileName }) => ({ id: fileId, name: fileName, state: 'pending', download_url: null })),
    );
    expect(sav?.savType).toBe('damaged_product');
    expect(sav?.saleProductIds).toEqual([sale.lamp]);
    expect(sav?.files.map(({ kind, category, sourceUrl, storedPath, fileName }) => ({ kind, category, sourceUrl, storedPath, fileName }))).toEqual([
      { kind: 'image', category: 'photo', sourceUrl: 'https://cdn.example.org/sav/pied%20cass%C3%A9.jpg', storedPath: null, fileName: 'pied cassé.jpg' },
      { kind: 'image', category: 'photo', sourceUrl: 'https://cdn.example.org/', storedPath: null, fileName: 'photo-2' },
      { kind: 'video', category: 'video', sourceUrl: 'https://videos.example.org/clip.mp4', storedPath: null, fileName: 'clip.mp4' },
    ]);
  });

  it('when the SAV is created, sav-status and the sale details show it at once', async () => {
    const response = await api.post('/api/sav', savRequest());
    const record = {
      id: response.body.sav_id,
      sale_ref: '100004512',
      status: 'in_progress',
      status_label: 'En cours de traitement',
      complaint_type: 'Produit endommagé',
      created_at: nowAnswered,
      status_changed_at: nowAnswered,
      resolution: null,
      products: [{ sku: 'CAN-OSLO-3P-GRY', name: 'Canapé 3 places Oslo gris' }],
      files: [],
    };

    const status = await api.get('/api/customer/sav-status?increment_id=100004512');
    const details = await api.get('/api/sale/details/100004512');

    expectJson(status, 200, { success: true, sav_records: [record] });
    expect(details.body.data.sav_status).toEqual({ has_sav: true, sav_count: 1, in_progress_count: 1 });
    expect(details.body.data.sav_history).toEqual([record]);
  });

  it('when the SKU is not on the order, it answers 404 "Produit non trouvé" and records nothing', async () => {
    const head = await api.runtime.eventStore.headPosition();

    const response = await api.post('/api/sav', savRequest({ product_sku: 'FRIGO-AMERICAIN-540' }));

    expectJson(response, 404, {
      success: false,
      error: 'Produit non trouvé',
      message: 'La commande 100004512 ne contient pas le produit FRIGO-AMERICAIN-540',
    });
    expect(await api.runtime.eventStore.headPosition()).toBe(head);
  });

  it('when the sale product ID belongs to another order, it answers 404 "Produit non trouvé" and records nothing', async () => {
    const other = await importOrder(api, order({ increment_id: '100004513' }));
    const head = await api.runtime.eventStore.headPosition();

    const response = await api.post('/api/sav', savRequest({ product_sku: undefined, sale_product_id: other.sofa }));

    expectJson(response, 404, {
      success: false,
      error: 'Produit non trouvé',
      message: `La commande 100004512 ne contient pas le produit de commande ${other.sofa}`,
    });
    expect(await api.runtime.eventStore.headPosition()).toBe(head);
  });

  it.each([
    ["the e-mail is not the order customer's", { email: 'someone.else@example.org' }],
    ['no order has the increment ID', { increment_id: '100000999' }],
    ["no order has the increment ID, and the e-mail is an existing order customer's", { increment_id: '100000999', email: 'claire.martin@example.org' }],
  ])('when %s, it answers the same 404 "Commande non trouvée" (which increment IDs exist cannot be told) and records nothing', async (_case, overrides) => {
    const head = await api.runtime.eventStore.headPosition();
    const incrementId = (overrides as { increment_id?: string }).increment_id ?? '100004512';

    const response = await api.post('/api/sav', savRequest(overrides));

    expectJson(response, 404, {
      success: false,
      error: 'Commande non trouvée',
      message: `Aucune commande trouvée avec l'increment_id ${incrementId} pour cet email`,
    });
    expect(await api.runtime.eventStore.headPosition()).toBe(head);
  });

  it('when the e-mail is wrong for an existing order and right for none, the answer is byte for byte the one for an unknown order of the same length', async () => {
    const wrongEmail = await api.post('/api/sav', savRequest({ email: 'someone.else@example.org' }));
    const unknownOrder = await api.post('/api/sav', savRequest({ increment_id: '100000999', email: 'someone.else@example.org' }));

    expect(wrongEmail.status).toBe(unknownOrder.status);
    expect(wrongEmail.text.replace('100004512', '<id>')).toBe(unknownOrder.text.replace('100000999', '<id>'));
    expect(wrongEmail.headers['content-type']).toBe(unknownOrder.headers['content-type']);
  });

  const invalid = (message: string) => ({ success: false, error: 'Paramètres invalides', message });

  it.each([
    [
      'both product_sku and sale_product_id are given',
      { sale_product_id: 1 },
      'Indiquez le produit concerné : product_sku ou sale_product_id (un seul des deux)',
    ],
    [
      'neither product_sku nor sale_product_id is given',
      { product_sku: undefined },
      'Indiquez le produit concerné : product_sku ou sale_product_id (un seul des deux)',
    ],
    ['the complaint is missing', { complaint: undefined }, 'Le champ complaint est requis'],
    ['the complaint is blank', { complaint: '   ' }, 'Le champ complaint doit être un texte de 1 à 10 000 caractères'],
    ['the e-mail is malformed', { email: 'claire.martin' }, 'Le champ email doit être une adresse e-mail valide'],
    ['the increment ID is a number', { increment_id: 100004512 }, 'Le champ increment_id doit être une suite de 1 à 20 chiffres'],
    [
      'the request type is unknown',
      { request_type: 'refund' },
      'Le champ request_type doit être complaint, damaged_product, missing_part, delivery_issue ou other',
    ],
    [
      'a photo is not an http(s) URL',
      { photos: ['ftp://cdn.example.org/a.jpg'] },
      "Le champ photos.0 doit être l'URL http(s) d'une photo (2048 caractères au plus) ou une photo en data URL base64 (image/jpeg, image/png, image/webp, image/gif, image/heic, image/heif, image/avif)",
    ],
    [
      'the sale product ID is not a positive integer',
      { product_sku: undefined, sale_product_id: -3 },
      'Le champ sale_product_id doit être un identifiant de produit de commande (entier positif)',
    ],
  ])('when %s, it answers 400 naming the field and records nothing', async (_case, overrides, message) => {
    const head = await api.runtime.eventStore.headPosition();

    const response = await api.post('/api/sav', savRequest(overrides));

    expectJson(response, 400, invalid(message));
    expect(await api.runtime.eventStore.headPosition()).toBe(head);
  });

  it('when the body is not a JSON object, it answers 400', async () => {
    const response = await api.post('/api/sav', [savRequest()]);

    expectJson(response, 400, invalid('Le corps de la requête doit être un objet JSON'));
  });
});
