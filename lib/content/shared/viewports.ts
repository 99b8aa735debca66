/**
 * Calls `changed` at most once per animation frame while any of `windows` (those between a link and
 * its card) scrolls or resizes, until `signal` aborts.
 */
export function watchViewports(windows: readonly Window[], changed: () => void, signal: AbortSignal): void {
  let frame = 0;
  const onChange = () => {
    if (frame === 0) frame = requestAnimationFrame(() => ((frame = 0), changed()));
  };
  for (const win of windows) {
    win.addEventListener('scroll', onChange, { capture: true, passive: true, signal });
    win.addEventListener('resize', onChange, { passive: true, signal });
  }
}
