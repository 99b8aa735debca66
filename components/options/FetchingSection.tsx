import { useId, useState, type FormEvent } from 'react';
import { FETCH_MODES, type EffectiveSettings, type FetchMode } from '@/lib/core/schemas/settings';
import { SETTINGS_LIMITS } from '@/lib/core/limits';
import { useI18n } from '../i18n';
import { useUpdateSettings } from './queries';
import { LockedNote, SaveStatus, Section } from './ui';
import { describedBy, errorTextClass, hintClass } from '../styles';
import { focusRing, inputClass, secondaryButtonClass } from '../styles';
import { choicesWith, HOVER_DELAY_CHOICES_MS, parseRequestBudget } from './validation';

const FETCH_MODE_TEXT = {
  intent: { label: 'fetchMode.intent', hint: 'fetchMode.intent.hint' },
  'prefetch-visible': { label: 'fetchMode.prefetch', hint: 'fetchMode.prefetch.hint' },
} as const satisfies Record<FetchMode, { label: string; hint: string }>;

export function FetchingSection({ effective }: { effective: EffectiveSettings }) {
  const { t } = useI18n();
  const updateSettings = useUpdateSettings();
  const ids = { mode: useId(), modeLocked: useId(), delay: useId(), delayLocked: useId() };

  return (
    <Section
      title={t('fetching.heading')}
      description={t('fetching.note')}
      status={<SaveStatus status={updateSettings.status} error={updateSettings.error} />}
    >
      <fieldset className="flex flex-col gap-2" aria-describedby={effective.locked.fetchMode ? ids.modeLocked : undefined}>
        <legend className="mb-1 text-sm font-medium text-slate-800 dark:text-slate-200">{t('fetchMode.label')}</legend>
        {FETCH_MODES.map((mode) => (
          <label
            key={mode}
            className={`flex cursor-pointer items-start gap-3 rounded-lg border border-slate-200 p-3 has-checked:border-accent has-checked:bg-tone-blue-bg has-disabled:cursor-not-allowed has-disabled:opacity-70 dark:border-slate-700 `}
          >
            <input
              type="radio"
              name={ids.mode}
              value={mode}
              checked={effective.fetchMode === mode}
              disabled={effective.locked.fetchMode}
              onChange={() => updateSettings.mutate({ fetchMode: mode })}
              aria-describedby={`${ids.mode}-${mode}-hint`}
              className={`mt-0.5 h-4 w-4 accent-primary ${focusRing}`}
            />
            <span className="flex flex-col gap-0.5">
              <span className="text-sm font-medium text-slate-900 dark:text-white">{t(FETCH_MODE_TEXT[mode].label)}</span>
              <span id={`${ids.mode}-${mode}-hint`} className={hintClass}>
                {t(FETCH_MODE_TEXT[mode].hint)}
              </span>
            </span>
          </label>
        ))}
        {effective.locked.fetchMode && <LockedNote id={ids.modeLocked} />}
      </fieldset>

      <div className="flex flex-col gap-1">
        <label htmlFor={ids.delay} className="text-sm font-medium text-slate-800 dark:text-slate-200">
          {t('hoverDelay.label')}
        </label>
        <select
          id={ids.delay}
          value={effective.hoverDelayMs}
          disabled={effective.locked.hoverDelayMs}
          onChange={(event) => updateSettings.mutate({ hoverDelayMs: Number(event.target.value) })}
          aria-describedby={describedBy(`${ids.delay}-hint`, effective.locked.hoverDelayMs && ids.delayLocked)}
          className={`${inputClass} w-full sm:w-48`}
        >
          {choicesWith(HOVER_DELAY_CHOICES_MS, effective.hoverDelayMs).map((ms) => (
            <option key={ms} value={ms}>
              {t('hoverDelay.option', { ms })}
            </option>
          ))}
        </select>
        <p id={`${ids.delay}-hint`} className={hintClass}>
          {t('hoverDelay.hint')}
        </p>
        {effective.locked.hoverDelayMs && <LockedNote id={ids.delayLocked} />}
      </div>

      <RequestBudgetField
        key={effective.requestBudgetPerMinute}
        value={effective.requestBudgetPerMinute}
        locked={effective.locked.requestBudgetPerMinute}
        onSave={(requestBudgetPerMinute) => updateSettings.mutate({ requestBudgetPerMinute })}
      />
    </Section>
  );
}

function RequestBudgetField({ value, locked, onSave }: { value: number; locked: boolean; onSave: (value: number) => void }) {
  const { t } = useI18n();
  const { min, max } = SETTINGS_LIMITS.requestBudgetPerMinute;
  const [text, setText] = useState(String(value));
  const [invalid, setInvalid] = useState(false);
  const id = useId();
  const lockedId = useId();

  function commit() {
    const parsed = parseRequestBudget(text);
    setInvalid(parsed === null);
    if (parsed !== null && parsed !== value) onSave(parsed);
  }

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    commit();
  }

  return (
    <form noValidate onSubmit={handleSubmit} className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-800 dark:text-slate-200">
        {t('budget.label')}
      </label>
      <div className="flex gap-2">
        <input
          id={id}
          type="number"
          inputMode="numeric"
          min={min}
          max={max}
          step={1}
          value={text}
          disabled={locked}
          onChange={(event) => setText(event.target.value)}
          onBlur={commit}
          aria-invalid={invalid ? true : undefined}
          aria-describedby={describedBy(invalid && `${id}-error`, `${id}-hint`, locked && lockedId)}
          className={`${inputClass} w-28`}
        />
        {!locked && (
          <button type="submit" className={secondaryButtonClass}>
            {t('budget.save')}
          </button>
        )}
      </div>
      {invalid && (
        <p id={`${id}-error`} role="alert" className={errorTextClass}>
          {t('budget.error', { min, max })}
        </p>
      )}
      <p id={`${id}-hint`} className={hintClass}>
        {t('budget.hint', { min, max })}
      </p>
      {locked && <LockedNote id={lockedId} />}
    </form>
  );
}
