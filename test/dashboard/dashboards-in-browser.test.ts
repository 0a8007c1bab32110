import { readFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../../src/cli/demo/seed-demo.ts';
import { systemContext } from '../../src/events/command-context.ts';
import { bookSlot } from '../../src/events/planning/slot-booking.ts';
import { refuseSupplierLine } from '../../src/events/sales/supplier-lines.ts';
import { issueAccessToken, revokeAccessToken } from '../../src/events/access/access-token-handlers.ts';
import { createRuntimeApp } from '../../src/server/app.ts';
import { readModelsCaughtUp, startApi, type ApiHarness } from '../support/api-harness.ts';

/**
 * The dashboards, opened by Debian's Chromium (headless, every host but the service's unresolvable:
 * a machine without internet) on demo data. Each figure is read from the page as a person sees it
 * and compared with the GraphQL API's answer to the same question, asked apart from the page.
 */

const require = createRequire(import.meta.url);
const docsDir = path.resolve(import.meta.dirname, '../../docs');
const until = new Date('2026-11-01T00:00:00Z');
const from = '2026-09-03';
const to = '2026-10-31';

/** "1 234,56 €", "12,5 h", "−3" as a number. */
const numberOf = (text: string | null): number =>
  Number(
    (text ?? '')
      .replace(/[^\d,\-−]/g, '')
      .replace('−', '-')
      .replace(',', '.'),
  );

describe('the dashboards in a browser, on demo data', () => {
  let api: ApiHarness;
  let server: http.Server;
  let base: string;
  let browser: Browser;
  let analyst: string;
  let auditor: string;
  let axeSource: string;
  const requests: string[] = [];
  const consoleErrors: string[] = [];

  const graphql = async <T>(token: string, query: string, variables: Record<string, unknown> = {}): Promise<T> => {
    const response = await api.request.post('/graphql').set('Authorization', `Bearer ${token}`).send({ query, variables });
    expect(response.body.errors).toBeUndefined();
    return response.body.data as T;
  };

  /** A new tab (its own sessionStorage: signed out), watched for requests and console errors. */
  const open = async (context: BrowserContext, path: string): Promise<Page> => {
    const tab = await context.newPage();
    tab.on('request', (request) => requests.push(request.url()));
    tab.on('console', (message) => message.type() === 'error' && consoleErrors.push(`${path}: ${message.text()}`));
    tab.on('pageerror', (error) => consoleErrors.push(`${path}: ${error.message}`));
    await tab.goto(`${base}${path}`);
    return tab;
  };

  const signIn = async (page: Page, token: string): Promise<void> => {
    await page.getByLabel('Jeton d’accès').fill(token);
    await page.getByRole('button', { name: 'Se connecter' }).click();
  };

  /** UPDATE_SCREENSHOTS=1 writes the picture of the page as it stands to docs/. */
  const picture = async (name: string, fullPage = true): Promise<void> => {
    if (process.env.UPDATE_SCREENSHOTS === '1') await page.screenshot({ path: path.join(docsDir, name), fullPage });
  };

  /** Serious and critical accessibility violations of the page as it stands. */
  const axeViolations = async (page: Page): Promise<string[]> => {
    await page.evaluate(axeSource);
    const violations = await page.evaluate(async () => {
      const run = (globalThis as unknown as { axe: { run: () => Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } })
        .axe.run;
      return (await run()).violations.map((violation) => ({
        id: violation.id,
        impact: violation.impact,
        targets: violation.nodes.map((node) => node.target.join(' ')),
      }));
    });
    return violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical').map((violation) => JSON.stringify(violation));
  };

  /** The analyst's tab, signed in once: the token stays in this tab's sessionStorage from page to page. */
  let page: Page;
  const visit = async (path: string): Promise<Page> => {
    await page.goto(`${base}${path}`);
    return page;
  };

  beforeAll(async () => {
    api = await startApi();
    await seedDemo(api.runtime, { orders: 60, seed: 7, until, concurrency: 4 });
    await readModelsCaughtUp(api.runtime);
    // supplier-a refuses two of its open lines today: out of stock, then discontinued.
    const toRefuse = await api.runtime.readStore
      .collection<{ _id: string }>('supplier_lines')
      .find({ supplier: 'supplier-a', open: true }, { sort: { _id: 1 }, limit: 2 })
      .toArray();
    expect(toRefuse).toHaveLength(2);
    for (const [index, line] of toRefuse.entries()) {
      const reason = index === 0 ? 'out_of_stock' : 'discontinued';
      const refused = await refuseSupplierLine(
        api.runtime.salesDeps,
        { serviceOrderId: line._id, supplier: 'supplier-a', reason, comment: 'plus fabriqué' },
        systemContext(),
      );
      expect(refused.status).toBe('refused_by_supplier');
    }
    analyst = await api.tokenFor('analyst', 'analyst-dashboards');
    auditor = await api.tokenFor('auditor', 'auditor-dashboards');
    await readModelsCaughtUp(api.runtime);
    server = http.createServer(createRuntimeApp(api.runtime).callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    axeSource = await readFile(require.resolve('axe-core/axe.min.js'), 'utf8');
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'],
    });
    const context = await browser.newContext({ locale: 'fr-FR', timezoneId: 'Europe/Paris', viewport: { width: 1280, height: 900 } });
    page = await open(context, `/dashboard/overview?du=${from}&au=${to}&par=WEEK`);
    await signIn(page, analyst);
    await page.locator('[data-figure=orders] .value').waitFor();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    server?.close();
    await api?.close();
  });

  it('when a page or its files are asked for, they come from the service under a policy that allows no inline script and no other origin; an unknown file is a 404 in the envelope', async () => {
    for (const path of ['/dashboard', '/dashboard/sale', '/dashboard/assets/dashboard.js', '/dashboard/assets/dashboard.css']) {
      const answer = await api.request.get(path);
      expect(answer.status, path).toBe(200);
      const policy = answer.headers['content-security-policy'] as string;
      expect(policy, path).toContain("default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'");
      expect(policy, path).not.toContain('unsafe');
    }
    const page = await api.request.get('/dashboard');
    expect(page.text).not.toMatch(/<script>|<script [^>]*>[^<]/);
    expect(page.text).not.toMatch(/https?:\/\//);
    const missing = await api.request.get('/dashboard/assets/nope.js');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ success: false, error: 'Not Found', message: 'No route for GET /dashboard/assets/nope.js' });
  });

  it('when the overview is opened for a period by week, every figure, bucket and previous-period figure equals the GraphQL answer', async () => {
    await visit(`/dashboard/overview?du=${from}&au=${to}&par=WEEK`);
    await page.locator('table.buckets tbody tr').first().waitFor();
    const fields = 'orders revenue averageBasket refundRequested refundPaid leads savsOpened openSavBacklog';
    const { current, previous } = await graphql<{ current: any; previous: any }>(
      analyst,
      `{ current: dashboard(from: "${from}", to: "${to}", granularity: WEEK) { totals { ${fields} } buckets { orders revenue } }
         previous: dashboard(from: "2026-07-07", to: "2026-09-02", granularity: WEEK) { totals { ${fields} } } }`,
    );
    expect(current.totals.orders).toBeGreaterThan(0);
    for (const field of fields.split(' ')) {
      expect(numberOf(await page.locator(`[data-figure=${field}] .value`).textContent()), field).toBeCloseTo(current.totals[field] ?? 0, 2);
      expect(numberOf(await page.locator(`[data-figure=${field}] .previous span`).textContent()), `${field} before`).toBeCloseTo(
        previous.totals[field] ?? 0,
        2,
      );
    }
    const rows = page.locator('table.buckets tbody tr');
    expect(await rows.count()).toBe(current.buckets.length);
    for (const [index, bucket] of (current.buckets as { orders: number; revenue: number }[]).entries()) {
      const cells = await rows.nth(index).locator('td').allTextContents();
      expect(numberOf(cells[2]!)).toBe(bucket.orders);
      expect(numberOf(cells[3]!)).toBeCloseTo(bucket.revenue, 2);
    }
    expect(await page.locator('.chart canvas').count()).toBeGreaterThan(0);
    expect(await page.locator('[data-figure=revenue] .value').textContent()).toMatch(/^\d{1,3}(\u202f\d{3})*,\d{2}\u00a0€$/);
    await picture('dashboard-overview.png');
    expect(await axeViolations(page)).toEqual([]);

    // Another period, by month: the figures are redrawn from a new answer.
    await page.locator('select[name=granularity]').selectOption('MONTH');
    await page.locator('input[name=from]').fill('2026-10-01');
    await page.getByRole('button', { name: 'Afficher' }).click();
    const october = await graphql<{ dashboard: { totals: { orders: number } } }>(
      analyst,
      `{ dashboard(from: "2026-10-01", to: "${to}") { totals { orders } } }`,
    );
    await expect.poll(async () => numberOf(await page.locator('[data-figure=orders] .value').textContent())).toBe(october.dashboard.totals.orders);
    expect(page.url()).toContain('du=2026-10-01');
  });

  it('when a sale is looked up by increment ID, its products, SAVs, invoice, credit notes and log are those of the API, and the "as of" control shows it as it stood', async () => {
    const { sales } = await graphql<{ sales: { edges: { node: { incrementId: string; orderedAt: string } }[] } }>(
      analyst,
      '{ sales(first: 1, filter: { hasSav: true }) { edges { node { incrementId orderedAt } } } }',
    );
    const { incrementId, orderedAt } = sales.edges[0]!.node;
    const { sale } = await graphql<{ sale: any }>(
      analyst,
      `{ sale(incrementId: "${incrementId}") { grandTotal products { saleProductId state } savs { savId } invoice { number } creditNotes { number } log { eventId } } }`,
    );
    await visit('/dashboard/sale');
    await page.getByLabel('Numéro de commande ou e-mail du client').fill(incrementId);
    await page.getByRole('button', { name: 'Chercher' }).click();
    await page.locator(`[data-sale="${incrementId}"]`).waitFor();

    expect(numberOf(await page.locator('[data-figure=grandTotal] .value').textContent())).toBeCloseTo(sale.grandTotal, 2);
    expect(await page.locator('.sale > table.products tbody tr').count()).toBe(sale.products.length);
    expect(await page.locator('[data-sav]').count()).toBe(sale.savs.length);
    expect(await page.locator('.timeline li').count()).toBe(sale.log.length);
    const numbers = [...(sale.invoice ? [sale.invoice.number] : []), ...sale.creditNotes.map((note: { number: string }) => note.number)];
    expect(await page.locator('[data-document]').evaluateAll((items) => items.map((item) => item.getAttribute('data-document')))).toEqual(numbers);
    expect(page.url()).toContain(`commande=${incrementId}`);
    await picture('dashboard-sale.png');
    expect(await axeViolations(page)).toEqual([]);

    // A minute after the order: every product as it was then.
    const at = new Date(Date.parse(orderedAt) + 90_000);
    const { saleAt } = await graphql<{ saleAt: { status: string; products: { state: string }[] } }>(
      analyst,
      `{ saleAt(incrementId: "${incrementId}", asOf: { at: "${at.toISOString()}" }) { status products { state } } }`,
    );
    const local = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Paris', dateStyle: 'short', timeStyle: 'medium' }).format(at).replace(' ', 'T');
    await page.getByLabel('Telle qu’elle était le').fill(local);
    await page.getByRole('button', { name: 'Voir', exact: true }).click();
    await page.locator('[data-as-of]').waitFor();
    expect(await page.locator('[data-as-of]').getAttribute('data-as-of')).toBe(at.toISOString());
    const states = await page.locator('[data-as-of] td.state').allTextContents();
    expect(states).toHaveLength(saleAt.products.length);
    expect(states.every((state) => state === 'en attente')).toBe(saleAt.products.every((product) => product.state === 'pending'));
  });

  it('when the after-sales page is opened, the SAV counts and each day of the 30-day planning heat map equal the API', async () => {
    // Two places taken on 22 December, at its first slot time: that day's cell is not empty.
    const { planningOccupancy } = await graphql<any>(analyst, '{ planningOccupancy(from: "2026-12-22", to: "2026-12-22") { plannings { slotTimes } } }');
    const time = planningOccupancy.plannings[0].slotTimes[0] as string;
    for (const savId of [901, 902]) {
      expect(
        await bookSlot(api.runtime.planning, { planningType: 'sav', date: '2026-12-22', time, ref: { kind: 'sav', savId } }, systemContext()),
      ).toMatchObject({ ok: true });
    }
    await readModelsCaughtUp(api.runtime);
    await visit(`/dashboard/after-sales?du=${from}&au=${to}&planning=2026-12-21`);
    await page.locator('.heat-map .day').first().waitFor();
    await page.locator('[data-figure=savsOpened]').waitFor();
    const answer = await graphql<any>(
      analyst,
      `{ dashboard(from: "${from}", to: "${to}", granularity: MONTH) { totals { savsOpened savsByCategory { key count } } }
         savStatusCounts { status count }
         planningOccupancy(from: "2026-12-21", to: "2027-01-19") { plannings { days { date open slots { capacity taken } } } } }`,
    );
    expect(numberOf(await page.locator('[data-figure=savsOpened] .value').textContent())).toBe(answer.dashboard.totals.savsOpened);
    for (const { status, count } of answer.savStatusCounts) {
      expect(numberOf(await page.locator(`[data-figure=status-${status}] .value`).textContent()), status).toBe(count);
    }
    const days = answer.planningOccupancy.plannings[0].days as { date: string; open: boolean; slots: { capacity: number; taken: number }[] }[];
    expect(await page.locator('.heat-map .day').count()).toBe(30);
    for (const day of days) {
      const cell = page.locator(`.heat-map [data-date="${day.date}"]`);
      expect(numberOf(await cell.getAttribute('data-capacity'))).toBe(day.slots.reduce((sum, slot) => sum + slot.capacity, 0));
      expect(numberOf(await cell.getAttribute('data-taken'))).toBe(day.slots.reduce((sum, slot) => sum + slot.taken, 0));
      if (!day.open) expect(await cell.locator('.occupancy').textContent()).not.toMatch(/\d+ \/ \d+/);
    }
    expect(await page.locator('.heat-map [data-date="2026-12-22"]').getAttribute('data-taken')).toBe('2');
    // Christmas is a holiday: closed, and named.
    expect(await page.locator('.heat-map [data-date="2026-12-25"] .occupancy').textContent()).toMatch(/No[eë]l|férié/i);
    await picture('dashboard-after-sales.png');
    expect(await axeViolations(page)).toEqual([]);
  });

  it("when the suppliers' page is opened, each supplier's lines and delays equal the API's", async () => {
    // By day: 59 buckets, more than one operation may ask for (10 root fields), asked in several.
    await visit(`/dashboard/suppliers?du=${from}&au=${to}&par=DAY`);
    await page.locator('table.suppliers tbody tr').first().waitFor();
    const { supplierPerformance } = await graphql<{ supplierPerformance: any[] }>(
      analyst,
      `{ supplierPerformance(from: "${from}", to: "${to}") { supplier received shipped openBacklog shipDelay { median p90 } } }`,
    );
    expect(await page.locator('table.suppliers tbody tr').count()).toBe(supplierPerformance.length);
    for (const line of supplierPerformance) {
      const cells = await page.locator(`tr[data-supplier="${line.supplier}"] td`).allTextContents();
      expect(numberOf(cells[0]!)).toBe(line.received);
      expect(numberOf(cells[2]!)).toBe(line.shipped);
      expect(numberOf(cells[5]!)).toBe(line.openBacklog);
      expect(numberOf(cells[8]!)).toBeCloseTo(line.shipDelay.median / 3600, 1);
      expect(numberOf(cells[9]!)).toBeCloseTo(line.shipDelay.p90 / 3600, 1);
    }
    await page.locator('.chart canvas').first().waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    await picture('dashboard-suppliers.png');
    expect(await axeViolations(page)).toEqual([]);
  });

  it("when the suppliers' page covers today, it shows the lines refused with their reasons, and the lines open longer than the days chosen, as the API counts them", async () => {
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(new Date());
    await visit(`/dashboard/suppliers?du=2026-11-01&au=${today}&par=WEEK`);
    await page.locator('table.suppliers tbody tr').first().waitFor();
    expect(await page.locator('tr[data-supplier="supplier-a"] td').nth(4).textContent()).toBe('2 (rupture de stock : 1, produit arrêté : 1)');
    expect(await page.locator('table.suppliers tr[data-supplier="supplier-b"] td').nth(4).textContent()).toBe('0');

    const openLines = async (days: number) =>
      (
        await graphql<{ supplierOpenLines: { supplier: string; open: number; openLongerThan: number }[] }>(
          analyst,
          `{ supplierOpenLines(olderThanDays: ${days}) { supplier open openLongerThan } }`,
        )
      ).supplierOpenLines;
    const shown = async () =>
      Promise.all(
        (await page.locator('table.open-lines tbody tr').all()).map(async (row) => ({
          supplier: await row.getAttribute('data-supplier'),
          open: numberOf(await row.locator('td').nth(0).textContent()),
          openLongerThan: numberOf(await row.locator('td').nth(1).textContent()),
        })),
      );
    await page.locator('table.open-lines tbody tr').first().waitFor();
    expect(await shown()).toEqual(await openLines(7));
    // The demo's orders end on 31 October: 30 days back from today reaches into them.
    const days = 30;
    await page.getByLabel('Ouvertes depuis plus de').fill(String(days));
    await page.getByLabel('Ouvertes depuis plus de').press('Enter');
    await page.getByRole('columnheader', { name: `Depuis plus de ${days} jours` }).waitFor();
    const expected = await openLines(days);
    expect(expected.some((line) => line.openLongerThan > 0)).toBe(true);
    expect(await shown()).toEqual(expected);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('when filters are typed while the first answer is on its way, its arrival leaves them as typed', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(
      '**/graphql',
      async (route) => {
        await held;
        await route.continue();
      },
      { times: 1 },
    );
    await visit('/dashboard/events');
    await page.getByLabel('Types d’événement').fill('SaleImported');
    release();
    await page.locator('table.events').waitFor();
    expect(await page.getByLabel('Types d’événement').inputValue()).toBe('SaleImported');
  });

  it('when the event feed is filtered by type, it lists the events the API gives that token: redacted for an analyst, as recorded for an auditor', async () => {
    const query = '{ events(first: 50, types: ["SaleImported"]) { events { eventId data } } }';
    await visit('/dashboard/events');
    await page.getByLabel('Types d’événement').fill('SaleImported');
    await page.getByRole('button', { name: 'Filtrer' }).click();
    await expect.poll(async () => page.locator('table.events td.type').allTextContents()).toEqual(Array(50).fill('SaleImported'));
    const { events } = await graphql<{ events: { events: { eventId: string }[] } }>(analyst, query);
    expect(await page.locator('table.events tbody tr').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-event')))).toEqual(
      events.events.map((event) => event.eventId),
    );
    expect(await page.locator('pre.data').first().textContent()).toContain('[redacted]');
    await picture('dashboard-events.png', false);
    expect(await axeViolations(page)).toEqual([]);

    // Recorded today (the demo was seeded by this spec): a period of today lists what the API gives for
    // today's local day; yesterday, nothing.
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(new Date());
    const yesterday = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(new Date(Date.now() - 86_400_000));
    await page.getByLabel('Enregistrés du').fill(today);
    await page.getByLabel('au', { exact: true }).fill(today);
    await page.getByRole('button', { name: 'Filtrer' }).click();
    const { events: todays } = await graphql<{ events: { events: { eventId: string }[] } }>(
      analyst,
      'query($from: DateTime, $to: DateTime) { events(first: 50, types: ["SaleImported"], from: $from, to: $to) { events { eventId } } }',
      // The bounds of today in Paris, as the browser (in Paris) computes them.
      await page.evaluate((date) => {
        const [year, month, day] = date.split('-').map(Number) as [number, number, number];
        return { from: new Date(year, month - 1, day).toISOString(), to: new Date(year, month - 1, day + 1).toISOString() };
      }, today),
    );
    expect(todays.events.length).toBe(50);
    await expect
      .poll(async () => page.locator('table.events tbody tr').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-event'))))
      .toEqual(todays.events.map((event) => event.eventId));
    await page.getByLabel('Enregistrés du').fill(yesterday);
    await page.getByLabel('au', { exact: true }).fill(yesterday);
    await page.getByRole('button', { name: 'Filtrer' }).click();
    await page.getByText('Aucun événement pour ces filtres.').waitFor();
    expect(await axeViolations(page)).toEqual([]);

    const auditors = await browser.newContext({ locale: 'fr-FR' });
    const audited = await open(auditors, '/dashboard/events');
    await signIn(audited, auditor);
    await audited.locator('pre.data').first().waitFor();
    expect(await audited.locator('pre.data').first().textContent()).not.toContain('[redacted]');
    await auditors.close();
  });

  it('when a wrong token is given, the sign-in says so and stays; when a token is revoked, the next question sends the person back to the sign-in; the token is never in an address or localStorage', async () => {
    const context = await browser.newContext({ locale: 'fr-FR' });
    const tab = await open(context, '/dashboard/overview');
    await signIn(tab, 'not-a-token');
    await expect.poll(async () => tab.getByRole('alert').textContent()).toMatch(/inconnu, expiré ou révoqué/);
    await expect(tab.getByLabel('Jeton d’accès').isVisible()).resolves.toBe(true);

    const issued = await issueAccessToken(api.runtime.write, { group: 'analyst', label: 'revoked-soon' }, systemContext());
    await readModelsCaughtUp(api.runtime);
    await signIn(tab, issued.token);
    await tab.locator('[data-figure=orders] .value').waitFor();
    expect(await tab.evaluate(() => [localStorage.length, document.cookie])).toEqual([0, '']);
    await revokeAccessToken(api.runtime.write, issued.tokenId, systemContext());
    await readModelsCaughtUp(api.runtime);
    await tab.getByRole('button', { name: 'Afficher' }).click();
    await expect.poll(async () => tab.getByRole('alert').textContent()).toMatch(/inconnu, expiré ou révoqué/);
    await expect(tab.getByLabel('Jeton d’accès').isVisible()).resolves.toBe(true);
    expect(await tab.evaluate(() => sessionStorage.length)).toBe(0);
    expect(await axeViolations(tab)).toEqual([]);
    await context.close();

    // Over every page opened: no request left the service, no token in an address, no error in the console.
    expect(requests.length).toBeGreaterThan(10);
    expect(requests.filter((url) => !url.startsWith(`${base}/`))).toEqual([]);
    for (const token of [analyst, auditor, issued.token]) expect(requests.filter((url) => url.includes(token))).toEqual([]);
    expect(consoleErrors.filter((message) => !/status of 401/.test(message))).toEqual([]);
  });
});
