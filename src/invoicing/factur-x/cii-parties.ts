import { siren } from '../../config/seller-settings.ts';
import type { InvoiceData } from '../../events/invoicing/documents.ts';
import type { Address, BusinessCustomer } from '../../events/schema/common-schemas.ts';
import { legalIdentity } from '../legal-mentions.ts';
import { branch, leaf, type Child } from './xml-elements.ts';

/** The parties of a Cross Industry Invoice (EN 16931's BG-4 seller, BG-7 buyer, BG-13 delivery). */

type PostalAddress = { street: readonly string[]; postcode: string; city: string; countryId: string };

/** BT-35..40 / BT-50..55 / BT-75..80: three street lines at most, the fourth joined to the third. */
const postalAddress = ({ street, postcode, city, countryId }: PostalAddress): string =>
  branch('ram:PostalTradeAddress', [
    postcode !== '' && leaf('ram:PostcodeCode', postcode),
    street[0] !== undefined && leaf('ram:LineOne', street[0]),
    street[1] !== undefined && leaf('ram:LineTwo', street[1]),
    street.length > 2 && leaf('ram:LineThree', street.slice(2).join(', ')),
    city !== '' && leaf('ram:CityName', city),
    leaf('ram:CountryID', countryId),
  ]);

const fromAddress = (address: Address): PostalAddress => ({
  street: address.street,
  postcode: address.postcode,
  city: address.city,
  countryId: address.country_id,
});

const taxRegistration = (vatNumber: string): string => branch('ram:SpecifiedTaxRegistration', [leaf('ram:ID', vatNumber, { schemeID: 'VA' })]);

// ISO 6523 identifiers: 0002 is the SIREN, 0009 the SIRET.
const legalOrganization = (sirenNumber: string): string => branch('ram:SpecifiedLegalOrganization', [leaf('ram:ID', sirenNumber, { schemeID: '0002' })]);
const siretId = (siret: string): string => leaf('ram:GlobalID', siret, { schemeID: '0009' });

export const sellerParty = (seller: InvoiceData['seller']): string =>
  branch('ram:SellerTradeParty', [
    siretId(seller.siret),
    leaf('ram:Name', seller.name),
    // BT-33, the seller's additional legal information: its legal form, capital, RCS, as the page prints them.
    leaf('ram:Description', legalIdentity(seller).join(' — ')),
    legalOrganization(siren(seller)),
    postalAddress(seller),
    // BT-34, the seller's electronic address: its SIREN in the French e-invoicing directory (scheme 0225).
    branch('ram:URIUniversalCommunication', [leaf('ram:URIID', siren(seller), { schemeID: '0225' })]),
    taxRegistration(seller.vatNumber),
  ]);

/** BG-7: a business customer named by its company, with its SIRET, SIREN and VAT number; a consumer by the sale's customer. */
export const buyerParty = (customer: InvoiceData['customer'], billingAddress: Address, business: BusinessCustomer | undefined): string => {
  const { siret, vatNumber } = business ?? {};
  const children: Child[] = [
    typeof siret === 'string' && siretId(siret),
    leaf('ram:Name', business?.companyName ?? `${customer.firstname} ${customer.lastname}`),
    business !== undefined && legalOrganization(business.siren),
    postalAddress(fromAddress(billingAddress)),
    customer.email !== '' && branch('ram:URIUniversalCommunication', [leaf('ram:URIID', customer.email, { schemeID: 'EM' })]),
    typeof vatNumber === 'string' && taxRegistration(vatNumber),
  ];
  return branch('ram:BuyerTradeParty', children);
};

/** BG-13: where the goods are delivered, as the page prints it beside the billing address. */
export const shipToParty = (shippingAddress: Address): string =>
  branch('ram:ShipToTradeParty', [
    leaf('ram:Name', [shippingAddress.company, `${shippingAddress.firstname} ${shippingAddress.lastname}`].filter(Boolean).join(', ')),
    postalAddress(fromAddress(shippingAddress)),
  ]);
