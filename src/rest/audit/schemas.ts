import { z } from 'zod';
import { unknownParameters } from '../core/core-query.ts';
import { queryParameters } from '../query-parameters.ts';

/** The auditors' routes of the log's proofs: their inputs and answers (zod at the edge, the same schemas in the OpenAPI document). */

const count = (name: string) => z.coerce.number({ error: `${name}: must be an integer` }).int(`${name}: must be an integer`);

export const treeSizeParams = z.object({ size: count('size').min(1, 'size: must be at least 1').describe('A tree size (a number of events)') });

export const inclusionQuery = queryParameters(
  {
    position: count('position').min(0, 'position: must be a position (a non-negative integer)').describe("The event's log position"),
    treeSize: count('treeSize')
      .min(1, 'treeSize: must be at least 1')
      .optional()
      .describe('The size of the tree to prove it in (that of a signed head); the latest signed head by default'),
  },
  unknownParameters,
);

export const consistencyQuery = queryParameters(
  {
    from: count('from').min(1, 'from: must be at least 1').describe('The smaller tree size (a head the auditor kept)'),
    to: count('to').min(1, 'to: must be at least 1').optional().describe('The larger tree size; the latest signed head by default'),
  },
  unknownParameters,
);

const base64Hash = z.string().describe('A SHA-256 hash in base64');

export const signedTreeHead = z
  .object({
    treeSize: z.number().int(),
    rootHash: base64Hash,
    signedAt: z.string().describe('ISO-8601 instant'),
    keyId: z.string().describe('The first 8 bytes of SHA-256 of the raw public key, hex'),
    signature: z.string().describe('Ed25519 signature of the signed message (docs/audit.md), base64'),
    publicKey: z.string().describe('The raw Ed25519 public key, base64'),
    position: z.number().int().describe('Where the head is recorded in the log'),
  })
  .describe('A signed tree head of the log');

export const inclusionAnswer = z.object({
  position: z.number().int(),
  leafIndex: z.number().int(),
  treeSize: z.number().int(),
  leafHash: base64Hash,
  proof: z.array(base64Hash).describe('The audit path of RFC 9162 2.1.3, from the leaf up'),
  rootHash: base64Hash,
  head: signedTreeHead.nullable().describe('The signed head of that size, when one was signed'),
});

export const consistencyAnswer = z.object({
  from: z.number().int(),
  to: z.number().int(),
  proof: z.array(base64Hash).describe('The consistency proof of RFC 9162 2.1.4'),
  fromRootHash: base64Hash,
  toRootHash: base64Hash,
  toHead: signedTreeHead.nullable().describe('The signed head of the larger size, when one was signed'),
});

export const publicKeysAnswer = z.object({
  keyId: z.string(),
  publicKey: z.string().describe('The raw Ed25519 public key the notary signs with now, base64'),
  pem: z.string().describe('The same key as PEM (SPKI)'),
  keys: z.array(z.object({ keyId: z.string(), publicKey: z.string() })).describe('Every key that signed a head in the log, the current one included'),
});
