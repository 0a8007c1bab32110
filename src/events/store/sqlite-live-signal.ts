/**
 * Wakes live subscriptions when the log grows: at once for appends committed through this store, and
 * by polling the head position for appends committed by another process on the same file. The poll
 * timer runs only while a subscription is waiting, and never keeps the process alive.
 */
export class LiveSignal {
  private readonly waiters = new Set<{ after: number; wake: () => void }>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly head: () => number,
    private readonly pollIntervalMs: number,
  ) {}

  /** Resolves once the head may be past `after` (or when `abort` fires). Spurious wake-ups are allowed. */
  waitForEventsAfter(after: number, abort: AbortSignal): Promise<void> {
    if (abort.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const waiter = {
        after,
        wake: () => {
          this.waiters.delete(waiter);
          abort.removeEventListener('abort', waiter.wake);
          if (this.waiters.size === 0) this.stopPolling();
          resolve();
        },
      };
      abort.addEventListener('abort', waiter.wake, { once: true });
      this.waiters.add(waiter);
      this.startPolling();
    });
  }

  /** Called right after a commit by this process. */
  notify(): void {
    for (const waiter of [...this.waiters]) waiter.wake();
  }

  close(): void {
    this.notify();
    this.stopPolling();
  }

  private startPolling(): void {
    if (this.timer !== undefined) return;
    this.timer = setInterval(() => this.poll(), this.pollIntervalMs);
    this.timer.unref();
  }

  private stopPolling(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private poll(): void {
    let head: number;
    try {
      head = this.head();
    } catch {
      return; // a transient failure (the file busy, say): the next tick tries again
    }
    for (const waiter of [...this.waiters]) if (head > waiter.after) waiter.wake();
  }
}
