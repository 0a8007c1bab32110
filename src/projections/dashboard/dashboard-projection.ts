import { assertNever } from '../../events/decider.ts';
import type { EventOfType, StoredEvent } from '../../events/registry.ts';
import { evolveOnce, type Projection } from '../projection.ts';
import type { ReadStore } from '../read-store/read-store.ts';
import { changeDay, type CalendarDocument } from '../running-totals.ts';
import { localDateIn } from '../../time/local-dates.ts';
import { toCents } from '../../events/schema/money.ts';
import {
  counted,
  dashboardCalendarsCollection,
  dashboardDaysCollection,
  dashboardMonthsCollection,
  dashboardRefundId,
  dashboardRefundsCollection,
  noDashboardSums,
  type DashboardDayDocument,
  type DashboardMonthDocument,
  type DashboardRefundDocument,
  type DashboardSums,
} from './dashboard-documents.ts';

const eventTypes = [
  'SaleImported',
  'SaleProductCancelled',
  'SaleCancelled',
  'RefundRequested',
  'RefundPaid',
  'SavCreated',
  'SavResolved',
  'SavReopened',
  'SavCancelled',
  'ContactLeadCaptured',
] as const;
type Handled = EventOfType<(typeof eventTypes)[number]>;
const handled = new Set<string>(eventTypes);

export const dashboardProjectionName = 'dashboard';

/** The daily business figures of the analysts' dashboard. */
export const dashboardProjection = (options: { timezone: string }): Projection => {
  const localDate = localDateIn(options.timezone);
  return {
    name: dashboardProjectionName,
    // 2: SAVs counted per category and type in the day document, instead of listed one by one.
    // 3: rebuilt from events read with bounded amounts: an old log's 1e308 overflowed the day's revenue.
    // 4: the month documents, so that a year by month reads twelve of them rather than its days.
    version: 4,
    eventTypes,
    collections: [dashboardDaysCollection, dashboardMonthsCollection, dashboardCalendarsCollection, dashboardRefundsCollection],

    async setup(store: ReadStore) {
      await store.collection<DashboardDayDocument>(dashboardDaysCollection).createIndex({ date: 1 });
    },

    async apply(stored: StoredEvent, store: ReadStore) {
      if (!handled.has(stored.type)) return;
      const event = stored as StoredEvent<Handled>;
      const refunds = store.collection<DashboardRefundDocument>(dashboardRefundsCollection);

      /**
       * The sums of the local day of `at` and of its month, changed; `opened` SAVs more in progress from
       * that day on (fewer when negative).
       */
      const onDay = async (at: string, change: (sums: DashboardSums) => void, opened = 0) => {
        const date = localDate(at);
        await changeDay(
          {
            days: store.collection<DashboardDayDocument>(dashboardDaysCollection),
            calendars: store.collection<CalendarDocument>(dashboardCalendarsCollection),
            dayId: (day) => day,
            scope: 'days',
          },
          date,
          event.position,
          (current) => {
            const day = current === null ? { date, ...noDashboardSums(), savsUpTo: 0 } : { ...current };
            change(day);
            return day;
          },
          { savs: opened },
        );
        await evolveOnce(store.collection<DashboardMonthDocument>(dashboardMonthsCollection), date.slice(0, 7), event.position, (current) => {
          const month = current === null ? { ...noDashboardSums(), savsChange: 0 } : { ...current };
          change(month);
          month.savsChange += opened;
          return month;
        });
      };

      switch (event.type) {
        case 'SaleImported': {
          const cents = toCents(event.data.grandTotal);
          await onDay(event.data.orderedAt, (sums) => {
            sums.orders += 1;
            sums.revenueCents += cents;
          });
          return;
        }
        case 'SaleProductCancelled':
          await onDay(event.data.cancelledAt, (sums) => (sums.cancelledProducts += 1));
          return;
        case 'SaleCancelled':
          await onDay(event.data.cancelledAt, (sums) => (sums.cancelledOrders += 1));
          return;
        case 'RefundRequested': {
          const { saleId, refundId, amount, requestedAt } = event.data;
          const amountCents = toCents(amount);
          await evolveOnce(refunds, dashboardRefundId(saleId, refundId), event.position, () => ({ amountCents }));
          await onDay(requestedAt, (sums) => (sums.refundRequestedCents += amountCents));
          return;
        }
        case 'RefundPaid': {
          const { saleId, refundId, paidAt } = event.data;
          const refund = await refunds.findOne({ _id: dashboardRefundId(saleId, refundId) });
          // The write side pays only a requested refund, so it is known; paying it twice records nothing.
          if (!refund) return;
          await onDay(paidAt, (sums) => (sums.refundPaidCents += refund.amountCents));
          return;
        }
        case 'SavCreated': {
          const { complaintName, savType, createdAt } = event.data;
          await onDay(
            createdAt,
            (sums) => {
              sums.savs += 1;
              sums.savsByCategory = counted(sums.savsByCategory, complaintName);
              sums.savsByType = counted(sums.savsByType, savType);
            },
            1,
          );
          return;
        }
        // The backlog counts the SAVs in progress: resolving or cancelling one takes it out, reopening
        // puts it back; closing a resolved one changes nothing. No day figure is kept for them.
        case 'SavResolved':
          await onDay(event.data.resolvedAt, () => undefined, -1);
          return;
        case 'SavCancelled':
          await onDay(event.data.cancelledAt, () => undefined, -1);
          return;
        case 'SavReopened':
          await onDay(event.data.reopenedAt, () => undefined, 1);
          return;
        case 'ContactLeadCaptured':
          await onDay(event.data.capturedAt, (sums) => (sums.leads += 1));
          return;
        default:
          return assertNever(event);
      }
    },
  };
};
