import type { Tracked } from '../projection.ts';

/** The `leads` read model: one document per contact lead, with its notification outbox state. */

export const leadsCollection = 'leads';

export type LeadNotification = {
  status: 'pending' | 'sent' | 'failed';
  attempts: number;
  /** A UTC instant (`toISOString`), so that comparing strings compares instants; null once sent. */
  nextAttemptAt: string | null;
  sentAt: string | null;
  lastError: string | null;
  messageId: string | null;
};

export type LeadDocument = Tracked & {
  /** The lead ID (a UUID). */
  _id: string;
  name: string;
  email: string;
  phone: string | null;
  projectName: string | null;
  capturedAt: string;
  notification: LeadNotification;
};

export const utcInstant = (instant: string): string => new Date(instant).toISOString();
