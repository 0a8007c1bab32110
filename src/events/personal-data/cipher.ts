import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * AES-256-GCM over the JSON of an event's personal values. A fresh 12-byte IV per event; the event's
 * id is the additional authenticated data, so a sealed value cannot be moved to another event. Opening
 * with any other key (deleted, replaced) fails authentication: the values are then erased.
 */

export const keyLength = 32;

export type Sealed = { iv: string; sealed: string };

export const newKey = (): Buffer => randomBytes(keyLength);

export const seal = (key: Buffer, eventId: string, values: unknown): Sealed => {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(eventId, 'utf8'));
  const body = Buffer.concat([cipher.update(JSON.stringify(values), 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return { iv: iv.toString('base64'), sealed: body.toString('base64') };
};

/** The values sealed, or undefined when this key does not open them (another key, altered bytes). */
export const open = (key: Buffer, eventId: string, sealed: Sealed): unknown => {
  try {
    const body = Buffer.from(sealed.sealed, 'base64');
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.iv, 'base64'));
    decipher.setAAD(Buffer.from(eventId, 'utf8'));
    decipher.setAuthTag(body.subarray(body.length - 16));
    const plain = Buffer.concat([decipher.update(body.subarray(0, body.length - 16)), decipher.final()]);
    return JSON.parse(plain.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
};
