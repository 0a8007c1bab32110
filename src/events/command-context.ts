import { randomUUID } from 'node:crypto';
import type { Actor } from './store/event-store.ts';

/** Who issues a command and under which correlation: carried into every event's metadata. */
export type CommandContext = {
  actor: Actor;
  correlationId: string;
  causationId?: string;
};

export const systemContext = (correlationId: string = randomUUID()): CommandContext => ({
  actor: { kind: 'system' },
  correlationId,
});

export const cronContext = (correlationId: string = randomUUID()): CommandContext => ({
  actor: { kind: 'cron' },
  correlationId,
});

export type Clock = { now: () => Date };
export const systemClock: Clock = { now: () => new Date() };
