import { assertNever } from '../../events/decider.ts';
import type { EventOfType, StoredEvent } from '../../events/registry.ts';
import { isErased } from '../../events/schema/personal-data.ts';
import { isCustomerErased } from '../erasure.ts';
import { evolveOnce, type Projection } from '../projection.ts';
import type { ReadCollection, ReadStore } from '../read-store/read-store.ts';
import { customersCollection, type CustomerDocument } from './customer-document.ts';

const eventTypes = ['SaleImported', 'SavCreated'] as const;
type Handled = EventOfType<(typeof eventTypes)[number]>;
const handled = new Set<string>(eventTypes);

type Customers = ReadCollection<CustomerDocument>;
type Customer = Omit<CustomerDocument, '_id' | '_position'>;

/** The customer with one more sale; the names are those of the latest order, whatever the order the sales came in. */
const withSale = (current: Customer | null, event: StoredEvent<EventOfType<'SaleImported'>>): Customer => {
  const { saleId, customer, orderedAt } = event.data;
  const orderedAtUtc = new Date(orderedAt).toISOString();
  const latest = current === null || orderedAtUtc >= current.latestOrderedAt;
  return {
    email: latest ? customer.email : current.email,
    firstname: latest ? customer.firstname : current.firstname,
    lastname: latest ? customer.lastname : current.lastname,
    latestOrderedAt: latest ? orderedAtUtc : current.latestOrderedAt,
    saleIds: current === null ? [saleId] : current.saleIds.includes(saleId) ? current.saleIds : [...current.saleIds, saleId],
    savIds: current?.savIds ?? [],
  };
};

/** The customer of a SAV is the one of its sale, found through the sales this read model lists. */
const addSav = async (customers: Customers, event: StoredEvent<EventOfType<'SavCreated'>>): Promise<void> => {
  const customer = await customers.findOne({ saleIds: event.data.saleId });
  if (!customer) return;
  const { savId } = event.data;
  await evolveOnce(customers, customer._id, event.position, (current) =>
    current === null || current.savIds.includes(savId) ? null : { ...current, savIds: [...current.savIds, savId] },
  );
};

/** The `customers` read model, for the chatbot's customer lookup. */
export const customersProjection: Projection = {
  name: 'customers',
  version: 1,
  eventTypes: [...eventTypes, 'CustomerErased'],
  collections: [customersCollection],

  async setup(store: ReadStore) {
    await store.collection<CustomerDocument>(customersCollection).createIndex({ saleIds: 1 });
  },

  async apply(stored: StoredEvent, store: ReadStore) {
    const customers = store.collection<CustomerDocument>(customersCollection);
    if (isCustomerErased(stored)) {
      // The document is keyed by the e-mail itself: it goes, with the list of the customer's sales.
      for (const { saleId } of stored.data.sales) {
        const customer = await customers.findOne({ saleIds: saleId });
        if (customer) await customers.deleteOne({ _id: customer._id });
      }
      return;
    }
    if (!handled.has(stored.type)) return;
    const event = stored as StoredEvent<Handled>;
    switch (event.type) {
      case 'SaleImported':
        // An erased customer's sale is nobody's any more (its e-mail reads as [erased]).
        if (isErased(event.data.customer.email)) return;
        await evolveOnce(customers, event.data.customer.email.toLowerCase(), event.position, (current) => withSale(current, event));
        return;
      case 'SavCreated':
        return addSav(customers, event);
      default:
        return assertNever(event);
    }
  },
};
