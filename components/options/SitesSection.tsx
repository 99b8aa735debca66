import { useId, useRef, useState, type FormEvent } from 'react';
import type { EffectiveSettings } from '@/lib/core/schemas/settings';
import { useI18n } from '../i18n';
import { useOptionsApi } from './context';
import { useUpdateSettings } from './queries';
import { errorReason, LockedNote, NoticeLine, Section, type Notice } from './ui';
import { describedBy, errorTextClass, hintClass } from '../styles';
import { dangerButtonClass, inputClass, primaryButtonClass } from '../styles';
import { sitePermissionPattern, validateSite } from './validation';
import { askWithinGesture } from '../gesture';

export function SitesSection({ effective }: { effective: EffectiveSettings }) {
  const { t } = useI18n();
  const api = useOptionsApi();
  const updateSettings = useUpdateSettings();
  const [input, setInput] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<Notice>(null);
  const [pending, setPending] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const lockedId = useId();
  const locked = effective.locked.enabledSites;
  const sites = effective.enabledSites;

  async function finishAdd(site: string, access: Promise<boolean>) {
    try {
      if (!(await access)) {
        setError(t('sites.error.permissionDenied', { site }));
        return;
      }
      await updateSettings.mutateAsync({ enabledSites: [...sites, site] });
      setInput('');
      setNotice({ tone: 'success', text: t('sites.added', { site }) });
    } catch (failure) {
      setError(t('options.saveError', { reason: errorReason(failure) }));
    } finally {
      setPending(false);
    }
  }

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending || locked) return;
    setNotice(null);
    const result = validateSite(input, sites);
    if (!result.ok) {
      setError(
        result.problem === 'invalid'
          ? t('sites.error.invalid')
          : result.problem === 'duplicate'
            ? t('sites.error.duplicate', { site: result.site })
            : t('sites.error.tooMany'),
      );
      inputRef.current?.focus();
      return;
    }
    setError(null);
    const access = askWithinGesture(() => api.requestHostAccess([sitePermissionPattern(result.site)]));
    setPending(true);
    void finishAdd(result.site, access);
  }

  async function remove(site: string) {
    try {
      await updateSettings.mutateAsync({ enabledSites: sites.filter((entry) => entry !== site) });
      setNotice({ tone: 'success', text: t('sites.removed', { site }) });
      inputRef.current?.focus();
      await api.removeHostAccess([sitePermissionPattern(site)]);
    } catch (failure) {
      setNotice({ tone: 'error', text: t('options.saveError', { reason: errorReason(failure) }) });
    }
  }

  return (
    <Section title={t('sites.heading')} description={t('sites.description')}>
      {locked && <LockedNote id={lockedId} />}
      <NoticeLine notice={notice} />
      {sites.length === 0 ? (
        <p className={`rounded-lg border border-dashed border-slate-300 px-4 py-3 dark:border-slate-700 ${hintClass}`}>
          {t('sites.empty')}
        </p>
      ) : (
        <ul className="flex flex-col divide-y divide-slate-200 rounded-lg border border-slate-200 dark:divide-slate-800 dark:border-slate-800">
          {sites.map((site) => (
            <li key={site} className="flex items-center justify-between gap-2 px-3 py-2">
              <span className="font-mono text-sm text-slate-800 dark:text-slate-200">{site}</span>
              {!locked && (
                <button
                  type="button"
                  className={dangerButtonClass}
                  aria-label={t('sites.removeNamed', { site })}
                  onClick={() => void remove(site)}
                >
                  {t('services.remove')}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <form noValidate onSubmit={handleSubmit} className="flex flex-col gap-1">
        <label htmlFor={inputId} className="text-sm font-medium text-slate-800 dark:text-slate-200">
          {t('sites.field')}
        </label>
        <div className="flex flex-col gap-2 sm:flex-row">
          <input
            ref={inputRef}
            id={inputId}
            value={input}
            disabled={locked}
            onChange={(event) => setInput(event.target.value)}
            placeholder="crm.example.com"
            spellCheck={false}
            autoComplete="off"
            aria-invalid={error ? true : undefined}
            aria-describedby={describedBy(error && `${inputId}-error`, `${inputId}-hint`, locked && lockedId)}
            className={`${inputClass} w-full font-mono sm:max-w-sm`}
          />
          <button type="submit" className={primaryButtonClass} disabled={locked || pending}>
            {t('sites.add')}
          </button>
        </div>
        {error && (
          <p id={`${inputId}-error`} role="alert" className={errorTextClass}>
            {error}
          </p>
        )}
        <p id={`${inputId}-hint`} className={hintClass}>
          {t('sites.field.hint')}
        </p>
      </form>
    </Section>
  );
}
