import type { Command } from 'commander';
import type { EventFilter, EventStore, RecordedEvent } from '../../events/store/event-store.ts';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { copyEncryptedLog } from '../../events/personal-data/copy-encrypted-log.ts';
import { migrateSqliteLog } from '../../events/personal-data/migrate-sqlite-log.ts';
import { isValidNamespace, namespacedEventStore } from '../../events/store/namespaced-event-store.ts';
import { eventStoreFile, logIdentity, type Runtime } from '../../runtime.ts';
import { CliError } from '../cli-error.ts';
import type { WithRuntime } from '../cli-runtime.ts';
import { examples } from '../help-examples.ts';
import { printLine } from '../output.ts';
import { logAuditCommands } from './log-audit.ts';

const pageSize = 1000;
const nonNegativeInteger = /^\d+$/;

const printEvent = async (event: RecordedEvent): Promise<void> => {
  const { position, streamName, revision, id, type, data, metadata, recordedAt } = event;
  await printLine(`${JSON.stringify({ position, stream: streamName, revision, id, type, data, metadata, recordedAt })}`);
};

/** Every event after `from` (optionally filtered), page by page so that a large log is never held in memory. */
async function* allEvents(store: EventStore, from: number | undefined, filter?: EventFilter) {
  let after = from;
  for (;;) {
    const page = await store.readAll({ fromPosition: after, maxCount: pageSize, filter });
    yield* page;
    if (page.length < pageSize) return;
    after = page.at(-1)!.position;
  }
}

/** The streams of one sale: its own and those of its SAVs, found from SaleImported and SavCreated. */
const saleStreams = async (store: EventStore, saleId: number): Promise<Set<string>> => {
  const streams = new Set<string>();
  for await (const event of allEvents(store, undefined, { eventTypes: ['SaleImported', 'SavCreated'] })) {
    if (event.data.saleId === saleId) streams.add(event.type === 'SaleImported' ? `sale-${String(event.data.incrementId)}` : event.streamName);
  }
  return streams;
};

type ReplayOptions = { sale?: string; stream?: string; from?: string };

/** `events replay [--sale ID | --stream NAME] [--from POSITION]`: the log as JSON lines, in position order, for auditors. */
const checkReplayOptions = (values: ReplayOptions): void => {
  if (values.sale !== undefined && values.stream !== undefined) throw new CliError('--sale and --stream: give one or the other');
  if (values.from !== undefined && !nonNegativeInteger.test(values.from)) throw new CliError('--from: must be a position (a non-negative integer)');
  if (values.sale !== undefined && !/^[1-9]\d*$/.test(values.sale)) throw new CliError('--sale: must be a sale ID (a positive integer)');
  if (values.stream !== undefined && !/^[a-z]+-.+$/.test(values.stream)) throw new CliError('--stream: must be a stream name such as sale-100004512');
};

const replay = async (runtime: Runtime, values: ReplayOptions): Promise<void> => {
  const from = values.from === undefined ? undefined : Number(values.from);

  if (values.stream !== undefined) {
    for (const event of await runtime.eventStore.readStream(values.stream)) {
      if (from === undefined || event.position > from) await printEvent(event);
    }
    return;
  }
  if (values.sale !== undefined) {
    const streams = await saleStreams(runtime.eventStore, Number(values.sale));
    if (streams.size === 0) throw new CliError(`--sale: no sale ${values.sale} in the log`);
    for await (const event of allEvents(runtime.eventStore, from, { streamPrefixes: ['sale-', 'sav-'] })) {
      if (streams.has(event.streamName)) await printEvent(event);
    }
    return;
  }
  for await (const event of allEvents(runtime.eventStore, from)) await printEvent(event);
};

/** `events encrypt-personal-data`: the events written before encryption sealed in place (embedded log), resumably. */
const encryptPersonalData = async (runtime: Runtime): Promise<void> => {
  if (runtime.config.eventStoreUrl) {
    throw new CliError(
      'EventStoreDB never rewrites an event: copy the log into a new database with `events copy-encrypted` instead (see docs/production.md, "Personal data written before encryption")',
    );
  }
  const before = await runtime.personalData.keys.migrationState(runtime.personalData.logIdentity);
  if (before.migratedUpTo >= before.legacyHead) {
    await printLine(`Nothing to migrate: every event holding personal data is encrypted (the log was written encrypted after position ${before.legacyHead}).`);
    return;
  }
  const done = await migrateSqliteLog({
    file: eventStoreFile(runtime.config),
    log: runtime.personalData.log,
    keys: runtime.personalData.keys,
    logIdentity: runtime.personalData.logIdentity,
    onBatch: ({ migratedUpTo, legacyHead, sealed }) => void printLine(`up to position ${migratedUpTo} of ${legacyHead}: ${sealed} event(s) encrypted`),
  });
  await printLine(`Done: ${done.sealed} event(s) encrypted up to position ${done.legacyHead}; customers can now be erased.`);
};

type CopyOptions = { to: string; toNamespace?: string };

const checkCopyOptions = (values: CopyOptions): void => {
  if (!/^(esdb|esdb\+discover|kurrentdb|kurrentdb\+discover):\/\//.test(values.to))
    throw new CliError('--to: must be an esdb:// or kurrentdb:// connection string');
  if (values.toNamespace !== undefined && !isValidNamespace(values.toNamespace)) throw new CliError('--to-namespace: must be letters, digits and _ only');
};

/** `events copy-encrypted --to URL`: the log copied into another EventStoreDB database with its personal data sealed. */
const copyEncrypted = async (runtime: Runtime, values: CopyOptions): Promise<void> => {
  const target = { eventStoreUrl: values.to, eventStoreNamespace: values.toNamespace };
  const targetIdentity = logIdentity(target);
  if (targetIdentity === runtime.personalData.logIdentity)
    throw new CliError('--to: the copy must go to another database (or namespace) than the log it copies');
  const { openEsdbEventStore } = await import('../../events/store/esdb/esdb-event-store.ts');
  const client = openEsdbEventStore({ url: values.to });
  const store = values.toNamespace ? namespacedEventStore(client, values.toNamespace) : client;
  try {
    const digest = createHash('sha256').update(`${runtime.personalData.logIdentity}\n${targetIdentity}`).digest('hex').slice(0, 16);
    const done = await copyEncryptedLog({
      source: runtime.personalData.recorded,
      target: store,
      log: runtime.personalData.log,
      keys: runtime.personalData.keys,
      targetIdentity,
      checkpointFile: path.join(runtime.config.dataDir, 'copy-encrypted', `${digest}.json`),
      onPage: ({ copiedUpTo, events }) => void printLine(`copied up to position ${copiedUpTo}: ${events} event(s) this run`),
    });
    await printLine(
      `Done: the log is copied up to position ${done.copiedUpTo}. Stop the writers, run this command again for the last events, then point EVENTSTORE_URL${values.toNamespace ? ' and EVENTSTORE_NAMESPACE' : ''} at the copy and delete the old database.`,
    );
  } finally {
    await store.close();
  }
};

export const eventsCommand = (program: Command, withRuntime: WithRuntime): void => {
  const events = program
    .command('events')
    .description('the event log, for auditors')
    .addHelpText('after', examples('events replay --sale 1', 'events replay --from 5000 | head', 'events encrypt-personal-data'));
  events
    .command('replay')
    .description('the log as JSON lines in position order: everything, one sale with its SAVs, or one stream')
    .option('--sale <id>', "one sale's events and its SAVs' (a sale ID)")
    .option('--stream <name>', 'one stream, e.g. sale-100004512')
    .option('--from <position>', 'only the events after this position')
    .addHelpText('after', examples('events replay --sale 1', 'events replay --stream sale-100004512', 'events replay --from 5000 | head'))
    .action((options: ReplayOptions) => {
      checkReplayOptions(options);
      return withRuntime((runtime) => replay(runtime, options));
    });
  events
    .command('encrypt-personal-data')
    .description(
      'encrypt, in place, the personal data of the events written before it was encrypted (embedded log): resumable (run it again after an interruption), idempotent, safe beside a running server',
    )
    .addHelpText('after', examples('events encrypt-personal-data'))
    .action(() => withRuntime((runtime) => encryptPersonalData(runtime)));
  events
    .command('copy-encrypted')
    .description(
      'copy the log, in order, into another EventStoreDB database (or namespace) with its personal data encrypted: EventStoreDB never rewrites an event. Resumable; run it again after stopping the writers, then switch EVENTSTORE_URL to the copy',
    )
    .requiredOption('--to <url>', 'the esdb:// (or kurrentdb://) connection string of the new database')
    .option('--to-namespace <namespace>', 'a namespace of that database (letters, digits and _), as EVENTSTORE_NAMESPACE')
    .addHelpText('after', examples('events copy-encrypted --to "esdb://eventstore-new:2113?tls=false"'))
    .action((options: CopyOptions) => {
      checkCopyOptions(options);
      return withRuntime((runtime) => copyEncrypted(runtime, options));
    });
  logAuditCommands(events, withRuntime);
};
