import { builder } from '../builder.ts';
import { readerOf } from '../event-feed/withheld-fields.ts';
import type { SaleLogEntry } from './sale-log.ts';
import { addressUpdatedSummary } from './sale-log-summary.ts';

/** One event of a sale's history (sale-log.ts). */

export const ActorKindEnum = builder.enumType('ActorKind', {
  description: 'token: an API client (group and label); cron: the scheduler; system: the service itself.',
  values: ['token', 'cron', 'system'] as const,
});

const SaleLogActorRef = builder.objectRef<SaleLogEntry['actor']>('SaleLogActor').implement({
  fields: (t) => ({
    kind: t.expose('kind', { type: ActorKindEnum }),
    group: t.exposeString('group', { nullable: true }),
    label: t.exposeString('label', { nullable: true }),
  }),
});

const SummaryRef = builder.objectRef<SaleLogEntry['summary']>('SaleLogSummary').implement({
  fields: (t) => ({ fr: t.exposeString('fr'), en: t.exposeString('en') }),
});

export const SaleLogEntryRef = builder.objectRef<SaleLogEntry>('SaleLogEntry').implement({
  fields: (t) => ({
    eventId: t.exposeString('eventId'),
    type: t.exposeString('type'),
    stream: t.exposeString('stream'),
    position: t.expose('position', { type: 'Position' }),
    revision: t.exposeInt('revision'),
    occurredAt: t.expose('occurredAt', { type: 'DateTime' }),
    recordedAt: t.expose('recordedAt', { type: 'DateTime' }),
    actor: t.expose('actor', { type: SaleLogActorRef }),
    logUser: t.exposeString('logUser', { nullable: true, description: 'The user the legacy log shows when it differs from the actor.' }),
    correlationId: t.exposeString('correlationId'),
    causationId: t.exposeString('causationId'),
    summary: t.field({
      type: SummaryRef,
      description: 'One line in French and English; for analysts, without personal data (an address change does not show the address).',
      resolve: (entry, _args, context) =>
        readerOf(context) === 'analyst' && entry.type === 'SaleAddressUpdated' ? addressUpdatedSummary(null) : entry.summary,
    }),
  }),
});
