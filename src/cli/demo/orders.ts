import { roundToCents } from '../../events/schema/money.ts';
import { needsAppointment } from './catalog.ts';
import type { CatalogItem, OrderItem, OrderPayload, OrderPayment, SupplierCode } from './contract-types.ts';
import { buyers } from './customers.ts';
import { companyNames } from './french-names.ts';
import { orderTimeline } from './order-timeline.ts';
import { parisTimestamp } from './paris-time.ts';
import type { Random } from './random.ts';

export interface OrderStream {
  random: Random;
  count: number;
  catalog: readonly CatalogItem[];
  from: Date;
  to: Date;
}

const firstIncrementId = 100_000_001;

/** End-of-line goods that left the catalog: their lines carry supplier, price and carrier themselves. */
const clearanceItems = [
  { sku: 'FDS-POUF-VEL', name: 'Fin de série : pouf en velours côtelé', price: 39.9 },
  { sku: 'FDS-COUS-LIN', name: 'Fin de série : coussin en lin lavé 45x45 cm', price: 19.9 },
  { sku: 'FDS-MIR-RND60', name: 'Fin de série : miroir rond laiton 60 cm', price: 69 },
  { sku: 'FDS-PLAID-CHN', name: 'Fin de série : plaid maille chenille', price: 29.9 },
  { sku: 'FDS-VASE-GRES', name: 'Fin de série : vase en grès émaillé', price: 34.9 },
] as const;

/** Free delivery above a threshold, otherwise a flat fee (in cents): higher for goods delivered on appointment. */
const shippingFeeCents = (subtotalCents: number, onAppointment: boolean): number =>
  onAppointment ? (subtotalCents >= 100_000 ? 0 : 5_900) : subtotalCents >= 10_000 ? 0 : 599;

// Totals are summed in whole cents: exact, where adding euro amounts in floating point is not.
const toCents = (amount: number): number => Math.round(amount * 100);

export function* generateOrders({ random, count, catalog, from, to }: OrderStream): Generator<OrderPayload, void, undefined> {
  if (count === 0) return;
  const instantAt = orderTimeline(from.getTime(), to.getTime());
  const people = buyers(random);
  // Some products sell far more than others; out-of-stock ones still sell, on backorder, but less.
  const popularProduct = random.weightedPicker(
    catalog.map((item) => [item, (random.float() ** 2 + 0.05) * (item.availability === 'Out of Stock' ? 0.2 : 1)] as const),
  );
  for (let i = 0; i < count; i += 1) {
    const createdAt = parisTimestamp(instantAt((i + random.float()) / count));
    const buyer = people.next();
    const items = orderLines(random, popularProduct);
    const subtotalCents = items.reduce((sum, item) => sum + toCents(item.price) * item.qty_ordered, 0);
    const shippingCents = shippingFeeCents(
      subtotalCents,
      items.some((item) => item.requires_appointment === true),
    );
    const grandTotal = (subtotalCents + shippingCents) / 100;
    const shippingAddress = random.chance(0.04) ? people.giftRecipient() : buyer.address;
    const company = random.chance(0.03) ? { company: random.pick(companyNames) } : {};
    yield {
      source: 'shopping-api',
      increment_id: String(firstIncrementId + i),
      created_at: createdAt,
      currency: 'EUR',
      customer: buyer.customer,
      shipping_address: shippingAddress,
      billing_address: { ...buyer.address, ...company, street: [...buyer.address.street] },
      items,
      payment: payment(random, grandTotal),
      shipping_amount: shippingCents / 100,
      grand_total: grandTotal,
    };
  }
}

function orderLines(random: Random, popularProduct: () => CatalogItem): OrderItem[] {
  const wanted = random.weighted([
    [1, 50],
    [2, 30],
    [3, 14],
    [4, 6],
  ] as const);
  const lines: OrderItem[] = [];
  // Bounded, so that a tiny catalog gives shorter orders instead of a loop without end.
  for (let attempt = 0; lines.length < wanted && attempt < 20; attempt += 1) {
    const line = random.chance(0.02) ? clearanceLine(random) : catalogLine(random, popularProduct());
    if (!lines.some((existing) => existing.sku === line.sku)) lines.push(line);
  }
  return lines;
}

function catalogLine(random: Random, item: CatalogItem): OrderItem {
  const qty = random.chance(0.15) ? 2 : 1;
  return {
    sku: item.sku,
    name: item.name,
    qty_ordered: qty,
    price: item.price,
    // Now and then the shop re-sources a line at order time: it names the supplier and its price.
    ...(random.chance(0.04) ? resourcing(random, item) : {}),
    ...(needsAppointment(item) ? { requires_appointment: true } : {}),
  };
}

function resourcing(random: Random, item: CatalogItem): Pick<OrderItem, 'wholesale_price' | 'supplier'> {
  const others = (['supplier-a', 'supplier-b', null] as const).filter((supplier) => supplier !== (item.supplier ?? null));
  const catalogWholesale = item.wholesale_price ?? roundToCents(item.price * 0.62);
  return {
    wholesale_price: roundToCents(catalogWholesale * random.between(0.94, 1.04)),
    supplier: random.pick<SupplierCode | null>(others),
  };
}

function clearanceLine(random: Random): OrderItem {
  const item = random.pick(clearanceItems);
  return {
    sku: item.sku,
    name: item.name,
    qty_ordered: random.chance(0.3) ? 2 : 1,
    price: item.price,
    wholesale_price: roundToCents(item.price * 0.45),
    supplier: null,
    carrier: 'Colissimo',
  };
}

function payment(random: Random, grandTotal: number): OrderPayment {
  const chosen = random.weighted([
    ['card', 64],
    ['paypal', 18],
    ['bank_transfer', 8],
    ['financing', 10],
  ] as const);
  // Instalment financing is only offered on baskets of 300 € or more.
  const method = chosen === 'financing' && grandTotal < 300 ? 'card' : chosen;
  const status = random.weighted(
    method === 'bank_transfer'
      ? ([
          ['paid', 60],
          ['pending', 38],
          ['failed', 2],
        ] as const)
      : method === 'financing'
        ? ([
            ['paid', 85],
            ['pending', 13],
            ['failed', 2],
          ] as const)
        : ([
            ['paid', 93],
            ['pending', 5],
            ['failed', 2],
          ] as const),
  );
  return { method, status, amount_paid: status === 'paid' ? grandTotal : 0 };
}
