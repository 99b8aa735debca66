import { browser } from 'wxt/browser';
import { PAGE_SETTINGS_COPY_KEY } from '../../core/storage-keys';
import { createLinkRecognizer } from '../../core/links/recognize';
import type { Lifetime } from '../shared/lifetime';
import { createAnnotator, type Annotator } from './annotator';
import { createLazyCard } from './card';
import type { BadgeText } from './badge-view';
import { toContentSettings } from '../../protocol/guarded/content-answers';
import {
  copiedBadgeText,
  fetchPageStart,
  loadCardPresenter,
  messagingSnapshotClient,
  type ContentSettings,
  type PageStart,
} from './client';
import type { AnchorRecognizer, BadgeSnapshotClient, Scheduler } from './types';
import { shareShapedLinks } from './share-shape';
import { HOVER_DELAY_MS } from '../../core/limits';

export interface StartAnnotatorDeps {
  /**
   * Defaults to the background's copy, else asking the background: answered at once (possibly
   * unsettled), or with `waitForPolicy` once the administrator policy is read.
   */
  getSettings?: (options?: { waitForPolicy?: boolean }) => Promise<ContentSettings>;
  /** Defaults to the badge strings of the reader's language that come with the settings (`fetchPageStart`). */
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
    frame(callback) {
      const id = requestAnimationFrame(() => lifetime.isAlive() && callback());
      return () => cancelAnimationFrame(id);
    },
    timeout(callback, ms) {
      const timer = setTimeout(() => lifetime.isAlive() && callback(), ms);
      return () => clearTimeout(timer);
    },
    now: () => performance.now(),
  };
}

/** Before the background sent the badge's words and stylesheet (a few milliseconds): room taken, nothing drawn. */
const NO_WORDS: BadgeText = { locale: 'en', strings: {}, style: '' };

/** Recognises nothing: an annotator whose settings never came lets its links go. */
const NO_LINKS: AnchorRecognizer = { recognizeAnchor: () => null, candidateSelector: () => null };

/**
 * Wires the engine to the extension: settings and snapshots through the background, the card
 * iframe, settings changes, and teardown when the script's lifetime ends. It starts with the page
 * (`document_start`) and annotates at once the links shaped like share links (share-shape.ts), so
 * each badge takes its room before the page is first painted however long the settings take; when
 * they come, the known services' recognizer keeps the share links and lets the others go. Cache peeks
 * wait for the settings and ask only about known services.
 * Reusable by a popup-triggered "scan this page" (inject the content script, then call this).
 */
export async function startAnnotator(lifetime: Lifetime, deps: StartAnnotatorDeps = {}): Promise<Annotator | null> {
  // One read of the background's copy (or one message) gives both the settings and the badge's words.
  let start: Promise<PageStart> | undefined;
  const pageStart = () => (start ??= fetchPageStart());
  const getSettings = deps.getSettings ?? (async (options) => (await (options ? fetchPageStart(options) : pageStart())).settings);
  const settingsRead = getSettings();
  const words = deps.getBadgeText?.() ?? pageStart().then(({ text }) => text);
  // A frame before the settings come: the links parsed by then were painted without their badges.
  // Started in a document already parsed (a frame the background injects once it holds a share link),
  // its links were painted before this script came.
  let rendered = (deps.document ?? document).readyState !== 'loading';
  requestAnimationFrame(() => (rendered = true));
  let applied: ContentSettings | null = null;
  /** A copy of the settings written while the first read was on its way: newer than what it may answer. */
  let written: ContentSettings | null = null;
  const base = deps.client ?? messagingSnapshotClient;
  const client: BadgeSnapshotClient = {
    async peekMany(requests) {
      const current: ContentSettings = applied ?? (await settingsRead.then((read): ContentSettings => written ?? read));
      const { services } = current;
      const known = requests.map((request) => services.some(({ origin }) => origin === request.origin));
      const answers = await base.peekMany(requests.filter((_, index) => known[index]));
      return known.map((isKnown) => (isKnown ? (answers.shift() ?? null) : null));
    },
    listenChanges: (onChange, signal) => base.listenChanges(onChange, signal),
  };

  const { signal } = lifetime;
  const annotator = createAnnotator({
    document: deps.document ?? document,
    signal,
    recognizer: shareShapedLinks,
    client,
    createCard: (events) => createLazyCard({ load: loadCardPresenter, window, signal }, events),
    scheduler: lifetimeScheduler(lifetime),
    hoverDelayMs: HOVER_DELAY_MS.default,
    text: NO_WORDS,
    rendered: () => rendered,
  });
  words.then(
    (text) => {
      if (text && lifetime.isAlive()) annotator.setText(text);
    },
    () => undefined,
  );
  /** New services or hover delay: every link is looked at again (only if something changed). */
  const apply = (next: ContentSettings) => {
    if (!lifetime.isAlive()) return;
    if (!applied) written = next;
    else if (!sameSettings(applied, next)) {
      applied = next;
      annotator.rescan({ recognizer: createLinkRecognizer(next.services), hoverDelayMs: next.hoverDelayMs });
    }
  };
  // Services or hover delay edited in the options page, or a new administrator policy. Listened to
  // before the first read: a copy the background writes while that read is on its way (a service just
  // added) would otherwise be missed for good.
  const onStorageChanged = (changes: Record<string, unknown>, area: string) => {
    if (area !== 'local' || !(PAGE_SETTINGS_COPY_KEY in changes)) return;
    const next: unknown = Reflect.get(Object(changes[PAGE_SETTINGS_COPY_KEY]), 'newValue');
    // The language chosen in the options page: the background words the copy again, and the badges with it.
    const text = copiedBadgeText(next);
    if (text && lifetime.isAlive()) annotator.setText(text);
    const settings = toContentSettings(next);
    if (settings) apply(settings);
  };
  browser.storage.onChanged.addListener(onStorageChanged);
  signal.addEventListener('abort', () => browser.storage.onChanged.removeListener(onStorageChanged), { once: true });

  let settings: ContentSettings;
  try {
    settings = await settingsRead;
  } catch (error) {
    annotator.rescan({ recognizer: NO_LINKS });
    throw error;
  }
  if (!lifetime.isAlive()) return null;
  applied = written ?? settings;
  annotator.rescan({ recognizer: createLinkRecognizer(applied.services), hoverDelayMs: applied.hoverDelayMs });

  // Just after browser start the policy read can take seconds: the page was annotated from the last
  // policy seen. Once the read is done the page asks again (the user's settings may have changed
  // meanwhile too) and its badges are corrected if anything differs.
  if (!settings.settled) {
    void getSettings({ waitForPolicy: true }).then(apply, () => undefined);
  }
  return annotator;
}

function sameSettings(a: ContentSettings, b: ContentSettings): boolean {
  return a.hoverDelayMs === b.hoverDelayMs && JSON.stringify(a.services) === JSON.stringify(b.services);
}
