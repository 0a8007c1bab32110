import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { buildClientSchema, getIntrospectionQuery, printSchema } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importOrder, order } from './seed.ts';
import { analystTokenCommand } from '../../src/graphql/graphiql/graphiql-options.ts';
import { eventually } from '../support/eventually.ts';
import { startGraphqlApi, type GraphqlApi } from './graphql-api.ts';
import { productionSeller } from '../support/production-seller.ts';
import { productionSecrets } from '../support/production-secrets.ts';
import { cliArguments } from '../support/service-command.ts';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');

/** The URLs a page makes the browser load: its src and href attributes, and the workers its script names. */
const referencedUrls = (html: string): string[] => [
  ...[...html.matchAll(/\b(?:src|href)="([^"]*)"/g)].map((match) => match[1]!),
  ...[...html.matchAll(/'(\/graphql\/graphiql\/[^']*)'/g)].map((match) => match[1]!),
];

describe('GraphiQL outside production', () => {
  let api: GraphqlApi;
  let page: string;
  beforeAll(async () => {
    api = await startGraphqlApi();
    const response = await api.request.get('/graphql').set('Accept', 'text/html');
    expect(response.status).toBe(200);
    page = response.text;
  });
  afterAll(async () => api.close());

  it('when a browser asks for /graphql, the page loads only assets of this origin, and each of them answers 200', async () => {
    const urls = referencedUrls(page);

    expect(urls.length).toBeGreaterThanOrEqual(6);
    expect(page).not.toMatch(/https?:\/\//);
    expect(page).not.toMatch(/unpkg|jsdelivr|cdn/i);
    for (const url of urls) {
      expect(url, url).toMatch(/^\/[^/]/);
      const asset = await api.request.get(url);
      expect(asset.status, url).toBe(200);
      expect(asset.headers['content-type'], url).toMatch(/^(application\/javascript|text\/css|image\/x-icon)/);
      // A real file, not an empty answer: the bundles are megabytes, the script run before GraphiQL a few hundred bytes.
      expect(Number(asset.headers['content-length']), url).toBeGreaterThan(url.endsWith('schema-before-token.js') ? 300 : 1000);
    }
  });

  it('when an asset is unknown, 404', async () => {
    expect((await api.request.get('/graphql/graphiql/secrets.js')).status).toBe(404);
  });

  it('when GraphiQL opens, the Authorization header waits for an analyst token, and the first query says which command prints one', async () => {
    expect(page).toContain('"headers":"{\\n  \\"Authorization\\": \\"Bearer \\u003canalyst token>\\"\\n}"');
    expect(page).toContain(analystTokenCommand);
  });

  it('when the command named in the first query is run, the token it prints runs that query', { timeout: 60_000 }, async () => {
    const args = analystTokenCommand.replace(/^npm run --silent cli -- /, '').split(' ');
    const { stdout } = await run(process.execPath, cliArguments(...args), {
      cwd: root,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: api.dataDir, LOG_LEVEL: 'warn', ...api.storeEnv },
    });
    const token = stdout.trimEnd().split('\n').at(-1)!;
    const query = JSON.parse(`"${/"defaultQuery":"((?:[^"\\]|\\.)*)"/.exec(page)![1]}"`) as string;

    // The server sees the token once it has read the CLI's event from the log.
    let answer: { status: number; body: { data?: unknown } } | undefined;
    await eventually(async () => {
      answer = await api.post(query, undefined, token);
      return answer.status === 200;
    }, 5000);

    expect(answer!.body).toEqual({ data: { sales: { edges: [] } } });
  });

  it('when sales were imported, the first query named LatestSales answers the five latest', async () => {
    const imported: string[] = [];
    for (let index = 0; index < 7; index++) imported.push((await importOrder(api, order({ increment_id: String(100009100 + index) }))).incrementId);
    const query = JSON.parse(`"${/"defaultQuery":"((?:[^"\\]|\\.)*)"/.exec(page)![1]}"`) as string;

    const { sales } = await api.data<{ sales: { edges: { node: { incrementId: string } }[] } }>(query);

    expect(sales.edges.map((edge) => edge.node.incrementId)).toEqual(imported.slice(2));
  });

  it('when GraphiQL opens without a token, the schema it asks for first is served beside it, equal to what /graphql answers with a token', async () => {
    const introspection = `query IntrospectionQuery { __schema { queryType { name } mutationType { name } types { name kind } } }`;
    const served = await api.request.get('/graphql/graphiql/introspection.json');
    const answered = await api.post(
      getIntrospectionQuery({ specifiedByUrl: true, directiveIsRepeatable: true, schemaDescription: true, inputValueDeprecation: true, oneOf: true }),
    );

    expect(served.status).toBe(200);
    expect(printSchema(buildClientSchema(served.body.data))).toBe(printSchema(buildClientSchema(answered.body.data)));
    expect((await api.post(introspection, undefined, null)).status).toBe(401);
    const script = await api.request.get('/graphql/graphiql/schema-before-token.js');
    expect(script.text).toContain('"operationName":"IntrospectionQuery"');
    expect(page.indexOf('schema-before-token.js')).toBeLessThan(page.indexOf('renderYogaGraphiQL'));
  });

  it("when GraphiQL opens, its first query's comment lines fit a narrow pane (60 characters)", () => {
    const query = JSON.parse(`"${/"defaultQuery":"((?:[^"\\]|\\.)*)"/.exec(page)![1]}"`) as string;
    for (const line of query.split('\n').filter((text) => text.startsWith('#'))) expect(line.length, line).toBeLessThanOrEqual(60);
  });
});

describe('GraphiQL in production', () => {
  it('when its assets are asked for, 404: production serves no GraphiQL', async () => {
    const api = await startGraphqlApi({ env: { NODE_ENV: 'production', ...productionSecrets, ...productionSeller } });
    const asset = await api.request.get('/graphql/graphiql/graphiql.js');
    await api.close();
    expect(asset.status).toBe(404);
  });
});
