import { randomUUID } from 'node:crypto';
import { sealActionToken } from '../src/events/access/action-token.ts';
import type { ApiFixtures, OpenLine } from './api-fixtures.ts';
import type { LoadRequest } from './http-load.ts';
import { cacheHeader, importedLabels, successFlag, type Observer } from './observers.ts';
import type { LogTally } from './server-log.ts';

/**
 * The scenarios of `npm run bench:api`, one row each: what is sent, to which server, and how the rate
 * is named. A request source builds each request when it is sent: the same one again, a list walked in
 * a loop, a list walked once (each input used by one request only), or a generator of new inputs.
 */

export type RequestSource = { next: () => LoadRequest; remaining?: () => number };

export type Scenario = {
  name: string;
  target: 'baseline' | 'app';
  requests: RequestSource;
  /** What one request produces, when it is more telling than "req" (an imported order, a PDF). */
  unit?: string;
  /** Made when the scenario runs: watches its answers and what they set off. */
  observe?: () => Observer;
  /** Connections of this scenario, when not the run's. */
  connections?: number;
};

export const repeat = (request: LoadRequest): RequestSource => ({ next: () => request });

export const cycle = <T>(items: readonly T[], build: (item: T) => LoadRequest): RequestSource => {
  if (items.length === 0) throw new Error('A scenario has an empty list of inputs');
  let index = 0;
  return { next: () => build(items[index++ % items.length]!) };
};

const eachOnce = <T>(items: readonly T[], build: (item: T) => LoadRequest): RequestSource => {
  if (items.length === 0) throw new Error('A scenario has an empty list of inputs');
  let index = 0;
  // Past the end (autocannon never asks, the run being capped by remaining()), the last input again.
  return { next: () => build(items[Math.min(index++, items.length - 1)]!), remaining: () => Math.max(0, items.length - index) };
};

/** The bare server at the sizes of the API's answers: a short answer, a detail, a listing page. */
export const baselineScenarios = (bodyOfPost: string): Scenario[] => [
  ...[300, 2_000, 22_600].map((bytes): Scenario => ({
    name: `bare node:http, GET, ${bytes < 1000 ? `${bytes} B` : `${(bytes / 1024).toFixed(0)} KiB`}`,
    target: 'baseline',
    requests: repeat({ path: `/size/${bytes}` }),
  })),
  { name: 'bare node:http, POST, 300 B', target: 'baseline', requests: repeat({ method: 'POST', path: '/size/300', body: bodyOfPost }) },
];

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const post = (path: string, headers: Record<string, string>, body: unknown): LoadRequest => ({ method: 'POST', path, headers, body: JSON.stringify(body) });

const invoiceLink = (fixtures: ApiFixtures, saleId: number): string => {
  const iat = Math.floor(Date.now() / 1000);
  const token = sealActionToken({ jti: randomUUID(), action: 'invoice', saleId, iat, exp: iat + 3600 }, fixtures.tokenSecret);
  return `/api/sale-invoice/${token}`;
};

export const apiScenarios = (f: ApiFixtures, serverLog: LogTally, seconds: number, commandConnections: number): Scenario[] => {
  const supplierLine = (action: 'acknowledge-sale' | 'ship-sale') => (line: OpenLine) =>
    post(`/api/${line.supplier}/${action}`, bearer(f.tokens[line.supplier]), { service_order_id: line.serviceOrderId });
  const core = bearer(f.tokens.core);
  return [
    // The body of an order import: what the largest POST of the API reads.
    ...baselineScenarios(JSON.stringify(f.newOrder())),
    {
      name: 'supplier-a get-sales, cache HIT',
      target: 'app',
      requests: repeat({ path: '/api/supplier-a/get-sales', headers: bearer(f.tokens['supplier-a']) }),
      observe: cacheHeader,
    },
    {
      name: 'supplier-a get-sales, cache MISS',
      target: 'app',
      requests: cycle(f.supplierACursors, (cursor) => ({
        path: `/api/supplier-a/get-sales?last_service_order_number=${cursor}`,
        headers: bearer(f.tokens['supplier-a']),
      })),
      observe: cacheHeader,
    },
    {
      name: 'supplier-b get-sales (no cache)',
      target: 'app',
      requests: repeat({ path: '/api/supplier-b/get-sales', headers: bearer(f.tokens['supplier-b']) }),
    },
    {
      name: 'acknowledge-sale, distinct lines',
      target: 'app',
      requests: eachOnce(f.toAcknowledge, supplierLine('acknowledge-sale')),
      observe: successFlag,
      connections: commandConnections,
    },
    {
      name: 'ship-sale, distinct lines',
      target: 'app',
      requests: eachOnce(f.toShip, supplierLine('ship-sale')),
      observe: successFlag,
      connections: commandConnections,
    },
    {
      name: 'chatbot sale details',
      target: 'app',
      requests: cycle(f.sales, (sale) => ({ path: `/api/sale/details/${sale.incrementId}`, headers: { 'x-api-token': f.tokens.chatbot } })),
    },
    { name: 'core get sale by ID', target: 'app', requests: cycle(f.sales, (sale) => ({ path: `/api/sale/${sale.saleId}`, headers: core })) },
    {
      name: 'core planning occupied, 30 days',
      target: 'app',
      requests: repeat({ path: '/api/sale-sav/planning/occupied?start_date=2026-11-01&end_date=2026-11-30', headers: core }),
    },
    {
      name: 'core invoice PDF',
      target: 'app',
      unit: 'PDFs',
      requests: cycle(f.sales, (sale) => ({ path: invoiceLink(f, sale.saleId), headers: core })),
    },
    // Last: the labels each import leaves to render would weigh on the scenarios after it.
    {
      name: 'core order import, new orders',
      target: 'app',
      unit: 'orders',
      requests: { next: () => post('/api/api-add-new-order-api-shopping', core, f.newOrder()) },
      observe: () => importedLabels(serverLog, Math.max(30, 3 * seconds) * 1000),
    },
  ];
};
