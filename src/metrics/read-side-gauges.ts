import { Gauge, type Registry } from 'prom-client';
import type { EventStore } from '../events/store/event-store.ts';
import type { LabelBacklog } from '../labels/label-backlog.ts';
import type { ProjectionEngine } from '../projections/engine/engine.ts';
import { countUndeliveredLeadNotifications } from '../projections/leads/queries.ts';
import type { ReadStore } from '../projections/read-store/read-store.ts';
import { countFailingSubscriptions } from '../projections/webhooks/queries.ts';

export type ReadSideGaugeDeps = {
  eventStore: Pick<EventStore, 'headPosition'>;
  projections: Pick<ProjectionEngine, 'status'>;
  readStore: ReadStore;
  labels: Pick<LabelBacklog, 'pending' | 'doneThrough'>;
};

/**
 * The gauges read at each scrape, never updated on the hot path: how far each projection and the
 * label backlog are behind the head of the log, how many contact leads still owe the team their e-mail,
 * and how many webhook subscriptions are marked failing.
 */
export const registerReadSideGauges = (registry: Registry, deps: ReadSideGaugeDeps): void => {
  new Gauge({
    name: 'projection_lag_positions',
    help: "Head of the event log minus the position a projection's live read model has applied (0: up to date). Positions, not events: the log's positions may have gaps.",
    labelNames: ['projection'] as const,
    registers: [registry],
    async collect() {
      const head = await deps.eventStore.headPosition();
      for (const status of deps.projections.status()) {
        this.set({ projection: status.name }, Math.max(0, head - (status.position ?? -1)));
      }
    },
  });
  new Gauge({
    name: 'projection_running',
    help: 'Whether a projection follows the log (1), or has stopped on an event it could not apply (0: its read model is frozen there, and /health/ready answers 503 naming it).',
    labelNames: ['projection'] as const,
    registers: [registry],
    collect() {
      for (const status of deps.projections.status()) this.set({ projection: status.name }, status.running ? 1 : 0);
    },
  });
  new Gauge({
    name: 'label_backlog_labels',
    help: 'Shipping labels of the imported orders being rendered in this process, not yet done (the orders still to take: label_backlog_lag_positions).',
    registers: [registry],
    collect() {
      this.set(deps.labels.pending());
    },
  });
  new Gauge({
    name: 'label_backlog_lag_positions',
    help: 'Head of the event log minus the position up to which every imported order has its shipping labels (the label backlog, in log positions; 0 when none is waiting or before the backlog starts).',
    registers: [registry],
    async collect() {
      const doneThrough = deps.labels.doneThrough();
      this.set(doneThrough === null ? 0 : Math.max(0, (await deps.eventStore.headPosition()) - doneThrough));
    },
  });
  new Gauge({
    name: 'lead_mail_backlog_leads',
    help: 'Contact leads whose notification e-mail to the team is not sent yet (never tried, or failed and to be retried).',
    registers: [registry],
    async collect() {
      this.set(await countUndeliveredLeadNotifications(deps.readStore));
    },
  });
  new Gauge({
    name: 'webhook_subscriptions_failing',
    help: 'Webhook subscriptions marked failing (their receiver refused deliveries for a day): nothing is sent to them until they are resumed.',
    registers: [registry],
    async collect() {
      this.set(await countFailingSubscriptions(deps.readStore));
    },
  });
};
