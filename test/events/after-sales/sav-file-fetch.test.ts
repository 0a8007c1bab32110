import { describe, expect, it } from 'vitest';
import type { SavEvent } from '../../../src/events/after-sales/events.ts';
import type { CreateSav, RecordSavFileFetched, RecordSavFileFetchFailed } from '../../../src/events/after-sales/sav-commands.ts';
import { savDecider } from '../../../src/events/after-sales/sav-decider.ts';
import { isFetchDue, maxSavFileFetchAttempts, nextFetchDelay } from '../../../src/events/after-sales/sav-file-fetch.ts';
import type { SavFileFetch } from '../../../src/events/after-sales/sav-state.ts';
import { fold } from '../../../src/events/decider.ts';
import { deciderSpec } from '../../support/decider-spec.ts';
import { tableSavCreated } from './sav-fixtures.ts';

const at = '2026-03-02T08:00:00.000Z';
const later = '2026-03-02T08:01:00.000Z';
const fileId = '0b0f8a52-7a4c-4c61-9a53-6f0d1f3e2a10';
const storedId = '5d8a0c1e-2b3f-4d5e-8f60-718293a4b5c6';
const url = 'https://cdn.example.fr/pied.jpg';

const created = tableSavCreated;
const file = { savId: 5, kind: 'image' as const, category: 'image', fileName: 'pied.jpg', attachedAt: at };
const linked: SavEvent = { type: 'SavFileAttached', data: { ...file, fileId, sourceUrl: url, storedPath: null, contentType: null, size: null } };
const storedWithRequest: SavEvent = {
  type: 'SavFileAttached',
  data: { ...file, fileId: storedId, sourceUrl: null, storedPath: 'sav-files/5/image-1.jpg', contentType: 'image/jpeg', size: 210 },
};

const fetched = (attempt = 1): RecordSavFileFetched => ({
  type: 'RecordSavFileFetched',
  fileId,
  attempt,
  kind: 'image',
  storedPath: 'sav-files/5/pied.jpg',
  contentType: 'image/jpeg',
  size: 2048,
  at: later,
});
const failed = (attempt: number, reason: RecordSavFileFetchFailed['reason'] = 'remote_failed'): RecordSavFileFetchFailed => ({
  type: 'RecordSavFileFetchFailed',
  fileId,
  attempt,
  reason,
  error: 'the file host answered HTTP 404',
  nextAttemptAt: '2026-03-02T08:02:00.000Z',
  at: later,
});
const fetchedEvent = (attempt = 1): SavEvent => {
  const { type: _type, at: fetchedAt, ...data } = fetched(attempt);
  return { type: 'SavFileFetched', data: { savId: 5, fileName: 'pied.jpg', ...data, fetchedAt } };
};
const failedEvent = (attempt: number, nextAttemptAt: string | null, reason: RecordSavFileFetchFailed['reason'] = 'remote_failed'): SavEvent => ({
  type: 'SavFileFetchFailed',
  data: { savId: 5, fileId, fileName: 'pied.jpg', attempt, reason, error: 'the file host answered HTTP 404', nextAttemptAt, failedAt: later },
});

const fetchOf = (events: readonly SavEvent[]): SavFileFetch | undefined => {
  const state = fold(savDecider, events);
  return state.exists ? state.fetches.get(fileId) : undefined;
};

describe('SAV files given with the request', () => {
  const { given } = deciderSpec(savDecider);
  const create = (files: CreateSav['files']): CreateSav => ({
    type: 'CreateSav',
    savId: 5,
    sale: {
      saleId: 12,
      incrementId: '100000012',
      saleProductIds: [31],
      products: [{ saleProductId: 31, sku: 'TAB-OAK-180', name: 'Table chêne 180 cm' }],
      customerEmail: 'client@example.fr',
    },
    saleProductIds: [31],
    complaint: 'Le pied de la table est cassé',
    complaintName: 'Produit endommagé',
    savType: 'repair',
    channel: 'core',
    appointment: null,
    files,
    at,
  });

  it('when a file was stored with the request (a data URL), its attachment names where it is, and no fetch is owed', () => {
    const stored = { storedPath: 'sav-files/5/image-1.jpg', contentType: 'image/jpeg', size: 210 };
    given([])
      .when(create([{ fileId: storedId, kind: 'image', category: 'image', sourceUrl: null, fileName: 'pied.jpg', stored }]))
      .then([created, storedWithRequest]);
    expect(fold(savDecider, [created, storedWithRequest])).toMatchObject({ fetches: new Map() });
  });

  it('when a file is given by URL, its attachment has no stored path, and its fetch is owed at once', () => {
    given([])
      .when(create([{ fileId, kind: 'image', category: 'image', sourceUrl: url, fileName: 'pied.jpg' }]))
      .then([created, linked]);
    expect(fetchOf([created, linked])).toEqual({ sourceUrl: url, fileName: 'pied.jpg', status: 'pending', attempts: 0, nextAttemptAt: at });
  });
});

describe('SAV file fetch outcomes', () => {
  const { given } = deciderSpec(savDecider);

  it('when a pending link is fetched, SavFileFetched records where it is stored, under the name it was attached with', () => {
    given([created, linked]).when(fetched()).then([fetchedEvent()]);
  });

  it('when the link was already stored (another run), recording it again changes nothing', () => {
    given([created, linked, fetchedEvent()]).when(fetched()).thenNothingHappens();
  });

  it('when an attempt fails for a reason a retry may mend, SavFileFetchFailed carries the next attempt time', () => {
    given([created, linked])
      .when(failed(1))
      .then([failedEvent(1, '2026-03-02T08:02:00.000Z')]);
    expect(fetchOf([created, linked, failedEvent(1, '2026-03-02T08:02:00.000Z')])).toMatchObject({
      status: 'pending',
      attempts: 1,
      nextAttemptAt: '2026-03-02T08:02:00.000Z',
    });
  });

  it(`when attempt ${maxSavFileFetchAttempts} fails, the fetch is given up: no next attempt`, () => {
    const history = Array.from({ length: maxSavFileFetchAttempts - 1 }, (_, index) => failedEvent(index + 1, later));
    given([created, linked, ...history])
      .when(failed(maxSavFileFetchAttempts))
      .then([failedEvent(maxSavFileFetchAttempts, null)]);
    expect(fetchOf([created, linked, ...history, failedEvent(maxSavFileFetchAttempts, null)])).toMatchObject({ status: 'failed', nextAttemptAt: null });
  });

  it.each(['url_refused', 'too_large', 'unsupported_type'] as const)(
    'when the first attempt fails with %s, no retry can mend it: given up at once',
    (reason) => {
      given([created, linked])
        .when(failed(1, reason))
        .then([failedEvent(1, null, reason)]);
    },
  );

  it.each(['unresolvable', 'remote_failed', 'timeout'] as const)('when the first attempt fails with %s, it is retried', (reason) => {
    given([created, linked])
      .when(failed(1, reason))
      .then([failedEvent(1, '2026-03-02T08:02:00.000Z', reason)]);
  });

  it('when the same failed attempt is reported twice, it counts once', () => {
    given([created, linked, failedEvent(1, later)])
      .when(failed(1))
      .thenNothingHappens();
  });

  it('when the fetch was given up, a late success or failure changes nothing', () => {
    given([created, linked, failedEvent(1, null, 'url_refused')])
      .when(fetched(2))
      .thenNothingHappens();
    given([created, linked, failedEvent(1, null, 'url_refused')])
      .when(failed(2))
      .thenNothingHappens();
  });

  it('when the file owes no fetch (stored with its request) or is unknown, it is refused with unknown_sav_file', () => {
    given([created, storedWithRequest])
      .when({ ...fetched(), fileId: storedId })
      .thenRefused('unknown_sav_file');
    given([created]).when(failed(1)).thenRefused('unknown_sav_file');
  });

  it('when the SAV does not exist, it is refused with unknown_sav', () => {
    given([]).when(fetched()).thenRefused('unknown_sav');
  });
});

describe('when a fetch is due', () => {
  const pending: SavFileFetch = { sourceUrl: url, fileName: 'pied.jpg', status: 'pending', attempts: 1, nextAttemptAt: '2026-03-02T08:02:00.000Z' };

  it('when its next attempt time has come, it is due; before, or once stored or given up, it is not', () => {
    expect(isFetchDue(pending, new Date('2026-03-02T08:02:00.000Z'))).toBe(true);
    expect(isFetchDue(pending, new Date('2026-03-02T08:01:59.999Z'))).toBe(false);
    expect(isFetchDue({ ...pending, status: 'stored', nextAttemptAt: null }, new Date('2030-01-01T00:00:00Z'))).toBe(false);
    expect(isFetchDue({ ...pending, status: 'failed', nextAttemptAt: null }, new Date('2030-01-01T00:00:00Z'))).toBe(false);
    expect(isFetchDue(undefined, new Date())).toBe(false);
  });

  it('when attempts fail, the delays double from one minute and stop growing at one hour', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 50].map((attempt) => nextFetchDelay(attempt) / 60_000)).toEqual([1, 2, 4, 8, 16, 32, 60, 60, 60]);
  });
});
