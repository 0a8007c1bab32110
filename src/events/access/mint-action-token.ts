import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { address, localDate, localTime, positiveId } from '../schema/common-schemas.ts';
import type { ActionTokenPayload } from './action-token-payload.ts';
import { sealActionToken } from './action-token.ts';
import type { ActionKind } from './events.ts';

/**
 * Minting the action tokens that internal tools put in customers' links. What each kind carries is
 * defined here once: the mint refuses anything else, and the routes that apply a token read its data
 * with the same schemas, so a token can only ask for what its route knows how to do.
 */

/** `rdv`: the delivery appointment to book, in the delivery planning's time zone. */
export const rdvTokenData = z.strictObject({ date: localDate, time: localTime });
/** `address`: the new shipping address, as the sale's events record it. */
export const addressTokenData = z.strictObject(address.shape);
/** `delivery-rdv`: the appointment a third-party delivery service gave (its planning, not ours). */
export const deliveryRdvTokenData = z.strictObject({
  provider: z.string().trim().min(1).max(64),
  reference: z.string().trim().min(1).max(128),
  date: localDate.nullable().optional(),
  timeWindow: z.string().trim().min(1).max(32).nullable().optional(),
});
/** `cancel`: optionally why; the products to cancel travel in `productIds` (none: the whole sale). */
export const cancelTokenData = z.strictObject({ reason: z.string().trim().min(1).max(500).optional() });

const day = 24 * 60 * 60;

/**
 * Per kind: the data it carries (required, optional or none), whether it names products, and its
 * default lifetime. Invoice links are read-only and kept by customers, so they live long; an appointment
 * is proposed against a planning that fills up, so its link is short-lived; the others sit in between.
 */
export const actionTokenKinds: Readonly<Record<ActionKind, { data: z.ZodType; products: boolean; defaultTtlSeconds: number }>> = {
  invoice: { data: z.undefined({ error: 'invoice tokens carry no data' }), products: false, defaultTtlSeconds: 90 * day },
  cancel: { data: cancelTokenData.optional(), products: true, defaultTtlSeconds: 7 * day },
  address: { data: addressTokenData, products: false, defaultTtlSeconds: 7 * day },
  rdv: { data: rdvTokenData, products: false, defaultTtlSeconds: 3 * day },
  'delivery-rdv': { data: deliveryRdvTokenData, products: false, defaultTtlSeconds: 7 * day },
};

/** No link outlives a year, whatever is asked. */
export const maxActionTokenTtlSeconds = 366 * day;

/** A mint request that breaks the rules of its kind; `field` names the input at fault (`data.date`, `productIds`, `ttlSeconds`). */
export class InvalidActionTokenRequest extends Error {
  readonly code = 'INVALID_ACTION_TOKEN_REQUEST';
  constructor(
    readonly field: string,
    readonly reason: string,
  ) {
    super(`${field}: ${reason}`);
    this.name = 'InvalidActionTokenRequest';
  }
}

export type MintActionTokenInput = {
  secret: string | Buffer;
  now: Date;
  action: ActionKind;
  saleId: number;
  productIds?: readonly number[];
  data?: unknown;
  ttlSeconds?: number;
};

export type MintedActionToken = { token: string; payload: ActionTokenPayload; expiresAt: string };

const productIdsSchema = z
  .array(positiveId)
  .min(1)
  .max(500)
  .refine((ids) => new Set(ids).size === ids.length, 'must not repeat an ID');
const ttlSchema = z.number().int().min(1).max(maxActionTokenTtlSeconds);

const parsed = <S extends z.ZodType>(schema: S, value: unknown, field: string): z.output<S> => {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  throw new InvalidActionTokenRequest([field, ...issue.path.map(String)].join('.'), issue.message);
};

/** Seals a token for one action on one sale, with a random ID (its single use is recorded under it). */
export const mintActionToken = (input: MintActionTokenInput): MintedActionToken => {
  const kind = actionTokenKinds[input.action];
  const saleId = parsed(positiveId, input.saleId, 'saleId');
  if (input.productIds !== undefined && !kind.products) {
    throw new InvalidActionTokenRequest('productIds', `${input.action} tokens name no products`);
  }
  const productIds = input.productIds === undefined ? undefined : parsed(productIdsSchema, [...input.productIds], 'productIds');
  if (input.data === undefined && !kind.data.safeParse(undefined).success) {
    throw new InvalidActionTokenRequest('data', `required for ${input.action} tokens`);
  }
  const data = parsed(kind.data, input.data, 'data') as Record<string, unknown> | undefined;
  const ttlSeconds = parsed(ttlSchema, input.ttlSeconds ?? kind.defaultTtlSeconds, 'ttlSeconds');

  const iat = Math.floor(input.now.getTime() / 1000);
  const payload: ActionTokenPayload = {
    jti: randomBytes(16).toString('base64url'),
    action: input.action,
    saleId,
    ...(productIds ? { productIds } : {}),
    ...(data !== undefined ? { data } : {}),
    iat,
    exp: iat + ttlSeconds,
  };
  return { token: sealActionToken(payload, input.secret), payload, expiresAt: new Date(payload.exp * 1000).toISOString() };
};
