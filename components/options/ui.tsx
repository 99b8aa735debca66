import { useId, type ReactNode } from 'react';
import { ZodError } from 'zod';
import { useI18n } from '../i18n';
import { errorTextClass, hintClass } from '../styles';

/** Shared building blocks of the options page: one look for every section. */

export function Section({
  title,
  description,
  status,
  children,
}: {
  title: string;
  description?: ReactNode;
  /** Shown beside the title, e.g. the section's save status. */
  status?: ReactNode;
  children: ReactNode;
}) {
  const headingId = useId();
  return (
    <section
      aria-labelledby={headingId}
      className="rounded-xl border border-slate-200 bg-white p-5 shadow-xs dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="flex items-baseline justify-between gap-3">
        <h2 id={headingId} className="text-base font-semibold text-slate-900 dark:text-white">
          {title}
        </h2>
        {status}
      </div>
      {description && <p className={`mt-1 ${hintClass}`}>{description}</p>}
      <div className="mt-4 flex flex-col gap-4">{children}</div>
    </section>
  );
}

function LockIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 16 16" className="h-3.5 w-3.5 shrink-0 fill-current">
      <path d="M8 1a3.5 3.5 0 0 0-3.5 3.5V6H4a1.5 1.5 0 0 0-1.5 1.5v6A1.5 1.5 0 0 0 4 15h8a1.5 1.5 0 0 0 1.5-1.5v-6A1.5 1.5 0 0 0 12 6h-.5V4.5A3.5 3.5 0 0 0 8 1Zm2 5H6V4.5a2 2 0 1 1 4 0V6Z" />
    </svg>
  );
}

/** Shown under a control an administrator decides; the control is disabled and points here. */
export function LockedNote({ id }: { id: string }) {
  const { t } = useI18n();
  return (
    <p id={id} className="flex items-center gap-1 text-xs font-medium text-amber-800 dark:text-amber-300">
      <LockIcon />
      {t('options.locked')}
    </p>
  );
}

/** Joins ids for aria-describedby, skipping the absent ones. */
/** A short reason for a failure, readable in a sentence. */
export function errorReason(error: unknown): string {
  if (error instanceof ZodError) {
    return error.issues.map((issue) => `${issue.path.join('.') || 'value'}: ${issue.message}`).join('; ');
  }
  if (error instanceof Error) return error.message;
  return String(error);
}

/** "Saving…", "Saved" or "Not saved: …" for a section's immediate-save controls. */
export function SaveStatus({ status, error }: { status: 'idle' | 'pending' | 'success' | 'error'; error: unknown }) {
  const { t } = useI18n();
  return (
    <p role="status" className="shrink-0 text-xs">
      {status === 'pending' && <span className="text-slate-600 dark:text-slate-400">{t('options.saving')}</span>}
      {status === 'success' && <span className="text-emerald-800 dark:text-emerald-300">✓ {t('options.saved')}</span>}
      {status === 'error' && <span className={errorTextClass}>{t('options.saveError', { reason: errorReason(error) })}</span>}
    </p>
  );
}

export type Notice = { tone: 'success' | 'error'; text: string } | null;

/** A section's announcement after an action (added, removed, permission denied…). */
export function NoticeLine({ notice }: { notice: Notice }) {
  return (
    <div role="status" aria-live="polite" className="empty:hidden">
      {notice && (
        <p
          className={
            notice.tone === 'success'
              ? 'rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200'
              : 'rounded-md bg-red-50 px-3 py-2 text-sm text-red-900 dark:bg-red-950 dark:text-red-200'
          }
        >
          {notice.text}
        </p>
      )}
    </div>
  );
}
