import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { WATCHLIST_LIMITS } from '@/lib/core/limits';
import type { SnapshotRequest } from '@/lib/core/schemas/results';
import { describeCadence, describeChange } from '@/lib/core/watchlist/describe';
import { endChange } from '@/lib/core/watchlist/diff';
import { useI18n } from '../i18n';
import { focusRing } from '../styles';
import { browserWatchlistApi, type WatchlistApi } from './api';
import { useWatchlistApi } from './context';
import { isWatchlistFull, useWatchlistActions, watchlistQueries } from './queries';

/**
 * "Watch" for a link the user has opened (hover card, popup detail, side panel detail): a toggle
 * button (`aria-pressed`) and a line that says plainly what watching costs the founder. Watching
 * fetches nothing: the snapshot shown becomes the first point. Renders nothing without a watchlist.
 */
export function WatchToggle({ request }: { request: SnapshotRequest }) {
  const api = useWatchlistApi();
  return api ? <Toggle api={api} request={{ origin: request.origin, token: request.token }} /> : null;
}

/** The hover card's toggle: the card page talks to the background itself (`api` replaces it in tests). */
export function CardWatchToggle({ request, api }: { request: SnapshotRequest; api?: WatchlistApi }) {
  return <Toggle api={api ?? browserWatchlistApi()} request={{ origin: request.origin, token: request.token }} />;
}

function Toggle({ api, request }: { api: WatchlistApi; request: SnapshotRequest }) {
  const i18n = useI18n();
  const { t } = i18n;
  const hintId = useId();
  const state = useQuery(watchlistQueries.link(api, request));
  const { watch: watchLink, unwatch } = useWatchlistActions(api);
  const watch = state.data?.watch ?? null;
  const pressed = watch !== null;
  const busy = state.isPending || watchLink.isPending || unwatch.isPending;
  const cadence = state.data ? describeCadence(i18n, state.data.settings) : '';
  const failure = watchLink.error ?? unwatch.error ?? state.error;
  // What went wrong in the reader's words: a parser's or a store's message means nothing to them.
  const failureText = watchLink.error
    ? isWatchlistFull(watchLink.error)
      ? t('watch.toggle.full', { max: WATCHLIST_LIMITS.maxWatches })
      : watchLink.error.name === 'UnwatchableLinkError'
        ? t('watch.toggle.unwatchable')
        : t('watch.toggle.addFailed')
    : unwatch.error
      ? t('watch.toggle.removeFailed')
      : failure
        ? t('watch.toggle.error', { reason: failure.message })
        : null;
  const hint =
    watch?.end != null
      ? t('watch.toggle.endedHint', { reason: describeChange(i18n, endChange(watch.end.code), watch.end.at) })
      : t(pressed ? 'watch.toggle.onHint' : 'watch.toggle.offHint', { cadence });

  function toggle() {
    if (busy) return;
    watchLink.reset();
    unwatch.reset();
    if (watch) unwatch.mutate(watch.id);
    else watchLink.mutate(request);
  }

  return (
    <div className="flex items-start gap-2" data-testid="watch-control">
      <button
        type="button"
        data-testid="watch-toggle"
        aria-pressed={pressed}
        aria-describedby={hintId}
        aria-busy={busy}
        onClick={toggle}
        className={`inline-flex shrink-0 items-center gap-1 rounded-full px-2.5 py-1 text-xs font-semibold ring-1 ring-inset ${focusRing} ${
          pressed
            ? 'bg-primary text-on-primary ring-primary hover:bg-primary-hover'
            : 'bg-white text-accent ring-accent/50 hover:bg-slate-50 dark:bg-slate-900 dark:hover:bg-slate-800'
        }`}
      >
        <EyeIcon />
        {busy && state.isFetched ? t('watch.toggle.busy') : t(pressed ? 'watch.toggle.watching' : 'watch.toggle.watch')}
      </button>
      <div className="min-w-0 text-[11px] leading-snug text-slate-600 dark:text-slate-300">
        <p id={hintId}>{hint}</p>
        <p role="alert" className="font-medium text-red-800 empty:hidden dark:text-red-300">
          {failureText}
        </p>
      </div>
    </div>
  );
}

function EyeIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 16 16" className="h-3.5 w-3.5" fill="none" stroke="currentColor" strokeWidth="1.6">
      <path d="M1.5 8S4 3.5 8 3.5 14.5 8 14.5 8 12 12.5 8 12.5 1.5 8 1.5 8Z" strokeLinejoin="round" />
      <circle cx="8" cy="8" r="2" />
    </svg>
  );
}
