import { useMutation, useQuery } from '@tanstack/react-query';
import { useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { parseUserInput, type UserInputProblem } from '@/lib/core/links';
import type { AppKey } from '@/lib/core/i18n';
import { snapshotError, type SnapshotRequest, type SnapshotResult } from '@/lib/core/schemas/results';
import { messageOf } from '@/lib/core/thrown';
import { useI18n } from '../i18n';
import { describedBy, errorTextClass, hintClass } from '../styles';
import { inputClass } from '../styles';
import { usePageLinksApi } from '../page-links/context';
import { primaryButtonClass } from '../styles';
import { SnapshotDetail } from '../page-links/row-parts';
import { Spinner } from '../Spinner';
import { WatchToggle } from '../watchlist/WatchToggle';
import { pageLinksQueries } from '../page-links/queries';
import { toRow } from '../page-links/rows';

const PROBLEM_KEY: Readonly<Record<UserInputProblem, AppKey>> = {
  empty: 'preview.error.empty',
  'unknown-service': 'preview.error.unknownService',
  'not-a-share-path': 'preview.error.notASharePath',
  'not-a-link': 'preview.error.notALink',
};

/**
 * The founder's preview: paste a link (any form, wrapped or not) or a bare token with its service,
 * and see the snapshot exactly as an investor would (the same SnapshotCard). Fetches only on submit.
 */
export function FounderPreview({ now }: { now?: number }) {
  const { t } = useI18n();
  const api = usePageLinksApi();
  const settings = useQuery(pageLinksQueries.settings(api));
  const services = useMemo(() => settings.data?.services ?? [], [settings.data]);
  const [text, setText] = useState('');
  const [serviceOrigin, setServiceOrigin] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const fieldId = useId();
  const serviceId = useId();
  const resultHeadingId = useId();

  const parsed = useMemo(() => (text.trim() === '' ? null : parseUserInput(text, services)), [text, services]);
  const chosenService = services.find((service) => service.origin === serviceOrigin) ?? services[0];

  /** The snapshot shown: the last preview, replaced by a refresh of it. */
  const [shown, setShown] = useState<{ request: SnapshotRequest; result: SnapshotResult } | null>(null);
  const preview = useMutation({
    mutationFn: async ({ request, mode }: { request: SnapshotRequest; mode: 'get' | 'refresh' }) => {
      try {
        return { request, result: await (mode === 'refresh' ? api.refreshSnapshot(request) : api.getSnapshot(request)) };
      } catch (failure) {
        // The background could not be asked at all: shown like any other failed fetch.
        return { request, result: snapshotError('NETWORK', messageOf(failure)) };
      }
    },
    onSuccess: (data) => setShown(data),
  });
  const refreshing = preview.isPending && preview.variables.mode === 'refresh';

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (services.length === 0) {
      setError(t('preview.error.noServices'));
      return;
    }
    const input = parseUserInput(text, services);
    let request: SnapshotRequest;
    if (input.kind === 'link') request = { origin: input.link.origin, token: input.link.token };
    else if (input.kind === 'bare-token' && chosenService) request = { origin: chosenService.origin, token: input.token };
    else {
      setError(t(PROBLEM_KEY[input.kind === 'invalid' ? input.reason : 'not-a-link']));
      setShown(null);
      inputRef.current?.focus();
      return;
    }
    setError(null);
    setShown(null);
    preview.mutate({ request, mode: 'get' });
  }

  const detected =
    parsed?.kind === 'link'
      ? t('preview.detected.link', {
          kind: t(parsed.link.kind === 'api' ? 'pageLinks.linkKind.api' : 'pageLinks.linkKind.share'),
          service: parsed.link.service.name,
        })
      : parsed?.kind === 'bare-token'
        ? t('preview.detected.token')
        : null;
  const busy = preview.isPending;

  return (
    <div className="flex flex-col gap-4">
      <form noValidate onSubmit={submit} className="flex flex-col gap-3" aria-label={t('preview.heading')}>
        <div>
          <h2 className="text-sm font-semibold text-slate-900 dark:text-white">{t('preview.heading')}</h2>
          <p className={`mt-0.5 ${hintClass}`}>{t('preview.intro')}</p>
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={fieldId} className="text-sm font-medium text-slate-800 dark:text-slate-200">
            {t('preview.field')}
          </label>
          <textarea
            ref={inputRef}
            id={fieldId}
            rows={3}
            value={text}
            onChange={(event) => {
              setText(event.target.value);
              setError(null);
            }}
            onKeyDown={(event) => {
              // Enter submits (a pasted link is one line); Shift+Enter still makes a new line.
              if (event.key === 'Enter' && !event.shiftKey) {
                event.preventDefault();
                event.currentTarget.form?.requestSubmit();
              }
            }}
            spellCheck={false}
            autoComplete="off"
            placeholder="https://…/share/…"
            aria-invalid={error ? true : undefined}
            aria-describedby={describedBy(error && `${fieldId}-error`, detected && `${fieldId}-detected`, `${fieldId}-hint`)}
            className={`${inputClass} resize-none font-mono text-xs break-all`}
          />
          {error && (
            <p id={`${fieldId}-error`} role="alert" className={errorTextClass}>
              {error}
            </p>
          )}
          {detected && !error && (
            <p
              id={`${fieldId}-detected`}
              className="text-xs font-medium text-emerald-800 dark:text-emerald-300"
              data-testid="preview-detected"
            >
              {detected}
            </p>
          )}
          <p id={`${fieldId}-hint`} className={hintClass}>
            {t('preview.field.hint')}
          </p>
        </div>

        {parsed?.kind === 'bare-token' && services.length > 0 && (
          <div className="flex flex-col gap-1">
            <label htmlFor={serviceId} className="text-sm font-medium text-slate-800 dark:text-slate-200">
              {t('preview.service')}
            </label>
            <select
              id={serviceId}
              value={chosenService?.origin ?? ''}
              onChange={(event) => setServiceOrigin(event.target.value)}
              aria-describedby={`${serviceId}-hint`}
              className={inputClass}
            >
              {services.map((service) => (
                <option key={service.origin} value={service.origin}>
                  {service.name} ({service.origin})
                </option>
              ))}
            </select>
            <p id={`${serviceId}-hint`} className={hintClass}>
              {t('preview.service.hint')}
            </p>
          </div>
        )}

        <p
          className="rounded-md bg-amber-50 px-2.5 py-1.5 text-xs text-amber-950 dark:bg-amber-950/60 dark:text-amber-100"
          data-testid="preview-cost"
        >
          {t('preview.costNote')}
        </p>
        <div className="flex items-center gap-3">
          <button type="submit" className={primaryButtonClass} disabled={busy}>
            {preview.isPending && !refreshing ? (
              <>
                <Spinner />
                {t('preview.submitting')}
              </>
            ) : (
              t('preview.submit')
            )}
          </button>
        </div>
      </form>

      {shown && (
        <section
          aria-labelledby={resultHeadingId}
          className="flex flex-col gap-2 border-t border-slate-200 pt-3 dark:border-slate-800"
          data-testid="preview-result"
        >
          <h2 id={resultHeadingId} className="text-xs font-semibold tracking-wide text-slate-500 uppercase dark:text-slate-400">
            {t('preview.resultHeading')}
          </h2>
          <SnapshotDetail
            row={toRow({ ...shown.request, kind: 'share', canonicalKey: shown.request.token }, shown.result, refreshing)}
            onLoad={() => preview.mutate({ request: shown.request, mode: 'get' })}
            onRefresh={() => preview.mutate({ request: shown.request, mode: 'refresh' })}
            watchControl={<WatchToggle request={shown.request} />}
            {...(now !== undefined ? { now } : {})}
          />
        </section>
      )}
    </div>
  );
}
