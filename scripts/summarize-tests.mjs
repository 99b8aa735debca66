// Adds up the JSON reports of every runner in this test run and prints one closing line.
import { existsSync, readFileSync } from 'node:fs';

/**
 * Vitest's cases by kind: the repository checks (test/repository, one case per file or rule) and the
 * per-key i18n checks (a describe block named "each key") are bookkeeping, counted apart from behaviour.
 */
function kindsOf(report) {
  const kinds = { behaviour: 0, repository: 0, perKey: 0 };
  for (const file of report.testResults) {
    const repository = file.name.includes('/test/repository/');
    for (const test of file.assertionResults) {
      if (test.status !== 'passed') continue;
      if (repository) kinds.repository += 1;
      else if (test.ancestorTitles.includes('each key')) kinds.perKey += 1;
      else kinds.behaviour += 1;
    }
  }
  return kinds;
}

/** Each stage of scripts/test-all.sh with its wall time (test-results/stages.tsv: name, seconds, exit code). */
function stageRows() {
  const file = 'test-results/stages.tsv';
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [name, seconds, code] = line.split('\t');
      const minutes = Math.floor(Number(seconds) / 60);
      return `  ${`${minutes}m ${String(Number(seconds) % 60).padStart(2, '0')}s`.padStart(8)}  ${code === '0' ? 'ok    ' : 'FAILED'}  ${name}`;
    });
}

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
  const kinds = kindsOf(report);
  rows.push(
    `  of which: ${kinds.behaviour} behaviour, ${kinds.repository} repository checks (test/repository: one per file or rule), ${kinds.perKey} per-key i18n checks`,
  );
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

const stages = stageRows();
if (stages.length > 0) {
  console.log('Wall time per stage:');
  for (const row of stages) console.log(row);
}
for (const row of rows) console.log(`  ${row}`);
console.log(`Total: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed === 0 ? 0 : 1);
