import { useEffect, useRef, useState } from 'react';
import { useCardI18n } from './card-i18n';

/** The foot of the scrolling part fades while more is below (a mask: what it holds keeps its colours). */
const FADE = 'linear-gradient(to bottom, #000 calc(100% - 18px), transparent)';
export const FADE_AT_FOOT = { maskImage: FADE, WebkitMaskImage: FADE } as const;

/**
 * Whether the scrolling part holds more than shows (it scrolls only where the card is height-limited),
 * and more below what shows.
 */
export function useScrollCue() {
  const scrollRef = useRef<HTMLDivElement>(null);
  const bodyRef = useRef<HTMLDivElement>(null);
  const [overflows, setOverflows] = useState(false);
  const [moreBelow, setMoreBelow] = useState(false);
  useEffect(() => {
    const element = scrollRef.current;
    if (!element) return;
    const check = () => {
      setOverflows(element.scrollHeight > element.clientHeight + 4);
      setMoreBelow(element.scrollTop + element.clientHeight < element.scrollHeight - 4);
    };
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(check);
    observer?.observe(element);
    if (bodyRef.current) observer?.observe(bodyRef.current);
    element.addEventListener('scroll', check, { passive: true });
    check();
    return () => {
      observer?.disconnect();
      element.removeEventListener('scroll', check);
    };
  }, []);
  return { scrollRef, bodyRef, overflows, moreBelow };
}

/**
 * What scrolls says so, in a line of its own between the part that scrolls and the disclaimer: over
 * nothing (issue #33 item 2). The line stays while the part scrolls, so it never jumps.
 */
export function ScrollCue({ overflows, moreBelow }: { overflows: boolean; moreBelow: boolean }) {
  const { t } = useCardI18n();
  if (!overflows) return null;
  return (
    <p aria-hidden="true" data-card-scroll-cue className="-mt-1.5 mb-1 flex h-3 justify-center text-[10px] leading-3 font-medium">
      {moreBelow && (
        <span className="rounded-full bg-white px-2 text-slate-700 ring-1 ring-slate-300 dark:bg-slate-900 dark:text-slate-200 dark:ring-slate-600">
          {t('snapshot.moreBelow')} ↓
        </span>
      )}
    </p>
  );
}
