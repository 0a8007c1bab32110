import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The whole suite's order: vitest's own (the slowest files first, for two workers to end together),
 * except that the files which start the MongoDB-compatible test server (FerretDB, read models and
 * projections on MongoDB) come last. `npm test` starts the suite while that server's Go build may
 * still be running beside it (its modules downloaded, then compiled: one to three minutes on a fresh
 * machine), and those files wait for it (test/support/ferretdb/build.sh, behind a lock) only if they
 * come before it is done.
 */
const startsTheServer = ['/test/projections/', '/test/rest/rebuild.test.ts'];

export class ServersLastSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const last = (file: TestSpecification) => startsTheServer.some((part) => file.moduleId.includes(part));
    return [...sorted.filter((file) => !last(file)), ...sorted.filter(last)];
  }
}
