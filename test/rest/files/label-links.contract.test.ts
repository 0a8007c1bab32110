import { readFile } from 'node:fs/promises';
import type { Response } from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupplierName } from '../../../src/events/schema/common-schemas.ts';
import { labelFileFor } from '../../../src/files/label-path.ts';
import { labelLinkKey, labelLinkQuery as labelLinkQueryOf } from '../../../src/labels/label-link-signature.ts';
import { startApi, type ApiHarness } from '../../support/api-harness.ts';
import { expectSignedLabelLink } from '../../support/label-links.ts';
import { trackingNumbersOf } from '../../support/tracking-numbers.ts';
import { scanBarcode } from '../../labels/pdf-tools.ts';
import { baseUrl, bearer, importLine } from '../supplier/supplier-fixtures.ts';
import { getFile, jsonOf, labelRendered, labelUrl, unauthorizedBody } from './files-client.ts';

/**
 * Issue 13, point 6: the spec calls `link_to_label` a "direct link to the shipping label PDF", yet the
 * link answered 401 without the supplier's token. Each link in the feed is now signed (supplier, line,
 * expiry) and opens its one label without any header until it expires; the Bearer token still opens
 * labels as before.
 */
describe('contract: signed label links', () => {
  let api: ApiHarness;
  let now: number;
  let tokens: Record<SupplierName, string>;
  beforeAll(async () => {
    now = Date.parse('2026-10-05T08:20:00.000Z');
    api = await startApi({ clock: { now: () => new Date(now) }, env: { BASE_URL: baseUrl } });
    tokens = { 'supplier-a': await api.tokenFor('supplier-a'), 'supplier-b': await api.tokenFor('supplier-b') };
  });
  afterAll(async () => api.close());

  const refusedBody = { success: false, message: 'Invalid or expired label link' };

  /** The line's link_to_label as the supplier's feed answers it. */
  const linkInFeed = async (supplier: SupplierName, serviceOrderId: string): Promise<string> => {
    const feed = await api.request.get(`/api/${supplier}/get-sales`).set(bearer(tokens[supplier]));
    const listed = (feed.body as { service_order_id: string; link_to_label: string }[]).find((line) => line.service_order_id === serviceOrderId);
    if (!listed) throw new Error(`${serviceOrderId} is not in ${supplier}'s feed`);
    return expectSignedLabelLink(api.runtime, listed.link_to_label, { baseUrl, supplier, serviceOrderId });
  };
  /** GET of a link as a browser opens it: no header at all. */
  const open = (link: string) => getFile(api, link.slice(baseUrl.length));
  /** The answer is the line's own label: a PDF, byte for byte the file rendered for that line. */
  const expectLabelOf = async (response: Response, supplier: SupplierName, serviceOrderId: string, what: string): Promise<void> => {
    expect(response.status, what).toBe(200);
    expect(response.headers['content-type'], what).toBe('application/pdf');
    expect(Buffer.compare(response.body as Buffer, await readFile(labelFileFor(api.dataDir, supplier, serviceOrderId))), what).toBe(0);
  };
  const withQuery = (link: string, change: (query: URLSearchParams) => void): string => {
    const [path, query] = link.split('?') as [string, string];
    const parameters = new URLSearchParams(query);
    change(parameters);
    return `${path}?${parameters.toString()}`;
  };

  it('spec "link_to_label: Direct link to the shipping label PDF, under {base_url}/api/files/<path>": when the link from the feed is opened with no header, it answers the PDF', async () => {
    for (const supplier of ['supplier-a', 'supplier-b'] as const) {
      const line = await importLine(api, supplier);
      const link = await linkInFeed(supplier, line);

      const response = await open(link);

      expect(response.status, supplier).toBe(200);
      expect(response.headers['content-type']).toBe('application/pdf');
      expect(response.headers['cache-control']).toBe('private, no-store');
      const withToken = await getFile(api, labelUrl(supplier, line), tokens[supplier]);
      expect(Buffer.compare(response.body as Buffer, withToken.body as Buffer)).toBe(0);
      const [incrementId, saleProductId] = line.split('_') as [string, string];
      expect(await scanBarcode(response.body as Buffer)).toBe((await trackingNumbersOf(api.runtime, incrementId))(Number(saleProductId)));
    }
  });

  it('spec "link_to_label: Direct link to the shipping label PDF": when the link is altered, made up or moved to another line, it answers 403, the same for all, and renders nothing', async () => {
    const line = await importLine(api, 'supplier-a');
    const other = await importLine(api, 'supplier-a');
    const link = await linkInFeed('supplier-a', line);
    const query = link.split('?')[1]!;
    const signature = new URLSearchParams(query).get('signature')!;

    const attempts = [
      withQuery(link, (q) => q.set('signature', `${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`)),
      withQuery(link, (q) => q.set('expires', String(Number(q.get('expires')) + 3600))),
      withQuery(link, (q) => q.delete('signature')),
      withQuery(link, (q) => q.delete('expires')),
      withQuery(link, (q) => q.append('signature', signature)),
      `${baseUrl}${labelUrl('supplier-a', other)}?${query}`,
      `${baseUrl}${labelUrl('supplier-b', line)}?${query}`,
      `${baseUrl}${labelUrl('supplier-a', line)}?expires=9999999999&signature=${'A'.repeat(43)}`,
    ];
    for (const attempt of attempts) {
      const response = await open(attempt);
      expect(response.status, attempt).toBe(403);
      expect(jsonOf(response), attempt).toEqual(refusedBody);
    }
    expect(await labelRendered(api, 'supplier-a', other)).toBe(false);
    expect(await labelRendered(api, 'supplier-b', line)).toBe(false);
  });

  it('when a link is correctly signed but expires later than any link the service issues, it answers the same 403 and renders nothing', async () => {
    const line = await importLine(api, 'supplier-a');
    const key = labelLinkKey(api.runtime.tokenSecret);
    const inTenYears = Math.floor(now / 1000) + 10 * 365 * 86_400;
    const link = `${labelUrl('supplier-a', line)}${labelLinkQueryOf(key, { supplier: 'supplier-a', serviceOrderId: line }, inTenYears)}`;

    const response = await getFile(api, link);

    expect(response.status).toBe(403);
    expect(jsonOf(response)).toEqual(refusedBody);
    expect(await labelRendered(api, 'supplier-a', line)).toBe(false);
  });

  it('spec "link_to_label: Direct link to the shipping label PDF": when supplier-b\'s link is used for supplier-a\'s line, it opens nothing', async () => {
    const lineOfA = await importLine(api, 'supplier-a');
    const lineOfB = await importLine(api, 'supplier-b');
    const query = (await linkInFeed('supplier-b', lineOfB)).split('?')[1]!;

    for (const path of [labelUrl('supplier-a', lineOfA), labelUrl('supplier-b', lineOfA)]) {
      const response = await open(`${baseUrl}${path}?${query}`);
      expect(response.status, path).toBe(403);
      expect(jsonOf(response)).toEqual(refusedBody);
    }
    expect(await labelRendered(api, 'supplier-a', lineOfA)).toBe(false);
  });

  it('spec "The supplier-a route caches results for 30 minutes": when the feed is answered from the cache, its links still open; a day later they have expired, with the same 403', async () => {
    const line = await importLine(api, 'supplier-a');
    const first = await api.request.get('/api/supplier-a/get-sales').set(bearer(tokens['supplier-a']));
    now += 29 * 60 * 1000;
    const cached = await api.request.get('/api/supplier-a/get-sales').set(bearer(tokens['supplier-a']));
    expect([first.headers['x-cache'], cached.headers['x-cache']]).toEqual(['MISS', 'HIT']);
    expect(cached.text).toBe(first.text);
    const link = (cached.body as { service_order_id: string; link_to_label: string }[]).find((listed) => listed.service_order_id === line)!.link_to_label;
    const expires = Number(new URLSearchParams(link.split('?')[1]).get('expires'));

    now += 23 * 60 * 60 * 1000;
    await expectLabelOf(await open(link), 'supplier-a', line, '23 h later');

    now = expires * 1000;
    const expired = await open(link);
    expect(expired.status).toBe(403);
    expect(jsonOf(expired)).toEqual(refusedBody);
  });

  it('when the Bearer token of the supplier is sent, the label opens as before, with or without a link, even an expired one', async () => {
    const line = await importLine(api, 'supplier-b');
    const link = await linkInFeed('supplier-b', line);
    const expired = withQuery(link, (q) => q.set('expires', '1'));

    for (const url of [labelUrl('supplier-b', line), link.slice(baseUrl.length), expired.slice(baseUrl.length)]) {
      await expectLabelOf(await getFile(api, url, tokens['supplier-b']), 'supplier-b', line, url);
    }
  });

  it('when neither a link nor a valid token is sent, it answers 401 as before; a bad token with a bad link, 401 too', async () => {
    const line = await importLine(api, 'supplier-a');
    const tampered = withQuery(await linkInFeed('supplier-a', line), (q) => q.set('expires', '1'));

    for (const [url, token] of [
      [labelUrl('supplier-a', line), undefined],
      [labelUrl('supplier-a', line), 'not-a-token'],
      [tampered.slice(baseUrl.length), 'not-a-token'],
    ] as const) {
      const response = await getFile(api, url, token);
      expect(response.status, `${url} ${token}`).toBe(401);
      expect(jsonOf(response)).toEqual(unauthorizedBody);
    }
  });

  it('when a browser or print tool adds parameters of its own to the link, it still opens', async () => {
    const line = await importLine(api, 'supplier-b');
    const link = await linkInFeed('supplier-b', line);

    await expectLabelOf(await open(`${link}&download=1`), 'supplier-b', line, 'with download=1');
  });
});
