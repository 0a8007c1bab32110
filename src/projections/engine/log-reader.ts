import { nextTurn, TimeSlice } from '../../concurrency/time-slice.ts';
import type { EventStore, RecordedEvent, Subscription } from '../../events/store/event-store.ts';

/** How long a catch-up waits for more events before handing over a batch that is not full. */
const lullMs = 10;

/**
 * One catch-up subscription to the log, read ahead into a bounded queue and handed out in batches:
 * while catching up, batches are full (`maxBatch` events); live, a batch is whatever arrived since the
 * last one was taken, so a command's event is applied as soon as the projections are free, and many
 * commands arriving together share one batch.
 */
export class LogReader {
  private readonly queue: RecordedEvent[] = [];
  private readonly subscription: Subscription;
  private wake: (() => void) | undefined;
  private drained: (() => void) | undefined;
  private ended = false;
  private live = false;
  /** The pump is giving the event loop a turn in the middle of its reading: not a lull of the log. */
  private yielding = false;
  private failure: unknown;
  /** The last event read from the subscription (queued or handed out). */
  private lastRead: number | undefined;
  /** Resolves with the position of the last event read when the subscription caught up (undefined: none read). */
  readonly caughtUp: Promise<number | undefined>;
  private readonly pumping: Promise<void>;

  private readonly maxBatch: number;

  constructor(eventStore: EventStore, options: { fromPosition: number | undefined; eventTypes: readonly string[]; maxBatch: number }) {
    this.maxBatch = options.maxBatch;
    this.subscription = eventStore.subscribeToAll({
      ...(options.fromPosition === undefined || options.fromPosition < 0 ? {} : { fromPosition: options.fromPosition }),
      filter: { eventTypes: options.eventTypes },
    });
    this.caughtUp = this.subscription.caughtUp.then(() => {
      this.live = true;
      this.wake?.();
      return this.lastRead;
    });
    this.caughtUp.catch(() => undefined);
    this.pumping = this.pump();
  }

  /** Events read ahead, not handed out yet. */
  get queued(): number {
    return this.queue.length;
  }

  /** The position of the last event read ahead; the projections will have applied up to it once the queue is empty. */
  get readPosition(): number | undefined {
    return this.lastRead;
  }

  /**
   * The next batch: while catching up, once a full batch is read, or the history ends, or no event has
   * come for a moment (a store that tells late that it has caught up must not hold events back; the
   * turns this reader gives the event loop while it reads are not such a moment); live,
   * as soon as there is an event. Undefined when the subscription has ended (its error, if any, is thrown).
   */
  async next(): Promise<RecordedEvent[] | undefined> {
    let wokenByFirst = false;
    for (;;) {
      if (this.queue.length > 0 && (this.live || this.ended || this.queue.length >= this.maxBatch)) break;
      if (this.ended && this.queue.length === 0) {
        if (this.failure !== undefined) throw this.failure;
        return undefined;
      }
      const waitingFor = this.queue.length;
      wokenByFirst = waitingFor === 0;
      const woken = await new Promise<boolean>((resolve) => {
        const timer = waitingFor > 0 ? setTimeout(() => resolve(false), lullMs) : undefined;
        this.wake = () => {
          clearTimeout(timer);
          resolve(true);
        };
      });
      if (!woken && this.queue.length === waitingFor && !this.yielding) break;
    }
    // Live, the first event of an append wakes this reader while the rest of that append is still
    // being read: one turn lets them arrive, so that a command's events are applied in one batch and
    // no read sees part of them.
    if (wokenByFirst && this.live && !this.ended) await nextTurn();
    const batch = this.queue.splice(0, this.maxBatch);
    this.drained?.();
    return batch;
  }

  async stop(): Promise<void> {
    await this.subscription.unsubscribe();
    this.ended = true;
    this.wake?.();
    this.drained?.();
    await this.pumping;
  }

  private async pump(): Promise<void> {
    // The embedded log's pages are read and parsed synchronously: reading ahead four batches in one
    // turn would hold every request for as long. Only while catching up: live, the events arrive a few
    // at a time, and a turn given after each would spread one append's events over more batches.
    const slice = new TimeSlice();
    try {
      for await (const event of this.subscription) {
        this.queue.push(event);
        this.lastRead = event.position;
        this.wake?.();
        if (!this.live && slice.spent) {
          this.yielding = true;
          await slice.nextTurn();
          this.yielding = false;
        }
        // Read ahead by a few batches at most: a slow projection must not fill the memory.
        while (this.queue.length >= this.maxBatch * 4 && !this.ended) await new Promise<void>((resolve) => (this.drained = resolve));
        if (this.ended) break;
      }
    } catch (error) {
      this.failure = error;
    } finally {
      this.ended = true;
      this.wake?.();
    }
  }
}
