import { describe, expect, it } from 'vitest';
import { rewriteInstants } from '../../src/rest/middleware/zoned-timestamps.ts';
import { zonedTimestamp } from '../../src/time/zoned-timestamp.ts';

const paris = zonedTimestamp('Europe/Paris');

describe('the instants of an answer written in the planning time zone', () => {
  it('when instants sit deep in objects and arrays, each is rewritten and everything else is kept as it is', () => {
    const body = {
      sale: { created_at: '2026-07-07T19:40:54Z', date: '2026-07-07', slot: '09:00', total: 10, paid: true, note: null },
      lines: [{ shipped_at: '2026-01-15T08:00:00.123Z' }, { shipped_at: null }, 'text', 3],
    };
    expect(rewriteInstants(body, paris)).toEqual({
      sale: { created_at: '2026-07-07T21:40:54+02:00', date: '2026-07-07', slot: '09:00', total: 10, paid: true, note: null },
      lines: [{ shipped_at: '2026-01-15T09:00:00+01:00' }, { shipped_at: null }, 'text', 3],
    });
  });

  it('when a value holds an instant, it is a new value: the object given (a presenter may cache it) is unchanged', () => {
    const cached = { sale: { created_at: '2026-07-07T19:40:54Z' }, lines: [{ at: '2026-07-07T19:40:54Z' }] };
    const copy = structuredClone(cached);
    const rewritten = rewriteInstants(cached, paris) as typeof cached;
    expect(cached).toEqual(copy);
    expect(rewritten).not.toBe(cached);
    expect(rewritten.sale).not.toBe(cached.sale);
    expect(rewritten.lines[0]).not.toBe(cached.lines[0]);
  });

  it('when a part holds no instant, that part is the same value, not a copy', () => {
    const untouched = { items: [{ sku: 'CAN-OSLO-3P-GRY', qty: 1 }] };
    const body = { at: '2026-07-07T19:40:54Z', untouched };
    expect((rewriteInstants(body, paris) as typeof body).untouched).toBe(untouched);
    expect(rewriteInstants(untouched, paris)).toBe(untouched);
  });

  it('when a key is __proto__, it stays a key of the data and the copy keeps its prototype', () => {
    const body = JSON.parse('{"__proto__": {"at": "2026-07-07T19:40:54Z"}, "b": "2026-07-07T19:40:54Z"}') as Record<string, unknown>;
    const rewritten = rewriteInstants(body, paris) as Record<string, unknown>;
    expect(Object.getPrototypeOf(rewritten)).toBe(Object.prototype);
    expect(JSON.stringify(rewritten)).toBe('{"__proto__":{"at":"2026-07-07T21:40:54+02:00"},"b":"2026-07-07T21:40:54+02:00"}');
  });
});
