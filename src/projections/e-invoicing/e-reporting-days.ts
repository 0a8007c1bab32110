import { administrationDay } from '../../events/e-invoicing/administration-day.ts';
import {
  cancelledAmounts,
  reportedSale,
  saleAmounts,
  skuTermsOf,
  sumAmounts,
  transactionCategoryOf,
  type AmountsByCategory,
} from '../../events/e-invoicing/e-reporting-amounts.ts';
import { eReportingDocumentId } from '../../events/e-invoicing/events.ts';
import { vatRateOfPercent } from '../../events/invoicing/vat.ts';
import type { EventOfType, StoredEvent } from '../../events/registry.ts';
import { evolveOnce, insertOnce } from '../projection.ts';
import type { Filter, ReadStore } from '../read-store/read-store.ts';
import { eReportingSalesCollection, eReportingSkusCollection, type EReportingSale, type EReportingSku } from './e-reporting-sources.ts';
import { platformDocumentsCollection, type PlatformDocument } from './platform-document.ts';

/**
 * The days of consumer sales (`ER-<date>`), counted from the sales themselves as they are recorded
 * (events/e-invoicing/e-reporting-amounts.ts says what each adds and takes away), each on its day in
 * France (administration-day.ts). Every step is idempotent: the SKU and sale documents, and each day,
 * remember the last event they applied.
 */

type Fields = Omit<PlatformDocument, '_id' | '_position'>;

export const pendingTransmission: PlatformDocument['transmission'] = {
  status: 'pending',
  attempts: 0,
  lastError: null,
  nextAttemptAt: null,
  sentAt: null,
  platformReference: null,
};

const skus = (store: ReadStore) => store.collection<EReportingSku>(eReportingSkusCollection);
const sales = (store: ReadStore) => store.collection<EReportingSale>(eReportingSalesCollection);
const days = (store: ReadStore) => store.collection<PlatformDocument>(platformDocumentsCollection);

/** The day as it is, or as a day with nothing counted yet. */
const dayOf = (current: PlatformDocument | null, date: string, currency: string): Fields =>
  current ?? {
    kind: 'e-reporting',
    date,
    documents: [],
    sales: 0,
    cancelledLines: 0,
    recordedAfterSending: 0,
    amounts: {},
    currency,
    transmission: pendingTransmission,
    platformStatus: null,
    lifecycleOver: false,
  };

/** Adds to a day; what reaches a day already handed to the platform is counted and said so (`recordedAfterSending`). */
const addToDay = (
  store: ReadStore,
  position: number,
  date: string,
  currency: string,
  change: { sales: number; cancelledLines: number; amounts: AmountsByCategory },
) =>
  evolveOnce(days(store), eReportingDocumentId(date), position, (current): Fields => {
    const day = dayOf(current, date, currency);
    return {
      ...day,
      sales: day.sales + change.sales,
      cancelledLines: day.cancelledLines + change.cancelledLines,
      recordedAfterSending: day.recordedAfterSending + (day.transmission.status === 'sent' ? 1 : 0),
      amounts: sumAmounts(day.amounts, change.amounts),
    };
  });

/** A catalogued product's terms, and a change of its rate or category. A change to a SKU never catalogued changes nothing, as in its stream. */
export const applyCatalogue = async (event: StoredEvent<EventOfType<'ProductCatalogued' | 'ProductUpdated'>>, store: ReadStore): Promise<void> => {
  if (event.type === 'ProductCatalogued') {
    const { product } = event.data;
    await evolveOnce(skus(store), product.sku, event.position, () => skuTermsOf(product));
    return;
  }
  const { vat_rate: percent, operation_category: category } = event.data.changes;
  if (percent === undefined && category === undefined) return;
  await evolveOnce(
    skus(store),
    event.data.sku,
    event.position,
    (current) =>
      current && {
        ...current,
        rate: percent === undefined ? current.rate : vatRateOfPercent(percent),
        category: category === undefined ? current.category : transactionCategoryOf(category),
      },
  );
};

/** A consumer sale adds its amounts to the day it was recorded; a business customer's sale is an e-invoice of its own. */
export const applySaleImported = async (event: StoredEvent<EventOfType<'SaleImported'>>, store: ReadStore): Promise<void> => {
  const { data } = event;
  if (data.businessCustomer) return;
  // Counted once: a replay finds the sale as it was counted, whatever the catalogue says by then.
  let sale = await sales(store).findOne({ _id: data.saleId });
  if (!sale) {
    const wanted = [...new Set(data.products.map((product) => product.sku))];
    const terms = new Map(
      (
        await skus(store)
          .find({ _id: { $in: wanted } } as Filter<EReportingSku>)
          .toArray()
      ).map((sku) => [sku._id, sku]),
    );
    sale = {
      _id: data.saleId,
      _position: event.position,
      date: administrationDay(data.importedAt),
      currency: data.currency,
      ...reportedSale(data, (sku) => terms.get(sku)),
    };
    await insertOnce(sales(store), sale);
  }
  await addToDay(store, event.position, sale.date, sale.currency, { sales: 1, cancelledLines: 0, amounts: saleAmounts(sale) });
};

/**
 * A cancelled line of a consumer sale takes its amount from the day the cancellation was recorded. A
 * whole-sale cancellation is recorded as one SaleProductCancelled per line it cancels, then SaleCancelled,
 * which takes nothing more: the shipping fee is not refunded.
 */
export const applyLineCancelled = async (event: StoredEvent<EventOfType<'SaleProductCancelled'>>, store: ReadStore): Promise<void> => {
  const sale = await sales(store).findOne({ _id: event.data.saleId });
  if (!sale) return;
  const amounts = cancelledAmounts(sale, [event.data.saleProductId]);
  await addToDay(store, event.position, administrationDay(event.data.cancelledAt), sale.currency, { sales: 0, cancelledLines: 1, amounts });
};
