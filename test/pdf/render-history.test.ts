import { afterAll, describe, expect, it } from 'vitest';
import { creditNoteData, linesToCredit } from '../../src/invoicing/credit-note-data.ts';
import { invoiceData } from '../../src/invoicing/invoice-data.ts';
import { createLogger } from '../../src/logger.ts';
import { createPdfPool } from '../../src/pdf/pdf-pool.ts';
import { aSale, aSaleWithCancelledLamp, anIssue, invoiceOptions } from '../invoicing/invoice-fixtures.ts';
import { aLabel } from '../labels/label-fixtures.ts';
import { pdfText } from '../labels/pdf-tools.ts';

// A worker keeps each font parsed, and each word shaped, from one document to the next: what it
// rendered before must not show in the next document.

const labelFor = (firstname: string, lastname: string) =>
  aLabel({
    productName: 'Canapé 3 places Oslo gris — « fin de série »',
    recipient: { firstname, lastname, street: ['12 rue des Lilas, bât. B'], postcode: '69003', city: 'Lyon', country_id: 'FR', telephone: '+33 4.72.00.00.00' },
  });
const zoe = labelFor('Zoé', "N'Guessan");
const lukasz = labelFor('Łukasz', 'Ørsted-Żółć');

// The bytes that change from one rendering to the next whatever the content: the creation date and
// the file identifier.
const withoutDateAndId = (pdf: Buffer): string =>
  pdf
    .toString('latin1')
    .replace(/\(D:\d{14}Z\)/g, '(D:)')
    .replace(/\/ID \[<[0-9a-f]+> <[0-9a-f]+>\]/g, '/ID');

describe('PDFs rendered one after another by the same worker', () => {
  const aWorker = () => createPdfPool({ threads: 1, maxQueue: 10, timeoutMs: 30_000, log: createLogger('silent') });
  const pool = aWorker();
  const fresh = aWorker();
  afterAll(() => Promise.all([pool.close(), fresh.close()]));

  it("an invoice is the same document, text layer included, whether it is a worker's first or follows labels and a credit note", async () => {
    const issued = invoiceData(aSale(), anIssue, invoiceOptions());
    const invoice = { kind: 'invoice', data: issued } as const;
    const first = await fresh.render(invoice, 'person');

    await pool.render({ kind: 'label', data: lukasz }, 'background');
    await pool.render({ kind: 'label', data: zoe }, 'background');
    const credited = linesToCredit(issued, aSaleWithCancelledLamp(), [], 'Europe/Paris');
    const creditNote = creditNoteData(issued, credited, { number: 'AV-2026-1', issuedAt: '2026-10-06T08:00:00.000Z', issuedOn: '2026-10-06' }, issued.seller);
    await pool.render({ kind: 'credit-note', data: creditNote }, 'person');
    const again = await pool.render(invoice, 'person');

    expect(withoutDateAndId(again)).toBe(withoutDateAndId(first));
    const text = await pdfText(again);
    expect(text).toContain('Réf.');
    expect(text).toContain('P.U. HT');
    expect(text).toContain('P.U. TTC');
  });

  it('a label names its own recipient after a label for another', async () => {
    const before = await pool.render({ kind: 'label', data: zoe }, 'background');
    await pool.render({ kind: 'label', data: lukasz }, 'background');
    const after = await pool.render({ kind: 'label', data: zoe }, 'background');

    expect(withoutDateAndId(after)).toBe(withoutDateAndId(before));
    expect(await pdfText(after)).toContain("Zoé N'Guessan");
  });

  it('words shaped for earlier documents (ligatures, a no-break space, scripts beyond Latin) leave a label byte for byte as a fresh worker renders it, text layer included', async () => {
    const labels = [
      labelFor('Fiona', 'Office-Lefflot'),
      labelFor('Jean\u00a0Paul', 'ﬂeur ofﬁce'),
      labelFor('李', 'Ｎａｋａｍｕｒａ'),
      labelFor('Affi', 'Duffield'),
      // Roboto draws Δ (Greek delta) and ∆ (increment) with one glyph, whose character is the first the document used.
      labelFor('Δelta', '∆ero'),
      labelFor('Ampère', '∆ero'),
    ];
    const inTurn = [];
    for (const label of [...labels, ...[...labels].reverse()]) inTurn.push(withoutDateAndId(await pool.render({ kind: 'label', data: label }, 'background')));

    for (const [i, label] of labels.entries()) {
      const freshWorker = aWorker();
      const alone = withoutDateAndId(await freshWorker.render({ kind: 'label', data: label }, 'background'));
      await freshWorker.close();
      expect(inTurn[i], `label ${i}, the first time`).toBe(alone);
      expect(inTurn[2 * labels.length - 1 - i], `label ${i}, after all the others`).toBe(alone);
    }
  });
});
