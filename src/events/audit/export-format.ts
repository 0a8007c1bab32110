import type { KeyObject } from 'node:crypto';
import { z } from 'zod';
import type { RecordedEvent } from '../store/event-store.ts';
import { eventLeafHash } from './leaf.ts';
import { verifyInclusion } from './merkle.ts';
import { keyIdOf, rawPublicKey, verifyTreeHead, type TreeHead } from './tree-head.ts';

/**
 * The formats an auditor keeps: a signed tree head (JSON, as `GET /api/audit/log/head` answers it and
 * `TreeHeadSigned` records it), and an export with proofs (`events export --proofs`): JSON lines, the
 * first `{"format":"event-log-export-v1","head":{…}}`, then one line per event
 * `{"event":{…as recorded},"leafIndex":n,"proof":["base64",…]}`, the inclusion proof of the event in
 * the head's tree. `audit check` verifies such a file with the public key alone.
 */

export const exportFormat = 'event-log-export-v1';

const base64Of = (bytes: number) =>
  z
    .string()
    .refine(
      (text) => Buffer.from(text, 'base64').length === bytes && Buffer.from(text, 'base64').toString('base64') === text,
      `must be ${bytes} bytes in base64`,
    );

export const treeHeadSchema = z.object({
  treeSize: z.number().int().min(1),
  rootHash: base64Of(32),
  signedAt: z.string().min(1),
  keyId: z.string().regex(/^[a-f0-9]{16}$/, 'must be 16 hex digits'),
  signature: base64Of(64),
  publicKey: base64Of(32).optional(),
});

const json: z.ZodType<unknown> = z.unknown();

export const exportedEventSchema = z.object({
  event: z.object({
    position: z.number().int(),
    stream: z.string(),
    revision: z.number().int(),
    id: z.string(),
    type: z.string(),
    data: z.record(z.string(), json),
    metadata: z.record(z.string(), json),
    recordedAt: z.string(),
  }),
  leafIndex: z.number().int().min(0),
  proof: z.array(base64Of(32)),
});

export type ExportedEvent = z.output<typeof exportedEventSchema>;

export const exportedEvent = (event: RecordedEvent, leafIndex: number, proof: readonly Buffer[]): ExportedEvent => ({
  event: {
    position: event.position,
    stream: event.streamName,
    revision: event.revision,
    id: event.id,
    type: event.type,
    data: event.data,
    metadata: event.metadata,
    recordedAt: event.recordedAt,
  },
  leafIndex,
  proof: proof.map((hash) => hash.toString('base64')),
});

const asRecorded = (exported: ExportedEvent['event']): RecordedEvent =>
  ({
    position: exported.position,
    streamName: exported.stream,
    revision: exported.revision,
    id: exported.id,
    type: exported.type,
    data: exported.data,
    metadata: exported.metadata,
    recordedAt: exported.recordedAt,
  }) as RecordedEvent;

/** Whether the event, as exported, is the leaf its proof says in the head's tree. */
export const eventProven = (head: TreeHead, exported: ExportedEvent): boolean =>
  verifyInclusion(
    eventLeafHash(asRecorded(exported.event)),
    exported.leafIndex,
    head.treeSize,
    exported.proof.map((hash) => Buffer.from(hash, 'base64')),
    Buffer.from(head.rootHash, 'base64'),
  );

/** Whether the head is signed by this key (the one its key ID names). */
export const headSignedBy = (head: TreeHead, key: KeyObject): { ok: true } | { ok: false; reason: string } => {
  const keyId = keyIdOf(rawPublicKey(key));
  if (keyId !== head.keyId) return { ok: false, reason: `the head is signed by key ${head.keyId}, not by the key given (${keyId})` };
  if (!verifyTreeHead(head, key)) return { ok: false, reason: `the head's signature does not verify with key ${keyId}` };
  return { ok: true };
};
