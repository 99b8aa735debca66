import type { WatchlistTranslator } from '../../core/i18n/watchlist';
import { DISPLAY_NAME_MAX, displayText } from '../../core/display-text';
import { describeChange } from '../../core/watchlist/describe';
import type { WatchDigestEntry } from './watchlist';

/**
 * The watchlist's browser notifications: one digest per refresh round, in the reader's language, and
 * what a click on it opens.
 *
 * Opening the watchlist from a click: Chrome's `sidePanel.open()` must run in response to a user
 * gesture, and Chrome documents action clicks, context menus, commands and clicks in extension pages
 * as gestures, not notification clicks. So the click handler calls `sidePanel.open()` first, before
 * anything is awaited, and when Chrome refuses it, opens the side panel page in a tab instead
 * (`sidepanel.html#watchlist`). Firefox's `sidebarAction.open()` is only allowed from its listed user
 * actions, which do not include notification clicks: there it is always a tab. Either way the page is
 * told which company to show through storage.session (lib/extension/watchlist-signals.ts).
 */

export const NOTIFICATION_PREFIX = 'compliance-lens-watchlist:';
/** The id of a digest about several companies: it opens the watchlist at the top. */
const ALL = 'all';
const MAX_LINES = 4;

export interface Digest {
  id: string;
  title: string;
  message: string;
}

export function buildDigest(i18n: WatchlistTranslator, entries: readonly WatchDigestEntry[], now: number): Digest | null {
  const { t } = i18n;
  const [first] = entries;
  if (!first) return null;
  // Founders write the names: cleaned of bidi and control characters, and cut to a readable title.
  const name = (entry: WatchDigestEntry) => displayText(entry.watch.company ?? entry.watch.origin, { max: DISPLAY_NAME_MAX });
  if (entries.length === 1) {
    const lines = first.changes.slice(0, MAX_LINES).map((change) => describeChange(i18n, change, now));
    const more = first.changes.length - lines.length;
    if (more > 0) lines.push(t('watch.notify.more', { count: more }));
    return { id: NOTIFICATION_PREFIX + first.watch.id, title: name(first), message: lines.join('\n') };
  }
  const lines = entries
    .slice(0, MAX_LINES)
    .map((entry) => t('watch.notify.line', { company: name(entry), change: describeChange(i18n, entry.changes[0]!, now) }));
  const more =
    entries.slice(MAX_LINES).reduce((sum, entry) => sum + entry.changes.length, 0) +
    entries.slice(0, MAX_LINES).reduce((sum, entry) => sum + entry.changes.length - 1, 0);
  if (more > 0) lines.push(t('watch.notify.more', { count: more }));
  return {
    id: NOTIFICATION_PREFIX + ALL,
    title: t('watch.notify.manyTitle', { count: entries.length }),
    message: lines.join('\n'),
  };
}

/** The watch a notification is about: an id, null for "the whole list", undefined when it is not ours. */
export function watchIdOfNotification(notificationId: string): string | null | undefined {
  if (!notificationId.startsWith(NOTIFICATION_PREFIX)) return undefined;
  const rest = notificationId.slice(NOTIFICATION_PREFIX.length);
  return rest === ALL ? null : rest;
}

export interface NotificationsLike {
  create(id: string, options: { type: 'basic'; iconUrl: string; title: string; message: string }): Promise<string>;
  clear(id: string): Promise<boolean>;
}

export function createNotifier(deps: {
  notifications: NotificationsLike;
  iconUrl: string;
  translator: () => Promise<WatchlistTranslator>;
  now?: () => number;
}) {
  return async (entries: readonly WatchDigestEntry[]): Promise<void> => {
    const digest = buildDigest(await deps.translator(), entries, (deps.now ?? Date.now)());
    if (!digest) return;
    await deps.notifications.create(digest.id, {
      type: 'basic',
      iconUrl: deps.iconUrl,
      title: digest.title,
      message: digest.message,
    });
  };
}

export interface OpenWatchlistDeps {
  /** Chrome's `sidePanel`; undefined on Firefox (a tab is opened instead, see above). */
  sidePanel?: { open(options: { windowId: number }): Promise<void> };
  /** The window to open the side panel in (Chrome: `windows.WINDOW_ID_CURRENT`). */
  windowId: number;
  openTab: (url: string) => Promise<unknown>;
  /** `runtime.getURL('/sidepanel.html')`. */
  pageUrl: string;
  requestFocus: (watchId: string | null) => Promise<void>;
  clear: (notificationId: string) => Promise<unknown>;
}

/** A click on one of our notifications: the watchlist, at that company. Returns false for others'. */
export function onNotificationClicked(notificationId: string, deps: OpenWatchlistDeps): boolean {
  const watchId = watchIdOfNotification(notificationId);
  if (watchId === undefined) return false;
  // Called first, with nothing awaited before it, so a user gesture (where the browser grants one) holds.
  const opened = deps.sidePanel
    ? deps.sidePanel.open({ windowId: deps.windowId }).then(
        () => true,
        () => false,
      )
    : Promise.resolve(false);
  void deps.requestFocus(watchId).catch(() => undefined);
  void opened.then((inPanel) => (inPanel ? undefined : deps.openTab(`${deps.pageUrl}#watchlist`))).catch(() => undefined);
  void deps.clear(notificationId).catch(() => undefined);
  return true;
}
