// Content-script cost in real Chromium: generated pages measured WITH the built extension and the same
// pages WITHOUT it (a second persistent context), in the same run. Reported, never asserted.
import type { BrowserContext, CDPSession, Page } from '@playwright/test';
import { launch } from '../support/chromium';
import { median, type BuildLoads } from './stats';

const BENCH_VIEWPORT = { viewport: { width: 1280, height: 800 } };

/** The default local service (configured out of the box): links are recognised; nothing is fetched. */
const SERVICE_ORIGIN = 'http://127.0.0.1:8787';
const PAGES_ORIGIN = 'http://localhost:5999';
const BURST_ROWS = 1_000;
/** Both conditions wait this long after `load` before anything is read from the page. */
const SETTLE_MS = 1_500;

export interface ContentCase {
  anchors: number;
  sharePercent: number;
}

/** A generated page: its whole document, the badges expected once it is annotated, and an optional burst of new content. */
export interface BenchPage {
  /** Row label in the tables. */
  name: string;
  /** Served at `${PAGES_ORIGIN}/<slug>.html`. */
  slug: string;
  html: string;
  anchors: number;
  shareLinks: number;
  /** Frames in the page (0: none). */
  frames: number;
  /** The document served at `${PAGES_ORIGIN}/frame.html`, for frames with an address of their own. */
  frameDocument?: string;
  /** Run in the page (as a statement) to add content at once; `badges` = all badges expected afterwards. */
  burst: { label: string; script: string; badges: number } | null;
}

export interface ContentMeasurement {
  page: string;
  anchors: number;
  share_links: number;
  condition: 'extension' | 'baseline';
  /** Which browser pair measured it (see `benchContent`). */
  instance?: number;
  /** navigationStart → load event. */
  load_ms: number;
  /** navigationStart → every badge present (extension only). */
  all_badges_ms: number | null;
  /** CDP Performance.getMetrics, whole renderer main thread, page load until settled. */
  script_ms: number;
  task_ms: number;
  layout_style_ms: number;
  /** PerformanceObserver `longtask` entries after DOMContentLoaded (parsing the page itself is one). */
  long_tasks: number;
  long_task_max_ms: number;
  /** JSHeapUsedSize after a forced GC: the renderer's V8 isolate (page world + content-script world). */
  heap_mb: number;
  burst_badges_ms: number | null;
  burst_script_ms: number;
  burst_long_tasks: number;
  burst_long_task_max_ms: number;
}

/** The `index`th anchor of a generated page: a share link of the default service, or an ordinary one. */
export function anchorHtml(index: number, share: boolean, text = `item ${index}`): string {
  return share
    ? `<a href="${SERVICE_ORIGIN}/share/tok_${String(index).padStart(7, '0')}_${'x'.repeat(32)}">deal ${index}</a>`
    : `<a href="https://example.org/item/${index}">${text}</a>`;
}

function rows(from: number, count: number, sharePercent: number): { html: string; shares: number } {
  const every = Math.round(100 / sharePercent);
  const parts: string[] = [];
  let shares = 0;
  for (let i = from; i < from + count; i++) {
    const share = i % every === 0;
    if (share) shares += 1;
    parts.push(`<li>${anchorHtml(i, share)} · row ${i}</li>`);
  }
  return { html: parts.join(''), shares };
}

/**
 * The page's own instruments, in its head: long tasks, and the moment the expected number of badges
 * is reached. `__noteBadges` is a mutation observer callback that only runs when nodes are added
 * (never in the baseline) and counts the badges among them, so its own cost follows the extension's
 * insertions, not the page size (it once re-counted a live collection over the whole page per
 * callback: that page script was billed to the extension). Frames and shadow roots hand their own
 * records to it. The harness does not poll the page while its script time is being measured.
 */
export function pageHead(title: string, expectedBadges: number, extra = ''): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title><script>
window.__longTasks = [];
new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__longTasks.push({ start: e.startTime, duration: e.duration }); })
  .observe({ type: 'longtask', buffered: true });
window.__expectBadges = ${expectedBadges};
window.__badgesAt = null;
let badgesAdded = 0;
window.__noteBadges = (records) => {
  for (const record of records) for (const node of record.addedNodes) if (node.localName === 'compliance-lens-badge') badgesAdded += 1;
  if (window.__badgesAt === null && window.__expectBadges > 0 && badgesAdded >= window.__expectBadges) window.__badgesAt = performance.now();
};
new MutationObserver(window.__noteBadges).observe(document, { childList: true, subtree: true });
${extra}</script></head>`;
}

/** A long list of anchors, `sharePercent` of them share links; the burst appends 1,000 rows. */
export function listPage(kase: ContentCase): BenchPage {
  const initial = rows(0, kase.anchors, kase.sharePercent);
  const burst = rows(kase.anchors, BURST_ROWS, kase.sharePercent);
  return {
    name: `${kase.anchors} anchors, ${kase.sharePercent}% share`,
    slug: `list-${kase.anchors}-${kase.sharePercent}`,
    html: `${pageHead('bench', initial.shares)}<body><ul id="list">${initial.html}</ul></body></html>`,
    anchors: kase.anchors,
    shareLinks: initial.shares,
    frames: 0,
    burst: {
      label: `+${BURST_ROWS.toLocaleString('en')} rows`,
      script: `document.getElementById('list').insertAdjacentHTML('beforeend', ${JSON.stringify(burst.html)});`,
      badges: initial.shares + burst.shares,
    },
  };
}

async function metrics(cdp: CDPSession): Promise<Map<string, number>> {
  const { metrics: list } = await cdp.send('Performance.getMetrics');
  return new Map(list.map((metric) => [metric.name, metric.value]));
}

const seconds = (after: Map<string, number>, before: Map<string, number>, ...names: string[]) =>
  Math.round(names.reduce((sum, name) => sum + ((after.get(name) ?? 0) - (before.get(name) ?? 0)), 0) * 1000 * 10) / 10;

/**
 * Waits `settleMs`, then (extension only, when badges are expected) until the page saw its expected
 * badges, checking every 250 ms; returns the page's own record of when that happened. The baseline
 * waits the same `settleMs`. Another build (`--compare`) may not badge every page (an older one has no
 * frames): for it, null after a short wait instead of an error.
 */
async function badgesAt(page: Page, expectBadges: boolean, settleMs: number, required: boolean): Promise<number | null> {
  await page.waitForTimeout(settleMs);
  if (!expectBadges) return null;
  const deadline = Date.now() + (required ? 120_000 : 5_000);
  for (;;) {
    const at = await page.evaluate(() => (window as unknown as { __badgesAt: number | null }).__badgesAt);
    if (typeof at === 'number') return at;
    if (Date.now() > deadline) {
      if (required) throw new Error('the expected badges never appeared');
      return null;
    }
    await page.waitForTimeout(250);
  }
}

interface LongTask {
  start: number;
  duration: number;
}

async function longTasks(page: Page, after: number): Promise<{ count: number; max: number }> {
  const tasks = await page.evaluate(() => (window as unknown as { __longTasks: LongTask[] }).__longTasks);
  const relevant = tasks.filter((task) => task.start >= after);
  return { count: relevant.length, max: Math.round(Math.max(0, ...relevant.map((task) => task.duration))) };
}

async function measure(
  context: BrowserContext,
  bench: BenchPage,
  condition: ContentMeasurement['condition'],
  badgesRequired = true,
): Promise<ContentMeasurement> {
  const withExtension = condition === 'extension';
  await context.unroute(`${PAGES_ORIGIN}/**`).catch(() => undefined);
  await context.route(`${PAGES_ORIGIN}/**`, (route) => {
    const isFrame = bench.frameDocument !== undefined && new URL(route.request().url()).pathname === '/frame.html';
    return route.fulfill({
      status: 200,
      contentType: 'text/html; charset=utf-8',
      body: isFrame ? (bench.frameDocument ?? '') : bench.html,
    });
  });

  const page = await context.newPage();
  try {
    await page.goto('about:blank');
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    await page.goto(`${PAGES_ORIGIN}/${bench.slug}.html`, { waitUntil: 'load' });
    const allBadges = await badgesAt(page, withExtension && bench.shareLinks > 0, SETTLE_MS, badgesRequired);
    await page.waitForTimeout(500); // let cache peeks and the last slices finish
    const m1 = await metrics(cdp);
    const timing = await page.evaluate(() => {
      const nav = performance.getEntriesByType('navigation')[0]?.toJSON() as
        { loadEventEnd?: number; domContentLoadedEventEnd?: number } | undefined;
      return { load: nav?.loadEventEnd ?? 0, dcl: nav?.domContentLoadedEventEnd ?? 0 };
    });
    const initialLongTasks = await longTasks(page, timing.dcl);
    await cdp.send('HeapProfiler.collectGarbage');
    const heap = (await metrics(cdp)).get('JSHeapUsedSize') ?? 0;

    // The burst: new content added in one go.
    const before = await metrics(cdp);
    let burstStart = 0;
    let burstDone: number | null = null;
    if (bench.burst) {
      burstStart = await page.evaluate(`(() => {
        window.__badgesAt = null;
        window.__expectBadges = ${bench.burst.badges};
        const start = performance.now();
        ${bench.burst.script}
        return start;
      })()`);
      burstDone = await badgesAt(page, withExtension && bench.burst.badges > 0, SETTLE_MS, badgesRequired);
      await page.waitForTimeout(300);
    }
    const after = await metrics(cdp);
    const burstLongTasks = bench.burst ? await longTasks(page, burstStart) : { count: 0, max: 0 };

    return {
      page: bench.name,
      anchors: bench.anchors,
      share_links: bench.shareLinks,
      condition,
      load_ms: Math.round(timing.load),
      all_badges_ms: allBadges === null ? null : Math.round(allBadges),
      // From process start until settled: the two conditions differ only by the extension.
      script_ms: seconds(m1, new Map(), 'ScriptDuration'),
      task_ms: seconds(m1, new Map(), 'TaskDuration'),
      layout_style_ms: seconds(m1, new Map(), 'LayoutDuration', 'RecalcStyleDuration'),
      long_tasks: initialLongTasks.count,
      long_task_max_ms: initialLongTasks.max,
      heap_mb: Math.round((heap / 1024 / 1024) * 100) / 100,
      burst_badges_ms: burstDone === null ? null : Math.round(burstDone - burstStart),
      burst_script_ms: seconds(after, before, 'ScriptDuration'),
      burst_long_tasks: burstLongTasks.count,
      burst_long_task_max_ms: burstLongTasks.max,
    };
  } finally {
    await page.close();
  }
}

export interface ContentBenchResult {
  measurements: ContentMeasurement[];
  /** extension − baseline, per case. */
  cost: Record<string, number | string | null>[];
  notes: string[];
}

/**
 * `instances` pairs of browsers (with and without the extension), one after the other; in each,
 * `repeatsFor(page)` loads per page and condition. Loads in one browser instance are correlated
 * (one instance's loads were 10-15 ms apart from another's for the same build), so the medians pool
 * several instances instead of taking many loads from one. With `compareWith` (another build's
 * directory, `npm run bench -- --compare=<dir>`), each instance of this build is followed by one of
 * that build, in alternating order, so the machine's drift over the run hits both alike.
 */
export async function benchContent(
  pages: BenchPage[],
  instances: number,
  repeatsFor: (page: BenchPage) => number,
  compareWith?: string,
): Promise<{ content: ContentBenchResult; compared: ContentBenchResult | null }> {
  const own: ContentMeasurement[] = [];
  const other: ContentMeasurement[] = [];
  for (let instance = 0; instance < instances; instance++) {
    const runs = [() => measureInstance(pages, instance, repeatsFor, own)];
    if (compareWith) runs.push(() => measureInstance(pages, instance, repeatsFor, other, compareWith));
    if (instance % 2 === 1) runs.reverse();
    for (const run of runs) await run();
  }
  return { content: summarise(pages, own), compared: compareWith ? summarise(pages, other) : null };
}

/** One pair of browsers: with the extension (this build, or `extension`) and without it. */
async function measureInstance(
  pages: BenchPage[],
  instance: number,
  repeatsFor: (page: BenchPage) => number,
  measurements: ContentMeasurement[],
  extension?: string,
): Promise<void> {
  // Not waiting for badges: the warm-up serves any extension build.
  const warmUp = { ...listPage({ anchors: 100, sharePercent: 10 }), shareLinks: 0, burst: null };
  const withExtension = await launch(true, { ...BENCH_VIEWPORT, ...(extension ? { extension } : {}) });
  const baseline = await launch(false, BENCH_VIEWPORT);
  try {
    // Warm both browsers (first navigation pays for process start-up).
    await measure(withExtension.context, warmUp, 'extension');
    await measure(baseline.context, warmUp, 'baseline');
    for (const bench of pages) {
      for (let r = 0; r < repeatsFor(bench); r++) {
        // Alternate the order so drift on this shared machine hits both conditions alike.
        const pair =
          (r + instance) % 2 === 0
            ? [
                await measure(withExtension.context, bench, 'extension', !extension),
                await measure(baseline.context, bench, 'baseline'),
              ]
            : [
                await measure(baseline.context, bench, 'baseline'),
                await measure(withExtension.context, bench, 'extension', !extension),
              ];
        measurements.push(...pair.map((m) => ({ ...m, instance })));
      }
    }
  } finally {
    await Promise.all([withExtension.close(), baseline.close()]);
  }
}

/** One page's loads in one condition. */
const loadsOf = (measurements: readonly ContentMeasurement[], page: string, condition: ContentMeasurement['condition']) =>
  measurements.filter((m) => m.page === page && m.condition === condition);

/** One page's script times in one build: loads with the extension and without it. */
export function scriptLoads(measurements: readonly ContentMeasurement[], page: string): BuildLoads {
  const of = (condition: ContentMeasurement['condition']) => loadsOf(measurements, page, condition).map((m) => m.script_ms);
  return { extension: of('extension'), baseline: of('baseline') };
}

/** Medians per page: extension − baseline. */
function summarise(pages: BenchPage[], measurements: ContentMeasurement[]): ContentBenchResult {
  const cost = pages.map((bench) => {
    const ext = loadsOf(measurements, bench.name, 'extension');
    const base = loadsOf(measurements, bench.name, 'baseline');
    const delta = (key: 'script_ms' | 'task_ms' | 'layout_style_ms' | 'heap_mb' | 'burst_script_ms' | 'load_ms') =>
      Math.round((median(ext.map((m) => m[key])) - median(base.map((m) => m[key]))) * 10) / 10;
    const perFrameMs = (key: 'script_ms' | 'task_ms' | 'load_ms') => Math.round((delta(key) / bench.frames) * 100) / 100;
    // Task and load too: a script in a frame costs more than its script time (its isolated world, the injection).
    const perFrame =
      bench.frames > 0
        ? `${perFrameMs('script_ms')} ms, ${Math.round((delta('heap_mb') * 1024) / bench.frames)} KB; task ${perFrameMs('task_ms')} ms, load +${perFrameMs('load_ms')} ms`
        : '';
    return {
      page: bench.name,
      share_links: bench.shareLinks,
      'all badges (ms from nav start)': median(ext.map((m) => m.all_badges_ms ?? Number.NaN)),
      'extension script (ms)': delta('script_ms'),
      // Loads differ by ±10 ms on this shared machine: the spread shows how far one median can be trusted.
      'extension script, each load (ms)': ext
        .map((m) => Math.round(m.script_ms - median(base.map((b) => b.script_ms))))
        .sort((a, b) => a - b)
        .join(' '),
      'extension load (ms)': delta('load_ms'),
      // The same delta per browser pair: how far apart instances are.
      'extension script, per instance (ms)': [...new Set(ext.map((m) => m.instance ?? 0))]
        .map((instance) => {
          const of = (list: ContentMeasurement[]) => list.filter((m) => (m.instance ?? 0) === instance).map((m) => m.script_ms);
          return Math.round(median(of(ext)) - median(of(base)));
        })
        .join(' / '),
      'per frame: script, heap; task, load': perFrame,
      'extension task (ms)': delta('task_ms'),
      'extension layout+style (ms)': delta('layout_style_ms'),
      'long tasks ext/base (max ms)': `${median(ext.map((m) => m.long_tasks))}/${median(base.map((m) => m.long_tasks))} (${median(ext.map((m) => m.long_task_max_ms))}/${median(base.map((m) => m.long_task_max_ms))})`,
      'heap delta (MB)': delta('heap_mb'),
      burst: bench.burst?.label ?? '',
      'burst: badges (ms)': bench.burst ? median(ext.map((m) => m.burst_badges_ms ?? Number.NaN)) : '',
      'burst script delta (ms)': bench.burst ? delta('burst_script_ms') : '',
      'burst long tasks ext/base (max ms)': bench.burst
        ? `${median(ext.map((m) => m.burst_long_tasks))}/${median(base.map((m) => m.burst_long_tasks))} (${median(ext.map((m) => m.burst_long_task_max_ms))}/${median(base.map((m) => m.burst_long_task_max_ms))})`
        : '',
    };
  });
  return {
    measurements,
    cost,
    notes: [
      'load: navigation start → load event, extension minus baseline (the load event waits for work done before it).',
      'script/task/layout: CDP Performance.getMetrics (ScriptDuration, TaskDuration, LayoutDuration+RecalcStyleDuration) of the page renderer, navigation until settled; the extension row minus the baseline row (same page, no extension), medians over every load of every browser instance (per instance: the same delta within one pair of browsers).',
      'The harness does not poll the page while script time is measured: the page records when its badges are complete (a mutation observer that only runs when nodes are added); both conditions wait the same 1.5 s. The extension figures include the content script start-up (evaluation, settings message, recogniser). Budget (DESIGN): 5,000 anchors with 500 share links within 50 ms of script time.',
      'heap: JSHeapUsedSize after HeapProfiler.collectGarbage. Content-script isolated worlds share the renderer V8 isolate with the page, so the delta is the content script heap plus its DOM wrappers; it excludes the service worker and native DOM memory (badge hosts and shadow roots).',
      'long tasks: PerformanceObserver `longtask` after DOMContentLoaded (page parsing excluded); a long task is attributed to nobody, so compare with the baseline count.',
      'Frame pages: srcdoc frames (a mail body each), or frames of a same-origin address ("same-origin URL"); "per frame" is the extension script, heap, task and load delta divided by the frames (task and load include what script time does not: each frame\'s isolated world and the injection). Every subframe runs the sentinel in its page world (no isolated world); the annotator is injected into a frame only once it holds a share link. Shadow-root pages: web components whose links sit in open shadow roots, filled as each is connected.',
      'No request is made: detection only peeks at the background cache (the services are the default local ones; nothing listens there).',
    ],
  };
}
