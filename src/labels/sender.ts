/**
 * The sender printed on every shipping label: the retailer's central warehouse, where returns come
 * back. Fixed on purpose: a label names the same sender whatever the deployment.
 */
export const labelSender = {
  name: 'Maison & Confort — Entrepôt central',
  street: ['12 avenue des Entrepôts'],
  postcode: '69200',
  city: 'Vénissieux',
  countryId: 'FR',
} as const;
