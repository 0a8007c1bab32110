import { createHmac } from 'node:crypto';

/**
 * The Standard Webhooks signature (standardwebhooks.com): `v1,<base64 HMAC-SHA256>` of
 * `<webhook-id>.<webhook-timestamp>.<raw body>` with the secret's bytes (the base64 after `whsec_`),
 * one per secret, space-separated, so that a receiver still on the previous secret verifies during a
 * rotation. Receivers verify with the scheme's own libraries (Node, Python, Go, PHP...).
 */
export type SignedHeaders = { 'webhook-id': string; 'webhook-timestamp': string; 'webhook-signature': string };

const keyOf = (secret: string): Buffer => Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');

export const signWebhook = (secrets: readonly string[], id: string, timestampSeconds: number, body: string): SignedHeaders => {
  const signed = `${id}.${timestampSeconds}.${body}`;
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': secrets.map((secret) => `v1,${createHmac('sha256', keyOf(secret)).update(signed).digest('base64')}`).join(' '),
  };
};
