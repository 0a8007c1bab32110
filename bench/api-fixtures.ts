import { demoCatalog, demoOrders, type OrderPayload } from '../src/cli/demo/demo-data.ts';
import { seededRandom } from '../src/cli/demo/random.ts';
import { issueAccessToken } from '../src/events/access/access-token-handlers.ts';
import { systemContext } from '../src/events/command-context.ts';
import { importSale } from '../src/events/sales/import-sale.ts';
import { salesCollection, type SaleDocument } from '../src/projections/sales/sale-document.ts';
import { supplierLinesCollection, type SupplierLineDocument } from '../src/projections/supplier-lines/supplier-line-document.ts';
import { allProjections } from '../src/projections/all-projections.ts';
import type { Runtime } from '../src/runtime.ts';

/**
 * What the API scenarios send, taken from the dataset before the load starts: tokens, real sale IDs
 * and increment IDs, supplier-a's line IDs (cursors), and open lines to acknowledge and ship, each used
 * once. When the dataset has too few open lines for a run, fresh orders are imported first (untimed).
 */

export type BenchClient = 'supplier-a' | 'supplier-b' | 'chatbot' | 'core';
export type OpenLine = { serviceOrderId: string; supplier: 'supplier-a' | 'supplier-b' };

export type ApiFixtures = {
  tokens: Record<BenchClient, string>;
  sales: { saleId: number; incrementId: string }[];
  supplierACursors: string[];
  toAcknowledge: OpenLine[];
  toShip: OpenLine[];
  /** A new order on every call: a demo order under an increment ID never used before. */
  newOrder: () => OrderPayload;
  /** The tokens' secret, to mint action tokens. */
  tokenSecret: string;
};

const shuffled = <T>(items: T[]): T[] => {
  const random = seededRandom(1, 'bench-api');
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = random.int(0, i);
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
};

const freshOrders = (seed: number): (() => OrderPayload) => {
  // The seeded demo catalog (seed 42): every SKU exists; increment IDs far above the seeded ones.
  const orders = demoOrders({
    seed: 7,
    count: 1_000_000,
    catalog: demoCatalog(42),
    from: new Date('2026-10-25T00:00:00Z'),
    to: new Date('2026-11-01T00:00:00Z'),
  })[Symbol.iterator]();
  let incrementId = seed;
  return () => {
    const next = orders.next();
    if (next.done) throw new Error('The fresh demo orders ran out');
    return { ...next.value, increment_id: String(incrementId++) };
  };
};

const issueTokens = async (runtime: Runtime): Promise<Record<BenchClient, string>> => {
  const issue = async (group: BenchClient) => (await issueAccessToken(runtime.write, { group, label: `bench-${group}` }, systemContext())).token;
  return { 'supplier-a': await issue('supplier-a'), 'supplier-b': await issue('supplier-b'), chatbot: await issue('chatbot'), core: await issue('core') };
};

/**
 * Imports fresh orders until `wanted` new pending lines exist; answers them. The imports do not wait
 * for the read models one by one: the read models catch up once, at the end, before any load starts.
 */
const importOpenLines = async (runtime: Runtime, newOrder: () => OrderPayload, wanted: number): Promise<OpenLine[]> => {
  const supplierOf = new Map(demoCatalog(42).map((item) => [item.sku, item.supplier]));
  const deps = { ...runtime.salesDeps, awaitProjections: async () => {} };
  const lines: OpenLine[] = [];
  while (lines.length < wanted) {
    const batch = Array.from({ length: 32 }, newOrder);
    const imported = await Promise.all(batch.map((order) => importSale(deps, order, systemContext()).then((sale) => ({ order, sale }))));
    for (const { order, sale } of imported) {
      sale.saleProductIds.forEach((saleProductId, index) => {
        const item = order.items[index]!;
        // A line naming no supplier takes the catalog's; null ships from own stock.
        const supplier = item.supplier === undefined ? supplierOf.get(item.sku) : item.supplier;
        if (supplier === 'supplier-a' || supplier === 'supplier-b') lines.push({ serviceOrderId: `${order.increment_id}_${saleProductId}`, supplier });
      });
    }
  }
  const head = await runtime.eventStore.headPosition();
  const types = allProjections({ timezone: runtime.config.planningTimezone }).flatMap((projection) => projection.eventTypes);
  // Each wait gives up after a while (read-your-writes timeout): wait again until every projection is there.
  while (!(await runtime.projections.waitFor(head, types))) {
    const stopped = runtime.projections.status().filter((status) => !status.running);
    if (stopped.length > 0) throw new Error(`Projections stopped: ${stopped.map((status) => `${status.name} (${status.lastError})`).join(', ')}`);
    process.stderr.write('  waiting for the read models to catch up\n');
  }
  return lines;
};

export const loadApiFixtures = async (runtime: Runtime, options: { linesPerCommandScenario: number }): Promise<ApiFixtures> => {
  const tokens = await issueTokens(runtime);
  const sales = await runtime.readStore
    .collection<SaleDocument>(salesCollection)
    .find({}, { projection: { incrementId: 1 } })
    .toArray();
  const lines = await runtime.readStore
    .collection<SupplierLineDocument>(supplierLinesCollection)
    .find({}, { projection: { supplier: 1, state: 1 } })
    .toArray();
  const toLine = (line: SupplierLineDocument): OpenLine => ({ serviceOrderId: line._id, supplier: line.supplier });
  const pending = shuffled(lines.filter((line) => line.state === 'pending').map(toLine));
  const acknowledged = shuffled(lines.filter((line) => line.state === 'acknowledged').map(toLine));
  const newOrder = freshOrders(900_000_001);

  // Acknowledging takes pending lines; shipping takes the acknowledged ones, then the lines the
  // acknowledge scenario ran before it (acknowledged by then, or pending if it stopped short of them).
  const wanted = options.linesPerCommandScenario;
  const missing = Math.max(0, wanted - pending.length);
  if (missing > 0) {
    process.stderr.write(`  importing fresh orders for ${missing} more open lines\n`);
    pending.push(...(await importOpenLines(runtime, newOrder, missing)));
  }
  const toAcknowledge = pending.slice(0, wanted);
  const toShip = [...acknowledged, ...toAcknowledge].slice(0, wanted);
  return {
    tokens,
    sales: shuffled(sales.map((sale) => ({ saleId: sale._id, incrementId: sale.incrementId }))),
    supplierACursors: shuffled(lines.filter((line) => line.supplier === 'supplier-a').map((line) => line._id)),
    toAcknowledge,
    toShip,
    newOrder,
    tokenSecret: runtime.tokenSecret,
  };
};
