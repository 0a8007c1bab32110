import { describe, expect, it } from 'vitest';
import { platformDocumentsProjection } from '../../../src/projections/e-invoicing/platform-documents-projection.ts';
import { duePlatformDocuments, platformDocumentById, sentPlatformDocuments } from '../../../src/projections/e-invoicing/queries.ts';
import { openTestReadStore } from '../../support/mongo-backend.ts';
import { project } from './project.ts';
import { buildScenario } from './scenario.ts';

/**
 * The `platform_documents` read model: what is owed to the approved platform, and how far each is. The
 * days of consumer sales are counted from the sales as they are recorded, none of them invoiced on
 * request but the main sale; a business customer's invoice is an e-invoice of its own.
 */
describe('platform documents read model', () => {
  const given = async (events = buildScenario().events) => {
    const store = await openTestReadStore();
    await project(store, [platformDocumentsProjection], events);
    return store;
  };

  it('when consumer sales are imported, each counts in the day it was recorded, its lines and shipping by category and rate, whether invoiced or not', async () => {
    const store = await given();
    // Both sales imported on 10 March: 899 + 901 + 60 + 14 of shipping, and 60 + 14, all goods unknown to the catalogue then (20 %).
    expect(await platformDocumentById(store, 'ER-2025-03-10')).toMatchObject({
      kind: 'e-reporting',
      documents: [],
      sales: 2,
      cancelledLines: 0,
      recordedAfterSending: 0,
      amounts: { 'TLB1:2000': 194_800 },
      transmission: { status: 'sent', attempts: 2, lastError: 'not sent: ECONNREFUSED', platformReference: 'pa-1' },
      platformStatus: { status: 'deposited' },
      lifecycleOver: false,
    });
    // 23:30 UTC on the 15th is the 16th in France: a book at 5.5 % (2 x 25), a fitting service at 10 % (its rate updated
    // from 20 % before the sale), the 14 of shipping spread 5.38 / 8.62 over their rates, with the goods.
    expect(await platformDocumentById(store, 'ER-2025-03-16')).toMatchObject({
      sales: 1,
      amounts: { 'TLB1:550': 5_538, 'TLB1:1000': 862, 'TPS1:1000': 8_000 },
      transmission: { status: 'pending', attempts: 0 },
    });
  });

  it('when a line is cancelled, its amount is taken from the day of the cancellation; a consumer invoice and credit note add nothing', async () => {
    const store = await given();
    expect(await platformDocumentById(store, 'ER-2025-03-12')).toMatchObject({ sales: 0, cancelledLines: 1, amounts: { 'TLB1:2000': -90_100 } });
    expect(await platformDocumentById(store, 'ER-2025-03-17')).toMatchObject({ sales: 0, cancelledLines: 1, amounts: { 'TPS1:1000': -8_000 } });
    expect(await platformDocumentById(store, 'ER-2025-03-11')).toBeNull();
    expect(await platformDocumentById(store, 'FA-2025-1')).toBeNull();
    expect(await platformDocumentById(store, 'AV-2025-1')).toBeNull();
  });

  it("when a business customer's sale is invoiced, its invoice is an e-invoice of its own; what is due and what was sent are found by date", async () => {
    const store = await given();
    expect(await platformDocumentById(store, 'FA-2025-2')).toMatchObject({
      kind: 'e-invoice',
      date: '2025-03-19',
      documents: ['FA-2025-2'],
      sales: 0,
      amounts: {},
      transmission: { status: 'pending' },
    });
    expect((await duePlatformDocuments(store, null, '2025-03-21T00:00:00.000Z', 10)).map((document) => document._id)).toEqual([
      'ER-2025-03-12',
      'ER-2025-03-16',
      'ER-2025-03-17',
      'FA-2025-2',
    ]);
    expect((await duePlatformDocuments(store, '2025-03-17', '2025-03-21T00:00:00.000Z', 10)).map((document) => document._id)).toEqual([
      'ER-2025-03-17',
      'FA-2025-2',
    ]);
    expect((await sentPlatformDocuments(store, '2025-03-01', 10)).map((document) => document._id)).toEqual(['ER-2025-03-10']);
    expect(await sentPlatformDocuments(store, '2025-03-11', 10)).toEqual([]);
  });

  it('when a cancellation of a day already sent is recorded late, it is counted there and said to have come after the sending', async () => {
    const { log, events } = buildScenario();
    log.record('sale-100000090', {
      type: 'SaleProductCancelled',
      data: { saleId: 102, saleProductId: 1010, reason: 'late', cancelledAt: '2025-03-10T23:55:00+01:00' },
    });
    const store = await given(events);
    expect(await platformDocumentById(store, 'ER-2025-03-10')).toMatchObject({
      sales: 2,
      cancelledLines: 1,
      recordedAfterSending: 1,
      amounts: { 'TLB1:2000': 188_800 },
      transmission: { status: 'sent' },
    });
  });
});
