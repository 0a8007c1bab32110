/** The SELLER_* settings production requires: a complete identity, its SIRET and VAT number valid and matching. */

export const productionSeller = {
  SELLER_NAME: 'Maison & Confort Distribution',
  SELLER_LEGAL_FORM: 'SAS',
  SELLER_STREET: '8 rue de la République|Bâtiment C',
  SELLER_POSTCODE: '69001',
  SELLER_CITY: 'Lyon',
  SELLER_SIRET: '732 829 320 00074',
  SELLER_RCS: 'Lyon',
  SELLER_SHARE_CAPITAL: '250000',
  SELLER_VAT_NUMBER: 'FR44732829320',
  SELLER_PAYMENT_TERMS: 'Paiement comptant à la commande, par carte. Pas d’escompte pour paiement anticipé.',
  SELLER_LATE_PAYMENT_PENALTIES: 'taux de la BCE majoré de 10 points, exigibles sans rappel',
};
