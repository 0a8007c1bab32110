import { decodeEvent } from '../events/catalogue/catalogue.ts';
import type { EventStore, RecordedEvent, Subscription } from '../events/store/event-store.ts';
import { CheckpointWriter, readCheckpoint, type CheckpointPolicy } from './checkpoints.ts';
import type { Projection } from './projection.ts';
import type { ReadStore } from './read-store/read-store.ts';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type ProjectionLog = (level: LogLevel, message: string, fields?: Record<string, unknown>) => void;

export type ProjectionStatus = {
  name: string;
  /** Position of the last event it applied; null before the first one. */
  position: number | null;
  caughtUp: boolean;
  running: boolean;
  lastError: string | null;
};

export type RunnerDeps = {
  eventStore: EventStore;
  readStore: ReadStore;
  log: ProjectionLog;
  checkpointPolicy?: CheckpointPolicy;
};

/**
 * Feeds one projection from a catch-up subscription filtered on its event types, starting after its
 * checkpoint. Events are applied one at a time, in log order. An event that cannot be decoded or
 * applied stops the runner, leaving the checkpoint on the event before it: skipping it would leave the
 * read model silently wrong, and it is retried at the next start.
 */
export class ProjectionRunner {
  private position: number | undefined;
  private caughtUp = false;
  private running = false;
  private stopping = false;
  private lastError: string | undefined;
  private subscription: Subscription | undefined;
  private loop: Promise<void> = Promise.resolve();
  private readonly listeners = new Set<() => void>();

  constructor(
    readonly projection: Projection,
    private readonly deps: RunnerDeps,
  ) {}

  /** The position it has applied everything up to, as far as its events go; undefined: nothing yet. */
  get appliedPosition(): number | undefined {
    return this.position;
  }

  get isRunning(): boolean {
    return this.running;
  }

  /** Starts after the stored checkpoint; resolves once caught up with the log as it was now, or once it stopped. */
  async start(): Promise<void> {
    if (this.running) return;
    const { eventStore, readStore, checkpointPolicy } = this.deps;
    const { name, eventTypes } = this.projection;
    const checkpoint = await readCheckpoint(readStore, name);
    const checkpoints = new CheckpointWriter(readStore, name, checkpoint, checkpointPolicy);
    this.position = checkpoint;
    this.caughtUp = false;
    this.stopping = false;
    this.lastError = undefined;
    const subscription = eventStore.subscribeToAll({
      ...(checkpoint === undefined ? {} : { fromPosition: checkpoint }),
      filter: { eventTypes },
    });
    this.subscription = subscription;
    this.running = true;
    const caughtUp = subscription.caughtUp.then(async () => {
      this.caughtUp = true;
      this.notify();
      await checkpoints.flush();
    });
    this.loop = this.run(subscription, checkpoints);
    await Promise.race([caughtUp, this.loop]).catch(() => undefined);
  }

  /** Ends the subscription once the event in hand is applied, and saves the checkpoint. */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.subscription?.unsubscribe();
    await this.loop;
  }

  status(): ProjectionStatus {
    return {
      name: this.projection.name,
      position: this.position ?? null,
      caughtUp: this.caughtUp,
      running: this.running,
      lastError: this.lastError ?? null,
    };
  }

  /** Resolves true once it has applied up to `position`; false if it stops first or `signal` aborts. */
  waitUntil(position: number, signal: AbortSignal): Promise<boolean> {
    return new Promise((resolve) => {
      const check = (): void => {
        const reached = this.position !== undefined && this.position >= position;
        if (!reached && this.running && !signal.aborted) return;
        this.listeners.delete(check);
        signal.removeEventListener('abort', check);
        resolve(reached);
      };
      this.listeners.add(check);
      signal.addEventListener('abort', check, { once: true });
      check();
    });
  }

  private notify(): void {
    for (const listener of [...this.listeners]) listener();
  }

  private async run(subscription: Subscription, checkpoints: CheckpointWriter): Promise<void> {
    try {
      for await (const recorded of subscription) {
        try {
          await this.projection.apply(decodeEvent(recorded), this.deps.readStore);
        } catch (error) {
          this.fail(error, recorded);
          return; // leaving the loop ends the subscription
        }
        this.position = recorded.position;
        this.notify();
        // Batched while catching up: a crash replays at most one batch, which the idempotent
        // updates of the projections absorb.
        await checkpoints.advance(recorded.position, this.caughtUp);
      }
    } catch (error) {
      if (!this.stopping) this.fail(error);
    } finally {
      this.running = false;
      await checkpoints.flush().catch((error: unknown) => this.fail(error));
      this.notify();
    }
  }

  private fail(error: unknown, event?: RecordedEvent): void {
    const message = error instanceof Error ? error.message : String(error);
    this.lastError = event ? `${event.type} at position ${event.position}: ${message}` : message;
    this.deps.log('error', event ? 'Projection stopped on an event it could not apply' : 'Projection stopped', {
      projection: this.projection.name,
      ...(event && { eventType: event.type, position: event.position, eventId: event.id, streamName: event.streamName }),
      error: message,
    });
  }
}
