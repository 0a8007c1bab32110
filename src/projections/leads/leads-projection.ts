import { assertNever } from '../../events/decider.ts';
import { maxNotificationAttempts } from '../../events/leads/lead-decider.ts';
import type { EventOfType, StoredEvent } from '../../events/registry.ts';
import { erasedAt } from '../../events/schema/personal-data.ts';
import { isCustomerErased } from '../erasure.ts';
import { applyOnce, evolveOnce, type Projection } from '../projection.ts';
import type { ReadStore } from '../read-store/read-store.ts';
import { leadsCollection, utcInstant, type LeadDocument, type LeadNotification } from './lead-document.ts';

const eventTypes = ['ContactLeadCaptured', 'LeadNotificationSent', 'LeadNotificationFailed'] as const;
type Handled = EventOfType<(typeof eventTypes)[number]>;
const handled = new Set<string>(eventTypes);

/** The `leads` read model: the contact leads and which notifications the mailer still owes. */
export const leadsProjection: Projection = {
  name: 'leads',
  version: 1,
  eventTypes: [...eventTypes, 'CustomerErased'],
  collections: [leadsCollection],

  async setup(store: ReadStore) {
    await store.collection<LeadDocument>(leadsCollection).createIndex({ 'notification.status': 1, 'notification.nextAttemptAt': 1 });
  },

  async apply(stored: StoredEvent, store: ReadStore) {
    const leads = store.collection<LeadDocument>(leadsCollection);
    if (isCustomerErased(stored)) {
      for (const leadId of stored.data.leadIds) {
        await evolveOnce(leads, leadId, stored.position, (lead) => lead && { ...erasedAt(lead, ['name', 'email', 'phone', 'projectName']) });
      }
      return;
    }
    if (!handled.has(stored.type)) return;
    const event = stored as StoredEvent<Handled>;
    switch (event.type) {
      case 'ContactLeadCaptured': {
        const { leadId, ...lead } = event.data;
        const notification: LeadNotification = {
          status: 'pending',
          attempts: 0,
          nextAttemptAt: utcInstant(lead.capturedAt),
          sentAt: null,
          lastError: null,
          messageId: null,
        };
        await applyOnce(leads, leadId, event.position, { $set: { ...lead, notification } }, { upsert: true });
        return;
      }
      case 'LeadNotificationSent': {
        const { leadId, attempt, messageId, sentAt } = event.data;
        await applyOnce(leads, leadId, event.position, {
          $set: {
            'notification.status': 'sent',
            'notification.attempts': attempt,
            'notification.nextAttemptAt': null,
            'notification.sentAt': sentAt,
            'notification.messageId': messageId,
          },
        });
        return;
      }
      case 'LeadNotificationFailed': {
        const { leadId, attempt, error, nextAttemptAt } = event.data;
        // The last allowed attempt failed: no longer due, so it never blocks the mailer's queue.
        const abandoned = attempt >= maxNotificationAttempts;
        await applyOnce(leads, leadId, event.position, {
          $set: {
            'notification.status': abandoned ? 'abandoned' : 'failed',
            'notification.attempts': attempt,
            'notification.nextAttemptAt': abandoned ? null : utcInstant(nextAttemptAt),
            'notification.lastError': error,
          },
        });
        return;
      }
      default:
        return assertNever(event);
    }
  },
};
