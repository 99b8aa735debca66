import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { SnapshotRequest, SnapshotResult } from '@/lib/core/schemas/results';
import type { CardClaim } from '@/lib/protocol/card';
import { CARD_MAX_HEIGHT, CARD_MAX_WIDTH } from '@/lib/protocol/guarded/card';
import { CARD_HOVER_REPEAT_MS } from '@/lib/protocol/guarded/card-frame';
import { primaryButtonClass } from './styles';
import { I18nProvider, useI18n } from './i18n';
import { SnapshotCard } from './SnapshotCard';
import { SnapshotError } from './SnapshotError';
import { CardWatchToggle } from './watchlist/WatchToggle';

export interface HoverCardProps {
  /**
   * Claims, once, the card the content script opened for this frame (never read from the URL): its
   * link, what to show and the reader's language. Null: nothing to show.
   */
  claim: () => Promise<CardClaim | null>;
  refreshSnapshot: (request: SnapshotRequest) => Promise<SnapshotResult>;
  onClose: (reason: 'escape' | 'button') => void;
  onResize: (size: { width: number; height: number }) => void;
  /** The pointer entered or left the card (the framing page cannot see inside the iframe). */
  onHover: (inside: boolean) => void;
}

/**
 * A card whose claim is still unanswered after this long (a slow network fetch) shows that it is
 * loading; a cached or fast one shows its snapshot at once, without a loading flash.
 */
export const LOADING_SHOWN_AFTER_MS = 250;

type Claimed = { state: 'pending' } | { state: 'done'; claim: CardClaim | null };

/** The hover card's page content: the shared SnapshotCard / SnapshotError with close and refresh. */
export function HoverCard({ claim, refreshSnapshot, onClose, onResize, onHover }: HoverCardProps) {
  const [claimed, setClaimed] = useState<Claimed>({ state: 'pending' });
  const [loadingShown, setLoadingShown] = useState(false);
  useEffect(() => {
    let active = true;
    const timer = setTimeout(() => setLoadingShown(true), LOADING_SHOWN_AFTER_MS);
    void claim()
      .catch(() => null)
      .then((answer) => {
        if (active) setClaimed({ state: 'done', claim: answer });
      });
    return () => {
      active = false;
      clearTimeout(timer);
    };
  }, [claim]);
  const ready = claimed.state === 'done' || loadingShown;
  const body = (
    <CardFrame onClose={onClose} onResize={ready ? onResize : null} onHover={onHover}>
      {claimed.state === 'pending' ? (
        loadingShown && <Loading />
      ) : claimed.claim === null ? (
        <NoCard />
      ) : (
        <ClaimedCard claim={claimed.claim} refreshSnapshot={refreshSnapshot} />
      )}
    </CardFrame>
  );
  // The card speaks the language the background sent with its snapshot (no storage read first).
  return claimed.state === 'done' && claimed.claim ? <I18nProvider language={claimed.claim.language}>{body}</I18nProvider> : body;
}

function Loading() {
  const { t } = useI18n();
  return (
    <p role="status" className="py-6 text-center text-xs text-slate-500 dark:text-slate-400">
      {t('snapshot.card.loading')}
    </p>
  );
}

function NoCard() {
  const { t } = useI18n();
  return (
    <p data-testid="error-message" role="alert" className="py-4 text-center text-xs text-slate-600 dark:text-slate-300">
      {t('snapshot.card.noBinding')}
    </p>
  );
}

function ClaimedCard({ claim, refreshSnapshot }: { claim: CardClaim; refreshSnapshot: HoverCardProps['refreshSnapshot'] }) {
  const { t } = useI18n();
  const { request } = claim;
  const [result, setResult] = useState(claim.result);
  const refresh = useMutation({ mutationFn: () => refreshSnapshot(request), onSuccess: setResult });
  if (result === null) {
    return (
      <div data-testid="not-loaded" className="flex flex-col items-start gap-2 py-2">
        <p className="text-sm font-semibold text-slate-900 dark:text-white">{t('snapshot.card.notLoaded.title')}</p>
        <p className="text-xs text-slate-600 dark:text-slate-300">{t('snapshot.card.notLoaded.detail')}</p>
        <button type="button" className={primaryButtonClass} onClick={() => refresh.mutate()} disabled={refresh.isPending}>
          {t('snapshot.card.load')}
        </button>
      </div>
    );
  }
  if (result.status !== 'ready') {
    return (
      <SnapshotError
        code={result.code}
        message={result.message}
        retryAt={result.retryAt}
        expiredAt={result.expiredAt}
        onRetry={() => refresh.mutate()}
      />
    );
  }
  return (
    <>
      <CardWatchToggle request={request} />
      <SnapshotCard
        snapshot={result.snapshot}
        serviceOrigin={request.origin}
        meta={result.meta}
        fetchedAt={result.fetchedAt}
        fromCache={result.fromCache}
        apiVersionWarning={result.apiVersionWarning}
        onRefresh={() => refresh.mutate()}
        refreshing={refresh.isPending}
      />
    </>
  );
}

interface CardFrameProps {
  onClose: HoverCardProps['onClose'];
  /** null until the card has something to show: the content script keeps the frame hidden until it is told a size. */
  onResize: HoverCardProps['onResize'] | null;
  onHover: HoverCardProps['onHover'];
  children: React.ReactNode;
}

/** The card's box: its close button, its size told to the framing page, Escape, focus and the pointer. */
function CardFrame({ onClose, onResize, onHover, children }: CardFrameProps) {
  const { t } = useI18n();
  const root = useRef<HTMLElement>(null);

  useEffect(() => {
    const element = root.current;
    if (!element || !onResize) return;
    // The frame may be given less height than the card wants (little room above and below the link):
    // the card then fits the frame (max-height 100vh) and only its body scrolls, so the disclaimer
    // stays in view. What it asks for is its natural height: the body's full height, not the part shown.
    const report = () => {
      const scroll = element.querySelector<HTMLElement>('[data-card-scroll]');
      const body = element.querySelector<HTMLElement>('[data-card-body]');
      const hidden = scroll && body ? Math.max(0, body.offsetHeight - scroll.clientHeight) : 0;
      onResize({ width: element.offsetWidth, height: Math.min(element.offsetHeight + hidden, CARD_MAX_HEIGHT) });
    };
    const observer = new ResizeObserver(report);
    observer.observe(element);
    const body = element.querySelector<HTMLElement>('[data-card-body]');
    if (body) observer.observe(body);
    report();
    return () => observer.disconnect();
  }, [onResize, children]);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose('escape');
    };
    // Opened from the keyboard, the frame gets focus: put it on the card so it is read out.
    const onFocus = () => {
      if (document.activeElement === document.body) root.current?.focus();
    };
    document.addEventListener('keydown', onKeyDown);
    window.addEventListener('focus', onFocus);
    if (document.hasFocus()) onFocus();
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      window.removeEventListener('focus', onFocus);
    };
  }, [onClose]);

  useEffect(() => {
    let saidAt = Number.NEGATIVE_INFINITY;
    const inside = (event: PointerEvent) => {
      if (event.timeStamp - saidAt < CARD_HOVER_REPEAT_MS) return;
      saidAt = event.timeStamp;
      onHover(true);
    };
    const leave = () => {
      saidAt = Number.NEGATIVE_INFINITY;
      onHover(false);
    };
    document.addEventListener('pointerover', inside);
    document.addEventListener('pointermove', inside, { passive: true });
    document.documentElement.addEventListener('pointerleave', leave);
    return () => {
      document.removeEventListener('pointerover', inside);
      document.removeEventListener('pointermove', inside);
      document.documentElement.removeEventListener('pointerleave', leave);
    };
  }, [onHover]);

  return (
    <main
      ref={root}
      tabIndex={-1}
      aria-label={t('snapshot.card.ariaLabel')}
      style={{ width: CARD_MAX_WIDTH, maxHeight: `min(${CARD_MAX_HEIGHT}px, 100vh)` }}
      className="box-border flex flex-col gap-2 overflow-hidden rounded-xl border border-slate-200 bg-white p-3 outline-none dark:border-slate-700 dark:bg-slate-900"
    >
      <div className="flex items-center justify-between gap-2">
        <span className="text-[11px] font-semibold tracking-wide text-slate-500 uppercase dark:text-slate-400">
          {t('snapshot.card.brand')}
        </span>
        <button
          type="button"
          aria-label={t('snapshot.card.close')}
          title={t('snapshot.card.closeTitle')}
          onClick={() => onClose('button')}
          className="-m-1 rounded p-1 leading-none text-slate-500 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-sky-600 dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-white"
        >
          <svg aria-hidden="true" viewBox="0 0 16 16" width="14" height="14" fill="none" stroke="currentColor" strokeWidth="1.8">
            <path d="M4 4l8 8M12 4l-8 8" strokeLinecap="round" />
          </svg>
        </button>
      </div>
      {children}
    </main>
  );
}
