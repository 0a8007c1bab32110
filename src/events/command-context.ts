import { randomUUID } from 'node:crypto';
import type { IdempotentRequest } from './idempotency/idempotent-request.ts';
import type { Actor } from './store/event-store.ts';

/** Who issues a command and under which correlation: carried into every event's metadata. */
export type CommandContext = {
  actor: Actor;
  /** The service's own: never a value a client chose. */
  correlationId: string;
  causationId?: string;
  /** The `X-Request-Id` the client sent, when well-formed: its word, kept apart from the correlation. */
  clientRequestId?: string;
  /** The client's `Idempotency-Key`, when it sent one: see idempotency/idempotent-request.ts. */
  idempotency?: IdempotentRequest;
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
