import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A store file path in a fresh temporary folder, in a sub-folder that does not exist yet. */
export async function tempStoreFile(): Promise<{ file: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'event-store-'));
  return { file: join(dir, 'data', 'events.sqlite'), remove: () => rm(dir, { recursive: true, force: true }) };
}
