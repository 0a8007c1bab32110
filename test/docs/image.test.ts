import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot, serviceArguments } from '../support/service-command.ts';

/** The Docker image cannot be built here (no Docker engine): what it runs is kept equal to `npm start`. */
describe('the Docker image', () => {
  const dockerfile = readFileSync(path.join(projectRoot, 'Dockerfile'), 'utf8');

  it('runs the service with the arguments npm start gives node', () => {
    const cmd = /^CMD (\[.*\])$/m.exec(dockerfile)?.[1];
    expect(JSON.parse(cmd ?? 'null')).toEqual(['node', ...serviceArguments()]);
  });

  it('builds the bundle it runs, as npm start does before it starts', () => {
    const prestart = (JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as { scripts: { prestart: string } }).scripts.prestart;
    expect(dockerfile).toMatch(new RegExp(`^RUN ${prestart.replace('.', '\\.')}$`, 'm'));
    expect(dockerfile).toMatch(/^COPY --from=dependencies \/app\/dist \.\/dist$/m);
  });

  it('is restarted by the compose file when it exits, as are the servers it needs', () => {
    const compose = readFileSync(path.join(projectRoot, 'docker-compose.yml'), 'utf8');
    const services = compose.slice(compose.indexOf('services:'), compose.indexOf('\nvolumes:'));
    const blocks = services.split(/\n(?= {2}[a-z]+:\n)/).slice(1);
    expect(blocks.map((block) => block.trim().split(':')[0])).toEqual(['eventstore', 'mongodb', 'service']);
    for (const block of blocks) expect(block).toMatch(/^ {4}restart: unless-stopped$/m);
  });
});
