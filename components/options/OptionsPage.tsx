import { useEffect } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { BrandMark } from '../BrandMark';
import { useI18n } from '../i18n';
import { CacheSection } from './CacheSection';
import { useOptionsApi } from './context';
import { FetchingSection } from './FetchingSection';
import { LanguageSection } from './LanguageSection';
import { PrivacySection } from './PrivacySection';
import { optionsKeys, optionsQueries } from './queries';
import { ServicesSection } from './ServicesSection';
import { SitesSection } from './SitesSection';
import { WatchlistSection } from './WatchlistSection';
import { errorReason } from './ui';
import { hintClass } from '../styles';
import { primaryButtonClass } from '../styles';

export function OptionsPage() {
  const { t, language } = useI18n();
  const api = useOptionsApi();
  const queryClient = useQueryClient();
  const settings = useQuery(optionsQueries.settings(api));

  useEffect(() => {
    document.documentElement.lang = language;
    document.title = t('options.title');
  }, [language, t]);

  // Shown at once with the last policy seen; read again once the browser has read the policy.
  const settled = settings.data?.settled ?? true;
  useEffect(() => {
    if (settled) return;
    let active = true;
    void api.policySettled().then(() => {
      if (active) void queryClient.invalidateQueries({ queryKey: optionsKeys.settings() });
    });
    return () => {
      active = false;
    };
  }, [api, queryClient, settled]);

  // Another tab, the popup or a policy update may change settings while this page is open.
  useEffect(
    () => api.watchSettings(() => void queryClient.invalidateQueries({ queryKey: optionsKeys.settings() })),
    [api, queryClient],
  );

  return (
    <div className="min-h-screen bg-slate-50 text-slate-900 antialiased dark:bg-slate-950 dark:text-slate-100">
      <main className="mx-auto flex max-w-3xl flex-col gap-6 px-4 py-8 sm:px-6">
        <header className="flex items-start gap-3">
          <span className="mt-0.5">
            <BrandMark size={36} />
          </span>
          <div>
            <h1 className="text-xl font-semibold text-slate-900 dark:text-white">{t('options.title')}</h1>
            <p className={`mt-1 max-w-prose text-sm ${hintClass}`}>{t('options.intro')}</p>
          </div>
        </header>

        {settings.isPending ? (
          <LoadingState />
        ) : settings.isError ? (
          <div role="alert" className="rounded-xl border border-red-200 bg-red-50 p-5 dark:border-red-900 dark:bg-red-950">
            <h2 className="font-semibold text-red-900 dark:text-red-100">{t('options.loadError.title')}</h2>
            <p className="mt-1 text-sm text-red-900 dark:text-red-200">{t('options.loadError.detail')}</p>
            <p className="mt-1 font-mono text-xs text-red-800 dark:text-red-300">{errorReason(settings.error)}</p>
            <button type="button" className={`mt-3 ${primaryButtonClass}`} onClick={() => void settings.refetch()}>
              {t('options.retry')}
            </button>
          </div>
        ) : (
          <>
            {!settings.data.settled && (
              <p role="status" className={hintClass} data-testid="policy-pending">
                {t('options.policyPending')}
              </p>
            )}
            <ServicesSection effective={settings.data.effective} user={settings.data.user} />
            <SitesSection effective={settings.data.effective} />
            <FetchingSection effective={settings.data.effective} />
            <CacheSection effective={settings.data.effective} />
            <WatchlistSection />
          </>
        )}
        <LanguageSection />
        <PrivacySection />
      </main>
    </div>
  );
}

function LoadingState() {
  const { t } = useI18n();
  return (
    <div role="status" className="flex flex-col gap-6">
      <span className="sr-only">{t('options.loading')}</span>
      {[0, 1, 2].map((index) => (
        <div
          key={index}
          aria-hidden="true"
          className="h-40 animate-pulse rounded-xl border border-slate-200 bg-white motion-reduce:animate-none dark:border-slate-800 dark:bg-slate-900"
        >
          <div className="m-5 h-4 w-1/3 rounded bg-slate-200 dark:bg-slate-800" />
          <div className="mx-5 h-3 w-2/3 rounded bg-slate-100 dark:bg-slate-800/60" />
        </div>
      ))}
    </div>
  );
}
