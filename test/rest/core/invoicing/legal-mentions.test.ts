import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogProducts } from '../../../../src/events/catalog/catalog-handlers.ts';
import { systemContext } from '../../../../src/events/command-context.ts';
import { importSale } from '../../../../src/events/sales/import-sale.ts';
import { startApi, type ApiHarness } from '../../../support/api-harness.ts';
import { productionSeller } from '../../../support/production-seller.ts';
import { productionSecrets } from '../../../support/production-secrets.ts';
import { pdfText } from '../../../labels/pdf-tools.ts';
import { anOrder, getDocument, mint, numberOf } from './invoice-support.ts';

/**
 * The service in production mode, with its seller configured: the invoice read back with pdftotext
 * carries every mention French law requires, the 2026 reform's included (here for a business customer
 * buying goods and a service from a seller that opted for VAT on debits), and its totals add up to the cent.
 */

const cents = (amount: string): number => Number(amount.replace(/\s/g, '').replace(',', ''));

describe('the legal mentions of an invoice, in production', () => {
  let api: ApiHarness;
  let coreToken: string;
  let text: string;
  let number: string;

  beforeAll(async () => {
    api = await startApi({
      clock: { now: () => new Date('2026-10-05T08:00:00.000Z') },
      env: { NODE_ENV: 'production', ...productionSecrets, ...productionSeller, SELLER_VAT_ON_DEBITS: 'true' },
    });
    coreToken = await api.tokenFor('core');
    await catalogProducts(
      api.runtime.write,
      [
        { sku: 'LIV-CUIS-01', name: 'Livre de cuisine', price: 31.65, vat_rate: 5.5 },
        { sku: 'TRAV-ISOL-01', name: 'Pose d’isolant', price: 185.9, vat_rate: 10, operation_category: 'services' },
      ],
      systemContext(),
    );
    const { saleId } = await importSale(
      api.runtime.salesDeps,
      {
        ...anOrder([
          { sku: 'CAN-OSLO-3P-GRY', name: 'Canapé 3 places Oslo gris', qty_ordered: 1, price: 649, supplier: null },
          { sku: 'LIV-CUIS-01', name: 'Livre de cuisine', qty_ordered: 3, price: 31.65, supplier: null },
          { sku: 'TRAV-ISOL-01', name: 'Pose d’isolant', qty_ordered: 1, price: 185.9, supplier: null },
        ]),
        business_customer: { company_name: 'Atelier Martin SARL', siren: '443061841', vat_number: 'FR64443061841' },
      },
      systemContext(),
    );
    const response = await getDocument(api, `/api/sale-invoice/${mint(api, saleId)}`, coreToken);
    expect(response.status).toBe(200);
    number = numberOf(response);
    text = await pdfText(response.body as Buffer);
  });
  afterAll(async () => api.close());

  it('when read back, it names the seller with its legal form and share capital, its address, SIRET, RCS and intra-EU VAT number', () => {
    expect(text).toContain('Maison & Confort Distribution, SAS au capital de 250 000,00 €');
    expect(text).toContain('8 rue de la République Bâtiment C 69001 Lyon FR');
    expect(text).toContain('SIRET 732 829 320 00074');
    expect(text).toContain('RCS Lyon 732 829 320');
    expect(text).toContain('N° TVA intracommunautaire : FR44732829320');
    expect(text).not.toContain('DÉMONSTRATION');
  });

  it('when read back, it has its number from the register, its date of issue, the sale and its date, the customer and the billing address', () => {
    expect(number).toBe('FA-2026-1');
    expect(text).toContain('FACTURE');
    expect(text).toContain('N° FA-2026-1 Date : 05/10/2026 Commande n°');
    expect(text).toContain('du 02/10/2026');
    expect(text).toContain('Claire Martin');
    expect(text).toContain('ADRESSE DE FACTURATION');
    expect(text).toContain('12 rue des Lilas 69003 Lyon');
  });

  it("when read back, each line has its unit price before and after tax and the catalogue's VAT rate; the VAT has a line per rate", () => {
    expect(text).toContain('CAN-OSLO-3P-GRY Canapé 3 places Oslo gris 1 540,83 € 649,00 € 20 % 649,00 €');
    expect(text).toContain('LIV-CUIS-01 Livre de cuisine 3 30,00 € 31,65 € 5,5 % 94,95 €');
    expect(text).toContain('TRAV-ISOL-01 Pose d’isolant 1 169,00 € 185,90 € 10 % 185,90 €');
    for (const rate of ['5,5 %', '10 %', '20 %'])
      expect(text).toMatch(new RegExp(`DÉTAIL DE LA TVA .*${rate} [\\d\\s]+,\\d\\d € [\\d\\s]+,\\d\\d € [\\d\\s]+,\\d\\d €`));
  });

  it('when read back, the VAT lines and the totals add up to the cent: base plus VAT is the amount, rate by rate and overall', () => {
    const vatLines = [...text.matchAll(/(\d+(?:,\d)? %) ((?:\d{1,3}(?:\s\d{3})*),\d\d) € ((?:\d{1,3}(?:\s\d{3})*),\d\d) € ((?:\d{1,3}(?:\s\d{3})*),\d\d) €/g)]
      .filter((match) => text.indexOf(match[0]) > text.indexOf('DÉTAIL DE LA TVA'))
      .map(([, rate, ht, vat, ttc]) => ({ rate, ht: cents(ht!), vat: cents(vat!), ttc: cents(ttc!) }));
    expect(vatLines.map((line) => line.rate)).toEqual(['5,5 %', '10 %', '20 %']);
    for (const line of vatLines) expect(line.ht + line.vat).toBe(line.ttc);
    const total = (label: string): number => cents(new RegExp(`${label} ((?:\\d{1,3}(?:\\s\\d{3})*),\\d\\d) €`).exec(text)![1]!);
    expect(total('Total HT')).toBe(vatLines.reduce((sum, line) => sum + line.ht, 0));
    expect(total('Total TVA')).toBe(vatLines.reduce((sum, line) => sum + line.vat, 0));
    expect(total('Total TTC')).toBe(total('Total HT') + total('Total TVA'));
    // The goods and the delivery fee, as the order counted them.
    expect(total('Total TTC')).toBe(64_900 + 9_495 + 18_590 + 5_990);
  });

  it('when read back, it names the business customer with its SIREN and VAT number, the category of the operations and the option for VAT on debits', () => {
    expect(text).toContain('CLIENT Atelier Martin SARL SIREN 443 061 841 N° TVA intracommunautaire : FR64443061841 Claire Martin');
    expect(text).toContain('Catégorie de l’opération : opération mixte (livraison de biens et prestation de services)');
    expect(text).toContain('Option pour le paiement de la taxe d’après les débits');
  });

  it('when read back, it states the payment terms, the late-payment penalties and the 40 € flat indemnity for recovery costs', () => {
    expect(text).toContain('Conditions de paiement : Paiement comptant à la commande, par carte. Pas d’escompte pour paiement anticipé.');
    expect(text).toContain('Pénalités de retard : taux de la BCE majoré de 10 points, exigibles sans rappel');
    expect(text).toContain('Indemnité forfaitaire pour frais de recouvrement en cas de retard de paiement : 40 € (article L441-10 du Code de commerce)');
  });
});
