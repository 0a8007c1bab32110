import type { Engine } from './engine-state.ts';
import { readCheckpoint } from '../checkpoints.ts';
import { checkpointName } from './generations.ts';

/*
 * How fresh each read model is, whichever instance runs it: the positions and content versions that
 * answers kept from a read model are checked against. Read-your-writes waits on the same positions
 * (read-your-writes.ts); those of the projections run elsewhere come from shared-checkpoints.ts.
 */

export const appliedPosition = ({ state, shared }: Engine, name: string): number | null => state.live.get(name)?.position ?? shared.positionOf(name) ?? null;

export const currentPosition = async ({ state, config, shared }: Engine, name: string): Promise<number | null> => {
  const slot = state.live.get(name);
  if (slot && !config.sharedStore) return slot.position ?? null;
  const stored = await shared.readNow(name);
  // Read before the read: this process's position, if it runs the projection, is at least what it was then.
  const here = state.live.get(name)?.position;
  const known = [stored, here].filter((position): position is number => position !== undefined);
  return known.length === 0 ? null : Math.max(...known);
};

/** As last known here; for a part of a projection run elsewhere, its checkpoint as last read (any change counts). */
export const contentVersion = (engine: Engine, name: string, part?: string): string | null =>
  localContentVersion(engine, name, part) ?? storedContentVersion(engine, name, engine.shared.positionOf(name));

export const currentContentVersion = async (engine: Engine, name: string, part?: string): Promise<string | null> =>
  localContentVersion(engine, name, part) ??
  (part === undefined ? storedContentVersion(engine, name, await engine.shared.readNow(name)) : await storedPartVersion(engine, name, part));

/** A projection this process runs: its generation and the last batch that changed its documents (or the part's). */
const localContentVersion = ({ state }: Engine, name: string, part?: string): string | undefined => {
  const slot = state.live.get(name);
  // A batch being written: a version of its own, which no answer kept before or after it carries.
  return slot && `${slot.generation.generation}:${slot.lastChangeOf(part) ?? -1}${slot.writing === undefined ? '' : `:writing-${slot.writing}`}`;
};

/** A part of a projection another instance runs: the last change of the part its stored checkpoint records, read now. */
const storedPartVersion = async ({ state, config }: Engine, name: string, part: string): Promise<string | null> => {
  const generation = state.generations.get(name)?.live?.generation;
  if (generation === undefined) return null;
  const checkpoint = await readCheckpoint(config.base, checkpointName(name, generation));
  if (!checkpoint) return null;
  const changes = checkpoint.changes;
  const last = changes ? Math.max(changes.parts[part] ?? -1, changes.whole ?? -1) : checkpoint.position;
  return `${generation}:${last}`;
};

/** One another instance runs: its live generation and a stored checkpoint. */
const storedContentVersion = ({ state }: Engine, name: string, position: number | undefined): string | null => {
  const generation = state.generations.get(name)?.live?.generation;
  return generation === undefined || position === undefined ? null : `${generation}:${position}`;
};
