import { formatDateTime, formatRelative } from '@/lib/core/format';
import type { CardCatalog, CardTranslator } from '@/lib/core/i18n/card';
import type { SnapshotErrorCode } from '@/lib/core/schemas/results';
import { useCardI18n } from './card-i18n';
import { useNow } from './useNow';

export interface SnapshotErrorProps {
  code: string;
  message?: string;
  retryAt?: number;
  expiredAt?: string;
  now?: number;
  /** Formatting locale; defaults to the i18n context's (see `components/i18n.tsx`). */
  locale?: string;
  onRetry?: () => void;
}

/** What went wrong, in the reader's terms, with what they can do next. */
export function SnapshotError({ code, message, retryAt, expiredAt, now: fixedNow, locale, onRetry }: SnapshotErrorProps) {
  const i18n = useCardI18n();
  const now = useNow(fixedNow);
  const { t } = i18n;
  const { title, detail } = describeError(i18n, code, { retryAt, expiredAt, now, locale: locale ?? i18n.locale });
  return (
    <div
      role="alert"
      className="flex flex-col gap-1 rounded-lg bg-slate-50 p-3 text-sm ring-1 ring-slate-200 ring-inset dark:bg-slate-900 dark:ring-slate-700"
    >
      <p className="font-semibold text-slate-900 dark:text-white">{title}</p>
      <p data-testid="error-message" className="text-xs text-slate-600 dark:text-slate-300">
        {detail}
      </p>
      {message && message !== detail && (
        <p className="text-[11px] text-slate-500 dark:text-slate-400">{t('error.details', { message })}</p>
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

const isKnownCode = (code: string): code is SnapshotErrorCode => Object.hasOwn(ERROR_TEXT, code);

function describeError(
  { t }: CardTranslator,
  code: string,
  context: { retryAt?: number; expiredAt?: string; now: number; locale: string },
): { title: string; detail: string } {
  if (!isKnownCode(code)) return { title: t('error.unknown.title'), detail: t('error.unknown.detail', { code }) };
  const text = ERROR_TEXT[code];
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
