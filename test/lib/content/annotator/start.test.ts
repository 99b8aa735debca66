// @vitest-environment happy-dom
/**
 * startAnnotator's settings: a page opened while the browser's first read of the administrator policy
 * is pending is annotated at once from the settings known then, and corrected when the settled
 * settings arrive; later changes (user settings, a new policy) make it look again.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import type { ContentSettings } from '@/lib/content/annotator/client';
import { startAnnotator } from '@/lib/content/annotator/start';
import type { BadgeSnapshotClient } from '@/lib/content/annotator/types';
import type { Lifetime } from '@/lib/content/shared/lifetime';
import type { ServiceConfig } from '@/lib/core/services';
import { EN_TEXT } from './badge-text';
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

  it('a new policy copy or new user settings in storage make it look again; other keys do not', async () => {
    const getSettings = vi.fn(async () => settings([SERVICE], true));
    await startAnnotator(lifetime, { getSettings, getBadgeText: async () => EN_TEXT, client });
    await vi.waitFor(() => expect(badgedIds()).toEqual(['a']));
    expect(getSettings).toHaveBeenCalledTimes(1);

    await fakeBrowser.storage.local.set({ unrelated: 1 });
    expect(getSettings).toHaveBeenCalledTimes(1);

    getSettings.mockResolvedValue(settings([SERVICE, OTHER], true));
    await fakeBrowser.storage.local.set({ lastManagedPolicy: { services: [] } });
    await vi.waitFor(() => expect(badgedIds()).toEqual(['a', 'b']));
    expect(getSettings).toHaveBeenCalledTimes(2);

    getSettings.mockResolvedValue(settings([OTHER], true));
    await fakeBrowser.storage.local.set({ settings: { version: 2 } });
    await vi.waitFor(() => expect(badgedIds()).toEqual(['b']));
  });
});
