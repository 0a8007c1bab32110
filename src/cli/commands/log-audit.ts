import type { Command } from 'commander';
import type { KeyObject } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { exportedEvent, exportFormat, treeHeadSchema } from '../../events/audit/export-format.ts';
import { inclusionProof } from '../../events/audit/merkle.ts';
import { parsePublicKey, type TreeHead } from '../../events/audit/tree-head.ts';
import { notaryOff } from '../../events/audit/notary-off.ts';
import { verifyLog } from '../../events/audit/verify-log.ts';
import type { Runtime } from '../../runtime.ts';
import { CheckFailed, CliError } from '../cli-error.ts';
import type { WithRuntime } from '../cli-runtime.ts';
import { examples } from '../help-examples.ts';
import { printLine } from '../output.ts';
import { readJsonFile } from '../read-json-file.ts';

/** An Ed25519 public key given on the command line: its raw 32 bytes in base64, or a file holding that or a PEM. */
export const readPublicKeyOption = async (value: string, option = '--public-key'): Promise<KeyObject> => {
  const direct = parsePublicKey(value);
  if (direct) return direct;
  let text: string;
  try {
    text = await readFile(value, 'utf8');
  } catch {
    throw new CliError(`${option}: neither an Ed25519 public key (32 bytes in base64) nor a readable file`);
  }
  const fromFile = parsePublicKey(text);
  if (!fromFile) throw new CliError(`${option}: ${value} holds no Ed25519 public key (32 bytes in base64, or PEM)`);
  return fromFile;
};

type VerifyOptions = { head?: string[]; publicKey?: string[] };

/** `events audit verify`: the tree recomputed from the log and held against the signed heads. */
const verify = async (runtime: Runtime, keptHeads: TreeHead[], trustedKeys: KeyObject[]): Promise<void> => {
  const result = await verifyLog({ recorded: runtime.personalData.recorded, tree: runtime.logAudit?.tree, keptHeads, trustedKeys });
  await printLine(
    JSON.stringify({ ok: result.ok, treeSize: result.size, rootHash: result.rootHash, lastPosition: result.lastPosition, headsChecked: result.headsChecked }),
  );
  if (!result.ok) {
    const first = result.problems.find((problem) => problem.position !== undefined);
    throw new CheckFailed(
      [
        `The log does not verify${first ? `: first difference at position ${first.position}` : ''}`,
        ...result.problems.map((problem) => `  - ${problem.message}`),
      ].join('\n'),
    );
  }
};

type ExportOptions = { proofs?: boolean; stream?: string };

/** `events export --proofs`: the events the latest signed head covers, each with its inclusion proof. */
const exportWithProofs = async (runtime: Runtime, options: ExportOptions): Promise<void> => {
  if (!runtime.logAudit) throw new CliError(notaryOff);
  const { tree, follower } = runtime.logAudit;
  // The tree brought up to the log first: the CLI may run where no server keeps this file up to date.
  follower.start();
  await follower.caughtUpTo();
  const head = tree.latestHead();
  if (!head) throw new CliError('No signed tree head yet: the notary signs one a few seconds after the log grows (the server runs it)');
  await printLine(JSON.stringify({ format: exportFormat, head: { ...head, position: undefined } }));
  const pageSize = 1000;
  for (let after: number | undefined; ;) {
    const page = await runtime.personalData.recorded.readAll({ fromPosition: after, maxCount: pageSize });
    for (const event of page) {
      const index = tree.leafIndexAt(event.position);
      if (index === undefined || index >= head.treeSize) return;
      if (options.stream !== undefined && event.streamName !== options.stream) continue;
      await printLine(JSON.stringify(exportedEvent(event, index, inclusionProof(tree.subtrees, index, head.treeSize))));
    }
    if (page.length < pageSize) return;
    after = page.at(-1)!.position;
  }
};

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

export const logAuditCommands = (events: Command, withRuntime: WithRuntime): void => {
  const audit = events
    .command('audit')
    .description("the log's Merkle tree and its signed heads: verify the log, print the signing key")
    .addHelpText('after', examples('events audit verify', 'events audit verify --head kept-head.json --public-key log-key.pub', 'events audit public-key'));
  audit
    .command('verify')
    .description(
      'recompute the Merkle tree from the log as recorded, check every signed head in the log and each --head kept outside, and name the first position that differs (exit 1)',
    )
    .option('--head <file>', 'a signed tree head kept outside the service (JSON); repeatable', collect)
    .option('--public-key <key>', 'trust only this public key (base64, or a file); repeatable', collect)
    .addHelpText('after', examples('events audit verify', 'events audit verify --head kept-head.json --public-key log-key.pub'))
    .action(async (options: VerifyOptions) => {
      const keptHeads = await Promise.all((options.head ?? []).map((file) => readJsonFile(file, treeHeadSchema)));
      const trustedKeys = await Promise.all((options.publicKey ?? []).map((key) => readPublicKeyOption(key)));
      return withRuntime((runtime) => verify(runtime, keptHeads, trustedKeys));
    });
  audit
    .command('public-key')
    .description('the public key the log heads are signed with (base64 of the raw Ed25519 key), its key ID, and the PEM')
    .addHelpText('after', examples('events audit public-key'))
    .action(() =>
      withRuntime(async (runtime) => {
        if (!runtime.logAudit) throw new CliError(notaryOff);
        const { key } = runtime.logAudit;
        await printLine(`${key.raw.toString('base64')}`);
        await printLine(`key id: ${key.keyId}`);
        await printLine(key.publicKey.export({ format: 'pem', type: 'spki' }).toString().trim());
      }),
    );
  events
    .command('export')
    .description('the events the latest signed tree head covers, as JSON lines: the head first, then each event with its inclusion proof (--proofs)')
    .option('--proofs', 'with the signed head and each event’s inclusion proof (required: the export is for auditors)')
    .option('--stream <name>', 'one stream only, e.g. sale-100004512')
    .addHelpText('after', examples('events export --proofs > log-export.jsonl', 'events export --proofs --stream sale-100004512'))
    .action((options: ExportOptions) => {
      if (!options.proofs) throw new CliError('--proofs: required (an export without proofs is `events replay`)');
      if (options.stream !== undefined && !/^[a-z]+-.+$/.test(options.stream)) throw new CliError('--stream: must be a stream name such as sale-100004512');
      return withRuntime((runtime) => exportWithProofs(runtime, options));
    });
};
