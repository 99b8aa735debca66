import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId } from 'react';
import { WATCHLIST_LIMITS } from '@/lib/core/limits';
import type { WatchCadence, WatchSettings } from '@/lib/core/watchlist/schedule';
import { useI18n } from '../i18n';
import { focusRing, hintClass } from '../styles';
import { useOptionsApi } from './context';
import { optionsKeys, optionsQueries } from './queries';
import { SaveStatus, Section } from './ui';

/** The cadences the page offers; `interval` is shown when set (by tests, in storage) but not offered. */
const OFFERED: readonly Exclude<WatchCadence, 'interval'>[] = ['daily', 'weekly', 'manual'];

/** How often watched links are refreshed, whether changes raise notifications, and where history is kept. */
export function WatchlistSection() {
  const { t } = useI18n();
  const api = useOptionsApi();
  const queryClient = useQueryClient();
  const ids = { cadence: useId(), notifications: useId() };
  const settings = useQuery(optionsQueries.watchSettings(api));
  const update = useMutation({
    mutationFn: (patch: Partial<WatchSettings>) => api.updateWatchSettings(patch),
    onSettled: () => queryClient.invalidateQueries({ queryKey: optionsKeys.watchSettings() }),
  });
  useEffect(
    () => api.watchWatchSettings(() => void queryClient.invalidateQueries({ queryKey: optionsKeys.watchSettings() })),
    [api, queryClient],
  );
  const current = settings.data;
  const cadences: WatchCadence[] = current?.cadence === 'interval' ? [...OFFERED, 'interval'] : [...OFFERED];

  return (
    <Section
      title={t('watchlist.options.heading')}
      description={t('watchlist.options.description')}
      status={<SaveStatus status={update.status} error={update.error} />}
    >
      <fieldset className="flex flex-col gap-2" data-testid="watch-cadence">
        <legend className="mb-1 text-sm font-medium text-slate-800 dark:text-slate-200">{t('watchlist.options.cadence')}</legend>
        {cadences.map((cadence) => (
          <label
            key={cadence}
            className="flex cursor-pointer items-start gap-3 rounded-lg border border-slate-200 p-3 has-checked:border-accent has-checked:bg-tone-blue-bg dark:border-slate-700"
          >
            <input
              type="radio"
              name={ids.cadence}
              value={cadence}
              checked={current?.cadence === cadence}
              disabled={current === undefined || cadence === 'interval'}
              onChange={() => update.mutate({ cadence })}
              aria-describedby={`${ids.cadence}-${cadence}-hint`}
              className={`mt-0.5 h-4 w-4 accent-primary ${focusRing}`}
            />
            <span className="flex flex-col gap-0.5">
              <span className="text-sm font-medium text-slate-900 dark:text-white">
                {cadence === 'interval'
                  ? t('watchlist.options.cadence.interval', { seconds: current?.intervalSeconds ?? 0 })
                  : t(`watchlist.options.cadence.${cadence}`)}
              </span>
              <span id={`${ids.cadence}-${cadence}-hint`} className={hintClass}>
                {t(`watchlist.options.cadence.${cadence}Hint`)}
              </span>
            </span>
          </label>
        ))}
      </fieldset>
      <label className="flex cursor-pointer items-start gap-3">
        <input
          id={ids.notifications}
          type="checkbox"
          data-testid="watch-notifications"
          checked={current?.notifications ?? false}
          disabled={current === undefined}
          onChange={(event) => update.mutate({ notifications: event.target.checked })}
          aria-describedby={`${ids.notifications}-hint`}
          className={`mt-0.5 h-4 w-4 accent-primary ${focusRing}`}
        />
        <span className="flex flex-col gap-0.5">
          <span className="text-sm font-medium text-slate-900 dark:text-white">{t('watchlist.options.notifications')}</span>
          <span id={`${ids.notifications}-hint`} className={hintClass}>
            {t('watchlist.options.notificationsHint')}
          </span>
        </span>
      </label>
      <p className={hintClass}>
        {t('watchlist.options.storage', { points: WATCHLIST_LIMITS.maxPointsPerWatch, watches: WATCHLIST_LIMITS.maxWatches })}
      </p>
    </Section>
  );
}
