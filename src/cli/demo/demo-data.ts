import { buildCatalog } from './catalog.ts';
import type { CatalogItem, OrderPayload } from './contract-types.ts';
import { generateOrders } from './orders.ts';
import { seededRandom } from './random.ts';

export type { CatalogItem, OrderPayload } from './contract-types.ts';

/**
 * Demo data of a French furniture and appliance retailer, in the shapes of the catalog and order
 * import contracts. Everything derives from the seed: the same seed gives the same data, byte for byte.
 */

/** About 120 products, valid against the catalog-import contract (`cli catalog schema`). */
export function demoCatalog(seed: number): CatalogItem[] {
  return buildCatalog(seededRandom(seed, 'catalog'));
}

export interface DemoOrderOptions {
  seed: number;
  count: number;
  /** Where order lines take their products from, usually demoCatalog(seed). */
  catalog: readonly CatalogItem[];
  /** Orders are placed within [from, to], in increment_id order. */
  from: Date;
  to: Date;
}

/**
 * `count` orders valid against the order-import contract (`cli orders schema`), made one at a time as they are iterated:
 * memory stays flat whatever the count. Each iteration starts over and yields the same orders.
 */
export function demoOrders(options: DemoOrderOptions): Iterable<OrderPayload> {
  const { seed, count, catalog, from, to } = options;
  if (!Number.isSafeInteger(count) || count < 0) throw new RangeError(`count must be a non-negative integer, got ${count}`);
  if (Number.isNaN(from.getTime()) || Number.isNaN(to.getTime())) throw new RangeError('from and to must be valid dates');
  if (Math.ceil(from.getTime() / 1000) > Math.floor(to.getTime() / 1000)) {
    throw new RangeError('the period [from, to] must contain at least one whole second');
  }
  if (count > 0 && catalog.length === 0) throw new RangeError('orders need a catalog with at least one product');
  return {
    [Symbol.iterator]: () => generateOrders({ random: seededRandom(seed, 'orders'), count, catalog, from, to }),
  };
}
