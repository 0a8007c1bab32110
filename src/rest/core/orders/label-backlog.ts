import type { SupplierName } from '../../../events/catalogue/common-schemas.ts';
import type { CommandContext } from '../../../events/command-context.ts';
import { ensureShippingLabel, type LabelDeps } from '../../../labels/label-service.ts';
import type { Logger } from '../../../logger.ts';

/**
 * The shipping labels of freshly imported orders, rendered after the import has answered. A label is
 * a PDF costing a few hundred milliseconds of CPU; rendering an order's labels inside its import
 * would multiply the import's latency by its supplier lines. They are rendered here one at a time, in
 * the order the imports were recorded, so a burst of imports never renders many PDFs at once. Nothing
 * is lost if the process stops first, or a rendering fails: ensureShippingLabel makes a missing label
 * when it is first fetched.
 */

export type SupplierLineRef = { serviceOrderId: string; supplier: SupplierName };

export type LabelBacklog = {
  add: (order: { incrementId: string; lines: readonly SupplierLineRef[] }, context: CommandContext) => void;
  /** Resolves once every label queued so far is rendered or given up. */
  idle: () => Promise<void>;
  /** Labels queued and not yet rendered or given up (the metrics' label backlog). */
  pending: () => number;
};

export type LabelBacklogDeps = LabelDeps & { log: Logger; isOpen: () => boolean };

export const createLabelBacklog = (deps: LabelBacklogDeps): LabelBacklog => {
  let tail: Promise<void> = Promise.resolve();
  let queuedOrders = 0;
  let queuedLabels = 0;

  const renderLabels = async (incrementId: string, lines: readonly SupplierLineRef[], context: CommandContext): Promise<void> => {
    queuedOrders--;
    const started = performance.now();
    let rendered = 0;
    for (const line of lines) {
      // A runtime closing (shutdown, end of a test) leaves the rest to the first fetch.
      if (!deps.isOpen()) return;
      try {
        if (await ensureShippingLabel(deps, line, context)) rendered++;
      } catch (error) {
        deps.log.error(
          { err: error, incrementId, serviceOrderId: line.serviceOrderId },
          'shipping label of an imported order not rendered; it will be made when first fetched',
        );
      }
    }
    deps.log.info(
      { incrementId, labels: rendered, ms: Math.round(performance.now() - started), queuedOrders },
      'shipping labels of an imported order rendered',
    );
  };

  return {
    add: ({ incrementId, lines }, context) => {
      if (lines.length === 0) return;
      queuedOrders++;
      queuedLabels += lines.length;
      tail = tail
        .then(() => renderLabels(incrementId, lines, context))
        .finally(() => (queuedLabels -= lines.length))
        .catch((error: unknown) => deps.log.error({ err: error, incrementId }, 'shipping labels of an imported order not rendered'));
    },
    idle: () => tail,
    pending: () => queuedLabels,
  };
};
