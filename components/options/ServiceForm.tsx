import { useEffect, useId, useRef, useState, type FormEvent, type RefObject } from 'react';
import { hostPermissionPattern } from '@/lib/extension/permissions';
import type { ServiceConfig } from '@/lib/core/services';
import type { ConfiguredService } from '@/lib/core/schemas/settings';
import type { AppTranslator } from '@/lib/core/i18n';
import { useI18n } from '../i18n';
import { useOptionsApi } from './context';
import {
  SERVICE_FIELDS,
  TOKEN_PLACEHOLDER,
  validateServiceDraft,
  type ServiceDraft,
  type ServiceErrors,
  type ServiceField,
  type ServiceFieldError,
} from './validation';
import { errorReason } from './ui';
import { describedBy, errorTextClass, hintClass } from '../styles';
import { inputClass, primaryButtonClass, secondaryButtonClass } from '../styles';
import { askWithinGesture } from '../gesture';

export interface ServiceFormProps {
  mode: 'add' | 'edit';
  serviceId: string;
  initial: ServiceDraft;
  /** Every configured service (to refuse an origin that is already used). */
  services: readonly ConfiguredService[];
  /** Writes the service; rejects when the settings cannot be saved. */
  onSave: (service: ServiceConfig) => Promise<void>;
  onCancel: () => void;
}

export function describeServiceError({ t }: AppTranslator, error: ServiceFieldError): string {
  switch (error.field) {
    case 'name':
      return t('services.error.name');
    case 'origin':
      return error.takenBy !== undefined ? t('services.error.originTaken', { name: error.takenBy }) : t('services.error.origin');
    case 'apiPathTemplate':
      return t('services.error.apiPath', { placeholder: TOKEN_PLACEHOLDER });
    case 'sharePathTemplates':
      return t('services.error.sharePath', { line: error.line, placeholder: TOKEN_PLACEHOLDER });
  }
}

/**
 * Add or edit one service. On submit it validates synchronously, then asks for host access in the
 * same event (a prompt needs the user gesture), and only saves once access is granted.
 */
export function ServiceForm({ mode, serviceId, initial, services, onSave, onCancel }: ServiceFormProps) {
  const i18n = useI18n();
  const { t } = i18n;
  const api = useOptionsApi();
  const [draft, setDraft] = useState(initial);
  const [errors, setErrors] = useState<ServiceErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [pending, setPending] = useState<'access' | 'save' | null>(null);
  const nameRef = useRef<HTMLInputElement>(null);
  const originRef = useRef<HTMLInputElement>(null);
  const apiRef = useRef<HTMLInputElement>(null);
  const shareRef = useRef<HTMLTextAreaElement>(null);
  const refs: Record<ServiceField, RefObject<HTMLInputElement | HTMLTextAreaElement | null>> = {
    name: nameRef,
    origin: originRef,
    apiPathTemplate: apiRef,
    sharePathTemplates: shareRef,
  };
  const headingId = useId();
  const formErrorId = useId();

  // The form replaces the button that opened it: keep the keyboard user where they are typing next.
  useEffect(() => nameRef.current?.focus(), []);

  function update(field: ServiceField, value: string) {
    setDraft((current) => ({ ...current, [field]: value }));
  }

  async function finish(service: ServiceConfig, access: Promise<boolean>) {
    try {
      if (!(await access)) {
        setFormError(t('services.error.permissionDenied', { origin: service.origin }));
        return;
      }
    } catch (error) {
      setFormError(t('services.error.permissionFailed', { origin: service.origin, reason: errorReason(error) }));
      return;
    } finally {
      setPending(null);
    }
    setPending('save');
    try {
      await onSave(service);
    } catch (error) {
      setFormError(t('options.saveError', { reason: errorReason(error) }));
    } finally {
      setPending(null);
    }
  }

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    const result = validateServiceDraft(draft, { id: serviceId, others: services });
    if (!result.ok) {
      setErrors(result.errors);
      setFormError(t('services.error.summary'));
      const first = SERVICE_FIELDS.find((field) => result.errors[field]);
      if (first) refs[first].current?.focus();
      return;
    }
    setErrors({});
    setFormError(null);
    if (mode === 'add' && services.filter((service) => service.source === 'user').length >= 50) {
      setFormError(t('services.error.tooMany'));
      return;
    }
    const originChanged = mode === 'add' || result.service.origin !== initial.origin;
    const access = askWithinGesture(() =>
      originChanged ? api.requestHostAccess([hostPermissionPattern(result.service.origin)]) : Promise.resolve(true),
    );
    setPending('access');
    void finish(result.service, access);
  }

  const heading = mode === 'add' ? t('services.add.heading') : t('services.editForm.heading', { name: initial.name });

  return (
    // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions -- Escape from any field inside cancels the form
    <form
      noValidate
      aria-labelledby={headingId}
      aria-describedby={formError ? formErrorId : undefined}
      onSubmit={handleSubmit}
      onKeyDown={(event) => {
        if (event.key === 'Escape') onCancel();
      }}
      className="flex flex-col gap-4 rounded-lg border border-slate-200 bg-slate-50 p-4 dark:border-slate-700 dark:bg-slate-950"
    >
      <h3 id={headingId} className="text-sm font-semibold text-slate-900 dark:text-white">
        {heading}
      </h3>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          inputRef={nameRef}
          label={t('services.field.name')}
          hint={t('services.field.name.hint')}
          value={draft.name}
          error={errors.name && describeServiceError(i18n, errors.name)}
          onChange={(value) => update('name', value)}
          autoComplete="off"
        />
        <TextField
          inputRef={originRef}
          label={t('services.field.origin')}
          hint={t('services.field.origin.hint')}
          value={draft.origin}
          error={errors.origin && describeServiceError(i18n, errors.origin)}
          onChange={(value) => update('origin', value)}
          type="url"
          placeholder="https://comply.example"
          spellCheck={false}
          autoComplete="url"
        />
      </div>
      <TextField
        inputRef={apiRef}
        label={t('services.field.apiPath')}
        hint={t('services.field.apiPath.hint', { placeholder: TOKEN_PLACEHOLDER })}
        value={draft.apiPathTemplate}
        error={errors.apiPathTemplate && describeServiceError(i18n, errors.apiPathTemplate)}
        onChange={(value) => update('apiPathTemplate', value)}
        spellCheck={false}
        mono
      />
      <TextAreaField
        inputRef={shareRef}
        label={t('services.field.sharePaths')}
        hint={t('services.field.sharePaths.hint', { placeholder: TOKEN_PLACEHOLDER })}
        value={draft.sharePathTemplates}
        error={errors.sharePathTemplates && describeServiceError(i18n, errors.sharePathTemplates)}
        onChange={(value) => update('sharePathTemplates', value)}
      />
      <div role="alert" id={formErrorId} className="empty:hidden">
        {formError && (
          <p className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-900 dark:bg-red-950 dark:text-red-200">{formError}</p>
        )}
      </div>
      {pending === 'access' && (
        <p role="status" className={hintClass}>
          {t('services.access.granting')}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <button type="submit" className={primaryButtonClass} disabled={pending !== null}>
          {mode === 'add' ? t('services.add.submit') : t('services.save')}
        </button>
        <button type="button" className={secondaryButtonClass} onClick={onCancel}>
          {t('services.cancel')}
        </button>
      </div>
    </form>
  );
}

interface FieldProps {
  label: string;
  hint: string;
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
}

function TextField({
  inputRef,
  label,
  hint,
  value,
  error,
  onChange,
  mono,
  ...rest
}: FieldProps & {
  inputRef: RefObject<HTMLInputElement | null>;
  mono?: boolean;
  type?: string;
  placeholder?: string;
  spellCheck?: boolean;
  autoComplete?: string;
}) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-800 dark:text-slate-200">
        {label}
      </label>
      <input
        ref={inputRef}
        id={id}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(error && `${id}-error`, `${id}-hint`)}
        className={`${inputClass} w-full ${mono ? 'font-mono' : ''}`}
        {...rest}
      />
      {error && (
        <p id={`${id}-error`} className={errorTextClass}>
          {error}
        </p>
      )}
      <p id={`${id}-hint`} className={hintClass}>
        {hint}
      </p>
    </div>
  );
}

function TextAreaField({
  inputRef,
  label,
  hint,
  value,
  error,
  onChange,
}: FieldProps & { inputRef: RefObject<HTMLTextAreaElement | null> }) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-800 dark:text-slate-200">
        {label}
      </label>
      <textarea
        ref={inputRef}
        id={id}
        rows={2}
        value={value}
        spellCheck={false}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(error && `${id}-error`, `${id}-hint`)}
        className={`${inputClass} w-full font-mono`}
      />
      {error && (
        <p id={`${id}-error`} className={errorTextClass}>
          {error}
        </p>
      )}
      <p id={`${id}-hint`} className={hintClass}>
        {hint}
      </p>
    </div>
  );
}
