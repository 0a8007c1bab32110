import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

/** Reads a PDF back as a person or a scanner would: its text (pdftotext), its page 1 at 200 dpi (pdftoppm), its barcode (zbarimg). */

const run = promisify(execFile);

const withPdfFile = async <T>(bytes: Uint8Array, read: (file: string, folder: string) => Promise<T>): Promise<T> => {
  const folder = await mkdtemp(path.join(tmpdir(), 'label-pdf-'));
  try {
    const file = path.join(folder, 'label.pdf');
    await writeFile(file, bytes);
    return await read(file, folder);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
};

/** The text, with runs of white space folded to one space. */
export const pdfText = (bytes: Uint8Array): Promise<string> =>
  withPdfFile(bytes, async (file) => (await run('pdftotext', ['-enc', 'UTF-8', file, '-'])).stdout.replace(/\s+/g, ' '));

export const pdfPageCount = (bytes: Uint8Array): Promise<number> =>
  withPdfFile(bytes, async (file) => Number(/^Pages:\s+(\d+)/m.exec((await run('pdfinfo', [file])).stdout)?.[1]));

/** What zbarimg reads on page 1 rendered at 200 dpi: `--raw` gives the value alone, else `<SYMBOLOGY>:<value>`. */
export const scanBarcode = (bytes: Uint8Array, options: { raw: boolean } = { raw: true }): Promise<string> =>
  withPdfFile(bytes, async (file, folder) => {
    const image = path.join(folder, 'page');
    await run('pdftoppm', ['-png', '-r', '200', '-f', '1', '-l', '1', '-singlefile', file, image]);
    const { stdout } = await run('zbarimg', [...(options.raw ? ['--raw'] : []), '-q', `${image}.png`]);
    return stdout.trim();
  });
