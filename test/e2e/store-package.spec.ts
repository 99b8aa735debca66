import { expect, test } from '@playwright/test';
import JSZip from 'jszip';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { z } from 'zod';
import { ANNOTATOR_SCRIPT, CARD_PRESENTER_SCRIPT, FRAME_RELAY_SCRIPT } from '../../lib/extension/content-scripts';
import { findUnsafeCode } from '../../scripts/build/unsafe-code';
import {
  ANNOTATOR_HEADROOM_BYTES,
  CARD_PRESENTER_BUDGET_BYTES,
  CONTENT_SCRIPT_BUDGET_BYTES,
  FRAME_RELAY_BUDGET_BYTES,
  storePackagePaths,
} from '../bench/bundle';

/** docs/architecture.md, "The processes": the card frame is a build of its own, at most 60 KB gzip of script. */
const CARD_PAGE_SCRIPT_BUDGET_BYTES = 60 * 1024;

/**
 * The store packages, as a store receives them: `npm test` runs `npm run zip` (WXT builds each
 * browser, then zips `.output/<browser>-mv3`) before Playwright, and this reads the zips themselves.
 * Chrome has no store linter to run here (Firefox's is `web-ext lint`, also in `npm test`), so the
 * Chrome package is checked by hand: a valid MV3 manifest whose every named file is in the zip,
 * nothing but the built extension inside, and no code a reviewer rejects.
 */

const repoRoot = path.resolve(import.meta.dirname, '../..');
const packages = storePackagePaths(repoRoot);

const Files = z.array(z.string().min(1));
const Icons = z.record(z.string(), z.string());
const Manifest = z.looseObject({
  manifest_version: z.literal(3),
  name: z.string().min(1),
  version: z.string().regex(/^\d+(\.\d+){0,3}$/),
  description: z.string().min(1),
  default_locale: z.string().min(1),
  icons: Icons.optional(),
  permissions: z.array(z.string()).optional(),
  background: z.looseObject({ service_worker: z.string().optional(), scripts: Files.optional() }),
  action: z.looseObject({ default_popup: z.string().optional(), default_icon: z.union([z.string(), Icons]).optional() }),
  options_ui: z.looseObject({ page: z.string() }).optional(),
  side_panel: z.looseObject({ default_path: z.string() }).optional(),
  sidebar_action: z.looseObject({ default_panel: z.string(), default_icon: z.union([z.string(), Icons]).optional() }).optional(),
  storage: z.looseObject({ managed_schema: z.string().optional() }).optional(),
  content_scripts: z.array(z.looseObject({ matches: Files, js: Files.optional(), css: Files.optional() })).optional(),
  web_accessible_resources: z
    .array(z.looseObject({ resources: Files, matches: Files.optional(), use_dynamic_url: z.boolean().optional() }))
    .optional(),
});
type Manifest = z.infer<typeof Manifest>;

const GeckoSettings = z.object({
  gecko: z.looseObject({
    id: z.string().min(1),
    strict_min_version: z.string(),
    data_collection_permissions: z.looseObject({ required: z.array(z.string()) }),
  }),
  gecko_android: z.looseObject({ strict_min_version: z.string() }),
});

const Messages = z.record(z.string(), z.looseObject({ message: z.string() }));

/** Every file `manifest` names, as zip paths (without a leading slash). */
function namedFiles(manifest: Manifest): string[] {
  const icons = (value: string | Record<string, string> | undefined) =>
    value === undefined ? [] : typeof value === 'string' ? [value] : Object.values(value);
  return [
    ...icons(manifest.icons),
    manifest.background.service_worker,
    ...(manifest.background.scripts ?? []),
    manifest.action.default_popup,
    ...icons(manifest.action.default_icon),
    manifest.options_ui?.page,
    manifest.side_panel?.default_path,
    manifest.sidebar_action?.default_panel,
    ...icons(manifest.sidebar_action?.default_icon),
    manifest.storage?.managed_schema,
    ...(manifest.content_scripts ?? []).flatMap((script) => [...(script.js ?? []), ...(script.css ?? [])]),
    ...(manifest.web_accessible_resources ?? []).flatMap((entry) => entry.resources),
  ]
    .filter((file) => file !== undefined)
    .map((file) => file.replace(/^\//, ''));
}

/** Local files an extension page or a script module loads (`src`, `href`, static `import … from`). */
function referencedFiles(file: string, text: string): string[] {
  const references = file.endsWith('.html')
    ? [...text.matchAll(/\s(?:src|href)="([^"]+)"/g)]
    : // A module's own files are written as paths ("./x.js", "/chunks/x.js"): words in a string ("links from`,") are not.
      [...text.matchAll(/\bfrom\s*["'`]((?:\.{1,2}\/|\/)[^"'`]+)["'`]/g)];
  return references
    .map((match) => match[1] ?? '')
    .filter((reference) => !/^(?:[a-z][\w+.-]*:|\/\/|#)/i.test(reference))
    .map((reference) =>
      reference.startsWith('/') ? reference.slice(1) : path.posix.normalize(path.posix.join(path.posix.dirname(file), reference)),
    );
}

interface Package {
  zip: JSZip;
  files: string[];
  manifest: Manifest;
  raw: Record<string, unknown>;
  text: (file: string) => Promise<string>;
}

async function openZip(file: string): Promise<{ zip: JSZip; files: string[] }> {
  expect(existsSync(file), `no store package at ${file}: run \`npm run zip\``).toBe(true);
  const zip = await JSZip.loadAsync(readFileSync(file));
  const files = Object.values(zip.files)
    .filter((entry) => !entry.dir)
    .map((entry) => entry.name);
  return { zip, files };
}

async function openPackage(file: string): Promise<Package> {
  const { zip, files } = await openZip(file);
  const text = async (name: string) => {
    const entry = zip.file(name);
    if (entry === null) throw new Error(`${name} is not in ${path.basename(file)}`);
    return entry.async('string');
  };
  const raw = z.record(z.string(), z.unknown()).parse(JSON.parse(await text('manifest.json')));
  return { zip, files, manifest: Manifest.parse(raw), raw, text };
}

/** What the extension zip of either browser must hold and must not hold. */
async function checkCommon(pkg: Package, browser: string) {
  const { files, manifest } = pkg;

  const missing = namedFiles(manifest).filter((file) => !files.includes(file));
  expect.soft(missing, `${browser}: files the manifest names but the zip lacks`).toEqual([]);
  for (const page of [manifest.action.default_popup, manifest.options_ui?.page]) {
    expect(page, `${browser}: the popup and options pages are declared`).toBeTruthy();
  }
  expect(manifest.content_scripts?.flatMap((script) => script.js ?? []) ?? [], `${browser}: content scripts`).toContain(
    'annotator.js',
  );
  expect(
    manifest.web_accessible_resources?.flatMap((entry) => entry.resources),
    `${browser}: the card page`,
  ).toEqual(['card.html']);

  // Localised name and description: each __MSG_x__ is in the default locale, and every locale parses.
  const locales = files.filter((file) => /^_locales\/[^/]+\/messages\.json$/.test(file));
  expect(locales, `${browser}: the default locale's messages`).toContain(`_locales/${manifest.default_locale}/messages.json`);
  for (const locale of locales) Messages.parse(JSON.parse(await pkg.text(locale)));
  const defaults = Messages.parse(JSON.parse(await pkg.text(`_locales/${manifest.default_locale}/messages.json`)));
  const used = [...JSON.stringify(pkg.raw).matchAll(/__MSG_(\w+)__/g)].map((match) => match[1] ?? '');
  expect(used, `${browser}: the name and description are localised`).toEqual(
    expect.arrayContaining(['extName', 'extDescription']),
  );
  expect(
    used.filter((key) => !(key in defaults)),
    `${browser}: __MSG_…__ keys missing from _locales/${manifest.default_locale}`,
  ).toEqual([]);

  // Only the built extension: no source maps, sources, tests, fixtures or server code.
  const unwanted = files.filter(
    (file) =>
      /\.map$|\.tsx?$|\.(test|spec)\.|(^|\/)(test|tests|fixtures|server|node_modules|src)\//.test(file) ||
      path.posix.basename(file).startsWith('.'),
  );
  expect.soft(unwanted, `${browser}: files that do not belong in a store package`).toEqual([]);

  const scripts = files.filter((file) => /\.(m?js|html)$/.test(file));
  const findings: string[] = [];
  const broken: string[] = [];
  for (const file of scripts) {
    const text = await pkg.text(file);
    if (/sourceMappingURL/.test(text)) findings.push(`${file}: sourceMappingURL`);
    if (!file.endsWith('.html'))
      for (const found of findUnsafeCode(text)) findings.push(`${file}: ${found.rule}: ${found.excerpt}`);
    for (const reference of referencedFiles(file, text)) if (!files.includes(reference)) broken.push(`${file} → ${reference}`);
  }
  expect.soft(findings, `${browser}: source-map links and code store review rejects (scripts/build/unsafe-code.ts)`).toEqual([]);
  expect.soft(broken, `${browser}: pages and modules that load a file the zip lacks`).toEqual([]);
}

test('the Chrome store package is a complete MV3 extension with nothing else inside', async () => {
  const pkg = await openPackage(packages.chrome);
  const { manifest, raw } = pkg;
  await checkCommon(pkg, 'chrome');

  expect(manifest.background.service_worker, 'Chrome MV3 runs a service worker').toBe('background.js');
  expect(manifest.side_panel?.default_path).toBe('sidepanel.html');
  expect(manifest.storage?.managed_schema).toBe('managed_schema.json');
  // Firefox's keys: Chrome warns about unknown keys, and background.scripts is an MV2 leftover to it.
  for (const key of ['browser_specific_settings', 'applications', 'sidebar_action', 'developer', 'user_scripts']) {
    expect.soft(raw, `Firefox-only manifest key ${key}`).not.toHaveProperty(key);
  }
  expect(manifest.background.scripts, 'background.scripts (Firefox) in the Chrome manifest').toBeUndefined();
});

test('the Firefox store package has its gecko settings and none of Chrome’s keys', async () => {
  const pkg = await openPackage(packages.firefox);
  const { manifest, raw } = pkg;
  await checkCommon(pkg, 'firefox');

  // The releases that introduced data_collection_permissions (desktop 140, Android 142): the same
  // minimum web-ext lint checks, which runs on this build in `npm test`.
  const settings = GeckoSettings.parse(raw.browser_specific_settings);
  expect.soft(settings.gecko.id).toBe('compliance-lens@compliance-lens.dev');
  expect.soft(settings.gecko.strict_min_version).toBe('140.0');
  expect.soft(settings.gecko_android.strict_min_version).toBe('142.0');
  expect.soft(settings.gecko.data_collection_permissions.required).toEqual(['none']);

  expect(manifest.background.scripts, 'Firefox MV3 runs background scripts').toEqual(['background.js']);
  expect(manifest.sidebar_action?.default_panel).toBe('sidepanel.html');
  for (const key of ['side_panel', 'storage', 'minimum_chrome_version', 'key', 'update_url']) {
    expect.soft(raw, `Chrome-only manifest key ${key}`).not.toHaveProperty(key);
  }
  expect(manifest.background.service_worker, 'background.service_worker (Chrome) in the Firefox manifest').toBeUndefined();
  expect(manifest.permissions ?? [], 'Chrome-only permissions').not.toContain('sidePanel');
  expect(
    (manifest.web_accessible_resources ?? []).filter((entry) => entry.use_dynamic_url !== undefined),
    'use_dynamic_url (Chrome-only)',
  ).toEqual([]);
});

test('the Firefox sources zip holds what a reviewer rebuilds from, and nothing git ignores', async () => {
  const { files } = await openZip(packages.sources);
  expect(files, 'what `npm ci && npm run build:firefox` needs').toEqual(
    expect.arrayContaining([
      'package.json',
      'package-lock.json',
      'wxt.config.ts',
      'tsconfig.json',
      'scripts/build/compile-out.ts',
      'entrypoints/background.ts',
      'README.md',
    ]),
  );
  const outputs = files.filter((file) =>
    /^(?:node_modules|\.output|\.data|\.wxt|test-results|bench-results|coverage|playwright-report|web-ext-artifacts)\/|(^|\/)\.env/.test(
      file,
    ),
  );
  expect.soft(outputs, 'installs, build output, data and test results').toEqual([]);

  // Exactly git's idea of a generated or local file: `git check-ignore` names every ignored entry.
  const ignored = spawnSync('git', ['check-ignore', '--stdin'], { cwd: repoRoot, input: files.join('\n'), encoding: 'utf8' });
  expect(ignored.status === 0 || ignored.status === 1, `git check-ignore failed: ${ignored.stderr}`).toBe(true);
  expect(ignored.stdout.split('\n').filter(Boolean), 'git-ignored files in the sources zip').toEqual([]);
});

/** A file of the package, gzipped at level 9 as test/bench/bundle.ts counts it. */
async function gzipBytes(pkg: Package, file: string): Promise<number> {
  const entry = pkg.zip.file(file);
  if (entry === null) throw new Error(`${file} is not in the package`);
  return gzipSync(await entry.async('uint8array'), { level: 9 }).length;
}

/** The card page's own script: every module card.html loads, and the modules they import (gzip level 9, each file). */
async function cardPageScriptGzipBytes(pkg: Package): Promise<number> {
  const seen = new Set<string>();
  const queue = ['card.html'];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    if (seen.has(file) || !pkg.files.includes(file)) continue;
    seen.add(file);
    queue.push(...referencedFiles(file, await pkg.text(file)).filter((reference) => /\.m?js$/.test(reference)));
  }
  const scripts = [...seen].filter((file) => /\.m?js$/.test(file));
  expect(scripts.length, 'card.html loads a script').toBeGreaterThan(0);
  const sizes = await Promise.all(scripts.map((file) => gzipBytes(pkg, file)));
  return sizes.reduce((sum, size) => sum + size, 0);
}

for (const browser of ['chrome', 'firefox'] as const) {
  test(`${browser}: the scripts in the store package keep their budgets (the annotator keeps 0.5 KB free under its 15 KB gzip, the relay and card presenter 6 KB, the card page 60 KB)`, async () => {
    const pkg = await openPackage(packages[browser]);
    const sizes = {
      annotator: await gzipBytes(pkg, ANNOTATOR_SCRIPT),
      frameRelay: await gzipBytes(pkg, FRAME_RELAY_SCRIPT),
      cardPresenter: await gzipBytes(pkg, CARD_PRESENTER_SCRIPT),
      cardPage: await cardPageScriptGzipBytes(pkg),
    };
    const zipBytes = readFileSync(packages[browser]).length;
    test.info().annotations.push({
      type: 'size',
      description: `${browser} zip ${zipBytes} B; gzip: annotator ${sizes.annotator} B, relay ${sizes.frameRelay} B, card presenter ${sizes.cardPresenter} B, card page script ${sizes.cardPage} B`,
    });
    expect
      .soft(sizes.annotator, 'annotator gzip size')
      .toBeLessThanOrEqual(CONTENT_SCRIPT_BUDGET_BYTES - ANNOTATOR_HEADROOM_BYTES);
    expect.soft(sizes.frameRelay, 'frame relay gzip size').toBeLessThanOrEqual(FRAME_RELAY_BUDGET_BYTES);
    expect.soft(sizes.cardPresenter, 'card presenter gzip size').toBeLessThanOrEqual(CARD_PRESENTER_BUDGET_BYTES);
    expect.soft(sizes.cardPage, "card page's script gzip size").toBeLessThanOrEqual(CARD_PAGE_SCRIPT_BUDGET_BYTES);
  });
}
