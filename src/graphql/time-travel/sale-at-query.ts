import { builder } from '../builder.ts';
import { badUserInput } from '../errors.ts';
import { findSaleByKey } from '../sales/sale-lookup.ts';
import { saleAt, type AsOf } from './sale-at.ts';
import { SaleSnapshotRef } from './sale-snapshot-type.ts';

type AsOfArgs = { at?: string | null; position?: number | null };

const AsOfInput = builder.inputRef<AsOfArgs>('AsOf').implement({
  description: 'A moment of the log: exactly one of an instant or a global position (both inclusive).',
  fields: (t) => ({ at: t.field({ type: 'DateTime' }), position: t.field({ type: 'Position' }) }),
});

const asOfOf = (args: AsOfArgs): AsOf => {
  const hasAt = args.at !== undefined && args.at !== null;
  const hasPosition = args.position !== undefined && args.position !== null;
  if (hasAt === hasPosition) throw badUserInput('asOf', 'give exactly one of at and position');
  return hasAt ? { at: args.at! } : { position: args.position! };
};

builder.queryField('saleAt', (t) =>
  t.field({
    type: SaleSnapshotRef,
    nullable: true,
    description: 'The sale as it stood at that moment (time travel); null when it is unknown or did not exist yet.',
    args: { id: t.arg.int(), incrementId: t.arg.string(), asOf: t.arg({ type: AsOfInput, required: true }) },
    resolve: async (_root, args, { runtime }) => {
      const asOf = asOfOf(args.asOf);
      // The read model names the sale's stream; the state itself comes only from the stream.
      const sale = await findSaleByKey(runtime.readStore, args);
      return sale ? saleAt(runtime.eventStore, sale.incrementId, asOf) : null;
    },
  }),
);
