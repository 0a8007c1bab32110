import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { issueAccessToken, revokeAccessToken } from '../../../src/events/access/access-token-handlers.ts';
import { parseAccessToken, verifySecret } from '../../../src/events/access/access-token.ts';
import { consumeActionToken } from '../../../src/events/access/action-token-handlers.ts';
import { accessTokenStreamName, actionTokenStreamName } from '../../../src/events/access/events.ts';
import { systemContext } from '../../../src/events/command-context.ts';
import type { WriteDeps } from '../../../src/events/command-handler.ts';
import { openSqliteEventStore, type SqliteEventStore } from '../../../src/events/store/sqlite-event-store.ts';

const now = new Date('2025-03-14T09:30:00.000Z');
let directory: string;
let store: SqliteEventStore;
let deps: WriteDeps;

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'access-'));
  store = openSqliteEventStore({ file: join(directory, 'events.db') });
  deps = { eventStore: store, clock: { now: () => now } };
});

afterEach(async () => {
  await store.close();
  rmSync(directory, { recursive: true, force: true });
});

describe('issuing an access token on the embedded store', () => {
  it('when a token is issued, the raw secret is recorded nowhere, only its hash', async () => {
    const issued = await issueAccessToken(deps, { group: 'core', label: 'back-office' }, systemContext());
    const parsed = parseAccessToken(issued.token);
    expect(parsed?.tokenId).toBe(issued.tokenId);
    const recorded = await store.readStream(accessTokenStreamName(issued.tokenId));
    expect(recorded).toHaveLength(1);
    const everything = JSON.stringify(recorded);
    expect(everything).not.toContain(parsed!.secret);
    expect(everything).not.toContain(issued.token);
    const data = recorded[0]!.data as { secretHash: string; label: string; group: string };
    expect(verifySecret(parsed!.secret, data.secretHash)).toBe(true);
    expect(data).toMatchObject({ group: 'core', label: 'back-office' });
  });

  it('when no label is given, the label is the group and the start of the token ID', async () => {
    const issued = await issueAccessToken(deps, { group: 'chatbot' }, systemContext());
    expect(issued.label).toBe(`chatbot-${issued.tokenId.slice(0, 8)}`);
    expect(issued.tokenId).toMatch(/^[a-f0-9]{16}$/);
  });

  it('when two tokens are issued, their IDs and secrets differ', async () => {
    const first = await issueAccessToken(deps, { group: 'analyst' }, systemContext());
    const second = await issueAccessToken(deps, { group: 'analyst' }, systemContext());
    expect(first.tokenId).not.toBe(second.tokenId);
    expect(parseAccessToken(first.token)?.secret).not.toBe(parseAccessToken(second.token)?.secret);
  });
});

describe('revoking an access token on the embedded store', () => {
  it('when a token is revoked twice, the second revocation changes nothing', async () => {
    const { tokenId } = await issueAccessToken(deps, { group: 'supplier-b' }, systemContext());
    expect(await revokeAccessToken(deps, tokenId, systemContext())).toEqual({ status: 'revoked' });
    const head = await store.headPosition();
    expect(await revokeAccessToken(deps, tokenId, systemContext())).toEqual({ status: 'unchanged' });
    expect(await store.headPosition()).toBe(head);
  });

  it('when the token is unknown, revoking is refused with unknown_token and nothing is recorded', async () => {
    const outcome = await revokeAccessToken(deps, randomBytes(8).toString('hex'), systemContext());
    expect(outcome.status === 'refused' && outcome.refusal.code).toBe('unknown_token');
    expect(await store.headPosition()).toBe(-1);
  });
});

describe('consuming an action token on the embedded store', () => {
  it('when the token is used twice, the second use is refused with action_token_used', async () => {
    const input = { jti: randomBytes(12).toString('hex'), action: 'invoice', saleId: 7 } as const;
    expect(await consumeActionToken(deps, input, systemContext())).toMatchObject({ status: 'consumed' });
    const second = await consumeActionToken(deps, input, systemContext());
    expect(second.status === 'refused' && second.refusal.code).toBe('action_token_used');
  });

  it('when 30 consumers race on one token, exactly one consumes it and the others are refused', async () => {
    const input = { jti: randomBytes(12).toString('hex'), action: 'cancel', saleId: 1042 } as const;
    const outcomes = await Promise.all(Array.from({ length: 30 }, () => consumeActionToken(deps, input, systemContext())));
    expect(outcomes.filter((outcome) => outcome.status === 'consumed')).toHaveLength(1);
    const refusals = outcomes.flatMap((outcome) => (outcome.status === 'refused' ? [outcome.refusal.code] : []));
    expect(refusals).toEqual(Array.from({ length: 29 }, () => 'action_token_used'));
    expect(await store.readStream(actionTokenStreamName(input.jti))).toHaveLength(1);
  });
});
