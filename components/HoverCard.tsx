import { useEffect, useLayoutEffect, useState, type ReactNode } from 'react';
import type { SnapshotRequest, SnapshotResult } from '@/lib/core/schemas/results';
import type { CardClaim } from '@/lib/protocol/card';
import { CardFrame } from './CardFrame';
import { DEFAULT_LANGUAGE_PREFERENCE, resolveLanguage, type Language } from '@/lib/core/i18n/language';
import { browserUiLanguage, CardI18nProvider, useCardI18n } from './card-i18n';
import { SnapshotCard } from './SnapshotCard';
import { SnapshotError } from './SnapshotError';
import { compactPrimaryButtonClass } from './styles';
import { SNAPSHOT_DEADLINE_MS } from '@/lib/core/schemas/results';

export interface HoverCardProps {
  /**
   * The card the content script opened for this frame (never read from the URL): its link, what to
   * show and the reader's language, claimed when the page mounts (null: nothing to show), or already
   * claimed (a page loaded ahead gets its card with its wait), drawn in the first render.
   */
  claim: (() => Promise<CardClaim | null>) | CardClaim;
  /**
   * The reader's language until the claim brings it (a page loaded ahead is told it with its card);
   * unknown, the browser's UI language (the preference's default).
   */
  language?: Language;
  /**
   * The snapshot is known to be on its way slowly (a page loaded ahead was told its card is drawn, and
   * the snapshot did not come with it): the card shows that it loads at once, not after a pause.
   */
  slow?: boolean;
  /** When the card was opened (epoch ms, the moment of intent): a slow card says it is still waiting counting from there. */
  openedAt?: number;
  refreshSnapshot: (request: SnapshotRequest) => Promise<SnapshotResult>;
  onClose: (reason: 'escape' | 'button') => void;
  onResize: (size: { width: number; height: number }) => void;
  /** The pointer entered or left the card (the framing page cannot see inside the iframe). */
  onHover: (inside: boolean) => void;
  /**
   * The card's watch control for a link (the card page composes it from the watchlist feature);
   * `onlyIfWatched`: for a link without a snapshot, shown only to unwatch one watched already.
   */
  watchControl?: (request: SnapshotRequest, options: { onlyIfWatched: boolean }) => ReactNode;
}

/**
 * A card whose claim is still unanswered after this long (a slow network fetch) shows that it is
 * loading; a cached or fast one shows its snapshot at once, without a loading flash.
 */
export const LOADING_SHOWN_AFTER_MS = 250;

/** A card still loading after this long says it is still waiting (the request is given up at the deadline). */
export const STILL_WAITING_AFTER_MS = SNAPSHOT_DEADLINE_MS / 2;

type Claimed = { state: 'pending' } | { state: 'done'; claim: CardClaim | null };

/** The hover card's page content: the shared SnapshotCard / SnapshotError with close, refresh and watch. */
export function HoverCard({
  claim,
  language,
  slow = false,
  openedAt,
  refreshSnapshot,
  onClose,
  onResize,
  onHover,
  watchControl,
}: HoverCardProps) {
  const [claimed, setClaimed] = useState<Claimed>(() =>
    typeof claim === 'function' ? { state: 'pending' } : { state: 'done', claim },
  );
  const [loadingShown, setLoadingShown] = useState(slow);
  // Layout effects, here and for the size: an effect waits for the next paint, and a frame hidden until
  // it reports its size gets none soon (measured: the name painted ~50 ms later).
  useLayoutEffect(() => {
    if (typeof claim !== 'function') return;
    let active = true;
    const timer = setTimeout(() => setLoadingShown(true), slow ? 0 : LOADING_SHOWN_AFTER_MS);
    void claim()
      .catch(() => null)
      .then((answer) => {
        if (active) setClaimed({ state: 'done', claim: answer });
      });
    return () => {
      active = false;
      clearTimeout(timer);
    };
  }, [claim, slow]);
  const ready = claimed.state === 'done' || loadingShown;
  const close = <CloseButton onClose={onClose} />;
  const body = (
    <CardFrame onClose={onClose} onResize={ready ? onResize : null} onHover={onHover}>
      {claimed.state === 'pending' ? (
        loadingShown && <Notice actions={close} status={<LoadingText since={openedAt} />} />
      ) : claimed.claim === null ? (
        <Notice actions={close} status={<NoCardText />} />
      ) : (
        <ClaimedCard claim={claimed.claim} refreshSnapshot={refreshSnapshot} watchControl={watchControl} close={close} />
      )}
    </CardFrame>
  );
  // The card speaks the language the background sent with its snapshot (no storage read first).
  const spoken =
    claimed.state === 'done' && claimed.claim
      ? claimed.claim.language
      : (language ?? resolveLanguage(DEFAULT_LANGUAGE_PREFERENCE, browserUiLanguage()));
  return <CardI18nProvider language={spoken}>{body}</CardI18nProvider>;
}

/**
 * A slow answer: the card's shape, greyed, so the snapshot takes its place without the card jumping;
 * after a while it says it is still waiting, and when the request will be given up (issue #33 item 4).
 */
function LoadingText({ since }: { since: number | undefined }) {
  const { t } = useCardI18n();
  const [stillWaiting, setStillWaiting] = useState(false);
  useEffect(() => {
    // From intent when the background said when that was (the page may have loaded after it), else from now.
    const waited = since === undefined ? 0 : Math.max(0, Date.now() - since);
    const timer = setTimeout(() => setStillWaiting(true), Math.max(0, STILL_WAITING_AFTER_MS - waited));
    return () => clearTimeout(timer);
  }, [since]);
  const bar = 'rounded bg-slate-200 motion-safe:animate-pulse dark:bg-slate-700';
  return (
    <div className="flex flex-col gap-2">
      <p role="status" className="text-xs text-slate-600 dark:text-slate-300">
        {stillWaiting ? t('snapshot.card.stillWaiting', { seconds: SNAPSHOT_DEADLINE_MS / 1000 }) : t('snapshot.card.loading')}
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

function ClaimedCard({
  claim,
  refreshSnapshot,
  watchControl,
  close,
}: {
  claim: CardClaim;
  refreshSnapshot: HoverCardProps['refreshSnapshot'];
  watchControl: HoverCardProps['watchControl'];
  close: ReactNode;
}) {
  const { t } = useCardI18n();
  const { request } = claim;
  const [result, setResult] = useState(claim.result);
  const [refreshing, setRefreshing] = useState(false);
  /** The background did not answer (it was restarted, or the extension updated): said, not swallowed. */
  const [refreshFailed, setRefreshFailed] = useState(false);
  const refresh = () => {
    if (refreshing) return;
    setRefreshing(true);
    setRefreshFailed(false);
    void refreshSnapshot(request)
      .then(setResult, () => setRefreshFailed(true))
      .finally(() => setRefreshing(false));
  };
  const failed = refreshFailed && (
    <p
      role="alert"
      data-testid="refresh-failed"
      // Brought into view where the card scrolls: it is said beside the button that was pressed.
      ref={(alert) => alert?.scrollIntoView({ block: 'nearest' })}
      className="text-xs font-medium text-red-800 dark:text-red-200"
    >
      {t('snapshot.refreshFailed')}
    </p>
  );
  // Watch follows a company's snapshot: none is offered for a link that never loaded (issue #33 item
  // 5), nor for an answer whose signature fails (its figures may not be the service's: docs/api-decisions.md).
  const watchable = result?.status === 'ready' && result.signature?.state !== 'invalid';
  const actions = (
    <>
      {watchControl?.(request, { onlyIfWatched: !watchable })}
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
        <p className="text-xs text-slate-700 dark:text-slate-200">
          {t(claim.unloaded === 'unseen' ? 'snapshot.card.notLoaded.unseen' : 'snapshot.card.notLoaded.detail')}
        </p>
        <button type="button" className={`self-start ${compactPrimaryButtonClass}`} onClick={refresh} disabled={refreshing}>
          {t('snapshot.card.load')}
        </button>
        {failed}
      </div>
    );
  }
  if (result.status !== 'ready') {
    return (
      <>
        <SnapshotError
          code={result.code}
          technical={result}
          retryAt={result.retryAt}
          expiredAt={result.expiredAt}
          withdrawn={result.withdrawn}
          onRetry={refresh}
          headerActions={actions}
        />
        {failed && <div className="mt-2">{failed}</div>}
      </>
    );
  }
  return (
    <>
      <SnapshotCard
        snapshot={result.snapshot}
        serviceOrigin={request.origin}
        meta={result.meta}
        fetchedAt={result.fetchedAt}
        fromCache={result.fromCache}
        apiVersionWarning={result.apiVersionWarning}
        signature={result.signature}
        onRefresh={refresh}
        refreshing={refreshing}
        refreshProblem={failed}
        headerActions={actions}
      />
    </>
  );
}
