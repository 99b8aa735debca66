import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { CARD_MAX_HEIGHT, CARD_MAX_WIDTH } from '@/lib/core/limits';
import { CARD_HOVER_REPEAT_MS } from '@/lib/protocol/card-frame';
import type { PeekResult, SnapshotRequest, SnapshotResult } from '@/lib/core/schemas/results';
import { primaryButtonClass } from './styles';
import { useI18n } from './i18n';
import { SnapshotCard } from './SnapshotCard';
import { SnapshotError } from './SnapshotError';
import { CardWatchToggle } from './watchlist/WatchToggle';

/** What the card page claims from the background: its link, and whether it may fetch it. */
export interface CardClaim {
  request: SnapshotRequest;
  /** false: a hover beyond the tab's allowance; show the link only if cached, else offer to load it. */
  fetch: boolean;
}

export interface HoverCardProps {
  /** Claims, once, the link the content script bound to this card (never read from the URL). */
  claimBinding: () => Promise<CardClaim | null>;
  getSnapshot: (request: SnapshotRequest) => Promise<SnapshotResult>;
  peekSnapshot: (request: SnapshotRequest) => Promise<PeekResult>;
  refreshSnapshot: (request: SnapshotRequest) => Promise<SnapshotResult>;
  onClose: (reason: 'escape' | 'button') => void;
  onResize: (size: { width: number; height: number }) => void;
  /** The pointer entered or left the card (the framing page cannot see inside the iframe). */
  onHover: (inside: boolean) => void;
}

const bindingKey = ['card', 'binding'] as const;
const snapshotKey = (request: SnapshotRequest | null | undefined) => ['snapshot', request?.origin, request?.token] as const;

/** The hover card's page content: the shared SnapshotCard / SnapshotError with close and refresh. */
export function HoverCard({
  claimBinding,
  getSnapshot,
  peekSnapshot,
  refreshSnapshot,
  onClose,
  onResize,
  onHover,
}: HoverCardProps) {
  const queryClient = useQueryClient();
  const { t } = useI18n();
  const root = useRef<HTMLElement>(null);
  // No retry: a claim succeeds once, a second one gets nothing.
  const binding = useQuery({ queryKey: bindingKey, queryFn: () => claimBinding(), staleTime: Infinity, retry: false });
  const request = binding.data?.request ?? null;
  const mayFetch = binding.data?.fetch ?? false;
  const snapshot = useQuery({
    queryKey: snapshotKey(request),
    queryFn: () => (mayFetch ? getSnapshot(request!) : peekSnapshot(request!)),
    enabled: request !== null,
    staleTime: Infinity,
    retry: false,
  });
  const refresh = useMutation({
    mutationFn: () => refreshSnapshot(request!),
    onSuccess: (result) => queryClient.setQueryData(snapshotKey(request), result),
  });

  const result = snapshot.data;
  useEffect(() => {
    const element = root.current;
    if (!element) return;
    // The frame may be given less height than the card wants (little room above and below the link):
    // the card then fits the frame (max-height 100vh) and only its body scrolls, so the disclaimer
    // stays in view. What it asks for is its natural height: the body's full height, not the part shown.
    const scroll = element.querySelector<HTMLElement>('[data-card-scroll]');
    const body = element.querySelector<HTMLElement>('[data-card-body]');
    const report = () => {
      const hidden = scroll && body ? Math.max(0, body.offsetHeight - scroll.clientHeight) : 0;
      onResize({ width: element.offsetWidth, height: Math.min(element.offsetHeight + hidden, CARD_MAX_HEIGHT) });
    };
    const observer = new ResizeObserver(report);
    observer.observe(element);
    if (body) observer.observe(body);
    report();
    return () => observer.disconnect();
  }, [onResize, result]);

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
      {binding.isPending || (request !== null && snapshot.isPending) ? (
        <p role="status" className="py-6 text-center text-xs text-slate-500 dark:text-slate-400">
          {t('snapshot.card.loading')}
        </p>
      ) : request === null ? (
        <p data-testid="error-message" role="alert" className="py-4 text-center text-xs text-slate-600 dark:text-slate-300">
          {t('snapshot.card.noBinding')}
        </p>
      ) : result === null ? (
        <div data-testid="not-loaded" className="flex flex-col items-start gap-2 py-2">
          <p className="text-sm font-semibold text-slate-900 dark:text-white">{t('snapshot.card.notLoaded.title')}</p>
          <p className="text-xs text-slate-600 dark:text-slate-300">{t('snapshot.card.notLoaded.detail')}</p>
          <button type="button" className={primaryButtonClass} onClick={() => refresh.mutate()} disabled={refresh.isPending}>
            {t('snapshot.card.load')}
          </button>
        </div>
      ) : !result ? (
        <SnapshotError code="NETWORK" onRetry={() => void snapshot.refetch()} />
      ) : result.status === 'ready' ? (
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
      ) : (
        <SnapshotError
          code={result.code}
          message={result.message}
          retryAt={result.retryAt}
          expiredAt={result.expiredAt}
          onRetry={() => refresh.mutate()}
        />
      )}
    </main>
  );
}
