import { useEffect, useLayoutEffect, useRef, type ReactNode } from 'react';
import { CARD_MAX_HEIGHT } from '@/lib/protocol/guarded/card';
import { CARD_HOVER_REPEAT_MS } from '@/lib/protocol/guarded/card-frame';
import { useCardI18n } from './card-i18n';

/**
 * A card that shows a snapshot tells the page that frames it its height in steps of this many pixels
 * (the frame grows to the step; the card's body fills it): the page learns roughly how tall the card
 * is, not how long the snapshot's texts are to the pixel (docs/security.md). A card without a
 * snapshot (loading, an error, Load) tells its height exactly: it says nothing the link's badge does
 * not already show the page, and a card is as tall as its content (issue #33 item 7).
 */
export const CARD_HEIGHT_STEP = 40;

interface CardFrameProps {
  onClose: (reason: 'escape' | 'button') => void;
  /** null until the card has something to show: the content script keeps the frame hidden until it is told a size. */
  onResize: ((size: { width: number; height: number }) => void) | null;
  /** The pointer entered or left the card (the framing page cannot see inside the iframe). */
  onHover: (inside: boolean) => void;
  children: ReactNode;
}

/**
 * The height the card needs, whatever the frame gives it now: its box's padding and border, and its
 * content at full length (what its scrolling part hides included).
 * The frame is as tall as it was told, so the card's own box cannot tell; the content can.
 */
function naturalHeight(card: HTMLElement, content: HTMLElement, scroll: HTMLElement | null): number {
  const style = getComputedStyle(card);
  const frame =
    parseFloat(style.paddingTop) +
    parseFloat(style.paddingBottom) +
    parseFloat(style.borderTopWidth) +
    parseFloat(style.borderBottomWidth);
  if (!scroll) {
    // The content's own extent: its box grows with the frame.
    const parts = [...content.children].map((child) => child.getBoundingClientRect());
    const extent =
      parts.length === 0 ? 0 : Math.max(...parts.map((part) => part.bottom)) - Math.min(...parts.map((part) => part.top));
    return frame + extent;
  }
  const hidden = Math.max(0, scroll.scrollHeight - scroll.clientHeight);
  // The body's own height, not the scroller's: the scroller also holds the frame's slack (below).
  const body = scroll.querySelector<HTMLElement>('[data-card-body]');
  const slack = body ? Math.max(0, scroll.clientHeight - body.offsetHeight) : 0;
  return frame + content.scrollHeight + hidden - (hidden > 0 ? 0 : slack);
}

/** The card's box: its size told to the framing page, Escape, focus and the pointer. */
export function CardFrame({ onClose, onResize, onHover, children }: CardFrameProps) {
  const { t } = useCardI18n();
  const root = useRef<HTMLElement>(null);
  const content = useRef<HTMLDivElement>(null);
  /**
   * The height told last, and the one the card keeps after a press inside it until the pointer leaves
   * (issue #33 item 3): a shorter answer (Refresh on a revoked link) must not shrink the card out from
   * under a still pointer, which would close it on the reader who just paid a view for it.
   */
  const told = useRef(0);
  const held = useRef(0);
  const reportSize = useRef<(() => void) | null>(null);

  useLayoutEffect(() => {
    const card = root.current;
    const inner = content.current;
    if (!card || !inner || !onResize) return;
    const report = () => {
      const scroll = inner.querySelector<HTMLElement>('[data-card-scroll]');
      const step = scroll ? CARD_HEIGHT_STEP : 1;
      const needed = Math.min(Math.ceil(naturalHeight(card, inner, scroll) / step) * step, CARD_MAX_HEIGHT);
      told.current = Math.max(needed, held.current);
      onResize({ width: card.offsetWidth, height: told.current });
    };
    reportSize.current = report;
    const observer = new ResizeObserver(report);
    // The content's box grows with the frame: what is in it tells when the card's height changes.
    for (const part of [inner, ...inner.children, inner.querySelector('[data-card-body]')]) if (part) observer.observe(part);
    report();
    return () => observer.disconnect();
  }, [onResize, children]);

  useEffect(() => {
    // Closed when Escape is released, not pressed: the frame goes with the card, and a key's release
    // sent to a frame that is already gone is lost (Chromium then waits for its answer).
    let escapePressed = false;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') escapePressed = true;
    };
    const onKeyUp = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && escapePressed) onClose('escape');
    };
    // Opened from the keyboard, the frame gets focus: put it on the card so it is read out.
    const onFocus = () => {
      if (document.activeElement === document.body) root.current?.focus();
    };
    document.addEventListener('keydown', onKeyDown);
    document.addEventListener('keyup', onKeyUp);
    window.addEventListener('focus', onFocus);
    if (document.hasFocus()) onFocus();
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      document.removeEventListener('keyup', onKeyUp);
      window.removeEventListener('focus', onFocus);
    };
  }, [onClose]);

  useEffect(() => {
    let saidAt = Number.NEGATIVE_INFINITY;
    /**
     * Where (on the screen) the pointer was at the last event here. The frame is not always told that
     * the pointer left it, and content redrawn under where it was (Refresh answered after the pointer
     * went) brings a `pointerover` at that old place: only a pointer that moved, or the first one
     * here, is on the card. Else a card left just before it redrew would say "inside" after the page
     * saw the pointer go, and never close.
     */
    let at: { x: number; y: number } | null = null;
    const inside = (event: PointerEvent) => {
      const moved = at === null || at.x !== event.screenX || at.y !== event.screenY;
      at = { x: event.screenX, y: event.screenY };
      if (!moved || event.timeStamp - saidAt < CARD_HOVER_REPEAT_MS) return;
      saidAt = event.timeStamp;
      onHover(true);
    };
    const leave = () => {
      saidAt = Number.NEGATIVE_INFINITY;
      at = null;
      if (held.current > 0) {
        held.current = 0;
        reportSize.current?.();
      }
      onHover(false);
    };
    const press = () => {
      held.current = told.current;
    };
    document.addEventListener('pointerover', inside);
    document.addEventListener('pointermove', inside, { passive: true });
    document.addEventListener('pointerdown', press, { passive: true });
    document.documentElement.addEventListener('pointerleave', leave);
    return () => {
      document.removeEventListener('pointerover', inside);
      document.removeEventListener('pointermove', inside);
      document.removeEventListener('pointerdown', press);
      document.documentElement.removeEventListener('pointerleave', leave);
    };
  }, [onHover]);

  return (
    <main
      ref={root}
      tabIndex={-1}
      aria-label={t('snapshot.card.ariaLabel')}
      // As wide as the frame (the host makes it at most the viewport's width less 16 px), as tall as it too:
      // a snapshot's frame is rounded up to a step, and its body takes the rest (the disclaimer stays last).
      className="box-border flex h-screen max-h-screen w-full flex-col overflow-hidden rounded-xl border border-slate-200 bg-white p-3 outline-none dark:border-slate-700 dark:bg-slate-900"
    >
      <div ref={content} className="flex min-h-0 shrink grow flex-col">
        {children}
      </div>
    </main>
  );
}
