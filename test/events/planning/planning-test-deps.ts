import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemContext, type CommandContext } from '../../../src/events/command-context.ts';
import type { PlanningDeps } from '../../../src/events/planning/planning-handlers.ts';
import { openSqliteEventStore, type SqliteEventStore } from '../../../src/events/store/sqlite-event-store.ts';

/** Monday 2 March 2026, 09:00 in Paris: a working day that is no holiday. */
export const frozenNow = new Date('2026-03-02T08:00:00.000Z');
/** The Monday after: every SAV and delivery slot of that day is open. */
export const nextMonday = '2026-03-09';

export type TestPlanning = { deps: PlanningDeps & { eventStore: SqliteEventStore }; context: CommandContext; close: () => Promise<void> };

/** A planning on a fresh embedded store in a temporary file, with a frozen clock. */
export const openTestPlanning = async (now: Date = frozenNow): Promise<TestPlanning> => {
  const directory = await mkdtemp(join(tmpdir(), 'planning-'));
  const eventStore = openSqliteEventStore({ file: join(directory, 'events.sqlite') });
  return {
    deps: { eventStore, clock: { now: () => new Date(now) }, timezone: 'Europe/Paris' },
    context: systemContext(),
    close: async () => {
      await eventStore.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
};
