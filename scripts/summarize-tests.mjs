// Adds up the JSON reports of every runner in this test run and prints one closing line.
import { existsSync, readFileSync } from 'node:fs';

let passed = 0;
let failed = 0;
let skipped = 0;
const rows = [];

for (const [label, file] of [
  ['vitest (unit + server on PGlite)', 'test-results/vitest-pglite.json'],
  ['vitest (server on PostgreSQL)', 'test-results/vitest-postgres.json'],
]) {
  if (!existsSync(file)) {
    rows.push(`${label}: no report`);
    failed += 1;
    continue;
  }
  const report = JSON.parse(readFileSync(file, 'utf8'));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests + report.numTodoTests;
  rows.push(`${label}: ${report.numPassedTests} passed, ${report.numFailedTests} failed`);
}

const e2eFile = 'test-results/e2e-results.json';
if (existsSync(e2eFile)) {
  const { stats } = JSON.parse(readFileSync(e2eFile, 'utf8'));
  passed += stats.expected;
  failed += stats.unexpected + stats.flaky;
  skipped += stats.skipped;
  rows.push(
    `playwright (end-to-end in Chromium, store packages): ${stats.expected} passed, ${stats.unexpected + stats.flaky} failed`,
  );
} else {
  rows.push('playwright (end-to-end in Chromium, store packages): no report');
  failed += 1;
}

const lintFile = 'test-results/web-ext-lint.json';
if (existsSync(lintFile)) {
  const lint = JSON.parse(readFileSync(lintFile, 'utf8'));
  if (!lint.clean) failed += 1;
  rows.push(`web-ext lint (Firefox store linter): ${lint.errors} errors, ${lint.warnings} warnings, ${lint.notices} notices`);
} else {
  rows.push('web-ext lint (Firefox store linter): no report');
  failed += 1;
}

const firefoxFile = 'test-results/firefox/results.json';
if (existsSync(firefoxFile)) {
  const report = JSON.parse(readFileSync(firefoxFile, 'utf8'));
  passed += report.passed;
  failed += report.failed;
  rows.push(`firefox smoke (extension in Firefox ESR): ${report.passed} passed, ${report.failed} failed`);
} else {
  rows.push('firefox smoke (extension in Firefox ESR): no report');
  failed += 1;
}

for (const row of rows) console.log(`  ${row}`);
console.log(`Total: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed === 0 ? 0 : 1);
