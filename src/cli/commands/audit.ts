import type { Command } from 'commander';
import { createReadStream } from 'node:fs';
import { access } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { eventProven, exportedEventSchema, exportFormat, headSignedBy, treeHeadSchema } from '../../events/audit/export-format.ts';
import { CheckFailed, CliError } from '../cli-error.ts';
import { examples } from '../help-examples.ts';
import { printLine } from '../output.ts';
import { readPublicKeyOption } from './log-audit.ts';

/**
 * `audit check FILE --public-key KEY`: an export with proofs (`events export --proofs`) verified with
 * the public key alone, with no access to the service or its stores: the head's signature, then each
 * event's inclusion proof in the head's tree. Exit 1 naming the first event that fails.
 */
const check = async (file: string, publicKey: string): Promise<void> => {
  const key = await readPublicKeyOption(publicKey);
  try {
    await access(file);
  } catch {
    throw new CliError(`${file}: cannot be read`);
  }
  const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
  let head: ReturnType<typeof treeHeadSchema.parse> | undefined;
  let count = 0;
  const failures: string[] = [];
  let lineNumber = 0;
  {
    for await (const line of lines) {
      lineNumber += 1;
      if (line.trim() === '') continue;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        throw new CliError(`${file}, line ${lineNumber}: not valid JSON`);
      }
      if (head === undefined) {
        const header = value as { format?: unknown; head?: unknown };
        if (header.format !== exportFormat) throw new CliError(`${file}: not an export with proofs (its first line must name the format ${exportFormat})`);
        const parsed = treeHeadSchema.safeParse(header.head);
        if (!parsed.success) throw new CliError(`${file}: the head on its first line is not a signed tree head`);
        head = parsed.data;
        const signed = headSignedBy(head, key);
        if (!signed.ok) throw new CheckFailed(`${file}: ${signed.reason}`);
        continue;
      }
      const parsed = exportedEventSchema.safeParse(value);
      if (!parsed.success) throw new CliError(`${file}, line ${lineNumber}: not an exported event with its proof`);
      count += 1;
      if (!eventProven(head, parsed.data))
        failures.push(`position ${parsed.data.event.position} (leaf ${parsed.data.leafIndex}, line ${lineNumber}): not proven in the head's tree`);
    }
  }
  if (head === undefined) throw new CliError(`${file}: empty, not an export with proofs`);
  if (failures.length > 0) throw new CheckFailed([`${failures.length} of ${count} event(s) fail:`, ...failures.map((failure) => `  - ${failure}`)].join('\n'));
  await printLine(JSON.stringify({ ok: true, events: count, treeSize: head.treeSize, rootHash: head.rootHash, keyId: head.keyId, signedAt: head.signedAt }));
};

export const auditCommand = (program: Command): void => {
  const audit = program
    .command('audit')
    .description('checks an auditor runs without the service: no store is opened')
    .addHelpText('after', examples('audit check log-export.jsonl --public-key log-key.pub'));
  audit
    .command('check <file>')
    .description(
      'verify an export with proofs (events export --proofs) with the public key alone: the head signature and each event’s inclusion proof; exit 1 on a failure',
    )
    .requiredOption('--public-key <key>', 'the log signing public key (base64 of the raw Ed25519 key, or a file with it or its PEM)')
    .addHelpText('after', examples('audit check log-export.jsonl --public-key log-key.pub'))
    .action((file: string, options: { publicKey: string }) => check(file, options.publicKey));
};
