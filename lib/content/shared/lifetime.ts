import { extensionApi } from './messaging';

/**
 * How long a content script runs in a document, as one AbortSignal for all its parts (the style of
 * refined-github's features). It ends when a newer copy of the same script starts in this document
 * (the background injected it again, or the extension was updated and injected a fresh copy beside
 * the orphaned one), or when the extension's context is gone, which `isAlive` finds out (a message or
 * a timer asks; nothing tells a content script that its extension went away).
 *
 * WXT's ContentScriptContext does the same and more (a location watcher, a logger, timers), and
 * announces each start to the page with a window message naming the extension's id: it took ~1.1 KB
 * gzip of each bundle's budget (docs/design-changes.md).
 */
export interface Lifetime {
  readonly signal: AbortSignal;
  /** False once the lifetime ended; ends it when the extension's context is gone. */
  isAlive(): boolean;
}

export function startLifetime(name: string, doc: Document = document): Lifetime {
  const controller = new AbortController();
  const { signal } = controller;
  // The event's name holds the extension's id, which the page does not know (Chrome gives the card a
  // per-session URL): a page cannot end a script by guessing it.
  const started = `${extensionApi().runtime.id}:${name}:started`;
  doc.dispatchEvent(new CustomEvent(started));
  doc.addEventListener(started, () => controller.abort(), { signal });
  return {
    signal,
    isAlive() {
      if (!signal.aborted && !extensionAlive()) controller.abort();
      return !signal.aborted;
    },
  };
}

/** Whether this script's extension is still there (updated, disabled or removed: its context goes). */
function extensionAlive(): boolean {
  try {
    return Boolean(extensionApi().runtime.id);
  } catch {
    return false;
  }
}
