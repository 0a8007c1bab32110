import type { Tracked } from '../projection.ts';

/** The `customers` read model: one document per e-mail address, `_id` = the address lower-cased. */

export const customersCollection = 'customers';

export type CustomerDocument = Tracked & {
  _id: string;
  /** As written on the latest order. */
  email: string;
  firstname: string;
  lastname: string;
  /** When the latest order was placed, as a UTC instant: names follow the latest order, whatever the import order. */
  latestOrderedAt: string;
  saleIds: number[];
  /** The SAVs filed on this customer's sales. */
  savIds: number[];
};
