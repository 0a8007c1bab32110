import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import process from 'node:process';

/**
 * Preloaded into the server under test (`--import`): when the process exits, it writes the files of
 * every CommonJS module it loaded to LOADED_MODULES_FILE. OpenTelemetry's packages are CommonJS, so
 * whether the service loaded any of them shows there.
 */
const file = process.env.LOADED_MODULES_FILE;
if (file) {
  const cache = createRequire(import.meta.url).cache;
  process.on('exit', () => writeFileSync(file, JSON.stringify(Object.keys(cache))));
}
