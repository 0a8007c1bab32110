import { Writable } from 'node:stream';
import Koa from 'koa';
import { pino } from 'pino';
import supertest from 'supertest';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { invalidRequest } from '../../src/rest/core/sav/sav-errors.ts';
import { coreMediaTexts } from '../../src/rest/core/sav/media-texts.ts';
import { mediaInput } from '../../src/rest/media-input.ts';
import { errorHandler } from '../../src/rest/middleware/error-handler.ts';
import { parseInput } from '../../src/rest/parse-input.ts';

/** A route taking an image URL, behind the real error handler, logging into memory. */
const appLogging = (lines: Record<string, unknown>[]) => {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  const app = new Koa();
  app.use(errorHandler({ log: pino({ level: 'info' }, sink) }));
  app.use((ctx) => {
    const image = new URL(ctx.URL).searchParams.get('image');
    parseInput(z.object({ image: mediaInput('image', coreMediaTexts) }), { image }, invalidRequest);
    ctx.body = { ok: true };
  });
  return supertest(app.callback());
};

describe('a media URL refused on sight', () => {
  it.each([
    ['an internal host', 'http://169.254.169.254/latest/meta-data/', 'the host 169.254.169.254 is an internal address'],
    ['credentials', 'https://user:secret@cdn.example.org/a.jpg', 'credentials in the URL'],
  ])('(%s) is answered without the reason, which the log line has', async (_case, url, reason) => {
    const lines: Record<string, unknown>[] = [];

    const response = await appLogging(lines).get('/').query({ image: url });

    expect(response.status).toBe(400);
    expect(response.body.message).toBe('image: the file URL is not allowed');
    expect(JSON.stringify(response.body)).not.toContain(reason);
    expect(lines).toEqual([expect.objectContaining({ msg: 'request refused', status: 400, urlRefused: reason })]);
  });
});
