import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { platformTransmissionStreamName } from '../../src/events/e-invoicing/events.ts';
import { runCli } from '../support/cli-process.ts';
import { eventually } from '../support/eventually.ts';
import { startServiceProcess, type ServiceProcess } from '../support/service-command.ts';
import { startStandInPlatform, type StandInPlatform } from './stand-in-platform.ts';

/**
 * The platform outbox as `npm start` runs it, killed with SIGKILL while a business invoice is in
 * flight (the platform has it, its answer not yet given): after the restart the invoice is sent again
 * under the same identifier, which the platform keeps once, and recorded sent once.
 */
describe('the platform outbox across a SIGKILL of the service', () => {
  let dataDir: string;
  let platform: StandInPlatform;
  let server: ServiceProcess | undefined;
  let base = '';

  const start = async (): Promise<void> => {
    server = await startServiceProcess(dataDir, {
      LOG_LEVEL: 'error',
      PLATFORM_URL: platform.url,
      PLATFORM_TOKEN: platform.token,
      PLATFORM_EVERY_SECONDS: '1',
    });
    base = server.origin;
  };
  const lastLine = (text: string) => text.trimEnd().split('\n').at(-1)!;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'platform-crash-'));
    platform = await startStandInPlatform();
  });

  afterAll(async () => {
    await server?.kill();
    await platform?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it(
    'when the service is killed while the platform holds its answer, the invoice is sent again with the same identifier and recorded sent once',
    { timeout: 120_000 },
    async () => {
      const order = {
        increment_id: '100900001',
        created_at: '2026-10-02T09:14:00+02:00',
        customer: { email: 'claire.martin@example.org', firstname: 'Claire', lastname: 'Martin', phone: '+33612345678' },
        shipping_address: { firstname: 'Claire', lastname: 'Martin', street: ['12 rue des Lilas'], postcode: '69003', city: 'Lyon', country_id: 'FR' },
        items: [{ sku: 'LAMP-ARC-BLK', name: 'Lampadaire arc noir', qty_ordered: 2, price: 129.9, supplier: null }],
        payment: { method: 'card', status: 'paid', amount_paid: 259.8 },
        shipping_amount: 0,
        business_customer: { company_name: 'Atelier Martin SARL', siret: '44306184100013', vat_number: 'FR64443061841' },
      };
      const file = path.join(dataDir, 'order.json');
      await writeFile(file, JSON.stringify(order));
      const imported = await runCli(dataDir, ['orders', 'import', file]);
      const saleId = /sale (\d+)/.exec(imported.stdout)?.[1];
      expect(saleId).toBeDefined();
      const [core, link] = await Promise.all([
        runCli(dataDir, ['token', 'issue', '--group', 'core']),
        runCli(dataDir, ['action-token', 'invoice', '--sale', saleId!]),
      ]);

      await start();
      platform.holdNextAnswer();
      const invoice = await fetch(`${base}/api/sale-invoice/${lastLine(link.stdout)}`, { headers: { authorization: `Bearer ${lastLine(core.stdout)}` } });
      expect(invoice.status).toBe(200);
      const number = /filename="([^"]+)\.pdf"/.exec(invoice.headers.get('content-disposition') ?? '')![1]!;
      await eventually(() => platform.received.length === 1, 30_000);
      await server!.kill();

      await start();
      await eventually(() => platform.received.length === 2, 30_000);
      const shown = async () => {
        const answer = await fetch(`${base}/api/platform-documents`, { headers: { authorization: `Bearer ${lastLine(core.stdout)}` } });
        return ((await answer.json()) as { documents: { id: string; platform_status: { status: string } | null }[] }).documents;
      };
      await eventually(async () => (await shown()).some((document) => document.id === number && document.platform_status?.status === 'deposited'), 30_000);
      const replayed = await runCli(dataDir, ['events', 'replay', '--stream', platformTransmissionStreamName(number)]);
      const recorded = replayed.stdout
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => (JSON.parse(line) as { type: string }).type);

      expect(platform.received.map((deposit) => deposit.id)).toEqual([number, number]);
      expect(platform.stored.size).toBe(1);
      expect(platform.received[0]!.body.equals(platform.received[1]!.body)).toBe(true);
      expect(recorded).toEqual(['PlatformTransmissionSent', 'PlatformStatusReceived']);
    },
  );
});
