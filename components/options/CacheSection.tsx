import { useId, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { EffectiveSettings } from '@/lib/core/schemas/settings';
import type { AppTranslator } from '@/lib/core/i18n';
import { useI18n } from '../i18n';
import { useOptionsApi } from './context';
import { optionsKeys, optionsQueries, useUpdateSettings } from './queries';
import { errorReason, LockedNote, NoticeLine, SaveStatus, Section, type Notice } from './ui';
import { describedBy, hintClass } from '../styles';
import { focusRing, inputClass, secondaryButtonClass } from '../styles';
import { CACHE_TTL_CHOICES_MIN, choicesWith } from './validation';

export function formatTtl({ t }: AppTranslator, minutes: number): string {
  return minutes % 60 === 0 ? t('cacheTtl.hours', { count: minutes / 60 }) : t('cacheTtl.minutes', { count: minutes });
}

export function CacheSection({ effective }: { effective: EffectiveSettings }) {
  const i18n = useI18n();
  const { t } = i18n;
  const api = useOptionsApi();
  const queryClient = useQueryClient();
  const updateSettings = useUpdateSettings();
  const cacheCount = useQuery(optionsQueries.cacheCount(api));
  const [notice, setNotice] = useState<Notice>(null);
  const clearCache = useMutation({
    mutationFn: () => api.clearCache(),
    onSuccess: (cleared) => setNotice({ tone: 'success', text: t('cache.cleared', { count: cleared }) }),
    onError: (error) => setNotice({ tone: 'error', text: t('cache.clearError', { reason: errorReason(error) }) }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: optionsKeys.cacheCount() }),
  });
  const ids = { ttl: useId(), ttlLocked: useId(), persist: useId(), persistLocked: useId() };

  return (
    <Section title={t('cache.heading')} status={<SaveStatus status={updateSettings.status} error={updateSettings.error} />}>
      <div className="flex flex-col gap-1">
        <label htmlFor={ids.ttl} className="text-sm font-medium text-slate-800 dark:text-slate-200">
          {t('cacheTtl.label')}
        </label>
        <select
          id={ids.ttl}
          value={effective.cacheTtlMinutes}
          disabled={effective.locked.cacheTtlMinutes}
          onChange={(event) => updateSettings.mutate({ cacheTtlMinutes: Number(event.target.value) })}
          aria-describedby={describedBy(`${ids.ttl}-hint`, effective.locked.cacheTtlMinutes && ids.ttlLocked)}
          className={`${inputClass} w-full sm:w-48`}
        >
          {choicesWith(CACHE_TTL_CHOICES_MIN, effective.cacheTtlMinutes).map((minutes) => (
            <option key={minutes} value={minutes}>
              {formatTtl(i18n, minutes)}
            </option>
          ))}
        </select>
        <p id={`${ids.ttl}-hint`} className={hintClass}>
          {t('cacheTtl.hint')}
        </p>
        {effective.locked.cacheTtlMinutes && <LockedNote id={ids.ttlLocked} />}
      </div>

      <div className="flex items-start gap-3">
        <input
          id={ids.persist}
          type="checkbox"
          checked={effective.persistCache}
          disabled={effective.locked.persistCache}
          onChange={(event) => updateSettings.mutate({ persistCache: event.target.checked })}
          aria-describedby={describedBy(`${ids.persist}-hint`, effective.locked.persistCache && ids.persistLocked)}
          className={`mt-0.5 h-4 w-4 shrink-0 accent-primary ${focusRing}`}
        />
        <div className="flex flex-col gap-0.5">
          <label htmlFor={ids.persist} className="text-sm font-medium text-slate-800 dark:text-slate-200">
            {t('cache.persist.label')}
          </label>
          <p id={`${ids.persist}-hint`} className={hintClass}>
            {t('cache.persist.hint')}
          </p>
          {effective.locked.persistCache && <LockedNote id={ids.persistLocked} />}
        </div>
      </div>

      <div className="flex flex-col gap-2 border-t border-slate-200 pt-4 sm:flex-row sm:items-center sm:justify-between dark:border-slate-800">
        <p className="text-sm text-slate-700 dark:text-slate-300" data-testid="cache-count">
          {cacheCount.isSuccess
            ? t('cache.count', { count: cacheCount.data })
            : cacheCount.isError
              ? t('cache.countUnavailable')
              : '\u00a0'}
        </p>
        <button
          type="button"
          className={secondaryButtonClass}
          disabled={clearCache.isPending}
          onClick={() => {
            setNotice(null);
            clearCache.mutate();
          }}
        >
          {clearCache.isPending ? t('cache.clearing') : t('cache.clear')}
        </button>
      </div>
      <NoticeLine notice={notice} />
    </Section>
  );
}
