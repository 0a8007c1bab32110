import { readDomainStream } from '../../src/events/domain-store.ts';
import { saleStreamName, type SaleEvent } from '../../src/events/sales/events.ts';
import type { Runtime } from '../../src/runtime.ts';

/** The tracking number each supplier line of a sale was given (TrackingNumberAllocated), by sale product ID. */
export const trackingNumbersOf = async (runtime: Pick<Runtime, 'eventStore'>, incrementId: string): Promise<(saleProductId: number) => string> => {
  const { events } = await readDomainStream<SaleEvent>(runtime.eventStore, saleStreamName(incrementId));
  const numbers = new Map<number, string>();
  for (const event of events) if (event.type === 'TrackingNumberAllocated') numbers.set(event.data.saleProductId, event.data.trackingNumber);
  return (saleProductId) => {
    const number = numbers.get(saleProductId);
    if (number === undefined) throw new Error(`sale product ${saleProductId} of ${incrementId} has no tracking number`);
    return number;
  };
};
