import { describe, expect, it } from 'vitest';
import { feedData, redacted } from '../../src/graphql/event-feed/withheld-fields.ts';

describe('what the event feed shows an analyst of a business sale', () => {
  const imported = {
    saleId: 42,
    customer: { email: 'claire.martin@example.org', firstname: 'Claire', lastname: 'Martin', phone: null },
    businessCustomer: { companyName: 'Atelier Martin SARL', siren: '443061841', siret: null, vatNumber: 'FR64443061841' },
    grandTotal: 1407.8,
  };

  it("when an analyst reads it, the company's name is redacted like the customer's own, and its SIREN and VAT number stay", () => {
    expect(feedData('SaleImported', imported, 'analyst')).toMatchObject({
      customer: { email: redacted, firstname: redacted },
      businessCustomer: { companyName: redacted, siren: '443061841', siret: null, vatNumber: 'FR64443061841' },
      grandTotal: 1407.8,
    });
  });

  it('when an auditor reads it, it is shown as recorded', () => {
    expect(feedData('SaleImported', imported, 'auditor')).toEqual(imported);
  });
});
