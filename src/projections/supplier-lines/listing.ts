import type { SupplierLineDocument } from './supplier-line-document.ts';

/**
 * A line as `GET /api/{supplier}/get-sales` lists it, rendered once, when the line changes, rather than
 * at every poll: the JSON text of the listed object, in the documented order of its fields, split where
 * the service's base URL goes in the label link (`listingHead + base URL + listingTail`), so that the
 * base URL stays configuration; the link's signature, made per answer, goes after its path, which
 * opens `listingTail` up to its first quote. A supplier's page is then its lines' texts joined, read
 * from the index alone (see the projection's indexes). A closed line is no longer listed: null.
 */
export type Listing = Pick<SupplierLineDocument, 'listingHead' | 'listingTail'>;

type Listed = Pick<SupplierLineDocument, '_id' | 'supplier' | 'sku' | 'quantity' | 'price' | 'orderDate' | 'carrier' | 'open'>;

export const listingOf = (line: Listed): Listing => {
  if (!line.open) return { listingHead: null, listingTail: null };
  const head = JSON.stringify({ service_order_id: line._id, sku: line.sku, quantity: line.quantity, price: line.price, link_to_label: '' });
  const tail = JSON.stringify({ link_to_label: `/api/files/labels/${line.supplier}/${line._id}.pdf`, order_date: line.orderDate, carrier: line.carrier });
  return {
    // Up to and including the link's opening quote; from its path to the end.
    listingHead: head.slice(0, -2),
    listingTail: tail.slice('{"link_to_label":"'.length),
  };
};

/**
 * The listed object's JSON text under `baseUrl`, its label link ending with `linkQuery` (as it goes in
 * a JSON string: `?expires=...&signature=...` needs no escaping). The link's path holds no quote, so
 * the tail's first one closes the link.
 */
export const listedLine = (listing: { listingHead: string; listingTail: string }, baseUrlInJson: string, linkQuery = ''): string => {
  const linkEnd = listing.listingTail.indexOf('"');
  return listing.listingHead + baseUrlInJson + listing.listingTail.slice(0, linkEnd) + linkQuery + listing.listingTail.slice(linkEnd);
};

/** The base URL as it appears inside a JSON string (escaped once, for every line of every page). */
export const baseUrlInJson = (baseUrl: string): string => JSON.stringify(baseUrl).slice(1, -1);
