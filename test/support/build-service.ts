import { execFileSync } from 'node:child_process';
import { projectRoot } from './service-command.ts';

/**
 * vitest's global set-up: the service bundled into dist/ once, as `npm start` does before it runs it,
 * so that the specs that start a server process (service-command.ts) run the current sources.
 */
export default function buildService(): void {
  execFileSync(process.execPath, ['build.mjs'], { cwd: projectRoot, stdio: 'inherit' });
}
