import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { sealActionToken } from '../src/events/access/action-token.ts';
import type { ApiFixtures } from './api-fixtures.ts';
import { runLoad, type LoadRequest, type LoadResult } from './http-load.ts';
import type { LogTally } from './server-log.ts';

/**
 * The PDF scenarios of `npm run bench:api` (issue 14): what invoice rendering costs the rest of the
 * API, and how fast imports and their label backlog go. Run after the table's scenarios; printed as
 * lines of their own.
 * - supplier-a get-sales at 10 connections alone, then again while invoices of distinct sales are
 *   requested back to back on 4 other connections: invoices/s and p99, get-sales p99 alone vs during;
 * - one invoice asked again and again (the rendered-invoice cache), beside the bare node:http server;
 * - CPU time of the server process (every thread) per invoice rendered;
 * - order import at 16 connections (orders/s), then the time to drain the label backlog (labels/s)
 *   and the CPU time per label.
 */

/** utime + stime of a process, in seconds, from /proc. */
const cpuSeconds = (pid: number): number => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // After the command: state is field 3, utime 14, stime 15 (1-based): indexes 11 and 12 here.
  return (Number(fields[11]) + Number(fields[12])) / 100;
};

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const ms = (value: number) => `${value.toFixed(0)} ms`;
const rate = (result: LoadResult) => `${result.perSecond.toFixed(1)}/s`;

const invoicePath = (f: ApiFixtures, saleId: number): string => {
  const iat = Math.floor(Date.now() / 1000);
  return `/api/sale-invoice/${sealActionToken({ jti: randomUUID(), action: 'invoice', saleId, iat, exp: iat + 3600 }, f.tokenSecret)}`;
};

export const runPdfScenarios = async (options: {
  origin: string;
  baselineOrigin: string;
  fixtures: ApiFixtures;
  serverPid: number;
  serverLog: LogTally;
  seconds: number;
}): Promise<void> => {
  const { origin, fixtures: f, serverPid, serverLog, seconds } = options;
  const core = bearer(f.tokens.core);
  const getSales: LoadRequest = { path: '/api/supplier-a/get-sales', headers: bearer(f.tokens['supplier-a']) };
  console.log('\nPDF scenarios');

  const alone = await runLoad({ origin, next: () => getSales, connections: 10, seconds });
  // Each invoice of a sale not asked before (distinct sales, so the cache does not answer).
  let nextSale = 0;
  const sales = [...f.sales].reverse();
  const invoices = () => ({ path: invoicePath(f, sales[nextSale++ % sales.length]!.saleId), headers: core });
  const cpuBefore = cpuSeconds(serverPid);
  const [during, invoiceLoad] = await Promise.all([
    runLoad({ origin, next: () => getSales, connections: 10, seconds }),
    runLoad({ origin, next: invoices, connections: 4, seconds, limit: sales.length }),
  ]);
  const invoiceCpu = cpuSeconds(serverPid) - cpuBefore;
  const rendered = invoiceLoad.statuses['200'] ?? 0;
  console.log(
    `  invoices of distinct sales, 4 connections: ${rate(invoiceLoad)}, p99 ${ms(invoiceLoad.p99Ms)}, statuses ${JSON.stringify(invoiceLoad.statuses)}`,
  );
  console.log(
    `  supplier-a get-sales, 10 connections: p99 ${ms(alone.p99Ms)} alone (${rate(alone)}), ${ms(during.p99Ms)} during the invoices (${rate(during)})`,
  );
  console.log(`  CPU per invoice (server process, every thread, get-sales included): ${rendered > 0 ? ms((invoiceCpu * 1000) / rendered) : 'n/a'} at most`);

  const cachedPath = invoicePath(f, sales[0]!.saleId);
  const cached = await runLoad({ origin, next: () => ({ path: cachedPath, headers: core }), connections: 10, seconds });
  const bare = await runLoad({
    origin: options.baselineOrigin,
    next: () => ({ path: `/size/${Math.round(cached.bytesPerAnswer)}` }),
    connections: 10,
    seconds,
  });
  console.log(`  the same invoice again (cached): ${rate(cached)}, p99 ${ms(cached.p99Ms)}; bare node:http at its size: ${rate(bare)}`);

  const labelsBefore = serverLog.count('shipping labels of an imported order rendered');
  const importCpuBefore = cpuSeconds(serverPid);
  let labelLines = 0;
  const imports = await runLoad({
    origin,
    connections: 16,
    seconds,
    next: () => ({ method: 'POST', path: '/api/api-add-new-order-api-shopping', headers: core, body: JSON.stringify(f.newOrder()) }),
    onResponse: (status, body) => {
      if (status === 201) labelLines += ((JSON.parse(body) as { supplier_lines?: unknown[] }).supplier_lines ?? []).length;
    },
  });
  console.log(`  order import, 16 connections: ${rate(imports)} orders, p99 ${ms(imports.p99Ms)}, ${labelLines} labels to render`);
  const ordersWithLabels = () => serverLog.count('shipping labels of an imported order rendered') - labelsBefore;
  const drainStarted = performance.now();
  const importedWithLines = imports.statuses['201'] ?? 0;
  // Orders without supplier lines log nothing: wait for the line count to stop moving, at most a minute past the last answer.
  let seen = -1;
  let steadySince = performance.now();
  while (performance.now() - drainStarted < 60_000 && ordersWithLabels() < importedWithLines) {
    if (ordersWithLabels() !== seen) {
      seen = ordersWithLabels();
      steadySince = performance.now();
    } else if (performance.now() - steadySince > 5_000) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const drainSeconds = (performance.now() - drainStarted) / 1000;
  const totalSeconds = imports.seconds + drainSeconds;
  const importCpu = cpuSeconds(serverPid) - importCpuBefore;
  console.log(
    `  label backlog drained ${drainSeconds.toFixed(1)} s after the last import: ${(labelLines / totalSeconds).toFixed(1)} labels/s from the first import; ` +
      `CPU per imported order with its labels ${imports.completed > 0 ? ms((importCpu * 1000) / imports.completed) : 'n/a'}`,
  );
};
