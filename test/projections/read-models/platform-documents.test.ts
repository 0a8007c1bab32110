import { describe, expect, it } from 'vitest';
import { platformDocumentsProjection } from '../../../src/projections/e-invoicing/platform-documents-projection.ts';
import { duePlatformDocuments, platformDocumentById, sentPlatformDocuments } from '../../../src/projections/e-invoicing/queries.ts';
import { openTestReadStore } from '../../support/mongo-backend.ts';
import { project } from './project.ts';
import { buildScenario } from './scenario.ts';

/** The `platform_documents` read model: what is owed to the approved platform, and how far each is. */
describe('platform documents read model', () => {
  const given = async () => {
    const store = await openTestReadStore();
    await project(store, [platformDocumentsProjection], buildScenario().events);
    return store;
  };

  it("when a consumer's invoice and credit note are issued on two days, each counts in its own day's e-reporting, the first day sent and deposited", async () => {
    const store = await given();
    expect(await platformDocumentById(store, 'ER-2025-03-11')).toMatchObject({
      kind: 'e-reporting',
      documents: ['FA-2025-1'],
      amounts: { 'TLB1:2000': 140_780 },
      transmission: { status: 'sent', attempts: 2, lastError: 'not sent: ECONNREFUSED', platformReference: 'pa-1' },
      platformStatus: { status: 'deposited' },
      lifecycleOver: false,
    });
    expect(await platformDocumentById(store, 'ER-2025-03-12')).toMatchObject({
      documents: ['AV-2025-1'],
      amounts: { 'TLB1:2000': -25_980 },
      transmission: { status: 'pending', attempts: 0 },
    });
    expect((await duePlatformDocuments(store, null, '2025-03-13T00:00:00.000Z', 10)).map((document) => document._id)).toEqual(['ER-2025-03-12']);
    expect(await duePlatformDocuments(store, '2025-03-13', '2025-03-13T00:00:00.000Z', 10)).toEqual([]);
    expect((await sentPlatformDocuments(store, '2025-03-01', 10)).map((document) => document._id)).toEqual(['ER-2025-03-11']);
    expect(await sentPlatformDocuments(store, '2025-03-12', 10)).toEqual([]);
  });
});
