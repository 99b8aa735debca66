// `npm run bench` (`-- --quick` for fewer sizes and shorter server runs; `-- --server-only` for the
// server sections alone, no build needed; `-- --signing-only` for what signing costs alone (snapshot
// throughput signed and not, the background's check), no build needed; `-- --compare=<dir>` also
// runs the content pages with another extension build, e.g. main's, and prints both; `-- --only=<text>`
// runs only the content pages whose name holds the text, and nothing else; `-- --instances=<n>` sets how
// many browser pairs measure each content page): prints tables and writes
// JSON to bench-results/ (git-ignored). Timings are reported, not asserted; deterministic budgets
// (content-script size, exact view counting) fail the run when broken. The same two budgets are also
// guarded in `npm test` (test/e2e/budget.spec.ts, test/server/snapshots/view-count-load.test.ts).
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { benchBackground } from './background';
import {
  ANNOTATOR_HEADROOM_BYTES,
  CARD_PRESENTER_BUDGET_BYTES,
  CONTENT_SCRIPT_BUDGET_BYTES,
  FRAME_RELAY_BUDGET_BYTES,
  measureBundle,
  measureStorePackages,
} from './bundle';
import { benchCard, benchFirstCard, CARD_CASES } from './card';
import { benchColdStart } from './cold-start';
import { benchContent, listPage, scriptLoads } from './content';
import { framesPage, shadowRootsPage } from './embedded-pages';
import { runServerSections, runSnapshotSection } from './server-sections';
import { bootstrapDifference, type Difference } from './stats';
import { benchVerification } from './verification';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const quick = process.argv.includes('--quick');
/** `--server-only`: only the server sections (snapshot throughput with and without a partner key, webhook delivery); no build needed. */
const serverOnly = process.argv.includes('--server-only');
/** `--signing-only`: what signing costs (issue #36): the snapshot section (signed and not) and the background's check. */
const signingOnly = process.argv.includes('--signing-only');
const option = (name: string) => process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
const compareWith = option('compare');
const only = option('only');
const instances = Number(option('instances') ?? (quick ? 2 : 3));
if (!Number.isInteger(instances) || instances < 1) throw new Error('--instances takes a whole number of at least 1');
const failures: string[] = [];
const startedAt = Date.now();
const elapsed = () => `${Math.round((Date.now() - startedAt) / 1000)} s`;

console.log(
  `Compliance Lens benchmarks${quick ? ' (--quick)' : ''}: ${os.cpus().length} CPUs, load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);

/** Writes `results` to bench-results/<prefix>-<time>.json and, with `exit`, ends the run on the budgets. */
function writeResults(prefix: string, results: Record<string, unknown>, exit: boolean): void {
  const outDir = path.join(repoRoot, 'bench-results');
  mkdirSync(outDir, { recursive: true });
  const file = path.join(outDir, `${prefix}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, JSON.stringify({ at: new Date().toISOString(), quick, ...results }, null, 2));
  console.log(`\nwrote ${path.relative(repoRoot, file)} (${elapsed()})`);
  if (failures.length > 0) {
    console.error(`\nBudget failures:\n- ${failures.join('\n- ')}`);
    process.exit(1);
  }
  if (exit) process.exit(0);
}

/** 3a. The background's check of a signed answer (issue #36): no browser, no build. */
async function verificationSection() {
  const verification = await benchVerification(
    quick ? { answers: 20, batches: 20, batchSize: 25, keys: 10 } : { answers: 50, batches: 40, batchSize: 50, keys: 20 },
  );
  console.log(`\nBackground: checking the signature of a snapshot answer, ms each [${elapsed()}]`);
  console.table(verification.rows);
  for (const note of verification.notes) console.log(`  · ${note}`);
  return verification;
}

if (serverOnly) {
  const sections = await runServerSections({ quick, elapsed, failures });
  writeResults('bench-server', { machine: { cpus: os.cpus().length }, ...sections }, true);
}
if (signingOnly) {
  const server = await runSnapshotSection({ quick, elapsed, failures });
  const verification = await verificationSection();
  writeResults('bench-signing', { machine: { cpus: os.cpus().length, loadavg: os.loadavg() }, server, verification }, true);
}

// 1. Bundle sizes (deterministic budget).
const bundle = measureBundle(path.join(repoRoot, '.output/chrome-mv3'));
console.log('\nBundle (.output/chrome-mv3, gzip -9)');
console.table({
  'annotator (gzip)': {
    bytes: bundle.annotatorGzipBytes ?? 'missing',
    budget: `${CONTENT_SCRIPT_BUDGET_BYTES} (keep ${ANNOTATOR_HEADROOM_BYTES} free)`,
  },
  'frame relay (gzip)': { bytes: bundle.frameRelayGzipBytes ?? 'missing', budget: FRAME_RELAY_BUDGET_BYTES },
  'frame sentinel (gzip)': { bytes: bundle.frameSentinelGzipBytes ?? 'missing', budget: '' },
  'card presenter (gzip)': { bytes: bundle.cardPresenterGzipBytes ?? 'missing', budget: CARD_PRESENTER_BUDGET_BYTES },
  'whole extension': { bytes: bundle.extensionBytes, budget: '' },
  'whole extension (gzip)': { bytes: bundle.extensionGzipBytes, budget: '' },
});
// `npm run bench` runs `npm run zip` first, so these are this build's store packages.
const packages = measureStorePackages(repoRoot);
console.log('Store packages (.output/*.zip, from `npm run zip`)');
console.table({
  'Chrome zip': { bytes: packages.chrome ?? 'missing' },
  'Firefox zip': { bytes: packages.firefox ?? 'missing' },
  'Firefox sources zip': { bytes: packages.sources ?? 'missing' },
});
if (bundle.annotatorGzipBytes === null) failures.push('no annotator found in the build');
else if (bundle.annotatorGzipBytes > CONTENT_SCRIPT_BUDGET_BYTES - ANNOTATOR_HEADROOM_BYTES) {
  failures.push(
    `the annotator is ${bundle.annotatorGzipBytes} B gzip: more than its budget of ${CONTENT_SCRIPT_BUDGET_BYTES} B less ${ANNOTATOR_HEADROOM_BYTES} B of headroom`,
  );
}
if (bundle.frameRelayGzipBytes === null) failures.push('no frame relay found in the build');
else if (bundle.frameRelayGzipBytes > FRAME_RELAY_BUDGET_BYTES) {
  failures.push(`the frame relay is ${bundle.frameRelayGzipBytes} B gzip, budget ${FRAME_RELAY_BUDGET_BYTES} B`);
}
if (bundle.cardPresenterGzipBytes === null) failures.push('no card presenter found in the build');
else if (bundle.cardPresenterGzipBytes > CARD_PRESENTER_BUDGET_BYTES) {
  failures.push(`the card presenter is ${bundle.cardPresenterGzipBytes} B gzip, budget ${CARD_PRESENTER_BUDGET_BYTES} B`);
}

// 2. Content script in Chromium, with the extension against the same pages without it: long lists,
// then links in frames (a frame without a share link should cost next to nothing) and in shadow roots.
// First, the fixed cost: a page with one share link among ten anchors (issue #32: at most 5 ms of script).
const listPages = [
  { anchors: 10, sharePercent: 10 },
  ...(quick
    ? [{ anchors: 5_000, sharePercent: 10 }]
    : [1_000, 5_000, 20_000].flatMap((anchors) => [1, 10].map((sharePercent) => ({ anchors, sharePercent })))),
].map(listPage);
const embeddedPages = [
  ...(quick ? [] : [framesPage({ frames: 100, linksPerFrame: 0, sharesPerFrame: 0 })]),
  framesPage({ frames: 100, linksPerFrame: 20, sharesPerFrame: 0 }),
  ...(quick ? [] : [framesPage({ frames: 100, linksPerFrame: 20, sharesPerFrame: 1 })]),
  ...(quick ? [] : [framesPage({ frames: 100, linksPerFrame: 0, sharesPerFrame: 0, source: 'url' })]),
  ...(quick ? [] : [framesPage({ frames: 100, linksPerFrame: 20, sharesPerFrame: 0, source: 'url' })]),
  shadowRootsPage({ hosts: 1_000, linksPerHost: 5, sharePercent: 10 }),
];
// The budget's page (5,000 anchors, 500 share links) gets more loads: one load varies by ±10 ms here,
// and one browser instance's loads by as much again from another's, so they come from three instances.
const budgetPage = listPage({ anchors: 5_000, sharePercent: 10 }).name;
// The fixed cost's page (ten anchors, one share link; issue #32 asks at most 5 ms) gets six: its loads
// spread over 6–13 ms, so three could not tell a 1 ms change, and a load here takes a second.
const fixedCostPage = listPage({ anchors: 10, sharePercent: 10 }).name;
const repeatsFor = (page: { name: string }) => (page.name === budgetPage ? 3 : page.name === fixedCostPage ? 6 : 1);
const contentPages = [...listPages, ...embeddedPages].filter((page) => only === undefined || page.name.includes(only));
if (contentPages.length === 0) throw new Error(`--only=${only}: no content page's name holds it`);
const { content, compared } = await benchContent(contentPages, instances, repeatsFor, compareWith && path.resolve(compareWith));
console.log(`\nContent script in Chromium: extension − baseline (same page without the extension), medians [${elapsed()}]`);
console.table(content.cost);
console.log('Raw measurements');
console.table(content.measurements);
for (const note of content.notes) console.log(`  · ${note}`);

// 2a. The same pages with another build, measured between this build's browsers (regressions show
// against it, not against last week).
if (compared) {
  console.log(`\nThis build against ${compareWith}: extension − baseline, medians [${elapsed()}]`);
  const keys = [
    'extension script (ms)',
    'extension script, each load (ms)',
    'heap delta (MB)',
    'all badges (ms from nav start)',
    'per frame: script, heap; task, load',
  ] as const;
  console.table(
    content.cost.map((row, index) => ({
      page: row.page,
      // Single loads spread widely here: a 90 % interval that holds 0 means this run cannot tell the builds apart.
      'script: this − compared (90 % interval)': differenceText(
        bootstrapDifference(
          scriptLoads(content.measurements, String(row.page)),
          scriptLoads(compared.measurements, String(row.page)),
        ),
      ),
      ...Object.fromEntries(
        keys.flatMap((key) => [
          [`${key}: this`, row[key]],
          [`${key}: compared`, compared.cost[index]?.[key]],
        ]),
      ),
    })),
  );
}

function differenceText({ estimate, low, high }: Difference): string {
  const ms = (value: number) => `${value > 0 ? '+' : ''}${Math.round(value * 10) / 10}`;
  return `${ms(estimate)} ms [${ms(low)}, ${ms(high)}]`;
}

// 2b–4 are left out when --only picks content pages.
const coldStart = only === undefined ? await benchColdStart(quick ? 2 : 4) : null;
if (coldStart) {
  // 2b. The first pages after the browser starts.
  console.log(`\nContent script right after browser start [${elapsed()}]`);
  console.table(coldStart.rows);
  for (const note of coldStart.notes) console.log(`  · ${note}`);
}

// 2c. The hover card: from intent to the company name painted, this build and (with --compare) the other.
const card = only === undefined ? await benchCard({ samples: quick ? 5 : 12 }) : null;
const comparedCard =
  card && compareWith ? await benchCard({ samples: quick ? 5 : 12, extension: path.resolve(compareWith) }) : null;
if (card) {
  console.log(`\nThe hover card: intent (the pointer rested for the hover delay) → the company name painted [${elapsed()}]`);
  const medianOf = (result: typeof card, which: (typeof CARD_CASES)[number]) =>
    result.rows.find((row) => row.case === which)?.['intent → name painted, median (ms)'];
  console.table(
    comparedCard
      ? CARD_CASES.map((which) => ({
          case: which,
          'this build, median (ms)': medianOf(card, which),
          'compared, median (ms)': medianOf(comparedCard, which),
          'this: "Loading…" first': card.rows.find((row) => row.case === which)?.['"Loading…" before the name'],
          'compared: "Loading…" first': comparedCard.rows.find((row) => row.case === which)?.['"Loading…" before the name'],
        }))
      : card.rows,
  );
  console.log(
    '  · Measured in the card page (the frame after the name is in its DOM) against the pointer coming over the link plus the 400 ms hover delay; a new tab for each uncached pair (a tab may fetch 10 uncached links a minute by hovering).',
  );
}

// 2d. The first card after a browser start (issue #33 item 10): the same goals as any other card.
const firstCard = only === undefined ? await benchFirstCard({ launches: quick ? 3 : 6 }) : null;
const comparedFirstCard =
  firstCard && compareWith ? await benchFirstCard({ launches: quick ? 3 : 6, extension: path.resolve(compareWith) }) : null;
if (firstCard) {
  console.log(`\nThe first card after a browser start: intent → the company name painted [${elapsed()}]`);
  console.table(
    comparedFirstCard
      ? [...firstCard.rows, ...comparedFirstCard.rows.map((row) => ({ ...row, case: `compared: ${String(row.case)}` }))]
      : firstCard.rows,
  );
  console.table(firstCard.samples);
  console.log(
    '  · A profile where the extension ran before (its policy read once) is started again; a page opens at once and the pointer rests on a link never loaded as soon as its badge shows. Goal: 100 ms, as any uncached card.',
  );
}

// 3. Background: cached hover against a network fetch.
const background =
  only === undefined ? await benchBackground({ cachedHovers: quick ? 50 : 200, refreshes: quick ? 5 : 20 }) : null;
if (background) {
  console.log(`\nBackground: answering from an extension page through the messaging [${elapsed()}]`);
  console.table(background.rows);
  for (const note of background.notes) console.log(`  · ${note}`);
}

const verification = only === undefined ? await verificationSection() : null;

// 4–5. Server under load (with and without a partner key) and webhook delivery: test/bench/server-sections.ts.
const serverSections = only === undefined ? await runServerSections({ quick, elapsed, failures }) : null;
const server = serverSections?.server ?? null;
const webhooks = serverSections?.webhooks ?? null;
const webhookFairness = serverSections?.webhookFairness ?? null;
const webhookInstances = serverSections?.webhookInstances ?? null;

writeResults(
  'bench',
  {
    only: only ?? null,
    instances,
    machine: { cpus: os.cpus().length, loadavg: os.loadavg() },
    bundle,
    storePackages: packages,
    content,
    card,
    comparedCard,
    firstCard,
    comparedFirstCard,
    compared: compared && { build: compareWith, ...compared },
    coldStart,
    background,
    verification,
    server,
    webhooks,
    webhookFairness,
    webhookInstances,
  },
  false,
);
console.log('budgets: all deterministic budgets held');
