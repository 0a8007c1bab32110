import { formatSiren, frenchVatNumber, isSiret } from './french-identifiers.ts';

/**
 * The seller an invoice names, with the mentions French law requires of it (Code de commerce L441-9
 * and R123-237, CGI annexe II art. 242 nonies A): name, legal form and share capital, registered
 * address, SIRET (hence SIREN), the town of its trade register (RCS), intra-EU VAT number, payment
 * terms and late-payment penalties. Read from the SELLER_* settings; in production each is required.
 * Outside production, with none of them set, the invoices carry demo values and say so on their face.
 */
export type Seller = {
  name: string;
  legalForm: string;
  street: string[];
  postcode: string;
  city: string;
  countryId: string;
  siret: string;
  /** The town of the trade register's registry (greffe): printed `RCS <town> <SIREN>`. */
  rcsCity: string;
  shareCapitalCents: number;
  vatNumber: string;
  paymentTerms: string;
  latePaymentPenalties: string;
  /**
   * The seller opted to pay VAT on its services when it invoices them rather than when it is paid
   * (CGI art. 269, 2, c): its invoices then say so (CGI annexe II art. 242 nonies A). SELLER_VAT_ON_DEBITS, not taken by default.
   */
  vatOnDebits: boolean;
  /** True for the built-in demo identity: every document it is printed on says so. */
  demo: boolean;
};

export const siren = (seller: Pick<Seller, 'siret'>): string => seller.siret.slice(0, 9);

/** The sentences of the payment terms that state the discount for early payment (escompte), or that there is none; undefined when none does. */
export const earlyPaymentDiscount = (paymentTerms: string): string | undefined => {
  const sentences = paymentTerms.split(/(?<=[.!?;])\s+/).filter((sentence) => /escompte/i.test(sentence));
  return sentences.length === 0 ? undefined : sentences.join(' ');
};

const defaultPaymentTerms = 'Paiement comptant à la commande. Pas d’escompte pour paiement anticipé.';
const defaultLatePaymentPenalties = 'trois fois le taux d’intérêt légal en vigueur, exigibles dès le lendemain de la date d’échéance';

/** The demo identity (fictitious SIRET and VAT number, valid in form): used only when no SELLER_* is set outside production. */
export const demoSeller: Seller = {
  name: 'Maison & Confort',
  legalForm: 'SAS',
  street: ['12 avenue des Entrepôts'],
  postcode: '69200',
  city: 'Vénissieux',
  countryId: 'FR',
  siret: '12345678200010',
  rcsCity: 'Lyon',
  shareCapitalCents: 1_000_000,
  vatNumber: frenchVatNumber('123456782'),
  paymentTerms: defaultPaymentTerms,
  latePaymentPenalties: defaultLatePaymentPenalties,
  vatOnDebits: false,
  demo: true,
};

type SellerVariable =
  | 'SELLER_NAME'
  | 'SELLER_LEGAL_FORM'
  | 'SELLER_STREET'
  | 'SELLER_POSTCODE'
  | 'SELLER_CITY'
  | 'SELLER_SIRET'
  | 'SELLER_RCS'
  | 'SELLER_SHARE_CAPITAL'
  | 'SELLER_VAT_NUMBER'
  | 'SELLER_PAYMENT_TERMS'
  | 'SELLER_LATE_PAYMENT_PENALTIES';

/** Each required setting and what it must look like; a problem is a message, null when the value is right. */
const checks: Record<SellerVariable, (value: string) => string | null> = {
  SELLER_NAME: (value) => (value.length <= 120 ? null : 'at most 120 characters'),
  SELLER_LEGAL_FORM: (value) => (value.length <= 60 ? null : 'at most 60 characters, e.g. SAS, SARL, SA'),
  SELLER_STREET: (value) => (value.length <= 200 && value.split('|').length <= 4 ? null : 'at most 4 lines separated by |, 200 characters in all'),
  SELLER_POSTCODE: (value) => (/^\d{5}$/.test(value) ? null : 'a French postcode, 5 digits'),
  SELLER_CITY: (value) => (value.length <= 80 ? null : 'at most 80 characters'),
  SELLER_SIRET: (value) => (isSiret(value.replace(/\s/g, '')) ? null : 'a SIRET: 14 digits (SIREN and NIC) with a valid check digit'),
  SELLER_RCS: (value) =>
    /^rcs\b/i.test(value) || !/^[\p{L}][\p{L}' -]{0,59}$/u.test(value) ? 'the town of the trade register only, e.g. Lyon (printed RCS Lyon <SIREN>)' : null,
  SELLER_SHARE_CAPITAL: (value) => (/^\d{1,12}([.,]\d{1,2})?$/.test(value) ? null : 'an amount in euros, e.g. 10000 or 10000.50'),
  SELLER_VAT_NUMBER: (value) => (/^FR[0-9A-Z]{2}\d{9}$/.test(value.replace(/\s/g, '')) ? null : 'a French VAT number: FR, a 2-character key, the SIREN'),
  // The law asks for the discount for early payment, or that there is none (Code de commerce L441-9); the Factur-X XML carries that sentence (AAB).
  SELLER_PAYMENT_TERMS: (value) =>
    value.length > 500
      ? 'at most 500 characters'
      : earlyPaymentDiscount(value) === undefined
        ? 'a statement of the discount for early payment (escompte), or that there is none, e.g. Pas d’escompte pour paiement anticipé.'
        : null,
  SELLER_LATE_PAYMENT_PENALTIES: (value) => (value.length <= 500 ? null : 'at most 500 characters'),
};

const variables = Object.keys(checks) as SellerVariable[];

const cents = (euros: string): number => {
  const [units, fraction = ''] = euros.split(/[.,]/);
  return Number(units) * 100 + Number(fraction.padEnd(2, '0'));
};

/** SELLER_VAT_ON_DEBITS: `true` when the option was taken, `false` (the default) when not. */
const vatOnDebitsValues = new Map([
  ['true', true],
  ['false', false],
]);
const vatOnDebitsProblem = 'SELLER_VAT_ON_DEBITS: must be true or false (the option for VAT on debits taken or not)';

/**
 * The seller from the environment, or the problems found, each naming its variable. With none of the
 * settings: the demo identity outside production, a problem per setting in production. With some of
 * them: all are required wherever it runs (half a real identity completed by demo values would print
 * an invoice that looks lawful and is not). SELLER_VAT_ON_DEBITS is optional everywhere, the demo
 * identity included: an option not taken is the common case.
 */
export const sellerFromEnvironment = (env: NodeJS.ProcessEnv, production: boolean): { seller: Seller; problems: [] } | { seller: null; problems: string[] } => {
  const given = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };
  const vatOnDebits = vatOnDebitsValues.get(given('SELLER_VAT_ON_DEBITS') ?? 'false');
  if (!production && variables.every((name) => given(name) === undefined)) {
    return vatOnDebits === undefined ? { seller: null, problems: [vatOnDebitsProblem] } : { seller: { ...demoSeller, vatOnDebits }, problems: [] };
  }

  const problems: string[] = [];
  if (vatOnDebits === undefined) problems.push(vatOnDebitsProblem);
  for (const name of variables) {
    const value = given(name);
    if (value === undefined)
      problems.push(`${name}: required ${production ? 'when NODE_ENV=production' : 'once any SELLER_* setting is given'} (an invoice's legal mention)`);
    else {
      const problem = checks[name](value);
      if (problem) problems.push(`${name}: must be ${problem}`);
    }
  }
  const countryId = given('SELLER_COUNTRY') ?? 'FR';
  if (countryId !== 'FR') problems.push('SELLER_COUNTRY: must be FR (the identifiers checked are French ones)');
  if (problems.length > 0 || vatOnDebits === undefined) return { seller: null, problems };

  const value = (name: SellerVariable): string => given(name) as string;
  const siret = value('SELLER_SIRET').replace(/\s/g, '');
  const vatNumber = value('SELLER_VAT_NUMBER').replace(/\s/g, '');
  if (vatNumber !== frenchVatNumber(siret.slice(0, 9))) {
    return {
      seller: null,
      problems: [
        `SELLER_VAT_NUMBER: must be the VAT number of the SIREN ${formatSiren(siret.slice(0, 9))} of SELLER_SIRET, ${frenchVatNumber(siret.slice(0, 9))}`,
      ],
    };
  }
  return {
    seller: {
      name: value('SELLER_NAME'),
      legalForm: value('SELLER_LEGAL_FORM'),
      street: value('SELLER_STREET')
        .split('|')
        .map((line) => line.trim())
        .filter((line) => line !== ''),
      postcode: value('SELLER_POSTCODE'),
      city: value('SELLER_CITY'),
      countryId,
      siret,
      rcsCity: value('SELLER_RCS'),
      shareCapitalCents: cents(value('SELLER_SHARE_CAPITAL')),
      vatNumber,
      paymentTerms: value('SELLER_PAYMENT_TERMS'),
      latePaymentPenalties: value('SELLER_LATE_PAYMENT_PENALTIES'),
      vatOnDebits,
      demo: false,
    },
    problems: [],
  };
};
