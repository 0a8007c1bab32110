import type { EventStore } from '../../../src/events/store/event-store.ts';

/** Where a test asks the next append to lose its connections: before the store writes it, or after. */
export type AppendFault = 'before-write' | 'after-write';

/** What the services of the test server share: the store, the live signal and the planned faults. */
export type ServerContext = {
  store: EventStore;
  appended: AppendSignal;
  takeAppendFault(): AppendFault | undefined;
  dropConnections(): Promise<void>;
};

/**
 * Wakes live subscriptions when the log grows. Appends made through the server notify it; a slow
 * poll also catches events written to the store directly.
 */
export class AppendSignal {
  private waiters = new Set<() => void>();

  notify(): void {
    for (const wake of [...this.waiters]) wake();
  }

  wait(pollMs: number, abort: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        abort.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, pollMs);
      this.waiters.add(done);
      abort.addEventListener('abort', done, { once: true });
    });
  }
}
