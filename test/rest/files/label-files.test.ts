import { unlink } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findSupplierLine } from '../../../src/projections/supplier-lines/queries.ts';
import { frozenClock, importLabelOrder, labelEvents } from '../../labels/label-fixtures.ts';
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

  it('when the owning supplier fetches a label, it gets the PDF of the line, whose barcode scans as the recorded tracking number', async () => {
    const { incrementId, supplierALine } = await importLabelOrder(api.runtime);

    const response = await get(labelUrl('supplier-a', supplierALine), supplierA);

    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe(`inline; filename="${supplierALine}.pdf"`);
    expect(response.headers['cache-control']).toBe('private, no-store');
    expect(Number(response.headers['content-length'])).toBe(response.body.length);
    const [recorded, ...others] = await labelEvents(api.runtime, incrementId);
    expect(others).toEqual([]);
    expect(recorded).toMatchObject({ supplier: 'supplier-a', carrier: 'Geodis', labelPath: `labels/supplier-a/${supplierALine}.pdf` });
    const line = await findSupplierLine(api.runtime.readStore, supplierALine);
    expect(line?.trackingNumber).toBe(recorded!.trackingNumber);

    const text = await pdfText(response.body);
    for (const expected of [
      supplierALine,
      'CAN-OSLO-3P-GRY',
      'Quantité : 2',
      'Geodis',
      'Élodie Durand',
      'Besançon',
      'Maison & Confort — Entrepôt central',
      recorded!.trackingNumber,
    ]) {
      expect(text).toContain(expected);
    }
    expect(await scanBarcode(response.body)).toBe(recorded!.trackingNumber);
  });

  it("when supplier-b fetches its line of the same order, it gets its own label with the line's carrier and quantity", async () => {
    const { incrementId, supplierBLine } = await importLabelOrder(api.runtime);

    const response = await get(labelUrl('supplier-b', supplierBLine), supplierB);

    expect(response.status).toBe(200);
    const [recorded] = await labelEvents(api.runtime, incrementId);
    const text = await pdfText(response.body);
    for (const expected of [supplierBLine, 'TAB-NORD-180', 'Quantité : 1', 'DB Schenker', 'Élodie Durand', 'Besançon']) {
      expect(text).toContain(expected);
    }
    expect(await scanBarcode(response.body)).toBe(recorded!.trackingNumber);
  });

  it('when a label is fetched twice, both answers are the same label and one label is recorded', async () => {
    const { incrementId, supplierALine } = await importLabelOrder(api.runtime);

    const first = await get(labelUrl('supplier-a', supplierALine), supplierA);
    const second = await get(labelUrl('supplier-a', supplierALine), supplierA);

    expect([first.status, second.status]).toEqual([200, 200]);
    expect(Buffer.compare(first.body, second.body)).toBe(0);
    expect(await labelEvents(api.runtime, incrementId)).toHaveLength(1);
  });

  it('when ten first fetches of a label arrive at once, one label is recorded and every answer carries it', async () => {
    const { incrementId, supplierBLine } = await importLabelOrder(api.runtime);

    const responses = await Promise.all(Array.from({ length: 10 }, () => get(labelUrl('supplier-b', supplierBLine), supplierB)));

    expect(responses.map((response) => response.status)).toEqual(Array(10).fill(200));
    const recorded = await labelEvents(api.runtime, incrementId);
    expect(recorded).toHaveLength(1);
    for (const response of responses.slice(1)) expect(Buffer.compare(response.body, responses[0]!.body)).toBe(0);
    expect(await scanBarcode(responses[0]!.body)).toBe(recorded[0]!.trackingNumber);
  });

  it('when the label file was deleted, it is rendered again with the recorded tracking number', async () => {
    const { incrementId, supplierALine } = await importLabelOrder(api.runtime);
    await get(labelUrl('supplier-a', supplierALine), supplierA);
    await unlink(path.join(api.dataDir, 'files', 'labels', 'supplier-a', `${supplierALine}.pdf`));

    const response = await get(labelUrl('supplier-a', supplierALine), supplierA);

    expect(response.status).toBe(200);
    const recorded = await labelEvents(api.runtime, incrementId);
    expect(recorded).toHaveLength(1);
    expect(await scanBarcode(response.body)).toBe(recorded[0]!.trackingNumber);
  });
});
