import type { SavEvent } from '../../../src/events/after-sales/events.ts';

/** SAV 5, filed by the core API on 2 March 2026 about the table of order 100000012. */
export const tableSavCreated: SavEvent = {
  type: 'SavCreated',
  data: {
    savId: 5,
    saleId: 12,
    incrementId: '100000012',
    saleProductIds: [31],
    products: [{ saleProductId: 31, sku: 'TAB-OAK-180', name: 'Table chêne 180 cm' }],
    complaint: 'Le pied de la table est cassé',
    complaintName: 'Produit endommagé',
    savType: 'repair',
    channel: 'core',
    customerEmail: 'client@example.fr',
    createdAt: '2026-03-02T08:00:00.000Z',
  },
};
