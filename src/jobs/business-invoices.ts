import type { Invoicing } from '../invoicing/invoicing.ts';
import { dueBusinessInvoices } from '../projections/invoicing/invoices-due-queries.ts';
import type { JobRuntime } from './job-runtime.ts';
import { everySecondsPattern } from './cron-schedule.ts';
import { startLeasedJob, type LeasedJob } from './leased-job.ts';

/**
 * The invoices of business customers' sales, issued without anyone asking for them: the 2026 reform
 * wants an e-invoice for each such sale, and the platform outbox hands each invoice issued to the
 * approved platform. A sale is invoiced once settled, every line shipped or cancelled, or at the
 * latest 30 days after it was recorded (projections/invoicing/invoice-due.ts); one with every
 * line cancelled and no shipping fee sold nothing and is not. Run by the one instance holding its lease
 * (`job:business-invoices`), from the read model of the sales due, once it has seen the whole log. The
 * invoice register issues one invoice per sale whoever asks, the job twice or staff meanwhile: a run
 * cut short, a restart or a second instance issues nothing twice.
 */

export const businessInvoicesJobName = 'business-invoices';

export type BusinessInvoicesDeps = {
  invoicing: Pick<Invoicing, 'invoiceFor'>;
  /** The first day (in France) whose sales are invoiced so; null: all. Before it, invoices are issued on request only. */
  from: string | null;
};

export type BusinessInvoicer = { run: (stillHeld: () => boolean) => Promise<void> };

export const createBusinessInvoicer = (runtime: JobRuntime, deps: BusinessInvoicesDeps, options: { batch?: number } = {}): BusinessInvoicer => {
  const batch = options.batch ?? 50;
  return {
    run: async (stillHeld) => {
      // The sales due are read once the read model has seen the whole log: an invoice issued meanwhile is seen there.
      if (!(await runtime.projections.waitFor(await runtime.eventStore.headPosition()))) return;
      const due = await dueBusinessInvoices(runtime.readStore, deps.from, runtime.clock.now().toISOString(), batch);
      for (const sale of due) {
        if (!stillHeld()) return;
        try {
          if (!(await deps.invoicing.invoiceFor(sale._id)))
            runtime.log.warn({ saleId: sale._id }, 'business sale due an invoice not found in the sales read model');
        } catch (error) {
          // One sale that cannot be invoiced holds no other back; it is tried again at the next run.
          runtime.log.error({ err: error, saleId: sale._id }, 'the invoice of a business sale could not be issued; tried again at the next run');
        }
      }
    },
  };
};

/** The invoicer on its schedule (every 30 s by default), in the instance holding its lease. */
export const startBusinessInvoiceJob = (runtime: JobRuntime, deps: BusinessInvoicesDeps, options: { everySeconds?: number } = {}): LeasedJob => {
  const invoicer = createBusinessInvoicer(runtime, deps);
  return startLeasedJob(runtime, {
    name: businessInvoicesJobName,
    pattern: everySecondsPattern(options.everySeconds ?? 30),
    run: invoicer.run,
    failure: 'the business invoices run failed; the next run tries again',
  });
};
