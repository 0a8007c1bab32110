import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { attachSavFile } from '../../../src/events/after-sales/attach-sav-file.ts';
import { createSav } from '../../../src/events/after-sales/create-sav.ts';
import { savStreamName } from '../../../src/events/after-sales/events.ts';
import { scheduleSavAppointment } from '../../../src/events/after-sales/sav-appointment.ts';
import { loadDayOccupancy } from '../../../src/events/planning/slot-booking.ts';
import { nextMonday } from '../planning/planning-test-deps.ts';
import { openTestSav, savRequest, type TestSav } from './sav-test-deps.ts';

const at = (date: string, time: string) => ({ date, time, phone: '0601020304', comment: null });

describe('scheduling a SAV appointment and attaching files', () => {
  let sav: TestSav;
  let savId: number;
  beforeEach(async () => {
    sav = await openTestSav();
    const created = await createSav(sav.deps, savRequest({ appointment: at(nextMonday, '09:00') }), sav.context);
    if (created.status !== 'created') throw new Error(`the SAV was not created: ${created.refusal.code}`);
    savId = created.savId;
  });
  afterEach(async () => sav.close());

  it('when the SAV is rescheduled, the new place is taken and the previous one given back', async () => {
    expect(await scheduleSavAppointment(sav.deps, { savId, ...at('2026-03-10', '14:00') }, sav.context)).toMatchObject({ status: 'scheduled' });
    expect(await loadDayOccupancy(sav.deps, 'sav', nextMonday)).toEqual({});
    expect(await loadDayOccupancy(sav.deps, 'sav', '2026-03-10')).toEqual({ '14:00': 1 });
    const last = (await sav.deps.eventStore.readStream(savStreamName(savId))).at(-1);
    expect(last?.data).toMatchObject({ date: '2026-03-10', time: '14:00', previous: { date: nextMonday, time: '09:00' } });
  });

  it('when only the comment changes, the appointment is recorded again and its place kept', async () => {
    expect(await scheduleSavAppointment(sav.deps, { savId, ...at(nextMonday, '09:00'), comment: 'Portail bleu' }, sav.context)).toMatchObject({
      status: 'scheduled',
    });
    expect(await loadDayOccupancy(sav.deps, 'sav', nextMonday)).toEqual({ '09:00': 1 });
  });

  it('when the same appointment is scheduled again, nothing happens', async () => {
    const head = await sav.deps.eventStore.headPosition();
    expect(await scheduleSavAppointment(sav.deps, { savId, ...at(nextMonday, '09:00') }, sav.context)).toEqual({ status: 'unchanged' });
    expect(await sav.deps.eventStore.headPosition()).toBe(head);
  });

  it('when the new slot is full, it is refused with slot_full and the appointment stays where it was', async () => {
    for (const request of [1, 2]) {
      const other = await createSav(sav.deps, savRequest({ appointment: at(nextMonday, '11:00') }), sav.context);
      expect(other.status, `SAV ${request}`).toBe('created');
    }
    const head = await sav.deps.eventStore.headPosition();
    const result = await scheduleSavAppointment(sav.deps, { savId, ...at(nextMonday, '11:00') }, sav.context);
    expect(result.status === 'refused' ? result.refusal.code : null).toBe('slot_full');
    expect(await sav.deps.eventStore.headPosition()).toBe(head);
    expect(await loadDayOccupancy(sav.deps, 'sav', nextMonday)).toEqual({ '09:00': 1, '11:00': 2 });
  });

  it('when the SAV does not exist, scheduling is refused with unknown_sav and no slot is taken', async () => {
    const head = await sav.deps.eventStore.headPosition();
    const result = await scheduleSavAppointment(sav.deps, { savId: savId + 1000, ...at(nextMonday, '14:00') }, sav.context);
    expect(result.status === 'refused' ? result.refusal.code : null).toBe('unknown_sav');
    expect(await sav.deps.eventStore.headPosition()).toBe(head);
  });

  it('when a file is attached, it is recorded once; the same file ID again changes nothing', async () => {
    const file = {
      savId,
      kind: 'document' as const,
      category: 'facture',
      sourceUrl: 'https://cdn.example.fr/f.pdf',
      storedPath: `sav/${savId}/f.pdf`,
      fileName: 'f.pdf',
      contentType: 'application/pdf',
      size: 1234,
    };
    const first = await attachSavFile(sav.deps, file, sav.context);
    expect(first.status).toBe('attached');
    if (first.status === 'refused') return;
    expect(await attachSavFile(sav.deps, { ...file, fileId: first.fileId }, sav.context)).toEqual({ status: 'unchanged', fileId: first.fileId });
    const types = (await sav.deps.eventStore.readStream(savStreamName(savId))).map((event) => event.type);
    expect(types.filter((type) => type === 'SavFileAttached')).toHaveLength(1);
  });

  it('when the SAV does not exist, attaching is refused with unknown_sav', async () => {
    const result = await attachSavFile(
      sav.deps,
      { savId: savId + 1000, kind: 'image', category: 'photo', sourceUrl: null, storedPath: 'x.jpg', fileName: 'x.jpg', contentType: null, size: null },
      sav.context,
    );
    expect(result.status === 'refused' ? result.refusal.code : null).toBe('unknown_sav');
  });
});
