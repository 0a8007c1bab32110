import { readDomainStream } from '../events/domain-store.ts';
import type { CustomerMailKind } from '../events/customer-mails/events.ts';
import { savStreamName, type SavEvent } from '../events/after-sales/events.ts';
import { trackingUrl } from '../events/sales/carrier-tracking.ts';
import { saleStreamName, type SaleEvent } from '../events/sales/events.ts';
import type { StoredEvent } from '../events/registry.ts';
import { erased } from '../events/schema/personal-data.ts';
import type { EventStore } from '../events/store/event-store.ts';
import type { CustomerMailContent } from '../mail/customer-mail.ts';

/**
 * Which events of the log owe the customer a mail, and what that mail says, read from the streams the
 * event belongs to (the sale, the SAV) as they stand when the mail is sent. The customer's address is
 * the order's (a SAV's own address when its request gave one); an erased customer's reads `[erased]`.
 */

export const customerMailSourceTypes = ['SaleProductShipped', 'SavCreated', 'SavAppointmentScheduled', 'SavResolved', 'SavClosed', 'RefundPaid'] as const;
type SourceType = (typeof customerMailSourceTypes)[number];
export type SourceEvent = Extract<SaleEvent | SavEvent, { type: SourceType }>;

export const mailKindOf = (event: SourceEvent): CustomerMailKind => {
  switch (event.type) {
    case 'SaleProductShipped':
      return 'line_shipped';
    case 'SavCreated':
      return 'sav_opened';
    case 'SavAppointmentScheduled':
      return event.data.previous === null ? 'sav_appointment_booked' : 'sav_appointment_moved';
    case 'SavResolved':
      return 'sav_resolved';
    case 'SavClosed':
      return 'sav_closed';
    case 'RefundPaid':
      return 'refund_paid';
  }
};

export type MailToSend =
  | { status: 'send'; customer: { email: string; firstname: string }; content: CustomerMailContent }
  | { status: 'skip'; reason: 'customer_erased' | 'no_address' };

type SaleFacts = { events: StoredEvent<SaleEvent>[]; customer: { email: string; firstname: string } | null };

const readSale = async (store: EventStore, incrementId: string): Promise<SaleFacts> => {
  const { events } = await readDomainStream<SaleEvent>(store, saleStreamName(incrementId));
  const imported = events.find((event) => event.type === 'SaleImported');
  const customer = imported?.type === 'SaleImported' ? { email: imported.data.customer.email, firstname: imported.data.customer.firstname } : null;
  return { events, customer };
};

const readSav = async (store: EventStore, savId: number) => (await readDomainStream<SavEvent>(store, savStreamName(savId))).events;

const addressed = (customer: { email: string; firstname: string } | null, content: CustomerMailContent): MailToSend => {
  if (customer === null) return { status: 'skip', reason: 'no_address' };
  if (customer.email === erased || customer.firstname === erased) return { status: 'skip', reason: 'customer_erased' };
  return { status: 'send', customer, content };
};

const incrementIdOfSale = (events: readonly StoredEvent<SaleEvent>[]): string | null => {
  const imported = events.find((event) => event.type === 'SaleImported');
  return imported?.type === 'SaleImported' ? imported.data.incrementId : null;
};

/** The SAV's customer: the address its request gave, else its sale's customer's (the first name from the sale). */
export const savCustomer = async (
  store: EventStore,
  savId: number,
): Promise<{ customer: { email: string; firstname: string } | null; sav: StoredEvent<SavEvent>[] }> => {
  const sav = await readSav(store, savId);
  const created = sav.find((event) => event.type === 'SavCreated');
  if (created?.type !== 'SavCreated') return { customer: null, sav };
  const sale = await readSale(store, created.data.incrementId);
  if (sale.customer === null) return { customer: null, sav };
  const email = created.data.customerEmail ?? sale.customer.email;
  return { customer: { email: email === erased ? erased : email, firstname: sale.customer.firstname }, sav };
};

/** The mail an event owes, as the log reads now. `saleIncrementId` names the sale stream a sale event belongs to. */
export const mailFor = async (store: EventStore, event: StoredEvent<SourceEvent>): Promise<MailToSend> => {
  switch (event.type) {
    case 'SaleProductShipped':
    case 'RefundPaid': {
      const incrementId = event.streamName.slice('sale-'.length);
      const sale = await readSale(store, incrementId);
      if (event.type === 'RefundPaid') {
        const requested = sale.events.find((candidate) => candidate.type === 'RefundRequested' && candidate.data.refundId === event.data.refundId);
        if (requested?.type !== 'RefundRequested') return { status: 'skip', reason: 'no_address' };
        const { amount, currency } = requested.data;
        return addressed(sale.customer, { kind: 'refund_paid', incrementId: incrementIdOfSale(sale.events) ?? incrementId, amount, currency });
      }
      const { saleProductId } = event.data;
      const imported = sale.events.find((candidate) => candidate.type === 'SaleImported');
      const product = imported?.type === 'SaleImported' ? imported.data.products.find((item) => item.saleProductId === saleProductId) : undefined;
      let trackingNumber: string | null = null;
      let carrier = product?.carrier ?? null;
      for (const candidate of sale.events) {
        if ((candidate.type === 'TrackingNumberAllocated' || candidate.type === 'ShippingLabelCreated') && candidate.data.saleProductId === saleProductId) {
          trackingNumber = candidate.data.trackingNumber;
          if (candidate.type === 'ShippingLabelCreated') carrier = candidate.data.carrier ?? carrier;
        }
      }
      return addressed(sale.customer, {
        kind: 'line_shipped',
        incrementId,
        productName: product?.name ?? `article ${saleProductId}`,
        carrier,
        trackingNumber,
        trackingUrl: trackingNumber === null ? null : trackingUrl(carrier, trackingNumber),
      });
    }
    case 'SavCreated': {
      const { customer } = await savCustomer(store, event.data.savId);
      return addressed(customer, {
        kind: 'sav_opened',
        savId: event.data.savId,
        incrementId: event.data.incrementId,
        productNames: event.data.products.map((product) => product.name),
      });
    }
    case 'SavAppointmentScheduled': {
      const { customer } = await savCustomer(store, event.data.savId);
      const { savId, date, time } = event.data;
      return addressed(customer, { kind: mailKindOf(event) as 'sav_appointment_booked' | 'sav_appointment_moved', savId, date, time });
    }
    case 'SavResolved':
    case 'SavClosed': {
      const { customer } = await savCustomer(store, event.data.savId);
      return addressed(customer, { kind: event.type === 'SavResolved' ? 'sav_resolved' : 'sav_closed', savId: event.data.savId });
    }
  }
};
