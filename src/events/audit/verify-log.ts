import type { KeyObject } from 'node:crypto';
import type { EventStore, RecordedEvent } from '../store/event-store.ts';
import { eventLeafHash } from './leaf.ts';
import { GrowingTree, rootOf } from './merkle.ts';
import { SubtreeMemory } from './subtree-memory.ts';
import { keyIdOf, parsePublicKey, rawPublicKey, verifyTreeHead, type TreeHead } from './tree-head.ts';
import type { TreeStore } from './tree-store.ts';

/**
 * `events audit verify`: the log's Merkle tree recomputed from the log as recorded, then held against
 * what was signed: every tree head recorded in the log, and the heads an auditor kept (`--head`), each
 * checked for its signature and for the root of the recomputed tree at its size. When the notary's own
 * record of the tree is at hand, each leaf is also held against the one it recorded, which names the
 * first position that differs (an event changed, deleted or moved) or the first one missing.
 */

export type Problem = { message: string; position?: number; index?: number };

export type LogVerification = {
  ok: boolean;
  size: number;
  rootHash: string;
  lastPosition: number;
  headsChecked: number;
  problems: Problem[];
};

export type VerifyLogOptions = {
  /** The log as recorded (under the encrypting layer). */
  recorded: EventStore;
  /** The notary's record of the tree, to name the first leaf that differs. */
  tree?: TreeStore;
  /** Heads kept outside the service. */
  keptHeads?: readonly TreeHead[];
  /** The public keys trusted; without, a head is checked with the public key recorded beside it. */
  trustedKeys?: readonly KeyObject[];
  pageSize?: number;
};

const describeHead = (head: TreeHead) => `the head of ${head.treeSize} events signed at ${head.signedAt} by key ${head.keyId}`;

export const verifyLog = async (options: VerifyLogOptions): Promise<LogVerification> => {
  const problems: Problem[] = [];
  const memory = new SubtreeMemory();
  const growing = new GrowingTree(memory.keep);
  const pageSize = options.pageSize ?? 5_000;
  const trusted = new Map((options.trustedKeys ?? []).map((key) => [keyIdOf(rawPublicKey(key)), key]));
  const logHeads: { head: TreeHead; publicKey: string; position: number }[] = [];
  const positions: number[] = [];
  let differs = false;
  let lastPosition = -1;
  // The tree as it stands now: a server may go on growing it while the log is read.
  const notarisedSize = options.tree?.size() ?? 0;

  for (let after: number | undefined; ;) {
    const page: RecordedEvent[] = await options.recorded.readAll({ fromPosition: after, maxCount: pageSize });
    const notarisedHashes = options.tree && !differs ? options.tree.leafHashesFrom(growing.size, page.length) : [];
    for (const [offset, event] of page.entries()) {
      const index = growing.size;
      const hash = eventLeafHash(event);
      if (options.tree && !differs && index < notarisedSize) {
        const recorded = notarisedHashes[offset];
        if (!recorded?.equals(hash)) {
          differs = true;
          const notarised = options.tree.positionOf(index);
          problems.push({
            index,
            position: notarised ?? event.position,
            message:
              notarised === event.position
                ? `position ${event.position} (leaf ${index}) differs from the event the notary recorded there: it was changed`
                : `position ${notarised} (leaf ${index}) differs from the event the notary recorded there: the log now has position ${event.position} in its place (an event deleted, moved or inserted)`,
          });
        }
      }
      growing.append(hash);
      positions.push(event.position);
      if (event.type === 'TreeHeadSigned') {
        const { publicKey, ...head } = event.data as unknown as TreeHead & { publicKey: string };
        logHeads.push({ head, publicKey, position: event.position });
      }
      lastPosition = event.position;
    }
    if (page.length < pageSize) break;
    after = page.at(-1)!.position;
  }
  const size = growing.size;
  if (options.tree && !differs && size < notarisedSize) {
    const missing = options.tree.positionOf(size);
    problems.push({
      index: size,
      position: missing,
      message: `the log ends after ${size} events (last position ${lastPosition}); the notary recorded ${notarisedSize}: position ${missing} (leaf ${size}) and those after it are missing`,
    });
  }

  const check = (head: TreeHead, recordedKey: string | undefined, where: string): void => {
    const key = trusted.size > 0 ? trusted.get(head.keyId) : recordedKey === undefined ? undefined : (parsePublicKey(recordedKey) ?? undefined);
    if (!key) {
      problems.push({ message: `${where}: ${describeHead(head)} names a key that is not ${trusted.size > 0 ? 'among the trusted keys' : 'known'}` });
      return;
    }
    if (!verifyTreeHead(head, key)) {
      problems.push({ message: `${where}: ${describeHead(head)} has a signature that does not verify` });
      return;
    }
    if (head.treeSize > size) {
      problems.push({
        index: size,
        message: `${where}: ${describeHead(head)} covers more events than the log holds (${size}, last position ${lastPosition}): leaf ${size} and those after it are missing (truncated, or an older copy restored)`,
      });
      return;
    }
    if (rootOf(memory.subtrees, head.treeSize).toString('base64') !== head.rootHash) {
      const before = positions[head.treeSize - 1];
      problems.push({
        message: `${where}: the first ${head.treeSize} events (up to position ${before}) do not hash to the root of ${describeHead(head)}: the log was rewritten`,
      });
    }
  };
  for (const { head, publicKey, position } of logHeads) check(head, publicKey, `position ${position}`);
  for (const head of options.keptHeads ?? []) check(head, logHeads.find((found) => found.head.keyId === head.keyId)?.publicKey, 'kept head');

  return {
    ok: problems.length === 0,
    size,
    rootHash: growing.root().toString('base64'),
    lastPosition,
    headsChecked: logHeads.length + (options.keptHeads?.length ?? 0),
    problems,
  };
};
