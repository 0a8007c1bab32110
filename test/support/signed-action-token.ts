import { createHmac } from 'node:crypto';
import type { ActionTokenPayload } from '../../src/events/access/action-token-payload.ts';

/**
 * A token in the first, signed format, as the service minted them before sealing them: the links
 * already sent in it must keep working until they expire. Written here from the format's definition
 * (base64url JSON, a dot, base64url HMAC-SHA256 of the encoded JSON keyed with the token secret), not
 * with the service's code, so that a change there cannot silently change what is accepted.
 */
export const signedActionToken = (payload: ActionTokenPayload, secret: string | Buffer): string => {
  const encoded = Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
  return `${encoded}.${createHmac('sha256', secret).update(encoded, 'utf8').digest('base64url')}`;
};
