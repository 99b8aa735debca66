// @vitest-environment happy-dom
/**
 * startAnnotator's settings: a page opened while the browser's first read of the administrator policy
 * is pending is annotated at once from the settings known then, and corrected when the settled
 * settings arrive; later changes (user settings, a new policy) make it look again.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { fetchPageStart, type ContentSettings } from '@/lib/content/annotator/client';
import { PAGE_SETTINGS_COPY_KEY } from '@/lib/core/storage-keys';
import { startAnnotator } from '@/lib/content/annotator/start';
import type { BadgeSnapshotClient, SnapshotRequest } from '@/lib/content/annotator/types';
import type { Lifetime } from '@/lib/content/shared/lifetime';
import type { ServiceConfig } from '@/lib/core/services';
import { EN_TEXT, FR_TEXT } from './badge-text';
import { badges, SERVICE, shareUrl } from './helpers';

const OTHER: ServiceConfig = { ...SERVICE, id: 'other', origin: 'https://other.example' };
const settings = (services: ServiceConfig[], settled: boolean): ContentSettings => ({ services, hoverDelayMs: 400, settled });
const client: BadgeSnapshotClient = { peekMany: async (requests) => requests.map(() => null), listenChanges: () => undefined };

let lifetime: Lifetime;
let end: () => void;
beforeEach(() => {
  // happy-dom has no idle callbacks; Chrome and Firefox, where the content script runs, both do.
  vi.stubGlobal('requestIdleCallback', (callback: () => void) => setTimeout(callback, 0));
  vi.stubGlobal('cancelIdleCallback', (id: ReturnType<typeof setTimeout>) => clearTimeout(id));
  fakeBrowser.reset();
  const controller = new AbortController();
  lifetime = { signal: controller.signal, isAlive: () => !controller.signal.aborted };
  end = () => controller.abort();
  document.body.innerHTML = `<p><a id="a" href="${shareUrl(0)}">ours</a> <a id="b" href="https://other.example/share/${'B'.repeat(43)}">other</a></p>`;
});
afterEach(() => {
  end();
  vi.unstubAllGlobals();
});

const badgedIds = () => badges().map((badge) => badge.previousElementSibling?.id);

describe('startAnnotator settings', () => {
  it('annotates from unsettled settings at once, then asks again once the policy is read, and corrects its badges', async () => {
    let settle: () => void = () => undefined;
    const policyRead = new Promise<void>((resolve) => (settle = resolve));
    // The administrator's policy replaces the user's services with another one: the settled answer,
    // asked for with `waitForPolicy`, comes once the policy is read.
    const getSettings = vi.fn(async (options?: { waitForPolicy?: boolean }) => {
      if (!options?.waitForPolicy) return settings([SERVICE], false);
      await policyRead;
      return settings([OTHER], true);
    });
    await startAnnotator(lifetime, { getSettings, getBadgeText: async () => EN_TEXT, client });
    await vi.waitFor(() => expect(badgedIds()).toEqual(['a']));
    expect(getSettings).toHaveBeenCalledTimes(2);
    expect(getSettings).toHaveBeenLastCalledWith({ waitForPolicy: true });

    settle();
    await vi.waitFor(() => expect(badgedIds()).toEqual(['b']));
  });

  it('settled settings at start: no second request', async () => {
    const getSettings = vi.fn(async () => settings([SERVICE], true));
    await startAnnotator(lifetime, { getSettings, getBadgeText: async () => EN_TEXT, client });
    await vi.waitFor(() => expect(badgedIds()).toEqual(['a']));
    expect(getSettings).toHaveBeenCalledTimes(1);
  });

  it('a new copy of the page settings in storage makes it look again, with those settings; other keys do not', async () => {
    const getSettings = vi.fn(async () => settings([SERVICE], true));
    await startAnnotator(lifetime, { getSettings, getBadgeText: async () => EN_TEXT, client });
    await vi.waitFor(() => expect(badgedIds()).toEqual(['a']));
    expect(getSettings).toHaveBeenCalledTimes(1);

    await fakeBrowser.storage.local.set({ unrelated: 1, settings: { version: 2 }, lastManagedPolicy: {} });
    await fakeBrowser.storage.local.set({ [PAGE_SETTINGS_COPY_KEY]: 'not settings' });
    expect(badgedIds()).toEqual(['a']);

    await fakeBrowser.storage.local.set({ [PAGE_SETTINGS_COPY_KEY]: settings([SERVICE, OTHER], true) });
    await vi.waitFor(() => expect(badgedIds()).toEqual(['a', 'b']));
    await fakeBrowser.storage.local.set({ [PAGE_SETTINGS_COPY_KEY]: settings([OTHER], true) });
    await vi.waitFor(() => expect(badgedIds()).toEqual(['b']));
    // The copy carries the settings: the background is not asked.
    expect(getSettings).toHaveBeenCalledTimes(1);
  });

  it('takes its settings from the copy in storage when there is one, without asking the background', async () => {
    vi.stubGlobal('chrome', fakeBrowser);
    await fakeBrowser.storage.local.set({ [PAGE_SETTINGS_COPY_KEY]: { ...settings([OTHER], true), text: EN_TEXT } });
    expect((await fetchPageStart()).settings).toEqual(settings([OTHER], true));
    // A copy that is not one: the background is asked (here, where none answers, that fails).
    await fakeBrowser.storage.local.set({ [PAGE_SETTINGS_COPY_KEY]: { services: 'nope' } });
    await expect(fetchPageStart()).rejects.toThrow();
  });

  it('takes the badge words from the same copy; an older copy without them is not one: the background is asked', async () => {
    vi.stubGlobal('chrome', fakeBrowser);
    await fakeBrowser.storage.local.set({ [PAGE_SETTINGS_COPY_KEY]: { ...settings([OTHER], true), text: FR_TEXT } });
    expect((await fetchPageStart()).text).toEqual(FR_TEXT);
    await fakeBrowser.storage.local.set({ [PAGE_SETTINGS_COPY_KEY]: settings([OTHER], true) });
    const messages = vi.spyOn(fakeBrowser.runtime, 'sendMessage');
    // Asked for (here, where none answers, that fails).
    await expect(fetchPageStart()).rejects.toThrow();
    expect(messages).toHaveBeenCalledWith(expect.objectContaining({ type: 'getPageSettings' }));
  });

  it('starts from one read of the copy, settings and words together, and sends the background no message', async () => {
    vi.stubGlobal('chrome', fakeBrowser);
    await fakeBrowser.storage.local.set({ [PAGE_SETTINGS_COPY_KEY]: { ...settings([SERVICE], true), text: EN_TEXT } });
    const reads = vi.spyOn(fakeBrowser.storage.local, 'get');
    reads.mockClear();
    const messages = vi.spyOn(fakeBrowser.runtime, 'sendMessage');
    messages.mockClear();
    const annotator = await startAnnotator(lifetime, { client });
    const setText = vi.spyOn(annotator!, 'setText');
    await vi.waitFor(() => expect(badgedIds()).toEqual(['a']));
    expect(reads).toHaveBeenCalledTimes(1);
    expect(messages).not.toHaveBeenCalled();
    // The words came with it (before the spy, at start): a later copy with the same words draws nothing again.
    expect(setText).not.toHaveBeenCalled();
  });

  it('a new copy with other words rewords the badges, without asking the background; the language key alone does nothing', async () => {
    const getBadgeText = vi.fn(async () => EN_TEXT);
    const annotator = await startAnnotator(lifetime, {
      getSettings: async () => settings([SERVICE], true),
      getBadgeText,
      client,
    });
    const setText = vi.spyOn(annotator!, 'setText');
    await fakeBrowser.storage.local.set({ language: 'fr' });
    expect(setText).not.toHaveBeenCalled();
    await fakeBrowser.storage.local.set({ [PAGE_SETTINGS_COPY_KEY]: { ...settings([SERVICE], true), text: FR_TEXT } });
    await vi.waitFor(() => expect(setText).toHaveBeenCalledWith(FR_TEXT));
    expect(getBadgeText).toHaveBeenCalledTimes(1);
  });

  it('annotates (takes every badge’s room) before the badge words and stylesheet come', async () => {
    const getBadgeText = () => new Promise<typeof EN_TEXT>(() => undefined);
    await startAnnotator(lifetime, { getSettings: async () => settings([SERVICE], true), getBadgeText, client });
    expect(badgedIds()).toEqual(['a']);
  });

  describe('before the settings come (issue #32: the room before the first paint, however slow the read)', () => {
    /** Settings that come when the test says. */
    function slowSettings() {
      let give: (value: ContentSettings) => void = () => undefined;
      let fail: (error: Error) => void = () => undefined;
      const read = new Promise<ContentSettings>((resolve, reject) => {
        give = resolve;
        fail = reject;
      });
      return { getSettings: () => read, give, fail };
    }

    it('badges every share-shaped link at once, whatever its origin, and asks the background nothing for them', async () => {
      document.body.insertAdjacentHTML(
        'beforeend',
        `<p><a id="c" href="https://elsewhere.example/docs/${'C'.repeat(43)}">not the path</a>
        <a id="d" href="https://elsewhere.example/share/short">no token</a></p>`,
      );
      const { getSettings } = slowSettings();
      const peekMany = vi.fn((requests: SnapshotRequest[]) => client.peekMany(requests));
      void startAnnotator(lifetime, { getSettings, getBadgeText: async () => EN_TEXT, client: { ...client, peekMany } });
      expect(badgedIds()).toEqual(['a', 'b']);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(peekMany).not.toHaveBeenCalled();
    });

    it('when the settings come: the configured link keeps the very badge it had (nothing moves), the other loses its own, and only the configured one is peeked', async () => {
      const { getSettings, give } = slowSettings();
      const peekMany = vi.fn((requests: SnapshotRequest[]) => client.peekMany(requests));
      const started = startAnnotator(lifetime, {
        getSettings,
        getBadgeText: async () => EN_TEXT,
        client: { ...client, peekMany },
      });
      const ours = document.querySelector('#a')?.nextElementSibling;
      expect(ours?.localName).toBe('compliance-lens-badge');

      give(settings([SERVICE], true));
      await started;
      // At once, not in an idle period: the settings may come before the first paint.
      expect(badgedIds()).toEqual(['a']);
      expect(document.querySelector('#a')?.nextElementSibling).toBe(ours);
      await vi.waitFor(() => expect(peekMany).toHaveBeenCalled());
      const asked = peekMany.mock.calls.flatMap(([requests]) => requests.map((request) => request.origin));
      expect(asked).toEqual([SERVICE.origin]);
    });

    it('a copy of the settings written while the first read is on its way (a service just added) is the one applied', async () => {
      const { getSettings, give } = slowSettings();
      const started = startAnnotator(lifetime, { getSettings, getBadgeText: async () => EN_TEXT, client });
      await fakeBrowser.storage.local.set({ [PAGE_SETTINGS_COPY_KEY]: settings([SERVICE, OTHER], true) });
      // The read answers what the copy held before that write.
      give(settings([SERVICE], true));
      await started;
      expect(badgedIds()).toEqual(['a', 'b']);
    });

    it('settings that never come: the guessed badges go, and the page is left as it was', async () => {
      const { getSettings, fail } = slowSettings();
      const started = startAnnotator(lifetime, { getSettings, getBadgeText: async () => EN_TEXT, client });
      expect(badgedIds()).toEqual(['a', 'b']);
      fail(new Error('no settings'));
      await expect(started).rejects.toThrow('no settings');
      expect(badgedIds()).toEqual([]);
    });
  });
});
