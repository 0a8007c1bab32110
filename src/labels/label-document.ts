import type { Content, TDocumentDefinitions } from 'pdfmake/interfaces.js';
import type { Address } from '../events/schema/common-schemas.ts';
import type { LabelData } from './label-data.ts';
import { labelSender } from './sender.ts';
import { digestKeyword } from './stored-label.ts';

/** The layout of a shipping label (A6): carrier and tracking barcode, recipient, sender, and the line shipped. */

const caption = (text: string): Content => ({ text, style: 'caption' });

const field = (name: string, value: string): Content => ({ text: [{ text: `${name} : `, bold: true }, value] });

const recipientLines = (address: Address): Content[] => [
  { text: `${address.firstname} ${address.lastname}`, bold: true, fontSize: 12 },
  ...(address.company ? [address.company] : []),
  ...address.street,
  `${address.postcode} ${address.city}`,
  address.country_id,
  ...(address.telephone ? [`Tél. ${address.telephone}`] : []),
];

// A function, not a constant: pdfmake writes its layout into the definition it is given.
const rule = (): Content => ({ canvas: [{ type: 'line', x1: 0, y1: 0, x2: 265, y2: 0, lineWidth: 0.8 }], margin: [0, 4, 0, 4] });

export const labelDocument = (data: LabelData, barcodeSvg: string, digest: string): TDocumentDefinitions => ({
  pageSize: 'A6',
  pageMargins: [16, 14, 16, 14],
  info: {
    title: `Étiquette d'expédition ${data.serviceOrderId}`,
    subject: data.trackingNumber,
    keywords: digestKeyword(digest),
    creator: labelSender.name,
  },
  defaultStyle: { font: 'Roboto', fontSize: 9 },
  styles: { caption: { fontSize: 7, bold: true, color: '#555555', margin: [0, 2, 0, 1] } },
  // The scannable part first: whatever the length of an address, carrier and barcode stay on page 1.
  content: [
    {
      columns: [
        { text: 'Maison & Confort', bold: true, fontSize: 11 },
        { text: data.carrier ?? 'Transporteur non renseigné', bold: true, fontSize: 13, alignment: 'right' },
      ],
    },
    rule(),
    caption('N° DE SUIVI'),
    { svg: barcodeSvg, width: 255, alignment: 'center' },
    { text: data.trackingNumber, bold: true, fontSize: 12, alignment: 'center', margin: [0, 2, 0, 0] },
    rule(),
    caption('DESTINATAIRE'),
    { stack: recipientLines(data.recipient), fontSize: 10 },
    rule(),
    caption('EXPÉDITEUR'),
    {
      stack: [labelSender.name, ...labelSender.street, `${labelSender.postcode} ${labelSender.city}`, labelSender.countryId],
      fontSize: 8,
    },
    rule(),
    field('Commande', data.incrementId),
    field('service_order_id', data.serviceOrderId),
    field('SKU', data.sku),
    field('Article', data.productName),
    field('Quantité', String(data.quantity)),
    field('Transporteur', data.carrier ?? '—'),
    field('Fournisseur', data.supplier),
  ],
});
