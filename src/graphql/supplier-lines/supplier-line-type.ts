import type { SupplierLineDocument } from '../../projections/supplier-lines/supplier-line-document.ts';
import { builder } from '../builder.ts';
import { LineRefusalRef, ProductStateEnum } from '../sales/sale-parts.ts';

/** A drop-shipped product as its supplier sees it (`supplier_lines` read model). */
export const SupplierLineRef = builder.objectRef<SupplierLineDocument>('SupplierLine').implement({
  fields: (t) => ({
    serviceOrderId: t.exposeString('_id'),
    supplier: t.exposeString('supplier'),
    saleProductId: t.exposeInt('saleProductId'),
    sku: t.exposeString('sku'),
    quantity: t.exposeInt('quantity'),
    price: t.exposeFloat('price', { nullable: true, description: 'Wholesale unit price; null when unknown.' }),
    carrier: t.exposeString('carrier', { nullable: true }),
    state: t.expose('state', { type: ProductStateEnum }),
    open: t.exposeBoolean('open', { description: 'True until shipped, cancelled or refused by its supplier.' }),
    acknowledgedAt: t.expose('acknowledgedAt', { type: 'DateTime', nullable: true }),
    shippedAt: t.expose('preparedAt', { type: 'DateTime', nullable: true }),
    cancelledAt: t.expose('cancelledAt', { type: 'DateTime', nullable: true }),
    trackingNumber: t.exposeString('trackingNumber', { nullable: true }),
    refusal: t.field({ type: LineRefusalRef, nullable: true, resolve: (line) => line.refusal ?? null }),
  }),
});
