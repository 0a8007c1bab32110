import { ConfigError, loadConfig } from './config/config.ts';
import { startLeadNotificationJob } from './jobs/lead-notification-schedule.ts';
import { createLogger } from './logger.ts';
import { createServer } from './rest/https-server.ts';
import { openRuntime } from './runtime.ts';

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
  const runtime = await openRuntime(config, log);
  const startedAt = Date.now();
  await runtime.projections.start();
  log.info({ ms: Date.now() - startedAt }, 'read models ready');

  // Mails the recorded contact leads to the team (outbox job, every 30 s).
  const leadNotifications = startLeadNotificationJob(runtime);

  const server = createServer(runtime);
  server.listen(config.port, config.host, () => {
    log.info({ port: config.port, tls: config.tls !== undefined, trustProxy: config.trustProxy, baseUrl: config.baseUrl, dataDir: config.dataDir }, 'listening');
  });

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down: no new connections, finishing requests in flight');
    const jobsStopped = leadNotifications.stop();
    // Idle keep-alive connections would hold close() open; requests in flight still finish.
    server.closeIdleConnections();
    server.close(async () => {
      await jobsStopped;
      await runtime.close();
      log.info('stopped');
      process.exit(0);
    });
    setTimeout(() => {
      log.error('requests still in flight after 10 s; exiting');
      process.exit(1);
    }, 10_000).unref();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
};

main().catch((error: unknown) => {
  process.stderr.write(`Failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
