import { decimalAmount, percent } from '../invoicing/factur-x/cii-values.ts';
import { branch, leaf } from '../invoicing/factur-x/xml-elements.ts';
import type { EReport } from './e-reporting.ts';

/**
 * A day's e-reporting as the XML handed to the platform. The elements carry the data the external
 * specifications ask of aggregated consumer transactions (flux 10.3): the declarant (TT-1 SIREN), the
 * period (TT-16, TT-17), and for the day (TT-77), its number of sales and currency (TT-80), per
 * category of transaction (TT-81) its taxable amount and VAT (TT-82, TT-83) and their breakdown by rate
 * (TT-84 to TT-86). The
 * administration's XSD of this flux could not be had here: the element names are this service's own,
 * checked by the zod schema of the report (e-reporting.ts); docs/production.md says how to check them
 * against the platform's schema.
 */

export const eReportingNamespace = 'urn:sav-order-service:e-reporting:flux-10.3:1';

export const eReportingXml = (report: EReport): string =>
  [
    '<?xml version="1.0" encoding="UTF-8"?>',
    branch(
      'EReport',
      [
        leaf('Flux', '10.3'),
        branch('Declarant', [leaf('Siren', report.seller.siren), leaf('VatNumber', report.seller.vatNumber), leaf('Name', report.seller.name)]),
        branch('Period', [leaf('Start', report.date), leaf('End', report.date)]),
        branch('Transactions', [
          leaf('Date', report.date),
          leaf('Currency', report.currency),
          leaf('TransactionCount', String(report.transactions)),
          ...report.categories.map((category) =>
            branch('Category', [
              leaf('Code', category.category),
              leaf('TaxableAmount', decimalAmount(category.htCents)),
              leaf('TaxAmount', decimalAmount(category.vatCents)),
              ...category.rates.map((rate) =>
                branch('Rate', [
                  leaf('Percent', percent(rate.rate)),
                  leaf('TaxableAmount', decimalAmount(rate.htCents)),
                  leaf('TaxAmount', decimalAmount(rate.vatCents)),
                ]),
              ),
            ]),
          ),
        ]),
      ],
      { xmlns: eReportingNamespace },
    ),
  ].join('\n');
