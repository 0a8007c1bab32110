import { builder } from '../builder.ts';
import { findSaleByKey } from './sale-lookup.ts';
import { SaleRef } from './sale-type.ts';

builder.queryField('sale', (t) =>
  t.field({
    type: SaleRef,
    nullable: true,
    description: 'One sale, by its sale ID or its increment ID (exactly one); null when unknown.',
    args: { id: t.arg.int(), incrementId: t.arg.string() },
    resolve: (_root, args, { runtime }) => findSaleByKey(runtime.readStore, args),
  }),
);
