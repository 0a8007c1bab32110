import { allProjections } from '../../projections/all-projections.ts';
import { rebuildReadModels } from '../../projections/rebuild.ts';
import { verifyReadModels } from '../../projections/verify.ts';
import type { Runtime } from '../../runtime.ts';
import { CliError } from '../cli-error.ts';

/**
 * `projections rebuild`: empties the read models of the configured read store and replays the log into them.
 * `projections verify`: brings the configured read store up to date the way the server does (catch-up
 * subscriptions from its checkpoints), rebuilds a scratch copy from the log and compares the two
 * document by document; exits non-zero and prints the differences if any. With the embedded read
 * store (in memory, private to each process) the "live" side is this process's own catch-up: what it
 * proves is that the incremental path and a replay agree; with MONGODB_URL it checks the shared database.
 */
export const projectionsCommand = async (runtime: Runtime, argv: string[]): Promise<void> => {
  const projections = allProjections({ timezone: runtime.config.planningTimezone });
  switch (argv[0]) {
    case 'rebuild': {
      const startedAt = Date.now();
      const report = await rebuildReadModels({ eventStore: runtime.eventStore, readStore: runtime.readStore, projections });
      const seconds = (Date.now() - startedAt) / 1000;
      for (const [name, count] of Object.entries(report.counts)) process.stdout.write(`${name}\t${count} events\n`);
      process.stdout.write(`Rebuilt up to position ${report.position} in ${seconds.toFixed(1)} s\n`);
      return;
    }
    case 'verify': {
      await runtime.projections.start();
      await runtime.projections.stop();
      const report = await verifyReadModels({ eventStore: runtime.eventStore, live: runtime.readStore, projections });
      if (report.ok) {
        process.stdout.write(`Read models match a rebuild from the log (position ${report.position})\n`);
        return;
      }
      for (const difference of report.differences) {
        process.stdout.write(`${JSON.stringify(difference)}\n`);
      }
      throw new CliError(`${report.differenceCount} difference(s) between the read models and a rebuild from the log`);
    }
    default:
      throw new CliError('usage: projections rebuild | projections verify');
  }
};
