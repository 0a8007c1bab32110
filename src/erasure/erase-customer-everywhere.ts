import type { CommandContext } from '../events/command-context.ts';
import { eraseCustomer, type CustomerErasureOutcome } from '../events/customers/erase-customer.ts';
import type { Config } from '../config/config.ts';
import type { WriteDeps } from '../events/command-handler.ts';
import type { KeyStore } from '../events/personal-data/key-store.ts';
import type { ProjectionEngine } from '../projections/engine/engine.ts';
import type { ReadStore } from '../projections/read-store/read-store.ts';
import { deleteErasedFiles } from './erased-files.ts';
import { answerRecords } from '../idempotency/answer-records.ts';
import { saleStreamName } from '../events/sales/events.ts';
import { savStreamName } from '../events/after-sales/events.ts';
import { leadStreamName } from '../events/leads/events.ts';

export type ErasureReport =
  | Exclude<CustomerErasureOutcome, { status: 'erased' }>
  | {
      status: 'erased';
      erasedAt: string;
      keys: number;
      sales: number;
      savs: number;
      leads: number;
      /** Labels and mail files deleted under DATA_DIR. */
      filesDeleted: number;
      /** False when the read models had not applied the erasure within the wait (no instance running them): they will when one does. */
      readModelsScrubbed: boolean;
    };

/**
 * `POST /api/customers/erase` and `cli customer erase`: the key deleted and the erasure recorded
 * (erase-customer.ts); then, once the read models have scrubbed their copies, the files made from the
 * customer's data are deleted (so that no label is rendered again from a copy not yet scrubbed) and
 * the read store releases the bytes it replaced.
 */
/** What an erasure reaches: the customers' keys, the log, the read models, the files and the kept answers. */
export type ErasureDeps = {
  config: Pick<Config, 'dataDir'>;
  write: WriteDeps;
  personalData: { keys: KeyStore; logIdentity: string; releaseFreedBytes: () => Promise<void> };
  projections: Pick<ProjectionEngine, 'waitFor'>;
  readStore: ReadStore;
};

export const eraseCustomerEverywhere = async (runtime: ErasureDeps, email: string, context: CommandContext): Promise<ErasureReport> => {
  const outcome = await eraseCustomer({ ...runtime.write, keys: runtime.personalData.keys, log: runtime.personalData.logIdentity }, email, context);
  if (outcome.status !== 'erased') return outcome;
  const readModelsScrubbed = outcome.position < 0 || (await runtime.projections.waitFor(outcome.position, ['CustomerErased']));
  const filesDeleted = await deleteErasedFiles(runtime.config.dataDir, outcome.erased);
  // The answers kept for Idempotency-Key retries of requests on the customer's streams.
  await answerRecords(runtime.readStore).forgetStreams(
    outcome.erased.flatMap((erased) => [
      ...erased.sales.map(({ incrementId }) => saleStreamName(incrementId)),
      ...erased.savIds.map(savStreamName),
      ...erased.leadIds.map(leadStreamName),
    ]),
  );
  await runtime.personalData.releaseFreedBytes();
  const count = <K extends 'sales' | 'savIds' | 'leadIds'>(field: K) => outcome.erased.reduce((sum, erased) => sum + erased[field].length, 0);
  return {
    status: 'erased',
    erasedAt: outcome.erasedAt,
    keys: outcome.erased.length,
    sales: count('sales'),
    savs: count('savIds'),
    leads: count('leadIds'),
    filesDeleted,
    readModelsScrubbed,
  };
};
