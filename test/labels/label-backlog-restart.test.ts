import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { access, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.ts';
import { issueAccessToken } from '../../src/events/access/access-token-handlers.ts';
import { systemContext } from '../../src/events/command-context.ts';
import { labelFileFor } from '../../src/files/label-path.ts';
import { createLogger } from '../../src/logger.ts';
import { openRuntime } from '../../src/runtime.ts';
import { anOrder, importPath } from '../rest/core/orders/orders-api.ts';
import { freeLoopbackPort } from '../support/free-port.ts';
import { projectRoot, serviceArguments } from '../support/service-command.ts';

/**
 * The label backlog across a SIGTERM, on the real server process as `npm start` runs it: the labels
 * not rendered when the server stopped are rendered after its next start, without being fetched.
 */

type Server = { origin: string; child: ChildProcess; exited: Promise<number | null> };

const startServer = async (dataDir: string): Promise<Server> => {
  const port = await freeLoopbackPort();
  const child = spawn(process.execPath, serviceArguments(), {
    cwd: projectRoot,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', PDF_WORKERS: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  // Ready once the read models are, which is when the label backlog starts.
  await new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.includes('"read models ready"')) resolve();
    });
    void exited.then((code) => reject(new Error(`the server exited (${code}) before it was ready`)));
  });
  return { origin: `http://127.0.0.1:${port}`, child, exited };
};

describe('the label backlog across a SIGTERM of the server', () => {
  const folders: string[] = [];
  afterAll(async () => {
    for (const folder of folders) await rm(folder, { recursive: true, force: true });
  });

  it('when the server is stopped in the middle of a label backlog, every label is on disk after its next start', { timeout: 120_000 }, async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'label-restart-'));
    folders.push(dataDir);
    // A core token, issued beside the server as the CLI does.
    const cli = await openRuntime(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }), createLogger('silent'), { readYourWrites: false });
    const { token } = await issueAccessToken(cli.write, { group: 'core', label: 'storefront' }, systemContext());
    await cli.close();

    const first = await startServer(dataDir);
    const imported = await Promise.all(
      Array.from({ length: 12 }, async () => {
        const response = await fetch(`${first.origin}${importPath}`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
          body: JSON.stringify(anOrder()),
        });
        expect(response.status).toBe(201);
        return ((await response.json()) as { supplier_lines: { service_order_id: string; supplier: 'supplier-a' | 'supplier-b' }[] }).supplier_lines;
      }),
    );
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    const labels = imported.flat().map((line) => labelFileFor(dataDir, line.supplier, line.service_order_id));
    const onDisk = async () =>
      (
        await Promise.all(
          labels.map((file) =>
            access(file).then(
              () => true,
              () => false,
            ),
          ),
        )
      ).filter(Boolean).length;
    expect(labels).toHaveLength(24);
    // The backlog was interrupted: some labels were left for the next start.
    expect(await onDisk()).toBeLessThan(24);

    const second = await startServer(dataDir);
    try {
      const deadline = Date.now() + 60_000;
      while ((await onDisk()) < labels.length && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await onDisk()).toBe(24);
      for (const file of labels) {
        const pdf = await readFile(file);
        expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
        expect(pdf.subarray(-6).toString('latin1')).toContain('%%EOF');
      }
    } finally {
      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);
    }
  });
});
