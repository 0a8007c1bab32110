import type { Filter } from '../../projections/read-store/read-store.ts';
import type { SaleDocument } from '../../projections/sales/sale-document.ts';
import { builder } from '../builder.ts';
import { SaleStatusEnum } from './sale-parts.ts';

/** The filter of the `sales` connection, and the read-model filter it stands for. */

export type SalesFilter = {
  status?: SaleDocument['status'] | null;
  orderedFrom?: string | null;
  orderedTo?: string | null;
  customerEmail?: string | null;
  supplier?: string | null;
  hasSav?: boolean | null;
};

export const SalesFilterInput = builder.inputRef<SalesFilter>('SalesFilter').implement({
  fields: (t) => ({
    status: t.field({ type: SaleStatusEnum }),
    orderedFrom: t.field({ type: 'LocalDate', description: 'Inclusive, on the order date in the planning time zone.' }),
    orderedTo: t.field({ type: 'LocalDate', description: 'Inclusive, on the order date in the planning time zone.' }),
    customerEmail: t.string({ description: 'Any case.' }),
    supplier: t.string({ description: 'Sales with at least one product drop-shipped by this supplier (supplier-a, supplier-b).' }),
    hasSav: t.boolean({ description: 'True: sales with at least one SAV; false: sales with none.' }),
  }),
});

const given = <T>(value: T | null | undefined): value is T => value !== undefined && value !== null;

export const salesReadFilter = (filter: SalesFilter | null | undefined): Filter<SaleDocument> => {
  const read: Filter<SaleDocument> = {};
  if (!filter) return read;
  if (given(filter.status)) read.status = filter.status;
  if (given(filter.orderedFrom) || given(filter.orderedTo)) {
    read.orderDate = { ...(given(filter.orderedFrom) && { $gte: filter.orderedFrom }), ...(given(filter.orderedTo) && { $lte: filter.orderedTo }) };
  }
  if (given(filter.customerEmail)) read['customer.emailLower'] = filter.customerEmail.toLowerCase();
  if (given(filter.supplier)) read['products.supplier'] = filter.supplier;
  if (given(filter.hasSav)) Object.assign(read, filter.hasSav ? { 'savIds.0': { $exists: true } } : { savIds: { $size: 0 } });
  return read;
};
