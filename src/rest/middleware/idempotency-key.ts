import { setTimeout as sleep } from 'node:timers/promises';
import type { Middleware, ParameterizedContext } from 'koa';
import type { Clock, CommandContext } from '../../events/command-context.ts';
import { idempotentRequest } from '../../events/idempotency/idempotent-request.ts';
import type { WritesOfRequest } from '../../http/read-your-writes.ts';
import type { ReadStore } from '../../projections/read-store/read-store.ts';
import { coreEnvelope } from '../envelopes.ts';
import { HttpError } from '../../http/http-error.ts';
import { answerRecords, recordId, type AnswerRecords, type RecordedAnswer } from '../../idempotency/answer-records.ts';
import { idempotencyKeyInUse, idempotencyKeyReused, invalidIdempotencyKey } from '../idempotency/idempotency-answers.ts';
import { requestFingerprint } from '../idempotency/request-fingerprint.ts';
import type { ApiGroupName } from './api-group.ts';
import { clientErrorBody } from './error-handler.ts';

export type IdempotencyKeyOptions = {
  readStore: ReadStore;
  clock: Clock;
  /** How long a retry waits for the answer of the same request still running elsewhere before a 409 (default 30 s). */
  waitMs?: number;
  /** After how long a claim that never answered is taken to be a request that stopped with its process (default 5 min). */
  abandonedAfterMs?: number;
};

/** 1 to 255 printable ASCII characters (a space too, but HTTP trims the ends). */
const keyPattern = /^[\x20-\x7e]{1,255}$/;

const recordsByStore = new WeakMap<ReadStore, AnswerRecords>();
const recordsOf = (store: ReadStore): AnswerRecords => {
  let records = recordsByStore.get(store);
  if (!records) {
    records = answerRecords(store);
    recordsByStore.set(store, records);
  }
  return records;
};

const isJsonValue = (body: unknown): boolean =>
  Array.isArray(body) || (typeof body === 'object' && body !== null && Object.getPrototypeOf(body) === Object.prototype);

/** The answer as the handler left it (before the app's later middleware rewrite its timestamps, as they will again on a replay). */
const answerOf = (ctx: ParameterizedContext, failure: unknown, failed: boolean): RecordedAnswer | undefined => {
  const location = ctx.response.get('Location') || undefined;
  if (failed) {
    if (!(failure instanceof HttpError) || failure.status >= 500) return undefined;
    return { status: failure.status, body: JSON.stringify(clientErrorBody(ctx.state.envelope ?? coreEnvelope, failure)), json: true };
  }
  if (ctx.status >= 500) return undefined;
  if (isJsonValue(ctx.body)) return { status: ctx.status, body: JSON.stringify(ctx.body), json: true, ...(location && { location }) };
  if (typeof ctx.body === 'string') return { status: ctx.status, body: ctx.body, json: false, ...(location && { location }) };
  return undefined;
};

const replay = (ctx: ParameterizedContext, answer: RecordedAnswer): void => {
  ctx.status = answer.status;
  ctx.body = answer.json ? JSON.parse(answer.body) : answer.body;
  if (answer.location) ctx.set('Location', answer.location);
  ctx.set('Idempotent-Replayed', 'true');
};

/**
 * `Idempotency-Key` on the POST routes of an API group, after its authentication: a request sent
 * again with the key it was first sent with gets the first answer again, status and body, marked
 * `Idempotent-Replayed: true`, for 24 hours, instead of being carried out twice.
 *
 * The key is scoped to the calling token. The first request takes it (answer-records.ts) and runs,
 * its events carrying the key (src/events/idempotency); when it recorded events its answer is kept,
 * otherwise (a validation error, a refusal, nothing to change) the key is given up and a retry is
 * evaluated again. A retry arriving while the first is still running waits for its answer. The same
 * key with another request (method, path, query, body) is a 422; a malformed key a 400. Without the
 * header nothing here runs.
 */
export const idempotencyKey = (options: IdempotencyKeyOptions): Middleware => {
  const records = recordsOf(options.readStore);
  const waitMs = options.waitMs ?? 30_000;
  const abandonedAfterMs = options.abandonedAfterMs ?? 5 * 60_000;

  /** Takes the key for this request (its claim's id), or answers the request from the record (undefined). */
  const takeKey = async (ctx: ParameterizedContext, group: ApiGroupName, id: string, tokenId: string, fingerprint: string): Promise<string | undefined> => {
    const deadline = Date.now() + waitMs;
    for (let pause = 5; ; pause = Math.min(pause * 2, 100)) {
      const now = options.clock.now();
      const claim = await records.claim(id, tokenId, fingerprint, now);
      if (claim.won) return claim.claimedBy;
      const { record } = claim;
      if (record === null) continue; // given up in between
      if (record.expiresAt <= now.toISOString()) {
        await records.release(id, record.claimedBy);
        continue;
      }
      if (record.fingerprint !== fingerprint) throw idempotencyKeyReused(group);
      if (record.answer) {
        replay(ctx, record.answer);
        return undefined;
      }
      if (Date.parse(record.claimedAt) + abandonedAfterMs <= now.getTime()) {
        // Its request stopped with its process; the retry runs, and finds in the log whatever that one recorded.
        await records.release(id, record.claimedBy);
        continue;
      }
      if (Date.now() >= deadline) throw idempotencyKeyInUse(group);
      await sleep(pause);
    }
  };

  return async (ctx, next) => {
    const given = ctx.headers['idempotency-key'];
    if (ctx.method !== 'POST' || given === undefined) return next();
    const group: ApiGroupName = ctx.state.apiGroup ?? 'core';
    const key = Array.isArray(given) ? given.join(', ') : given;
    if (!keyPattern.test(key)) throw invalidIdempotencyKey(group);
    const tokenId: string = ctx.state.token.tokenId;
    const id = recordId(tokenId, key);
    const fingerprint = requestFingerprint(ctx);

    const claimedBy = await takeKey(ctx, group, id, tokenId, fingerprint);
    if (claimedBy === undefined) return;

    const request = idempotentRequest(tokenId, key, fingerprint);
    const context: CommandContext = { ...ctx.state.commandContext, idempotency: request };
    ctx.state.commandContext = context;
    let failed = false;
    let failure: unknown;
    try {
      await next();
    } catch (error) {
      failed = true;
      failure = error;
    }
    // What the route noted it wrote (read-your-writes): only an answer that recorded something is kept.
    const { written } = ctx.state as WritesOfRequest;
    const answer = written ? answerOf(ctx, failure, failed) : undefined;
    if (answer) await records.answer(id, claimedBy, answer, [...written!.streams]);
    else await records.release(id, claimedBy);
    // Rebuilt from the events an earlier try of it recorded (its answer was lost with its process).
    if (written?.replayed) ctx.set('Idempotent-Replayed', 'true');
    if (failed) throw failure;
  };
};
