import type { Alias, AliasOptions } from 'vite';
import { defineConfig } from 'wxt';
import tailwindcss from '@tailwindcss/vite';
import { compileOut } from './scripts/build/compile-out';
import { leanUnlistedScripts } from './scripts/build/lean-wrapper';
import { ANNOTATOR_MATCHES, CARD_PAGE, PAGE_SCRIPTS } from './lib/extension/content-scripts';

const ICONS = { 16: 'icon/16.png', 32: 'icon/32.png', 48: 'icon/48.png', 128: 'icon/128.png' };

/**
 * The card page (`entrypoints/card.tsx`, a build of its own) renders the same React components as
 * the popup, with Preact's React-compatible layer: the card loads on every hover, and React alone is
 * larger than its whole script budget (DESIGN "Budgets": 60 KB gzip; docs/design-changes.md).
 */
const PREACT_FOR_REACT: Alias[] = [
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/jsx-dev-runtime' },
  { find: /^react$/, replacement: 'preact/compat' },
];
function asAliasList(aliases: AliasOptions | undefined): Alias[] {
  if (aliases === undefined) return [];
  if (Array.isArray(aliases)) return aliases as readonly Alias[] as Alias[]; // Vite's own AliasOptions union
  return Object.entries(aliases as Record<string, string>).map(([find, replacement]) => ({ find, replacement }));
}

// Chrome MV3 and Firefox MV3 builds (`npm run build`, `npm run build:firefox`).
export default defineConfig({
  modules: ['@wxt-dev/module-react'],
  // Every import is written out, so the lint rules see (and police) what each file depends on.
  imports: false,
  // compileOut: zod's JIT and react-dom's HTML-string paths leave the bundle (store review; see the module).
  // leanUnlistedScripts: the unlisted scripts' wrapper without its silenced logging (the annotator's budget).
  vite: (env) => ({
    plugins: [
      tailwindcss(),
      compileOut({ checkOutput: env.mode === 'production' }),
      leanUnlistedScripts({ production: env.mode === 'production' }),
    ],
  }),
  hooks: {
    'vite:build:extendConfig'(entrypoints, config) {
      if (!entrypoints.some((entrypoint) => entrypoint.name === 'card')) return;
      config.resolve = { ...config.resolve, alias: [...PREACT_FOR_REACT, ...asAliasList(config.resolve?.alias)] };
    },
  },
  zip: {
    // The sources zip (made for Firefox: AMO reviewers rebuild from it) holds what git tracks. WXT already
    // leaves out node_modules, .output, dotfiles (.data, .env) and *.test.* files; these are the other
    // git-ignored outputs a test or benchmark run leaves behind (test/e2e/store-package.spec.ts checks).
    excludeSources: [
      'test-results/**',
      'bench-results/**',
      'coverage/**',
      'playwright-report/**',
      'web-ext-artifacts/**',
      'dist/**',
      'scratch/**',
      'test/artifacts/**',
      '**/*.log',
    ],
  },
  manifest: ({ browser }) => ({
    // Localised from public/_locales (en, fr).
    name: '__MSG_extName__',
    description: '__MSG_extDescription__',
    default_locale: 'en',
    // The product mark (lib/core/brand.ts), drawn by scripts/icons.ts: extensions page, store, toolbar.
    icons: ICONS,
    action: { default_icon: ICONS },
    // The top frame of a matched page (also a window a matched page opened and wrote) runs the annotator
    // and the frame relay. Every subframe of a matched site, `about:blank`/`srcdoc` ones of a matched
    // page included, runs the sentinel in the page's own world, which costs no isolated world; the
    // background finds the frames that hold a share link and starts the annotator there alone.
    content_scripts: PAGE_SCRIPTS.map(({ js, allFrames, world, runAt }) => ({
      matches: ANNOTATOR_MATCHES,
      js: [js],
      run_at: runAt,
      ...(allFrames ? { all_frames: true } : {}),
      match_about_blank: true,
      match_origin_as_fallback: true,
      ...(world === 'MAIN' ? { world } : {}),
    })),
    // activeTab + scripting: "Scan this page" from the popup, the annotator on enabled sites and in frames.
    // alarms + notifications: the watchlist's background refreshes and its change digests.
    permissions: [
      'storage',
      'activeTab',
      'scripting',
      'alarms',
      'notifications',
      ...(browser === 'firefox' ? [] : ['sidePanel']),
    ],
    // The sites the annotator runs on: injecting it into a frame (`scripting.executeScript`) needs host
    // access, which content-script matches alone do not give. Among them loopback on any port: the bundled
    // server in development and tests (its origin is still matched exactly against the configured services
    // before anything is sent).
    host_permissions: [...ANNOTATOR_MATCHES],
    // User-added and production services are granted at runtime (lib/extension/permissions.ts).
    optional_host_permissions: ['https://*/*', 'http://*/*'],
    // Administrator policy (lib/extension/settings.ts reads it; absent is fine). Chrome-only key: Firefox takes
    // managed storage from a native manifest instead.
    ...(browser === 'firefox' ? {} : { storage: { managed_schema: 'managed_schema.json' } }),
    // Only the hover card; a per-session URL on Chrome.
    web_accessible_resources: [
      {
        resources: [CARD_PAGE],
        // The card must also open on sites the user enables or scans at runtime, which cannot be
        // listed here. A page that learns the URL (resource timing, a guess on Firefox) and frames the
        // card itself gets nothing: the card page shows only the link it claims with the one-time
        // name its content script gave its frame (lib/background/cards/card-routes.ts).
        matches: ['https://*/*', 'http://*/*'],
        ...(browser === 'firefox' ? {} : { use_dynamic_url: true }),
      },
    ],
    ...(browser === 'firefox'
      ? {
          browser_specific_settings: {
            gecko: {
              id: 'compliance-lens@compliance-lens.dev',
              // data_collection_permissions arrived in Firefox 140 and Firefox for Android 142
              // (@mdn/browser-compat-data, which addons-linter checks against): no older minimum.
              strict_min_version: '140.0',
              data_collection_permissions: { required: ['none'] },
            },
            gecko_android: { strict_min_version: '142.0' },
          },
        }
      : {}),
  }),
});
