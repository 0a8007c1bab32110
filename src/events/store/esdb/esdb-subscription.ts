import { setTimeout as sleep } from 'node:timers/promises';
import { START, type AllStreamResolvedEvent, type AllStreamSubscription, type EventStoreDBClient, type Position } from '@eventstore/db-client';
import { EventStoreUnavailableError, type EventFilter, type RecordedEvent, type Subscription } from '../event-store.ts';
import { isUnavailable, translateError } from './esdb-errors.ts';
import { esdbPosition, isSystemEvent, matchesFilter, toRecordedEvent } from './esdb-events.ts';
import { subscriptionFilter } from './esdb-filters.ts';

export type SubscriptionSource = {
  client: EventStoreDBClient;
  /** Position of the last record of the log, system events included; -1 when it is empty. */
  rawHead(): Promise<number>;
};

export type EsdbSubscriptionOptions = {
  fromPosition: number;
  filter: EventFilter | undefined;
  /** Reconnect when the server goes away (a subscription); or fail at once (a read made of a subscription). */
  reconnect: boolean;
  onEnd?: (subscription: EsdbSubscription) => void;
};

type Item = { kind: 'event'; event: RecordedEvent } | { kind: 'checkpoint'; position: number } | { kind: 'caught-up' };

// Events queued ahead of a slow consumer before the server's stream is paused.
const HIGH_WATER = 512;
const RETRY_FIRST_MS = 100;
const RETRY_MAX_MS = 2_000;

/**
 * The port's catch-up subscription over EventStoreDB's subscription to `$all`, with a server-side
 * filter. Events, checkpoints and `caught_up` go through one queue in the server's order, so:
 * - `caughtUp` resolves once the consumer has pulled every event up to the head read at start (an
 *   event at or past it, or a checkpoint or `caught_up` that comes after them, is reached);
 * - the resume position is the last event or checkpoint queued; when the connection is lost the
 *   queue is kept and a new subscription starts strictly after that position: no gap, no duplicate.
 */
export class EsdbSubscription implements Subscription {
  readonly caughtUp: Promise<void>;
  private settleCaughtUp!: (error?: Error) => void;
  private caughtUpSettled = false;
  private readonly queue: Item[] = [];
  private wake: (() => void) | undefined;
  private stopped = false;
  private failure: unknown;
  private target: number | undefined;
  private resumeFrom: number;
  private current: AllStreamSubscription | undefined;
  private retryDelay = RETRY_FIRST_MS;
  private readonly events: AsyncGenerator<RecordedEvent, void>;

  constructor(
    private readonly source: SubscriptionSource,
    private readonly options: EsdbSubscriptionOptions,
  ) {
    this.resumeFrom = options.fromPosition;
    this.caughtUp = new Promise<void>((resolve, reject) => {
      this.settleCaughtUp = (error) => (error ? reject(error) : resolve());
    });
    this.caughtUp.catch(() => undefined);
    this.events = this.deliver();
    void this.start();
  }

  [Symbol.asyncIterator](): AsyncIterator<RecordedEvent> {
    return this.events;
  }

  async unsubscribe(): Promise<void> {
    this.stop();
  }

  stop(failure?: unknown): void {
    if (this.stopped) return;
    this.stopped = true;
    this.failure = failure;
    this.dropCurrent();
    this.wake?.();
    if (!this.caughtUpSettled) {
      this.caughtUpSettled = true;
      this.settleCaughtUp(failure instanceof Error ? failure : new EventStoreUnavailableError('The subscription ended before it caught up'));
    }
    this.options.onEnd?.(this);
  }

  private markCaughtUp(): void {
    if (this.caughtUpSettled) return;
    this.caughtUpSettled = true;
    this.settleCaughtUp();
  }

  private push(item: Item): void {
    this.queue.push(item);
    this.wake?.();
  }

  /** Reads the head first: `caughtUp` waits for what existed at that moment. */
  private async start(): Promise<void> {
    while (!this.stopped && this.target === undefined) {
      try {
        this.target = await this.source.rawHead();
      } catch (error) {
        if (!this.options.reconnect || !isUnavailable(error)) return this.stop(translateError(error));
        await this.backOff();
      }
    }
    if (this.stopped || this.target === undefined) return;
    if (this.target <= this.resumeFrom) this.markCaughtUp();
    this.connect();
  }

  private async backOff(): Promise<void> {
    await sleep(this.retryDelay);
    this.retryDelay = Math.min(this.retryDelay * 2, RETRY_MAX_MS);
  }

  private connect(): void {
    if (this.stopped) return;
    const fromPosition = this.resumeFrom < 0 ? START : esdbPosition(this.resumeFrom);
    const subscription: AllStreamSubscription = this.source.client.subscribeToAll({
      fromPosition,
      filter: subscriptionFilter(this.options.filter, (_, position) => this.onCheckpoint(subscription, position)),
    });
    this.current = subscription;
    subscription.on('data', (resolved: AllStreamResolvedEvent) => this.onEvent(resolved));
    subscription.on('caughtUp', () => {
      void this.afterBuffered(subscription).then(() => {
        if (this.current === subscription) this.push({ kind: 'caught-up' });
      });
    });
    const lost = (error?: unknown) => {
      if (this.stopped || this.current !== subscription) return;
      this.dropCurrent();
      const failure = error ?? new EventStoreUnavailableError('EventStoreDB ended the subscription');
      if (!this.options.reconnect || !isUnavailable(failure)) return this.stop(translateError(failure));
      void this.backOff().then(() => this.connect());
    };
    subscription.on('error', lost);
    subscription.on('end', () => lost());
    subscription.on('close', () => lost());
  }

  private dropCurrent(): void {
    const subscription = this.current;
    this.current = undefined;
    if (subscription === undefined) return;
    subscription.removeAllListeners('data');
    subscription.on('error', () => undefined);
    void subscription.unsubscribe().catch(() => undefined);
  }

  private onEvent(resolved: AllStreamResolvedEvent): void {
    const commit = resolved.event?.position?.commit ?? resolved.commitPosition;
    const position = commit === undefined ? undefined : Number(commit);
    // After a reconnection the server starts strictly after resumeFrom; the check is a safety net.
    if (position === undefined || position <= this.resumeFrom) return;
    this.resumeFrom = position;
    this.retryDelay = RETRY_FIRST_MS;
    const event = toRecordedEvent(resolved);
    if (event === undefined || isSystemEvent(event) || !matchesFilter(this.options.filter, event)) return;
    this.push({ kind: 'event', event });
    if (this.queue.length >= HIGH_WATER) this.current?.pause();
  }

  private async onCheckpoint(subscription: AllStreamSubscription, position: Position): Promise<void> {
    await this.afterBuffered(subscription);
    if (this.current !== subscription) return;
    const at = Number(position.commit);
    if (at > this.resumeFrom) this.resumeFrom = at;
    this.push({ kind: 'checkpoint', position: at });
  }

  /**
   * The client decodes a checkpoint or `caught_up` while events before it may still sit in its stream's
   * buffer: wait until they have reached the queue, so that the marker is queued after them.
   */
  private async afterBuffered(subscription: AllStreamSubscription): Promise<void> {
    while (subscription.readableLength > 0 && this.current === subscription && !this.stopped) {
      await sleep(subscription.isPaused() ? 5 : 0);
    }
  }

  private async *deliver(): AsyncGenerator<RecordedEvent, void> {
    try {
      for (;;) {
        if (this.stopped) {
          if (this.failure !== undefined) throw this.failure;
          return;
        }
        const item = this.queue.shift();
        if (this.queue.length < HIGH_WATER / 2 && this.current?.isPaused()) this.current.resume();
        if (item === undefined) {
          await new Promise<void>((resolve) => (this.wake = resolve));
          this.wake = undefined;
          continue;
        }
        if (item.kind === 'event') {
          yield item.event;
          // Pulled past it: everything up to this event has been handed over.
          if (item.event.position >= (this.target ?? Infinity)) this.markCaughtUp();
        } else if (item.kind === 'caught-up' || item.position >= (this.target ?? Infinity)) {
          this.markCaughtUp();
        }
      }
    } finally {
      this.stop();
    }
  }
}
