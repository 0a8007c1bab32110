import { builder } from '../builder.ts';
import { SaleLogEntryRef } from './sale-log-entry-type.ts';
import { saleLogOfSaleId } from './sale-log.ts';

builder.queryField('saleLog', (t) =>
  t.field({
    type: [SaleLogEntryRef],
    nullable: true,
    description: 'Every event of the sale and of its SAVs, in log order, with its actor and a summary line; null when the sale is unknown.',
    args: { saleId: t.arg.int({ required: true }) },
    resolve: (_root, { saleId }, { runtime }) => saleLogOfSaleId(runtime.readStore, runtime.eventStore, saleId),
  }),
);
