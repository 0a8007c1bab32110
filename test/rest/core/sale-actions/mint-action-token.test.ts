import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { verifyActionToken } from '../../../../src/events/access/action-token.ts';
import type { ActionKind } from '../../../../src/events/access/events.ts';
import { InvalidActionTokenRequest, mintActionToken, type MintActionTokenInput } from '../../../../src/events/access/mint-action-token.ts';

const now = new Date('2026-10-05T08:00:00.000Z');
const nowSeconds = now.getTime() / 1000;
const day = 86_400;
const secret = randomBytes(32);
const address = { firstname: 'Claire', lastname: 'Martin', street: ['4 place Bellecour'], postcode: '69002', city: 'Lyon', country_id: 'FR' };

const mint = (action: ActionKind, options: Partial<MintActionTokenInput> = {}) => mintActionToken({ secret, now, action, saleId: 1042, ...options });
const refusalOf = (mintIt: () => unknown): { field: string; reason: string } => {
  try {
    mintIt();
  } catch (error) {
    if (error instanceof InvalidActionTokenRequest) return { field: error.field, reason: error.reason };
    throw error;
  }
  throw new Error('the mint accepted the request');
};

describe('minting an action token', () => {
  it.each([
    { action: 'invoice' as const, data: undefined, lifetime: 90 * day },
    { action: 'cancel' as const, data: undefined, lifetime: 7 * day },
    { action: 'address' as const, data: address, lifetime: 7 * day },
    { action: 'rdv' as const, data: { date: '2026-10-12', time: '10:00' }, lifetime: 3 * day },
    { action: 'delivery-rdv' as const, data: { provider: 'DPD', reference: 'DPD-1' }, lifetime: 7 * day },
  ])('when a $action token is minted without a lifetime, it verifies and expires after its default one', ({ action, data, lifetime }) => {
    const minted = mint(action, { data });

    expect(verifyActionToken(minted.token, secret, now)).toEqual({ ok: true, payload: minted.payload });
    expect(minted.payload).toMatchObject({ action, saleId: 1042, iat: nowSeconds, exp: nowSeconds + lifetime });
    expect(minted.expiresAt).toBe(new Date((nowSeconds + lifetime) * 1000).toISOString());
    expect(verifyActionToken(minted.token, secret, new Date((nowSeconds + lifetime) * 1000))).toEqual({ ok: false, reason: 'expired' });
  });

  it('when tokens are minted for the same action, each has its own random ID', () => {
    const jtis = new Set(Array.from({ length: 50 }, () => mint('cancel').payload.jti));
    expect(jtis.size).toBe(50);
  });

  it('when a lifetime and products are given, the token carries them and the data as parsed', () => {
    const minted = mint('cancel', { productIds: [7, 9], data: { reason: '  Moved abroad  ' }, ttlSeconds: 600 });
    expect(minted.payload).toMatchObject({ productIds: [7, 9], data: { reason: 'Moved abroad' }, exp: nowSeconds + 600 });
  });

  it.each([
    { when: 'an address lacks its city', action: 'address' as const, options: { data: { ...address, city: undefined } }, field: 'data.city' },
    { when: 'an address has a field of its own', action: 'address' as const, options: { data: { ...address, floor: 3 } }, field: 'data' },
    { when: 'an appointment time is not HH:MM', action: 'rdv' as const, options: { data: { date: '2026-10-12', time: '25:00' } }, field: 'data.time' },
    { when: 'an appointment has no data', action: 'rdv' as const, options: {}, field: 'data' },
    {
      when: 'a delivery service appointment has no reference',
      action: 'delivery-rdv' as const,
      options: { data: { provider: 'DPD' } },
      field: 'data.reference',
    },
    { when: 'an invoice token is given data', action: 'invoice' as const, options: { data: { amount: 1 } }, field: 'data' },
    { when: 'an address token names products', action: 'address' as const, options: { data: address, productIds: [7] }, field: 'productIds' },
    { when: 'a product is named twice', action: 'cancel' as const, options: { productIds: [7, 7] }, field: 'productIds' },
    { when: 'the sale ID is not positive', action: 'cancel' as const, options: { saleId: 0 }, field: 'saleId' },
    { when: 'the lifetime is zero', action: 'cancel' as const, options: { ttlSeconds: 0 }, field: 'ttlSeconds' },
    { when: 'the lifetime exceeds a year', action: 'cancel' as const, options: { ttlSeconds: 367 * day }, field: 'ttlSeconds' },
  ])('when $when, minting is refused naming $field', ({ action, options, field }) => {
    expect(refusalOf(() => mint(action, options)).field).toBe(field);
  });

  it('when a kind needs data and none is given, the reason says so', () => {
    expect(refusalOf(() => mint('address'))).toEqual({ field: 'data', reason: 'required for address tokens' });
  });
});
