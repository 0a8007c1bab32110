import { randomUUID } from 'node:crypto';
import { catalogProducts } from '../../events/catalog/catalog-handlers.ts';
import type { CommandContext } from '../../events/command-context.ts';
import { createSav } from '../../events/after-sales/create-sav.ts';
import { captureLead } from '../../events/leads/lead-handlers.ts';
import { cancelSale } from '../../events/sales/cancel-sale.ts';
import { importSale } from '../../events/sales/import-sale.ts';
import { acknowledgeSupplierLine, shipSupplierLine } from '../../events/sales/supplier-lines.ts';
import type { Runtime } from '../../runtime.ts';
import { demoCatalog, demoOrders, type OrderPayload } from './demo-data.ts';
import { seededRandom } from './random.ts';

/**
 * `demo seed`: the demo catalog, then `orders` orders over the 120 days before `until`, each taken
 * through a plausible life (acknowledged and shipped by its supplier hours or days after the order,
 * a few cancellations and SAVs, some contact leads), through the same command handlers as the API,
 * with the clock of each command set to the simulated moment so that delays and dashboards look real.
 * The data depends only on the seed and `until`; running it twice adds nothing.
 */
export type SeedOptions = { orders: number; seed: number; until: Date; concurrency?: number; onProgress?: (done: number) => void };
export type SeedSummary = { products: number; ordersImported: number; acknowledged: number; shipped: number; cancelled: number; savs: number; leads: number };

const hour = 3_600_000;
const periodDays = 120;

export const seedDemo = async (runtime: Runtime, options: SeedOptions): Promise<SeedSummary> => {
  const summary: SeedSummary = { products: 0, ordersImported: 0, acknowledged: 0, shipped: 0, cancelled: 0, savs: 0, leads: 0 };
  const catalog = demoCatalog(options.seed);
  const system: CommandContext = { actor: { kind: 'system' }, correlationId: randomUUID() };
  const imported = await catalogProducts(runtime.write, catalog, system);
  summary.products = imported.created + imported.updated + imported.unchanged;

  const until = options.until.getTime();
  const at = (time: number) => ({ ...runtime.salesDeps, clock: { now: () => new Date(Math.min(time, until)) } });
  const supplierContext = (supplier: string): CommandContext => ({
    actor: { kind: 'token', group: supplier, label: `${supplier}-demo` },
    correlationId: randomUUID(),
  });

  const live = async (order: OrderPayload): Promise<void> => {
    const random = seededRandom(options.seed, `life-${order.increment_id}`);
    const orderedAt = Date.parse(order.created_at);
    const sale = await importSale(at(orderedAt + 60_000), order, system);
    // An order seen before already lived its life: a second run adds nothing.
    if (!sale.created) return;
    summary.ordersImported++;
    const products = sale.saleProductIds.map((saleProductId, index) => ({ saleProductId, item: order.items[index]! }));

    if (random.chance(0.03)) {
      const outcome = await cancelSale(
        at(orderedAt + random.int(1, 48) * hour),
        { incrementId: order.increment_id, reason: 'Annulation demandée par le client' },
        system,
      );
      if (outcome.status === 'cancelled') summary.cancelled++;
      return;
    }
    let shippedAny = false;
    for (const { saleProductId, item } of products) {
      const supplier = item.supplier === undefined ? catalog.find((product) => product.sku === item.sku)?.supplier : item.supplier;
      if (supplier !== 'supplier-a' && supplier !== 'supplier-b') continue;
      const line = { serviceOrderId: `${order.increment_id}_${saleProductId}`, supplier };
      const acknowledgedAt = orderedAt + random.int(2, 60) * hour;
      if (acknowledgedAt > until || !random.chance(0.95)) continue;
      if ((await acknowledgeSupplierLine(at(acknowledgedAt), line, supplierContext(supplier))).status === 'acknowledged') summary.acknowledged++;
      const shippedAt = acknowledgedAt + random.int(12, 240) * hour;
      if (shippedAt > until || !random.chance(0.9)) continue;
      if ((await shipSupplierLine(at(shippedAt), line, supplierContext(supplier))).status === 'shipped') {
        summary.shipped++;
        shippedAny = true;
      }
    }
    if (shippedAny && random.chance(0.04)) {
      const covered = products[random.int(0, products.length - 1)]!;
      const outcome = await createSav(
        {
          ...at(orderedAt + random.int(10, 30) * 24 * hour),
          timezone: runtime.config.planningTimezone,
          loadSale: async () => ({
            saleId: sale.saleId,
            incrementId: sale.incrementId,
            saleProductIds: sale.saleProductIds,
            products: products.map(({ saleProductId, item }) => ({ saleProductId, sku: item.sku, name: item.name })),
            customerEmail: order.customer.email,
          }),
        },
        {
          saleProductIds: [covered.saleProductId],
          ...(random.chance(0.5)
            ? { complaint: 'Le produit est arrivé endommagé, un pied est cassé.', complaintName: 'Produit endommagé' }
            : { complaint: 'Il manque un colis dans la livraison.', complaintName: 'Colis manquant' }),
          savType: random.chance(0.7) ? 'replacement' : 'repair',
          channel: random.chance(0.5) ? 'chatbot' : 'core',
          appointment: null,
          files: [],
        },
        system,
      );
      if (outcome.status === 'created') summary.savs++;
    }
    if (random.chance(0.02)) {
      await captureLead(
        at(orderedAt + 30 * 60_000),
        {
          name: `${order.customer.firstname} ${order.customer.lastname}`,
          email: order.customer.email,
          phone: order.customer.phone ?? null,
          projectName: 'Aménagement du séjour',
        },
        system,
      );
      summary.leads++;
    }
  };

  const orders = demoOrders({
    seed: options.seed,
    count: options.orders,
    catalog,
    from: new Date(until - periodDays * 24 * hour),
    to: options.until,
  })[Symbol.iterator]();
  let done = 0;
  // A few orders in flight at once: their appends share the store's commits.
  const worker = async () => {
    for (let next = orders.next(); !next.done; next = orders.next()) {
      await live(next.value);
      options.onProgress?.(++done);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 16 }, worker));
  return summary;
};
