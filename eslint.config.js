// @ts-check
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * Import boundaries: who may import what, by where the code runs (docs/architecture.md). Each
 * entry names the files it governs and the imports they may not make; `no-restricted-imports`
 * matches the written specifier (relative or `@/`), so every pattern starts with `**`.
 */
const PACKAGES = {
  zod: {
    group: ['zod', 'zod/*'],
    message: 'zod stays out of this bundle (the content script has a 15 KB budget; see lib/core/guards.ts).',
  },
  react: {
    group: ['react', 'react/*', 'react-dom', 'react-dom/*', '@tanstack/*'],
    message: 'React belongs in components/ and page entrypoints.',
  },
  browser: {
    group: ['wxt', 'wxt/*', '@webext-core/*', '#imports'],
    message: 'The shared core uses no browser API: it runs in the server too.',
  },
  node: {
    // http-message-signatures loads node:crypto and hands signature bases around as Buffers.
    group: [
      'node:*',
      'hono',
      'hono/*',
      '@hono/*',
      'pg',
      '@electric-sql/*',
      'http-message-signatures',
      'http-message-signatures/*',
    ],
    message: 'Node and server packages belong in server/.',
  },
  messaging: {
    group: ['@webext-core/*'],
    message:
      "The content script speaks @webext-core/messaging's wire format itself (lib/content/shared/messaging.ts): the library does not fit its 15 KB budget.",
  },
};
/**
 * A lib/ folder as any import may name it (through the `@/` alias or relatively; the folder's index or
 * a file in it). Only lib/protocol/content.ts shares a folder's name, and it is let through.
 * @param {string} name
 */
const lib = (name) => [`**/${name}`, `**/${name}/**`, '!**/protocol/content', '!./content'];
const FOLDERS = {
  content: { group: lib('content'), message: 'lib/content is the content-script bundle: only its entrypoint imports it.' },
  background: { group: lib('background'), message: 'lib/background runs in the service worker: only its entrypoint imports it.' },
  extension: {
    group: lib('extension'),
    message: 'lib/extension uses extension storage: not for the content script or the server.',
  },
  dom: { group: lib('dom'), message: 'lib/dom is for scripts that run inside a page.' },
  pageWorld: {
    group: lib('page-world'),
    message:
      "lib/page-world runs in the page's own world: only its entrypoint and the background (which hands its report function to scripting.executeScript) import it.",
  },
  protocol: { group: lib('protocol'), message: 'Protocol modules define messages between extension processes.' },
  components: {
    group: ['**/components', '**/components/**', '@/components/*'],
    message: 'React UI: only page entrypoints and other components import it.',
  },
  coreSchemas: {
    group: ['**/schemas', '**/schemas/**'],
    message: 'lib/core/schemas holds the zod schemas; this code must stay zod-free.',
  },
  alias: {
    group: ['@/*'],
    message: "The server's vitest project has no @/ alias (no WXT plugin there): import lib/core relatively.",
  },
};
/**
 * components/: pages (popup, side panel, options) compose features; a feature folder imports neither
 * another feature nor a page. What features share lives in components/'s top-level files.
 * @param {string} folder
 */
const componentsFolder = (folder) => `^(\\.\\./|@/components/|.*/components/)${folder}(/|$)`;
const COMPONENT_FEATURES = ['page-links', 'watchlist'];
const COMPONENT_PAGES = {
  regex: componentsFolder('(popup|sidepanel|options)'),
  message: 'A feature folder does not import a page: pages compose features.',
};
/** @param {string} feature */
const otherFeatures = (feature) => ({
  regex: componentsFolder(`(${COMPONENT_FEATURES.filter((other) => other !== feature).join('|')})`),
  message:
    'Feature folders of components/ do not import each other: move what they share to a top-level components/ file, or let the page compose them.',
});

/** The extension's own folders, which code that runs elsewhere (the server, the page, the shared core) may not import. */
const EXTENSION_FOLDERS = [FOLDERS.content, FOLDERS.background, FOLDERS.extension, FOLDERS.protocol, FOLDERS.components];

/**
 * A protocol module other than lib/protocol/guarded (the zod-free wire formats and their guards). A
 * regex: a folder pattern would keep gitignore-style negation from letting `guarded` through.
 */
const PROTOCOL_BUT_GUARDED = '(^|/)protocol(/(?!guarded(/|$)).*)?$';

/** The content script may import a protocol module's types (erased), and lib/protocol/guarded at runtime. */
const PROTOCOL_TYPES_ONLY = {
  regex: PROTOCOL_BUT_GUARDED,
  allowTypeImports: true,
  message:
    'The content script imports protocol modules for their types only (they hold zod schemas); at runtime, only lib/protocol/guarded.',
};

/** What no content-script bundle imports: it runs inside untrusted pages under a byte budget. */
const CONTENT_SCRIPT = [
  PACKAGES.zod,
  PACKAGES.react,
  PACKAGES.node,
  PACKAGES.messaging,
  FOLDERS.background,
  FOLDERS.extension,
  FOLDERS.components,
  FOLDERS.coreSchemas,
  FOLDERS.pageWorld,
  PROTOCOL_TYPES_ONLY,
];

/** The two bundles of lib/content stay apart: the top frame's relay has a budget of its own, and the annotator its own. */
const CONTENT_BUNDLES = {
  annotator: {
    regex: '(^|/)annotator(/|$)',
    message: "lib/content/annotator is the annotator bundle: the top frame's relay and lib/content/shared do not import it.",
  },
  topFrame: {
    regex: '(^|/)top-frame(/|$)',
    message: "lib/content/top-frame is the frame relay's bundle: the annotator and lib/content/shared do not import it.",
  },
  cardPresenter: {
    regex: '(^|/)card-presenter(/|$)',
    message:
      'lib/content/card-presenter is a bundle of its own, loaded into a frame when first needed: the other bundles reach it through lib/content/shared/card-contract.ts, not by importing it.',
  },
};

/** @param {string[]} files @param {Array<{group?: string[], regex?: string, message: string, allowTypeImports?: boolean}>} patterns */
const boundary = (files, patterns) => ({
  files,
  rules: { 'no-restricted-imports': ['error', { patterns }] },
});

/** What no server file imports: the server runs in Node and shares only lib/core with the extension. */
const SERVER = [
  PACKAGES.react,
  PACKAGES.browser,
  FOLDERS.components,
  FOLDERS.alias,
  { regex: '(^|/)lib/(?!core(/|$))', message: 'The server imports only lib/core (everything there is written for it too).' },
];
/**
 * server/ is grouped by domain, and each folder imports only the folders below it (no loops): the
 * shared platform at the bottom, then snapshots, webhooks and signing, partners (follows and their events,
 * which queue webhooks; the keys CLI rotates the signing key), founders (whose changes partners hear of), dev (demo data over all of them).
 * The files at the top (app, start, cli, webhook-receiver) compose them; no folder imports those.
 */
const SERVER_FOLDERS = {
  platform: [],
  snapshots: ['platform'],
  webhooks: ['platform'],
  signing: ['platform'],
  partners: ['platform', 'snapshots', 'webhooks', 'signing'],
  founders: ['platform', 'snapshots', 'partners'],
  dev: ['platform', 'snapshots', 'webhooks', 'signing', 'partners', 'founders'],
};
/** @param {string} folder @param {string[]} below */
const serverFolderRule = (folder, below) => {
  const above = Object.keys(SERVER_FOLDERS).filter((other) => other !== folder && !below.includes(other));
  return {
    regex: `^(\\.\\./)+(${[...above, 'app', 'start', 'cli', 'webhook-receiver'].join('|')})(/|$)`,
    message: `server/${folder} imports only ${below.length > 0 ? below.map((b) => `server/${b}`).join(', ') : 'lib/core'} (and itself): the folders below it (eslint.config.js, SERVER_FOLDERS).`,
  };
};

export const BOUNDARIES = [
  boundary(
    ['lib/core/**'],
    [
      PACKAGES.zod,
      PACKAGES.react,
      PACKAGES.browser,
      PACKAGES.node,
      ...EXTENSION_FOLDERS,
      FOLDERS.coreSchemas,
      FOLDERS.dom,
      FOLDERS.pageWorld,
    ],
  ),
  boundary(['lib/core/schemas/**'], [PACKAGES.react, PACKAGES.browser, PACKAGES.node, ...EXTENSION_FOLDERS]),
  boundary(
    ['lib/dom/**'],
    [
      PACKAGES.zod,
      PACKAGES.react,
      PACKAGES.browser,
      PACKAGES.node,
      ...EXTENSION_FOLDERS,
      FOLDERS.pageWorld,
      { group: lib('core'), message: 'lib/dom imports nothing of the project.' },
    ],
  ),
  boundary(
    ['lib/page-world/**'],
    [
      PACKAGES.zod,
      PACKAGES.react,
      PACKAGES.node,
      { ...PACKAGES.browser, message: "The page's own world has no extension API." },
      FOLDERS.content,
      FOLDERS.background,
      FOLDERS.extension,
      FOLDERS.components,
      { regex: PROTOCOL_BUT_GUARDED, message: 'The page world reads only the zod-free formats of lib/protocol/guarded.' },
      FOLDERS.coreSchemas,
    ],
  ),
  // One rule per bundle (ESLint keeps only the last matching options of a rule, so each lists all of its own).
  boundary(
    ['lib/content/annotator/**', 'entrypoints/annotator.ts'],
    [...CONTENT_SCRIPT, CONTENT_BUNDLES.topFrame, CONTENT_BUNDLES.cardPresenter],
  ),
  boundary(
    ['lib/content/top-frame/**', 'entrypoints/frame-relay.ts'],
    [...CONTENT_SCRIPT, CONTENT_BUNDLES.annotator, CONTENT_BUNDLES.cardPresenter],
  ),
  boundary(
    ['lib/content/card-presenter/**', 'entrypoints/card-presenter.ts'],
    [...CONTENT_SCRIPT, CONTENT_BUNDLES.annotator, CONTENT_BUNDLES.topFrame],
  ),
  boundary(
    ['lib/content/shared/**'],
    [...CONTENT_SCRIPT, CONTENT_BUNDLES.annotator, CONTENT_BUNDLES.topFrame, CONTENT_BUNDLES.cardPresenter],
  ),
  boundary(['lib/content/*.ts'], CONTENT_SCRIPT),
  boundary(
    ['lib/protocol/**'],
    [PACKAGES.react, PACKAGES.node, FOLDERS.content, FOLDERS.background, FOLDERS.extension, FOLDERS.components],
  ),
  boundary(
    ['lib/protocol/guarded/**'],
    [
      { ...PACKAGES.zod, message: 'lib/protocol/guarded is read by the content script and the page world: no zod.' },
      PACKAGES.react,
      PACKAGES.node,
      PACKAGES.browser,
      // lib/content, two folders up (one folder up is lib/protocol/content, whose types it reads).
      { regex: '^(\\.\\./){2}content(/|$)|(^|/)lib/content(/|$)', message: FOLDERS.content.message },
      FOLDERS.background,
      FOLDERS.extension,
      FOLDERS.components,
      { ...FOLDERS.coreSchemas, allowTypeImports: true },
      {
        regex: '^\\.\\./(?!\\.)',
        allowTypeImports: true,
        message: 'lib/protocol/guarded takes only the types of the other protocol modules (they hold zod schemas).',
      },
    ],
  ),
  boundary(
    ['lib/extension/**'],
    [PACKAGES.react, PACKAGES.node, FOLDERS.content, FOLDERS.background, FOLDERS.components, FOLDERS.dom, FOLDERS.pageWorld],
  ),
  boundary(
    ['lib/background/**', 'entrypoints/background.ts'],
    [PACKAGES.react, PACKAGES.node, FOLDERS.content, FOLDERS.components],
  ),
  boundary(
    ['components/**', 'entrypoints/*/main.tsx'],
    [PACKAGES.node, FOLDERS.content, FOLDERS.background, FOLDERS.dom, FOLDERS.pageWorld],
  ),
  // Later entries replace the rule's options for their files: each repeats the components' list.
  ...COMPONENT_FEATURES.map((feature) =>
    boundary(
      [`components/${feature}/**`],
      [
        PACKAGES.node,
        FOLDERS.content,
        FOLDERS.background,
        FOLDERS.dom,
        FOLDERS.pageWorld,
        otherFeatures(feature),
        COMPONENT_PAGES,
      ],
    ),
  ),
  boundary(['server/**'], SERVER),
  ...Object.entries(SERVER_FOLDERS).map(([folder, below]) =>
    boundary([`server/${folder}/**`], [...SERVER, serverFolderRule(folder, below)]),
  ),
];

export default tseslint.config(
  {
    ignores: ['.output/**', '.wxt/**', 'node_modules/**', 'test-results/**', 'bench-results/**', 'coverage/**', 'scratch/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['*.js', 'scripts/*.mjs'] },
        tsconfigRootDir: import.meta.dirname,
      },
      globals: { ...globals.browser, ...globals.node },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-explicit-any': 'error',
      // Off: an \`async\` function without \`await\` still turns a throw into a rejection, which is what
      // callers of a Promise-returning interface (fakes, handlers, stores) rely on.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    files: ['**/*.tsx'],
    ...reactHooks.configs.flat['recommended-latest'],
  },
  {
    files: ['**/*.tsx'],
    ...jsxA11y.flatConfigs.recommended,
    rules: {
      ...jsxA11y.flatConfigs.recommended.rules,
      // A label's text may sit in nested spans (title and hint of a radio choice).
      'jsx-a11y/label-has-associated-control': ['error', { depth: 3 }],
    },
  },
  {
    // scripts/build/compile-out.ts compiles react-dom's dangerouslySetInnerHTML out of the extension (store
    // review rejects HTML written from strings): it would throw at runtime, so it fails here first.
    files: ['components/**/*.tsx', 'entrypoints/**/*.tsx'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "JSXAttribute[name.name='dangerouslySetInnerHTML']",
          message: 'dangerouslySetInnerHTML is compiled out of the extension (scripts/build/compile-out.ts): render text.',
        },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  ...BOUNDARIES,
  prettier,
);
