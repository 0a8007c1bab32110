import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemContext } from '../../../src/events/command-context.ts';
import { RegisterBehindError } from '../../../src/events/invoicing/issuing-register.ts';
import { importSale } from '../../../src/events/sales/import-sale.ts';
import { createInvoicing, type Invoicing } from '../../../src/invoicing/invoicing.ts';
import { readModelsCaughtUp, startApi, type ApiHarness } from '../../support/api-harness.ts';
import { anOrder } from '../../rest/core/invoicing/invoice-support.ts';

/**
 * The register shared by several processes: each has its own issuing queue on the same log and read
 * models, as instances sharing EventStoreDB and MongoDB do; the revision check keeps them apart.
 */

// 00:30 on 1 January 2027 in Paris, still 2026 in UTC: the year is the planning time zone's.
const now = new Date('2026-12-31T23:30:00.000Z');

describe('the invoice register shared by several processes', () => {
  let api: ApiHarness;
  const processes: Invoicing[] = [];
  const importSales = async (count: number): Promise<number[]> => {
    const saleIds: number[] = [];
    for (let index = 0; index < count; index++) saleIds.push((await importSale(api.runtime.salesDeps, anOrder(), systemContext())).saleId);
    await readModelsCaughtUp(api.runtime);
    return saleIds;
  };
  const anotherProcess = (caughtUp = (position: number) => api.runtime.projections.waitFor(position, ['InvoiceIssued', 'CreditNoteIssued'])): Invoicing =>
    createInvoicing({
      eventStore: api.runtime.eventStore,
      readStore: api.runtime.readStore,
      clock: { now: () => now },
      context: systemContext(),
      timezone: api.runtime.config.planningTimezone,
      seller: api.runtime.config.seller,
      caughtUp,
    });

  beforeAll(async () => {
    api = await startApi({ clock: { now: () => now } });
    processes.push(api.runtime.invoicing, anotherProcess(), anotherProcess());
  });
  afterAll(async () => api.close());

  it(
    'when three processes issue 300 invoices at once, each asked for every sale, every sale has one number and the numbers run 1 to 100 with no gap',
    { timeout: 120_000 },
    async () => {
      const saleIds = await importSales(100);
      const answers = await Promise.all(processes.flatMap((process) => saleIds.map((saleId) => process.invoiceFor(saleId))));
      const numberOf = new Map<number, string>();
      answers.forEach((invoice, index) => {
        const saleId = saleIds[index % saleIds.length]!;
        expect(numberOf.get(saleId) ?? invoice?.number).toBe(invoice?.number);
        numberOf.set(saleId, invoice!.number);
      });
      expect([...numberOf.values()].map((number) => Number(number.replace('FA-2027-', ''))).sort((a, b) => a - b)).toEqual(
        Array.from({ length: 100 }, (_, index) => index + 1),
      );
      expect(await api.runtime.eventStore.readStream('invoices-2027')).toHaveLength(100);
    },
  );

  it('when the read model cannot show the register up to its last event, nothing is issued and the request fails as retryable', async () => {
    const [saleId] = await importSales(1);
    const behind = anotherProcess(async () => false);
    const before = await api.runtime.eventStore.headPosition();
    await expect(behind.invoiceFor(saleId!)).rejects.toBeInstanceOf(RegisterBehindError);
    expect(await api.runtime.eventStore.headPosition()).toBe(before);
    // Once it can, the same request issues the next number.
    expect((await api.runtime.invoicing.invoiceFor(saleId!))?.number).toBe('FA-2027-101');
  });
});
