import { useEffect, useState } from 'react';
import { WATCHLIST_LIMITS } from '@/lib/core/limits';
import type { SnapshotRequest } from '@/lib/core/schemas/results';
import { describeCadence } from '@/lib/core/watchlist/describe';
import type { WatchSettings } from '@/lib/core/watchlist/schedule';
import type { WatchRecord } from '@/lib/core/watchlist/types';
import { useCardI18n } from '../card-i18n';
import { errorTitleKey } from '../SnapshotError';
import type { WatchlistApi } from './api';

/** What the hover card's watch control asks of the background (the card page passes the typed messages themselves). */
export type CardWatchApi = Pick<WatchlistApi, 'getWatch' | 'watch' | 'unwatch'>;

type Known = { watch: WatchRecord | null; settings: WatchSettings };

/**
 * The hover card's Watch: one small toggle beside the company's name (`aria-pressed`), whose name and
 * tooltip say what it does and what it costs the founder. Watching fetches nothing: the snapshot shown
 * becomes the first point. Plain state, no query library: the card page's script budget is small.
 */
export function CardWatchControl({
  request,
  api,
  onlyIfWatched = false,
}: {
  request: SnapshotRequest;
  api: CardWatchApi;
  /** A link without a snapshot: nothing to watch, but a watch made earlier can still be ended here. */
  onlyIfWatched?: boolean;
}) {
  const i18n = useCardI18n();
  const { t } = i18n;
  const [known, setKnown] = useState<Known | null>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  /** Pressed on this card: it stays, so a watch just ended here can be made again. */
  const [used, setUsed] = useState(false);
  const { origin, token } = request;

  useEffect(() => {
    let active = true;
    api.getWatch({ origin, token }).then(
      (answer) => active && setKnown(answer),
      () => active && setFailure(t('watch.toggle.unwatchable')),
    );
    return () => {
      active = false;
    };
  }, [api, origin, token, t]);

  const watch = known?.watch ?? null;
  const pressed = watch !== null;
  const cadence = known ? describeCadence(i18n, known.settings) : '';
  const ended = watch?.end
    ? t('watch.toggle.endedHint', { reason: t(errorTitleKey(watch.end.code, watch.pointCount > 0)) })
    : null;
  const hint = failure ?? ended ?? t(pressed ? 'watch.toggle.onHint' : 'watch.toggle.offHint', { cadence });

  async function toggle() {
    if (busy || !known) return;
    setBusy(true);
    setUsed(true);
    setFailure(null);
    try {
      if (watch) {
        await api.unwatch(watch.id);
        setKnown({ ...known, watch: null });
      } else {
        setKnown({ ...known, watch: await api.watch({ origin, token }) });
      }
    } catch (error) {
      const full = error instanceof Error && /full|limit/i.test(error.message);
      setFailure(
        full
          ? t('watch.toggle.full', { max: WATCHLIST_LIMITS.maxWatches })
          : t(watch ? 'watch.toggle.removeFailed' : 'watch.toggle.addFailed'),
      );
    } finally {
      setBusy(false);
    }
  }

  if (onlyIfWatched && !pressed && !used) return null;
  return (
    <>
      <button
        type="button"
        data-testid="watch-toggle"
        aria-pressed={pressed}
        aria-busy={busy || (!known && !failure)}
        aria-label={`${t(pressed ? 'watch.toggle.watching' : 'watch.toggle.watch')}: ${hint}`}
        title={hint}
        disabled={!known && !failure}
        onClick={() => void toggle()}
        className={`inline-flex h-6 items-center gap-1 rounded-md px-1.5 text-[11px] font-semibold focus-visible:outline-2 focus-visible:outline-brand disabled:opacity-60 ${
          pressed
            ? 'bg-brand text-on-brand'
            : 'text-slate-700 ring-1 ring-slate-300 ring-inset hover:bg-slate-100 dark:text-slate-200 dark:ring-slate-600 dark:hover:bg-slate-800'
        }`}
      >
        <svg
          aria-hidden="true"
          viewBox="0 0 16 16"
          width="12"
          height="12"
          fill={pressed ? 'currentColor' : 'none'}
          stroke="currentColor"
          strokeWidth="1.6"
        >
          <path d="M4 2.5h8v11l-4-2.8-4 2.8z" strokeLinejoin="round" />
        </svg>
        {t(busy ? 'watch.toggle.busy' : pressed ? 'watch.toggle.watching' : 'watch.toggle.watch')}
        {failure && <span className="ml-0.5 font-bold text-tone-red-fg">!</span>}
      </button>
      {failure && (
        <span role="alert" className="sr-only">
          {failure}
        </span>
      )}
    </>
  );
}
