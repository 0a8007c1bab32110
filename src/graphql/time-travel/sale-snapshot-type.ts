import type { Sale, SaleProductState } from '../../events/sales/state.ts';
import { saleStatus } from '../../events/sales/state.ts';
import { serviceOrderId } from '../../events/sales/service-order-id.ts';
import { labelPathFor } from '../../files/label-path.ts';
import { productState, type SaleProductDocument } from '../../projections/sales/sale-document.ts';
import { builder } from '../builder.ts';
import {
  AddressRef,
  CustomerRef,
  DeliveryAppointmentRef,
  DeliveryServiceAppointmentRef,
  RefundRef,
  SaleProductRef,
  SaleStatusEnum,
} from '../sales/sale-parts.ts';

/** A sale as its stream stood at some point: the write side's state, and the last event folded into it. */
export type SaleSnapshot = {
  sale: Sale;
  position: number;
  revision: number;
  occurredAt: string;
};

/** The write side's product, in the shape the read model shows products in (same GraphQL type). */
const asProductView =
  (incrementId: string) =>
  (product: SaleProductState): SaleProductDocument => ({
    ...product,
    state: productState(product),
    // Labels are served at a fixed path, as the read model records it.
    labelPath:
      product.supplier === null || product.trackingNumber === null ? null : labelPathFor(product.supplier, serviceOrderId(incrementId, product.saleProductId)),
  });

export const SaleSnapshotRef = builder.objectRef<SaleSnapshot>('SaleSnapshot').implement({
  description: 'A sale as it stood at a moment of its history, folded from its events with the write side’s evolve.',
  fields: (t) => ({
    position: t.expose('position', { type: 'Position', description: 'The position of the last event folded in.' }),
    revision: t.exposeInt('revision', { description: 'The stream revision of the last event folded in.' }),
    occurredAt: t.expose('occurredAt', { type: 'DateTime', description: 'When the last event folded in occurred.' }),
    saleId: t.int({ resolve: ({ sale }) => sale.saleId }),
    incrementId: t.string({ resolve: ({ sale }) => sale.incrementId }),
    status: t.field({ type: SaleStatusEnum, resolve: ({ sale }) => saleStatus(sale) }),
    orderedAt: t.field({ type: 'DateTime', resolve: ({ sale }) => sale.orderedAt }),
    currency: t.string({ resolve: ({ sale }) => sale.currency }),
    customer: t.field({ type: CustomerRef, resolve: ({ sale }) => ({ ...sale.customer, emailLower: sale.customer.email.toLowerCase() }) }),
    shippingAddress: t.field({ type: AddressRef, resolve: ({ sale }) => sale.shippingAddress }),
    grandTotal: t.float({ resolve: ({ sale }) => sale.grandTotal }),
    products: t.field({ type: [SaleProductRef], resolve: ({ sale }) => sale.products.map(asProductView(sale.incrementId)) }),
    refunds: t.field({ type: [RefundRef], resolve: ({ sale }) => sale.refunds }),
    deliveryAppointment: t.field({ type: DeliveryAppointmentRef, nullable: true, resolve: ({ sale }) => sale.deliveryAppointment }),
    deliveryServiceAppointment: t.field({
      type: DeliveryServiceAppointmentRef,
      nullable: true,
      resolve: ({ sale }) => sale.deliveryServiceAppointment,
    }),
    cancelledAt: t.field({ type: 'DateTime', nullable: true, resolve: ({ sale }) => sale.cancelledAt }),
  }),
});
