import { formatDateTime, formatRelative } from '@/lib/core/format';
import type { AppTranslator } from '@/lib/core/i18n';
import { useI18n } from './i18n';
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
  const i18n = useI18n();
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

function describeError(
  { t }: AppTranslator,
  code: string,
  context: { retryAt?: number; expiredAt?: string; now: number; locale: string },
): { title: string; detail: string } {
  switch (code) {
    case 'NOT_FOUND':
      return { title: t('error.notFound.title'), detail: t('error.notFound.detail') };
    case 'EXPIRED':
      return {
        title: t('error.expired.title'),
        detail: context.expiredAt
          ? t('error.expiredOn.detail', { date: formatDateTime(context.expiredAt, context.locale) })
          : t('error.expired.detail'),
      };
    case 'RATE_LIMITED':
      return {
        title: t('error.rateLimited.title'),
        detail: context.retryAt
          ? t('error.rateLimitedUntil.detail', { when: formatRelative(context.retryAt, context.now, context.locale) })
          : t('error.rateLimited.detail'),
      };
    case 'TIMEOUT':
      return { title: t('error.timeout.title'), detail: t('error.timeout.detail') };
    case 'NETWORK':
      return { title: t('error.network.title'), detail: t('error.network.detail') };
    case 'INVALID_RESPONSE':
      return { title: t('error.invalidResponse.title'), detail: t('error.invalidResponse.detail') };
    case 'FORBIDDEN_ORIGIN':
      return { title: t('error.forbiddenOrigin.title'), detail: t('error.forbiddenOrigin.detail') };
    default:
      return { title: t('error.unknown.title'), detail: t('error.unknown.detail', { code }) };
  }
}
