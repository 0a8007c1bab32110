/**
 * The spec files run again beyond the whole suite, and why (docs/proof.md says the same).
 *
 * The whole suite runs once, on the embedded stores and the Node.js the machine has (the README's
 * `npm test`). The code above the store ports is the same on every adapter and every runtime, and the
 * adapters' contract suites, the differential spec and the several-instances proof already run in it
 * on the production adapters' test servers. What runs a second time is what can only break there.
 */

/**
 * On the production adapters (`npm run test:backends`: EventStoreDB test server, FerretDB): the specs
 * whose outcome depends on the stores under the ports, not on the code above them. One end-to-end spec
 * per API group; the commands that race on a stream (optimistic concurrency over gRPC); what follows
 * the shared checkpoints (the supplier cache, the kept GraphQL answers); the idempotency records; the
 * erasure; the invoice registers; the log's tree and its proofs; a blue/green rebuild while the API
 * answers.
 */
export const productionPathSpecs = [
  'test/rest/backends.test.ts',
  // One end-to-end spec per API group.
  'test/rest/supplier/supplier-commands.test.ts',
  'test/rest/chatbot/sale-details.test.ts',
  'test/rest/core/sales/sale-lookup.test.ts',
  'test/graphql/sales.test.ts',
  // Following the shared checkpoints: caches and kept answers never older than a command's answer.
  'test/rest/supplier/get-sales-cache.test.ts',
  'test/graphql/read-model-answers.test.ts',
  // Races decided by the event store's expected revisions.
  'test/rest/core/sale-actions/planning-races.test.ts',
  // Records kept in the read store, and what the log carries.
  'test/rest/idempotency/key-rules.test.ts',
  'test/rest/idempotency/lost-answers.test.ts',
  'test/erasure/customer-erasure.test.ts',
  'test/rest/core/invoicing/invoice-register.test.ts',
  // The log's tree followed through the EventStoreDB adapter: heads signed, proofs checked by the
  // auditors' code and Go's tlog, `events audit verify` on the same stores.
  'test/rest/audit/log-proofs.test.ts',
  // Blue/green rebuild while the API answers, on the production adapters. (The server as a process
  // catching up, killed and resumed, test/rest/startup.test.ts, runs on the embedded stores only: its
  // servers do not take the production stores' settings; see docs/proof.md.)
  'test/rest/rebuild.test.ts',
];

/**
 * On the second runtime (`npm run test:node24`, the Docker image's Node.js 24): one spec per part
 * that differs between runtimes: the native addon (better-sqlite3, both stores and a crash under
 * SIGKILL), worker threads (the PDF pool), the HTTP client (the SSRF-safe fetch), crypto (sealed
 * personal data, tokens), the module hooks of the tracing preload (tracing.test.ts: on the embedded stores; its case on the
 * production stores is a file of its own), the start-up path of the bundle,
 * and one in-process spec of each facade (Koa, graphql-yoga on the fetch API).
 */
export const runtimeSmokeSpecs = [
  'test/events/store/sqlite-event-store.test.ts',
  'test/events/store/sqlite-event-store.processes.test.ts',
  'test/projections/read-store/sqlite-read-store.test.ts',
  'test/pdf/pdf-pool.test.ts',
  'test/files/safe-fetch.test.ts',
  'test/events/personal-data/encrypting-event-store.test.ts',
  'test/events/access/action-token.test.ts',
  'test/events/access/access-token.test.ts',
  'test/tracing/tracing.test.ts',
  'test/rest/npm-start.test.ts',
  'test/rest/supplier/supplier-commands.test.ts',
  'test/graphql/sales.test.ts',
];

/**
 * The inner loop (`npm run test:quick`): the deciders, the command handlers on a real embedded store,
 * and the read models' projections, in about ten seconds; the whole suite before a commit.
 */
export const quickSpecs = [
  'test/events/**/*.test.ts',
  'test/projections/read-models/**/*.test.ts',
  'test/graphql/sale-log/**/*.test.ts',
  'test/time/**/*.test.ts',
  'test/invoicing/**/*.test.ts',
  'test/config.test.ts',
];
