import type { ReactNode } from 'react';
import { formatDateTime, formatRelative } from '@/lib/core/format';
import type { CardCatalog, CardTranslator } from '@/lib/core/i18n/card';
import type { SnapshotErrorCode } from '@/lib/core/schemas/results';
import { ERROR_TONE, type Tone } from '@/lib/core/palette';
import { useCardI18n } from './card-i18n';
import { ServiceText } from './ServiceText';
import { TONE_CLASS } from './tones';
import { useNow } from './useNow';

export interface SnapshotErrorProps {
  code: string;
  message?: string;
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
  const { code, message, retryAt, expiredAt, withdrawn, now: fixedNow, locale, onRetry, headerActions } = props;
  const i18n = useCardI18n();
  const now = useNow(fixedNow);
  const { t } = i18n;
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
      {message && message !== detail && (
        // The service's or the validator's own words: at hand for whoever reports the problem, folded away for the reader.
        <details className="text-[11px] text-slate-600 dark:text-slate-300">
          <summary className="cursor-pointer select-none">{t('error.details')}</summary>
          <ServiceText className="mt-0.5 break-words">{message}</ServiceText>
        </details>
      )}
      {onRetry && code !== 'NOT_FOUND' && code !== 'EXPIRED' && code !== 'FORBIDDEN_ORIGIN' && (
        <button
          type="button"
          onClick={onRetry}
          className="mt-1 self-start rounded border border-slate-300 px-2 py-0.5 text-xs font-medium hover:bg-white dark:border-slate-600 dark:hover:bg-slate-800"
        >
          {t('error.retry')}
        </button>
      )}
    </div>
  );
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
