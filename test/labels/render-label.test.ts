import { describe, expect, it } from 'vitest';
import { labelDigest } from '../../src/labels/label-data.ts';
import { renderLabelPdf } from '../../src/labels/render-label.ts';
import { digestKeyword } from '../../src/labels/stored-label.ts';
import { aLabel } from './label-fixtures.ts';
import { pdfText, scanBarcode } from './pdf-tools.ts';

describe('a rendered shipping label', () => {
  it('when a name is outside Latin-1, it is printed as written', async () => {
    const text = await pdfText(await renderLabelPdf(aLabel()));
    expect(text).toContain('Łucja Nowak-Sørensen');
    expect(text).toContain('Ulica Świętokrzyska 12');
  });

  it('when the address and product name are as long as an order may carry, the barcode still scans on page 1', async () => {
    const long = (start: string) => `${start} ${'x'.repeat(240)}`.slice(0, 255);
    const pdf = await renderLabelPdf(
      aLabel({
        productName: long('Article'),
        recipient: { ...aLabel().recipient, company: long('Société').slice(0, 100), street: [long('A'), long('B'), long('C'), long('D')] },
      }),
    );
    expect(await scanBarcode(pdf)).toBe('MC0000000000422');
  });

  it('when the carrier is unknown, the label says so instead of leaving it blank', async () => {
    expect(await pdfText(await renderLabelPdf(aLabel({ carrier: null })))).toContain('Transporteur non renseigné');
  });

  it('when a label is rendered, its PDF carries the digest of the data it was rendered from, and only that one', async () => {
    const data = aLabel();
    const pdf = (await renderLabelPdf(data)).toString('latin1');
    expect(pdf).toContain(`(${digestKeyword(labelDigest(data))})`);
    expect(pdf).not.toContain(digestKeyword(labelDigest(aLabel({ trackingNumber: 'MC0000000000018' }))));
  });
});
