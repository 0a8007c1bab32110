import type { RouterMiddleware } from '@koa/router';
import type { ProductField } from '../../../projections/catalog/product-document.ts';
import { searchProducts as readProducts } from '../../../projections/catalog/queries.ts';
import type { Runtime } from '../../../runtime.ts';
import { parseInput } from '../../parse-input.ts';
import { countProducts } from './count-products.ts';
import { invalidRequest } from './order-errors.ts';
import { columnFields, presentProduct, productColumns } from './product-columns.ts';
import { productSearchBody } from './schemas.ts';

/**
 * POST /api/search-ean14-product-colis: the package scanner's lookup. Answers a JSON array of the
 * matching products (empty when nothing matches: a scan of an unknown code is not an error), one page
 * of them, by SKU unless `order` says otherwise; the paging travels in headers, as in get-sales:
 * X-Total-Count (all matches), X-Page, X-Page-Size.
 */
export const searchProducts =
  (runtime: Runtime): RouterMiddleware =>
  async (ctx) => {
    // A scanner listing every product may send no body at all.
    const body = parseInput(productSearchBody, ctx.request.body ?? {}, invalidRequest);
    const columns = body.columns ?? productColumns;
    const sort: Partial<Record<ProductField, 1 | -1>> = Object.fromEntries(
      (body.order ?? []).map(({ column, direction }) => [columnFields[column], direction === 'asc' ? 1 : -1]),
    );

    const [products, total] = await Promise.all([
      readProducts(runtime.readStore, {
        ...(body.sku !== undefined && { skuOrEan: body.sku }),
        sort,
        skip: (body.page - 1) * body.page_size,
        limit: body.page_size,
        projection: columns.map((column) => columnFields[column]),
      }),
      countProducts(runtime.readStore, body.sku),
    ]);

    ctx.set('X-Total-Count', String(total));
    ctx.set('X-Page', String(body.page));
    ctx.set('X-Page-Size', String(body.page_size));
    ctx.body = products.map((product) => presentProduct(product, columns));
  };
