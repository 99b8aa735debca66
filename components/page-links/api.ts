import { browser } from 'wxt/browser';
import { MAX_PEEK_BATCH } from '@/lib/core/limits';
import { listPageLinks, watchPageLinks, type PageLink } from '@/lib/protocol/page-links';
import { backgroundClient } from '@/lib/protocol/pages';
import { ANNOTATOR_SCRIPT, FRAME_RELAY_SCRIPT, siteMatchPattern } from '@/lib/extension/content-scripts';
import { createSettingsStore, type SettingsStore } from '@/lib/extension/settings';
import { type EffectiveSettings } from '@/lib/core/schemas/settings';
import type { PeekResult, SnapshotRequest, SnapshotResult } from '@/lib/core/schemas/results';

/**
 * Everything the popup and side panel read and do, behind one interface so component tests can swap
 * the browser (tabs, scripting, permissions, the background worker) for fakes.
 */

/** The tab whose links are listed. `url` is known only where the extension may see it. */
export interface TargetTab {
  tabId: number;
  url?: string;
  title?: string;
}

/** What a tab offers: its links, or why there are none to list. */
export type PageScan =
  | { status: 'links'; links: PageLink[] }
  /** Browser pages, the extension stores, non-web URLs: extensions may not read them. */
  | { status: 'not-scannable' }
  /** A web page Compliance Lens does not run on (yet): it can be scanned once or enabled. */
  | { status: 'not-running'; host: string | undefined }
  /** Nothing answered and the browser does not show us the tab's address (no access to it at all). */
  | { status: 'no-access' };

export interface PageLinksApi {
  /** null: no tab to look at (e.g. every window is an extension page). */
  resolveTargetTab: () => Promise<TargetTab | null>;
  scanPage: (tab: TargetTab) => Promise<PageScan>;
  /** Called with a tab id when that tab's content script reports a different list. */
  watchPageLinks: (onChange: (tabId: number) => void) => () => void;
  /** Called when the user switches tabs or a tab finishes loading (the side panel follows along). */
  watchTabs: (onChange: (event: { kind: 'activated' } | { kind: 'updated'; tabId: number }) => void) => () => void;
  /** Cache only: free, never a view. */
  peekSnapshot: (request: SnapshotRequest) => Promise<PeekResult>;
  /** Cached while fresh, else one fetch (one view). */
  getSnapshot: (request: SnapshotRequest) => Promise<SnapshotResult>;
  /** Always one fetch (one view). */
  refreshSnapshot: (request: SnapshotRequest) => Promise<SnapshotResult>;
  getSettings: () => Promise<EffectiveSettings>;
  /** Runs the annotator in the tab once (`activeTab` + `scripting`). */
  injectAnnotator: (tabId: number) => Promise<void>;
  /**
   * Asks for host access to `host` on every scheme. It calls the browser before anything is awaited,
   * so call it synchronously from the click handler: browsers only prompt during a user gesture.
   */
  requestSiteAccess: (host: string) => Promise<boolean>;
  /** Adds `host` to the sites the annotator runs on (the background registers it). */
  enableSite: (host: string) => Promise<void>;
  openOptionsPage: () => Promise<void>;
}

/** Pages no extension may script, whatever its permissions. */
const UNSCRIPTABLE_HOSTS = new Set([
  'chromewebstore.google.com',
  'chrome.google.com',
  'addons.mozilla.org',
  'microsoftedge.microsoft.com',
]);

/** Whether a tab's page could be scanned, from its URL (unknown URL: maybe; we try). */
export function isScannableUrl(url: string | undefined): boolean {
  if (url === undefined || url === '') return true;
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return false;
    if (parsed.hostname === 'chrome.google.com') return !parsed.pathname.startsWith('/webstore');
    return !UNSCRIPTABLE_HOSTS.has(parsed.hostname);
  } catch {
    return false;
  }
}

/** The host name of an http(s) address (`withPort`: and its port, as a service is named). */
export function hostOf(url: string | undefined, withPort = false): string | undefined {
  if (url === undefined) return undefined;
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return undefined;
    return withPort ? parsed.host : parsed.hostname;
  } catch {
    return undefined;
  }
}

interface TabLike {
  id?: number;
  url?: string;
  title?: string;
  lastAccessed?: number;
}

function toTarget(tab: TabLike | undefined): TargetTab | null {
  if (tab?.id === undefined) return null;
  return { tabId: tab.id, ...(tab.url ? { url: tab.url } : {}), ...(tab.title ? { title: tab.title } : {}) };
}

/** The part of `browser.tabs` the target resolution needs (a fake in tests). */
export interface TabsApi {
  getCurrent: () => Promise<TabLike | undefined>;
  query: (queryInfo: { active?: boolean; currentWindow?: boolean }) => Promise<TabLike[]>;
}

/**
 * The tab to list. As a popup or side panel (not itself a tab) it is the active tab of the window.
 * Opened as a tab (an extension page in a tab, as end-to-end tests open it), the active tab would be
 * this page itself, so it is the most recently used web tab instead. That is safe: the id only picks
 * which tab's content script is asked for its list; nothing is read from a URL the page controls,
 * and the background re-checks every origin and token it is sent.
 */
export async function resolveTargetTab(tabs: TabsApi, extensionOrigin: string): Promise<TargetTab | null> {
  const self = await tabs.getCurrent();
  if (self === undefined) {
    const [active] = await tabs.query({ active: true, currentWindow: true });
    return toTarget(active);
  }
  const others = (await tabs.query({})).filter((tab) => tab.id !== self.id && !(tab.url ?? '').startsWith(extensionOrigin));
  const isWeb = (tab: TabLike) => /^https?:/.test(tab.url ?? '');
  const recent = (a: TabLike, b: TabLike) => (b.lastAccessed ?? b.id ?? 0) - (a.lastAccessed ?? a.id ?? 0);
  const web = others.filter(isWeb).sort(recent);
  return toTarget(web[0] ?? others.sort(recent)[0]);
}

/** Peeks in batches: one message per microtask's worth of rows instead of one per row. */
export function createPeekBatcher(peekMany: (requests: SnapshotRequest[]) => Promise<PeekResult[]>) {
  let queue: { request: SnapshotRequest; resolve: (result: PeekResult) => void; reject: (error: unknown) => void }[] = [];
  function flush() {
    const batch = queue;
    queue = [];
    for (let start = 0; start < batch.length; start += MAX_PEEK_BATCH) {
      const slice = batch.slice(start, start + MAX_PEEK_BATCH);
      peekMany(slice.map((entry) => entry.request)).then(
        (results) => slice.forEach((entry, index) => entry.resolve(results[index] ?? null)),
        (error: unknown) => slice.forEach((entry) => entry.reject(error)),
      );
    }
  }
  return (request: SnapshotRequest) =>
    new Promise<PeekResult>((resolve, reject) => {
      if (queue.length === 0) queueMicrotask(flush);
      queue.push({ request, resolve, reject });
    });
}

/** What an extension page heard of the content scripts' reports (`pageLinksChanged`). */
export interface FrameReports {
  /** The frames of `tabId` (not its top frame, always asked) that reported links since this page started. */
  framesOf: (tabId: number) => readonly number[];
  /** Calls `onChange(tabId)` for every report from now on. Returns an unsubscribe function. */
  subscribe: (onChange: (tabId: number) => void) => () => void;
}

/**
 * Listens from the moment it is called, before the page's first scan: a report sent while the page
 * opens then reaches the background before the scan's question (which waits for it to be stored), or
 * this page after it began to listen. Asked along with the frames the background remembers.
 */
export function listenToFrameReports(watch: typeof watchPageLinks = watchPageLinks): FrameReports {
  const heard = new Map<number, Set<number>>();
  const listeners = new Set<(tabId: number) => void>();
  watch((tabId, frameId) => {
    if (frameId !== 0) heard.set(tabId, (heard.get(tabId) ?? new Set()).add(frameId));
    for (const onChange of listeners) onChange(tabId);
  });
  return {
    framesOf: (tabId) => [...(heard.get(tabId) ?? [])],
    subscribe(onChange) {
      listeners.add(onChange);
      return () => listeners.delete(onChange);
    },
  };
}

export interface BrowserPageLinksApiDeps {
  settings?: SettingsStore;
}

export function createBrowserPageLinksApi(deps: BrowserPageLinksApiDeps = {}): PageLinksApi {
  const settings = deps.settings ?? createSettingsStore();
  const extensionOrigin = new URL(browser.runtime.getURL('/')).origin;
  const peek = createPeekBatcher(backgroundClient.peekSnapshots);
  const reports = listenToFrameReports();
  return {
    resolveTargetTab: () => resolveTargetTab(browser.tabs, extensionOrigin),
    async scanPage(tab) {
      if (!isScannableUrl(tab.url)) return { status: 'not-scannable' };
      try {
        const remembered = await backgroundClient.listLinkFrames({ tabId: tab.tabId }).catch(() => []);
        const frames = [...new Set([...remembered, ...reports.framesOf(tab.tabId)])];
        return { status: 'links', links: await listPageLinks(tab.tabId, frames) };
      } catch {
        // No content script answered: a page it does not run on, or one still loading.
        return tab.url === undefined ? { status: 'no-access' } : { status: 'not-running', host: hostOf(tab.url) };
      }
    },
    watchPageLinks: (onChange) => reports.subscribe(onChange),
    watchTabs(onChange) {
      const activated = () => onChange({ kind: 'activated' });
      const updated = (tabId: number, change: { status?: string }) => {
        if (change.status === 'complete') onChange({ kind: 'updated', tabId });
      };
      browser.tabs.onActivated.addListener(activated);
      browser.tabs.onUpdated.addListener(updated);
      return () => {
        browser.tabs.onActivated.removeListener(activated);
        browser.tabs.onUpdated.removeListener(updated);
      };
    },
    peekSnapshot: peek,
    getSnapshot: backgroundClient.getSnapshot,
    refreshSnapshot: backgroundClient.refreshSnapshot,
    getSettings: () => backgroundClient.getSettings(),
    async injectAnnotator(tabId) {
      // The relay first: it draws the cards of the page the annotator finds links on.
      await browser.scripting.executeScript({ target: { tabId }, files: [`/${FRAME_RELAY_SCRIPT}`, `/${ANNOTATOR_SCRIPT}`] });
    },
    requestSiteAccess: (host) => browser.permissions.request({ origins: [siteMatchPattern(host)] }),
    async enableSite(host) {
      const current = await settings.getUserSettings();
      if (current.enabledSites.includes(host)) return;
      await settings.updateUserSettings({ enabledSites: [...current.enabledSites, host] });
    },
    openOptionsPage: () => browser.runtime.openOptionsPage(),
  };
}
