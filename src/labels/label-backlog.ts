import type { SupplierName } from '../events/schema/common-schemas.ts';
import { decodeEvent } from '../events/registry.ts';
import { systemContext } from '../events/command-context.ts';
import { serviceOrderId } from '../events/sales/service-order-id.ts';
import type { EventStore, RecordedEvent, Subscription } from '../events/store/event-store.ts';
import type { Logger } from '../logger.ts';
import { labelCheckpointFile } from './label-checkpoint.ts';
import { ensureShippingLabel, type LabelDeps } from './label-service.ts';
import { oneAtATime } from '../concurrency/per-key-queue.ts';

/**
 * The shipping labels of imported orders, rendered in the background, after the import has answered
 * (an import never waits for its labels). The backlog is the log itself: it follows the `SaleImported`
 * events from its checkpoint (label-checkpoint.ts), whichever process imported them (REST, the CLI),
 * and renders each supplier line's label at the PDF pool's background priority, a few orders at a
 * time (as many as there are renderers). The checkpoint only passes an order once all its labels are
 * done, so a restart renders again whatever a crash or a shutdown left (a label already on disk is
 * only checked). A label that fails is logged and left to its first fetch (ensureShippingLabel). On
 * its first start on a log that has none, the backlog begins at the head: the labels of older orders
 * are made when first fetched, as they always were.
 */

export type SupplierLineRef = { serviceOrderId: string; supplier: SupplierName };

export type LabelBacklog = {
  /** Follows the log from the checkpoint (once); resolves when it knows where it starts. */
  start: () => Promise<void>;
  /** Resolves once every order imported so far has had its labels rendered (or given up). */
  idle: () => Promise<void>;
  /** Takes no more orders, waits for the labels being rendered, records how far it got. */
  stop: () => Promise<void>;
  /** Labels of the orders being rendered, not yet done (the metrics' `label_backlog_labels`). */
  pending: () => number;
  /** The log position every order up to which has its labels; null before the start (the metrics' lag). */
  doneThrough: () => number | null;
};

export type LabelBacklogDeps = LabelDeps & {
  eventStore: EventStore;
  log: Logger;
  /** How many orders are rendered at once; twice the PDF pool's size keeps its renderers busy. */
  concurrency: number;
};

const importedType = 'SaleImported';

const supplierLinesOf = (event: RecordedEvent): { incrementId: string; lines: SupplierLineRef[] } => {
  const decoded = decodeEvent(event);
  if (decoded.type !== importedType) throw new Error(`Not a ${importedType} event: ${decoded.type}`);
  const { incrementId, products } = decoded.data;
  return {
    incrementId,
    lines: products.flatMap((product) =>
      product.supplier === null ? [] : [{ serviceOrderId: serviceOrderId(incrementId, product.saleProductId), supplier: product.supplier }],
    ),
  };
};

/** Saved at most this often while running (each save is an fsync); always when stopping. */
const checkpointEveryMs = 1_000;

export const createLabelBacklog = (deps: LabelBacklogDeps): LabelBacklog => {
  const checkpoint = labelCheckpointFile(deps.config.dataDir);
  const context = systemContext();
  let state: 'new' | 'running' | 'stopping' | 'stopped' = 'new';
  let subscription: Subscription | undefined;
  let following: Promise<void> = Promise.resolve();
  /** Positions of the orders being rendered, in log order. */
  const inFlight = new Map<number, Promise<void>>();
  /** Every order at or before this position has its labels (or has been given up). */
  let doneThrough = Number.NEGATIVE_INFINITY;
  let lastSeen = -1;
  let saved = -1;
  let lastSave = 0;
  let slotFreed: (() => void) | undefined;
  let labelsInFlight = 0;
  const waiters: { position: number; resolve: () => void }[] = [];

  /** The checkpoint's writes, one after the other: `stop` waits for the last, not only for its own. */
  const saving = oneAtATime();
  const save = (): Promise<void> => {
    lastSave = Date.now();
    const write = async (): Promise<void> => {
      if (doneThrough === saved) return;
      const position = doneThrough;
      await checkpoint.write(position);
      saved = position;
    };
    return saving(write);
  };

  const settleWaiters = (): void => {
    for (const waiter of [...waiters]) {
      if (waiter.position <= doneThrough) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  };

  const advance = (): void => {
    const oldest = inFlight.keys().next();
    doneThrough = oldest.done ? lastSeen : oldest.value - 1;
    settleWaiters();
    if (Date.now() - lastSave >= checkpointEveryMs) {
      save().catch((error: unknown) => deps.log.error({ err: error }, 'label backlog checkpoint not saved'));
    }
  };

  /** True when every line is done or given up; false when a shutdown interrupted the order. */
  const renderLabels = async (incrementId: string, lines: readonly SupplierLineRef[]): Promise<boolean> => {
    const started = performance.now();
    let rendered = 0;
    let left = lines.length;
    labelsInFlight += left;
    try {
      for (const line of lines) {
        if (state !== 'running') return false;
        try {
          if (await ensureShippingLabel(deps, { ...line, priority: 'background' }, context)) rendered++;
        } catch (error) {
          if (state !== 'running') return false;
          deps.log.error(
            { err: error, incrementId, serviceOrderId: line.serviceOrderId },
            'shipping label of an imported order not rendered; it will be made when first fetched',
          );
        }
        left--;
        labelsInFlight--;
      }
    } finally {
      labelsInFlight -= left;
    }
    deps.log.info(
      { incrementId, labels: rendered, ms: Math.round(performance.now() - started), ordersInFlight: inFlight.size },
      'shipping labels of an imported order rendered',
    );
    return true;
  };

  const take = (event: RecordedEvent): void => {
    const { position } = event;
    lastSeen = position;
    const { incrementId, lines } = supplierLinesOf(event);
    if (lines.length === 0) return advance();
    const work = renderLabels(incrementId, lines).then(
      (complete) => {
        // An interrupted order stays in flight: the checkpoint stays before it, the next start renders it.
        if (!complete) return;
        inFlight.delete(position);
        advance();
        slotFreed?.();
      },
      (error: unknown) => deps.log.error({ err: error, incrementId }, 'shipping labels of an imported order not rendered'),
    );
    inFlight.set(position, work);
  };

  const begin = async (): Promise<Subscription | undefined> => {
    const from = (await checkpoint.read()) ?? (await deps.eventStore.headPosition());
    doneThrough = lastSeen = saved = from;
    await checkpoint.write(from);
    settleWaiters();
    if (state !== 'running') return undefined;
    subscription = deps.eventStore.subscribeToAll({ fromPosition: from, filter: { eventTypes: [importedType] } });
    return subscription;
  };

  const follow = async (subscription: Subscription | undefined): Promise<void> => {
    if (!subscription) return;
    for await (const event of subscription) {
      while (inFlight.size >= deps.concurrency && state === 'running') {
        await new Promise<void>((resolve) => (slotFreed = resolve));
      }
      if (state !== 'running') break;
      take(event);
    }
  };

  return {
    start: async () => {
      if (state !== 'new') return;
      state = 'running';
      const started = begin();
      following = started.then(follow).catch((error: unknown) => {
        if (state === 'running') deps.log.error({ err: error }, 'the label backlog stopped following the log');
      });
      await started;
    },
    idle: async () => {
      if (state !== 'running') return;
      const [latest] = await deps.eventStore.readAll({ direction: 'backwards', maxCount: 1, filter: { eventTypes: [importedType] } });
      if (latest === undefined) return;
      await new Promise<void>((resolve) => {
        if (latest.position <= doneThrough) return resolve();
        waiters.push({ position: latest.position, resolve });
      });
    },
    pending: () => labelsInFlight,
    doneThrough: () => (state === 'new' || doneThrough === Number.NEGATIVE_INFINITY ? null : doneThrough),
    stop: async () => {
      if (state === 'new') state = 'stopped';
      if (state !== 'running') return;
      state = 'stopping';
      slotFreed?.();
      await subscription?.unsubscribe();
      await following;
      await Promise.all(inFlight.values());
      await save();
      state = 'stopped';
      for (const waiter of waiters.splice(0)) waiter.resolve();
    },
  };
};
