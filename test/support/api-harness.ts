import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import supertest from 'supertest';
import { loadConfig } from '../../src/config/config.ts';
import type { Clock } from '../../src/events/command-context.ts';
import { systemContext } from '../../src/events/command-context.ts';
import { issueAccessToken } from '../../src/events/access/access-token-handlers.ts';
import type { TokenGroup } from '../../src/events/access/events.ts';
import { createLogger, type Logger } from '../../src/logger.ts';
import { createRuntimeApp } from '../../src/server/app.ts';
import { openRuntime, type Runtime } from '../../src/runtime.ts';
import { testBackendEnv, type Backends } from './backends.ts';

/**
 * An API under test, in process: a fresh DATA_DIR, the embedded stores (or the production adapters on
 * test servers, with TEST_BACKENDS: see backends.ts), projections running, and a supertest agent on
 * `app.callback()`. `env` overrides the configuration (BASE_URL, SMTP_URL, ...); `log` replaces the silent logger.
 */
export type ApiHarness = {
  runtime: Runtime;
  request: supertest.Agent;
  dataDir: string;
  /** The stores' settings of this API (EVENTSTORE_URL, MONGODB_URL with TEST_BACKENDS; empty embedded): a CLI run beside it needs them too. */
  storeEnv: Record<string, string>;
  /** Issues a token of a group through the real command, as the CLI does; returns the raw token. */
  tokenFor: (group: TokenGroup, label?: string) => Promise<string>;
  close: () => Promise<void>;
};

export const startApi = async (
  options: { env?: Record<string, string>; clock?: Clock; backends?: Backends; log?: Logger; pdfWorker?: URL } = {},
): Promise<ApiHarness> => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'api-'));
  const backends = await testBackendEnv(dataDir, options.backends);
  const config = loadConfig({ DATA_DIR: dataDir, PORT: '3000', LOG_LEVEL: 'silent', ...backends.env, ...options.env });
  const runtime = await openRuntime(config, options.log ?? createLogger('silent'), { clock: options.clock, pdfWorker: options.pdfWorker });
  await runtime.projections.start();
  return {
    runtime,
    request: supertest.agent(afterWhatWasWritten(runtime, createRuntimeApp(runtime).callback())),
    dataDir,
    storeEnv: backends.env,
    tokenFor: async (group, label) => (await issueAccessToken(runtime.write, { group, label }, systemContext())).token,
    close: async () => {
      await runtime.close();
      await backends.cleanup();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
};

type RequestListener = (request: IncomingMessage, response: ServerResponse) => unknown;

/**
 * A handler whose requests see what the spec wrote before them. Specs write through the command
 * handlers as often as through the routes; an API client's earlier writes were answered once the read
 * models had them (read-your-writes), and a spec's must be too: each request first waits for the read
 * models to apply the log as it stands when the request arrives (at once when a projection has stopped,
 * as the server's own wait does).
 */
export const afterWhatWasWritten =
  (runtime: Pick<Runtime, 'eventStore' | 'projections'>, handle: RequestListener): RequestListener =>
  (request, response) => {
    void runtime.eventStore
      .headPosition()
      .then((head) => runtime.projections.waitFor(head))
      .catch(() => false)
      .then(() => handle(request, response));
  };

/**
 * For a spec that writes through the command handlers directly (not through a route, whose answer
 * waits for its writes): resolves once the read models have applied the whole log as it stands.
 */
export const readModelsCaughtUp = async (runtime: Pick<Runtime, 'eventStore' | 'projections'>): Promise<void> => {
  const reached = await runtime.projections.waitFor(await runtime.eventStore.headPosition());
  if (!reached) throw new Error('The read models did not catch up with the log in time');
};
