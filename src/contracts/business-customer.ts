import { z } from 'zod';
import { formatSiren, frenchVatNumber, isSiren, isSiret } from '../config/french-identifiers.ts';

/**
 * The `business_customer` of the order-import contract: the company a customer buys for, which makes
 * the sale a business one (its invoices name the company and its SIREN). Its identifiers are checked
 * with their keys, as the seller's are (config/french-identifiers.ts), each refusal naming its field:
 * a SIREN or a SIRET (a SIRET alone gives the SIREN; both must agree), and the intra-EU VAT number
 * when the company has one, which for a French company is FR, the key of its SIREN, the SIREN.
 */
export const businessCustomerInput = z
  .object({
    company_name: z.string().min(1).max(255).describe("The company's name (dénomination sociale), as its invoices name it."),
    siren: z
      .string()
      .regex(/^[0-9]{9}$/, 'a SIREN is 9 digits')
      .refine(isSiren, 'not a SIREN: its check digit is wrong')
      .describe('The SIREN of the company, 9 digits with their check digit. Give it, the SIRET, or both.')
      .optional(),
    siret: z
      .string()
      .regex(/^[0-9]{14}$/, 'a SIRET is 14 digits')
      .refine(isSiret, 'not a SIRET: its check digit is wrong')
      .describe('The SIRET of the establishment that buys, 14 digits with their check digit; its first 9 are the SIREN.')
      .optional(),
    vat_number: z
      .string()
      .regex(/^FR[0-9A-Z]{2}[0-9]{9}$/, 'a French intra-EU VAT number: FR, a 2-character key, the SIREN')
      .describe("The company's intra-EU VAT number, when it has one: FR, the key computed from the SIREN, the SIREN.")
      .optional(),
  })
  .superRefine((company, context) => {
    const siren = company.siren ?? company.siret?.slice(0, 9);
    if (siren === undefined) {
      context.addIssue({ code: 'custom', path: ['siren'], message: 'a SIREN or a SIRET is required for a business customer' });
      return;
    }
    if (company.siren !== undefined && company.siret !== undefined && !company.siret.startsWith(company.siren)) {
      context.addIssue({ code: 'custom', path: ['siret'], message: `not a SIRET of the SIREN ${formatSiren(company.siren)}: its first 9 digits differ` });
    }
    if (company.vat_number !== undefined && isSiren(siren) && company.vat_number !== frenchVatNumber(siren)) {
      context.addIssue({
        code: 'custom',
        path: ['vat_number'],
        message: `not the VAT number of the SIREN ${formatSiren(siren)}, which is ${frenchVatNumber(siren)}`,
      });
    }
  })
  .meta({
    description:
      'The company the customer buys for: the sale is then a business one, and its invoices and credit notes name the company and its SIREN. ' +
      'Absent: a consumer sale. A SIREN or a SIRET is required (both: the SIRET begins with the SIREN), each with a valid check digit, ' +
      'and the VAT number, when given, must be the one of that SIREN.',
  });

export type BusinessCustomerInput = z.infer<typeof businessCustomerInput>;
