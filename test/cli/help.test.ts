import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogImportJsonSchema, orderImportJsonSchema } from '../../src/contracts/json-schemas.ts';
import { CommanderError } from 'commander';
import { cliProgram } from '../../src/cli/program.ts';
import { cliArguments } from '../support/service-command.ts';

const run = promisify(execFile);

/** The CLI as an operator runs it, on a DATA_DIR that must stay untouched by help and refused input. */
const cli = async (dataDir: string, ...args: string[]) => {
  try {
    const { stdout, stderr } = await run(process.execPath, cliArguments(...args), {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
};

const commands = [
  ['token', 'issue'],
  ['token', 'list'],
  ['token', 'revoke'],
  ['action-token'],
  ['catalog', 'import'],
  ['catalog', 'schema'],
  ['orders', 'import'],
  ['orders', 'schema'],
  ['demo', 'seed'],
  ['events', 'replay'],
  ['projections', 'rebuild'],
  ['projections', 'verify'],
  ['projections', 'status'],
  ['webhooks', 'add'],
];
const groups = [...new Set(commands.filter((command) => command.length > 1).map(([group]) => group!))];

describe('the CLI, discoverable', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = path.join(await mkdtemp(path.join(tmpdir(), 'cli-help-')), 'data');
  });
  afterAll(async () => rm(path.dirname(dataDir), { recursive: true, force: true }));

  it('when run bare or with --help, it lists every command', { timeout: 60_000 }, async () => {
    const [bare, help] = await Promise.all([cli(dataDir), cli(dataDir, '--help')]);
    for (const answer of [bare, help]) {
      expect(answer.code).toBe(0);
      for (const group of [...groups, 'action-token']) expect(answer.stdout).toMatch(new RegExp(`^  ${group}\\b`, 'm'));
    }
  });

  // Every command's help, asked of the program the CLI runs (its commands, options and texts), in
  // this process: one process per command would prove nothing more than the one below.
  it.each([...groups.map((group) => [group]), ...commands].map((command) => command.join(' ')))(
    'when `%s` is asked for --help, it answers its usage with examples',
    async (line) => {
      const command = line.split(' ');
      let out = '';
      let err = '';
      const program = cliProgram(() => Promise.reject(new Error('--help opens no store')), {
        writeOut: (text) => (out += text),
        writeErr: (text) => (err += text),
      });
      const help = await program.parseAsync([...command, '--help'], { from: 'user' }).then(
        () => null,
        (error: unknown) => error,
      );

      expect(help).toBeInstanceOf(CommanderError);
      expect((help as CommanderError).exitCode).toBe(0);
      expect(err).toBe('');
      expect(out).toContain(`Usage: npm run --silent cli -- ${command.join(' ')}`);
      expect(out).toMatch(new RegExp(`Examples:\\n  \\$ npm run --silent cli -- ${command.join(' ')}`));
    },
  );

  it('when a command is asked for --help as a process, it prints its usage on stdout and exits 0, nothing opened', { timeout: 60_000 }, async () => {
    const answer = await cli(dataDir, 'webhooks', 'add', '--help');

    expect(answer.code).toBe(0);
    expect(answer.stderr).toBe('');
    expect(answer.stdout).toContain('Usage: npm run --silent cli -- webhooks add [options]');
    expect(existsSync(dataDir)).toBe(false);
  });

  it.concurrent.each([
    [['tokn'], /^error: unknown command 'tokn' \(Did you mean token\?\)/],
    [['token', 'list', '--foo'], /^error: unknown option '--foo'/],
    [['token', 'issue'], /^error: required option '--group <group>' not specified/],
    [['token', 'issue', '--group', 'suppliers'], /^error: option '--group <group>' argument 'suppliers' is invalid/],
    [['catalog', 'import'], /^error: missing required argument 'file.json'/],
    [['action-token', 'refund', '--sale', '1'], /^error: command-argument value 'refund' is invalid for argument 'kind'/],
    [['projections', 'verify', 'now'], /^error: too many arguments for 'verify'/],
    [['demo', 'seed', '--orders', 'many'], /^--orders: a whole number from 1 to 1000000\n$/],
    [['events', 'replay', '--from', '-1'], /^--from: must be a position/],
  ])('when the input is wrong (%j), one line on stderr and exit 2, no stack, nothing opened', { timeout: 60_000 }, async (args, message) => {
    const answer = await cli(dataDir, ...args);

    expect(answer.code).toBe(2);
    expect(answer.stdout).toBe('');
    expect(answer.stderr.split('\n').filter(Boolean)).toHaveLength(1);
    expect(answer.stderr).toMatch(message);
    expect(answer.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(dataDir)).toBe(false);
  });

  it.concurrent.each([
    ['orders', orderImportJsonSchema],
    ['catalog', catalogImportJsonSchema],
  ])('when `%s schema` is run, it prints the JSON Schema of the import contract, exit 0, nothing opened', { timeout: 60_000 }, async (group, contract) => {
    const answer = await cli(dataDir, group, 'schema');

    expect(answer.code).toBe(0);
    expect(answer.stderr).toBe('');
    expect(JSON.parse(answer.stdout)).toEqual(contract());
    expect(existsSync(dataDir)).toBe(false);
  });
});
