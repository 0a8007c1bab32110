import type { Filter, ReadStore } from '../read-store/read-store.ts';
import { savsCollection, type SavDocument } from './sav-document.ts';

/** Reads of the `savs` read model. */

/** Whose SAVs: a customer's (by e-mail, any case) or an order's (by increment ID); optionally narrowed to a product. */
export type SavLookup = ({ email: string; incrementId?: never } | { incrementId: string; email?: never }) & {
  productSku?: string;
  saleProductId?: number;
};

export const findSavById = (store: ReadStore, savId: number): Promise<SavDocument | null> =>
  store.collection<SavDocument>(savsCollection).findOne({ _id: savId });

/** The matching SAVs in the order they were filed. */
export const findSavs = (store: ReadStore, lookup: SavLookup): Promise<SavDocument[]> => {
  const filter: Filter<SavDocument> = lookup.email !== undefined ? { customerEmailLower: lookup.email.toLowerCase() } : { incrementId: lookup.incrementId };
  if (lookup.productSku !== undefined) filter['products.sku'] = lookup.productSku;
  if (lookup.saleProductId !== undefined) filter.saleProductIds = lookup.saleProductId;
  return store
    .collection<SavDocument>(savsCollection)
    .find(filter, { sort: { _id: 1 } })
    .toArray();
};

export type DueSavFile = { savId: number; fileId: string; nextAttemptAt: string };

/**
 * The files given by URL whose fetch is due at `now` (a UTC instant), longest due first: proposals
 * only, each checked against its SAV's stream before it is fetched. Few SAVs have a pending file at a
 * time (a fetch is settled within two hours), so they are all read.
 */
export const dueSavFiles = async (store: ReadStore, now: string, limit: number): Promise<DueSavFile[]> => {
  const savs = await store
    .collection<SavDocument>(savsCollection)
    .find({ 'files.state': 'pending' }, { sort: { _id: 1 } })
    .toArray();
  const due = savs.flatMap((sav) =>
    sav.files.flatMap(({ fileId, state, nextAttemptAt }) =>
      state === 'pending' && nextAttemptAt !== null && nextAttemptAt <= now ? [{ savId: sav._id, fileId, nextAttemptAt }] : [],
    ),
  );
  return due.sort((left, right) => left.nextAttemptAt.localeCompare(right.nextAttemptAt)).slice(0, limit);
};
