// Adds up the vitest JSON reports of one CI run (TEST_REPORT_DIR): one line per run, the 20 slowest
// spec files of all runs with their times (so that the cost of the suite stays in view of whoever
// adds to it), and one closing line: "tests: N passed, N failed", the skipped ones after it when
// there are any.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const dir = process.argv[2];
let passed = 0;
let failed = 0;
let skipped = 0;
const files = [];
for (const name of readdirSync(dir)
  .filter((file) => file.endsWith('.json'))
  .sort()) {
  const report = JSON.parse(readFileSync(join(dir, name), 'utf8'));
  const run = name.replace(/\.json$/, '');
  // One line per run, worded unlike the closing line so that only the last line reads as the total.
  console.log(`${name} (${report.testResults.length} files): ${report.numPassedTests} tests passing, ${report.numFailedTests} failing`);
  passed += report.numPassedTests;
  failed += report.numFailedTests + (report.success ? 0 : report.numFailedTestSuites);
  skipped += report.numPendingTests + report.numTodoTests;
  for (const result of report.testResults) {
    files.push({ run, file: relative(process.cwd(), result.name), seconds: (result.endTime - result.startTime) / 1000 });
  }
}
console.log('the 20 slowest spec files:');
for (const { run, file, seconds } of files.sort((a, b) => b.seconds - a.seconds).slice(0, 20)) {
  console.log(`${seconds.toFixed(1).padStart(7)} s  ${file} (${run})`);
}
console.log(`tests: ${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`);
process.exitCode = passed > 0 && failed === 0 ? 0 : 1;
