import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import type { SnapshotRequest, SnapshotResult } from '@/lib/core/schemas/results';
import type { CardClaim } from '@/lib/protocol/card';
import { CARD_MAX_HEIGHT } from '@/lib/protocol/guarded/card';
import { CARD_HOVER_REPEAT_MS } from '@/lib/protocol/guarded/card-frame';
import { CardI18nProvider, useCardI18n } from './card-i18n';
import { SnapshotCard } from './SnapshotCard';
import { SnapshotError } from './SnapshotError';
import { compactPrimaryButtonClass } from './styles';

export interface HoverCardProps {
  /**
   * Claims the card the content script opened for this frame (never read from the URL): its link,
   * what to show and the reader's language. Null: nothing to show.
   */
  claim: () => Promise<CardClaim | null>;
  refreshSnapshot: (request: SnapshotRequest) => Promise<SnapshotResult>;
  onClose: (reason: 'escape' | 'button') => void;
  onResize: (size: { width: number; height: number }) => void;
  /** The pointer entered or left the card (the framing page cannot see inside the iframe). */
  onHover: (inside: boolean) => void;
  /** The card's watch control for a link (the card page composes it from the watchlist feature). */
  watchControl?: (request: SnapshotRequest) => ReactNode;
}

/**
 * A card whose claim is still unanswered after this long (a slow network fetch) shows that it is
 * loading; a cached or fast one shows its snapshot at once, without a loading flash.
 */
export const LOADING_SHOWN_AFTER_MS = 250;

/**
 * The card tells the page that frames it its height in steps of this many pixels (the frame grows
 * to the step; the card fills it): the page learns roughly how tall the card is, not how long the
 * snapshot's texts are to the pixel (docs/security.md).
 */
export const CARD_HEIGHT_STEP = 40;

type Claimed = { state: 'pending' } | { state: 'done'; claim: CardClaim | null };

/** The hover card's page content: the shared SnapshotCard / SnapshotError with close, refresh and watch. */
export function HoverCard({ claim, refreshSnapshot, onClose, onResize, onHover, watchControl }: HoverCardProps) {
  const [claimed, setClaimed] = useState<Claimed>({ state: 'pending' });
  const [loadingShown, setLoadingShown] = useState(false);
  // Layout effects, here and for the size: an effect waits for the next paint, and a frame hidden until
  // it reports its size gets none soon (measured: the name painted ~50 ms later).
  useLayoutEffect(() => {
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
  const close = <CloseButton onClose={onClose} />;
  const body = (
    <CardFrame onClose={onClose} onResize={ready ? onResize : null} onHover={onHover}>
      {claimed.state === 'pending' ? (
        loadingShown && <Notice actions={close} status={<LoadingText />} />
      ) : claimed.claim === null ? (
        <Notice actions={close} status={<NoCardText />} />
      ) : (
        <ClaimedCard
          claim={claimed.claim}
          refreshSnapshot={refreshSnapshot}
          watch={watchControl?.(claimed.claim.request)}
          close={close}
        />
      )}
    </CardFrame>
  );
  // The card speaks the language the background sent with its snapshot (no storage read first).
  return claimed.state === 'done' && claimed.claim ? (
    <CardI18nProvider language={claimed.claim.language}>{body}</CardI18nProvider>
  ) : (
    body
  );
}

/** A slow answer: the card's shape, greyed, so the snapshot takes its place without the card jumping. */
function LoadingText() {
  const { t } = useCardI18n();
  const bar = 'rounded bg-slate-200 motion-safe:animate-pulse dark:bg-slate-700';
  return (
    <div className="flex flex-col gap-2">
      <p role="status" className="text-xs text-slate-600 dark:text-slate-300">
        {t('snapshot.card.loading')}
      </p>
      <div aria-hidden="true" className="flex flex-col gap-2">
        <div className={`h-4 w-2/3 ${bar}`} />
        <div className="grid grid-cols-2 gap-2">
          <div className={`h-16 ${bar}`} />
          <div className={`h-16 ${bar}`} />
        </div>
        <div className={`h-3 w-5/6 ${bar}`} />
        <div className={`h-3 w-1/2 ${bar}`} />
      </div>
    </div>
  );
}

function NoCardText() {
  const { t } = useCardI18n();
  return (
    <p data-testid="error-message" role="alert" className="text-xs text-slate-700 dark:text-slate-200">
      {t('snapshot.card.noBinding')}
    </p>
  );
}

/** A card without a snapshot (loading, nothing to show, an error): what it says, with the close button beside it. */
function Notice({ status, actions }: { status: ReactNode; actions: ReactNode }) {
  return (
    <div className="flex items-start gap-2">
      <div className="min-w-0 flex-1">{status}</div>
      <div className="-mt-0.5 -mr-1 flex shrink-0 items-center">{actions}</div>
    </div>
  );
}

function CloseButton({ onClose }: { onClose: HoverCardProps['onClose'] }) {
  const { t } = useCardI18n();
  return (
    <button
      type="button"
      aria-label={t('snapshot.card.close')}
      title={t('snapshot.card.closeTitle')}
      onClick={() => onClose('button')}
      className="rounded p-1 leading-none text-slate-600 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-brand dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white"
    >
      <svg aria-hidden="true" viewBox="0 0 16 16" width="14" height="14" fill="none" stroke="currentColor" strokeWidth="1.8">
        <path d="M4 4l8 8M12 4l-8 8" strokeLinecap="round" />
      </svg>
    </button>
  );
}

/** Errors after which watching the link still makes sense: the link may well work on the next try. */
const PASSING_ERRORS: ReadonlySet<string> = new Set(['RATE_LIMITED', 'TIMEOUT', 'NETWORK']);

function ClaimedCard({
  claim,
  refreshSnapshot,
  watch,
  close,
}: {
  claim: CardClaim;
  refreshSnapshot: HoverCardProps['refreshSnapshot'];
  watch: ReactNode;
  close: ReactNode;
}) {
  const { t } = useCardI18n();
  const { request } = claim;
  const [result, setResult] = useState(claim.result);
  const [refreshing, setRefreshing] = useState(false);
  const refresh = () => {
    if (refreshing) return;
    setRefreshing(true);
    void refreshSnapshot(request)
      .then(setResult, () => undefined)
      .finally(() => setRefreshing(false));
  };
  const watchable = result === null || result.status === 'ready' || PASSING_ERRORS.has(result.code);
  const actions = (
    <>
      {watchable && watch}
      {close}
    </>
  );
  if (result === null) {
    return (
      <div data-testid="not-loaded" className="flex flex-col gap-2">
        <Notice
          actions={actions}
          status={<p className="text-sm font-semibold text-slate-900 dark:text-white">{t('snapshot.card.notLoaded.title')}</p>}
        />
        <p className="text-xs text-slate-700 dark:text-slate-200">{t('snapshot.card.notLoaded.detail')}</p>
        <button type="button" className={`self-start ${compactPrimaryButtonClass}`} onClick={refresh} disabled={refreshing}>
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
        withdrawn={result.withdrawn}
        onRetry={refresh}
        headerActions={actions}
      />
    );
  }
  return (
    <SnapshotCard
      snapshot={result.snapshot}
      serviceOrigin={request.origin}
      meta={result.meta}
      fetchedAt={result.fetchedAt}
      fromCache={result.fromCache}
      apiVersionWarning={result.apiVersionWarning}
      onRefresh={refresh}
      refreshing={refreshing}
      headerActions={actions}
    />
  );
}

interface CardFrameProps {
  onClose: HoverCardProps['onClose'];
  /** null until the card has something to show: the content script keeps the frame hidden until it is told a size. */
  onResize: HoverCardProps['onResize'] | null;
  onHover: HoverCardProps['onHover'];
  children: ReactNode;
}

/**
 * The height the card needs, whatever the frame gives it now: its box's padding and border, and its
 * content at full length (what its scrolling part hides included). The frame is as tall as it was
 * told, so the card's own box cannot tell; the content can.
 */
function naturalHeight(card: HTMLElement, content: HTMLElement): number {
  const style = getComputedStyle(card);
  const frame =
    parseFloat(style.paddingTop) +
    parseFloat(style.paddingBottom) +
    parseFloat(style.borderTopWidth) +
    parseFloat(style.borderBottomWidth);
  const scroll = content.querySelector<HTMLElement>('[data-card-scroll]');
  const hidden = scroll ? Math.max(0, scroll.scrollHeight - scroll.clientHeight) : 0;
  return frame + content.scrollHeight + hidden;
}

/** The card's box: its size told to the framing page, Escape, focus and the pointer. */
function CardFrame({ onClose, onResize, onHover, children }: CardFrameProps) {
  const { t } = useCardI18n();
  const root = useRef<HTMLElement>(null);
  const content = useRef<HTMLDivElement>(null);

  useLayoutEffect(() => {
    const card = root.current;
    const inner = content.current;
    if (!card || !inner || !onResize) return;
    const report = () => {
      const height = Math.min(Math.ceil(naturalHeight(card, inner) / CARD_HEIGHT_STEP) * CARD_HEIGHT_STEP, CARD_MAX_HEIGHT);
      onResize({ width: card.offsetWidth, height });
    };
    const observer = new ResizeObserver(report);
    observer.observe(inner);
    const body = inner.querySelector<HTMLElement>('[data-card-body]');
    if (body) observer.observe(body);
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
      // As wide as the frame (the host makes it at most the viewport's width less 16 px), as tall as it too:
      // the frame's height is the card's rounded up to a step, and the card fills it.
      className="box-border flex h-screen max-h-screen w-full flex-col overflow-hidden rounded-xl border border-slate-200 bg-white p-3 outline-none dark:border-slate-700 dark:bg-slate-900"
    >
      <div ref={content} className="flex min-h-0 shrink flex-col">
        {children}
      </div>
    </main>
  );
}
