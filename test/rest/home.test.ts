import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type ApiHarness } from '../support/api-harness.ts';

/** GET /: a person who opened the service's address learns where to go, which header each API takes and how to get a token. */
describe('the home page', () => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(async () => api.close());

  it("when a browser opens /, it links the reference, GraphiQL and the health check, names each group's header and the token command", async () => {
    const page = await api.request.get('/').set('Accept', 'text/html');

    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    for (const href of ['/docs', '/openapi.json', '/graphql', '/dashboard', '/health']) expect(page.text).toContain(`<a href="${href}">`);
    expect(page.text).toContain('<code>X-API-Token: &lt;token&gt;</code>');
    expect(page.text).toContain('<code>Authorization: Bearer &lt;token&gt;</code>');
    expect(page.text).toContain('<code>npm run --silent cli -- token issue --group &lt;group&gt;</code>');
    // No script at all, and the one style block allowed by its hash.
    expect(page.text).not.toContain('<script');
    expect(page.headers['content-security-policy']).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/]+=*';/);
  });

  it('when a client asks for JSON, it gets the same links and headers as data', async () => {
    const answer = await api.request.get('/').set('Accept', 'application/json');

    expect(answer.status).toBe(200);
    expect(answer.body.links.map((link: { href: string }) => link.href)).toEqual(['/docs', '/openapi.json', '/graphql', '/dashboard', '/health']);
    expect(answer.body.apiGroups.find((group: { group: string }) => group.group === 'chatbot').header).toBe('X-API-Token: <token>');
    expect(answer.body.tokenCommand).toBe('npm run --silent cli -- token issue --group <group>');
  });
});
