import type { Middleware } from 'koa';
import type { SupplierName } from '../../events/schema/common-schemas.ts';
import type { ReadStore } from '../../projections/read-store/read-store.ts';
import type { LabelLinks } from '../../labels/label-links.ts';
import { baseUrlInJson, listedLine } from '../../projections/supplier-lines/listing.ts';
import { findSupplierLine, listOpenSupplierLines } from '../../projections/supplier-lines/queries.ts';
import { parseInput } from '../parse-input.ts';
import { legacyQuery } from '../query-parameters.ts';
import { getSalesPageSize, getSalesQuery, type GetSalesQuery } from './schemas.ts';
import { invalidParameter } from './supplier-answers.ts';
import type { SupplierSalesCache } from './supplier-cache.ts';

/**
 * One page as it is answered: its JSON encoded once (UTF-8), and what its paging headers need. Kept as
 * bytes, a cached page is written as it is to every poll, and takes half the memory of a JavaScript
 * string with an accented name in it (two bytes a character): up to 1,000 pages of ~30 KB are kept.
 */
export type SalesPage = { body: Buffer; lines: number; lastLine: string | undefined };

export type GetSalesDeps = {
  supplier: SupplierName;
  readStore: ReadStore;
  baseUrl: string;
  /** Signs each line's label link (label-link-signature.ts). */
  labelLinks: LabelLinks;
  /** Absent: every call reads the read model. */
  cache?: SupplierSalesCache<SalesPage>;
};

/** The query's identity: every parameter, normalized, so that `page=01` and `page=1` share an entry. */
const cacheKey = (query: GetSalesQuery): string =>
  JSON.stringify([query.page, query.dateFrom ?? null, query.dateTo ?? null, query.afterCursor ?? null, query.orderNumber ?? null]);

/**
 * A page of the supplier's open lines, as text: each line's listing was rendered by the projection
 * (listing.ts) and is read from the index, so that a page costs neither parsing documents nor
 * serialising objects; only the label links are spliced in, signed now. A page is read on a cache miss
 * only: a cached answer keeps the links it was read with, valid at least a day minus the cache's 30
 * minutes (label-link-signature.ts).
 */
const readPage = async (deps: GetSalesDeps, base: string, query: GetSalesQuery): Promise<SalesPage> => {
  // A cursor naming no line of this supplier would silently list from the start: refuse it instead.
  const cursor = query.afterCursor === undefined ? undefined : await findSupplierLine(deps.readStore, query.afterCursor);
  if (query.afterCursor !== undefined && cursor?.supplier !== deps.supplier) {
    throw invalidParameter(`Invalid last_service_order_number: no line ${query.afterCursor} for ${deps.supplier}`);
  }
  const lines = await listOpenSupplierLines(deps.readStore, {
    supplier: deps.supplier,
    ...(query.dateFrom !== undefined && { dateFrom: query.dateFrom }),
    ...(query.dateTo !== undefined && { dateTo: query.dateTo }),
    ...(cursor && { afterCursor: cursor }),
    ...(query.orderNumber !== undefined && { orderNumber: query.orderNumber }),
    skip: (query.page - 1) * getSalesPageSize,
    limit: getSalesPageSize,
    fields: ['listingHead', 'listingTail'],
  });
  const expires = deps.labelLinks.expiresNow();
  const texts = lines.map((line) =>
    listedLine({ listingHead: line.listingHead ?? '', listingTail: line.listingTail ?? '' }, base, deps.labelLinks.query(line._id, expires)),
  );
  return { body: Buffer.from(`[${texts.join(',')}]`), lines: lines.length, lastLine: lines.at(-1)?._id };
};

/**
 * The next page by cursor after the last line of this one, with the same filters: unlike a page
 * number, it neither skips nor repeats a line when lines are shipped between the two calls.
 */
const nextPageUrl = (deps: GetSalesDeps, query: GetSalesQuery, lastLine: string): string => {
  const params = new URLSearchParams();
  if (query.dateFrom !== undefined) params.set('date_from', query.dateFrom);
  if (query.dateTo !== undefined) params.set('date_to', query.dateTo);
  if (query.orderNumber !== undefined) params.set('order_number', query.orderNumber);
  params.set('last_service_order_number', lastLine);
  return `${deps.baseUrl}/api/${deps.supplier}/get-sales?${params.toString()}`;
};

/** GET /api/{supplier}/get-sales: one page of the supplier's open lines, with paging headers. */
export const getSales = (deps: GetSalesDeps): Middleware => {
  const base = baseUrlInJson(deps.baseUrl);
  return async (ctx) => {
    const query = parseInput(getSalesQuery, legacyQuery(ctx.query), (_parameter, issue) => invalidParameter(issue.message));
    const read = () => readPage(deps, base, query);
    const { value: page, hit } = deps.cache ? await deps.cache.through(cacheKey(query), read) : { value: await read(), hit: false };

    ctx.set('X-Cache', hit ? 'HIT' : 'MISS');
    ctx.set('X-Page', String(query.page));
    ctx.set('X-Page-Size', String(getSalesPageSize));
    if (page.lines === getSalesPageSize && page.lastLine !== undefined) ctx.set('Link', `<${nextPageUrl(deps, query, page.lastLine)}>; rel="next"`);
    ctx.type = 'application/json';
    ctx.body = page.body;
  };
};
