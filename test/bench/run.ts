// `npm run bench`: prints a table and writes JSON to bench-results/ (git-ignored). Timings are
// reported, not asserted; deterministic budgets (content-script size, exact view counting) fail the
// run when broken.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { measureBundle } from './bundle';
import { benchServer } from './server';

const CONTENT_SCRIPT_BUDGET_BYTES = 15 * 1024;
const repoRoot = path.resolve(import.meta.dirname, '../..');
const quick = process.argv.includes('--quick');
const failures: string[] = [];

const bundle = measureBundle(path.join(repoRoot, '.output/chrome-mv3'));
console.log('\nBundle (.output/chrome-mv3)');
console.table({
  'content script (gzip)': { bytes: bundle.contentScriptGzipBytes, budget: CONTENT_SCRIPT_BUDGET_BYTES },
  'whole extension': { bytes: bundle.extensionBytes, budget: '' },
  'whole extension (gzip)': { bytes: bundle.extensionGzipBytes, budget: '' },
});
if (bundle.contentScriptFiles.length === 0) failures.push('no content script found in the build');
if (bundle.contentScriptGzipBytes > CONTENT_SCRIPT_BUDGET_BYTES) {
  failures.push(`content script is ${bundle.contentScriptGzipBytes} B gzip, budget ${CONTENT_SCRIPT_BUDGET_BYTES} B`);
}

const server = await benchServer({ connections: quick ? [50] : [10, 50, 100], durationS: quick ? 3 : 10 });
console.log('\nServer: GET /api/v1/compliance-status/{token} (limiter on, trusted proxy, many client addresses)');
console.table(server.results);
console.log(`view_count after load: ${server.viewCount.actual} (successful responses: ${server.viewCount.expected})`);
if (!server.viewCount.exact) failures.push('view counting was not exact under load');

const outDir = path.join(repoRoot, 'bench-results');
mkdirSync(outDir, { recursive: true });
const file = path.join(outDir, `bench-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
writeFileSync(file, JSON.stringify({ at: new Date().toISOString(), bundle, server }, null, 2));
console.log(`\nwrote ${path.relative(repoRoot, file)}`);

if (failures.length > 0) {
  console.error(`\nBudget failures:\n- ${failures.join('\n- ')}`);
  process.exit(1);
}
console.log('budgets: all deterministic budgets held');
