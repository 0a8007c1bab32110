import { assertNever, type Decider, type Refusal } from '../decider.ts';
import type { ProductEvent, ProductFields } from './events.ts';

/**
 * A catalog product, `product-<sku>`. Importing is declarative: the file says what the product is now,
 * and only what differs from the recorded product becomes an event, so re-importing an unchanged
 * catalog records nothing.
 */

export type ProductState = { status: 'absent' } | { status: 'catalogued'; product: ProductFields };

export type CatalogProduct = { type: 'CatalogProduct'; product: ProductFields; at: string };

export type ProductCommand = CatalogProduct;

type ProductChanges = Partial<Omit<ProductFields, 'sku'>>;

const sameValue = (a: unknown, b: unknown): boolean =>
  Array.isArray(a) && Array.isArray(b) ? a.length === b.length && a.every((item, index) => sameValue(item, b[index])) : Object.is(a, b);

/** The fields of `next` that differ from `current`, with their new values. Image order counts. */
export const productChanges = (current: ProductFields, next: ProductFields): ProductChanges => {
  const changes: Record<string, unknown> = {};
  for (const key of Object.keys(next) as (keyof ProductFields)[]) {
    if (key !== 'sku' && !sameValue(current[key], next[key])) changes[key] = next[key];
  }
  return changes as ProductChanges;
};

const decide = (command: ProductCommand, state: ProductState): readonly ProductEvent[] | Refusal => {
  switch (command.type) {
    case 'CatalogProduct': {
      if (state.status === 'absent') return [{ type: 'ProductCatalogued', data: { product: command.product, cataloguedAt: command.at } }];
      const changes = productChanges(state.product, command.product);
      if (Object.keys(changes).length === 0) return [];
      return [{ type: 'ProductUpdated', data: { sku: state.product.sku, changes, updatedAt: command.at } }];
    }
    default:
      return assertNever(command.type);
  }
};

const evolve = (state: ProductState, event: ProductEvent): ProductState => {
  switch (event.type) {
    case 'ProductCatalogued':
      return { status: 'catalogued', product: event.data.product };
    case 'ProductUpdated':
      if (state.status === 'absent') return state;
      return { status: 'catalogued', product: { ...state.product, ...event.data.changes } };
    default:
      return assertNever(event);
  }
};

export const productDecider: Decider<ProductState, ProductCommand, ProductEvent> = {
  initialState: () => ({ status: 'absent' }),
  evolve,
  decide,
};
