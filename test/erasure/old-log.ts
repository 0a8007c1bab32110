import { systemContext } from '../../src/events/command-context.ts';
import { appendDomainEvents } from '../../src/events/domain-store.ts';
import type { EventStore } from '../../src/events/store/event-store.ts';
import { at, saleImported } from '../events/sales/sale-fixtures.ts';

/** A log as the service wrote it before encryption: a sale, its SAV and a lead of one customer, in clear. */

export const oldLogEmail = 'ancien.client@example.org';

export const oldLogValues = [
  oldLogEmail,
  'Anselme',
  'Dupré-Ancien',
  '+33622113344',
  '9 chemin des Archives',
  'Besançon-Vieux',
  'La porte Anselme ferme mal',
  'Dressing Anselme',
];

const leadId = '0b6f7a4e-6c43-4a8e-9a51-3c2b1d7e9f10';

/** Appends the old events straight to a store (no encrypting layer); answers the sale. */
export const writeOldEvents = async (store: EventStore) => {
  const sale = saleImported({
    customer: { email: oldLogEmail, firstname: 'Anselme', lastname: 'Dupré-Ancien', phone: '+33622113344' },
    shippingAddress: {
      firstname: 'Anselme',
      lastname: 'Dupré-Ancien',
      street: ['9 chemin des Archives'],
      postcode: '25000',
      city: 'Besançon-Vieux',
      country_id: 'FR',
    },
  });
  const write = (stream: string, events: Parameters<typeof appendDomainEvents>[2]) =>
    appendDomainEvents(store, stream, events, systemContext(), new Date(at), 'any');
  await write(`sale-${sale.data.incrementId}`, [sale]);
  const [line] = sale.data.products;
  await write('sav-7', [
    {
      type: 'SavCreated',
      data: {
        savId: 7,
        saleId: sale.data.saleId,
        incrementId: sale.data.incrementId,
        saleProductIds: [line!.saleProductId],
        products: [{ saleProductId: line!.saleProductId, sku: line!.sku, name: line!.name }],
        complaint: 'La porte Anselme ferme mal',
        complaintName: 'Produit défectueux',
        savType: 'repair',
        channel: 'core',
        customerEmail: oldLogEmail,
        createdAt: at,
      },
    },
  ]);
  await write(`lead-${leadId}`, [
    {
      type: 'ContactLeadCaptured',
      data: { leadId, name: 'Anselme Dupré-Ancien', email: oldLogEmail, phone: '+33622113344', projectName: 'Dressing Anselme', capturedAt: at },
    },
  ]);
  return sale;
};
