/** Reports elements coming near the viewport, so their badges are drawn only then (see `Badge.draw`). */
export interface VisibilityWatcher {
  observe(element: Element): void;
  unobserve(element: Element): void;
  disconnect(): void;
}

export type VisibilityWatcherFactory = (onVisible: (element: Element) => void) => VisibilityWatcher;

/** Near the viewport: within half a viewport above or below it. Null where there is no IntersectionObserver (tests). */
export function intersectionWatcher(doc: Document): VisibilityWatcherFactory | null {
  const Observer = doc.defaultView?.IntersectionObserver;
  if (!Observer) return null;
  return (onVisible) =>
    new Observer(
      (entries) => {
        for (const entry of entries) if (entry.isIntersecting) onVisible(entry.target);
      },
      { rootMargin: '50% 0px' },
    );
}
