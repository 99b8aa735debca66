/**
 * The slice of `browser.storage.{session,local}` the service uses. Injected so tests can hand in
 * `fakeBrowser.storage.session` and a "restarted worker" is just a new service over the same area.
 */
export interface StorageAreaAdapter {
  get(keys: string[]): Promise<Record<string, unknown>>;
  set(items: Record<string, unknown>): Promise<void>;
  remove(keys: string[]): Promise<void>;
}
