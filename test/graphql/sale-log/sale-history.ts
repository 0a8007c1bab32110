import { randomUUID } from 'node:crypto';
import type { SavEvent } from '../../../src/events/after-sales/events.ts';
import type { CommandContext } from '../../../src/events/command-context.ts';
import { appendDomainEvents } from '../../../src/events/domain-store.ts';
import type { SaleEvent } from '../../../src/events/sales/events.ts';
import type { EventStore } from '../../../src/events/store/event-store.ts';

const at = '2025-03-03T10:00:00.000Z';
export const frozenNow = new Date(at);

const address = { firstname: 'Ada', lastname: 'Martin', street: ['12 rue des Lilas'], postcode: '75011', city: 'Paris', country_id: 'FR' };

export const saleImported = (saleId: number, incrementId: string): SaleEvent => ({
  type: 'SaleImported',
  data: {
    saleId,
    incrementId,
    source: 'magento',
    orderedAt: '2025-03-01T09:30:00+01:00',
    currency: 'EUR',
    customer: { email: 'ada@example.com', firstname: 'Ada', lastname: 'Martin', phone: null },
    shippingAddress: address,
    billingAddress: null,
    products: [
      {
        saleProductId: 12,
        sku: 'CAN-OSLO',
        name: 'Canapé Oslo',
        qty: 1,
        price: 899,
        wholesalePrice: 500,
        supplier: 'supplier-a',
        carrier: 'DHL',
        requiresAppointment: true,
      },
      {
        saleProductId: 13,
        sku: 'LAMP-NORD',
        name: 'Lampe Nord',
        qty: 2,
        price: 49.9,
        wholesalePrice: null,
        supplier: null,
        carrier: null,
        requiresAppointment: false,
      },
    ],
    payment: { method: 'card', status: 'paid', amountPaid: 998.8 },
    shippingAmount: 0,
    grandTotal: 998.8,
    importedAt: at,
  },
});

/** Each event of a sale's stream, after its import, with the summary the log must show for it. */
export const saleEvents = (saleId: number): { event: SaleEvent; fr: string; en: string }[] => [
  {
    event: { type: 'TrackingNumberAllocated', data: { saleId, saleProductId: 12, supplier: 'supplier-a', trackingNumber: 'MC0000000000422', allocatedAt: at } },
    fr: 'Numéro de suivi MC0000000000422 attribué au produit 12 (SKU CAN-OSLO), expédié par supplier-a',
    en: 'Tracking number MC0000000000422 allocated to product 12 (SKU CAN-OSLO), shipped by supplier-a',
  },
  {
    event: {
      type: 'SaleAddressUpdated',
      data: { saleId, shippingAddress: { ...address, street: ['3 place Carnot'], postcode: '69002', city: 'Lyon' }, updatedAt: at },
    },
    fr: 'Adresse de livraison modifiée : 3 place Carnot, 69002 Lyon, FR',
    en: 'Shipping address updated: 3 place Carnot, 69002 Lyon, FR',
  },
  {
    event: { type: 'SaleProductAcknowledged', data: { saleId, saleProductId: 12, supplier: 'supplier-a', acknowledgedAt: at } },
    fr: 'Produit 12 (SKU CAN-OSLO) pris en compte par supplier-a',
    en: 'Product 12 (SKU CAN-OSLO) acknowledged by supplier-a',
  },
  {
    event: {
      type: 'SupplierLineRefused',
      data: { saleId, saleProductId: 12, supplier: 'supplier-a', reason: 'out_of_stock', comment: 'Plus de stock avant mars', refusedAt: at },
    },
    fr: 'Produit 12 (SKU CAN-OSLO) refusé par supplier-a (out_of_stock) : Plus de stock avant mars',
    en: 'Product 12 (SKU CAN-OSLO) refused by supplier-a (out_of_stock): Plus de stock avant mars',
  },
  {
    event: { type: 'SupplierLineHandedOver', data: { saleId, saleProductId: 12, fromSupplier: 'supplier-a', toSupplier: 'supplier-b', handedOverAt: at } },
    fr: 'Produit 12 (SKU CAN-OSLO) confié à supplier-b à la place de supplier-a',
    en: 'Product 12 (SKU CAN-OSLO) handed over from supplier-a to supplier-b',
  },
  {
    event: {
      type: 'ShippingLabelCreated',
      data: { saleId, saleProductId: 12, supplier: 'supplier-a', carrier: 'DHL', trackingNumber: 'TRK-1', labelPath: 'labels/TRK-1.pdf', createdAt: at },
    },
    fr: "Étiquette d'expédition créée par supplier-a pour le produit 12 (SKU CAN-OSLO) : transporteur DHL, suivi TRK-1",
    en: 'Shipping label created by supplier-a for product 12 (SKU CAN-OSLO): carrier DHL, tracking TRK-1',
  },
  {
    event: { type: 'SaleProductShipped', data: { saleId, saleProductId: 12, supplier: 'supplier-a', preparedAt: at, logUser: 'cron' } },
    fr: 'Produit 12 (SKU CAN-OSLO) expédié par supplier-a',
    en: 'Product 12 (SKU CAN-OSLO) shipped by supplier-a',
  },
  {
    event: {
      type: 'SaleProductShipped',
      data: {
        saleId,
        saleProductId: 12,
        supplier: 'supplier-b',
        preparedAt: at,
        logUser: 'cron',
        supplierTracking: { carrier: 'DPD', trackingNumber: '155012', trackingUrl: 'https://trace.dpd.fr/fr/trace/155012' },
      },
    },
    fr: 'Produit 12 (SKU CAN-OSLO) expédié par supplier-b via DPD (suivi 155012)',
    en: 'Product 12 (SKU CAN-OSLO) shipped by supplier-b with DPD (tracking 155012)',
  },
  {
    event: { type: 'SaleProductShipped', data: { saleId, saleProductId: 13, supplier: null, preparedAt: at, logUser: 'cron' } },
    fr: 'Produit 13 (SKU LAMP-NORD) expédié depuis le stock',
    en: 'Product 13 (SKU LAMP-NORD) shipped from own stock',
  },
  {
    event: {
      type: 'SaleDeliveryAppointmentScheduled',
      data: { saleId, planningType: 'delivery', date: '2025-03-10', time: '09:00', previous: { date: '2025-03-07', time: '14:00' }, scheduledAt: at },
    },
    fr: 'Rendez-vous de livraison fixé le 10/03/2025 à 09:00 (remplace le 07/03/2025 à 14:00)',
    en: 'Delivery appointment scheduled on 2025-03-10 at 09:00 (replaces the one on 2025-03-07 at 14:00)',
  },
  {
    event: {
      type: 'DeliveryServiceAppointmentSaved',
      data: { saleId, provider: 'Geodis', reference: 'GEO-77', date: '2025-03-10', timeWindow: '08:00-12:00', savedAt: at },
    },
    fr: 'Rendez-vous enregistré chez Geodis (réf. GEO-77) pour le 10/03/2025, créneau 08:00-12:00',
    en: 'Appointment saved with Geodis (ref. GEO-77) for 2025-03-10, time window 08:00-12:00',
  },
  {
    event: { type: 'SaleProductCancelled', data: { saleId, saleProductId: 13, reason: 'out of stock', cancelledAt: at } },
    fr: 'Produit 13 (SKU LAMP-NORD) annulé : out of stock',
    en: 'Product 13 (SKU LAMP-NORD) cancelled: out of stock',
  },
  {
    event: {
      type: 'RefundRequested',
      data: { saleId, refundId: 41, amount: 99.8, currency: 'EUR', reason: 'cancelled line', saleProductIds: [13], requestedAt: at },
    },
    fr: 'Remboursement 41 demandé : 99.80 EUR pour produit 13 (SKU LAMP-NORD) : cancelled line',
    en: 'Refund 41 requested: 99.80 EUR for product 13 (SKU LAMP-NORD): cancelled line',
  },
  { event: { type: 'RefundPaid', data: { saleId, refundId: 41, paidAt: at } }, fr: 'Remboursement 41 payé', en: 'Refund 41 paid' },
  {
    event: { type: 'SaleCancelled', data: { saleId, reason: '', cancelledAt: at } },
    fr: 'Commande annulée',
    en: 'Order cancelled',
  },
];

/** The events of one SAV of the sale, with their summaries. */
export const savEvents = (savId: number, saleId: number, incrementId: string): { event: SavEvent; fr: string; en: string }[] => [
  {
    event: {
      type: 'SavCreated',
      data: {
        savId,
        saleId,
        incrementId,
        saleProductIds: [12],
        products: [{ saleProductId: 12, sku: 'CAN-OSLO', name: 'Canapé Oslo' }],
        complaint: 'The left armrest arrived broken.',
        complaintName: 'Produit endommagé',
        savType: 'repair',
        channel: 'core',
        customerEmail: 'ada@example.com',
        createdAt: at,
      },
    },
    fr: `SAV ${savId} créé (canal core) pour produit 12 (SKU CAN-OSLO) : Produit endommagé`,
    en: `After-sales request ${savId} created (core channel) for product 12 (SKU CAN-OSLO): Produit endommagé`,
  },
  {
    event: {
      type: 'SavAppointmentScheduled',
      data: { savId, date: '2025-03-12', time: '10:30', phone: null, comment: null, previous: null, scheduledAt: at },
    },
    fr: `Rendez-vous du SAV ${savId} fixé le 12/03/2025 à 10:30`,
    en: `After-sales request ${savId} appointment scheduled on 2025-03-12 at 10:30`,
  },
  {
    event: {
      type: 'SavFileAttached',
      data: {
        savId,
        fileId: randomUUID(),
        kind: 'image',
        category: 'photos',
        sourceUrl: null,
        storedPath: `sav/${savId}/armrest.jpg`,
        fileName: 'armrest.jpg',
        contentType: 'image/jpeg',
        size: 1234,
        attachedAt: at,
      },
    },
    fr: `Image « armrest.jpg » ajouté(e) au SAV ${savId}`,
    en: `Image "armrest.jpg" attached to after-sales request ${savId}`,
  },
  ...fetchedLink(savId),
  ...abandonedLink(savId),
  {
    event: { type: 'SavResolved', data: { savId, resolution: 'Accoudoir remplacé', resolvedAt: at } },
    fr: `SAV ${savId} résolu : Accoudoir remplacé`,
    en: `After-sales request ${savId} resolved: Accoudoir remplacé`,
  },
  {
    event: { type: 'SavClosed', data: { savId, releasedAppointment: null, closedAt: at } },
    fr: `SAV ${savId} clôturé`,
    en: `After-sales request ${savId} closed`,
  },
  {
    event: { type: 'SavReopened', data: { savId, reason: "L'accoudoir bouge encore", reopenedFrom: 'closed', reopenedAt: at } },
    fr: `SAV ${savId} rouvert (il était clôturé) : L'accoudoir bouge encore`,
    en: `After-sales request ${savId} reopened (it was closed): L'accoudoir bouge encore`,
  },
  {
    event: { type: 'SavCancelled', data: { savId, reason: 'Doublon du SAV 9', releasedAppointment: { date: '2025-03-12', time: '10:30' }, cancelledAt: at } },
    fr: `SAV ${savId} annulé : Doublon du SAV 9 ; rendez-vous du 12/03/2025 à 10:30 libéré`,
    en: `After-sales request ${savId} cancelled: Doublon du SAV 9; its appointment on 2025-03-12 at 10:30 given back`,
  },
];

const linkAttached = (savId: number, fileId: string, fileName: string, url: string): SavEvent => ({
  type: 'SavFileAttached',
  data: { savId, fileId, kind: 'video', category: 'video', sourceUrl: url, storedPath: null, fileName, contentType: null, size: null, attachedAt: at },
});

/** A video given by URL: a first attempt fails, the second stores it. */
const fetchedLink = (savId: number): { event: SavEvent; fr: string; en: string }[] => {
  const fileId = randomUUID();
  const fileName = 'clip.mp4';
  return [
    {
      event: linkAttached(savId, fileId, fileName, 'https://cdn.example.org/clip.mp4'),
      fr: `Vidéo « clip.mp4 » ajouté(e) au SAV ${savId}`,
      en: `Video "clip.mp4" attached to after-sales request ${savId}`,
    },
    {
      event: {
        type: 'SavFileFetchFailed',
        data: {
          savId,
          fileId,
          fileName,
          attempt: 1,
          reason: 'timeout',
          error: 'the file was not received within 60 s',
          nextAttemptAt: '2025-03-03T10:01:00.000Z',
          failedAt: at,
        },
      },
      fr: `Essai 1 de récupération du fichier « clip.mp4 » du SAV ${savId} échoué : the file was not received within 60 s`,
      en: `Attempt 1 to fetch file "clip.mp4" of after-sales request ${savId} failed: the file was not received within 60 s`,
    },
    {
      event: {
        type: 'SavFileFetched',
        data: {
          savId,
          fileId,
          fileName,
          attempt: 2,
          kind: 'video',
          storedPath: `sav-files/${savId}/clip.mp4`,
          contentType: 'video/mp4',
          size: 4096,
          fetchedAt: at,
        },
      },
      fr: `Fichier « clip.mp4 » du SAV ${savId} récupéré (4096 octets)`,
      en: `File "clip.mp4" of after-sales request ${savId} fetched (4096 bytes)`,
    },
  ];
};

/** A video given by URL whose host refuses it for good. */
const abandonedLink = (savId: number): { event: SavEvent; fr: string; en: string }[] => {
  const fileId = randomUUID();
  const fileName = 'private.mp4';
  return [
    {
      event: linkAttached(savId, fileId, fileName, 'https://intranet.example.org/private.mp4'),
      fr: `Vidéo « private.mp4 » ajouté(e) au SAV ${savId}`,
      en: `Video "private.mp4" attached to after-sales request ${savId}`,
    },
    {
      event: {
        type: 'SavFileFetchFailed',
        data: {
          savId,
          fileId,
          fileName,
          attempt: 1,
          reason: 'url_refused',
          error: 'the host intranet.example.org is an internal address',
          nextAttemptAt: null,
          failedAt: at,
        },
      },
      fr: `Fichier « private.mp4 » du SAV ${savId} abandonné après 1 essai(s) : the host intranet.example.org is an internal address`,
      en: `File "private.mp4" of after-sales request ${savId} given up after 1 attempt(s): the host intranet.example.org is an internal address`,
    },
  ];
};

export const supplierContext = (): CommandContext => ({
  actor: { kind: 'token', group: 'supplier-a', label: 'supplier-a-prod', tokenId: randomUUID() },
  correlationId: randomUUID(),
});
export const coreContext = (): CommandContext => ({ actor: { kind: 'token', group: 'core', label: 'backoffice' }, correlationId: randomUUID() });
export const cronContext = (): CommandContext => ({ actor: { kind: 'cron' }, correlationId: randomUUID() });

export type LoggedLine = { type: string; summary: { fr: string; en: string } };

/**
 * Writes a whole sale history, interleaving its SAV with the sale's events, as the service would: the
 * import and SAV by the back office, shipments by the scheduler, the rest by the supplier. Returns the
 * lines the sale log must show, in the order written.
 */
export const writeSaleHistory = async (store: EventStore, sale: { saleId: number; incrementId: string; savId: number }): Promise<LoggedLine[]> => {
  const saleStream = `sale-${sale.incrementId}`;
  const savStream = `sav-${sale.savId}`;
  const savs = savEvents(sale.savId, sale.saleId, sale.incrementId);
  const written: LoggedLine[] = [];
  const write = async (stream: string, { event, fr, en }: { event: SaleEvent | SavEvent; fr: string; en: string }, context: CommandContext) => {
    await appendDomainEvents(store, stream, [event], context, frozenNow, 'any');
    written.push({ type: event.type, summary: { fr, en } });
  };

  await write(
    saleStream,
    {
      event: saleImported(sale.saleId, sale.incrementId),
      fr: `Commande ${sale.incrementId} importée depuis magento : 2 produit(s), total 998.80 EUR`,
      en: `Order ${sale.incrementId} imported from magento: 2 product(s), total 998.80 EUR`,
    },
    coreContext(),
  );
  for (const [index, line] of saleEvents(sale.saleId).entries()) {
    await write(saleStream, line, line.event.type === 'SaleProductShipped' ? cronContext() : supplierContext());
    const sav = savs[index];
    if (sav) await write(savStream, sav, coreContext());
  }
  // A SAV's life may outlast the sale's events: the rest of it follows.
  for (const sav of savs.slice(saleEvents(sale.saleId).length)) await write(savStream, sav, coreContext());
  return written;
};
