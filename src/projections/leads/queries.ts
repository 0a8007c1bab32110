import type { ReadStore } from '../read-store/read-store.ts';
import { leadsCollection, utcInstant, type LeadDocument } from './lead-document.ts';

/** Reads of the `leads` read model. */

export const findLead = (store: ReadStore, leadId: string): Promise<LeadDocument | null> =>
  store.collection<LeadDocument>(leadsCollection).findOne({ _id: leadId });

/**
 * The leads whose notification is due at `now`: never tried (due at once), or failed with its retry
 * time reached. Oldest due first.
 */
export const pendingLeadNotifications = (store: ReadStore, now: string, limit = 50): Promise<LeadDocument[]> =>
  store
    .collection<LeadDocument>(leadsCollection)
    .find(
      {
        $or: [{ 'notification.status': 'pending' }, { 'notification.status': 'failed', 'notification.nextAttemptAt': { $lte: utcInstant(now) } }],
      },
      { sort: { 'notification.nextAttemptAt': 1, _id: 1 }, limit },
    )
    .toArray();

/** The leads still owed their notification: never tried, or failed and to be tried again (abandoned ones are not). */
export const countUndeliveredLeadNotifications = (store: ReadStore): Promise<number> =>
  store.collection<LeadDocument>(leadsCollection).countDocuments({ 'notification.status': { $in: ['pending', 'failed'] } });
