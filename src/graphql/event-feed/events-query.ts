import { allEventTypes } from '../../events/registry.ts';
import type { Actor, RecordedEvent } from '../../events/store/event-store.ts';
import { builder } from '../builder.ts';
import { itemsCountedAbove, pageOf, pricedAbove } from '../cost.ts';
import { ActorKindEnum } from '../sale-log/sale-log-entry-type.ts';
import { badUserInput } from '../errors.ts';
import { readFeed, type FeedPage } from './read-feed.ts';
import { feedData, readerOf } from './withheld-fields.ts';

/** The auditors' feed: the event log paged by global position, with no gap and no duplicate. */

const maxPage = 1000;

const EventActorRef = builder.objectRef<Actor>('EventActor').implement({
  fields: (t) => ({
    kind: t.expose('kind', { type: ActorKindEnum }),
    group: t.string({ nullable: true, resolve: (actor) => (actor.kind === 'token' ? actor.group : null) }),
    label: t.string({ nullable: true, resolve: (actor) => (actor.kind === 'token' ? actor.label : null) }),
  }),
});

const LoggedEventRef = builder.objectRef<RecordedEvent>('LoggedEvent').implement({
  fields: (t) => ({
    eventId: t.exposeString('id'),
    type: t.exposeString('type'),
    stream: t.exposeString('streamName'),
    revision: t.exposeInt('revision'),
    position: t.expose('position', { type: 'Position' }),
    data: t.field({
      type: 'JSON',
      description:
        'As recorded, at its schema version; credentials withheld (an access token’s secretHash); for analysts, personal data (names, e-mails, phones, addresses, customers’ texts) shown as "[redacted]". Auditor and core tokens see it as recorded.',
      resolve: (event, _args, context) => feedData(event.type, event.data, readerOf(context)),
    }),
    schemaVersion: t.int({ resolve: (event) => event.metadata.schemaVersion ?? 1 }),
    actor: t.field({ type: EventActorRef, resolve: (event) => event.metadata.actor }),
    correlationId: t.string({ description: "The service's id of the request or job that caused the event.", resolve: (event) => event.metadata.correlationId }),
    clientRequestId: t.string({
      nullable: true,
      description: 'The X-Request-Id its client sent with that request, as sent: the client’s word, not the correlation.',
      resolve: (event) => event.metadata.clientRequestId ?? null,
    }),
    causationId: t.string({ resolve: (event) => event.metadata.causationId }),
    occurredAt: t.field({ type: 'DateTime', resolve: (event) => event.metadata.occurredAt }),
    recordedAt: t.expose('recordedAt', { type: 'DateTime' }),
  }),
});

type EventPage = FeedPage & { after: number | null };

const EventPageRef = builder.objectRef<EventPage>('EventPage').implement({
  fields: (t) => ({
    events: t.expose('events', { type: [LoggedEventRef], complexity: itemsCountedAbove }),
    endCursor: t.field({
      type: 'Position',
      nullable: true,
      complexity: pricedAbove,
      description: 'Pass it as `after` to read on: the last position of this page (the `after` given when the page is empty).',
      resolve: (page) => page.events.at(-1)?.position ?? page.after,
    }),
    hasNextPage: t.exposeBoolean('hasNextPage', { complexity: pricedAbove }),
  }),
});

const knownTypes = new Set<string>(allEventTypes);

builder.queryField('events', (t) =>
  t.field({
    type: EventPageRef,
    description: `The events strictly after \`after\` (the start of the log when omitted), in log order; at most ${maxPage} per page.`,
    args: {
      after: t.arg({ type: 'Position' }),
      types: t.arg.stringList({ description: 'Only these event types.' }),
      streamPrefix: t.arg.string({ description: 'Only the streams whose name starts with this, e.g. "sale-".' }),
      from: t.arg({ type: 'DateTime', description: 'Only the events recorded at or after this instant.' }),
      to: t.arg({ type: 'DateTime', description: 'Only the events recorded before this instant (exclusive).' }),
      first: t.arg.int({ required: true, defaultValue: 100 }),
    },
    // The field and its list, and each event read; what is asked of an event, once per event.
    complexity: ({ first }) => ({ field: 2 + pageOf(first, 100), multiplier: pageOf(first, 100) }),
    resolve: async (_root, args, { runtime }) => {
      if (args.first < 1 || args.first > maxPage) throw badUserInput('first', `must be from 1 to ${maxPage}`);
      const unknown = args.types?.find((type) => !knownTypes.has(type));
      if (unknown !== undefined) throw badUserInput('types', `unknown event type ${unknown}`);
      if (args.types?.length === 0) throw badUserInput('types', 'must name at least one type when given');
      if (args.from && args.to && Date.parse(args.to) <= Date.parse(args.from)) throw badUserInput('to', `must be after from (${args.from})`);
      const page = await readFeed(runtime.eventStore, {
        first: args.first,
        ...(args.after !== null && args.after !== undefined && { after: args.after }),
        ...(args.types && { types: args.types }),
        ...(args.streamPrefix !== null && args.streamPrefix !== undefined && { streamPrefix: args.streamPrefix }),
        ...(args.from && { from: args.from }),
        ...(args.to && { to: args.to }),
      });
      return { ...page, after: args.after ?? null };
    },
  }),
);
