import { resolveCursorConnection, type ResolveCursorConnectionArgs } from '@pothos/plugin-relay';
import { salesCollection, type SaleDocument } from '../../projections/sales/sale-document.ts';
import { builder } from '../builder.ts';
import { itemsCountedAbove, pageOf } from '../cost.ts';
import { badUserInput } from '../errors.ts';
import { SalesFilterInput, salesReadFilter } from './sales-filter.ts';
import { SaleRef } from './sale-type.ts';

/**
 * The `sales` connection, in sale ID order (the order sales were imported in). The cursor is the
 * sale ID, opaque to clients; a page reads one more sale than asked to know whether another follows.
 */

const cursorOf = (sale: SaleDocument): string => Buffer.from(`sale:${sale._id}`, 'utf8').toString('base64url');

const saleIdOf = (cursor: string, field: string): number => {
  const match = /^sale:(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) throw badUserInput(field, 'not a cursor of this connection');
  return Number(match[1]);
};

builder.queryField('sales', (t) =>
  t.connection(
    {
      type: SaleRef,
      description: 'Sales matching the filter, in sale ID order; at most 100 per page (default 20).',
      args: { filter: t.arg({ type: SalesFilterInput }) },
      // The field and its edges, and each sale read; what is asked of an edge, once per sale.
      complexity: ({ first, last }) => ({ field: 2 + pageOf(first ?? last, 20), multiplier: pageOf(first ?? last, 20) }),
      resolve: (_root, args, { runtime }) =>
        resolveCursorConnection(
          { args, toCursor: cursorOf, defaultSize: 20, maxSize: 100 },
          ({ before, after, limit, inverted }: ResolveCursorConnectionArgs) => {
            const range = {
              ...(after !== undefined && { $gt: saleIdOf(after, 'after') }),
              ...(before !== undefined && { $lt: saleIdOf(before, 'before') }),
            };
            const filter = { ...salesReadFilter(args.filter), ...(Object.keys(range).length > 0 && { _id: range }) };
            return runtime.readStore
              .collection<SaleDocument>(salesCollection)
              .find(filter, { sort: { _id: inverted ? -1 : 1 }, limit })
              .toArray();
          },
        ),
    },
    { name: 'SaleConnection', edgesField: { complexity: itemsCountedAbove } },
    { name: 'SaleEdge' },
  ),
);
