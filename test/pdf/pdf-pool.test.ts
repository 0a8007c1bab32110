import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { PdfRenderFailedError } from '../../src/pdf/pdf-errors.ts';
import { createPdfPool } from '../../src/pdf/pdf-pool.ts';

describe('the PDF pool when its worker module cannot load (a broken deployment)', () => {
  it('the documents asked for fail as not rendered, the failure is logged, and the process goes on', async () => {
    const logged: { msg: string; err?: { message: string } }[] = [];
    const log = pino({ level: 'error' }, { write: (line: string) => void logged.push(JSON.parse(line) as (typeof logged)[number]) });
    const pool = createPdfPool({ threads: 1, maxQueue: 4, timeoutMs: 10_000, log, worker: new URL('./unloadable-pdf-worker.mjs', import.meta.url) });
    pool.warmUp();

    await expect(pool.render({ kind: 'label', data: {} as never }, 'person')).rejects.toBeInstanceOf(PdfRenderFailedError);

    expect(logged.some((line) => line.err?.message === 'this PDF worker cannot load')).toBe(true);
    expect(pool.stats().running).toBe(0);
    await pool.close();
  });
});
