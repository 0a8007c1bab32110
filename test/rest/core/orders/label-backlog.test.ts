import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { systemContext } from '../../../../src/events/command-context.ts';
import type { EventStore } from '../../../../src/events/store/event-store.ts';
import { saleStreamName } from '../../../../src/events/sales/events.ts';
import { importSale } from '../../../../src/events/sales/import-sale.ts';
import { ensureShippingLabel } from '../../../../src/labels/label-service.ts';
import type { Logger } from '../../../../src/logger.ts';
import { createLabelBacklog, type LabelBacklogDeps, type SupplierLineRef } from '../../../../src/rest/core/orders/label-backlog.ts';
import { labelRendered } from '../../files/files-client.ts';
import { anOrder, startOrdersApi, type OrdersApi } from './orders-api.ts';

const fakeLog = () => ({ info: vi.fn(), warn: vi.fn(), error: vi.fn() });

/** The store, except that reading this one sale's stream fails. */
const failingFor = (store: EventStore, streamName: string): EventStore =>
  new Proxy(store, {
    get(target, property) {
      if (property === 'readStream') {
        return async (name: string, options?: object) => {
          if (name === streamName) throw new Error('disk unavailable');
          return target.readStream(name, options);
        };
      }
      const value: unknown = Reflect.get(target, property);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });

describe('the labels of imported orders, rendered after the answer', () => {
  let api: OrdersApi;
  beforeAll(async () => {
    api = await startOrdersApi();
  });
  afterAll(async () => api.close());

  /** An order with its supplier-a line only, imported; answers the line to label. */
  const importedLine = async (): Promise<{ incrementId: string; line: SupplierLineRef }> => {
    const order = anOrder();
    const { incrementId, saleProductIds } = await importSale(api.runtime.salesDeps, { ...order, items: [order.items[0]!] }, systemContext());
    return { incrementId, line: { serviceOrderId: `${incrementId}_${saleProductIds[0]}`, supplier: 'supplier-a' } };
  };

  it('when one order\'s label fails, it logs which, goes on with the next order, and the failed label is made when first fetched', async () => {
    const failing = await importedLine();
    const next = await importedLine();
    const log = fakeLog();
    const deps: LabelBacklogDeps = {
      ...api.runtime,
      log: log as unknown as Logger,
      salesDeps: { ...api.runtime.salesDeps, eventStore: failingFor(api.runtime.eventStore, saleStreamName(failing.incrementId)) },
    };
    const backlog = createLabelBacklog(deps);

    backlog.add({ incrementId: failing.incrementId, lines: [failing.line] }, systemContext());
    backlog.add({ incrementId: next.incrementId, lines: [next.line] }, systemContext());
    await backlog.idle();

    expect(log.error).toHaveBeenCalledWith(
      expect.objectContaining({ incrementId: failing.incrementId, serviceOrderId: failing.line.serviceOrderId }),
      'shipping label of an imported order not rendered; it will be made when first fetched',
    );
    expect(await labelRendered(api, 'supplier-a', failing.line.serviceOrderId)).toBe(false);
    expect(await labelRendered(api, 'supplier-a', next.line.serviceOrderId)).toBe(true);
    expect(log.info).toHaveBeenLastCalledWith(expect.objectContaining({ incrementId: next.incrementId, labels: 1 }), 'shipping labels of an imported order rendered');
    expect(await ensureShippingLabel(api.runtime, failing.line, systemContext())).not.toBeNull();
    expect(await labelRendered(api, 'supplier-a', failing.line.serviceOrderId)).toBe(true);
  });

  it('when the runtime is closing, it renders nothing more', async () => {
    const { incrementId, line } = await importedLine();
    const backlog = createLabelBacklog({ ...api.runtime, log: fakeLog() as unknown as Logger, isOpen: () => false });

    backlog.add({ incrementId, lines: [line] }, systemContext());
    await backlog.idle();

    expect(await labelRendered(api, 'supplier-a', line.serviceOrderId)).toBe(false);
  });

  it('when labels are queued, the backlog counts them until they are rendered or given up', async () => {
    const first = await importedLine();
    const second = await importedLine();
    const backlog = createLabelBacklog(api.runtime);
    const empty = backlog.pending();

    backlog.add({ incrementId: first.incrementId, lines: [first.line] }, systemContext());
    backlog.add({ incrementId: second.incrementId, lines: [second.line] }, systemContext());
    const queued = backlog.pending();
    await backlog.idle();

    expect([empty, queued, backlog.pending()]).toEqual([0, 2, 0]);
  });
});
