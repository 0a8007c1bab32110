import { assertNever } from '../../events/decider.ts';
import type { EventOfType, StoredEvent } from '../../events/catalogue/catalogue.ts';
import { applyOnce, type Projection } from '../projection.ts';
import type { ReadCollection, ReadStore } from '../read-store/read-store.ts';
import { customersCollection, type CustomerDocument } from './customer-document.ts';

const eventTypes = ['SaleImported', 'SavCreated'] as const;
type Handled = EventOfType<(typeof eventTypes)[number]>;
const handled = new Set<string>(eventTypes);

type Customers = ReadCollection<CustomerDocument>;

const addSale = async (customers: Customers, event: StoredEvent<EventOfType<'SaleImported'>>): Promise<void> => {
  const { saleId, customer, orderedAt } = event.data;
  const id = customer.email.toLowerCase();
  const current = await customers.findOne({ _id: id });
  if (current && current._position >= event.position) return;
  const orderedAtUtc = new Date(orderedAt).toISOString();
  const isLatest = !current || orderedAtUtc >= current.latestOrderedAt;
  const names = { email: customer.email, firstname: customer.firstname, lastname: customer.lastname, latestOrderedAt: orderedAtUtc };
  const $set = { ...(isLatest && names), ...(!current && { savIds: [] }) };
  await applyOnce(customers, id, event.position, { $set, $addToSet: { saleIds: saleId } }, { upsert: true });
};

/** The customer of a SAV is the one of its sale, found through the sales this read model lists. */
const addSav = async (customers: Customers, event: StoredEvent<EventOfType<'SavCreated'>>): Promise<void> => {
  const customer = await customers.findOne({ saleIds: event.data.saleId });
  if (!customer) return;
  await applyOnce(customers, customer._id, event.position, { $addToSet: { savIds: event.data.savId } });
};

/** The `customers` read model, for the chatbot's customer lookup. */
export const customersProjection: Projection = {
  name: 'customers',
  version: 1,
  eventTypes,
  collections: [customersCollection],

  async setup(store: ReadStore) {
    await store.collection<CustomerDocument>(customersCollection).createIndex({ saleIds: 1 });
  },

  async apply(stored: StoredEvent, store: ReadStore) {
    if (!handled.has(stored.type)) return;
    const event = stored as StoredEvent<Handled>;
    const customers = store.collection<CustomerDocument>(customersCollection);
    switch (event.type) {
      case 'SaleImported':
        return addSale(customers, event);
      case 'SavCreated':
        return addSav(customers, event);
      default:
        return assertNever(event);
    }
  },
};
