import type { SavDocument } from '../../projections/after-sales/sav-document.ts';
import type { CustomerDocument } from '../../projections/customers/customer-document.ts';
import type { SaleDocument } from '../../projections/sales/sale-document.ts';
import { presentSavRecord } from './sav-presenter.ts';

/** The customer envelope's `customer`: names as on the latest order, every order (latest first), every SAV. */
export const presentCustomer = (customer: CustomerDocument, orders: readonly SaleDocument[], savs: readonly SavDocument[], baseUrl: string) => ({
  email: customer.email,
  firstname: customer.firstname,
  lastname: customer.lastname,
  orders: orders.map((order) => ({
    increment_id: order.incrementId,
    status: order.status,
    created_at: order.orderedAt,
    order_date: order.orderDate,
    grand_total: order.grandTotal,
    currency: order.currency,
  })),
  sav_history: savs.map((sav) => presentSavRecord(sav, baseUrl)),
});
