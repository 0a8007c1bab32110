import { setTimeout as wait } from 'node:timers/promises';
import { cronContext } from '../events/command-context.ts';
import { handleCommand } from '../events/command-handler.ts';
import { fold } from '../events/decider.ts';
import { readDomainStream, type StreamState } from '../events/domain-store.ts';
import { decodeEvent, type StoredEvent } from '../events/registry.ts';
import type { SupplierName } from '../events/schema/common-schemas.ts';
import type { SaleEvent } from '../events/sales/events.ts';
import { evolve as evolveSale, initialState as noSale, type Sale } from '../events/sales/state.ts';
import type { RecordedEvent } from '../events/store/event-store.ts';
import { webhookDeliveryStreamName, webhookMessageId, webhookStreamName } from '../events/webhooks/events.ts';
import {
  isDeliveryDue,
  isDeliverySettled,
  webhookDeliveryDecider,
  type DeliveryRef,
  type WebhookDeliveryCommand,
  type WebhookDeliveryEvent,
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
import { createWebhookSender, type WebhookSendOptions } from '../webhooks/webhook-sender.ts';
import { signWebhook } from '../webhooks/webhook-signature.ts';
import type { JobRuntime } from './job-runtime.ts';

/**
 * The outbox of the suppliers' webhooks, derived from the log and run by the one instance holding its
 * lease (`job:webhook-deliveries`). Each active subscription has a loop of its own, so that a slow or
 * dead receiver holds nothing but itself: it reads the log from its checkpoint, filtered on the events
 * that concern suppliers, and sends its supplier's messages of the kinds it asked for, one at a time,
 * in log order, each signed as Standard Webhooks says. A 2xx within 10 s is delivered; anything else
 * is retried with exponential backoff (5 s, 30 s, 2 min, 10 min, 30 min, 1 h, 2 h, then every 4 h) and
 * nothing after it is sent meanwhile; a day after its first failure the subscription is marked
 * failing (log line, metric, visible in its listing) and its loop stops, to resume from that same
 * message when someone resumes it.
 *
 * At least once, never lost: each message's own stream (`webhookdelivery-<id>-<messageId>`) records
 * its attempts and says, just before sending, whether it is still owed; the checkpoint only spares
 * reading the log again, and stays before a message not settled. A crash between the receiver's 2xx
 * and the record sends the message again with the same `webhook-id`. A subscription sees the events
 * after the log position it was made at.
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
  const sender = createWebhookSender(options.send);
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

  type Attempt = { outcome: 'settled' } | { outcome: 'waiting'; until: number } | { outcome: 'failing' };
  /**
   * The records of deliveries made and not yet written: the next message is sent while they are
   * (each its own stream; the event store commits those that arrive together with one fsync). The
   * checkpoint moves only once they are written; a crash before sends those messages again, with
   * their ids.
   */
  type Pending = (() => Promise<unknown>)[];
  const maxPending = 64;
  /** Writes the records waiting, together: appends made in one turn share one commit (one fsync). */
  const flush = (pending: Pending) => Promise.all(pending.splice(0).map((write) => write()));

  /**
   * A subscription's state from its stream, as it stands before each delivery (a rotation's secrets, a
   * removal, a failing mark take effect at once): its last revision is read, and the stream folded
   * again only when that has changed.
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

  const attempt = async (
    subscription: WebhookSubscriptionDocument,
    event: StoredEvent<WebhookSourceEvent>,
    message: WebhookMessage,
    signal: AbortSignal,
    pending: Pending,
    unrecorded: boolean,
  ): Promise<Attempt> => {
    const ref: DeliveryRef = {
      subscriptionId: subscription._id,
      messageId: webhookMessageId(event.id, message.serviceOrderId),
      sourceEventId: event.id,
      serviceOrderId: message.serviceOrderId,
      position: event.position,
      kind: message.kind,
    };
    const stream: StreamState<WebhookDeliveryEvent> = unrecorded
      ? { events: [], revision: 'no_stream' }
      : await readDomainStream<WebhookDeliveryEvent>(runtime.eventStore, webhookDeliveryStreamName(ref.subscriptionId, ref.messageId));
    const state = fold(webhookDeliveryDecider, stream.events);
    if (isDeliverySettled(state)) return { outcome: 'settled' };
    const now = runtime.clock.now();
    if (!isDeliveryDue(state, now)) return { outcome: 'waiting', until: Date.parse(state.nextAttemptAt!) };
    // The subscription as its stream stands now: a rotation's secrets, a removal just made.
    const current = await subscriptionState(subscription._id);
    if (current.status !== 'active' || current.failing) return { outcome: 'failing' };
    const signingSecrets = [secretOf(current.subscriptionId, current.secretVersion)];
    if (current.previousValidUntil && Date.parse(current.previousValidUntil) > now.getTime()) {
      signingSecrets.push(secretOf(current.subscriptionId, current.secretVersion - 1));
    }
    const body = bodyOf(event, message, current.supplier);
    const headers = signWebhook(signingSecrets, ref.messageId, Math.floor(now.getTime() / 1000), body);
    const sent = await sender.send(subscription._id, current.url, headers, body, signal);
    if (signal.aborted && !sent.ok) return { outcome: 'waiting', until: 0 };
    const at = runtime.clock.now();
    if (sent.ok) {
      pending.push(() => record(ref, { type: 'RecordDelivered', ...ref, status: sent.status, at: at.toISOString() }, stream));
      if (pending.length >= maxPending) await flush(pending);
      return { outcome: 'settled' };
    }
    // The failing period runs from the first failure since the last success, or since the last resumption.
    await flush(pending);
    const failingSince = Math.max(state.failingSince ? Date.parse(state.failingSince) : at.getTime(), current.resumedAt ? Date.parse(current.resumedAt) : 0);
    if (at.getTime() - failingSince >= failingAfterMs) {
      await record(ref, { type: 'RecordDeliveryFailed', ...ref, status: sent.status, error: sent.error, nextAttemptAt: null, at: at.toISOString() });
      await handleCommand(
        runtime.write,
        webhookStreamName(subscription._id),
        webhookSubscriptionDecider,
        { type: 'MarkFailing', messageId: ref.messageId, lastError: sent.error, at: at.toISOString() },
        cronContext(),
      );
      runtime.log.warn(
        { subscriptionId: subscription._id, supplier: subscription.supplier, messageId: ref.messageId, error: sent.error },
        'webhook subscription marked failing: deliveries refused for a day; nothing more is sent until it is resumed',
      );
      return { outcome: 'failing' };
    }
    const delay = retryDelaysMs[Math.min(state.attempts, retryDelaysMs.length - 1)]!;
    const nextAttemptAt = new Date(at.getTime() + delay);
    await record(ref, {
      type: 'RecordDeliveryFailed',
      ...ref,
      status: sent.status,
      error: sent.error,
      nextAttemptAt: nextAttemptAt.toISOString(),
      at: at.toISOString(),
    });
    runtime.log.info({ subscriptionId: subscription._id, messageId: ref.messageId, error: sent.error, nextAttemptAt }, 'webhook not delivered; retried later');
    return { outcome: 'waiting', until: nextAttemptAt.getTime() };
  };

  /**
   * Sends one message until it is settled, or the subscription fails, or the loop stops. A message
   * after `unrecordedAfter` has no record yet (its event came after the loop started, and only the
   * loop records attempts): its first attempt spares reading its stream.
   */
  const deliverInTurn = async (
    subscription: WebhookSubscriptionDocument,
    event: StoredEvent<WebhookSourceEvent>,
    message: WebhookMessage,
    signal: AbortSignal,
    pending: Pending,
    unrecordedAfter = Infinity,
  ): Promise<boolean> => {
    for (let first = true; !signal.aborted; first = false) {
      const done = await attempt(subscription, event, message, signal, pending, first && event.position > unrecordedAfter);
      if (done.outcome === 'settled') return true;
      if (done.outcome === 'failing') return false;
      await sleep(Math.max(0, Math.min(done.until - runtime.clock.now().getTime(), 1_000)), signal);
    }
    return false;
  };

  const readCheckpoint = async (subscriptionId: string): Promise<number | null> =>
    (await runtime.readStore.collection<CheckpointDocument>(checkpointCollection).findOne({ _id: checkpointId(subscriptionId) }))?.position ?? null;
  const writeCheckpoint = (subscriptionId: string, position: number) =>
    runtime.readStore
      .collection<CheckpointDocument>(checkpointCollection)
      .updateOne({ _id: checkpointId(subscriptionId) }, { $set: { position } }, { upsert: true });

  /** The messages someone asked to have sent again, each once more. */
  const redeliver = async (subscription: WebhookSubscriptionDocument, signal: AbortSignal): Promise<void> => {
    for (const requested of await redeliveriesRequested(runtime.readStore, subscription._id, 20)) {
      if (signal.aborted) return;
      const [recorded] = await runtime.eventStore.readAll({ fromPosition: requested.position - 1, maxCount: 1 });
      if (recorded?.position !== requested.position) continue;
      const { event, messages } = await messagesOf(recorded);
      const message = messages.find((candidate) => candidate.serviceOrderId === requested.serviceOrderId && candidate.kind === requested.kind);
      const pending: Pending = [];
      if (message) await deliverInTurn(subscription, event, message, signal, pending);
      await flush(pending);
    }
  };

  /** A subscription's loop: from its checkpoint, its messages in log order, until it stops or fails. */
  const follow = async (subscription: WebhookSubscriptionDocument, signal: AbortSignal): Promise<void> => {
    let position = (await readCheckpoint(subscription._id)) ?? subscription.fromPosition;
    // Records of messages up to here may exist (an earlier loop's, before a crash or a handover).
    const startedAt = await runtime.eventStore.headPosition();
    const pending: Pending = [];
    const sales: Sales = new Map();
    try {
      while (!signal.aborted) {
        await redeliver(subscription, signal);
        const page = await runtime.eventStore.readAll({ fromPosition: position, maxCount: pageSize, filter: { eventTypes: webhookSourceTypes } });
        if (page.length === 0) {
          await flush(pending);
          await (doorbell ? doorbell.eventAfter(position, pollMs, signal) : sleep(pollMs, signal));
          continue;
        }
        for (const recorded of page) {
          if (signal.aborted) return;
          const { event, messages } = await messagesOf(recorded, sales);
          for (const message of messages) {
            if (message.supplier !== subscription.supplier || !subscription.kinds.includes(message.kind)) continue;
            if (!(await deliverInTurn(subscription, event, message, signal, pending, startedAt))) return;
          }
          position = recorded.position;
        }
        await flush(pending);
        await writeCheckpoint(subscription._id, position);
      }
    } finally {
      // What was delivered is recorded before the loop ends (a failure to record is the loop's error).
      await flush(pending);
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
        sender.close();
      })();
      return stopped;
    },
  };
};
