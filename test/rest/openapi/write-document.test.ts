import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { serviceOpenApiDocument } from '../../../src/rest/openapi/routes.ts';

describe('npm run openapi', () => {
  const dir = mkdtempSync(join(tmpdir(), 'openapi-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('when run with a file name, it writes the document the server serves, for BASE_URL', () => {
    const file = join(dir, 'api.json');
    const output = execFileSync(process.execPath, ['--import', 'tsx', 'src/rest/openapi/write-openapi.ts', file], {
      env: { ...process.env, BASE_URL: 'https://orders.example.test' },
      encoding: 'utf8',
    });
    expect(output).toContain(file);
    const written = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    expect(written).toEqual(JSON.parse(JSON.stringify(serviceOpenApiDocument('https://orders.example.test'))));
    expect((written as { servers: unknown }).servers).toEqual([{ url: 'https://orders.example.test' }]);
  });
});
