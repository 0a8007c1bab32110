import type { Command } from 'commander';
import { setTimeout as sleep } from 'node:timers/promises';
import { allProjections } from '../../projections/all-projections.ts';
import type { Projection } from '../../projections/projection.ts';
import { openSqliteReadStore } from '../../projections/read-store/sqlite-read-store.ts';
import { verifyReadModels } from '../../projections/verify.ts';
import type { Runtime } from '../../runtime.ts';
import { CliError } from '../cli-error.ts';
import type { WithRuntime } from '../cli-runtime.ts';
import { examples } from '../help-examples.ts';
import { printLine } from '../output.ts';
import { logUnit, progressBar } from '../progress-bar.ts';
import { resetReadModels } from './projections-reset.ts';
import { verifyScratch } from './verify-scratch.ts';

/**
 * `projections rebuild`: builds the read models anew from the log, beside the live ones, which keep
 * answering until the new ones have caught up and are swapped in. The instance running a projection
 * does it: the server if one runs on these stores, else this command.
 * `projections verify`: replays the log into scratch read models and compares them document by
 * document with the live ones, once those have applied the log as far as the replay (verify.ts: events
 * appended meanwhile are caught up with); exits non-zero and prints the differences if any.
 * `projections status`: each projection's version, live generation, position and state.
 */
const run = async (runtime: Runtime, action: 'rebuild' | 'verify' | 'status', values: { projection?: string[] } = {}): Promise<void> => {
  const projections = allProjections({ timezone: runtime.config.planningTimezone });
  switch (action) {
    case 'rebuild': {
      const names = namesAsked(projections, values.projection);
      const startedAt = Date.now();
      await runtime.projections.start();
      const before = new Map(runtime.projections.status().map((status) => [status.name, status.generation]));
      await runtime.projections.requestRebuild(names);
      const { head } = runtime.projections.progress();
      const bar = progressBar('rebuild', head + 1, logUnit(runtime));
      try {
        for (;;) {
          const statuses = runtime.projections.status().filter((status) => names.includes(status.name));
          const pending = statuses.filter((status) => status.generation === before.get(status.name) || status.rebuilding !== undefined);
          const failed = statuses.filter((status) => status.rebuilding === undefined && status.lastError !== null && !status.elsewhere);
          if (failed.length > 0) throw new CliError(`rebuild failed: ${failed.map((status) => `${status.name}: ${status.lastError}`).join('; ')}`);
          if (pending.length === 0) break;
          // The bar follows the projection furthest behind.
          bar.update(Math.min(head + 1, ...pending.map((status) => (status.rebuilding?.position ?? -1) + 1)));
          await sleep(200);
        }
        bar.update(head + 1);
      } finally {
        bar.stop();
      }
      for (const status of runtime.projections.status().filter((candidate) => names.includes(candidate.name))) {
        await printLine(`${status.name}\tversion ${status.version}\tgeneration ${before.get(status.name) ?? '-'} -> ${status.generation}`);
      }
      await printLine(`Rebuilt ${names.length} read model(s) in ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
      return;
    }
    case 'verify': {
      await runtime.projections.start();
      const types = [...new Set(projections.flatMap((projection) => projection.eventTypes))];
      // The live read models may be run by the server: give them the time to reach the replay's position.
      const liveReached = async (position: number) => {
        const deadline = Date.now() + 60_000;
        while (!(await runtime.projections.waitFor(position, types))) {
          if (Date.now() > deadline)
            throw new CliError('the live read models did not catch up with the log within 60 s; is the instance running them stuck? (see /health)');
        }
      };
      const scratch = verifyScratch(runtime.config.dataDir);
      try {
        const names = namesAsked(projections, values.projection);
        const report = await verifyReadModels({
          eventStore: runtime.eventStore,
          live: runtime.readStore,
          projections: projections.filter((projection) => names.includes(projection.name)),
          scratch: openSqliteReadStore({ file: scratch.file, scratch: true }),
          liveReached,
        });
        if (report.ok) {
          await printLine(`Read models match a rebuild from the log (position ${report.position ?? -1})`);
          return;
        }
        for (const difference of report.differences) await printLine(`${JSON.stringify(difference)}`);
        throw new CliError(`${report.differenceCount} difference(s) between the read models and a rebuild from the log`);
      } finally {
        scratch.release();
      }
    }
    case 'status': {
      await runtime.projections.start();
      for (const status of runtime.projections.status()) {
        const state = status.lastError
          ? `error: ${status.lastError}`
          : status.elsewhere
            ? 'run by another instance'
            : status.caughtUp
              ? 'up to date'
              : 'catching up';
        const rebuilding = status.rebuilding ? `\trebuilding generation ${status.rebuilding.generation} (version ${status.rebuilding.version})` : '';
        await printLine(
          `${status.name}\tversion ${status.version}\tgeneration ${status.generation ?? '-'}\tposition ${status.position ?? '-'}\t${state}${rebuilding}`,
        );
      }
      return;
    }
  }
};

/** The projections `--projection` names (every one when it names none); an unknown name is refused. */
const namesAsked = (projections: readonly Projection[], asked: string[] | undefined): string[] => {
  const names = asked ?? projections.map((projection) => projection.name);
  const unknown = names.filter((name) => !projections.some((projection) => projection.name === name));
  if (unknown.length > 0) throw new CliError(`--projection: unknown ${unknown.join(', ')}; one of ${projections.map((p) => p.name).join(', ')}`);
  return names;
};

const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

export const projectionsCommand = (program: Command, withRuntime: WithRuntime): void => {
  const names = allProjections({ timezone: 'UTC' }).map((projection) => projection.name);
  const projections = program
    .command('projections')
    .description('the read models: rebuild them from the log, verify them against a replay, show where each stands')
    .addHelpText('after', examples('projections status', 'projections verify', 'projections rebuild --projection sales', 'projections reset'));
  projections
    .command('rebuild')
    .description(
      'build read models anew from the log beside the live ones, which keep answering until swapped; the instance running them does it (the server, if one runs)',
    )
    .option('--projection <name>', `one to rebuild (repeatable; default every one): ${names.join(', ')}`, collect)
    .addHelpText('after', examples('projections rebuild', 'projections rebuild --projection supplier-lines --projection sales'))
    .action((options: { projection?: string[] }) => withRuntime((runtime) => run(runtime, 'rebuild', options)));
  projections
    .command('reset')
    .description(
      'start the embedded read models over: with no server running on DATA_DIR (refused otherwise), delete read-models.sqlite and its journal and rebuild them from the log; ' +
        'the Idempotency-Key answers kept there are forgotten',
    )
    .addHelpText('after', examples('projections reset'))
    .action(() => resetReadModels(withRuntime));
  projections
    .command('verify')
    .description('catch the read models up, replay the log into a scratch copy and compare them document by document (exit 2 and the differences if any)')
    .option('--projection <name>', `one to verify (repeatable; default every one): ${names.join(', ')}`, collect)
    .addHelpText('after', examples('projections verify', 'projections verify --projection dashboard'))
    .action((options: { projection?: string[] }) => withRuntime((runtime) => run(runtime, 'verify', options)));
  projections
    .command('status')
    .description("each projection's version, live generation, position and state")
    .addHelpText('after', examples('projections status'))
    .action(() => withRuntime((runtime) => run(runtime, 'status')));
};
