import type { Content } from 'pdfmake/interfaces.js';
import { formatSiren, formatSiret } from '../config/french-identifiers.ts';
import { siren } from '../config/seller-settings.ts';
import type { DocumentOperationCategory, InvoiceData } from '../events/invoicing/documents.ts';
import { formatMoney } from './french-format.ts';

/**
 * The seller's mentions French law requires on every invoice and credit note: its identity (name,
 * legal form and share capital, address, SIRET, RCS, intra-EU VAT number: Code de commerce R123-237,
 * CGI annexe II art. 242 nonies A) and the payment conditions (terms, late-payment penalties, the
 * 40 € flat indemnity for recovery costs: Code de commerce L441-9 and L441-10, D441-5); and, since
 * the 2026 reform, the category of the operations and the option for VAT on debits when the seller
 * took it (CGI annexe II art. 242 nonies A).
 */

type Seller = InvoiceData['seller'];

export const legalIdentity = (seller: Seller): string[] => [
  `${seller.name}, ${seller.legalForm} au capital de ${formatMoney(seller.shareCapitalCents, 'EUR')}`,
  `SIRET ${formatSiret(seller.siret)} — RCS ${seller.rcsCity} ${formatSiren(siren(seller))}`,
  `N° TVA intracommunautaire : ${seller.vatNumber}`,
];

export const sellerBlock = (seller: Seller): Content => ({
  stack: [
    { text: seller.name, bold: true, fontSize: 14 },
    ...seller.street,
    `${seller.postcode} ${seller.city}`,
    seller.countryId,
    { stack: legalIdentity(seller), fontSize: 7, color: '#555555', margin: [0, 3, 0, 0] },
  ],
});

export const recoveryIndemnity =
  'Indemnité forfaitaire pour frais de recouvrement en cas de retard de paiement : 40 € (article L441-10 du Code de commerce), due par le client professionnel.';

export const paymentConditions = (seller: Seller): Content => ({
  stack: [`Conditions de paiement : ${seller.paymentTerms}`, `Pénalités de retard : ${seller.latePaymentPenalties}`, recoveryIndemnity],
  fontSize: 7,
  color: '#555555',
  margin: [0, 8, 0, 0],
});

/** The reform's wording: the operations are only deliveries of goods, only services, or both. */
export const operationCategoryLabels: Record<DocumentOperationCategory, string> = {
  goods: 'livraison de biens',
  services: 'prestation de services',
  mixed: 'opération mixte (livraison de biens et prestation de services)',
};

export const vatOnDebitsMention = 'Option pour le paiement de la taxe d’après les débits';

/** The category of the document's operations (absent from the documents issued before it was stated), and the option for VAT on debits when taken. */
export const operationMentions = (document: { operationCategory?: DocumentOperationCategory; seller: Seller }): Content[] => {
  const lines = [
    ...(document.operationCategory ? [`Catégorie de l’opération : ${operationCategoryLabels[document.operationCategory]}`] : []),
    ...(document.seller.vatOnDebits ? [vatOnDebitsMention] : []),
  ];
  return lines.length === 0 ? [] : [{ stack: lines, margin: [0, 0, 0, 8] }];
};

/** Printed on every document of the demo identity: its mentions are not a real company's. */
export const demoNotice = (seller: Seller): Content[] =>
  seller.demo
    ? [
        {
          text: 'DOCUMENT DE DÉMONSTRATION — vendeur fictif (valeurs de démonstration : paramètres SELLER_* non renseignés), sans valeur légale',
          bold: true,
          color: '#a00000',
          fontSize: 8,
          margin: [0, 0, 0, 8],
        },
      ]
    : [];

export const footerText = (seller: Seller, title: string): string => `${seller.name} — SIRET ${formatSiret(seller.siret)} — ${title}`;
