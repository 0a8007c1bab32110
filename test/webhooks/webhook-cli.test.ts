import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli-process.ts';

/** Staff manage the suppliers' webhook subscriptions from the CLI, on DATA_DIR, as the supplier API does. */
describe('the webhooks command', () => {
  let dataDir: string;
  // A loopback receiver exempt from the address policy, as the specs' option allows (nothing listens: nothing is sent here).
  const env = { WEBHOOK_TEST_RECEIVERS: 'localhost:9443' };

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'webhook-cli-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it(
    'when staff add, list, rotate and remove a subscription, the secrets are printed once and never listed; refused input is one line, exit 2, nothing recorded',
    { timeout: 60_000 },
    async () => {
      const added = await runCli(
        dataDir,
        ['webhooks', 'add', '--supplier', 'supplier-a', '--url', 'https://localhost:9443/in', '--kinds', 'line.opened,line.cancelled'],
        env,
      );
      expect(added.code).toBe(0);
      const [said, secret] = added.stdout.trimEnd().split('\n').slice(-2);
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      const id = /Subscribed (wh_[a-z0-9]{16}) for supplier-a/.exec(said!)![1]!;

      const listed = await runCli(dataDir, ['webhooks', 'list'], env);
      expect(listed.stdout.trimEnd().split('\n')).toEqual([
        'ID\tSUPPLIER\tURL\tKINDS\tSTATUS',
        `${id}\tsupplier-a\thttps://localhost:9443/in\tline.opened,line.cancelled\tactive`,
      ]);

      const rotated = await runCli(dataDir, ['webhooks', 'rotate', id, '--supplier', 'supplier-a'], env);
      const newSecret = rotated.stdout.trimEnd().split('\n').at(-1)!;
      expect(newSecret).toMatch(/^whsec_/);
      expect(newSecret).not.toBe(secret);
      expect((await runCli(dataDir, ['webhooks', 'list'], env)).stdout).not.toContain(newSecret.slice(6));

      const refusals = [
        [
          ['webhooks', 'add', '--supplier', 'supplier-a', '--url', 'https://192.168.1.20/in'],
          /^--url: The endpoint cannot be used: the host 192\.168\.1\.20 is an internal address\n$/,
        ],
        [['webhooks', 'add', '--supplier', 'supplier-a', '--url', 'https://localhost:9443/in', '--kinds', 'line.shipped'], /^--kinds: unknown line\.shipped/],
        [['webhooks', 'rotate', id, '--supplier', 'supplier-b'], /^wh_[a-z0-9]{16}: No webhook subscription has this ID\n$/],
      ] as const;
      for (const [args, message] of refusals) {
        const answer = await runCli(dataDir, [...args], env);
        expect(answer.code, args.join(' ')).toBe(2);
        expect(answer.stderr, args.join(' ')).toMatch(message);
      }
      expect((await runCli(dataDir, ['webhooks', 'list'], env)).stdout.trimEnd().split('\n')).toHaveLength(2);

      expect((await runCli(dataDir, ['webhooks', 'remove', id, '--supplier', 'supplier-a'], env)).stdout).toBe(`Removed ${id}\n`);
      expect((await runCli(dataDir, ['webhooks', 'list'], env)).stdout.trimEnd().split('\n')).toHaveLength(1);
    },
  );
});
