/**
 * What the registry (registry.ts) changed in an event while reading it: an upcaster bringing an old log's data
 * within today's bounds (an amount of 1e308, a total that overflowed) notes each field it changes.
 * The log is never rewritten; every read of such an event repairs it again, and says so.
 */
export type ReadRepair = {
  type: string;
  streamName: string;
  position: number;
  /** The field's path in the event's data, e.g. `products.0.price`. */
  field: string;
  recorded: unknown;
  read: unknown;
  reason: string;
};

export type ReadRepairListener = (repair: ReadRepair) => void;

/** Until a process says where its logs go (openRuntime does), a repair is a Node.js process warning. */
const processWarning: ReadRepairListener = (repair) =>
  process.emitWarning(`${repair.type} at position ${repair.position} (${repair.streamName}): ${repair.field} ${repair.reason}`, {
    code: 'EVENT_READ_REPAIR',
  });

let listener: ReadRepairListener = processWarning;

/** Sends the repairs to `next` (the process's logger) from now on; the returned function undoes it. */
export const reportReadRepairsTo = (next: ReadRepairListener): (() => void) => {
  listener = next;
  return () => {
    if (listener === next) listener = processWarning;
  };
};

export const reportReadRepair = (repair: ReadRepair): void => listener(repair);
