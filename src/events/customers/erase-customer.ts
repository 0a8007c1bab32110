import type { CommandContext } from '../command-context.ts';
import { handleCommand, type WriteDeps } from '../command-handler.ts';
import type { ErasedKey, KeyStore } from '../personal-data/key-store.ts';
import { customerErasureDecider } from './customer-erasure-decider.ts';
import { customerErasureStreamName } from './events.ts';

/** What one deleted key sealed, as the read models and the files on disk know it. */
export type ErasedCustomerData = {
  keyId: string;
  sales: { saleId: number; incrementId: string; supplierLines: { supplier: 'supplier-a' | 'supplier-b'; saleProductId: number }[] }[];
  savIds: number[];
  leadIds: string[];
};

export type CustomerErasureOutcome =
  | { status: 'erased'; erasedAt: string; erased: ErasedCustomerData[]; position: number }
  | { status: 'already_erased'; erasedAt: string }
  | { status: 'unknown' }
  /** Events written before encryption may still hold personal data in clear: they must be migrated first. */
  | { status: 'log_not_migrated'; legacyHead: number; migratedUpTo: number };

/** `log`: the log's name in the key store's migration state. */
export type EraseCustomerDeps = WriteDeps & { keys: KeyStore; log: string };

/** The sales, SAVs and leads of the streams a key sealed; a sale's lines from its import (never sealed: products). */
const referencesOf = async (deps: EraseCustomerDeps, key: ErasedKey): Promise<ErasedCustomerData> => {
  const found: ErasedCustomerData = { keyId: key.keyId, sales: [], savIds: [], leadIds: [] };
  for (const stream of key.streams) {
    if (stream.startsWith('sale-')) {
      const [imported] = await deps.eventStore.readStream(stream, { maxCount: 1 });
      if (imported?.type !== 'SaleImported') continue;
      const data = imported.data as {
        saleId: number;
        incrementId: string;
        products: { saleProductId: number; supplier: 'supplier-a' | 'supplier-b' | null }[];
      };
      const supplierLines = data.products.flatMap(({ saleProductId, supplier }) => (supplier === null ? [] : [{ supplier, saleProductId }]));
      found.sales.push({ saleId: data.saleId, incrementId: data.incrementId, supplierLines });
    } else if (stream.startsWith('sav-')) found.savIds.push(Number(stream.slice('sav-'.length)));
    else if (stream.startsWith('lead-')) found.leadIds.push(stream.slice('lead-'.length));
  }
  return found;
};

/**
 * The right to erasure of the customer of an e-mail address: the key store deletes the customer's key
 * (from then on every reader of the log sees `[erased]` in its place), then the log records
 * CustomerErased, which the read models scrub their copies on. Repeated, it answers `already_erased`;
 * a crash between the two steps is mended by the next request (the erasure stays pending until recorded).
 */
export const eraseCustomer = async (deps: EraseCustomerDeps, email: string, context: CommandContext): Promise<CustomerErasureOutcome> => {
  const { legacyHead, migratedUpTo } = await deps.keys.migrationState(deps.log);
  if (migratedUpTo < legacyHead) return { status: 'log_not_migrated', legacyHead, migratedUpTo };
  const subject = deps.keys.subjectOf(email);
  const erasedAt = deps.clock.now().toISOString();
  const outcome = await deps.keys.erase(subject, erasedAt);
  if (outcome.status !== 'erased') return outcome;
  const erased: ErasedCustomerData[] = [];
  let position = -1;
  for (const key of outcome.keys) {
    const references = await referencesOf(deps, key);
    erased.push(references);
    const sales = references.sales.map(({ saleId, incrementId }) => ({ saleId, incrementId }));
    const command = { type: 'RecordCustomerErasure' as const, keyId: key.keyId, sales, savIds: references.savIds, leadIds: references.leadIds, at: erasedAt };
    const recorded = await handleCommand(deps, customerErasureStreamName(key.keyId), customerErasureDecider, command, context);
    if (recorded.status === 'accepted') position = Math.max(position, recorded.position);
  }
  await deps.keys.confirmErasure(subject);
  return { status: 'erased', erasedAt, erased, position };
};
