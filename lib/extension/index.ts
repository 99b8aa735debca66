/**
 * lib/extension: extension storage and permissions, for the background and extension pages (the
 * content script never reads them: it asks the background), with no React and no Node API.
 */
export { getLanguagePreference, setLanguagePreference } from './language-preference';
export { hasServicePermission, hostPermissionPattern } from './permissions';
export { createSettingsStore, type SettingsStore } from './settings';
export { createWatchSettingsStore, type WatchSettingsStore } from './watch-settings';
export {
  markWatchlistChanged,
  requestWatchlistFocus,
  takeWatchlistFocus,
  watchWatchlistChanges,
  watchWatchlistFocus,
  type WatchlistFocus,
} from './watchlist-signals';
