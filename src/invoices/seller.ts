import { labelSender } from '../labels/sender.ts';

/** Who issues the invoice. */
export type InvoiceSeller = {
  name: string;
  street: readonly string[];
  postcode: string;
  city: string;
  countryId: string;
};

/**
 * The retailer, at the address its shipping labels give as the sender: one identity on every document
 * a customer receives, fixed whatever the deployment, like the labels' sender.
 */
export const invoiceSeller: InvoiceSeller = {
  name: 'Maison & Confort',
  street: labelSender.street,
  postcode: labelSender.postcode,
  city: labelSender.city,
  countryId: labelSender.countryId,
};
