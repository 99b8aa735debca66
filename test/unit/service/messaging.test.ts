import { defineExtensionMessaging } from '@webext-core/messaging';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { ForbiddenSenderError, InvalidMessageError, createMessageHandlers, registerMessageHandlers } from '@/lib/background/messages';
import { protocolSchemas, type ProtocolMap } from '@/lib/protocol/pages';
import { TabRequestLog, senderContext } from '@/lib/background/sender';
import { createSettingsStore } from '@/lib/extension/settings';
import { FIXTURE_TOKEN, fixtureToken } from '@/test/fixtures/snapshot';
import { ORIGIN, createHarness } from './helpers';
import { badgeTextFor } from '@/lib/core/i18n/badge';

const EXTENSION_ORIGIN = 'chrome-extension://test-extension-id';
const popupSender = { id: 'test-extension-id', url: `${EXTENSION_ORIGIN}/popup.html` };
const contentScriptSender = { id: 'test-extension-id', url: 'https://mail.example.com/inbox', tab: { id: 7, url: 'https://mail.example.com/inbox' }, frameId: 0 };

function setup() {
  const harness = createHarness();
  const tabLog = new TabRequestLog(fakeBrowser.storage.session, harness.clock.now);
  const handlers = createMessageHandlers({
    service: harness.service,
    getSettings: () => createSettingsStore().getEffectiveSettings(),
    getPageSettings: () => createSettingsStore().getPageSettings(),
    getBadgeText: async () => badgeTextFor('fr', undefined),
    extensionOrigin: EXTENSION_ORIGIN,
    tabLog,
  });
  return { ...harness, handlers, tabLog };
}

beforeEach(() => {
  fakeBrowser.reset();
});

describe('handlers validate their inputs', () => {
  const malformed: [string, unknown][] = [
    ['undefined', undefined],
    ['null', null],
    ['a string', 'http://localhost:8787/api/v1/compliance-status/x'],
    ['a number', 42],
    ['missing token', { origin: ORIGIN }],
    ['token not a string', { origin: ORIGIN, token: { toString: 'x' } }],
    ['origin not a string', { origin: ['http://localhost:8787'], token: FIXTURE_TOKEN }],
    ['huge token', { origin: ORIGIN, token: 'a'.repeat(5000) }],
  ];

  it.each(malformed)('getSnapshot / refreshSnapshot / peekSnapshot / getBadge reject %s with InvalidMessageError, no fetch', async (_name, data) => {
    const { handlers, fetch } = setup();
    await expect(handlers.getSnapshot(data, popupSender)).rejects.toBeInstanceOf(InvalidMessageError);
    await expect(handlers.refreshSnapshot(data, popupSender)).rejects.toBeInstanceOf(InvalidMessageError);
    await expect(handlers.peekSnapshot(data, popupSender)).rejects.toBeInstanceOf(InvalidMessageError);
    await expect(handlers.getBadge(data, contentScriptSender)).rejects.toBeInstanceOf(InvalidMessageError);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('says which field is wrong', async () => {
    const { handlers } = setup();
    await expect(handlers.getSnapshot({ origin: ORIGIN }, popupSender)).rejects.toThrow(/token/);
    await expect(handlers.getBadge({ origin: ORIGIN }, contentScriptSender)).rejects.toThrow(/token/);
  });

  it('clearCache rejects a bad area', async () => {
    const { handlers } = setup();
    await expect(handlers.clearCache({ area: 'everything' }, popupSender)).rejects.toBeInstanceOf(InvalidMessageError);
  });

  it('getBadgeText gives a content script the badge strings of the chosen language, and takes no payload', async () => {
    const { handlers } = setup();
    const text = protocolSchemas.getBadgeText.output.parse(await handlers.getBadgeText(undefined, contentScriptSender));
    expect(text.locale).toBe('fr-FR');
    expect(text.strings['badge.error.notFound.text']).toBe(badgeTextFor('fr', undefined).strings['badge.error.notFound.text']);
    expect(text.strings['badge.hint']).toMatch(/Entrée/);
    await expect(handlers.getBadgeText({ language: 'en' }, contentScriptSender)).rejects.toBeInstanceOf(InvalidMessageError);
  });

  it('getSettings, getPageSettings and listCached reject unexpected payloads', async () => {
    const { handlers } = setup();
    await expect(handlers.getSettings({ services: [] }, popupSender)).rejects.toBeInstanceOf(InvalidMessageError);
    await expect(handlers.getPageSettings({ settled: true }, contentScriptSender)).rejects.toBeInstanceOf(InvalidMessageError);
    await expect(handlers.listCached('all', popupSender)).rejects.toBeInstanceOf(InvalidMessageError);
  });

  it('a well-formed message for an unconfigured origin gets FORBIDDEN_ORIGIN and no fetch', async () => {
    const { handlers, fetch } = setup();
    const result = await handlers.getBadge({ origin: 'https://localhost:8787.evil.com', token: FIXTURE_TOKEN }, contentScriptSender);
    expect(protocolSchemas.getBadge.output.parse(result)).toEqual({ status: 'error', code: 'FORBIDDEN_ORIGIN' });
    expect(fetch).not.toHaveBeenCalled();
  });

  it('answers valid messages with results that parse with the exported schemas', async () => {
    const { handlers } = setup();
    expect(protocolSchemas.getSnapshot.output.parse(await handlers.getSnapshot({ origin: ORIGIN, token: FIXTURE_TOKEN }, popupSender))).toMatchObject({ status: 'ready' });
    expect(protocolSchemas.peekSnapshot.output.parse(await handlers.peekSnapshot({ origin: ORIGIN, token: FIXTURE_TOKEN }, popupSender))).toMatchObject({ fromCache: true });
    // A content script learns what its badge shows, and nothing else of the snapshot.
    expect(await handlers.getBadge({ origin: ORIGIN, token: FIXTURE_TOKEN }, contentScriptSender)).toEqual(
      protocolSchemas.getBadge.output.parse({ status: 'ready', score: 68, label: 'In Progress', band: 'medium' }),
    );
    expect(protocolSchemas.getSettings.output.parse(await handlers.getSettings(undefined, contentScriptSender)).fetchMode).toBe('intent');
    expect(protocolSchemas.getPageSettings.output.parse(await handlers.getPageSettings(undefined, contentScriptSender)).fetchMode).toBe('intent');
    expect(protocolSchemas.listCached.output.parse(await handlers.listCached(undefined, popupSender))).toHaveLength(1);
    expect(protocolSchemas.clearCache.output.parse(await handlers.clearCache(undefined, popupSender))).toEqual({ cleared: 1 });
  });
});

describe('senders', () => {
  it('full snapshots are for extension pages only: a content script gets a badge summary, never the snapshot', async () => {
    const { handlers, fetch } = setup();
    const request = { origin: ORIGIN, token: FIXTURE_TOKEN };
    await expect(handlers.getSnapshot(request, contentScriptSender)).rejects.toBeInstanceOf(ForbiddenSenderError);
    await expect(handlers.refreshSnapshot(request, contentScriptSender)).rejects.toBeInstanceOf(ForbiddenSenderError);
    await expect(handlers.peekSnapshot(request, contentScriptSender)).rejects.toBeInstanceOf(ForbiddenSenderError);
    await expect(handlers.getSnapshot(request, {})).rejects.toBeInstanceOf(ForbiddenSenderError);
    expect(fetch).not.toHaveBeenCalled();
    const badge = await handlers.getBadge(request, contentScriptSender);
    expect(Object.keys(badge).sort()).toEqual(['band', 'label', 'score', 'status']);
    expect(JSON.stringify(badge)).not.toContain('disclaimer');
  });

  it('listCached and clearCache are for extension pages only', async () => {
    const { handlers } = setup();
    await expect(handlers.listCached(undefined, contentScriptSender)).rejects.toBeInstanceOf(ForbiddenSenderError);
    await expect(handlers.clearCache(undefined, contentScriptSender)).rejects.toBeInstanceOf(ForbiddenSenderError);
    await expect(handlers.listCached(undefined, {})).rejects.toBeInstanceOf(ForbiddenSenderError);
    // A page URL that merely contains the extension origin is not an extension page.
    await expect(
      handlers.listCached(undefined, { url: `https://evil.example/${EXTENSION_ORIGIN}/popup.html`, tab: { id: 1 } }),
    ).rejects.toBeInstanceOf(ForbiddenSenderError);
  });

  it('classifies senders', () => {
    expect(senderContext(popupSender, EXTENSION_ORIGIN)).toEqual({ kind: 'extension-page' });
    expect(senderContext(contentScriptSender, EXTENSION_ORIGIN)).toEqual({ kind: 'content-script', tabId: 7, frameId: 0 });
    expect(senderContext({ url: `${EXTENSION_ORIGIN}/card.html`, tab: { id: 3 }, frameId: 2 }, EXTENSION_ORIGIN)).toEqual({
      kind: 'extension-page',
      tabId: 3,
      frameId: 2,
    });
    expect(senderContext('garbage', EXTENSION_ORIGIN)).toEqual({ kind: 'unknown' });
    expect(senderContext({ url: `${EXTENSION_ORIGIN}.evil.com/x`, tab: { id: 1 } }, EXTENSION_ORIGIN).kind).toBe('content-script');
  });

  it('records which tab asked for which token, but not forged origins or bad tokens', async () => {
    const { handlers, tabLog } = setup();
    await handlers.getBadge({ origin: ORIGIN, token: FIXTURE_TOKEN }, contentScriptSender);
    await handlers.getBadge({ origin: 'https://evil.example', token: FIXTURE_TOKEN }, contentScriptSender);
    await handlers.getBadge({ origin: ORIGIN, token: '../x' }, contentScriptSender);
    await handlers.getSnapshot({ origin: ORIGIN, token: FIXTURE_TOKEN }, popupSender);
    await handlers.getSnapshot({ origin: ORIGIN, token: fixtureToken(9) }, { url: `${EXTENSION_ORIGIN}/popup.html`, tab: { id: 7 } });
    expect(await tabLog.recent(7)).toEqual([{ origin: ORIGIN, token: FIXTURE_TOKEN, frameId: 0, at: expect.any(Number) }]);
    await tabLog.forgetTab(7);
    expect(await tabLog.recent(7)).toEqual([]);
  });
});

describe('over the runtime messaging channel', () => {
  const messenger = defineExtensionMessaging<ProtocolMap>();
  let unregister: () => void = () => undefined;
  afterEach(() => unregister());

  it('a garbage message gets a typed error back, not a crash; a valid one gets a result', async () => {
    const { service, fetch } = createHarness();
    unregister = registerMessageHandlers(
      {
        service,
        getSettings: () => createSettingsStore().getEffectiveSettings(),
        getPageSettings: () => createSettingsStore().getPageSettings(),
        getBadgeText: async () => badgeTextFor('en', undefined),
        extensionOrigin: EXTENSION_ORIGIN,
      },
      messenger,
    );
    // A hostile sender speaks the wire format directly, bypassing the compile-time protocol types.
    const forged = await fakeBrowser.runtime.sendMessage({ id: 1, type: 'getSnapshot', data: { origin: 42 }, timestamp: Date.now() });
    expect(forged).toMatchObject({ err: { name: 'InvalidMessageError' } });
    // Not the messaging format at all: ignored, nothing thrown.
    await expect(fakeBrowser.runtime.sendMessage('hello')).resolves.toBeUndefined();
    expect(fetch).not.toHaveBeenCalled();

    const result = await messenger.sendMessage('getBadge', { origin: ORIGIN, token: FIXTURE_TOKEN });
    expect(protocolSchemas.getBadge.output.parse(result)).toMatchObject({ status: 'ready' });
  });
});
