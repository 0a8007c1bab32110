import type { Projection } from '../projection.ts';
import type { ProjectionStatus } from './engine-options.ts';
import type { Engine } from './engine-state.ts';
import type { CatchUpProgress } from './progress.ts';

/** Where a projection stands: run here (live, or served frozen while its new version is built), or by another instance. */
export const statusOf = ({ state, shared }: Engine, projection: Projection): ProjectionStatus => {
  const doc = state.generations.get(projection.name);
  const slot = state.live.get(projection.name);
  const next = state.building.get(projection.name);
  const generation = doc?.live?.generation ?? null;
  // Built here, with its position; or by the instance holding the lease, as the registry says.
  const rebuilding = next
    ? { generation: next.generation.generation, version: next.generation.version, position: next.position ?? null }
    : doc?.next && { generation: doc.next.generation, version: doc.next.version, position: null };
  const common = { name: projection.name, version: projection.version, generation, ...(rebuilding && { rebuilding }) };
  if (slot) {
    const feedReady = state.main?.slots.includes(slot) ? state.ready : false;
    return {
      ...common,
      position: slot.position ?? null,
      caughtUp: feedReady,
      running: !slot.failed && !state.stopped.signal.aborted,
      lastError: slot.lastError,
    };
  }
  if (state.held.has(projection.name)) {
    return { ...common, position: null, caughtUp: state.frozen.has(projection.name), running: !state.stopped.signal.aborted, lastError: null };
  }
  // Unreadable checkpoints mean an unreachable read store: this instance cannot serve fresh reads.
  return {
    ...common,
    position: shared.positionOf(projection.name) ?? null,
    caughtUp: state.sharedError === null,
    running: true,
    lastError: state.sharedError,
    elsewhere: true,
  };
};

export const progress = ({ state, config, shared }: Engine): CatchUpProgress => {
  const { ready } = state;
  // While the projections another instance runs are followed to the head, they are where this instance stands.
  const elsewhere = state.othersAtHead
    ? []
    : config.projections.filter((projection) => !state.live.has(projection.name)).map((projection) => shared.positionOf(projection.name) ?? -1);
  const own = state.main?.applied;
  const position = elsewhere.length > 0 ? Math.min(own ?? Number.POSITIVE_INFINITY, ...elsewhere) : (own ?? null);
  const known = Math.max(state.head, position ?? -1);
  const { eventsPerSecond, positionsPerSecond } = state.meter.rates(Date.now());
  const remaining = known - (position ?? -1);
  const etaSeconds = ready ? 0 : positionsPerSecond > 0 ? Math.ceil(remaining / positionsPerSecond) : null;
  return { ready, position, head: known, eventsPerSecond, etaSeconds };
};

export const refreshHead = async ({ state, config }: Engine): Promise<void> => {
  try {
    state.head = await config.eventStore.headPosition();
  } catch {
    // The next refresh tries again; progress shows the last head known.
  }
};
