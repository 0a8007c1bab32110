import { createPublicKey, verify } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventLeaf } from '../../../src/events/audit/leaf.ts';
import { leafHash, verifyConsistency, verifyInclusion } from '../../../src/events/audit/merkle.ts';
import type { RecordedEvent } from '../../../src/events/store/event-store.ts';
import { readModelsCaughtUp, startApi, type ApiHarness } from '../../support/api-harness.ts';
import { seedCatalog } from '../chatbot/chatbot-api.ts';
import { cliOn } from '../../events/audit/audit-fixtures.ts';
import { buildTlogCheck, runTlogCheck } from '../../events/audit/tlog-check.ts';

/**
 * The log's proofs as auditors ask for them (GET /api/audit/log/..., auditor tokens, the core
 * envelope), checked by an independent implementation (Go's sumdb/tlog) from the events as recorded,
 * and the heads' signatures with the public key of /.well-known/log-public-key and node:crypto alone.
 */

type Head = { treeSize: number; rootHash: string; signedAt: string; keyId: string; signature: string; publicKey: string; position: number };

const b = (text: string) => Buffer.from(text, 'base64');

describe("the log's proofs for auditors (REST)", () => {
  let api: ApiHarness;
  let auditor: string;
  let core: string;
  let first: Head;
  let second: Head;
  let recorded: RecordedEvent[];
  let binary: string;

  const get = (path: string, token = auditor) => api.request.get(path).set('Authorization', `Bearer ${token}`);

  beforeAll(async () => {
    [binary, api] = await Promise.all([buildTlogCheck(), startApi({ env: { LOG_HEAD_EVERY_EVENTS: '1000000', LOG_HEAD_EVERY_SECONDS: '3600' } })]);
    auditor = await api.tokenFor('auditor');
    core = await api.tokenFor('core');
    const { follower, notary } = api.runtime.logAudit!;
    follower.start();
    await follower.caughtUpTo();
    await notary.signNow();
    await seedCatalog(api);
    await follower.caughtUpTo();
    await notary.signNow();
    await follower.caughtUpTo();
    await readModelsCaughtUp(api.runtime);
    recorded = await api.runtime.personalData.recorded.readAll();
    const firstSize = (recorded.find((event) => event.type === 'TreeHeadSigned')!.data as { treeSize: number }).treeSize;
    first = (await get(`/api/audit/log/heads/${firstSize}`)).body as Head;
    second = (await get('/api/audit/log/head')).body as Head;
  }, 300_000);

  afterAll(async () => {
    await api?.close();
  });

  it('when anyone asks for the public key, it is served without a token, and it signed the heads', async () => {
    const response = await api.request.get('/.well-known/log-public-key');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ keyId: second.keyId, publicKey: second.publicKey });
    const key = createPublicKey(response.body.pem as string);
    for (const head of [first, second]) {
      const message = `sav-order-service event log tree head v1\n${head.treeSize}\n${head.rootHash}\n${head.signedAt}\n${head.keyId}\n`;
      expect(verify(null, Buffer.from(message), key, b(head.signature)), JSON.stringify(head)).toBe(true);
    }
  });

  it('when an auditor asks for the latest head and the head at a size, both are signed heads recorded in the log', () => {
    expect(first.treeSize).toBeGreaterThan(0);
    expect(second.treeSize).toBeGreaterThan(first.treeSize);
    const heads = recorded.filter((event) => event.type === 'TreeHeadSigned');
    expect(heads.map((event) => event.position)).toEqual([first.position, second.position]);
  });

  it("when the service proves every event's inclusion and the consistency of its heads, Go's tlog agrees on the roots and accepts every proof", async () => {
    const leaves = recorded.slice(0, second.treeSize).map(eventLeaf);
    const inclusion = [];
    for (const [index, event] of recorded.slice(0, second.treeSize).entries()) {
      const response = await get(`/api/audit/log/inclusion?position=${event.position}`);
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        leafIndex: index,
        treeSize: second.treeSize,
        rootHash: second.rootHash,
        leafHash: leafHash(leaves[index]!).toString('base64'),
      });
      const proof = (response.body.proof as string[]).map(b);
      expect(verifyInclusion(leafHash(leaves[index]!), index, second.treeSize, proof, b(second.rootHash))).toBe(true);
      inclusion.push({ index, size: second.treeSize, leaf: leafHash(leaves[index]!), proof, root: b(second.rootHash) });
    }
    const consistent = await get(`/api/audit/log/consistency?from=${first.treeSize}&to=${second.treeSize}`);
    expect(consistent.status).toBe(200);
    expect(consistent.body).toMatchObject({ fromRootHash: first.rootHash, toRootHash: second.rootHash, toHead: { signature: second.signature } });
    const consistency = [
      {
        first: first.treeSize,
        second: second.treeSize,
        proof: (consistent.body.proof as string[]).map(b),
        firstRoot: b(first.rootHash),
        secondRoot: b(second.rootHash),
      },
    ];
    expect(verifyConsistency(first.treeSize, second.treeSize, consistency[0]!.proof, consistency[0]!.firstRoot, consistency[0]!.secondRoot)).toBe(true);
    const answer = await runTlogCheck(binary, { leaves, inclusion, consistency });
    expect(answer.roots[first.treeSize - 1]!.toString('base64')).toBe(first.rootHash);
    expect(answer.roots[second.treeSize - 1]!.toString('base64')).toBe(second.rootHash);
    expect(answer.inclusion).toHaveLength(second.treeSize);
    expect(answer.inclusion.every(Boolean)).toBe(true);
    expect(answer.consistency).toEqual([true]);
  });

  it('when the input is wrong, the answer is a 400 or 404 in the core envelope, and no event is recorded', async () => {
    const head = await api.runtime.eventStore.headPosition();
    const refusals: [string, number, string][] = [
      ['/api/audit/log/inclusion?position=abc', 400, 'position: must be an integer'],
      ['/api/audit/log/inclusion', 400, 'position: must be an integer'],
      ['/api/audit/log/inclusion?position=1&foo=1', 400, 'unknown parameter(s) foo'],
      [`/api/audit/log/inclusion?position=1&treeSize=${second.treeSize + 1000}`, 404, "the log's tree holds"],
      [`/api/audit/log/inclusion?position=${second.position}&treeSize=${first.treeSize}`, 400, `after a tree of ${first.treeSize}`],
      ['/api/audit/log/inclusion?position=999999', 404, 'no event at position 999999'],
      ['/api/audit/log/heads/0', 400, 'size: must be at least 1'],
      ['/api/audit/log/heads/x', 400, 'size: must be an integer'],
      [`/api/audit/log/heads/${first.treeSize + 1}`, 404, `No signed tree head of size ${first.treeSize + 1}`],
      [`/api/audit/log/consistency?from=${second.treeSize}&to=${first.treeSize}`, 400, 'from: must not exceed to'],
      ['/api/audit/log/consistency?from=-1', 400, 'from: must be at least 1'],
      ['/api/audit/log/head?x=1', 400, 'unknown parameter(s) x'],
    ];
    for (const [path, status, message] of refusals) {
      const response = await get(path);
      expect({ path, status: response.status }).toEqual({ path, status });
      expect(response.body).toMatchObject({ success: false, error: status === 400 ? 'invalid_request' : 'not_found' });
      expect(response.body.message).toContain(message);
    }
    expect(await api.runtime.eventStore.headPosition()).toBe(head);
  });

  it('when an auditor asks GraphQL, the heads and proofs are the same as over REST, and a wrong input is BAD_USER_INPUT', async () => {
    const event = recorded[1]!;
    const query = `{
      logTreeHead { treeSize rootHash signedAt keyId signature publicKey position }
      first: logTreeHead(size: ${first.treeSize}) { treeSize rootHash signature }
      logInclusionProof(position: ${event.position}) { leafIndex treeSize leafHash proof rootHash head { treeSize } }
      logConsistencyProof(from: ${first.treeSize}) { from to proof fromRootHash toRootHash }
    }`;
    const response = await api.request.post('/graphql').set('Authorization', `Bearer ${auditor}`).send({ query });
    expect(response.body.errors).toBeUndefined();
    const data = response.body.data as Record<string, Record<string, unknown>>;
    const { position: _position, ...latest } = second;
    expect(data.logTreeHead).toEqual({ ...latest, position: second.position });
    expect(data.first).toEqual({ treeSize: first.treeSize, rootHash: first.rootHash, signature: first.signature });
    const rest = await get(`/api/audit/log/inclusion?position=${event.position}`);
    expect(data.logInclusionProof).toEqual({
      leafIndex: 1,
      treeSize: second.treeSize,
      leafHash: rest.body.leafHash,
      proof: rest.body.proof,
      rootHash: second.rootHash,
      head: { treeSize: second.treeSize },
    });
    const consistency = await get(`/api/audit/log/consistency?from=${first.treeSize}`);
    expect(data.logConsistencyProof).toEqual({
      from: first.treeSize,
      to: second.treeSize,
      proof: consistency.body.proof,
      fromRootHash: first.rootHash,
      toRootHash: second.rootHash,
    });
    const wrong = await api.request
      .post('/graphql')
      .set('Authorization', `Bearer ${auditor}`)
      .send({ query: `{ logConsistencyProof(from: ${second.treeSize + 1}) { proof } }` });
    expect(wrong.body.errors[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' } });
  });

  it('when an auditor runs events audit verify on the same stores, the log verifies against its heads and this tree: exit 0', async () => {
    const verified = await cliOn({ DATA_DIR: api.dataDir, ...api.storeEnv }, 'events', 'audit', 'verify');
    expect(verified.code, verified.stderr).toBe(0);
    expect(JSON.parse(verified.stdout)).toMatchObject({ ok: true, treeSize: recorded.length, headsChecked: 2 });
  });

  it("when the token is missing or not an auditor's, the proofs answer 401", async () => {
    expect((await api.request.get('/api/audit/log/head')).status).toBe(401);
    const refused = await get('/api/audit/log/head', core);
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ success: false, error: 'Unauthorized' });
  });
});

describe("the log's proofs when the service keeps no tree (LOG_NOTARY=off)", () => {
  let api: ApiHarness;

  beforeAll(async () => {
    api = await startApi({ env: { LOG_NOTARY: 'off' } });
  }, 60_000);

  afterAll(async () => {
    await api?.close();
  });

  it('when an auditor asks for a head, a proof or the key, the answer is 404 saying the notary is off, and no tree file or signing key was made', async () => {
    const auditor = await api.tokenFor('auditor');
    const answers = await Promise.all(
      ['/api/audit/log/head', '/api/audit/log/heads/1', '/api/audit/log/inclusion?position=1', '/.well-known/log-public-key'].map((path) =>
        api.request.get(path).set('Authorization', `Bearer ${auditor}`),
      ),
    );
    for (const answer of answers) {
      expect(answer.status).toBe(404);
      expect(answer.body.message).toMatch(/^The log's notary is off on this service \(LOG_NOTARY=off\)/);
    }
    const graphql = await api.request.post('/graphql').set('Authorization', `Bearer ${auditor}`).send({ query: '{ logTreeHead { treeSize } }' });
    expect(graphql.body.errors[0]).toMatchObject({ extensions: { code: 'NOT_FOUND' } });
    expect((await readdir(api.dataDir)).filter((file) => file.startsWith('log-'))).toEqual([]);
  });
});
