import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemContext } from '../../src/events/command-context.ts';
import { cancelSale } from '../../src/events/sales/cancel-sale.ts';
import { shipSupplierLine } from '../../src/events/sales/supplier-lines.ts';
import { updateSaleAddress } from '../../src/events/sales/update-address.ts';
import { startGraphqlApi, steppingClock, type GraphqlApi } from './graphql-api.ts';
import { fileSav, importOrder, order, seedCatalog } from './seed.ts';
import { readModelsCaughtUp } from '../support/api-harness.ts';

const snapshotFields = `position revision occurredAt saleId incrementId status grandTotal
  products { saleProductId state shippedAt acknowledgedAt cancelledAt tracking { trackingNumber } }
  refunds { refundId status } deliveryAppointment { date } cancelledAt`;

describe('time travel and the event feed', () => {
  let api: GraphqlApi;
  let clock: ReturnType<typeof steppingClock>;
  let sale: Awaited<ReturnType<typeof importOrder>>;
  beforeEach(async () => {
    clock = steppingClock();
    api = await startGraphqlApi({ clock });
    await seedCatalog(api);
    sale = await importOrder(api);
  });
  afterEach(async () => api.close());

  describe('saleAt', () => {
    it('when asked just before and just after a shipment, the two sales differ exactly by that shipment', async () => {
      clock.advance(60);
      await shipSupplierLine(api.runtime.salesDeps, { serviceOrderId: `100004512_${sale.sofa}`, supplier: 'supplier-a' }, systemContext());
      const [shipped] = await api.runtime.eventStore.readAll({ filter: { eventTypes: ['SaleProductShipped'] } });
      const query = `query($asOf: AsOf!) { saleAt(id: ${sale.saleId}, asOf: $asOf) { ${snapshotFields} } }`;

      const before = (await api.data(query, { asOf: { position: shipped!.position - 1 } })).saleAt;
      const after = (await api.data(query, { asOf: { position: shipped!.position } })).saleAt;

      // An hour after the frozen 08:00Z start: 11:00 in Paris, as every answer writes an instant.
      const shippedAt = '2026-10-05T11:00:00+02:00';
      expect(after).toEqual({
        ...before,
        position: shipped!.position,
        revision: before.revision + 1,
        occurredAt: shippedAt,
        products: before.products.map((product: { saleProductId: number }) =>
          product.saleProductId === sale.sofa ? { ...product, state: 'shipped', shippedAt } : product,
        ),
      });
      expect(before.products[0].state).toBe('pending');
    });

    it('when asked at an instant, it folds the events that occurred by then; before the import, it answers null', async () => {
      const importedAt = clock.now().toISOString();
      clock.advance(60);
      await shipSupplierLine(api.runtime.salesDeps, { serviceOrderId: `100004512_${sale.lamp}`, supplier: 'supplier-b' }, systemContext());
      const query = `query($at: DateTime) { saleAt(incrementId: "100004512", asOf: { at: $at }) { status products { state } } }`;

      expect((await api.data(query, { at: '2026-10-05T08:30:00+00:00' })).saleAt.products.map((p: { state: string }) => p.state)).toEqual([
        'pending',
        'pending',
        'pending',
      ]);
      expect((await api.data(query, { at: clock.now().toISOString() })).saleAt.products.map((p: { state: string }) => p.state)).toEqual([
        'pending',
        'pending',
        'shipped',
      ]);
      expect((await api.data(query, { at: new Date(Date.parse(importedAt) - 1000).toISOString() })).saleAt).toBeNull();
    });

    it('when the moment is given both ways or not at all, a BAD_USER_INPUT error names asOf', async () => {
      const response = await api.post(`{ saleAt(id: ${sale.saleId}, asOf: { at: "2026-10-05T08:00:00Z", position: 3 }) { status } }`);
      expect(response.body.errors[0]).toMatchObject({ message: 'asOf: give exactly one of at and position', extensions: { code: 'BAD_USER_INPUT' } });
    });
  });

  describe('events', () => {
    beforeEach(async () => {
      for (const increment of ['100004513', '100004514', '100004515']) await importOrder(api, order({ increment_id: increment }));
      await shipSupplierLine(api.runtime.salesDeps, { serviceOrderId: `100004512_${sale.sofa}`, supplier: 'supplier-a' }, systemContext());
      await fileSav(api, sale.lamp);
    });

    type Page = { events: { position: number; eventId: string; type: string; stream: string }[]; endCursor: number | null; hasNextPage: boolean };
    const pageQuery = `query($after: Position, $types: [String!], $prefix: String) {
      events(after: $after, first: 7, types: $types, streamPrefix: $prefix) { events { position eventId type stream } endCursor hasNextPage } }`;

    const readAllPages = async (variables: Record<string, unknown> = {}) => {
      const seen: Page['events'] = [];
      let after: number | null = null;
      let pages = 0;
      for (;;) {
        const { events: page } = (await api.data(pageQuery, { ...variables, after })) as { events: Page };
        seen.push(...page.events);
        pages++;
        after = page.endCursor;
        if (!page.hasNextPage) return { seen, pages };
      }
    };

    it('when the whole log is read in pages of 7, the pages hold exactly the events of a full replay, in order', async () => {
      const replay = await api.runtime.eventStore.readAll();
      const { seen, pages } = await readAllPages();
      expect(seen.map((event) => event.eventId)).toEqual(replay.map((event) => event.id));
      expect(seen.map((event) => event.position)).toEqual(replay.map((event) => event.position));
      expect(pages).toBe(Math.ceil(replay.length / 7));
      expect(replay.length).toBeGreaterThan(7);
    });

    it('when filtered by types and a stream prefix, the pages hold exactly the matching events of the replay', async () => {
      const replay = await api.runtime.eventStore.readAll({ filter: { eventTypes: ['SaleImported', 'SaleProductShipped'] } });
      const { seen } = await readAllPages({ types: ['SaleImported', 'SaleProductShipped'], prefix: 'sale-10000451' });
      expect(seen.map((event) => event.eventId)).toEqual(replay.filter((event) => event.streamName.startsWith('sale-10000451')).map((event) => event.id));
      expect(seen.map((event) => event.type)).toEqual(['SaleImported', 'SaleImported', 'SaleImported', 'SaleImported', 'SaleProductShipped']);
    });

    it('when a period is given, the pages hold exactly the events of the replay recorded from its start until before its end, with types too', async () => {
      const replay = await api.runtime.eventStore.readAll();
      const from = replay[4]!.recordedAt;
      const to = new Date(Date.parse(replay.at(-3)!.recordedAt) + 1).toISOString();
      const within = (event: { recordedAt: string }) => Date.parse(event.recordedAt) >= Date.parse(from) && Date.parse(event.recordedAt) < Date.parse(to);
      const periodQuery = `query($after: Position, $from: DateTime, $to: DateTime, $types: [String!]) {
        events(after: $after, first: 3, from: $from, to: $to, types: $types) { events { eventId } endCursor hasNextPage } }`;
      const pages = async (variables: Record<string, unknown>) => {
        const ids: string[] = [];
        for (let after: number | null = null; ;) {
          const { events: page } = (await api.data(periodQuery, { ...variables, after })) as {
            events: { events: { eventId: string }[]; endCursor: number | null; hasNextPage: boolean };
          };
          ids.push(...page.events.map((event) => event.eventId));
          if (!page.hasNextPage) return ids;
          after = page.endCursor;
        }
      };

      const expected = replay.filter(within).map((event) => event.id);
      expect(expected.length).toBeGreaterThan(3);
      expect(expected.length).toBeLessThan(replay.length);
      expect(await pages({ from, to })).toEqual(expected);
      expect(await pages({ from, to, types: ['SaleImported'] })).toEqual(
        replay.filter((event) => within(event) && event.type === 'SaleImported').map((event) => event.id),
      );
      // An end before the start is refused, naming it.
      const refused = await api.post(periodQuery, { from: to, to: from });
      expect(refused.body.errors?.[0]).toMatchObject({ message: expect.stringContaining('to'), extensions: { code: 'BAD_USER_INPUT' } });
    });

    it('when an event carries its metadata, the feed shows its actor, correlation and data as recorded', async () => {
      const { events } = await api.data(
        `{ events(first: 10, types: ["SavCreated"]) { events { actor { kind group label } correlationId causationId data schemaVersion } } }`,
      );
      expect(events.events).toHaveLength(1);
      expect(events.events[0]).toMatchObject({
        actor: { kind: 'token', group: 'core', label: 'back-office' },
        schemaVersion: 1,
        data: { saleId: sale.saleId },
      });
      expect(events.events[0].causationId).toBe(events.events[0].correlationId);
    });

    it('when access tokens were issued, the feed shows who and when, never the hash their secrets are checked against', async () => {
      const { events } = await api.data('{ events(first: 100, types: ["AccessTokenIssued"]) { events { data } } }');
      const recorded = await api.runtime.eventStore.readAll({ filter: { eventTypes: ['AccessTokenIssued'] } });

      expect(events.events.map(({ data }: { data: { tokenId: string } }) => data.tokenId)).toEqual(recorded.map((event) => event.data.tokenId));
      for (const { data } of events.events) {
        expect(Object.keys(data).sort()).toEqual(['group', 'issuedAt', 'label', 'tokenId']);
      }
      expect(recorded[0]?.data).toHaveProperty('secretHash');
    });

    describe('personal data', () => {
      const customerValues = ['Claire.Martin@example.org', 'Claire', 'Martin', '+33612345678', '12 rue des Lilas', '69003', 'Lyon', '8 quai Perrache'];
      const moved = { firstname: 'Claire', lastname: 'Martin', street: ['8 quai Perrache'], postcode: '69002', city: 'Lyon', country_id: 'FR' };
      const feed = `{ events(first: 100, types: ["SaleImported", "SaleAddressUpdated"]) { events { type data } } saleLog(saleId: SALE) { type summary { fr en } } }`;

      let query: string;
      beforeEach(async () => {
        expect(await updateSaleAddress(api.runtime.salesDeps, { incrementId: '100004513', shippingAddress: moved }, systemContext())).toMatchObject({
          status: 'updated',
        });
        await readModelsCaughtUp(api.runtime);
        const [updated] = await api.runtime.eventStore.readAll({ filter: { eventTypes: ['SaleAddressUpdated'] } });
        query = feed.replace('SALE', String((updated!.data as { saleId: number }).saleId));
      });

      it('when an analyst reads the feed and the sale log, names, e-mails, phones and addresses are redacted; amounts and products stay', async () => {
        const data = await api.data(query);

        const shown = JSON.stringify(data);
        for (const value of customerValues) expect(shown).not.toContain(value);
        const imported = data.events.events.find((event: { type: string }) => event.type === 'SaleImported').data;
        expect(imported).toMatchObject({
          customer: { email: '[redacted]', firstname: '[redacted]', lastname: '[redacted]', phone: '[redacted]' },
          shippingAddress: '[redacted]',
          grandTotal: 1407.8,
        });
        expect(imported.products.map((product: { sku: string }) => product.sku)).toContain('CAN-OSLO-3P-GRY');
        expect(data.saleLog.find((entry: { type: string }) => entry.type === 'SaleAddressUpdated').summary).toEqual({
          fr: 'Adresse de livraison modifiée',
          en: 'Shipping address updated',
        });
      });

      it('when an analyst reads the invoices and credit notes issued, the customer and addresses are redacted; numbers, lines and totals stay', async () => {
        const [updated] = await api.runtime.eventStore.readAll({ filter: { eventTypes: ['SaleAddressUpdated'] } });
        const saleId = (updated!.data as { saleId: number }).saleId;
        const invoice = await api.runtime.invoicing.invoiceFor(saleId);
        const lamp = invoice!.lines.find((line) => line.sku === 'LAMP-ARC-BLK')!;
        await cancelSale(
          api.runtime.salesDeps,
          { incrementId: '100004513', saleProductIds: [lamp.saleProductId], reason: 'Annulation client' },
          systemContext(),
        );
        await readModelsCaughtUp(api.runtime);
        expect(await api.runtime.invoicing.creditNoteFor(saleId)).toMatchObject({
          invoice: { number: invoice!.number },
          incrementId: '100004513',
          lines: [{ saleProductId: lamp.saleProductId, sku: 'LAMP-ARC-BLK' }],
        });

        const data = await api.data('{ events(first: 100, types: ["InvoiceIssued", "CreditNoteIssued"]) { events { type data } } }');
        const [issued, credited] = data.events.events;
        const shown = JSON.stringify(data);
        for (const value of [
          'Claire.Martin@example.org',
          'claire.martin@example.org',
          '+33612345678',
          '12 rue des Lilas',
          '8 quai Perrache',
          '"Claire"',
          '"Martin"',
        ]) {
          expect(shown).not.toContain(value);
        }
        expect(issued.data.invoice).toMatchObject({
          number: invoice!.number,
          customer: { email: '[redacted]', firstname: '[redacted]', lastname: '[redacted]', phone: '[redacted]' },
          billingAddress: '[redacted]',
          shippingAddress: '[redacted]',
          totals: invoice!.totals,
        });
        expect(credited.data).toMatchObject({
          invoiceNumber: invoice!.number,
          creditNote: { billingAddress: '[redacted]', customer: { email: '[redacted]' } },
        });
      });

      it('when an auditor reads them, they are shown as recorded (the token hashes still withheld)', async () => {
        const auditor = await api.tokenFor('auditor', 'audit 2026');

        const response = await api.post(query, undefined, auditor);

        const shown = JSON.stringify(response.body.data);
        for (const value of customerValues) expect(shown).toContain(value);
        expect(response.body.data.saleLog.find((entry: { type: string }) => entry.type === 'SaleAddressUpdated').summary.fr).toBe(
          'Adresse de livraison modifiée : 8 quai Perrache, 69002 Lyon, FR',
        );
        const tokens = await api.post('{ events(first: 100, types: ["AccessTokenIssued"]) { events { data } } }', undefined, auditor);
        expect(JSON.stringify(tokens.body.data)).not.toContain('secretHash');
      });

      it('when an auditor asks for a mutation, it is refused: auditors read', async () => {
        const response = await api.post('mutation { declareHoliday(date: "2026-12-24") { __typename } }', undefined, await api.tokenFor('auditor'));
        expect(response.body.errors[0]).toMatchObject({ extensions: { code: 'FORBIDDEN' } });
      });
    });

    it('when an unknown type or a page size out of bounds is asked, a BAD_USER_INPUT error names the argument', async () => {
      const unknown = await api.post('{ events(types: ["SaleTeleported"]) { hasNextPage } }');
      expect(unknown.body.errors[0]).toMatchObject({ message: 'types: unknown event type SaleTeleported', extensions: { code: 'BAD_USER_INPUT' } });
      const tooMany = await api.post('{ events(first: 1001) { hasNextPage } }');
      expect(tooMany.body.errors[0]).toMatchObject({ message: 'first: must be from 1 to 1000', extensions: { code: 'BAD_USER_INPUT' } });
    });
  });
});
