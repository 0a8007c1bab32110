import type { RouterMiddleware } from '@koa/router';
import type { ProductField } from '../../../projections/catalog/product-document.ts';
import { searchProducts as readProducts } from '../../../projections/catalog/queries.ts';
import type { Runtime } from '../../../runtime.ts';
import { parseInput } from '../../parse-input.ts';
import { countProducts } from './count-products.ts';
import { invalidRequest } from './order-errors.ts';
import { columnFields, presentProduct, productColumns } from './product-columns.ts';
import { productSearchBody, productSearchPageSize } from './schemas.ts';

/**
 * POST /api/search-ean14-product-colis: the package scanner's lookup. Answers a JSON array of the
 * matching products (empty when nothing matches: a scan of an unknown code is not an error), by SKU
 * unless `order` says otherwise: all of them, as the legacy service did, or one page when `page` or
 * `page_size` is given. X-Total-Count counts every match; a page also gets X-Page and X-Page-Size.
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

    const paged = body.page !== undefined || body.page_size !== undefined;
    const page = body.page ?? 1;
    const pageSize = body.page_size ?? productSearchPageSize.default;

    const [products, total] = await Promise.all([
      readProducts(runtime.readStore, {
        ...(body.sku !== undefined && { skuOrEan: body.sku }),
        sort,
        ...(paged && { skip: (page - 1) * pageSize, limit: pageSize }),
        projection: columns.map((column) => columnFields[column]),
      }),
      countProducts(runtime.readStore, body.sku),
    ]);

    ctx.set('X-Total-Count', String(total));
    if (paged) {
      ctx.set('X-Page', String(page));
      ctx.set('X-Page-Size', String(pageSize));
    }
    ctx.body = products.map((product) => presentProduct(product, columns));
  };
