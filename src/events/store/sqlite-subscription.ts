import { EventStoreUnavailableError, type RecordedEvent, type Subscription } from './event-store.ts';
import type { LiveSignal } from './sqlite-live-signal.ts';

export type SubscriptionSource = {
  head(): number;
  /** Events passing the subscription's filter with `after < position <= upTo`, in position order. */
  readPage(after: number, upTo: number, limit: number): RecordedEvent[];
  signal: LiveSignal;
  pageSize: number;
};

/**
 * A catch-up subscription over the log. History and live events go through the same loop: read the
 * next page strictly after a cursor, deliver it, and when the head has been reached wait for the log
 * to grow. The cursor is the last delivered position, or the head a short page was read up to (the
 * events in between did not pass the filter). SQLite admits one writer at a time, so events become
 * visible in position order: nothing can later appear at or below a head already read. Hence no gap
 * and no duplicate.
 * Pages are read only when the consumer pulls, so a slow consumer holds at most one page in memory.
 */
export class CatchUpSubscription implements Subscription {
  readonly caughtUp: Promise<void>;
  private settleCaughtUp!: (error?: Error) => void;
  private caughtUpSettled = false;
  private readonly abort = new AbortController();
  private readonly events: AsyncGenerator<RecordedEvent, void>;

  constructor(
    private readonly source: SubscriptionSource,
    fromPosition: number,
    private readonly onEnd: (subscription: CatchUpSubscription) => void,
  ) {
    this.caughtUp = new Promise<void>((resolve, reject) => {
      this.settleCaughtUp = (error) => (error ? reject(error) : resolve());
    });
    // Ending before catching up rejects `caughtUp`; that must not surface as an unhandled rejection
    // when nobody awaits it.
    this.caughtUp.catch(() => undefined);
    const target = source.head();
    if (source.readPage(fromPosition, target, 1).length === 0) this.markCaughtUp();
    this.events = this.deliver(fromPosition, target);
  }

  [Symbol.asyncIterator](): AsyncIterator<RecordedEvent> {
    return this.events;
  }

  async unsubscribe(): Promise<void> {
    this.stop();
  }

  /** Ends the iteration: a pending `next()` resolves as done, and so does every later one. */
  stop(error?: Error): void {
    if (this.abort.signal.aborted) return;
    this.abort.abort();
    if (!this.caughtUpSettled) {
      this.caughtUpSettled = true;
      this.settleCaughtUp(error ?? new EventStoreUnavailableError('The subscription ended before it caught up'));
    }
    this.onEnd(this);
  }

  private markCaughtUp(): void {
    if (this.caughtUpSettled) return;
    this.caughtUpSettled = true;
    this.settleCaughtUp();
  }

  private async *deliver(fromPosition: number, target: number): AsyncGenerator<RecordedEvent, void> {
    const { source } = this;
    const stopped = this.abort.signal;
    let cursor = fromPosition;
    try {
      while (!stopped.aborted) {
        const head = source.head();
        if (head <= cursor) {
          // Everything up to the start's head was delivered, even when its last page was full.
          if (cursor >= target) this.markCaughtUp();
          await source.signal.waitForEventsAfter(cursor, stopped);
          continue;
        }
        const page = source.readPage(cursor, head, source.pageSize);
        for (const event of page) {
          // Everything up to `target` was delivered when the consumer pulls past it.
          if (event.position > target) this.markCaughtUp();
          cursor = event.position;
          yield event;
          if (stopped.aborted) return;
        }
        if (page.length < source.pageSize) {
          cursor = head;
          this.markCaughtUp();
        }
      }
    } catch (error) {
      this.stop(error as Error);
      throw error;
    } finally {
      this.stop();
    }
  }
}
