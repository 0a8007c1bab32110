import type { Config } from '../config/config.ts';
import type { Clock } from '../events/command-context.ts';
import type { WriteDeps } from '../events/command-handler.ts';
import type { EventStore } from '../events/store/event-store.ts';
import type { Logger } from '../logger.ts';
import type { ProjectionEngine } from '../projections/engine/engine.ts';
import type { ReadStore } from '../projections/read-store/read-store.ts';

/**
 * What the background jobs use of the service (the composition root, runtime.ts, hands them itself):
 * its settings and log, the clock, the log of events and its command side, the read models and how
 * far they are, and whether the service is still open.
 */
export type JobRuntime = {
  config: Config;
  log: Logger;
  clock: Clock;
  eventStore: EventStore;
  write: WriteDeps;
  readStore: ReadStore;
  projections: Pick<ProjectionEngine, 'waitFor'>;
  isOpen: () => boolean;
};
