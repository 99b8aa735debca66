import type { ReactNode } from 'react';
import { formatDateTime, formatRelative } from '@/lib/core/format';
import type { CardCatalog, CardTranslator } from '@/lib/core/i18n/card';
import type { ErrorReason, SnapshotErrorCode } from '@/lib/core/schemas/results';
import { SNAPSHOT_DEADLINE_MS } from '@/lib/core/schemas/results';
import { ERROR_TONE, type Tone } from '@/lib/core/palette';
import { useCardI18n } from './card-i18n';
import { ServiceText } from './ServiceText';
import { TONE_CLASS } from './tones';
import { useNow } from './useNow';

/** What the technical details say: the extension's own account (worded here) and the service's own words. */
export interface ErrorTechnicalDetails {
  reason?: ErrorReason | undefined;
  httpStatus?: number | undefined;
  fields?: readonly string[] | undefined;
  serviceMessage?: string | undefined;
}

export interface SnapshotErrorProps {
  code: string;
  technical?: ErrorTechnicalDetails;
  retryAt?: number;
  expiredAt?: string;
  /** NOT_FOUND for a link this browser once loaded (`SnapshotError.withdrawn`). */
  withdrawn?: boolean;
  now?: number;
  /** Formatting locale; defaults to the i18n context's (see `components/i18n.tsx`). */
  locale?: string;
  onRetry?: () => void;
  /**
   * Controls beside the title (the hover card's close button). With them the error is the whole
   * card, so it draws no box of its own.
   */
  headerActions?: ReactNode;
}

/** What went wrong, in the reader's terms, with what they can do next. */
export function SnapshotError(props: SnapshotErrorProps) {
  const { code, technical = {}, retryAt, expiredAt, withdrawn, now: fixedNow, locale, onRetry, headerActions } = props;
  const i18n = useCardI18n();
  // A pause counts down live (issue #33 item 5); every other error moves on with the page's clock.
  const pausedUntil = code === 'RATE_LIMITED' ? retryAt : undefined;
  const now = useNow(fixedNow, pausedUntil !== undefined ? 1000 : undefined);
  const { t } = i18n;
  const pauseLeft = pausedUntil === undefined ? 0 : Math.max(0, pausedUntil - now);
  const ownDetail = technicalText(i18n, technical);
  const tone = ERROR_TONE[code === 'NOT_FOUND' && withdrawn ? 'WITHDRAWN' : isKnownCode(code) ? code : 'INVALID_RESPONSE'];
  const { title, detail } = describeError(i18n, code, { retryAt, expiredAt, withdrawn, now, locale: locale ?? i18n.locale });
  return (
    <div
      role="alert"
      className={`flex flex-col gap-1 text-sm ${
        headerActions ? '' : 'rounded-lg bg-slate-50 p-3 ring-1 ring-slate-200 ring-inset dark:bg-slate-900 dark:ring-slate-700'
      }`}
    >
      <div className="flex items-start gap-2">
        <ErrorIcon tone={tone} />
        <p className="min-w-0 flex-1 font-semibold text-slate-900 dark:text-white">{title}</p>
        {headerActions && <div className="-mt-1 -mr-1 flex shrink-0 items-center gap-0.5">{headerActions}</div>}
      </div>
      <p data-testid="error-message" className="text-xs text-slate-600 dark:text-slate-300">
        {detail}
      </p>
      {(ownDetail || technical.serviceMessage) && (
        // Folded away for the reader, at hand for whoever reports the problem: the extension's own
        // account in the reader's language, then what the service itself said, marked as its words.
        <details className="text-[11px] text-slate-600 dark:text-slate-300">
          <summary className="cursor-pointer select-none">{t('error.details')}</summary>
          {ownDetail && <p className="mt-0.5 break-words">{ownDetail}</p>}
          {technical.serviceMessage && (
            <>
              <p className="mt-0.5">{t('error.tech.serviceSaid')}</p>
              <ServiceText className="break-words">{technical.serviceMessage}</ServiceText>
            </>
          )}
        </details>
      )}
      {onRetry && code !== 'NOT_FOUND' && code !== 'EXPIRED' && code !== 'FORBIDDEN_ORIGIN' && (
        <button
          type="button"
          onClick={onRetry}
          disabled={pauseLeft > 0}
          className="mt-1 self-start rounded border border-slate-300 px-2 py-0.5 text-xs font-medium tabular-nums hover:bg-white disabled:cursor-not-allowed disabled:opacity-60 disabled:hover:bg-transparent dark:border-slate-600 dark:hover:bg-slate-800"
        >
          {pauseLeft > 0 ? t('error.retryIn', { time: countdown(pauseLeft) }) : t('error.retry')}
        </button>
      )}
    </div>
  );
}

/** "0:42", "12:05": the time left of a pause, to the second. */
function countdown(ms: number): string {
  const seconds = Math.ceil(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/** The extension's own account of a failure, in the reader's language; null when it has none to give. */
function technicalText({ t }: CardTranslator, { reason, httpStatus, fields }: ErrorTechnicalDetails): string | null {
  const status = httpStatus ?? 0;
  switch (reason) {
    case undefined:
      return null;
    case 'unreachable':
      return t('error.tech.unreachable');
    case 'timeout':
      return t('error.tech.timeout', { seconds: SNAPSHOT_DEADLINE_MS / 1000 });
    case 'interrupted':
      return t('error.tech.interrupted');
    case 'server-error':
      return t('error.tech.serverError', { status });
    case 'unexpected-status':
      return t('error.tech.unexpectedStatus', { status });
    case 'not-json':
      return t('error.tech.notJson');
    case 'schema':
      return t('error.tech.schema', { fields: (fields ?? []).join(', ') || '–' });
    case 'too-large':
      return t('error.tech.tooLarge');
  }
}

/** Title and detail of each error code a snapshot request can end with (the popup's rows show the title). */
export const ERROR_TEXT = {
  NOT_FOUND: { title: 'error.notFound.title', detail: 'error.notFound.detail' },
  EXPIRED: { title: 'error.expired.title', detail: 'error.expired.detail' },
  RATE_LIMITED: { title: 'error.rateLimited.title', detail: 'error.rateLimited.detail' },
  TIMEOUT: { title: 'error.timeout.title', detail: 'error.timeout.detail' },
  NETWORK: { title: 'error.network.title', detail: 'error.network.detail' },
  INVALID_RESPONSE: { title: 'error.invalidResponse.title', detail: 'error.invalidResponse.detail' },
  FORBIDDEN_ORIGIN: { title: 'error.forbiddenOrigin.title', detail: 'error.forbiddenOrigin.detail' },
} as const satisfies Readonly<Record<SnapshotErrorCode, { title: keyof CardCatalog; detail: keyof CardCatalog }>>;

const WITHDRAWN_TEXT = { title: 'error.withdrawn.title', detail: 'error.withdrawn.detail' } as const;

const isKnownCode = (code: string): code is SnapshotErrorCode => Object.hasOwn(ERROR_TEXT, code);

/**
 * The short name of an error (a list row's status, a watch's end): "Withdrawn by the founder" for a
 * link once seen working, the code's own title otherwise.
 */
export function errorTitleKey(code: SnapshotErrorCode, withdrawn = false): keyof CardCatalog {
  return code === 'NOT_FOUND' && withdrawn ? WITHDRAWN_TEXT.title : ERROR_TEXT[code].title;
}

function describeError(
  { t }: CardTranslator,
  code: string,
  context: { retryAt?: number; expiredAt?: string; withdrawn?: boolean; now: number; locale: string },
): { title: string; detail: string } {
  if (!isKnownCode(code)) return { title: t('error.unknown.title'), detail: t('error.unknown.detail', { code }) };
  const text = code === 'NOT_FOUND' && context.withdrawn ? WITHDRAWN_TEXT : ERROR_TEXT[code];
  if (code === 'EXPIRED' && context.expiredAt) {
    return {
      title: t(text.title),
      detail: t('error.expiredOn.detail', { date: formatDateTime(context.expiredAt, context.locale) }),
    };
  }
  if (code === 'RATE_LIMITED' && context.retryAt) {
    if (context.retryAt <= context.now) return { title: t(text.title), detail: t('error.rateLimitedOver.detail') };
    const when = formatRelative(context.retryAt, context.now, context.locale);
    return { title: t(text.title), detail: t('error.rateLimitedUntil.detail', { when }) };
  }
  return { title: t(text.title), detail: t(text.detail) };
}

/** The error's tone as a small mark before its title: a withdrawn link reads as a signal, a passing problem as one. */
function ErrorIcon({ tone }: { tone: Tone }) {
  return (
    <span
      aria-hidden="true"
      className={`mt-0.5 inline-flex size-4 shrink-0 items-center justify-center rounded-full ring-1 ring-inset ${TONE_CLASS[tone]}`}
    >
      <svg viewBox="0 0 16 16" width="10" height="10" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round">
        {tone === 'neutral' ? <path d="M4.5 8h7" /> : <path d="M8 4v5M8 11.8v.2" />}
      </svg>
    </span>
  );
}
