import { assertNever } from '../../events/decider.ts';
import { erased, isErased } from '../../events/schema/personal-data.ts';
import type { SavEvent } from '../../events/after-sales/events.ts';
import type { SaleEvent } from '../../events/sales/events.ts';

/** The events the sale log records: those of a sale's stream and of its SAVs' streams. */
export type SaleLogEvent = SaleEvent | SavEvent;

export type Summary = { fr: string; en: string };

/** The line of an address change; without the address for readers who may not see it. */
export const addressUpdatedSummary = (address: string | null): Summary =>
  address === null
    ? { fr: 'Adresse de livraison modifiée', en: 'Shipping address updated' }
    : { fr: `Adresse de livraison modifiée : ${address}`, en: `Shipping address updated: ${address}` };

/** The names and SKUs of a sale's products, for the lines of events that only carry an id. */
export type ProductNames = ReadonlyMap<number, { sku: string; name: string }>;

const product = (id: number, products: ProductNames): Summary => {
  const sku = products.get(id)?.sku;
  return sku === undefined ? { fr: `produit ${id}`, en: `product ${id}` } : { fr: `produit ${id} (SKU ${sku})`, en: `product ${id} (SKU ${sku})` };
};

const productList = (ids: readonly number[], products: ProductNames): Summary => {
  const each = ids.map((id) => product(id, products));
  return { fr: each.map((p) => p.fr).join(', '), en: each.map((p) => p.en).join(', ') };
};

const capitalised = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);
const amount = (value: number, currency: string): string => `${value.toFixed(2)} ${currency}`;
const frenchDate = (date: string): string => date.split('-').reverse().join('/');
const reasonFr = (reason: string): string => (reason.trim() === '' ? '' : ` : ${reason.trim()}`);
const reasonEn = (reason: string): string => (reason.trim() === '' ? '' : `: ${reason.trim()}`);

type Slot = { date: string; time: string };
const slotFr = (slot: Slot): string => `le ${frenchDate(slot.date)} à ${slot.time}`;
const slotEn = (slot: Slot): string => `on ${slot.date} at ${slot.time}`;
const replacesFr = (previous: Slot | null): string => (previous ? ` (remplace ${slotFr(previous)})` : '');
const replacesEn = (previous: Slot | null): string => (previous ? ` (replaces the one ${slotEn(previous)})` : '');
const releasedFr = (slot: Slot | null): string => (slot ? ` ; rendez-vous du ${frenchDate(slot.date)} à ${slot.time} libéré` : '');
const releasedEn = (slot: Slot | null): string => (slot ? `; its appointment ${slotEn(slot)} given back` : '');

/** One readable line, in French and in English, for each event of a sale's history. */
export const summarise = (event: SaleLogEvent, products: ProductNames): Summary => {
  switch (event.type) {
    case 'SaleImported': {
      const { incrementId, source, products: lines, grandTotal, currency } = event.data;
      const total = amount(grandTotal, currency);
      return {
        fr: `Commande ${incrementId} importée depuis ${source} : ${lines.length} produit(s), total ${total}`,
        en: `Order ${incrementId} imported from ${source}: ${lines.length} product(s), total ${total}`,
      };
    }
    case 'SaleAddressUpdated': {
      const { street, postcode, city, country_id } = event.data.shippingAddress;
      if (isErased(city)) return addressUpdatedSummary(erased);
      return addressUpdatedSummary(`${street.join(' ')}, ${postcode} ${city}, ${country_id}`);
    }
    case 'SaleProductAcknowledged': {
      const p = product(event.data.saleProductId, products);
      return { fr: `${capitalised(p.fr)} pris en compte par ${event.data.supplier}`, en: `${capitalised(p.en)} acknowledged by ${event.data.supplier}` };
    }
    case 'SaleProductShipped': {
      const p = product(event.data.saleProductId, products);
      const { supplier, supplierTracking } = event.data;
      if (supplier === null) return { fr: `${capitalised(p.fr)} expédié depuis le stock`, en: `${capitalised(p.en)} shipped from own stock` };
      const viaFr = supplierTracking ? ` via ${supplierTracking.carrier} (suivi ${supplierTracking.trackingNumber})` : '';
      const viaEn = supplierTracking ? ` with ${supplierTracking.carrier} (tracking ${supplierTracking.trackingNumber})` : '';
      return { fr: `${capitalised(p.fr)} expédié par ${supplier}${viaFr}`, en: `${capitalised(p.en)} shipped by ${supplier}${viaEn}` };
    }
    case 'SupplierLineRefused': {
      const p = product(event.data.saleProductId, products);
      const { supplier, reason, comment } = event.data;
      return {
        fr: `${capitalised(p.fr)} refusé par ${supplier} (${reason})${reasonFr(comment)}`,
        en: `${capitalised(p.en)} refused by ${supplier} (${reason})${reasonEn(comment)}`,
      };
    }
    case 'SupplierLineHandedOver': {
      const p = product(event.data.saleProductId, products);
      const { fromSupplier, toSupplier } = event.data;
      return {
        fr: `${capitalised(p.fr)} confié à ${toSupplier} à la place de ${fromSupplier}`,
        en: `${capitalised(p.en)} handed over from ${fromSupplier} to ${toSupplier}`,
      };
    }
    case 'SaleProductCancelled': {
      const p = product(event.data.saleProductId, products);
      return { fr: `${capitalised(p.fr)} annulé${reasonFr(event.data.reason)}`, en: `${capitalised(p.en)} cancelled${reasonEn(event.data.reason)}` };
    }
    case 'SaleCancelled':
      return { fr: `Commande annulée${reasonFr(event.data.reason)}`, en: `Order cancelled${reasonEn(event.data.reason)}` };
    case 'RefundRequested': {
      const { refundId, currency, reason, saleProductIds } = event.data;
      const total = amount(event.data.amount, currency);
      const list = productList(saleProductIds, products);
      return {
        fr: `Remboursement ${refundId} demandé : ${total} pour ${list.fr}${reasonFr(reason)}`,
        en: `Refund ${refundId} requested: ${total} for ${list.en}${reasonEn(reason)}`,
      };
    }
    case 'RefundPaid':
      return { fr: `Remboursement ${event.data.refundId} payé`, en: `Refund ${event.data.refundId} paid` };
    case 'SaleDeliveryAppointmentScheduled': {
      const { previous } = event.data;
      return {
        fr: `Rendez-vous de livraison fixé ${slotFr(event.data)}${replacesFr(previous)}`,
        en: `Delivery appointment scheduled ${slotEn(event.data)}${replacesEn(previous)}`,
      };
    }
    case 'DeliveryServiceAppointmentSaved': {
      const { provider, reference, date, timeWindow } = event.data;
      const windowFr = timeWindow ? `, créneau ${timeWindow}` : '';
      const windowEn = timeWindow ? `, time window ${timeWindow}` : '';
      return {
        fr: `Rendez-vous enregistré chez ${provider} (réf. ${reference}) ${date ? `pour le ${frenchDate(date)}` : 'date à confirmer'}${windowFr}`,
        en: `Appointment saved with ${provider} (ref. ${reference}) ${date ? `for ${date}` : 'date to be confirmed'}${windowEn}`,
      };
    }
    case 'TrackingNumberAllocated': {
      const p = product(event.data.saleProductId, products);
      const { supplier, trackingNumber } = event.data;
      return {
        fr: `Numéro de suivi ${trackingNumber} attribué au ${p.fr}, expédié par ${supplier}`,
        en: `Tracking number ${trackingNumber} allocated to ${p.en}, shipped by ${supplier}`,
      };
    }
    case 'ShippingLabelCreated': {
      const p = product(event.data.saleProductId, products);
      const { supplier, carrier, trackingNumber } = event.data;
      return {
        fr: `Étiquette d'expédition créée par ${supplier} pour le ${p.fr} : ${carrier ? `transporteur ${carrier}, ` : ''}suivi ${trackingNumber}`,
        en: `Shipping label created by ${supplier} for ${p.en}: ${carrier ? `carrier ${carrier}, ` : ''}tracking ${trackingNumber}`,
      };
    }
    case 'SavCreated': {
      const { savId, channel, complaintName, saleProductIds } = event.data;
      // The SAV carries its own snapshot of the products it covers.
      const covered: ProductNames = new Map(event.data.products.map((p) => [p.saleProductId, { sku: p.sku, name: p.name }]));
      const list = productList(saleProductIds, covered);
      return {
        fr: `SAV ${savId} créé (canal ${channel}) pour ${list.fr} : ${complaintName}`,
        en: `After-sales request ${savId} created (${channel} channel) for ${list.en}: ${complaintName}`,
      };
    }
    case 'SavAppointmentScheduled': {
      const { savId, previous } = event.data;
      return {
        fr: `Rendez-vous du SAV ${savId} fixé ${slotFr(event.data)}${replacesFr(previous)}`,
        en: `After-sales request ${savId} appointment scheduled ${slotEn(event.data)}${replacesEn(previous)}`,
      };
    }
    case 'SavFileAttached': {
      const { savId, kind, fileName } = event.data;
      const kindFr = { image: 'Image', video: 'Vidéo', document: 'Document' }[kind];
      return {
        fr: `${kindFr} « ${fileName} » ajouté(e) au SAV ${savId}`,
        en: `${capitalised(kind)} "${fileName}" attached to after-sales request ${savId}`,
      };
    }
    case 'SavResolved': {
      const { savId, resolution } = event.data;
      return { fr: `SAV ${savId} résolu : ${resolution}`, en: `After-sales request ${savId} resolved: ${resolution}` };
    }
    case 'SavClosed': {
      const { savId, releasedAppointment } = event.data;
      return { fr: `SAV ${savId} clôturé${releasedFr(releasedAppointment)}`, en: `After-sales request ${savId} closed${releasedEn(releasedAppointment)}` };
    }
    case 'SavReopened': {
      const { savId, reason, reopenedFrom } = event.data;
      const fromFr = reopenedFrom === 'closed' ? 'clôturé' : 'résolu';
      return { fr: `SAV ${savId} rouvert (il était ${fromFr}) : ${reason}`, en: `After-sales request ${savId} reopened (it was ${reopenedFrom}): ${reason}` };
    }
    case 'SavCancelled': {
      const { savId, reason, releasedAppointment } = event.data;
      return {
        fr: `SAV ${savId} annulé : ${reason}${releasedFr(releasedAppointment)}`,
        en: `After-sales request ${savId} cancelled: ${reason}${releasedEn(releasedAppointment)}`,
      };
    }
    case 'SavFileFetched': {
      const { savId, fileName, size } = event.data;
      return {
        fr: `Fichier « ${fileName} » du SAV ${savId} récupéré (${size} octets)`,
        en: `File "${fileName}" of after-sales request ${savId} fetched (${size} bytes)`,
      };
    }
    case 'SavFileFetchFailed': {
      const { savId, fileName, attempt, error, nextAttemptAt } = event.data;
      return nextAttemptAt === null
        ? {
            fr: `Fichier « ${fileName} » du SAV ${savId} abandonné après ${attempt} essai(s) : ${error}`,
            en: `File "${fileName}" of after-sales request ${savId} given up after ${attempt} attempt(s): ${error}`,
          }
        : {
            fr: `Essai ${attempt} de récupération du fichier « ${fileName} » du SAV ${savId} échoué : ${error}`,
            en: `Attempt ${attempt} to fetch file "${fileName}" of after-sales request ${savId} failed: ${error}`,
          };
    }
    default:
      return assertNever(event);
  }
};
