// Adds up the vitest JSON reports of one CI run (TEST_REPORT_DIR) and prints one closing line:
// "tests: N passed, N failed", the skipped ones after it when there are any.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2];
let passed = 0;
let failed = 0;
let skipped = 0;
for (const name of readdirSync(dir)
  .filter((file) => file.endsWith('.json'))
  .sort()) {
  const report = JSON.parse(readFileSync(join(dir, name), 'utf8'));
  // One line per run, worded unlike the closing line so that only the last line reads as the total.
  console.log(`${name} (${report.testResults.length} files): ${report.numPassedTests} tests passing, ${report.numFailedTests} failing`);
  passed += report.numPassedTests;
  failed += report.numFailedTests + (report.success ? 0 : report.numFailedTestSuites);
  skipped += report.numPendingTests + report.numTodoTests;
}
console.log(`tests: ${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`);
process.exitCode = passed > 0 && failed === 0 ? 0 : 1;
