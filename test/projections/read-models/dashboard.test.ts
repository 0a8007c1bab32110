import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bucketsOf } from '../../../src/projections/dashboard/buckets.ts';
import { addDays } from '../../../src/events/planning/calendar-date.ts';
import { dashboardDaysCollection, dashboardMonthsCollection, type DashboardDayDocument } from '../../../src/projections/dashboard/dashboard-documents.ts';
import { dashboardProjection } from '../../../src/projections/dashboard/dashboard-projection.ts';
import { dashboard } from '../../../src/projections/dashboard/queries.ts';
import type { ReadStore } from '../../../src/projections/read-store/read-store.ts';
import { openTestReadStore } from '../../support/mongo-backend.ts';
import { eventLog, type EventLog } from './event-log.ts';
import { deliver, project, readModels } from './project.ts';
import { address, fridge, sofa } from './sale-fixtures.ts';
import { timezone } from './scenario.ts';

const projections = [dashboardProjection({ timezone })];

const ordered = (log: EventLog, saleId: number, orderedAt: string, grandTotal: number) =>
  log.record(`sale-${saleId}`, {
    type: 'SaleImported',
    data: {
      saleId,
      incrementId: String(saleId),
      source: 'shop',
      orderedAt,
      currency: 'EUR',
      customer: { email: 'marie.curie@example.fr', firstname: 'Marie', lastname: 'Curie', phone: null },
      shippingAddress: address('1 rue Cuvier'),
      billingAddress: null,
      products: [
        { ...sofa, saleProductId: saleId * 10 + 1 },
        { ...fridge, saleProductId: saleId * 10 + 2 },
      ],
      payment: { method: 'card', status: 'paid', amountPaid: grandTotal },
      shippingAmount: 0,
      grandTotal,
      importedAt: orderedAt,
    },
  });

const savOpened = (log: EventLog, savId: number, createdAt: string, complaintName: string, savType: string) =>
  log.record(`sav-${savId}`, {
    type: 'SavCreated',
    data: {
      savId,
      saleId: 1,
      incrementId: '1',
      saleProductIds: [11],
      products: [{ saleProductId: 11, sku: sofa.sku, name: sofa.name }],
      complaint: 'Pied cassé',
      complaintName,
      savType,
      channel: 'core',
      customerEmail: null,
      createdAt,
    },
  });

const leadCaptured = (log: EventLog, capturedAt: string) => {
  const leadId = randomUUID();
  log.record(`lead-${leadId}`, {
    type: 'ContactLeadCaptured',
    data: { leadId, name: 'Alice', email: 'alice@example.com', phone: null, projectName: null, capturedAt },
  });
};

/**
 * Orders of 100 (00:30 on Monday 10 March in Paris, 23:30 UTC the day before), 200 (10th) and 300
 * (12th). On the 11th a product of the first is cancelled and 50 refund requested, paid on the 13th; on
 * the 12th the third order is cancelled whole (two products, 300 to refund) and two leads come in. A SAV
 * opened on 1 March, one on the 10th, two on the 11th.
 */
const history = () => {
  const log = eventLog();
  savOpened(log, 1, '2025-03-01T10:00:00+01:00', 'Produit endommagé', 'repair');
  ordered(log, 1, '2025-03-09T23:30:00Z', 100);
  ordered(log, 2, '2025-03-10T10:00:00+01:00', 200);
  savOpened(log, 2, '2025-03-10T12:00:00+01:00', 'Produit endommagé', 'repair');
  log.record('sale-1', { type: 'SaleProductCancelled', data: { saleId: 1, saleProductId: 12, reason: 'rupture', cancelledAt: '2025-03-11T09:00:00+01:00' } });
  log.record('sale-1', {
    type: 'RefundRequested',
    data: { saleId: 1, refundId: 1, amount: 50, currency: 'EUR', reason: 'rupture', saleProductIds: [12], requestedAt: '2025-03-11T09:00:00+01:00' },
  });
  savOpened(log, 3, '2025-03-11T10:00:00+01:00', 'Produit endommagé', 'replacement');
  savOpened(log, 4, '2025-03-11T11:00:00+01:00', 'Pièce manquante', 'repair');
  ordered(log, 3, '2025-03-12T08:00:00+01:00', 300);
  for (const saleProductId of [31, 32]) {
    log.record('sale-3', { type: 'SaleProductCancelled', data: { saleId: 3, saleProductId, reason: 'client', cancelledAt: '2025-03-12T18:00:00+01:00' } });
  }
  log.record('sale-3', { type: 'SaleCancelled', data: { saleId: 3, reason: 'client', cancelledAt: '2025-03-12T18:00:00+01:00' } });
  log.record('sale-3', {
    type: 'RefundRequested',
    data: { saleId: 3, refundId: 2, amount: 300, currency: 'EUR', reason: 'client', saleProductIds: [31, 32], requestedAt: '2025-03-12T18:00:00+01:00' },
  });
  leadCaptured(log, '2025-03-12T09:00:00+01:00');
  leadCaptured(log, '2025-03-12T17:00:00+01:00');
  log.record('sale-1', { type: 'RefundPaid', data: { saleId: 1, refundId: 1, paidAt: '2025-03-13T10:00:00+01:00' } });
  return log;
};

const given = async (log: EventLog = history()): Promise<ReadStore> => {
  const store = await openTestReadStore();
  await project(store, projections, log.events);
  return store;
};

const zero = {
  orders: 0,
  revenue: 0,
  averageBasket: null,
  cancellations: 0,
  cancelledProducts: 0,
  refundRequested: 0,
  refundPaid: 0,
  savsOpened: 0,
  savsByCategory: [],
  savsByType: [],
  leads: 0,
};

describe('dashboard read model', () => {
  it('when days are asked, each counts what happened on it in the planning time zone, and empty days count zero', async () => {
    const { buckets } = await dashboard(await given(), { from: '2025-03-10', to: '2025-03-14', granularity: 'day' });
    expect(buckets).toEqual([
      {
        ...zero,
        start: '2025-03-10',
        end: '2025-03-10',
        orders: 2,
        revenue: 300,
        averageBasket: 150,
        savsOpened: 1,
        savsByCategory: [{ key: 'Produit endommagé', count: 1 }],
        savsByType: [{ key: 'repair', count: 1 }],
        openSavBacklog: 2,
      },
      {
        ...zero,
        start: '2025-03-11',
        end: '2025-03-11',
        cancelledProducts: 1,
        refundRequested: 50,
        savsOpened: 2,
        savsByCategory: [
          { key: 'Pièce manquante', count: 1 },
          { key: 'Produit endommagé', count: 1 },
        ],
        savsByType: [
          { key: 'repair', count: 1 },
          { key: 'replacement', count: 1 },
        ],
        openSavBacklog: 4,
      },
      {
        ...zero,
        start: '2025-03-12',
        end: '2025-03-12',
        orders: 1,
        revenue: 300,
        averageBasket: 300,
        cancellations: 1,
        cancelledProducts: 2,
        refundRequested: 300,
        leads: 2,
        openSavBacklog: 4,
      },
      { ...zero, start: '2025-03-13', end: '2025-03-13', refundPaid: 50, openSavBacklog: 4 },
      { ...zero, start: '2025-03-14', end: '2025-03-14', openSavBacklog: 4 },
    ]);
  });

  it('when the totals of a period are asked, they add its days up and the backlog is the one at its end', async () => {
    const { totals } = await dashboard(await given(), { from: '2025-03-10', to: '2025-03-13', granularity: 'day' });
    expect(totals).toEqual({
      start: '2025-03-10',
      end: '2025-03-13',
      orders: 3,
      revenue: 600,
      averageBasket: 200,
      cancellations: 1,
      cancelledProducts: 3,
      refundRequested: 350,
      refundPaid: 50,
      savsOpened: 3,
      savsByCategory: [
        { key: 'Produit endommagé', count: 2 },
        { key: 'Pièce manquante', count: 1 },
      ],
      savsByType: [
        { key: 'repair', count: 2 },
        { key: 'replacement', count: 1 },
      ],
      openSavBacklog: 4,
      leads: 2,
    });
  });

  it('when weeks are asked, they run Monday to Sunday, clipped to the period', async () => {
    const { buckets } = await dashboard(await given(), { from: '2025-03-05', to: '2025-03-18', granularity: 'week' });
    expect(buckets.map(({ start, end, orders, savsOpened, openSavBacklog }) => ({ start, end, orders, savsOpened, openSavBacklog }))).toEqual([
      { start: '2025-03-05', end: '2025-03-09', orders: 0, savsOpened: 0, openSavBacklog: 1 },
      { start: '2025-03-10', end: '2025-03-16', orders: 3, savsOpened: 3, openSavBacklog: 4 },
      { start: '2025-03-17', end: '2025-03-18', orders: 0, savsOpened: 0, openSavBacklog: 4 },
    ]);
  });

  it('when SAVs are resolved, cancelled, closed or reopened, the backlog counts those in progress at each day’s end', async () => {
    const log = history();
    // By the 14th: SAV 1 resolved on the 13th, closed on the 14th; SAV 2 cancelled on the 14th; SAV 3 resolved on the 14th then reopened on the 15th.
    log.record('sav-1', { type: 'SavResolved', data: { savId: 1, resolution: 'Pied remplacé', resolvedAt: '2025-03-13T10:00:00+01:00' } });
    log.record('sav-1', { type: 'SavClosed', data: { savId: 1, releasedAppointment: null, closedAt: '2025-03-14T09:00:00+01:00' } });
    log.record('sav-2', { type: 'SavCancelled', data: { savId: 2, reason: 'Doublon', releasedAppointment: null, cancelledAt: '2025-03-14T10:00:00+01:00' } });
    log.record('sav-3', { type: 'SavResolved', data: { savId: 3, resolution: 'Échange', resolvedAt: '2025-03-14T11:00:00+01:00' } });
    log.record('sav-3', {
      type: 'SavReopened',
      data: { savId: 3, reason: 'Mauvaise couleur', reopenedFrom: 'resolved', reopenedAt: '2025-03-15T11:00:00+01:00' },
    });

    const { buckets, totals } = await dashboard(await given(log), { from: '2025-03-12', to: '2025-03-16', granularity: 'day' });

    expect(buckets.map(({ start, savsOpened, openSavBacklog }) => ({ start, savsOpened, openSavBacklog }))).toEqual([
      { start: '2025-03-12', savsOpened: 0, openSavBacklog: 4 },
      { start: '2025-03-13', savsOpened: 0, openSavBacklog: 3 },
      { start: '2025-03-14', savsOpened: 0, openSavBacklog: 1 },
      { start: '2025-03-15', savsOpened: 0, openSavBacklog: 2 },
      { start: '2025-03-16', savsOpened: 0, openSavBacklog: 2 },
    ]);
    expect(totals.openSavBacklog).toBe(2);
  });

  it('when amounts have no exact binary form, their sums are still exact to the cent', async () => {
    const log = eventLog();
    ordered(log, 1, '2025-03-10T10:00:00+01:00', 0.1);
    ordered(log, 2, '2025-03-10T11:00:00+01:00', 0.2);
    ordered(log, 3, '2025-03-10T12:00:00+01:00', 1407.8);
    const { totals } = await dashboard(await given(log), { from: '2025-03-10', to: '2025-03-10', granularity: 'month' });
    expect(totals).toMatchObject({ orders: 3, revenue: 1408.1, averageBasket: 469.37 });
  });

  it('when a day has many SAVs, its document counts them per category and type: its size does not grow with them', async () => {
    const log = eventLog();
    for (let savId = 1; savId <= 60; savId++) {
      savOpened(
        log,
        savId,
        `2025-03-10T${String(8 + (savId % 10)).padStart(2, '0')}:00:00+01:00`,
        savId % 3 === 0 ? 'Pièce manquante' : 'Produit endommagé',
        savId % 2 === 0 ? 'repair' : 'replacement',
      );
    }
    const store = await given(log);

    const day = await store.collection<DashboardDayDocument>(dashboardDaysCollection).findOne({ _id: '2025-03-10' });
    expect(day).toMatchObject({
      savs: 60,
      savsByCategory: [
        { key: 'Produit endommagé', count: 40 },
        { key: 'Pièce manquante', count: 20 },
      ],
      savsByType: [
        { key: 'replacement', count: 30 },
        { key: 'repair', count: 30 },
      ],
    });
    const { totals } = await dashboard(store, { from: '2025-03-01', to: '2025-03-31', granularity: 'month' });
    expect(totals.savsByCategory).toEqual([
      { key: 'Produit endommagé', count: 40 },
      { key: 'Pièce manquante', count: 20 },
    ]);
    expect(totals.savsByType).toEqual([
      { key: 'repair', count: 30 },
      { key: 'replacement', count: 30 },
    ]);
  });

  it('when the log is delivered again, whole or event by event, the documents are as after one delivery', async () => {
    const { events } = history();
    const once = await given();
    const twice = await given();
    await deliver(twice, projections, events);
    const doubled = await openTestReadStore();
    await project(
      doubled,
      projections,
      events.flatMap((event) => [event, event]),
    );

    const expected = await readModels(once, projections);
    expect(await readModels(twice, projections)).toEqual(expected);
    expect(await readModels(doubled, projections)).toEqual(expected);
  });
});

/**
 * Thirteen months of history: an order each day from 1 January 2025 to 31 January 2026, a SAV opened on
 * the 5th of each month and resolved on the 3rd of the next (reopened on the 20th in March), a lead on
 * the 15th, and an order dated 10 February recorded last, after the rest (a late import).
 */
const thirteenMonths = () => {
  const log = eventLog();
  let saleId = 100;
  for (let date = '2025-01-01'; date <= '2026-01-31'; date = addDays(date, 1)) {
    ordered(log, saleId++, `${date}T12:00:00+01:00`, [10.05, 20.1, 99.99][saleId % 3]!);
    const day = date.slice(8);
    if (day === '05') savOpened(log, saleId, `${date}T10:00:00+01:00`, saleId % 2 === 0 ? 'Produit endommagé' : 'Colis manquant', 'repair');
    if (day === '15') leadCaptured(log, `${date}T10:00:00+01:00`);
  }
  for (let sav = 100; sav < saleId; sav++) {
    const opened = log.events.find((event) => event.type === 'SavCreated' && event.data.savId === sav);
    if (!opened || opened.type !== 'SavCreated') continue;
    const resolvedAt = `${addDays(opened.data.createdAt.slice(0, 10), 29)}T10:00:00+01:00`;
    if (resolvedAt < '2026-02-01') log.record(`sav-${sav}`, { type: 'SavResolved', data: { savId: sav, resolution: 'Réparé', resolvedAt } });
    if (opened.data.createdAt.startsWith('2025-02')) {
      log.record(`sav-${sav}`, {
        type: 'SavReopened',
        data: { savId: sav, reason: 'Toujours cassé', reopenedFrom: 'resolved', reopenedAt: '2025-03-20T10:00:00+01:00' },
      });
    }
  }
  ordered(log, saleId, '2025-02-10T15:00:00+01:00', 999.99);
  return log;
};

/** The store, counting the documents each collection's finds answer. */
const countingReads = (store: ReadStore) => {
  const read = new Map<string, number>();
  const counted: ReadStore = {
    ...store,
    collection: (name: string) => {
      const collection = store.collection(name);
      return {
        ...collection,
        find: (filter, options) => ({
          toArray: async () => {
            const found = await collection.find(filter, options).toArray();
            read.set(name, (read.get(name) ?? 0) + found.length);
            return found;
          },
        }),
        findOne: async (filter, options) => {
          const found = await collection.findOne(filter, options);
          read.set(name, (read.get(name) ?? 0) + (found === null ? 0 : 1));
          return found;
        },
      } as typeof collection;
    },
  } as ReadStore;
  return { counted, read };
};

describe('dashboard by month', () => {
  it('when whole months are asked, each gives the figures and the SAV backlog its days give, and so do the totals', async () => {
    const store = await given(thirteenMonths());
    const period = { from: '2025-01-15', to: '2026-01-14' };

    const byMonth = await dashboard(store, { ...period, granularity: 'month' });

    expect(byMonth.buckets).toHaveLength(13);
    for (const bucket of byMonth.buckets) {
      const { totals: fromDays } = await dashboard(store, { from: bucket.start, to: bucket.end, granularity: 'day' });
      expect(bucket).toEqual(fromDays);
    }
    expect(byMonth.totals).toEqual((await dashboard(store, { ...period, granularity: 'day' })).totals);
    expect(byMonth.buckets.find((bucket) => bucket.start === '2025-02-01')).toMatchObject({ orders: 29, savsOpened: 1, openSavBacklog: 1 });
    expect(byMonth.buckets.find((bucket) => bucket.start === '2025-03-01')).toMatchObject({ savsOpened: 1, openSavBacklog: 2 });
  });

  it('when a year is asked by month, its whole months are read as one document each, not as their days', async () => {
    const { counted, read } = countingReads(await given(thirteenMonths()));

    await dashboard(counted, { from: '2025-01-15', to: '2026-01-14', granularity: 'month' });

    // 11 whole months; the 17 days of the first clipped month, the 14 of the last, the day before the period.
    expect(Object.fromEntries(read)).toEqual({ [dashboardMonthsCollection]: 11, [dashboardDaysCollection]: 17 + 14 + 1 });
  });
});

describe('dashboard buckets', () => {
  it('when months are asked, they follow the calendar, leap days included, clipped to the period', () => {
    expect(bucketsOf('2024-01-20', '2024-04-02', 'month')).toEqual([
      { start: '2024-01-20', end: '2024-01-31' },
      { start: '2024-02-01', end: '2024-02-29' },
      { start: '2024-03-01', end: '2024-03-31' },
      { start: '2024-04-01', end: '2024-04-02' },
    ]);
    expect(bucketsOf('2025-12-15', '2026-01-10', 'month')).toEqual([
      { start: '2025-12-15', end: '2025-12-31' },
      { start: '2026-01-01', end: '2026-01-10' },
    ]);
  });

  it('when a week straddles the new year, it stays one ISO week', () => {
    expect(bucketsOf('2025-12-28', '2026-01-05', 'week')).toEqual([
      { start: '2025-12-28', end: '2025-12-28' },
      { start: '2025-12-29', end: '2026-01-04' },
      { start: '2026-01-05', end: '2026-01-05' },
    ]);
  });
});
