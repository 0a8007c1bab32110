import { describe, expect, it } from 'vitest';
import { fold } from '../../../src/events/decider.ts';
import type { SavEvent } from '../../../src/events/after-sales/events.ts';
import type { AttachSavFile, CreateSav } from '../../../src/events/after-sales/sav-commands.ts';
import { savDecider } from '../../../src/events/after-sales/sav-decider.ts';
import { savStatus } from '../../../src/events/after-sales/sav-state.ts';
import { deciderSpec } from '../../support/decider-spec.ts';

const at = '2026-03-02T08:00:00.000Z';
const fileId = '0b0f8a52-7a4c-4c61-9a53-6f0d1f3e2a10';
const otherFileId = '5d8a0c1e-2b3f-4d5e-8f60-718293a4b5c6';
const sale = {
  saleId: 12,
  incrementId: '100000012',
  saleProductIds: [31, 32, 33],
  products: [
    { saleProductId: 31, sku: 'TAB-OAK-180', name: 'Table chêne 180 cm' },
    { saleProductId: 32, sku: 'CHR-OAK', name: 'Chaise chêne' },
    { saleProductId: 33, sku: 'BEN-OAK', name: 'Banc chêne' },
  ],
  customerEmail: 'client@example.fr',
};

const create = (overrides: Partial<CreateSav> = {}): CreateSav => ({
  type: 'CreateSav',
  savId: 5,
  sale,
  saleProductIds: [31, 33],
  complaint: 'Le pied de la table est cassé',
  complaintName: 'Produit endommagé',
  savType: 'repair',
  channel: 'core',
  appointment: null,
  files: [],
  at,
  ...overrides,
});

const created: SavEvent = {
  type: 'SavCreated',
  data: {
    savId: 5,
    saleId: 12,
    incrementId: '100000012',
    saleProductIds: [31, 33],
    products: [
      { saleProductId: 31, sku: 'TAB-OAK-180', name: 'Table chêne 180 cm' },
      { saleProductId: 33, sku: 'BEN-OAK', name: 'Banc chêne' },
    ],
    complaint: 'Le pied de la table est cassé',
    complaintName: 'Produit endommagé',
    savType: 'repair',
    channel: 'core',
    customerEmail: 'client@example.fr',
    createdAt: at,
  },
};
const scheduled = (date: string, time: string, previous: { date: string; time: string } | null = null): SavEvent => ({
  type: 'SavAppointmentScheduled',
  data: { savId: 5, date, time, phone: '0601020304', comment: null, previous, scheduledAt: at },
});
const attach = (id: string): AttachSavFile => ({
  type: 'AttachSavFile',
  fileId: id,
  kind: 'image',
  category: 'photo',
  sourceUrl: 'https://cdn.example.fr/a.jpg',
  storedPath: 'sav/5/a.jpg',
  fileName: 'a.jpg',
  contentType: 'image/jpeg',
  size: 2048,
  at,
});

describe('SAV creation', () => {
  const { given } = deciderSpec(savDecider);

  it('when the SAV does not exist and has no appointment nor file, only its creation is recorded', () => {
    given([]).when(create()).then([created]);
  });

  it('when an appointment and files are given, the creation is followed by the appointment then one attachment per file', () => {
    const files = [
      { fileId, kind: 'image' as const, category: 'photo', sourceUrl: 'https://cdn.example.fr/a.jpg', fileName: 'a.jpg' },
      { fileId: otherFileId, kind: 'video' as const, category: 'video', sourceUrl: 'https://cdn.example.fr/b.mp4', fileName: 'b.mp4' },
    ];
    given([])
      .when(create({ appointment: { date: '2026-03-09', time: '09:00', phone: '0601020304', comment: null }, files }))
      .then([
        created,
        scheduled('2026-03-09', '09:00'),
        { type: 'SavFileAttached', data: { savId: 5, ...files[0]!, storedPath: null, contentType: null, size: null, attachedAt: at } },
        { type: 'SavFileAttached', data: { savId: 5, ...files[1]!, storedPath: null, contentType: null, size: null, attachedAt: at } },
      ]);
  });

  it('when a product is given twice, the SAV covers it once', () => {
    given([])
      .when(create({ saleProductIds: [31, 33, 31] }))
      .then([created]);
  });

  it('when the stream already has the SAV, it is refused with sav_exists', () => {
    given([created]).when(create()).thenRefused('sav_exists');
  });

  it('when a product is not on the sale, it is refused with unknown_sale_product', () => {
    given([])
      .when(create({ saleProductIds: [31, 99] }))
      .thenRefused('unknown_sale_product');
  });

  it('when a product of the sale has no SKU and name known, it is refused with unknown_sale_product', () => {
    given([])
      .when(create({ sale: { ...sale, products: sale.products.slice(1) } }))
      .thenRefused('unknown_sale_product');
  });

  it('when no product is given, it is refused with no_product', () => {
    given([])
      .when(create({ saleProductIds: [] }))
      .thenRefused('no_product');
  });
});

describe('SAV appointment', () => {
  const { given } = deciderSpec(savDecider);
  const schedule = (date: string, time: string) => ({ type: 'ScheduleSavAppointment' as const, date, time, phone: '0601020304', comment: null, at });

  it('when the SAV has no appointment, it is scheduled with no previous one', () => {
    given([created])
      .when(schedule('2026-03-09', '11:00'))
      .then([scheduled('2026-03-09', '11:00')]);
  });

  it('when the SAV has an appointment, the new one records the replaced one as previous', () => {
    given([created, scheduled('2026-03-09', '09:00')])
      .when(schedule('2026-03-10', '14:00'))
      .then([scheduled('2026-03-10', '14:00', { date: '2026-03-09', time: '09:00' })]);
  });

  it('when the same appointment is scheduled again, nothing happens', () => {
    given([created, scheduled('2026-03-09', '09:00')])
      .when(schedule('2026-03-09', '09:00'))
      .thenNothingHappens();
  });

  it('when the SAV does not exist, it is refused with unknown_sav', () => {
    given([]).when(schedule('2026-03-09', '09:00')).thenRefused('unknown_sav');
  });
});

describe('SAV files', () => {
  const { given } = deciderSpec(savDecider);

  it('when the file is new, its attachment is recorded', () => {
    const { type: _type, at: attachedAt, ...file } = attach(fileId);
    given([created])
      .when(attach(fileId))
      .then([{ type: 'SavFileAttached', data: { savId: 5, ...file, attachedAt } }]);
  });

  it('when the same file ID is attached again, nothing happens', () => {
    const attachedFirst: SavEvent = {
      type: 'SavFileAttached',
      data: {
        savId: 5,
        fileId,
        kind: 'image',
        category: 'photo',
        sourceUrl: null,
        storedPath: null,
        fileName: 'a.jpg',
        contentType: null,
        size: null,
        attachedAt: at,
      },
    };
    given([created, attachedFirst]).when(attach(fileId)).thenNothingHappens();
  });

  it('when the SAV does not exist, it is refused with unknown_sav', () => {
    given([]).when(attach(fileId)).thenRefused('unknown_sav');
  });
});

describe('SAV status', () => {
  it('when the SAV is open, its status is in_progress (spec line 115: "SAV status `in_progress`")', () => {
    expect(savStatus(fold(savDecider, [created, scheduled('2026-03-09', '09:00')]))).toBe('in_progress');
  });

  it('when the SAV does not exist, it has no status', () => {
    expect(savStatus(savDecider.initialState())).toBeNull();
  });
});
