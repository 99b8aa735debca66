import { useId, useState } from 'react';
import { LANGUAGE_PREFERENCES, resolveLanguage, type LanguagePreference } from '@/lib/core/i18n/language';
import { browserUiLanguage, useI18n, useLanguagePreference } from '../i18n';
import { useOptionsApi } from './context';
import { errorReason, Section } from './ui';
import { errorTextClass, hintClass } from '../styles';
import { inputClass } from '../styles';

export function LanguageSection() {
  const { t } = useI18n();
  const api = useOptionsApi();
  const preference = useLanguagePreference();
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const browserLanguage = resolveLanguage('auto', browserUiLanguage());

  function label(option: LanguagePreference): string {
    if (option === 'auto') return t('language.auto', { language: t(`language.${browserLanguage}`) });
    return t(`language.${option}`);
  }

  return (
    <Section title={t('language.heading')}>
      <div className="flex flex-col gap-1">
        <label htmlFor={id} className="text-sm font-medium text-slate-800 dark:text-slate-200">
          {t('language.label')}
        </label>
        <select
          id={id}
          value={preference ?? 'auto'}
          disabled={preference === undefined}
          onChange={(event) => {
            const next = LANGUAGE_PREFERENCES.find((option) => option === event.target.value);
            if (!next) return;
            setError(null);
            api.setLanguagePreference(next).catch((failure: unknown) => {
              setError(t('options.saveError', { reason: errorReason(failure) }));
            });
          }}
          aria-describedby={`${id}-hint`}
          className={`${inputClass} w-full sm:w-72`}
        >
          {LANGUAGE_PREFERENCES.map((option) => (
            <option key={option} value={option} lang={option === 'auto' ? undefined : option}>
              {label(option)}
            </option>
          ))}
        </select>
        <p id={`${id}-hint`} className={hintClass}>
          {t('language.hint')}
        </p>
        {error && (
          <p role="alert" className={errorTextClass}>
            {error}
          </p>
        )}
      </div>
    </Section>
  );
}
