import { readdir, readFile, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemContext } from '../../src/events/command-context.ts';
import type { IdAllocator } from '../../src/events/ids/id-allocator.ts';
import { allocateTrackingNumber } from '../../src/events/sales/allocate-tracking-number.ts';
import { parseServiceOrderId } from '../../src/events/sales/service-order-id.ts';
import { isTrackingNumber } from '../../src/events/sales/tracking-number.ts';
import { updateSaleAddress } from '../../src/events/sales/update-address.ts';
import { ensureShippingLabel, type LabelDeps } from '../../src/labels/label-service.ts';
import { openSqliteReadStore } from '../../src/projections/read-store/sqlite-read-store.ts';
import { findSupplierLine } from '../../src/projections/supplier-lines/queries.ts';
import { readModelsCaughtUp, startApi, type ApiHarness } from '../support/api-harness.ts';
import { frozenClock, importLabelOrder, importLegacyLabelOrder, saleStreamLength, trackingEvents } from './label-fixtures.ts';
import { pdfPageCount, pdfText, scanBarcode } from './pdf-tools.ts';

describe('the label service', () => {
  let api: ApiHarness;
  let deps: LabelDeps;
  beforeAll(async () => {
    api = await startApi({ clock: frozenClock });
    deps = api.runtime;
  });
  afterAll(async () => api.close());

  const context = () => systemContext();

  /** The number the line was imported with. */
  const importedNumber = async (incrementId: string, serviceOrderId: string): Promise<string> => {
    const { saleProductId } = parseServiceOrderId(serviceOrderId)!;
    const recorded = (await trackingEvents(api.runtime, incrementId)).find((event) => event.saleProductId === saleProductId);
    if (!recorded) throw new Error(`no tracking number for ${serviceOrderId}`);
    return recorded.trackingNumber;
  };

  it('when a supplier line is first asked for its label, it stores the PDF printing the number the line was imported with, and records nothing', async () => {
    const { incrementId, supplierALine } = await importLabelOrder(api.runtime);
    const trackingNumber = await importedNumber(incrementId, supplierALine);
    const recordedBefore = await saleStreamLength(api.runtime, incrementId);

    const label = await ensureShippingLabel(deps, { serviceOrderId: supplierALine }, context());

    expect(label).not.toBeNull();
    expect(label!.path).toBe(`labels/supplier-a/${supplierALine}.pdf`);
    expect(label!.file).toBe(path.join(api.dataDir, 'files', 'labels', 'supplier-a', `${supplierALine}.pdf`));
    expect(label!.trackingNumber).toBe(trackingNumber);
    expect(isTrackingNumber(trackingNumber)).toBe(true);
    expect(await saleStreamLength(api.runtime, incrementId)).toBe(recordedBefore);
    const line = await findSupplierLine(api.runtime.readStore, supplierALine);
    expect(line).toMatchObject({ trackingNumber, labelPath: label!.path });

    const pdf = await readFile(label!.file);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(await pdfPageCount(pdf)).toBe(1);
    const text = await pdfText(pdf);
    for (const expected of [supplierALine, 'CAN-OSLO-3P-GRY', 'Quantité : 2', 'Geodis', 'Élodie Durand', '25000 Besançon', trackingNumber]) {
      expect(text).toContain(expected);
    }
    expect(text).toContain('Maison & Confort — Entrepôt central');
    expect(text).toContain('69200 Vénissieux');
    expect(await scanBarcode(pdf, { raw: false })).toBe(`CODE-128:${trackingNumber}`);
  });

  it('when the label file is in place, it answers it as it is, without rendering again', async () => {
    const { supplierBLine } = await importLabelOrder(api.runtime);
    const first = await ensureShippingLabel(deps, { serviceOrderId: supplierBLine }, context());
    const before = await stat(first!.file);

    const second = await ensureShippingLabel(deps, { serviceOrderId: supplierBLine }, context());

    expect(second).toEqual(first);
    const after = await stat(first!.file);
    expect(after.ino).toBe(before.ino);
    expect(after.mtimeMs).toBe(before.mtimeMs);
  });

  it('when the file was lost, it renders it again with the same tracking number', async () => {
    const { incrementId, supplierALine } = await importLabelOrder(api.runtime);
    const first = await ensureShippingLabel(deps, { serviceOrderId: supplierALine }, context());
    await unlink(first!.file);

    const again = await ensureShippingLabel(deps, { serviceOrderId: supplierALine }, context());

    expect(again).toEqual(first);
    expect(await scanBarcode(await readFile(again!.file))).toBe(await importedNumber(incrementId, supplierALine));
    // Written through a temporary file renamed over the label: none is left behind.
    expect((await readdir(path.dirname(again!.file))).filter((name) => !name.endsWith('.pdf'))).toEqual([]);
  });

  it('when the file on disk is not the line label, it is rendered again from the line', async () => {
    const one = await importLabelOrder(api.runtime);
    const other = await importLabelOrder(api.runtime);
    const kept = await ensureShippingLabel(deps, { serviceOrderId: one.supplierALine }, context());
    const stranger = await ensureShippingLabel(deps, { serviceOrderId: other.supplierALine }, context());
    await writeFile(kept!.file, await readFile(stranger!.file));

    const again = await ensureShippingLabel(deps, { serviceOrderId: one.supplierALine }, context());

    expect(again!.trackingNumber).toBe(kept!.trackingNumber);
    expect(await scanBarcode(await readFile(again!.file))).toBe(kept!.trackingNumber);
  });

  it('when the shipping address changed after the label was made, the label shows the new address with the same tracking number', async () => {
    const { order, incrementId, supplierALine } = await importLabelOrder(api.runtime);
    const first = await ensureShippingLabel(deps, { serviceOrderId: supplierALine }, context());
    const moved = { ...order.shipping_address, street: ['3 place du Marché'], postcode: '21000', city: 'Dijon' };
    expect(await updateSaleAddress(api.runtime.salesDeps, { incrementId, shippingAddress: moved }, context())).toMatchObject({ status: 'updated' });
    await readModelsCaughtUp(api.runtime);

    const again = await ensureShippingLabel(deps, { serviceOrderId: supplierALine }, context());

    expect(again!.trackingNumber).toBe(first!.trackingNumber);
    const text = await pdfText(await readFile(again!.file));
    expect(text).toContain('21000 Dijon');
    expect(text).not.toContain('Besançon');
  });

  it('when ten requests for a label not yet rendered arrive at once, every answer is the line label with its one number', async () => {
    const { incrementId, supplierBLine } = await importLabelOrder(api.runtime);

    const labels = await Promise.all(Array.from({ length: 10 }, () => ensureShippingLabel(deps, { serviceOrderId: supplierBLine }, context())));

    const trackingNumber = await importedNumber(incrementId, supplierBLine);
    expect(new Set(labels.map((label) => label!.trackingNumber))).toEqual(new Set([trackingNumber]));
    expect(await scanBarcode(await readFile(labels[0]!.file))).toBe(trackingNumber);
  });

  describe('a line imported before tracking numbers were allocated at import', () => {
    it('when its label is first asked for, it gets a number, recorded once, which the label prints', async () => {
      const { incrementId, supplierALine } = await importLegacyLabelOrder(api.runtime);
      expect(await trackingEvents(api.runtime, incrementId)).toEqual([]);

      const label = await ensureShippingLabel(deps, { serviceOrderId: supplierALine }, context());

      const recorded = await trackingEvents(api.runtime, incrementId);
      expect(recorded).toEqual([
        {
          saleId: expect.any(Number),
          saleProductId: parseServiceOrderId(supplierALine)!.saleProductId,
          supplier: 'supplier-a',
          trackingNumber: label!.trackingNumber,
          allocatedAt: frozenClock.now().toISOString(),
        },
      ]);
      expect(isTrackingNumber(label!.trackingNumber)).toBe(true);
      expect(await findSupplierLine(api.runtime.readStore, supplierALine)).toMatchObject({ trackingNumber: label!.trackingNumber });
      expect(await scanBarcode(await readFile(label!.file))).toBe(label!.trackingNumber);
    });

    it('when ten requests for its label arrive at once, one number is recorded and every answer carries it', async () => {
      const { incrementId, supplierBLine } = await importLegacyLabelOrder(api.runtime);

      const labels = await Promise.all(Array.from({ length: 10 }, () => ensureShippingLabel(deps, { serviceOrderId: supplierBLine }, context())));

      const recorded = await trackingEvents(api.runtime, incrementId);
      expect(recorded).toHaveLength(1);
      expect(new Set(labels.map((label) => label!.trackingNumber))).toEqual(new Set([recorded[0]!.trackingNumber]));
    });

    it('when another writer records its number meanwhile, that number wins and the label prints it', async () => {
      const { incrementId, supplierALine } = await importLegacyLabelOrder(api.runtime);
      const ref = parseServiceOrderId(supplierALine)!;
      let theirs: string | undefined;
      // Another process records the line's number while this one draws its own.
      const ids: IdAllocator = {
        next: async (sequence, count) => {
          if (theirs === undefined) {
            const outcome = await allocateTrackingNumber(api.runtime.salesDeps, ref, context());
            theirs = outcome.status === 'refused' ? 'refused' : outcome.trackingNumber;
          }
          return api.runtime.ids.next(sequence, count);
        },
      };
      const racing: LabelDeps = { ...deps, salesDeps: { ...api.runtime.salesDeps, ids } };

      const label = await ensureShippingLabel(racing, { serviceOrderId: supplierALine }, context());

      expect(label!.trackingNumber).toBe(theirs);
      expect((await trackingEvents(api.runtime, incrementId)).map((event) => event.trackingNumber)).toEqual([theirs]);
      expect(await scanBarcode(await readFile(label!.file))).toBe(theirs);
    });
  });

  it('when the projection has not caught up yet, the label is still made from the sale stream', async () => {
    const { supplierBLine } = await importLabelOrder(api.runtime);
    // A read store that no projection has filled yet.
    const lagging: LabelDeps = { ...deps, readStore: openSqliteReadStore({ file: ':memory:' }) };

    const label = await ensureShippingLabel(lagging, { serviceOrderId: supplierBLine }, context());

    expect(label).toMatchObject({ path: `labels/supplier-b/${supplierBLine}.pdf` });
  });

  it("when there is no such supplier line, or it is another supplier's, it answers null and records nothing", async () => {
    const { incrementId, supplierALine, ownStockLine } = await importLegacyLabelOrder(api.runtime);

    expect(await ensureShippingLabel(deps, { serviceOrderId: ownStockLine }, context())).toBeNull();
    expect(await ensureShippingLabel(deps, { serviceOrderId: `${incrementId}_999999` }, context())).toBeNull();
    expect(await ensureShippingLabel(deps, { serviceOrderId: '999999999_1' }, context())).toBeNull();
    expect(await ensureShippingLabel(deps, { serviceOrderId: '../1_2' }, context())).toBeNull();
    expect(await ensureShippingLabel(deps, { serviceOrderId: supplierALine, supplier: 'supplier-b' }, context())).toBeNull();
    expect(await trackingEvents(api.runtime, incrementId)).toEqual([]);
  });
});
