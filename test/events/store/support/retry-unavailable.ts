import { setTimeout as sleep } from 'node:timers/promises';
import { EventStoreUnavailableError } from '../../../../src/events/store/event-store.ts';

/** Runs `operation` until it stops failing with EventStoreUnavailableError, as a caller facing a restarting server would. */
export async function retryWhileUnavailable<T>(operation: () => Promise<T>, attempts = 50): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await operation();
    } catch (error) {
      if (!(error instanceof EventStoreUnavailableError) || attempt >= attempts) throw error;
      await sleep(100);
    }
  }
}
