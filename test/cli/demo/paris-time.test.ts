import { describe, expect, it } from 'vitest';
import { parisTimestamp } from '../../../src/cli/demo/paris-time.ts';

describe('Paris timestamps of demo orders', () => {
  it.each([
    ['in winter, one hour ahead of UTC', '2026-01-15T12:00:00Z', '2026-01-15T13:00:00+01:00'],
    ['in summer, two hours ahead of UTC', '2026-07-01T12:00:00Z', '2026-07-01T14:00:00+02:00'],
    ['the last second before the spring change, still winter time', '2026-03-29T00:59:59Z', '2026-03-29T01:59:59+01:00'],
    ['the spring change, summer time', '2026-03-29T01:00:00Z', '2026-03-29T03:00:00+02:00'],
    ['the last second before the autumn change, still summer time', '2026-10-25T00:59:59Z', '2026-10-25T02:59:59+02:00'],
    ['the autumn change, winter time again', '2026-10-25T01:00:00Z', '2026-10-25T02:00:00+01:00'],
    ['given to the millisecond, cut to the second', '2026-05-04T08:30:15.999Z', '2026-05-04T10:30:15+02:00'],
  ])('when the instant is %s, stamps it as Paris wall-clock time with its offset', (_, instant, expected) => {
    expect(parisTimestamp(Date.parse(instant))).toBe(expected);
    expect(Date.parse(expected)).toBe(Math.floor(Date.parse(instant) / 1000) * 1000);
  });
});
