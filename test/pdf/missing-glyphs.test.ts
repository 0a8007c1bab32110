import { describe, expect, it } from 'vitest';
import type { TDocumentDefinitions } from 'pdfmake/interfaces.js';
import { withoutMissingGlyphs } from '../../src/pdf/missing-glyphs.ts';

const latinOnly = (codePoint: number): boolean => codePoint >= 0x20 && codePoint <= 0x17f;

describe('an archived document without the glyphs its font lacks', () => {
  it('when a text holds characters the font has no glyph for, each reads as the replacement character; line breaks stay', () => {
    const definition: TDocumentDefinitions = { content: [{ text: 'Zoé 🛋\u0007 N’Guessan\nLyon', bold: true }, 'Œuvre'] };
    expect(withoutMissingGlyphs(definition, latinOnly).content).toEqual([{ text: 'Zoé \uFFFD\uFFFD N\uFFFDGuessan\nLyon', bold: true }, 'Œuvre']);
  });

  it('when the definition has a footer function and dates, the footer is checked on what it returns and the dates are kept', () => {
    const creationDate = new Date('2026-10-05T08:00:00.000Z');
    const definition: TDocumentDefinitions = { content: [], info: { creationDate, title: 'Facture 🛋' }, footer: (page: number) => `page ${page} ✓` };
    const checked = withoutMissingGlyphs(definition, latinOnly);
    expect(checked.info).toEqual({ creationDate, title: 'Facture \uFFFD' });
    expect(checked.info?.creationDate).toBeInstanceOf(Date);
    expect((checked.footer as (page: number) => unknown)(2)).toBe('page 2 \uFFFD');
  });
});
