/** Reports elements coming near the viewport, so their badges are drawn only then (see `Badge.draw`). */
export interface VisibilityWatcher {
  observe(element: Element): void;
  unobserve(element: Element): void;
  disconnect(): void;
}

export type VisibilityWatcherFactory = (onVisible: (element: Element) => void) => VisibilityWatcher;

/**
 * Near the viewport: within half a viewport above or below it. Null where there is no IntersectionObserver (tests).
 * Reported in the next animation frame, before its paint: drawing reads the page's colours, which in the
 * observer's own task forced the style of all the parser had added since (up to 120 ms on the page of
 * 5,000 links); in the frame the browser brings it up to date anyway.
 */
export function intersectionWatcher(doc: Document): VisibilityWatcherFactory | null {
  const view = doc.defaultView;
  const Observer = view?.IntersectionObserver;
  if (!view || !Observer) return null;
  return (onVisible) => {
    let near: Element[] = [];
    const report = () => {
      const now = near;
      near = [];
      now.forEach(onVisible);
    };
    return new Observer(
      (entries) => {
        for (const entry of entries)
          if (entry.isIntersecting && near.push(entry.target) === 1) view.requestAnimationFrame(report);
      },
      { rootMargin: '50% 0px' },
    );
  };
}
