import { describe, expect, it } from 'vitest';
import type { SavEvent } from '../../../src/events/after-sales/events.ts';
import type { CancelSav, CloseSav, ReopenSav, ResolveSav } from '../../../src/events/after-sales/sav-commands.ts';
import { savDecider } from '../../../src/events/after-sales/sav-decider.ts';
import { savStatus } from '../../../src/events/after-sales/sav-state.ts';
import { fold, isRefusal } from '../../../src/events/decider.ts';
import { deciderSpec } from '../../support/decider-spec.ts';
import { tableSavCreated } from './sav-fixtures.ts';

/** The life of a SAV: in_progress -> resolved -> closed; resolved or closed -> in_progress again; in_progress -> cancelled. */

const at = '2026-03-04T10:00:00.000Z';
const today = '2026-03-04';
const savId = 5;

const created = tableSavCreated;
const scheduledOn = (date: string): SavEvent => ({
  type: 'SavAppointmentScheduled',
  data: { savId, date, time: '09:00', phone: null, comment: null, previous: null, scheduledAt: '2026-03-02T08:00:00.000Z' },
});
const resolved: SavEvent = { type: 'SavResolved', data: { savId, resolution: 'Pied remplacé', resolvedAt: at } };
const closed: SavEvent = { type: 'SavClosed', data: { savId, releasedAppointment: null, closedAt: at } };
const reopened: SavEvent = { type: 'SavReopened', data: { savId, reason: 'Le pied bouge', reopenedFrom: 'resolved', reopenedAt: at } };
const cancelled: SavEvent = { type: 'SavCancelled', data: { savId, reason: 'Doublon', releasedAppointment: null, cancelledAt: at } };

const resolve: ResolveSav = { type: 'ResolveSav', resolution: 'Pied remplacé', at };
const close: CloseSav = { type: 'CloseSav', today, at };
const reopen: ReopenSav = { type: 'ReopenSav', reason: 'Le pied bouge', at };
const cancel: CancelSav = { type: 'CancelSav', reason: 'Doublon', today, at };

describe('resolving a SAV', () => {
  const { given } = deciderSpec(savDecider);

  it('when the SAV is in progress, it is resolved with the resolution', () => {
    given([created]).when(resolve).then([resolved]);
  });

  it('when the SAV was reopened, it can be resolved again', () => {
    given([created, resolved, reopened]).when(resolve).then([resolved]);
  });

  it.each([
    ['already resolved', [created, resolved]],
    ['closed', [created, resolved, closed]],
    ['cancelled', [created, cancelled]],
  ])('when the SAV is %s, it is refused with sav_status_conflict', (_status, history) => {
    given(history).when(resolve).thenRefused('sav_status_conflict');
  });

  it('when the SAV does not exist, it is refused with unknown_sav', () => {
    given([]).when(resolve).thenRefused('unknown_sav');
  });
});

describe('closing a SAV', () => {
  const { given } = deciderSpec(savDecider);

  it('when the SAV is resolved and has no appointment, it is closed, giving nothing back', () => {
    given([created, resolved]).when(close).then([closed]);
  });

  it('when its appointment is today or later, the closing gives it back', () => {
    given([created, scheduledOn(today), resolved])
      .when(close)
      .then([{ type: 'SavClosed', data: { savId, releasedAppointment: { date: today, time: '09:00' }, closedAt: at } }]);
  });

  it('when its appointment day is past, the closing keeps it (the visit stays in the planning as it was)', () => {
    given([created, scheduledOn('2026-03-03'), resolved])
      .when(close)
      .then([closed]);
  });

  it.each([
    ['in progress (a SAV is resolved before it is closed)', [created]],
    ['already closed', [created, resolved, closed]],
    ['cancelled', [created, cancelled]],
    ['reopened', [created, resolved, reopened]],
  ])('when the SAV is %s, it is refused with sav_status_conflict', (_status, history) => {
    given(history).when(close).thenRefused('sav_status_conflict');
  });
});

describe('reopening a SAV', () => {
  const { given } = deciderSpec(savDecider);

  it('when the SAV is resolved, it is reopened with the reason, from resolved', () => {
    given([created, resolved]).when(reopen).then([reopened]);
  });

  it('when the SAV is closed, it is reopened with the reason, from closed', () => {
    given([created, resolved, closed])
      .when(reopen)
      .then([{ type: 'SavReopened', data: { savId, reason: 'Le pied bouge', reopenedFrom: 'closed', reopenedAt: at } }]);
  });

  it.each([
    ['in progress', [created]],
    ['cancelled (a cancellation is final)', [created, cancelled]],
  ])('when the SAV is %s, it is refused with sav_status_conflict', (_status, history) => {
    given(history).when(reopen).thenRefused('sav_status_conflict');
  });
});

describe('cancelling a SAV', () => {
  const { given } = deciderSpec(savDecider);

  it('when the SAV is in progress without appointment, it is cancelled with the reason, giving nothing back', () => {
    given([created]).when(cancel).then([cancelled]);
  });

  it('when its appointment is upcoming, the cancellation gives it back', () => {
    given([created, scheduledOn('2026-03-09')])
      .when(cancel)
      .then([{ type: 'SavCancelled', data: { savId, reason: 'Doublon', releasedAppointment: { date: '2026-03-09', time: '09:00' }, cancelledAt: at } }]);
  });

  it('when its appointment day is past, the cancellation keeps it', () => {
    given([created, scheduledOn('2026-03-03')])
      .when(cancel)
      .then([cancelled]);
  });

  it.each([
    ['resolved', [created, resolved]],
    ['closed', [created, resolved, closed]],
    ['already cancelled', [created, cancelled]],
  ])('when the SAV is %s, it is refused with sav_status_conflict', (_status, history) => {
    given(history).when(cancel).thenRefused('sav_status_conflict');
  });
});

describe('what the status allows besides', () => {
  const { given } = deciderSpec(savDecider);
  const schedule = { type: 'ScheduleSavAppointment' as const, date: '2026-03-09', time: '11:00', phone: null, comment: null, at };

  it.each([
    ['resolved', [created, resolved]],
    ['closed', [created, resolved, closed]],
    ['cancelled', [created, cancelled]],
  ])('when the SAV is %s, scheduling an appointment is refused with sav_status_conflict', (_status, history) => {
    given(history).when(schedule).thenRefused('sav_status_conflict');
  });

  it('when the SAV is closed, a file can still be attached', () => {
    const attach = {
      type: 'AttachSavFile' as const,
      fileId: '0b0f8a52-7a4c-4c61-9a53-6f0d1f3e2a10',
      kind: 'image' as const,
      category: 'photo',
      sourceUrl: null,
      storedPath: 'sav/5/a.jpg',
      fileName: 'a.jpg',
      contentType: null,
      size: null,
      at,
    };
    const { type: _type, at: attachedAt, ...file } = attach;
    given([created, resolved, closed])
      .when(attach)
      .then([{ type: 'SavFileAttached', data: { savId, ...file, attachedAt } }]);
  });

  it('when a refusal names the status, it says which statuses would allow the change', () => {
    const refusal = savDecider.decide(close, fold(savDecider, [created]));
    expect(isRefusal(refusal) && { message: refusal.message, details: refusal.details }).toEqual({
      message: 'SAV 5 is in_progress: it cannot be closed (only a SAV resolved can be)',
      details: { savId, status: 'in_progress', allowedFrom: ['resolved'] },
    });
  });
});

describe('the status of a SAV', () => {
  it.each([
    ['opened', [created], 'in_progress'],
    ['resolved', [created, resolved], 'resolved'],
    ['closed', [created, resolved, closed], 'closed'],
    ['reopened', [created, resolved, closed, reopened], 'in_progress'],
    ['cancelled', [created, cancelled], 'cancelled'],
  ] as const)('when the SAV was %s, its status is %s', (_step, history, status) => {
    expect(savStatus(fold(savDecider, history))).toBe(status);
  });

  it('when the SAV ended giving its appointment back, it holds none until reopened, and remembers what it gave back', () => {
    const ended = fold(savDecider, [
      created,
      scheduledOn('2026-03-09'),
      resolved,
      { type: 'SavClosed', data: { savId, releasedAppointment: { date: '2026-03-09', time: '09:00' }, closedAt: at } },
    ]);
    expect(ended).toMatchObject({ status: 'closed', appointment: null, releasedAppointment: { date: '2026-03-09', time: '09:00' } });
    expect(savDecider.evolve(ended, reopened)).toMatchObject({ status: 'in_progress', appointment: null, releasedAppointment: null });
  });
});
