import type { Tracked } from '../projection.ts';

/** The `leads` read model: one document per contact lead, with its notification outbox state. */

export const leadsCollection = 'leads';

export type LeadNotification = {
  /** `abandoned`: every attempt failed; the mailer gives up on it (the write side's rule). */
  status: 'pending' | 'sent' | 'failed' | 'abandoned';
  attempts: number;
  /** A UTC instant (`toISOString`), so that comparing strings compares instants; null once sent or abandoned. */
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
