import type { Middleware } from 'koa';
import type { SupplierName } from '../../events/catalogue/common-schemas.ts';
import type { ReadStore } from '../../projections/read-store/read-store.ts';
import { findSupplierLine, listOpenSupplierLines } from '../../projections/supplier-lines/queries.ts';
import type { SupplierLineDocument } from '../../projections/supplier-lines/supplier-line-document.ts';
import { parseInput } from '../parse-input.ts';
import { getSalesPageSize, getSalesQuery, type GetSalesQuery, type SupplierSaleLine } from './schemas.ts';
import { invalidParameter } from './supplier-answers.ts';
import type { SupplierSalesCache } from './supplier-cache.ts';

export type GetSalesDeps = {
  supplier: SupplierName;
  readStore: ReadStore;
  baseUrl: string;
  /** Absent: every call reads the read model. */
  cache?: SupplierSalesCache<SupplierSaleLine[]>;
};

/** The fields of a line a listing answers: only they are read. */
const listed = ['sku', 'quantity', 'price', 'orderDate', 'carrier'] as const;

const toSaleLine = (baseUrl: string, supplier: SupplierName, line: Pick<SupplierLineDocument, '_id' | (typeof listed)[number]>): SupplierSaleLine => ({
  service_order_id: line._id,
  sku: line.sku,
  quantity: line.quantity,
  price: line.price,
  link_to_label: `${baseUrl}/api/files/labels/${supplier}/${line._id}.pdf`,
  order_date: line.orderDate,
  carrier: line.carrier,
});

/** The query's identity: every parameter, normalized, so that `page=01` and `page=1` share an entry. */
const cacheKey = (query: GetSalesQuery): string =>
  JSON.stringify([query.page, query.dateFrom ?? null, query.dateTo ?? null, query.afterCursor ?? null, query.orderNumber ?? null]);

const readPage = async (deps: GetSalesDeps, query: GetSalesQuery): Promise<SupplierSaleLine[]> => {
  if (query.afterCursor !== undefined) {
    // A cursor naming no line of this supplier would silently list from the start: refuse it instead.
    const cursor = await findSupplierLine(deps.readStore, query.afterCursor);
    if (cursor?.supplier !== deps.supplier) {
      throw invalidParameter(`Invalid last_service_order_number: no line ${query.afterCursor} for ${deps.supplier}`);
    }
  }
  const lines = await listOpenSupplierLines(deps.readStore, {
    supplier: deps.supplier,
    ...(query.dateFrom !== undefined && { dateFrom: query.dateFrom }),
    ...(query.dateTo !== undefined && { dateTo: query.dateTo }),
    ...(query.afterCursor !== undefined && { afterCursor: query.afterCursor }),
    ...(query.orderNumber !== undefined && { orderNumber: query.orderNumber }),
    skip: (query.page - 1) * getSalesPageSize,
    limit: getSalesPageSize,
    fields: listed,
  });
  return lines.map((line) => toSaleLine(deps.baseUrl, deps.supplier, line));
};

/**
 * The next page by cursor after the last line of this one, with the same filters: unlike a page
 * number, it neither skips nor repeats a line when lines are shipped between the two calls.
 */
const nextPageUrl = (deps: GetSalesDeps, query: GetSalesQuery, lastLine: SupplierSaleLine): string => {
  const params = new URLSearchParams();
  if (query.dateFrom !== undefined) params.set('date_from', query.dateFrom);
  if (query.dateTo !== undefined) params.set('date_to', query.dateTo);
  if (query.orderNumber !== undefined) params.set('order_number', query.orderNumber);
  params.set('last_service_order_number', lastLine.service_order_id);
  return `${deps.baseUrl}/api/${deps.supplier}/get-sales?${params.toString()}`;
};

/** GET /api/{supplier}/get-sales: one page of the supplier's open lines, with paging headers. */
export const getSales = (deps: GetSalesDeps): Middleware => async (ctx) => {
  const query = parseInput(getSalesQuery, ctx.query, (_parameter, issue) => invalidParameter(issue.message));
  const read = () => readPage(deps, query);
  const { value: lines, hit } = deps.cache ? await deps.cache.through(cacheKey(query), read) : { value: await read(), hit: false };

  ctx.set('X-Cache', hit ? 'HIT' : 'MISS');
  ctx.set('X-Page', String(query.page));
  ctx.set('X-Page-Size', String(getSalesPageSize));
  const lastLine = lines.at(-1);
  if (lines.length === getSalesPageSize && lastLine) ctx.set('Link', `<${nextPageUrl(deps, query, lastLine)}>; rel="next"`);
  ctx.body = lines;
};
