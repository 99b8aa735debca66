import { formatDateTime, formatRelative } from '@/lib/format';

export interface SnapshotErrorProps {
  code: string;
  message?: string;
  retryAt?: number;
  expiredAt?: string;
  now?: number;
  locale?: string;
  onRetry?: () => void;
}

/** What went wrong, in the reader's terms, with what they can do next. */
export function SnapshotError({ code, message, retryAt, expiredAt, now = Date.now(), locale, onRetry }: SnapshotErrorProps) {
  const { title, detail } = describeError(code, { retryAt, expiredAt, now, locale });
  return (
    <div role="alert" className="flex flex-col gap-1 rounded-lg bg-slate-50 p-3 text-sm ring-1 ring-slate-200 ring-inset dark:bg-slate-900 dark:ring-slate-700">
      <p className="font-semibold text-slate-900 dark:text-white">{title}</p>
      <p data-testid="error-message" className="text-xs text-slate-600 dark:text-slate-300">
        {detail}
      </p>
      {message && message !== detail && <p className="text-[11px] text-slate-500 dark:text-slate-400">{message}</p>}
      {onRetry && code !== 'NOT_FOUND' && code !== 'EXPIRED' && code !== 'FORBIDDEN_ORIGIN' && (
        <button
          type="button"
          onClick={onRetry}
          className="mt-1 self-start rounded border border-slate-300 px-2 py-0.5 text-xs font-medium hover:bg-white dark:border-slate-600 dark:hover:bg-slate-800"
        >
          Try again
        </button>
      )}
    </div>
  );
}

function describeError(
  code: string,
  context: { retryAt?: number; expiredAt?: string; now: number; locale?: string },
): { title: string; detail: string } {
  switch (code) {
    case 'NOT_FOUND':
      return {
        title: 'Link not valid',
        detail: 'This share link is invalid or was revoked by the founder. Ask them for a new one.',
      };
    case 'EXPIRED':
      return {
        title: 'Link expired',
        detail: context.expiredAt
          ? `This share link expired on ${formatDateTime(context.expiredAt, context.locale)}. Share links last 7 days; ask the founder for a new one.`
          : 'This share link has expired. Share links last 7 days; ask the founder for a new one.',
      };
    case 'RATE_LIMITED':
      return {
        title: 'Too many requests',
        detail: context.retryAt
          ? `The service is limiting requests from your network. Try again ${formatRelative(context.retryAt, context.now, context.locale)}.`
          : 'The service is limiting requests from your network. Try again in a minute.',
      };
    case 'TIMEOUT':
      return { title: 'No answer', detail: 'The service did not answer in time. Check your connection and try again.' };
    case 'NETWORK':
      return { title: 'Could not reach the service', detail: 'The request failed. Check your connection and try again.' };
    case 'INVALID_RESPONSE':
      return {
        title: 'Unreadable answer',
        detail: 'The service answered with data Compliance Lens could not verify, so nothing is shown.',
      };
    case 'FORBIDDEN_ORIGIN':
      return {
        title: 'Service not configured',
        detail: 'This link points to a service that is not in your settings, so nothing was sent to it.',
      };
    default:
      return { title: 'Something went wrong', detail: `The snapshot could not be loaded (${code}).` };
  }
}
