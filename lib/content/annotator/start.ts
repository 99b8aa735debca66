import { browser } from 'wxt/browser';
import { LANGUAGE_ITEM_KEY } from '../../core/i18n/language';
import { changesPageSettings } from '../../core/storage-keys';
import { createLinkRecognizer } from '../../core/links/recognize';
import type { Lifetime } from '../shared/lifetime';
import { createAnnotator, type Annotator } from './annotator';
import { createCard } from './card';
import type { BadgeText } from './badge-view';
import { cardClient, fetchBadgeText, fetchContentSettings, messagingSnapshotClient, type ContentSettings } from './client';
import type { BadgeSnapshotClient, Scheduler } from './types';

export interface StartAnnotatorDeps {
  /**
   * Defaults to asking the background: answered at once (possibly unsettled), or with
   * `waitForPolicy` once the administrator policy is read.
   */
  getSettings?: (options?: { waitForPolicy?: boolean }) => Promise<ContentSettings>;
  /** Defaults to the background's badge strings for the reader's language. */
  getBadgeText?: () => Promise<BadgeText>;
  client?: BadgeSnapshotClient;
  document?: Document;
}

/** How long a batch of DOM work may wait for an idle period on a busy page. */
const BATCH_TIMEOUT_MS = 200;

/** Idle periods for DOM work (with a timeout, so it goes on in a busy or throttled tab), and timers; none runs once the script's lifetime is over. */
function lifetimeScheduler(lifetime: Lifetime): Scheduler {
  return {
    batch(callback) {
      const id = requestIdleCallback(() => lifetime.isAlive() && callback(), { timeout: BATCH_TIMEOUT_MS });
      return () => cancelIdleCallback(id);
    },
    timeout(callback, ms) {
      const timer = setTimeout(() => lifetime.isAlive() && callback(), ms);
      return () => clearTimeout(timer);
    },
    now: () => performance.now(),
  };
}

/**
 * Wires the engine to the extension: settings and snapshots through the background, the card
 * iframe, settings changes, and teardown when the script's lifetime ends.
 * Reusable by a popup-triggered "scan this page" (inject the content script, then call this).
 */
export async function startAnnotator(lifetime: Lifetime, deps: StartAnnotatorDeps = {}): Promise<Annotator | null> {
  const getSettings = deps.getSettings ?? fetchContentSettings;
  const getBadgeText = deps.getBadgeText ?? fetchBadgeText;
  const [settings, text] = await Promise.all([getSettings(), getBadgeText()]);
  if (!lifetime.isAlive()) return null;
  let applied = settings;

  const { signal } = lifetime;
  const annotator = createAnnotator({
    document: deps.document ?? document,
    signal,
    recognizer: createLinkRecognizer(settings.services),
    client: deps.client ?? messagingSnapshotClient,
    createCard: (events) => createCard({ client: cardClient, window, signal }, events),
    scheduler: lifetimeScheduler(lifetime),
    hoverDelayMs: settings.hoverDelayMs,
    text,
  });

  /** New services or hover delay: every link is looked at again (only if something changed). */
  const apply = (next: ContentSettings) => {
    if (!lifetime.isAlive() || sameSettings(applied, next)) return;
    applied = next;
    annotator.rescan({ recognizer: createLinkRecognizer(next.services), hoverDelayMs: next.hoverDelayMs });
  };
  // Just after browser start the policy read can take seconds: the page was annotated from the last
  // policy seen. Once the read is done the page asks again (the user's settings may have changed
  // meanwhile too) and its badges are corrected if anything differs.
  if (!settings.settled) {
    void getSettings({ waitForPolicy: true }).then(apply, () => undefined);
  }

  // Services or hover delay edited in the options page, or a new administrator policy.
  const onStorageChanged = (changes: Record<string, unknown>, area: string) => {
    if (area !== 'local') return;
    // The language chosen in the options page: the badges are worded again.
    if (LANGUAGE_ITEM_KEY in changes) {
      void getBadgeText().then(
        (next) => {
          if (lifetime.isAlive()) annotator.setText(next);
        },
        () => undefined,
      );
    }
    if (changesPageSettings(changes, area)) void getSettings().then(apply, () => undefined);
  };
  browser.storage.onChanged.addListener(onStorageChanged);
  signal.addEventListener('abort', () => browser.storage.onChanged.removeListener(onStorageChanged), { once: true });
  return annotator;
}

function sameSettings(a: ContentSettings, b: ContentSettings): boolean {
  return a.hoverDelayMs === b.hoverDelayMs && JSON.stringify(a.services) === JSON.stringify(b.services);
}
