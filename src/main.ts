import { ConfigError, loadConfig } from './config/config.ts';
import { startIdempotencyPurgeJob } from './jobs/idempotency-purge-schedule.ts';
import { startLeadNotificationJob } from './jobs/lead-notification-schedule.ts';
import { startCustomerMailJob, startSavAppointmentReminderJob } from './jobs/customer-mail-schedule.ts';
import { startSavFileFetchJob } from './jobs/sav-file-fetch-schedule.ts';
import { startWebhookDeliverer } from './jobs/webhook-deliverer.ts';
import { startPlatformTransmissionJob } from './jobs/platform-transmissions.ts';
import { startBusinessInvoiceJob } from './jobs/business-invoices.ts';
import { createPlatformAdapter } from './e-invoicing/platform-adapter.ts';
import { readFileSync } from 'node:fs';
import { createLogger } from './logger.ts';
import { createRuntimeApp } from './server/app.ts';
import { bindServer, PortInUseError } from './server/bind-server.ts';
import { openRuntime, readModelsFile as readModelsFilePath } from './runtime.ts';
import { mingo } from './projections/read-store/mingo-on-demand.ts';
import { watchReadModelsFile } from './server/read-models-file-watch.ts';
import { explainStoreFailure, resetCommand } from './config/store-failures.ts';
import { flushTracing } from './tracing/tracing-shutdown.ts';

/** `npm start`: the HTTP(S) service on the configured stores, with a graceful shutdown on SIGTERM/SIGINT. */
const main = async (): Promise<void> => {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  const log = createLogger(config.logLevel);
  // The port first: a second instance on a busy port stops here, before opening or replaying anything.
  let bound;
  try {
    bound = await bindServer(config);
  } catch (error) {
    if (error instanceof PortInUseError) {
      process.stderr.write(`Failed to start: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  const { server } = bound;
  let runtime;
  try {
    runtime = await openRuntime(config, log);
  } catch (error) {
    // DATA_DIR that is a file, a store that cannot be opened or reached: one line naming the setting.
    const explained = error instanceof ConfigError ? error.message : explainStoreFailure(error, config);
    if (!explained) throw error;
    process.stderr.write(`Failed to start: ${explained}\n`);
    process.exit(error instanceof ConfigError ? 2 : 1);
  }
  const startedAt = Date.now();
  let stopping = false;

  // Answering at once: while the read models catch up, /health tells the progress and the API answers 503.
  bound.serve(createRuntimeApp(runtime).callback());
  // The PDF renderers load pdfmake and the fonts now, not on the first invoice a customer asks for.
  runtime.pdf.warmUp();
  const { baseUrl } = config;
  const urls = { home: `${baseUrl}/`, reference: `${baseUrl}/docs`, graphiql: `${baseUrl}/graphql`, health: `${baseUrl}/health` };
  log.info(
    { port: config.port, tls: config.tls !== undefined, trustProxy: config.trustProxy, baseUrl, dataDir: config.dataDir, urls },
    `listening: ${urls.home} (API reference ${urls.reference}, GraphiQL ${urls.graphiql}, health ${urls.health})`,
  );

  // The outbox jobs, once the read models that propose their work are up to date: the contact leads'
  // mails to the team, the SAV files given by URL (every 30 s each, and the files also on demand).
  let leadNotifications: ReturnType<typeof startLeadNotificationJob> | undefined;
  let savFileFetches: ReturnType<typeof startSavFileFetchJob> | undefined;
  // The customers' mails at each step of their order or SAV (every 30 s).
  let customerMails: ReturnType<typeof startCustomerMailJob> | undefined;
  // The suppliers' webhooks, from the log, in the instance holding their lease.
  let webhookDeliveries: ReturnType<typeof startWebhookDeliverer> | undefined;
  // The e-invoices and e-reporting handed to the approved platform, when one is configured (every PLATFORM_EVERY_SECONDS).
  let platformTransmissions: ReturnType<typeof startPlatformTransmissionJob> | undefined;
  // With it, the invoices of business customers' sales, issued once each sale is settled, without anyone asking.
  let businessInvoices: ReturnType<typeof startBusinessInvoiceJob> | undefined;
  // The reminders of tomorrow's SAV appointments (every hour).
  let appointmentReminders: ReturnType<typeof startSavAppointmentReminderJob> | undefined;
  // The Idempotency-Key answers past their 24 hours, every hour.
  const idempotencyPurge = startIdempotencyPurgeJob(runtime);
  // The log's Merkle tree, followed by every instance, and its heads, signed by the one holding the notary's lease (docs/audit.md).
  if (runtime.logAudit) {
    runtime.logAudit.follower.start();
    runtime.logAudit.notary.start().catch((error: unknown) => log.error({ err: error }, 'the log notary could not start'));
  }
  runtime.projections.start().then(
    () => {
      if (stopping) return;
      log.info({ ms: Date.now() - startedAt }, 'read models ready');
      // The query library the read models fall back on (a quarter of a second of loading), loaded once
      // ready rather than at the first request that needs it; not before, where it held readiness back.
      setImmediate(mingo);
      // The labels of imported orders, from where the last run left them (labels/label-backlog.ts).
      runtime.labels.start().catch((error: unknown) => log.error({ err: error }, 'the label backlog could not start'));
      leadNotifications = startLeadNotificationJob(runtime);
      customerMails = startCustomerMailJob(runtime);
      appointmentReminders = startSavAppointmentReminderJob(runtime);
      savFileFetches = startSavFileFetchJob(runtime);
      savFileFetches.runNow();
      const { allowHosts, caFile } = config.webhookTest;
      webhookDeliveries = startWebhookDeliverer(
        runtime,
        { tokenSecret: runtime.tokenSecret },
        { send: { allowHosts, ...(caFile && { ca: readFileSync(caFile) }) }, deliveriesPerSecond: config.webhookDeliveriesPerSecond },
      );
      if (config.platform) {
        platformTransmissions = startPlatformTransmissionJob(
          runtime,
          { adapter: createPlatformAdapter(config.platform), pdf: runtime.pdf, from: config.platform.from },
          { everySeconds: config.platform.everySeconds },
        );
        businessInvoices = startBusinessInvoiceJob(
          runtime,
          { invoicing: runtime.invoicing, from: config.platform.from },
          { everySeconds: config.platform.everySeconds },
        );
      } else log.info('PLATFORM_URL is not set: no e-invoice or e-reporting is handed to an approved platform, invoices are issued on request only');
    },
    (error: unknown) => log.error({ err: error }, 'the projections could not start'),
  );

  const shutdown = (signal: string, exitCode = 0) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down: no new connections, finishing requests in flight');
    readModelsFile?.stop();
    const jobsStopped = Promise.all([
      leadNotifications?.stop(),
      customerMails?.stop(),
      appointmentReminders?.stop(),
      savFileFetches?.stop(),
      webhookDeliveries?.stop(),
      platformTransmissions?.stop(),
      businessInvoices?.stop(),
      idempotencyPurge.stop(),
    ]);
    // Idle keep-alive connections would hold close() open; requests in flight still finish.
    server.closeIdleConnections();
    server.close(async () => {
      await jobsStopped;
      // Finishes the labels being rendered and records how far the backlog got; the rest at the next start.
      await runtime.close();
      // The spans of the last requests, and of the closing, are still in the exporter's batch.
      await flushTracing();
      log.info('stopped');
      process.exit(exitCode);
    });
    setTimeout(() => {
      log.error('requests still in flight after 10 s; exiting');
      process.exit(1);
    }, 10_000).unref();
  };
  // The embedded read models deleted or replaced under the server: it says so and stops (exit 1), and
  // its next start rebuilds them, rather than serve a file no other process sees.
  const readModelsFile = config.mongodbUrl
    ? undefined
    : watchReadModelsFile(readModelsFilePath(config), (what) => {
        log.error(
          { file: readModelsFilePath(config), dataDir: config.dataDir },
          `read-models.sqlite was ${what} while the server ran: stopping; start the server again to rebuild the read models from the log (\`${resetCommand}\` starts them over safely, with the server stopped)`,
        );
        shutdown(`read models ${what}`, 1);
      });
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
};

main().catch((error: unknown) => {
  process.stderr.write(`Failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
