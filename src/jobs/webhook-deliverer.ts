import { nextAttemptAfter } from '../events/retry-schedule.ts';
import { setTimeout as wait } from 'node:timers/promises';
import { createPace } from '../concurrency/pace.ts';
import { TimeSlice } from '../concurrency/time-slice.ts';
import { cronContext } from '../events/command-context.ts';
import { handleCommand } from '../events/command-handler.ts';
import { fold } from '../events/decider.ts';
import { readDomainStream, type StreamState } from '../events/domain-store.ts';
import { decodeEvent, type StoredEvent } from '../events/registry.ts';
import type { SupplierName } from '../events/schema/common-schemas.ts';
import type { SaleEvent } from '../events/sales/events.ts';
import { evolve as evolveSale, initialState as noSale, type Sale } from '../events/sales/state.ts';
import type { RecordedEvent } from '../events/store/event-store.ts';
import { webhookDeliveryEventTypes, webhookDeliveryStreamName, webhookMessageId, webhookStreamName } from '../events/webhooks/events.ts';
import {
  isDeliveryDue,
  isDeliverySettled,
  webhookDeliveryDecider,
  type DeliveryRef,
  type WebhookDeliveryCommand,
  type WebhookDeliveryEvent,
  type WebhookDeliveryState,
} from '../events/webhooks/webhook-delivery-decider.ts';
import { webhookSubscriptionDecider, type WebhookSubscriptionEvent, type WebhookSubscriptionState } from '../events/webhooks/webhook-subscription-decider.ts';
import { labelLinkKey } from '../labels/label-link-signature.ts';
import { createLabelLinks, type LabelLinks } from '../labels/label-links.ts';
import { holdJobLease } from '../leases/job-lease.ts';
import { ringOnAppend, type LogDoorbell } from './log-doorbell.ts';
import { allSubscriptions, redeliveriesRequested } from '../projections/webhooks/queries.ts';
import type { WebhookSubscriptionDocument } from '../projections/webhooks/webhooks-projection.ts';
import { localDateIn } from '../time/local-dates.ts';
import { webhookMessagesOf, webhookSourceTypes, type WebhookMessage, type WebhookSourceEvent } from '../webhooks/webhook-messages.ts';
import { webhookSecret } from '../webhooks/webhook-secret.ts';
import type { SendOutcome, WebhookSendOptions } from '../webhooks/webhook-sender.ts';
import { startWebhookSendThread } from '../webhooks/webhook-send-thread.ts';
import type { JobRuntime } from './job-runtime.ts';

/**
 * The outbox of the suppliers' webhooks, derived from the log and run by the one instance holding its
 * lease (`job:webhook-deliveries`). Each active subscription has a loop of its own, so that a slow or
 * dead receiver holds nothing but itself: it reads the log from its checkpoint, filtered on the events
 * that concern suppliers, and sends its supplier's messages of the kinds it asked for in log order,
 * each signed as Standard Webhooks says, each once the one before it was answered 2xx. A 2xx within
 * 10 s is delivered; anything else is retried with exponential backoff (5 s, 30 s, 2 min, 10 min,
 * 30 min, 1 h, 2 h, then every 4 h) and nothing after it is sent meanwhile; a day after its first
 * failure the subscription is marked failing (log line, metric, visible in its listing) and its loop
 * stops, to resume from that same message when someone resumes it.
 *
 * A loop goes a window at a time (16 messages at most): it prepares the window's messages (each still
 * owed, its body), hands the window to the sending thread (webhook-send-thread.ts), which sends them
 * in order off the event loop that answers the API, stopping at the first failure or after a second of
 * sending, and hands back their outcomes together; the loop then records them together and moves
 * its checkpoint past those settled. Under load the event loop thus takes a few turns per window
 * rather than one per message; a window of 16 keeps each of those turns short (its records are one
 * append each, applied by the read models as a batch), where 64 made turns that the API's requests
 * queued behind (bench:webhooks, docs/benchmarks.md). The windows of all the loops keep to a pace
 * (`deliveriesPerSecond`: WEBHOOK_DELIVERIES_PER_SECOND, 600 by default), so that a backlog's drain
 * leaves the API its share, and the sending thread runs at a lower priority than the one answering the
 * API. A window's subscription state (its secrets, a removal, a failing mark) is read as the window is
 * prepared.
 *
 * At least once, never lost: each message's own stream (`webhookdelivery-<id>-<messageId>`) records
 * its attempts and says, when its window is prepared, whether it is still owed; the checkpoint only
 * spares reading the log again, and stays before a message not settled. A crash after the receiver's
 * 2xx and before the records sends again what the window in flight had delivered: at most one window
 * per subscription, each message with its same `webhook-id`. A subscription sees the events after the
 * log position it was made at. A loop reads a message's stream only where an attempt may be recorded:
 * a message it attempted itself, or one found recorded, at its start, in one read of the log between
 * its checkpoint and the log's head then (a backlog after a restart is not one stream read per message).
 */

export type WebhookDelivererOptions = {
  send?: WebhookSendOptions;
  /** How often a loop that has caught up looks at the log again when no new event woke it (default 1 s). */
  pollMs?: number;
  /** The wait after the n-th failure (default: the schedule above); the last one repeats. */
  retryDelaysMs?: readonly number[];
  /** A subscription failing this long is marked failing (default a day). */
  failingAfterMs?: number;
  /** How often the list of subscriptions is read again (default 1 s). */
  refreshMs?: number;
  /** The most messages of a subscription sent in one window (default 16). */
  windowSize?: number;
  /** A window stops sending, the rest unsent, once it has been sending this long (default 1 s). */
  windowMs?: number;
  /**
   * At most this many messages a second are sent on average, over every subscription of this instance
   * (default: no limit). A backlog's deliveries then leave the thread that answers the API its share:
   * each costs it the message's preparation and the record of its outcome.
   */
  deliveriesPerSecond?: number;
};

export type WebhookDeliverer = {
  stop: () => Promise<void>;
  /** Whether this instance holds the deliverer's lease. */
  running: () => boolean;
};

export const webhookJobName = 'webhook-deliveries';
const checkpointCollection = 'job_checkpoints';
const defaultRetryDelaysMs = [5_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000, 7_200_000, 14_400_000];
const pageSize = 100;
const recordsPageSize = 1_000;
/**
 * How long a loop reads the log and prepares messages before giving the event loop a turn: the embedded
 * stores answer synchronously behind their promises, so that a page or a window would otherwise be
 * read and prepared whole while the API's requests wait (a page of 100 events took about 18 ms).
 */
const sliceMs = 3;
/** The sales a loop keeps from one event to the next of the same stream. */
const maxSalesKept = 1_000;

type CheckpointDocument = { _id: string; position: number };
const checkpointId = (subscriptionId: string) => `${webhookJobName}:${subscriptionId}`;

/** Waits `ms`, or less when the loop stops. */
const sleep = (ms: number, signal: AbortSignal): Promise<void> => wait(ms, undefined, { signal }).catch(() => undefined);

export const startWebhookDeliverer = (runtime: JobRuntime, settings: { tokenSecret: string }, options: WebhookDelivererOptions = {}): WebhookDeliverer => {
  const pollMs = options.pollMs ?? 1_000;
  const retryDelaysMs = options.retryDelaysMs ?? defaultRetryDelaysMs;
  const failingAfterMs = options.failingAfterMs ?? 24 * 60 * 60 * 1000;
  const windowSize = options.windowSize ?? 16;
  const sendThread = startWebhookSendThread({ send: options.send, windowMs: options.windowMs });
  const pace = createPace(options.deliveriesPerSecond ?? Number.POSITIVE_INFINITY);
  const orderDate = localDateIn(runtime.config.planningTimezone);
  const linkKey = labelLinkKey(settings.tokenSecret);
  const labelLinks = new Map<SupplierName, LabelLinks>();
  const linksOf = (supplier: SupplierName) => {
    let links = labelLinks.get(supplier);
    if (!links) labelLinks.set(supplier, (links = createLabelLinks({ key: linkKey, supplier, clock: runtime.clock })));
    return links;
  };

  /**
   * The messages a recorded source event owes, from the sale just before and just after it. The sale
   * before is nothing for a stream's first event, the one kept from the loop's previous event of the
   * same stream, or else its stream read and folded up to there.
   */
  type Sales = Map<string, { revision: number; sale: Sale | null }>;
  const messagesOf = async (
    recorded: RecordedEvent,
    sales: Sales = new Map(),
  ): Promise<{ event: StoredEvent<WebhookSourceEvent>; messages: WebhookMessage[] }> => {
    const event = decodeEvent(recorded) as StoredEvent<WebhookSourceEvent>;
    const kept = sales.get(recorded.streamName);
    let before: Sale | null;
    if (recorded.revision === 0) before = null;
    else if (kept?.revision === recorded.revision - 1) before = kept.sale;
    else {
      const { events } = await readDomainStream<SaleEvent>(runtime.eventStore, recorded.streamName);
      before = fold(
        { initialState: noSale, evolve: evolveSale },
        events.filter((earlier) => earlier.revision < recorded.revision),
      ) as Sale | null;
    }
    const after = evolveSale(before, event as unknown as SaleEvent);
    if (sales.size >= maxSalesKept) sales.clear();
    sales.set(recorded.streamName, { revision: recorded.revision, sale: after });
    return { event, messages: after === null ? [] : webhookMessagesOf(event, before, after, orderDate) };
  };

  const bodyOf = (event: StoredEvent<WebhookSourceEvent>, message: WebhookMessage, supplier: SupplierName): string => {
    const links = linksOf(supplier);
    const label = `${runtime.config.baseUrl}/api/files/labels/${supplier}/${message.serviceOrderId}.pdf${links.query(message.serviceOrderId, links.expiresNow())}`;
    return JSON.stringify({
      type: message.kind,
      timestamp: event.recordedAt,
      data: { ...message.data, ...(message.withLabelLink && { link_to_label: label }), event_id: event.id, position: event.position },
    });
  };

  /** Records an attempt in its message's stream, decided against the stream as read just before the attempt when given. */
  const record = (ref: DeliveryRef, command: WebhookDeliveryCommand, read?: StreamState<WebhookDeliveryEvent>) =>
    handleCommand(runtime.write, webhookDeliveryStreamName(ref.subscriptionId, ref.messageId), webhookDeliveryDecider, command, cronContext(), {
      stream: read,
    });

  /** A subscription's signing secrets, derived once for each version. */
  const secrets = new Map<string, string>();
  const secretOf = (subscriptionId: string, version: number): string => {
    const key = `${subscriptionId}:${version}`;
    let secret = secrets.get(key);
    if (!secret) secrets.set(key, (secret = webhookSecret(settings.tokenSecret, subscriptionId, version)));
    return secret;
  };

  /**
   * A subscription's state from its stream, as it stands before each window (a rotation's secrets, a
   * removal, a failing mark take effect from the next window): its last revision is read, and the
   * stream folded again only when that has changed.
   */
  const subscriptionStates = new Map<string, { state: WebhookSubscriptionState; revision: number }>();
  const subscriptionState = async (subscriptionId: string): Promise<WebhookSubscriptionState> => {
    const name = webhookStreamName(subscriptionId);
    const [last] = await runtime.eventStore.readStream(name, { direction: 'backwards', maxCount: 1 });
    const kept = subscriptionStates.get(subscriptionId);
    if (kept && last && kept.revision === last.revision) return kept.state;
    const { events } = await readDomainStream<WebhookSubscriptionEvent>(runtime.eventStore, name);
    const state = fold(webhookSubscriptionDecider, events);
    subscriptionStates.set(subscriptionId, { state, revision: events.at(-1)?.revision ?? -1 });
    return state;
  };
  type ActiveSubscription = Extract<WebhookSubscriptionState, { status: 'active' }>;

  /** A message owed to a subscription, from the log; `attempted` once this loop has recorded an attempt at it. */
  type Owed = { event: StoredEvent<WebhookSourceEvent>; message: WebhookMessage; attempted?: boolean };
  /** A message of a window, owed and due, with its stream as read when the window was prepared. */
  type Prepared = { owed: Owed; ref: DeliveryRef; stream: StreamState<WebhookDeliveryEvent>; state: WebhookDeliveryState; body: string };
  /**
   * What a window came to: how many of the messages it was given are settled, from the first, and what
   * the loop does next: go on with the next window; wait, the first message not settled being due at
   * `until`; or stop, the subscription failing or no longer active.
   */
  type Next = { next: 'go_on' } | { next: 'wait'; until: number } | { next: 'stop' };
  type Step = { settled: number } & Next;

  /** Records a failed attempt: tried again after its backoff or, past the failing period, the subscription marked failing. */
  const recordFailure = async (current: ActiveSubscription, { ref, state }: Prepared, sent: Extract<SendOutcome, { ok: false }>, at: Date): Promise<Next> => {
    // The failing period runs from the first failure since the last success, or since the last resumption.
    const failingSince = Math.max(state.failingSince ? Date.parse(state.failingSince) : at.getTime(), current.resumedAt ? Date.parse(current.resumedAt) : 0);
    if (at.getTime() - failingSince >= failingAfterMs) {
      await record(ref, { type: 'RecordDeliveryFailed', ...ref, status: sent.status, error: sent.error, nextAttemptAt: null, at: at.toISOString() });
      await handleCommand(
        runtime.write,
        webhookStreamName(ref.subscriptionId),
        webhookSubscriptionDecider,
        { type: 'MarkFailing', messageId: ref.messageId, lastError: sent.error, at: at.toISOString() },
        cronContext(),
      );
      runtime.log.warn(
        { subscriptionId: ref.subscriptionId, supplier: current.supplier, messageId: ref.messageId, error: sent.error },
        'webhook subscription marked failing: deliveries refused for a day; nothing more is sent until it is resumed',
      );
      return { next: 'stop' };
    }
    const nextAttemptAt = nextAttemptAfter(retryDelaysMs, state.attempts, at);
    await record(ref, {
      type: 'RecordDeliveryFailed',
      ...ref,
      status: sent.status,
      error: sent.error,
      nextAttemptAt: nextAttemptAt.toISOString(),
      at: at.toISOString(),
    });
    runtime.log.info(
      { subscriptionId: ref.subscriptionId, messageId: ref.messageId, error: sent.error, nextAttemptAt },
      'webhook not delivered; retried later',
    );
    return { next: 'wait', until: nextAttemptAt.getTime() };
  };

  /**
   * One window of a subscription's messages, the first `windowSize` of `owed` at most: each prepared as
   * it stands now (its stream says whether it is still owed, read unless `mayBeRecorded` says no
   * attempt at it can have been recorded), the window
   * ending before a message not yet due; then sent by the sending thread in order, stopping at the first
   * failure; then the outcomes recorded together (their appends started in one turn: the embedded store
   * commits them in one transaction, hence one fsync on the thread that answers the API, EventStoreDB
   * receives them side by side).
   */
  const deliverWindow = async (
    subscription: WebhookSubscriptionDocument,
    owed: readonly Owed[],
    mayBeRecorded: (item: Owed, messageId: string) => boolean,
    signal: AbortSignal,
  ): Promise<Step> => {
    const current = await subscriptionState(subscription._id);
    if (current.status !== 'active' || current.failing) return { settled: 0, next: 'stop' };
    const now = runtime.clock.now();
    const signingSecrets = [secretOf(current.subscriptionId, current.secretVersion)];
    if (current.previousValidUntil && Date.parse(current.previousValidUntil) > now.getTime()) {
      signingSecrets.push(secretOf(current.subscriptionId, current.secretVersion - 1));
    }
    // Each message in order: settled already (null), or to be sent; the window ends before one not due.
    const window: (Prepared | null)[] = [];
    let notDue: number | undefined;
    const slice = new TimeSlice(sliceMs);
    for (const item of owed.slice(0, windowSize)) {
      // A turn of the event loop now and then: the API's requests that arrived meanwhile go first.
      if (slice.spent) await slice.nextTurn();
      const ref: DeliveryRef = {
        subscriptionId: subscription._id,
        messageId: webhookMessageId(item.event.id, item.message.serviceOrderId),
        sourceEventId: item.event.id,
        serviceOrderId: item.message.serviceOrderId,
        position: item.event.position,
        kind: item.message.kind,
      };
      const stream: StreamState<WebhookDeliveryEvent> = !mayBeRecorded(item, ref.messageId)
        ? { events: [], revision: 'no_stream' }
        : await readDomainStream<WebhookDeliveryEvent>(runtime.eventStore, webhookDeliveryStreamName(ref.subscriptionId, ref.messageId));
      const state = fold(webhookDeliveryDecider, stream.events);
      if (isDeliverySettled(state)) window.push(null);
      else if (isDeliveryDue(state, now)) window.push({ owed: item, ref, stream, state, body: bodyOf(item.event, item.message, current.supplier) });
      else {
        notDue = Date.parse(state.nextAttemptAt!);
        break;
      }
    }
    const sending = window.filter((prepared): prepared is Prepared => prepared !== null);
    if (sending.length > 0) await pace.reserve(sending.length, signal);
    const outcomes =
      sending.length === 0
        ? []
        : await sendThread.send(
            {
              subscriptionId: subscription._id,
              url: current.url,
              secrets: signingSecrets,
              messages: sending.map(({ ref, body }) => ({ id: ref.messageId, body })),
            },
            signal,
          );

    const at = runtime.clock.now();
    const records: Promise<unknown>[] = [];
    let settled = 0;
    let next: Next | Promise<Next> = notDue === undefined || window.length > 0 ? { next: 'go_on' } : { next: 'wait', until: notDue };
    let sent = 0;
    for (const prepared of window) {
      if (prepared === null) {
        settled++;
        continue;
      }
      const outcome = outcomes[sent++];
      // Not sent: after a failure, past the window's time, or the loop stopping; prepared again in a later window.
      if (!outcome) break;
      if (outcome.ok) {
        records.push(record(prepared.ref, { type: 'RecordDelivered', ...prepared.ref, status: outcome.status, at: at.toISOString() }, prepared.stream));
        settled++;
        continue;
      }
      // Broken off because the loop stops: not the receiver's failure, tried again by the next loop.
      if (signal.aborted) break;
      prepared.owed.attempted = true;
      next = recordFailure(current, prepared, outcome, at);
      break;
    }
    const [decided] = await Promise.all([next, ...records]);
    return { settled, ...decided };
  };

  /**
   * Delivers `owed` in order, a window at a time, each failure retried in turn with backoff; true once
   * all are settled, false when the loop is to stop.
   */
  const deliverAll = async (subscription: WebhookSubscriptionDocument, owed: Owed[], signal: AbortSignal): Promise<boolean> => {
    while (owed.length > 0 && !signal.aborted) {
      const step = await deliverWindow(subscription, owed, () => true, signal);
      owed.splice(0, step.settled);
      if (step.next === 'stop') return false;
      if (step.next === 'wait') await sleep(waitFor(step.until), signal);
    }
    return !signal.aborted;
  };
  /** How long a loop waits for a message's next attempt before looking again (a second at most: the clock may move). */
  const waitFor = (until: number) => Math.max(0, Math.min(until - runtime.clock.now().getTime(), 1_000));

  const readCheckpoint = async (subscriptionId: string): Promise<number | null> =>
    (await runtime.readStore.collection<CheckpointDocument>(checkpointCollection).findOne({ _id: checkpointId(subscriptionId) }))?.position ?? null;
  const writeCheckpoint = (subscriptionId: string, position: number) =>
    runtime.readStore
      .collection<CheckpointDocument>(checkpointCollection)
      .updateOne({ _id: checkpointId(subscriptionId) }, { $set: { position } }, { upsert: true });

  /** The messages someone asked to have sent again, each once more, in log order. */
  const redeliver = async (subscription: WebhookSubscriptionDocument, signal: AbortSignal): Promise<boolean> => {
    const owed: Owed[] = [];
    for (const requested of await redeliveriesRequested(runtime.readStore, subscription._id, 20)) {
      const [recorded] = await runtime.eventStore.readAll({ fromPosition: requested.position - 1, maxCount: 1 });
      if (recorded?.position !== requested.position) continue;
      const { event, messages } = await messagesOf(recorded);
      const message = messages.find((candidate) => candidate.serviceOrderId === requested.serviceOrderId && candidate.kind === requested.kind);
      if (message) owed.push({ event, message, attempted: true });
    }
    return deliverAll(subscription, owed, signal);
  };

  /**
   * The messages of a subscription with something recorded in their streams between two positions of
   * the log: one filtered read of that stretch, rather than a read of each message's stream before its
   * first attempt (a backlog logged while the service was down is otherwise one read per message, a
   * round trip each on EventStoreDB).
   */
  const messagesRecordedBetween = async (subscriptionId: string, after: number, upTo: number, signal: AbortSignal): Promise<Set<string>> => {
    const prefix = webhookDeliveryStreamName(subscriptionId, '');
    const recorded = new Set<string>();
    const slice = new TimeSlice(sliceMs);
    for (let from = after; from < upTo && !signal.aborted;) {
      // By type (the embedded store reads them through its index), then this subscription's streams.
      const page = await runtime.eventStore.readAll({ fromPosition: from, maxCount: recordsPageSize, filter: { eventTypes: webhookDeliveryEventTypes } });
      for (const record of page) {
        if (record.position > upTo) return recorded;
        if (record.streamName.startsWith(prefix)) recorded.add(record.streamName.slice(prefix.length));
        from = record.position;
      }
      if (page.length < recordsPageSize) break;
      if (slice.spent) await slice.nextTurn();
    }
    return recorded;
  };

  /**
   * A subscription's loop: from its checkpoint, its messages in log order, a window at a time, until it
   * stops or fails. The log is read ahead of the window by pages; the checkpoint follows the settled
   * messages, before the first one not settled.
   */
  const follow = async (subscription: WebhookSubscriptionDocument, signal: AbortSignal): Promise<void> => {
    let checkpoint = (await readCheckpoint(subscription._id)) ?? subscription.fromPosition;
    let readUpTo = checkpoint;
    // Records of messages up to here may exist (an earlier loop's, before a crash or a handover): those
    // of the messages found recorded in the log between the checkpoint and here. Any message after it
    // has records only once this loop has attempted it.
    const startedAt = await runtime.eventStore.headPosition();
    const recordedBeforeStart = await messagesRecordedBetween(subscription._id, checkpoint, startedAt, signal);
    const mayBeRecorded = (item: Owed, messageId: string) =>
      item.attempted === true || (item.event.position <= startedAt && recordedBeforeStart.has(messageId));
    const sales: Sales = new Map();
    const owed: Owed[] = [];
    /** Reads the log on until a window's messages are owed, or the log's end. */
    const readOn = async () => {
      const slice = new TimeSlice(sliceMs);
      while (owed.length < windowSize && !signal.aborted) {
        const page = await runtime.eventStore.readAll({ fromPosition: readUpTo, maxCount: pageSize, filter: { eventTypes: webhookSourceTypes } });
        for (const recorded of page) {
          if (slice.spent) await slice.nextTurn();
          const { event, messages } = await messagesOf(recorded, sales);
          for (const message of messages) {
            if (message.supplier === subscription.supplier && subscription.kinds.includes(message.kind)) owed.push({ event, message });
          }
          readUpTo = recorded.position;
        }
        if (page.length < pageSize) return;
      }
    };
    const moveCheckpoint = async () => {
      // Before the event of the first message not settled (positions are whole numbers), else as far as the log was read.
      const settledUpTo = owed.length > 0 ? owed[0]!.event.position - 1 : readUpTo;
      if (settledUpTo > checkpoint) await writeCheckpoint(subscription._id, (checkpoint = settledUpTo));
    };

    while (!signal.aborted) {
      if (!(await redeliver(subscription, signal))) return;
      await readOn();
      if (owed.length === 0) {
        await moveCheckpoint();
        await (doorbell ? doorbell.eventAfter(readUpTo, pollMs, signal) : sleep(pollMs, signal));
        continue;
      }
      const step = await deliverWindow(subscription, owed, mayBeRecorded, signal);
      owed.splice(0, step.settled);
      await moveCheckpoint();
      if (step.next === 'stop') return;
      if (step.next === 'wait') await sleep(waitFor(step.until), signal);
    }
  };

  // The loops of this instance, while it holds the lease.
  const loops = new Map<string, { controller: AbortController; done: Promise<void> }>();
  let held = false;
  let doorbell: LogDoorbell | undefined;
  let refreshing: Promise<void> | null = null;
  let refreshTimer: NodeJS.Timeout | null = null;

  const stopLoop = async (subscriptionId: string) => {
    const loop = loops.get(subscriptionId);
    if (!loop) return;
    loop.controller.abort();
    await loop.done;
    loops.delete(subscriptionId);
  };

  const refresh = async () => {
    if (!held || !runtime.isOpen()) return;
    const active = (await allSubscriptions(runtime.readStore)).filter((subscription) => subscription.status === 'active');
    const wanted = new Set(active.map((subscription) => subscription._id));
    for (const id of [...loops.keys()]) if (!wanted.has(id)) await stopLoop(id);
    for (const subscription of active) {
      if (loops.has(subscription._id) || !held) continue;
      const controller = new AbortController();
      const done = follow(subscription, controller.signal)
        .catch((error: unknown) =>
          runtime.log.error({ err: error, subscriptionId: subscription._id }, 'webhook deliveries stopped on an error; resumed at the next refresh'),
        )
        .finally(() => {
          // A loop that ended by itself (failing, an error) is started again by a later refresh if still active.
          if (loops.get(subscription._id)?.controller === controller) loops.delete(subscription._id);
        });
      loops.set(subscription._id, { controller, done });
    }
  };

  const scheduleRefresh = () => {
    refreshTimer = setTimeout(() => {
      refreshing = refresh()
        .catch((error: unknown) => runtime.log.warn({ err: error }, 'the webhook subscriptions could not be read; tried again in a second'))
        .finally(() => {
          refreshing = null;
          if (held) scheduleRefresh();
        });
    }, options.refreshMs ?? 1_000);
  };

  const stopAll = async () => {
    held = false;
    if (refreshTimer) clearTimeout(refreshTimer);
    await refreshing;
    await Promise.all([...loops.keys()].map(stopLoop));
    await doorbell?.stop();
    doorbell = undefined;
  };

  const lease = holdJobLease(runtime, webhookJobName, {
    onAcquired: () => {
      held = true;
      refreshing = ringOnAppend(runtime.eventStore, webhookSourceTypes)
        .then((ringing) => (doorbell = ringing))
        .then(refresh)
        .catch((error: unknown) => runtime.log.warn({ err: error }, 'the webhook subscriptions could not be read'))
        .finally(() => {
          refreshing = null;
          if (held) scheduleRefresh();
        });
    },
    onLost: () => stopAll(),
  });

  let stopped: Promise<void> | null = null;
  return {
    running: () => held,
    stop: () => {
      stopped ??= (async () => {
        await stopAll();
        await lease.stop();
        await sendThread.close();
      })();
      return stopped;
    },
  };
};
