import { notaryOff as notaryOffText } from '../../events/audit/notary-off.ts';
import { HttpError } from '../../http/http-error.ts';
import { consistencyAnswer, consistencyQuery, inclusionAnswer, inclusionQuery, publicKeysAnswer, signedTreeHead, treeSizeParams } from '../audit/schemas.ts';
import { failure, unknownQueryParameter } from './core-failures.ts';
import { serverErrorTexts } from '../envelopes.ts';
import type { ResponseDoc, RouteDoc } from './document.ts';

/** The log's proofs for auditors, and its public key (audit/routes.ts; docs/audit.md). */

export const auditComponents = { SignedTreeHead: signedTreeHead };

const common: Record<number, ResponseDoc> = {
  401: failure(
    'Missing, unknown or revoked Bearer token, or not an auditor token.',
    new HttpError(401, 'Unauthorized', 'Invalid or missing Bearer token (an auditor token)'),
  ),
  500: failure('An unexpected error; no internal detail is given.', new HttpError(500, serverErrorTexts.core.error, serverErrorTexts.core.message)),
};

const base = { security: 'auditorBearer' as const, tags: ['audit'] };
/** Every route of this file answers it when the service keeps no tree of its log. */
const notaryOff = failure('The service keeps no tree of its log (LOG_NOTARY=off).', new HttpError(404, 'not_found', notaryOffText));
const noHead = failure(
  'No head is signed yet, or the service keeps no tree of its log (LOG_NOTARY=off).',
  new HttpError(404, 'not_found', 'No tree head is signed yet: the notary signs one within seconds of the first events'),
);

export const auditRouteDocs = (): RouteDoc[] => [
  {
    method: 'get',
    path: '/.well-known/log-public-key',
    operationId: 'getLogPublicKey',
    summary: 'The public key the log tree heads are signed with',
    description: 'The Ed25519 key of the notary now, and every key that signed a head in the log (a rotation keeps the older heads verifiable). No token.',
    tags: ['audit'],
    responses: {
      200: { description: 'The keys.', body: publicKeysAnswer },
      400: failure('A query parameter was given.', unknownQueryParameter()),
      404: notaryOff,
    },
  },
  {
    ...base,
    method: 'get',
    path: '/api/audit/log/head',
    operationId: 'getLatestTreeHead',
    summary: "The latest signed head of the log's Merkle tree",
    responses: {
      200: { description: 'The head.', body: signedTreeHead },
      400: failure('A query parameter was given.', unknownQueryParameter()),
      404: noHead,
      ...common,
    },
  },
  {
    ...base,
    method: 'get',
    path: '/api/audit/log/heads/:size',
    operationId: 'getTreeHeadAtSize',
    summary: 'The signed head of a tree size',
    pathParams: treeSizeParams,
    responses: {
      200: { description: 'The head.', body: signedTreeHead },
      400: failure('The size is not a positive integer.', new HttpError(400, 'invalid_request', 'size: must be at least 1')),
      404: failure(
        'No head of that size was signed, or the service keeps no tree of its log (LOG_NOTARY=off).',
        new HttpError(404, 'not_found', 'No signed tree head of size 12'),
      ),
      ...common,
    },
  },
  {
    ...base,
    method: 'get',
    path: '/api/audit/log/inclusion',
    operationId: 'getInclusionProof',
    summary: "An event's inclusion proof in a tree of the log (RFC 9162 2.1.3)",
    query: inclusionQuery,
    responses: {
      200: { description: 'The proof, from the leaf up, with the root it leads to and the head of that size.', body: inclusionAnswer },
      400: failure(
        'A parameter is missing or invalid, or the event comes after the tree.',
        new HttpError(400, 'invalid_request', 'position: must be an integer'),
      ),
      404: failure(
        'No event at that position, a tree larger than the log, no head yet, or no tree kept (LOG_NOTARY=off).',
        new HttpError(404, 'not_found', "position: no event at position 9 in the log's tree"),
      ),
      ...common,
    },
  },
  {
    ...base,
    method: 'get',
    path: '/api/audit/log/consistency',
    operationId: 'getConsistencyProof',
    summary: 'That a smaller tree of the log is a prefix of a larger one (RFC 9162 2.1.4)',
    query: consistencyQuery,
    responses: {
      200: { description: 'The proof, with both roots and the signed head of the larger size.', body: consistencyAnswer },
      400: failure('A parameter is missing or invalid, or from exceeds to.', new HttpError(400, 'invalid_request', 'from: must not exceed to (12)')),
      404: failure(
        'A tree larger than the log, no head yet, or no tree kept (LOG_NOTARY=off).',
        new HttpError(404, 'not_found', "to: the log's tree holds 12 events, not 40"),
      ),
      ...common,
    },
  },
];
