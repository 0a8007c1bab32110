import type { Content } from 'pdfmake/interfaces.js';
import { formatSiren, formatSiret } from '../config/french-identifiers.ts';
import type { InvoiceData } from '../events/invoicing/documents.ts';
import type { Address } from '../events/schema/common-schemas.ts';

/**
 * The customer as an invoice or a credit note names them: for a business, its company with its SIREN
 * (and SIRET) and VAT number, which the 2026 reform requires on every document to a business (CGI
 * annexe II art. 242 nonies A), then the person; the billing address, and the delivery address when
 * the goods go elsewhere, which the reform requires too.
 */

type Customer = Pick<InvoiceData, 'customer' | 'businessCustomer'>;

export const caption = (text: string): Content => ({ text, style: 'caption' });

export const addressLines = (address: Address): Content[] => [
  { text: `${address.firstname} ${address.lastname}`, bold: true },
  ...(address.company ? [address.company] : []),
  ...address.street,
  `${address.postcode} ${address.city}`,
  address.country_id,
  ...(address.telephone ? [`Tél. ${address.telephone}`] : []),
];

const companyLines = ({ businessCustomer: company }: Customer): Content[] =>
  company
    ? [
        { text: company.companyName, bold: true },
        company.siret ? `SIREN ${formatSiren(company.siren)} — SIRET ${formatSiret(company.siret)}` : `SIREN ${formatSiren(company.siren)}`,
        ...(company.vatNumber ? [`N° TVA intracommunautaire : ${company.vatNumber}`] : []),
      ]
    : [];

export const customerLines = (document: Customer, options: { phone: boolean }): Content[] => {
  const { customer } = document;
  return [
    caption('CLIENT'),
    ...companyLines(document),
    { text: `${customer.firstname} ${customer.lastname}`, bold: document.businessCustomer === undefined },
    customer.email,
    ...(options.phone && customer.phone ? [`Tél. ${customer.phone}`] : []),
  ];
};

/** Where the goods go is another place than where the bill goes: the names on them aside. */
const samePlace = (a: Address, b: Address): boolean =>
  a.street.join('\n') === b.street.join('\n') && a.postcode === b.postcode && a.city === b.city && a.country_id === b.country_id;

/** The billing address, and beside it the delivery address when it is another place. */
export const addressColumns = (billing: Address, delivery: Address | undefined): Content => {
  const billingColumn = { stack: [caption('ADRESSE DE FACTURATION'), ...addressLines(billing)] };
  return delivery === undefined || samePlace(billing, delivery)
    ? { ...billingColumn, margin: [0, 4, 0, 12] }
    : { columns: [billingColumn, { stack: [caption('ADRESSE DE LIVRAISON'), ...addressLines(delivery)] }], margin: [0, 4, 0, 12] };
};
