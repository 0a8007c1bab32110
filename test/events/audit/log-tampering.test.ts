import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, notarise } from './audit-fixtures.ts';

/**
 * The log proven whole: a demo log notarised (its Merkle tree kept, a head signed and recorded in the
 * log), then altered behind the service's back, straight in the SQLite file, and `events audit verify`
 * run on each copy: an untouched log verifies (exit 0); a changed byte, a deleted event, two swapped,
 * a truncation and an older copy of the data folder restored each fail (exit 1), naming the position.
 */

const withDb = <T>(dataDir: string, work: (db: Database.Database) => T): T => {
  const db = new Database(path.join(dataDir, 'events.sqlite'));
  try {
    return work(db);
  } finally {
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
  }
};

describe('events audit verify: a log altered behind the service is caught, with its position', () => {
  let root: string;
  let pristine: string;
  let count = 0;
  let positions: number[];

  const copy = async (from = pristine): Promise<string> => {
    const dir = path.join(root, `copy-${++count}`);
    await cp(from, dir, { recursive: true });
    return dir;
  };

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'log-audit-'));
    pristine = path.join(root, 'pristine');
    const seeded = await cli(pristine, 'demo', 'seed', '--orders', '12', '--until', '2026-11-20');
    expect(seeded.code, seeded.stderr).toBe(0);
    await notarise(pristine);
    positions = withDb(pristine, (db) =>
      db
        .prepare<[], { position: number }>('SELECT position FROM events ORDER BY position')
        .all()
        .map((row) => row.position),
    );
  }, 120_000);

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('when the log is untouched, it verifies: exit 0, every head in it checked', async () => {
    const result = await cli(pristine, 'events', 'audit', 'verify');
    expect(result.code, result.stderr).toBe(0);
    const summary = JSON.parse(result.stdout) as { ok: boolean; treeSize: number; headsChecked: number };
    expect(summary).toMatchObject({ ok: true, treeSize: positions.length, headsChecked: 1 });
  });

  it('when one byte of one event is changed in the SQLite file, the position of that event is named', async () => {
    const dir = await copy();
    const target = positions[Math.floor(positions.length / 2)]!;
    const data = withDb(dir, (db) => db.prepare<[number], { data: string }>('SELECT data FROM events WHERE position = ?').get(target)!.data);
    const file = path.join(dir, 'events.sqlite');
    const bytes = await readFile(file);
    const at = bytes.indexOf(Buffer.from(data, 'utf8'));
    expect(at).toBeGreaterThanOrEqual(0);
    expect(bytes.indexOf(Buffer.from(data, 'utf8'), at + 1)).toBe(-1);
    // A digit of the event's data, one byte, the JSON still valid.
    const digit = data.search(/\d/);
    bytes[at + Buffer.byteLength(data.slice(0, digit))] = data[digit] === '7' ? 0x38 : 0x37;
    await writeFile(file, bytes);
    const result = await cli(dir, 'events', 'audit', 'verify');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`first difference at position ${target}`);
    expect(result.stderr).toContain('it was changed');
  });

  it('when an event is deleted, its position is named', async () => {
    const dir = await copy();
    const target = positions[7]!;
    withDb(dir, (db) => db.prepare('DELETE FROM events WHERE position = ?').run(target));
    const result = await cli(dir, 'events', 'audit', 'verify');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`first difference at position ${target}`);
  });

  it('when two events are swapped, the earlier of the two positions is named', async () => {
    const dir = await copy();
    const [first, second] = [positions[20]!, positions[30]!];
    withDb(dir, (db) =>
      db.transaction(() => {
        db.prepare('UPDATE events SET position = -1 WHERE position = ?').run(first);
        db.prepare('UPDATE events SET position = ? WHERE position = ?').run(first, second);
        db.prepare('UPDATE events SET position = ? WHERE position = -1').run(second);
      })(),
    );
    const result = await cli(dir, 'events', 'audit', 'verify');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`first difference at position ${first}`);
  });

  it('when the log is truncated, the first missing position is named', async () => {
    const dir = await copy();
    const keep = positions.length - 10;
    withDb(dir, (db) => db.prepare('DELETE FROM events WHERE position > ?').run(positions[keep - 1]!));
    const result = await cli(dir, 'events', 'audit', 'verify');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`first difference at position ${positions[keep]}`);
    expect(result.stderr).toContain('are missing');
  });

  it('when an older copy of the whole data folder is restored after a head was published, the head kept outside catches it', async () => {
    const older = await copy();
    const live = await copy();
    const issued = await cli(live, 'token', 'issue', '--group', 'auditor', '--label', 'after the backup');
    expect(issued.code, issued.stderr).toBe(0);
    const published = await notarise(live);
    expect(published.treeSize).toBeGreaterThan(positions.length);
    const kept = path.join(root, 'kept-head.json');
    await writeFile(kept, JSON.stringify(published));
    // The live folder verifies against the head; the restored one, whose own tree and heads agree with its log, does not.
    const before = await cli(live, 'events', 'audit', 'verify', '--head', kept);
    expect(before.code, before.stderr).toBe(0);
    const alone = await cli(older, 'events', 'audit', 'verify');
    expect(alone.code, alone.stderr).toBe(0);
    const restored = await cli(older, 'events', 'audit', 'verify', '--head', kept, '--public-key', published.publicKey);
    expect(restored.code).toBe(1);
    expect(restored.stderr).toContain(`covers more events than the log holds (${positions.length}, last position ${positions.at(-1)})`);
    // Written again after the restore, the log grows past the head's size: its root there still differs.
    expect((await cli(older, 'token', 'issue', '--group', 'auditor', '--label', 'after the restore')).code).toBe(0);
    expect((await cli(older, 'token', 'issue', '--group', 'core', '--label', 'after the restore')).code).toBe(0);
    await notarise(older);
    const rewritten = await cli(older, 'events', 'audit', 'verify', '--head', kept);
    expect(rewritten.code).toBe(1);
    expect(rewritten.stderr).toContain('the log was rewritten');
  });
});
