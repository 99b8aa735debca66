/**
 * The import boundaries of docs/architecture.md, as eslint.config.js enforces them: each rule is
 * shown to bite on a deliberate violation, and to let through what the layer may import.
 */
import path from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { BOUNDARIES } from '../../eslint.config.js';

const root = path.resolve(import.meta.dirname, '../..');
// Only the boundary rules, on files that need not exist: type-aware rules play no part here.
const eslint = new ESLint({
  cwd: root,
  overrideConfigFile: true,
  overrideConfig: [{ files: ['**/*.ts', '**/*.tsx'], languageOptions: { parser: tseslint.parser } }, ...BOUNDARIES],
});

async function violations(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return (result?.messages ?? []).map((message) => `${message.ruleId ?? 'parse'}: ${message.message}`);
}

describe('import boundaries (eslint.config.js BOUNDARIES)', () => {
  it.each([
    ['the shared core imports no browser API', 'lib/core/new.ts', "import { browser } from 'wxt/browser';"],
    ['the shared core imports no zod outside lib/core/schemas', 'lib/core/new.ts', "import { z } from 'zod';"],
    ['the shared core imports no Node API', 'lib/core/new.ts', "import { readFileSync } from 'node:fs';"],
    [
      'the shared core imports no Node-only package (http-message-signatures needs node:crypto and Buffer)',
      'lib/core/signing/new.ts',
      "import { httpbis } from 'http-message-signatures';",
    ],
    ['the shared core imports nothing of the background', 'lib/core/new.ts', "import { x } from '../background/messages';"],
    ['the content script imports no zod', 'lib/content/new.ts', "import { z } from 'zod';"],
    ['the content script imports no React', 'lib/content/new.ts', "import { useState } from 'react';"],
    [
      'the content script imports no messaging library (it speaks the wire format itself)',
      'lib/content/new.ts',
      "import { defineExtensionMessaging } from '@webext-core/messaging';",
    ],
    [
      'the content script imports no core schema',
      'lib/content/new.ts',
      "import { badgeSummarySchema } from '../core/schemas/results';",
    ],
    [
      'the content script imports protocol modules for their types only',
      'lib/content/new.ts',
      "import { contentProtocol } from '../protocol/content';",
    ],
    [
      'the content script does not reach the protocol index',
      'lib/content/new.ts',
      "import { backgroundClient } from '../protocol';",
    ],
    [
      'the content script imports nothing of the background',
      'lib/content/new.ts',
      "import { createSnapshotService } from '../background';",
    ],
    [
      'the content script reads no extension storage',
      'lib/content/new.ts',
      "import { createSettingsStore } from '../extension/settings';",
    ],
    ['the content entrypoint imports no zod', 'entrypoints/annotator.ts', "import { z } from 'zod';"],
    [
      'the server reaches only the shared core: not the background',
      'server/new.ts',
      "import { x } from '../lib/background/messages';",
    ],
    ['the server reaches only the shared core: not the protocols', 'server/new.ts', "import { x } from '../lib/protocol/pages';"],
    ['the server reaches only the shared core: not extension storage', 'server/new.ts', "import { x } from '../lib/extension';"],
    ['the server imports no browser API', 'server/new.ts', "import { browser } from 'wxt/browser';"],
    [
      'the server uses no @/ alias (its vitest project does not know it)',
      'server/new.ts',
      "import { TOKEN_PATTERN } from '@/lib/core/token';",
    ],
    [
      'components never import background code',
      'components/New.tsx',
      "import { createSnapshotService } from '@/lib/background/snapshot-service';",
    ],
    [
      'components never import the background index',
      'components/New.tsx',
      "import { registerMessageHandlers } from '@/lib/background';",
    ],
    [
      'components never import the content script',
      'components/New.tsx',
      "import { startAnnotator } from '@/lib/content/annotator';",
    ],
    [
      'the background never imports React components',
      'lib/background/new.ts',
      "import { HoverCard } from '@/components/HoverCard';",
    ],
    [
      'the background never imports the content script',
      'lib/background/new.ts',
      "import { startAnnotator } from '../content/annotator/start';",
    ],
    ['protocol modules import no background code', 'lib/protocol/new.ts', "import { x } from '../background/serve';"],
    ['the guarded wire formats stay zod-free', 'lib/protocol/guarded/new.ts', "import { z } from 'zod';"],
    [
      'the guarded wire formats take only the types of the other protocol modules',
      'lib/protocol/guarded/new.ts',
      "import { contentProtocol } from '../content';",
    ],
    [
      "the annotator does not import the top frame's relay",
      'lib/content/annotator/new.ts',
      "import { hostFrameCards } from '../top-frame/card-host';",
    ],
    [
      "the top frame's relay does not import the annotator",
      'lib/content/top-frame/new.ts',
      "import { createAnnotator } from '../annotator/annotator';",
    ],
    ['what both bundles share imports neither', 'lib/content/shared/new.ts', "import { startAnnotator } from '../annotator';"],
    [
      'the relay entrypoint does not import the annotator',
      'entrypoints/frame-relay.ts',
      "import { startAnnotator } from '@/lib/content/annotator';",
    ],
    ['the relay bundle imports no zod either', 'lib/content/top-frame/new.ts', "import { z } from 'zod';"],
    [
      'the page world does not import zod-speaking protocol modules',
      'lib/page-world/new.ts',
      "import { contentProtocol } from '../protocol/content';",
    ],
    [
      'the server reaches only the shared core: not the guarded wire formats',
      'server/new.ts',
      "import { CARD_EVENTS } from '../lib/protocol/guarded/card';",
    ],
    ['the server reaches only the shared core: not lib/dom', 'server/new.ts', "import { ANCHOR_SELECTOR } from '../lib/dom';"],
    ['lib/dom imports nothing of the project (not even the core)', 'lib/dom/new.ts', "import { x } from '../core/token';"],
    ['the page world has no extension API', 'lib/page-world/new.ts', "import { browser } from 'wxt/browser';"],
    ['the page world imports nothing of the content script', 'lib/page-world/new.ts', "import { x } from '../content/start';"],
    ['the page world imports no zod', 'lib/page-world/new.ts', "import { z } from 'zod';"],
    [
      'the content script does not import the page world (a separate bundle)',
      'lib/content/new.ts',
      "import { reportFrameLinks } from '../page-world/link-report';",
    ],
    ['the shared core imports no DOM helper', 'lib/core/new.ts', "import { ANCHOR_SELECTOR } from '../dom';"],
    [
      'a components/ feature does not import another (page-links → watchlist)',
      'components/page-links/New.tsx',
      "import { WatchToggle } from '../watchlist/WatchToggle';",
    ],
    [
      'a components/ feature does not import another (watchlist → page-links, through the alias)',
      'components/watchlist/New.tsx',
      "import { usePageLinkRows } from '@/components/page-links/queries';",
    ],
    [
      'a components/ feature does not import a page (pages compose features)',
      'components/watchlist/New.tsx',
      "import { PopupApp } from '../popup/PopupApp';",
    ],
    [
      'a components/ feature still imports no background code',
      'components/watchlist/New.tsx',
      "import { createSnapshotService } from '@/lib/background/snapshot-service';",
    ],
    [
      'server folders do not import upward: the platform knows no domain',
      'server/platform/http/new.ts',
      "import { buildSnapshot } from '../../snapshots/snapshot';",
    ],
    [
      'server folders do not import upward: webhook delivery knows nothing of follows',
      'server/webhooks/new.ts',
      "import { recordExpiries } from '../partners/events/record';",
    ],
    [
      'server folders do not import upward: partners hear of founders, not the other way',
      'server/partners/events/new.ts',
      "import { updateOrganisation } from '../../founders/organisations';",
    ],
    ['a server folder never imports the app that composes it', 'server/founders/new.ts', "import { createApp } from '../app';"],
    [
      'a server folder imports no folder it does not sit on (founders → webhooks)',
      'server/founders/new.ts',
      "import { enqueueMessages } from '../webhooks/outbox';",
    ],
  ])('%s', async (_rule, file, code) => {
    const found = await violations(file, code);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^no-restricted-imports: /);
  });

  it.each([
    ['the content script: the zod-free core', 'lib/content/new.ts', "import { TOKEN_PATTERN } from '../core/token';"],
    [
      'the content script: protocol types',
      'lib/content/new.ts',
      "import type { ContentProtocolMap } from '../protocol/content';",
    ],
    [
      'the content script: the zod-free wire formats and their guards',
      'lib/content/annotator/new.ts',
      "import { parseCardFrameMessage } from '../../protocol/guarded/card-frame';\nimport { toShowCard } from '../../protocol/guarded/content-answers';",
    ],
    [
      'the content script: its own folder, what both bundles share, and the browser',
      'lib/content/annotator/new.ts',
      "import { browser } from 'wxt/browser';\nimport { startAnnotator } from './start';\nimport { createCardView } from '../shared/card-view';",
    ],
    [
      'the relay: what both bundles share',
      'lib/content/top-frame/new.ts',
      "import { createCardView } from '../shared/card-view';",
    ],
    [
      'the guarded wire formats: the core, and the types of the other protocol modules',
      'lib/protocol/guarded/new.ts',
      "import { isRecord } from '../../core/guards';\nimport type { ShowCard } from '../content';",
    ],
    [
      "the shared core's verifier: structured-headers and the core",
      'lib/core/signing/new.ts',
      "import { parseDictionary } from 'structured-headers';\nimport { SIGNATURE_TAG } from './wire';\nimport { isRecord } from '../guards';",
    ],
    [
      'the server: the shared core and its schemas',
      'server/new.ts',
      "import { TOKEN_PATTERN } from '../lib/core/token';\nimport { snapshotSuccessEnvelopeSchema } from '../lib/core/schemas/snapshot';",
    ],
    [
      'a server folder: the folders below it and its own',
      'server/partners/events/new.ts',
      "import { enqueueMessages } from '../../webhooks/outbox';\nimport { buildSnapshot } from '../../snapshots/snapshot';\nimport { newId } from '../../platform/tokens';\nimport { followChanges } from './changes';",
    ],
    [
      'the files that compose the server: every folder',
      'server/new.ts',
      "import { devRoutes } from './dev/routes';\nimport { founderRoutes } from './founders/routes';\nimport { WebhookDispatcher } from './webhooks/dispatcher';",
    ],
    [
      'the background: protocols, extension storage, zod',
      'lib/background/new.ts',
      "import { z } from 'zod';\nimport { pagesProtocol } from '../protocol/pages';\nimport { createSettingsStore } from '../extension';",
    ],
    [
      'components: protocols, extension storage, the core',
      'components/New.tsx',
      "import { backgroundClient } from '@/lib/protocol/pages';\nimport { createSettingsStore } from '@/lib/extension/settings';\nimport { formatDateTime } from '@/lib/core/format';",
    ],
    [
      'the page world: the core, lib/dom and the guarded wire formats',
      'lib/page-world/new.ts',
      "import { FRAME_LINKS_SIGNAL } from '../protocol/guarded/frame-signals';\nimport { ANCHOR_SELECTOR } from '../dom';\nimport { TOKEN_PATTERN } from '../core/token';",
    ],
    [
      'the background: the page world (it hands its functions to scripting.executeScript)',
      'lib/background/new.ts',
      "import { reportFrameLinks } from '../page-world/link-report';",
    ],
    ['the content script: lib/dom', 'lib/content/new.ts', "import { ANCHOR_SELECTOR } from '../dom';"],
    ['core schemas: zod', 'lib/core/schemas/new.ts', "import { z } from 'zod';\nimport { TOKEN_PATTERN } from '../token';"],
    [
      'a components/ feature: the shared components, its own folder, lib/core/watchlist and the page-links protocol',
      'components/watchlist/New.tsx',
      "import { StatePanel } from '../StatePanel';\nimport { sortWatches } from './rows';\nimport { describeCadence } from '@/lib/core/watchlist/describe';\nimport type { PageLink } from '@/lib/protocol/page-links';",
    ],
    [
      'a page: every feature',
      'components/popup/New.tsx',
      "import { WatchToggle } from '../watchlist/WatchToggle';\nimport { SnapshotDetail } from '../page-links/row-parts';",
    ],
  ])('allows %s', async (_what, file, code) => {
    expect(await violations(file, code)).toEqual([]);
  });

  // Lints the whole tree: seconds on a busy machine.
  it('the real tree passes them (the same rules run in npm run lint)', { timeout: 120_000 }, async () => {
    const results = await eslint.lintFiles(['lib', 'components', 'entrypoints', 'server']);
    const found = results.flatMap((result) =>
      result.messages
        .filter((message) => message.ruleId === 'no-restricted-imports')
        .map((message) => `${path.relative(root, result.filePath)}: ${message.message}`),
    );
    expect(found).toEqual([]);
  });
});
