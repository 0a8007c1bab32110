import type { ReadStore } from '../read-store/read-store.ts';
import { salesCollection, type SaleDocument } from '../sales/sale-document.ts';
import { customersCollection, type CustomerDocument } from './customer-document.ts';

/** Reads of the `customers` read model; a customer's orders come from `sales`. */

export const findCustomer = (store: ReadStore, email: string): Promise<CustomerDocument | null> =>
  store.collection<CustomerDocument>(customersCollection).findOne({ _id: email.toLowerCase() });

/** The customer's orders, latest first (compared as instants: the offsets of orders may differ). */
export const customerOrders = async (store: ReadStore, email: string): Promise<SaleDocument[]> => {
  const sales = await store.collection<SaleDocument>(salesCollection).find({ 'customer.emailLower': email.toLowerCase() }).toArray();
  return sales.sort((a, b) => Date.parse(b.orderedAt) - Date.parse(a.orderedAt) || b._id - a._id);
};
