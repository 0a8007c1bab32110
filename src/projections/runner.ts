import { decodeEvent } from '../events/catalogue/catalogue.ts';
import type { EventStore, RecordedEvent, Subscription } from '../events/store/event-store.ts';
import { CheckpointWriter, readCheckpoint, type CheckpointPolicy } from './checkpoints.ts';
import type { Projection } from './projection.ts';
import { ReadStoreUnavailableError, type ReadStore } from './read-store/read-store.ts';

/** Waits between tries while the read store is unreachable: doubling from the first to the last. */
const retryBaseMs = 50;
const retryMaxMs = 2000;

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type ProjectionLog = (level: LogLevel, message: string, fields?: Record<string, unknown>) => void;

export type ProjectionStatus = {
  name: string;
  /** Position of the last event it applied; null before the first one. */
  position: number | null;
  caughtUp: boolean;
  running: boolean;
  lastError: string | null;
  /**
   * Another instance sharing the read store holds its lease and runs it: `position` is then its stored
   * checkpoint as last read, and `running` is that instance's business (reported true); `lastError`
   * says why that checkpoint could not be read (the read store unreachable), and `caughtUp` is then false.
   */
  elsewhere?: boolean;
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
 * read model silently wrong, and it is retried at the next start. An unreachable read store is not
 * such a failure: the runner waits for it and goes on where it was.
 */
export class ProjectionRunner {
  private position: number | undefined;
  private caughtUp = false;
  private running = false;
  private stopping = false;
  private lastError: string | undefined;
  private subscription: Subscription | undefined;
  private loop: Promise<void> = Promise.resolve();
  /** Starts and stops run one after the other, whoever asks (a lease may change hands quickly). */
  private lifecycle: Promise<unknown> = Promise.resolve();
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
    const opened = this.lifecycle.then(() => this.open());
    this.lifecycle = opened.catch(() => undefined);
    await (await opened).ready;
  }

  /** Ends the subscription once the event in hand is applied, and saves the checkpoint. */
  async stop(): Promise<void> {
    // At once, so that a start still waiting for the read store gives up.
    this.stopping = true;
    const closed = this.lifecycle.then(() => this.close());
    this.lifecycle = closed.catch(() => undefined);
    await closed;
  }

  private async open(): Promise<{ ready: Promise<unknown> }> {
    if (this.running) return { ready: Promise.resolve() };
    const { eventStore, readStore, checkpointPolicy } = this.deps;
    const { name, eventTypes } = this.projection;
    this.stopping = false;
    this.lastError = undefined;
    let checkpoint: number | undefined;
    const read = await this.untilAvailable(async () => void (checkpoint = await readCheckpoint(readStore, name)));
    if (!read) return { ready: Promise.resolve() };
    const checkpoints = new CheckpointWriter(readStore, name, checkpoint, checkpointPolicy);
    this.position = checkpoint;
    this.caughtUp = false;
    const subscription = eventStore.subscribeToAll({
      ...(checkpoint === undefined ? {} : { fromPosition: checkpoint }),
      filter: { eventTypes },
    });
    this.subscription = subscription;
    this.running = true;
    const caughtUp = subscription.caughtUp.then(
      async () => {
        this.caughtUp = true;
        this.notify();
        await checkpoints.flush();
      },
      // Ended before catching up (a failed event, a stop): wait for the loop, which saves the checkpoint last.
      () => this.loop,
    );
    this.loop = this.run(subscription, checkpoints);
    return { ready: Promise.race([caughtUp, this.loop]).catch(() => undefined) };
  }

  private async close(): Promise<void> {
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
          const event = decodeEvent(recorded);
          if (!(await this.untilAvailable(() => this.projection.apply(event, this.deps.readStore)))) return;
        } catch (error) {
          this.fail(error, recorded);
          return; // leaving the loop ends the subscription
        }
        this.position = recorded.position;
        this.notify();
        // Batched while catching up: a crash replays at most one batch, which the idempotent
        // updates of the projections absorb.
        if (!(await this.untilAvailable(() => checkpoints.advance(recorded.position, this.caughtUp)))) return;
      }
    } catch (error) {
      if (!this.stopping) this.fail(error);
    } finally {
      this.running = false;
      await checkpoints.flush().catch((error: unknown) => this.fail(error));
      this.notify();
    }
  }

  /**
   * Runs `step`, again and again while the read store is unreachable (the event in hand is then applied
   * once it is back: the updates are idempotent, so a write whose outcome was lost may be made twice).
   * False when stopped meanwhile; any other error is thrown.
   */
  private async untilAvailable(step: () => Promise<void>): Promise<boolean> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        await step();
        if (attempt > 0) {
          this.lastError = undefined;
          this.deps.log('info', 'Read store reachable again; projection resumes', { projection: this.projection.name });
        }
        return true;
      } catch (error) {
        if (!(error instanceof ReadStoreUnavailableError)) throw error;
        if (this.stopping) return false;
        this.lastError = error.message;
        if (attempt === 0) this.deps.log('warn', 'Read store unreachable; projection waits for it', { projection: this.projection.name, error: error.message });
        await new Promise((resolve) => setTimeout(resolve, Math.min(retryBaseMs * 2 ** attempt, retryMaxMs)));
        if (this.stopping) return false;
      }
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
