// Mozilla's store linter on the Firefox build, held at 0 errors, 0 warnings and 0 notices.
// `web-ext lint --warnings-as-errors` fails on errors and warnings but not on notices, so the linter
// runs twice: once for its own human-readable report, once as JSON whose summary this script checks.
// Usage: node scripts/lint-firefox.mjs [--report FILE] [source dir, default .output/firefox-mv3]
// --report writes the counts as JSON (scripts/test-all.sh: the closing summary reads it).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const argv = process.argv.slice(2);
const reportAt = argv.indexOf('--report');
const reportFile = reportAt === -1 ? undefined : argv.splice(reportAt, 2)[1];
const sourceDir = path.resolve(root, argv[0] ?? '.output/firefox-mv3');
const webExt = path.join(root, 'node_modules', '.bin', 'web-ext');

if (!existsSync(path.join(sourceDir, 'manifest.json'))) {
  console.error(`lint-firefox: no build at ${path.relative(root, sourceDir)}: run \`npm run build:firefox\` first`);
  process.exit(1);
}

// --self-hosted: not the AMO listing checks; --no-config-discovery: no web-ext config from $HOME.
const args = ['lint', '--source-dir', sourceDir, '--self-hosted', '--no-config-discovery', '--warnings-as-errors'];

const human = spawnSync(webExt, args, { cwd: root, stdio: 'inherit' });
const json = spawnSync(webExt, [...args, '--output', 'json'], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });

/** @type {{ summary?: { errors?: unknown; warnings?: unknown; notices?: unknown } }} */
let report = {};
try {
  report = JSON.parse(json.stdout);
} catch {
  console.error(`lint-firefox: web-ext did not print a JSON report (exit ${json.status}):\n${json.stdout}${json.stderr}`);
  process.exit(1);
}

const counts = ['errors', 'warnings', 'notices'].map((kind) => [kind, report.summary?.[kind]]);
const clean = counts.every(([, count]) => count === 0) && human.status === 0;
if (reportFile !== undefined) {
  mkdirSync(path.dirname(path.resolve(root, reportFile)), { recursive: true });
  writeFileSync(path.resolve(root, reportFile), JSON.stringify({ ...Object.fromEntries(counts), clean }));
}
console.log(`web-ext lint (${path.relative(root, sourceDir)}): ${counts.map(([kind, count]) => `${count} ${kind}`).join(', ')}`);
if (!clean)
  console.error('lint-firefox: the store linter must report 0 errors, 0 warnings and 0 notices (see the report above).');
process.exit(clean ? 0 : 1);
