import { describe, expect, it } from 'vitest';
import { customersProjection } from '../../../src/projections/customers/customers-projection.ts';
import { customerOrders, findCustomer } from '../../../src/projections/customers/queries.ts';
import { openTestReadStore } from '../../support/mongo-backend.ts';
import { salesProjection } from '../../../src/projections/sales/sales-projection.ts';
import { project } from './project.ts';
import { buildScenario, savId, timezone } from './scenario.ts';

const projections = [customersProjection, salesProjection({ timezone })];

describe('customers read model', () => {
  it('when a customer ordered twice, the customer lists both sales and the SAVs filed on them', async () => {
    const store = await openTestReadStore();
    await project(store, projections, buildScenario().events);

    expect(await findCustomer(store, 'MARIE.curie@example.FR')).toEqual({
      _id: 'marie.curie@example.fr',
      _position: expect.any(Number),
      email: 'Marie.Curie@Example.fr',
      firstname: 'Marie',
      lastname: 'Curie',
      latestOrderedAt: '2025-03-09T23:30:00.000Z',
      saleIds: [101, 102],
      savIds: [savId],
    });
  });

  it('when an older order is imported after a newer one, the names stay those of the newer order', async () => {
    const store = await openTestReadStore();
    await project(store, projections, buildScenario().events);

    expect((await findCustomer(store, 'marie.curie@example.fr'))?.lastname).toBe('Curie');
  });

  it('when the orders of a customer are asked, they come from the sales, latest first, whatever the e-mail case', async () => {
    const store = await openTestReadStore();
    await project(store, projections, buildScenario().events);

    const orders = await customerOrders(store, 'Marie.Curie@example.fr');
    expect(orders.map((order) => [order.incrementId, order.status, order.orderDate])).toEqual([
      ['100000101', 'processing', '2025-03-10'],
      ['100000090', 'processing', '2024-12-01'],
    ]);
  });

  it('when nobody ordered with an e-mail, there is no customer and no order', async () => {
    const store = await openTestReadStore();
    await project(store, projections, buildScenario().events);

    expect(await findCustomer(store, 'nobody@example.fr')).toBeNull();
    expect(await customerOrders(store, 'nobody@example.fr')).toEqual([]);
  });
});
