import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../support/service-command.ts';

const run = promisify(execFile);

/**
 * The layers of src/ as `npm run lint` checks them (.dependency-cruiser.cjs): in a tree shaped like
 * src/, an import from a lower layer to a higher one, and a circle, each fail the check naming the
 * rule; imports that point down pass.
 */
describe('the layer rules of the lint', () => {
  let tree: string;
  beforeAll(async () => {
    tree = await mkdtemp(path.join(tmpdir(), 'layers-'));
    await cp(path.join(projectRoot, '.dependency-cruiser.cjs'), path.join(tree, '.dependency-cruiser.cjs'));
    await writeFile(path.join(tree, 'tsconfig.json'), JSON.stringify({ compilerOptions: { allowImportingTsExtensions: true, noEmit: true } }));
    for (const folder of ['events/sales', 'projections', 'rest', 'http']) await mkdir(path.join(tree, 'src', folder), { recursive: true });
  });
  afterAll(async () => rm(tree, { recursive: true, force: true }));

  const write = (file: string, text: string) => writeFile(path.join(tree, 'src', file), text);
  const cruise = async (): Promise<{ code: number; output: string }> => {
    try {
      const { stdout } = await run(
        process.execPath,
        [
          path.join(projectRoot, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs'),
          'src',
          '--config',
          '.dependency-cruiser.cjs',
          '--output-type',
          'err',
        ],
        { cwd: tree },
      );
      return { code: 0, output: stdout };
    } catch (error) {
      const failed = error as { code: number; stdout: string };
      return { code: failed.code, output: failed.stdout };
    }
  };

  it('when every import points down (rest to http to projections to events), the check passes', async () => {
    await write('events/sales/events.ts', 'export const saleStreamName = (id: string): string => `sale-${id}`;\n');
    await write('projections/sales.ts', "import { saleStreamName } from '../events/sales/events.ts';\nexport const stream = saleStreamName('1');\n");
    await write('http/http-error.ts', "import { stream } from '../projections/sales.ts';\nexport const where = stream;\n");
    await write('rest/route.ts', "import { where } from '../http/http-error.ts';\nexport const route = where;\n");

    expect(await cruise()).toMatchObject({ code: 0 });
  });

  it('when the events import a route, the check fails naming the events layer', async () => {
    await write('events/sales/decider.ts', "import { route } from '../../rest/route.ts';\nexport const decided = route;\n");

    const { code, output } = await cruise();

    expect(code).not.toBe(0);
    expect(output).toContain('no-upward-from-events: src/events/sales/decider.ts → src/rest/route.ts');
    await rm(path.join(tree, 'src/events/sales/decider.ts'));
  });

  it('when two files import each other, the check fails naming the circle', async () => {
    await write('http/a.ts', "import { b } from './b.ts';\nexport const a = (): number => b() + 1;\n");
    await write('http/b.ts', "import { a } from './a.ts';\nexport const b = (): number => a() - 1;\n");

    const { code, output } = await cruise();

    expect(code).not.toBe(0);
    expect(output).toContain('no-circular');
    expect(output).toMatch(/src\/http\/a\.ts/);
  });
});
