import { assertNever } from '../../events/decider.ts';
import type { EventOfType, StoredEvent } from '../../events/catalogue/catalogue.ts';
import { applyOnce, type Projection } from '../projection.ts';
import type { ReadStore, UpdateFilter } from '../read-store/read-store.ts';
import { localDateIn } from '../sales/order-date.ts';
import {
  dashboardDaysCollection,
  dashboardRefundId,
  dashboardRefundsCollection,
  type DashboardDayDocument,
  type DashboardRefundDocument,
} from './dashboard-documents.ts';

const eventTypes = [
  'SaleImported',
  'SaleProductCancelled',
  'SaleCancelled',
  'RefundRequested',
  'RefundPaid',
  'SavCreated',
  'ContactLeadCaptured',
] as const;
type Handled = EventOfType<(typeof eventTypes)[number]>;
const handled = new Set<string>(eventTypes);

// Amounts are decimals rounded to the cent; cutting to 15 significant digits first drops the binary noise.
const toCents = (amount: number): number => Math.round(Number((amount * 100).toPrecision(15)));

/** The daily business figures of the analysts' dashboard. */
export const dashboardProjection = (options: { timezone: string }): Projection => {
  const localDate = localDateIn(options.timezone);
  return {
    name: 'dashboard',
    version: 1,
    eventTypes,
    collections: [dashboardDaysCollection, dashboardRefundsCollection],

    async setup(store: ReadStore) {
      await store.collection<DashboardDayDocument>(dashboardDaysCollection).createIndex({ date: 1 });
    },

    async apply(stored: StoredEvent, store: ReadStore) {
      if (!handled.has(stored.type)) return;
      const event = stored as StoredEvent<Handled>;
      const days = store.collection<DashboardDayDocument>(dashboardDaysCollection);
      const refunds = store.collection<DashboardRefundDocument>(dashboardRefundsCollection);

      const updateDay = (at: string, update: UpdateFilter<DashboardDayDocument>) => {
        const date = localDate(at);
        return applyOnce(days, date, event.position, { ...update, $set: { date } }, { upsert: true });
      };

      switch (event.type) {
        case 'SaleImported':
          await updateDay(event.data.orderedAt, { $inc: { orders: 1, revenueCents: toCents(event.data.grandTotal) } });
          return;
        case 'SaleProductCancelled':
          await updateDay(event.data.cancelledAt, { $inc: { cancelledProducts: 1 } });
          return;
        case 'SaleCancelled':
          await updateDay(event.data.cancelledAt, { $inc: { cancelledOrders: 1 } });
          return;
        case 'RefundRequested': {
          const { saleId, refundId, amount, requestedAt } = event.data;
          const amountCents = toCents(amount);
          await applyOnce(refunds, dashboardRefundId(saleId, refundId), event.position, { $set: { amountCents } }, { upsert: true });
          await updateDay(requestedAt, { $inc: { refundRequestedCents: amountCents } });
          return;
        }
        case 'RefundPaid': {
          const { saleId, refundId, paidAt } = event.data;
          const refund = await refunds.findOne({ _id: dashboardRefundId(saleId, refundId) });
          // The write side pays only a requested refund, so it is known; paying it twice records nothing.
          if (!refund) return;
          await updateDay(paidAt, { $inc: { refundPaidCents: refund.amountCents } });
          return;
        }
        case 'SavCreated': {
          const { complaintName, savType, createdAt } = event.data;
          await updateDay(createdAt, { $inc: { savs: 1 }, $push: { savCategories: complaintName, savTypes: savType } });
          return;
        }
        case 'ContactLeadCaptured':
          await updateDay(event.data.capturedAt, { $inc: { leads: 1 } });
          return;
        default:
          return assertNever(event);
      }
    },
  };
};
