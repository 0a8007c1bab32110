import { z } from 'zod';
import { defineEvent, type EventsOf } from '../schema/define-event.ts';
import { instant } from '../schema/common-schemas.ts';

/**
 * A signed tree head of the log's Merkle tree (tree-head.ts), recorded in the log itself, in
 * `treehead-log`, by the notary (jobs/log-notary.ts): the first `treeSize` events of the log hash to
 * `rootHash`, as the key `keyId` (its public key beside it) signed at `signedAt`, in the instance
 * `instanceId` (INSTANCE_ID; not part of what is signed: it tells which of several instances signed).
 * The head is itself an event of the log, so it is a leaf of the later trees; a later head proves
 * consistent with it.
 */
const base64 = (bytes: number) =>
  z
    .string()
    .refine(
      (text) => Buffer.from(text, 'base64').length === bytes && Buffer.from(text, 'base64').toString('base64') === text,
      `must be ${bytes} bytes in base64`,
    );

export const TreeHeadSigned = defineEvent(
  'TreeHeadSigned',
  z.object({
    treeSize: z.number().int().min(1),
    rootHash: base64(32),
    signedAt: instant,
    keyId: z.string().regex(/^[a-f0-9]{16}$/),
    signature: base64(64),
    publicKey: base64(32),
    instanceId: z.string().min(1).optional(),
  }),
);

export const treeHeadEventDefinitions = [TreeHeadSigned] as const;
export type TreeHeadEvent = EventsOf<typeof treeHeadEventDefinitions>;

export const treeHeadStreamName = 'treehead-log';
