import { unlink } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findSupplierLine } from '../../../src/projections/supplier-lines/queries.ts';
import { frozenClock, importLabelOrder, saleStreamLength, trackingEvents } from '../../labels/label-fixtures.ts';
import { pdfText, scanBarcode } from '../../labels/pdf-tools.ts';
import { startApi, type ApiHarness } from '../../support/api-harness.ts';
import { getFile, labelUrl } from './files-client.ts';

describe('GET /api/files/labels/<supplier>/<service_order_id>.pdf', () => {
  let api: ApiHarness;
  let supplierA: string;
  let supplierB: string;
  beforeAll(async () => {
    api = await startApi({ clock: frozenClock });
    supplierA = await api.tokenFor('supplier-a');
    supplierB = await api.tokenFor('supplier-b');
  });
  afterAll(async () => api.close());

  const get = (url: string, token: string) => getFile(api, url, token);

  /** The number each line of the order was imported with, in the order of the lines. */
  const importedNumbers = async (incrementId: string) => (await trackingEvents(api.runtime, incrementId)).map((event) => event.trackingNumber);

  it('when the owning supplier fetches a label, it gets the PDF of the line, whose barcode scans as the tracking number the line was created with', async () => {
    const { incrementId, supplierALine } = await importLabelOrder(api.runtime);
    const [trackingNumber] = await importedNumbers(incrementId);
    const recorded = await saleStreamLength(api.runtime, incrementId);

    const response = await get(labelUrl('supplier-a', supplierALine), supplierA);

    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe(`inline; filename="${supplierALine}.pdf"`);
    expect(response.headers['cache-control']).toBe('private, no-store');
    expect(Number(response.headers['content-length'])).toBe(response.body.length);
    // Rendering a label records nothing: the number was recorded with the line.
    expect(await saleStreamLength(api.runtime, incrementId)).toBe(recorded);
    const line = await findSupplierLine(api.runtime.readStore, supplierALine);
    expect(line).toMatchObject({ trackingNumber, labelPath: `labels/supplier-a/${supplierALine}.pdf` });

    const text = await pdfText(response.body);
    for (const expected of [
      supplierALine,
      'CAN-OSLO-3P-GRY',
      'Quantité : 2',
      'Geodis',
      'Élodie Durand',
      'Besançon',
      'Maison & Confort — Entrepôt central',
      trackingNumber!,
    ]) {
      expect(text).toContain(expected);
    }
    expect(await scanBarcode(response.body)).toBe(trackingNumber);
  });

  it("when supplier-b fetches its line of the same order, it gets its own label with the line's carrier and quantity", async () => {
    const { incrementId, supplierBLine } = await importLabelOrder(api.runtime);

    const response = await get(labelUrl('supplier-b', supplierBLine), supplierB);

    expect(response.status).toBe(200);
    const [, trackingNumber] = await importedNumbers(incrementId);
    const text = await pdfText(response.body);
    for (const expected of [supplierBLine, 'TAB-NORD-180', 'Quantité : 1', 'DB Schenker', 'Élodie Durand', 'Besançon', trackingNumber!]) {
      expect(text).toContain(expected);
    }
    expect(await scanBarcode(response.body)).toBe(trackingNumber);
  });

  it('when a label is fetched twice, both answers are the same label', async () => {
    const { supplierALine } = await importLabelOrder(api.runtime);

    const first = await get(labelUrl('supplier-a', supplierALine), supplierA);
    const second = await get(labelUrl('supplier-a', supplierALine), supplierA);

    expect([first.status, second.status]).toEqual([200, 200]);
    expect(Buffer.compare(first.body, second.body)).toBe(0);
  });

  it('when ten first fetches of a label arrive at once, every answer is the same label with the line number', async () => {
    const { incrementId, supplierBLine } = await importLabelOrder(api.runtime);

    const responses = await Promise.all(Array.from({ length: 10 }, () => get(labelUrl('supplier-b', supplierBLine), supplierB)));

    expect(responses.map((response) => response.status)).toEqual(Array(10).fill(200));
    for (const response of responses.slice(1)) expect(Buffer.compare(response.body, responses[0]!.body)).toBe(0);
    expect(await scanBarcode(responses[0]!.body)).toBe((await importedNumbers(incrementId))[1]);
  });

  it('when the label file was deleted, it is rendered again with the same tracking number', async () => {
    const { incrementId, supplierALine } = await importLabelOrder(api.runtime);
    await get(labelUrl('supplier-a', supplierALine), supplierA);
    await unlink(path.join(api.dataDir, 'files', 'labels', 'supplier-a', `${supplierALine}.pdf`));

    const response = await get(labelUrl('supplier-a', supplierALine), supplierA);

    expect(response.status).toBe(200);
    expect(await scanBarcode(response.body)).toBe((await importedNumbers(incrementId))[0]);
  });
});
