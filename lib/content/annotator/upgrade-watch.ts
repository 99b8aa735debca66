import type { Scheduler } from './types';

/** Custom elements followed at most: a page that never defines its tags costs a bounded check. */
const MAX_WAITING = 256;
const FIRST_LOOK_MS = 250;
/** The badge and card hosts: plain elements with a custom element's name, never defined. */
const OWN_TAG_PREFIX = 'compliance-lens-';
const LAST_LOOK_EVERY_MS = 8_000;

export interface UpgradeWatcher {
  /** Notes `element` if it is a custom element not defined yet. */
  note: (element: Element) => void;
}

/**
 * A custom element parsed before its definition gets its shadow root when the page defines it,
 * which no mutation record tells (the usual web-component page: tags in the HTML, definitions in a
 * script after them). Such elements are looked at again at DOMContentLoaded and load, and on a timer
 * that slows down while they stay undefined; not on every DOM change (on a page of 5,000 links that
 * left a long task after parsing in 3 of 14 loads).
 */
export function watchUpgrades(
  doc: Document,
  scheduler: Scheduler,
  signal: AbortSignal,
  onShadowRoot: (shadow: ShadowRoot) => void,
  onFound: () => void,
): UpgradeWatcher {
  const waiting = new Set<Element>();
  let cancelLook: (() => void) | null = null;
  let lookEveryMs = FIRST_LOOK_MS;

  function check(): boolean {
    let found = false;
    for (const element of waiting) {
      const shadow = element.shadowRoot;
      if (shadow) {
        onShadowRoot(shadow);
        found = true;
      }
      if (shadow || !element.isConnected || element.matches(':defined')) waiting.delete(element);
    }
    return found;
  }

  function lookLater(): void {
    cancelLook?.();
    cancelLook = waiting.size === 0 || signal.aborted ? null : scheduler.timeout(look, lookEveryMs);
  }
  function look(): void {
    cancelLook = null;
    if (check()) onFound();
    lookEveryMs = Math.min(lookEveryMs * 2, LAST_LOOK_EVERY_MS);
    lookLater();
  }

  const onLoaded = () => check() && onFound();
  doc.addEventListener('DOMContentLoaded', onLoaded, { signal });
  doc.defaultView?.addEventListener('load', onLoaded, { signal });
  signal.addEventListener('abort', () => cancelLook?.(), { once: true });

  return {
    note(element) {
      const name = element.localName;
      // Only a custom element's name has a hyphen (a built-in is always defined); ours are never defined.
      if (!name.includes('-') || name.startsWith(OWN_TAG_PREFIX) || waiting.size >= MAX_WAITING || element.matches(':defined'))
        return;
      waiting.add(element);
      lookEveryMs = FIRST_LOOK_MS;
      if (!cancelLook) lookLater();
    },
  };
}
