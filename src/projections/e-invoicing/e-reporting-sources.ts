import type { ReportedSale, SkuTerms } from '../../events/e-invoicing/e-reporting-amounts.ts';
import type { Tracked } from '../projection.ts';

/**
 * What the platform-documents projection keeps to count the days of consumer sales on its own, from
 * the log alone and in its order (a rebuild gives the same days): each catalogued SKU's terms as the
 * catalogue stands at that point of the log, and each consumer sale as its day counted it, so that a
 * later cancellation takes away exactly what was added.
 */

/** `e_reporting_skus`: a catalogued SKU's VAT rate (basis points) and category of transaction, by SKU. */
export const eReportingSkusCollection = 'e_reporting_skus';
export type EReportingSku = Tracked & SkuTerms & { _id: string };

/** `e_reporting_sales`: a consumer sale as counted, by sale ID: the day it counts on, its lines and its shipping fee's parts. Written once. */
export const eReportingSalesCollection = 'e_reporting_sales';
export type EReportingSale = Tracked & ReportedSale & { _id: number; date: string; currency: string };
