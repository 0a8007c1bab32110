import { hkdfSync } from 'node:crypto';

/**
 * A subscription's signing secret, in the Standard Webhooks form `whsec_<base64 of 32 bytes>`: derived
 * from TOKEN_SECRET (HKDF, a label of its own), the subscription's ID and the secret's version, so that
 * no secret is stored anywhere: it is shown once when made, and derived again to sign each delivery.
 * Rotating gives version n + 1; changing TOKEN_SECRET changes every subscription's secret (rotate then
 * tell the suppliers, as for the tokens).
 */
export const webhookSecret = (tokenSecret: string, subscriptionId: string, version: number): string =>
  `whsec_${Buffer.from(hkdfSync('sha256', tokenSecret, 'webhook-secret', `${subscriptionId}:${version}`, 32)).toString('base64')}`;
