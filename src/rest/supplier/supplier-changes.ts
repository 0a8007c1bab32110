import { decodeEvent, type StoredEvent } from '../../events/registry.ts';
import { supplierName, type SupplierName } from '../../events/schema/common-schemas.ts';
import type { EventStore, RecordedEvent } from '../../events/store/event-store.ts';

/**
 * Tells how current the `supplier_lines` read model is for one supplier: the position the projection
 * has applied the log up to, and the position of the last applied event that may have changed that
 * supplier's lines. A cached listing computed at position P is still what the read model would answer
 * as long as no change of its supplier came after P, whoever made it (this API, another route, the
 * CLI, a job). Each event is read once, as the projection moves on.
 */

export type SupplierLinesVersion = {
  /** Changes when the read model was replaced (its position went back): nothing read before is trusted. */
  epoch: number;
  /** The read model reflects every event of its types up to this position. */
  position: number;
  /** The last applied event that may have changed the supplier's lines (conservative: maybe later). */
  lastChange: number;
};

export type SupplierChanges = {
  versionOf(supplier: SupplierName): Promise<SupplierLinesVersion>;
};

export type SupplierChangesDeps = {
  eventStore: EventStore;
  /** The event types the supplier-lines projection reads. */
  eventTypes: readonly string[];
  /**
   * The position the projection has applied up to as of the call; null before its first event. With
   * several instances, the shared checkpoint read now (see ProjectionEngine.currentPosition).
   */
  appliedPosition: () => number | null | Promise<number | null>;
  /** Events read per call to the store while catching up. */
  batchSize?: number;
};

const defaultBatchSize = 500;
const everySupplier: readonly SupplierName[] = supplierName.options;

/** The suppliers whose lines an event may change; every supplier when the event does not say. */
const suppliersTouchedBy = (event: StoredEvent): readonly SupplierName[] => {
  switch (event.type) {
    case 'SaleImported':
      return event.data.products.flatMap((product) => (product.supplier === null ? [] : [product.supplier]));
    case 'SaleProductAcknowledged':
    case 'ShippingLabelCreated':
      return [event.data.supplier];
    case 'SaleProductShipped':
      // A product shipped from own stock has no supplier line.
      return event.data.supplier === null ? [] : [event.data.supplier];
    case 'TrackingNumberAllocated':
      // The listing shows no tracking number: a line's listing is the same before and after.
      return [];
    default:
      // A cancellation or an address change names the sale's product, not its supplier.
      return everySupplier;
  }
};

/** An event that cannot be read is counted against every supplier rather than stopping the listing. */
const touched = (recorded: RecordedEvent): readonly SupplierName[] => {
  try {
    return suppliersTouchedBy(decodeEvent(recorded));
  } catch {
    return everySupplier;
  }
};

export const trackSupplierChanges = (deps: SupplierChangesDeps): SupplierChanges => {
  const batchSize = deps.batchSize ?? defaultBatchSize;
  let epoch = 0;
  let scannedTo: number | undefined;
  const lastChange = new Map<SupplierName, number>();
  let queue: Promise<void> = Promise.resolve();

  const restartAt = (position: number): void => {
    // Nothing older is known: count every supplier as changed at this position.
    scannedTo = position;
    for (const supplier of everySupplier) lastChange.set(supplier, position);
  };

  const scanTo = async (target: number): Promise<void> => {
    if (scannedTo === undefined) return restartAt(target);
    if (target < scannedTo) {
      epoch++;
      return restartAt(target);
    }
    while (scannedTo < target) {
      const events = await deps.eventStore.readAll({
        ...(scannedTo >= 0 && { fromPosition: scannedTo }),
        filter: { eventTypes: deps.eventTypes },
        maxCount: batchSize,
      });
      const applied = events.filter((event) => event.position <= target);
      for (const event of applied) {
        for (const supplier of touched(event)) lastChange.set(supplier, event.position);
      }
      const last = applied.at(-1);
      scannedTo = events.length === batchSize && applied.length === events.length && last ? last.position : target;
    }
  };

  return {
    async versionOf(supplier) {
      const target = (await deps.appliedPosition()) ?? -1;
      // One scan at a time, in call order; a failed scan does not block the next ones.
      const scan = queue.then(() => scanTo(target));
      queue = scan.catch(() => undefined);
      await scan;
      return { epoch, position: target, lastChange: lastChange.get(supplier) ?? target };
    },
  };
};
