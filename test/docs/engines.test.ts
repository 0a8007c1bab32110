import { readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../support/service-command.ts';

/**
 * The README says Node.js 20.19 or later, and Node 24 is the image's runtime: every package the lock
 * file installs accepts both (npm ci then warns of no engine). The overrides in package.json keep two
 * of graphql-yoga's helpers at the last versions that said so (the next ones changed nothing but their
 * engines).
 */
describe('the Node.js versions the README names', () => {
  const lock = JSON.parse(readFileSync(path.join(projectRoot, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { engines?: { node?: string }; optional?: boolean; dev?: boolean }>;
  };
  const minimum = /Node\.js >= (\d+\.\d+)/.exec(readFileSync(path.join(projectRoot, 'README.md'), 'utf8'))?.[1];

  it.each([`${minimum}.0`, '24.0.0'])('when the lock file is installed on Node %s, no package refuses it', (version) => {
    expect(minimum).toBe('20.19');
    const refusing = Object.entries(lock.packages)
      .filter(([name, entry]) => name !== '' && !entry.optional && entry.engines?.node !== undefined)
      .filter(([, entry]) => !semver.satisfies(version, entry.engines!.node!, { includePrerelease: true }))
      .map(([name, entry]) => `${name} (${entry.engines!.node})`);
    expect(refusing).toEqual([]);
  });
});
