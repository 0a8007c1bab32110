import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/config.ts';
import { createLogger } from '../../../src/logger.ts';
import { openRuntime } from '../../../src/runtime.ts';
import { cli, notarise } from './audit-fixtures.ts';

/**
 * Proofs an auditor keeps, checked without the service (`audit check` opens no store), and erasure:
 * deleting a customer's key changes no stored byte, so every head and proof made before the erasure
 * still verifies after it, and those made after too.
 */

type Line = { event: { position: number; type: string; data: Record<string, unknown>; metadata: Record<string, unknown> }; leafIndex: number; proof: string[] };

describe('exports with proofs, and a customer erased after heads were published', () => {
  let root: string;
  let dataDir: string;
  let publicKey: string;
  let headBefore: Awaited<ReturnType<typeof notarise>>;
  let exportBefore: string;
  let email: string;

  const exported = async (name: string): Promise<string> => {
    const result = await cli(dataDir, 'events', 'export', '--proofs');
    expect(result.code, result.stderr).toBe(0);
    const file = path.join(root, name);
    await writeFile(file, result.stdout);
    return file;
  };
  const lines = async (file: string): Promise<Line[]> =>
    (await readFile(file, 'utf8'))
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => JSON.parse(line) as Line);

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'log-audit-erasure-'));
    dataDir = path.join(root, 'data');
    expect((await cli(dataDir, 'demo', 'seed', '--orders', '6', '--until', '2026-11-20')).code).toBe(0);
    headBefore = await notarise(dataDir);
    const printed = await cli(dataDir, 'events', 'audit', 'public-key');
    expect(printed.code, printed.stderr).toBe(0);
    publicKey = printed.stdout.split('\n')[0]!;
    exportBefore = await exported('before.jsonl');
    // The first customer's e-mail, read through the service's own decrypting layer.
    const runtime = await openRuntime(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }), createLogger('silent'), { readYourWrites: false });
    try {
      const [sale] = await runtime.eventStore.readAll({ filter: { eventTypes: ['SaleImported'] }, maxCount: 1 });
      email = (sale!.data as { customer: { email: string } }).customer.email;
    } finally {
      await runtime.close();
    }
  }, 120_000);

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('when the public key is printed, it is the key that signed the heads', () => {
    expect(publicKey).toBe(headBefore.publicKey);
  });

  it('when an export with proofs is checked with the public key alone, every event is proven; a changed event, a wrong key or a forged head fail (exit 1)', async () => {
    const good = await cli(root, 'audit', 'check', exportBefore, '--public-key', publicKey);
    expect(good.code, good.stderr).toBe(0);
    const lines = (await readFile(exportBefore, 'utf8')).trim().split('\n');
    expect(JSON.parse(good.stdout)).toMatchObject({ ok: true, events: lines.length - 1, treeSize: headBefore.treeSize, rootHash: headBefore.rootHash });

    const line = JSON.parse(lines[3]!) as Line;
    line.event.data = { ...line.event.data, altered: true };
    const changed = path.join(root, 'changed.jsonl');
    await writeFile(changed, [...lines.slice(0, 3), JSON.stringify(line), ...lines.slice(4)].join('\n'));
    const caught = await cli(root, 'audit', 'check', changed, '--public-key', publicKey);
    expect(caught.code).toBe(1);
    expect(caught.stderr).toContain(`position ${line.event.position} (leaf ${line.leafIndex}, line 4): not proven`);

    const otherKey = Buffer.alloc(32, 7).toString('base64');
    const wrongKey = await cli(root, 'audit', 'check', exportBefore, '--public-key', otherKey);
    expect(wrongKey.code).toBe(1);
    expect(wrongKey.stderr).toContain('not by the key given');

    const header = JSON.parse(lines[0]!) as { head: { rootHash: string } };
    header.head.rootHash = Buffer.alloc(32, 1).toString('base64');
    const forged = path.join(root, 'forged.jsonl');
    await writeFile(forged, [JSON.stringify(header), ...lines.slice(1)].join('\n'));
    const refused = await cli(root, 'audit', 'check', forged, '--public-key', publicKey);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('signature does not verify');

    const notAnExport = await cli(root, 'audit', 'check', path.join(root, 'missing.jsonl'), '--public-key', publicKey);
    expect(notAnExport.code).toBe(2);
  });

  it('when a customer is erased after heads were published, every head and proof made before still verifies, and those made after', async () => {
    const erased = await cli(dataDir, 'customer', 'erase', '--email', email);
    expect(erased.code, erased.stderr).toBe(0);
    const headAfter = await notarise(dataDir);
    expect(headAfter.treeSize).toBeGreaterThan(headBefore.treeSize);
    const kept = path.join(root, 'head-before.json');
    await writeFile(kept, JSON.stringify(headBefore));
    const verified = await cli(dataDir, 'events', 'audit', 'verify', '--head', kept, '--public-key', publicKey);
    expect(verified.code, verified.stderr).toBe(0);
    expect(JSON.parse(verified.stdout)).toMatchObject({ ok: true, headsChecked: 3 });
    // The proofs exported before the erasure still hold, and so do the new ones.
    expect((await cli(root, 'audit', 'check', exportBefore, '--public-key', publicKey)).code).toBe(0);
    const exportAfter = await exported('after.jsonl');
    expect((await cli(root, 'audit', 'check', exportAfter, '--public-key', publicKey)).code).toBe(0);
    // The customer's sealed events are byte for byte the ones proven before: no personal value in clear.
    const before = await lines(exportBefore);
    const after = new Map((await lines(exportAfter)).map((line) => [line.event.position, line]));
    const sealed = before.filter((line) => line.event.type === 'SaleImported');
    expect(sealed.length).toBeGreaterThan(0);
    for (const line of sealed) {
      expect(after.get(line.event.position)!.event).toEqual(line.event);
      expect(JSON.stringify(line.event)).not.toContain(email);
    }
    expect([...after.values()].some((line) => line.event.type === 'CustomerErased')).toBe(true);
  });
});
