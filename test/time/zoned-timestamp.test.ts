import { describe, expect, it } from 'vitest';
import { instantPattern, zonedTimestamp } from '../../src/time/zoned-timestamp.ts';

describe('zonedTimestamp: an instant at the second, in a time zone, with the offset in force then', () => {
  const paris = zonedTimestamp('Europe/Paris');

  it.each([
    ['summer (UTC+2)', '2026-07-07T19:40:54.000Z', '2026-07-07T21:40:54+02:00'],
    ['winter (UTC+1)', '2026-01-15T08:00:00Z', '2026-01-15T09:00:00+01:00'],
    ['the last second before the spring change', '2026-03-29T00:59:59Z', '2026-03-29T01:59:59+01:00'],
    ['the first second after the spring change', '2026-03-29T01:00:00Z', '2026-03-29T03:00:00+02:00'],
    ['the last second before the autumn change', '2026-10-25T00:59:59Z', '2026-10-25T02:59:59+02:00'],
    ['the first second after the autumn change', '2026-10-25T01:00:00Z', '2026-10-25T02:00:00+01:00'],
    ['an instant written with another offset', '2026-07-07T21:40:54+02:00', '2026-07-07T21:40:54+02:00'],
    ['an instant from the other side of the world', '2026-07-08T04:40:54+09:00', '2026-07-07T21:40:54+02:00'],
    ['milliseconds, dropped (never rounded up to the next second)', '2026-07-07T19:40:54.999Z', '2026-07-07T21:40:54+02:00'],
  ])('in Paris, %s', (_case, instant, expected) => {
    expect(paris(instant)).toBe(expected);
  });

  it.each([
    ['UTC', '2026-07-07T19:40:54Z', '2026-07-07T19:40:54+00:00'],
    ['America/Montreal', '2026-07-07T19:40:54Z', '2026-07-07T15:40:54-04:00'],
    ['Asia/Kolkata', '2026-07-07T19:40:54Z', '2026-07-08T01:10:54+05:30'],
    ['Pacific/Chatham', '2026-07-07T19:40:54Z', '2026-07-08T08:25:54+12:45'],
  ])('in %s, the offset is the zone’s, half and quarter hours included', (zone, instant, expected) => {
    expect(zonedTimestamp(zone)(instant)).toBe(expected);
  });

  it('takes a Date or milliseconds as well as text', () => {
    expect(paris(new Date('2026-07-07T19:40:54Z'))).toBe('2026-07-07T21:40:54+02:00');
    expect(paris(Date.parse('2026-07-07T19:40:54Z'))).toBe('2026-07-07T21:40:54+02:00');
  });

  it('refuses what is not an instant rather than writing "Invalid Date"', () => {
    expect(() => paris('yesterday')).toThrow(RangeError);
  });

  it('writes what instantPattern recognises, and the pattern leaves dates and times alone', () => {
    expect(paris('2026-07-07T19:40:54Z')).toMatch(instantPattern);
    for (const text of ['2026-07-07', '09:00', '2026-07-07T09:00', 'Livré le 2026-07-07T19:40:54Z']) expect(text).not.toMatch(instantPattern);
  });
});
