import { formatDateTime } from '@/lib/core/format';
import type { SavableCopy, SignatureVerdict } from '@/lib/core/schemas/results';
import { copyFileName } from '@/lib/core/signing/copy';
import { useCardI18n } from './card-i18n';
import { downloadText } from './download';

/** The service's host for "Signed by …" (the origin as configured; never a URL from the answer). */
export function hostOf(origin: string): string {
  try {
    return new URL(origin).host;
  } catch {
    return origin;
  }
}

/**
 * One quiet line on the card for the answer's signature (issue #36): verified (the key id and time on
 * hover and focus), not signed, not checked, or invalid (then `SignatureAlert` stands before the figures).
 */
export function SignatureLine({ signature, host, locale }: { signature: SignatureVerdict; host: string; locale: string }) {
  const { t } = useCardI18n();
  const text =
    signature.state === 'invalid'
      ? t('snapshot.signature.invalid')
      : signature.state === 'verified'
        ? t('snapshot.signature.verified', { host })
        : signature.state === 'unsigned'
          ? t('snapshot.signature.unsigned', { host })
          : t('snapshot.signature.unchecked', { host });
  const detail =
    signature.state === 'verified'
      ? t('snapshot.signature.verifiedDetail', { kid: signature.kid, when: formatDateTime(new Date(signature.signedAt), locale) })
      : signature.state === 'unsigned'
        ? undefined
        : signature.message;
  return (
    <span
      data-testid="signature"
      data-state={signature.state}
      tabIndex={signature.state === 'verified' ? 0 : undefined}
      title={detail}
      className={signature.state === 'invalid' ? 'font-semibold text-red-800 dark:text-red-200' : undefined}
    >
      {text}
    </span>
  );
}

/** Before the figures of an answer whose signature fails: they may not be what the service sent. */
export function SignatureAlert({ host }: { host: string }) {
  const { t } = useCardI18n();
  return (
    <p
      role="alert"
      data-testid="signature-invalid"
      className="rounded-md bg-red-50 px-2.5 py-1.5 text-xs font-semibold text-red-900 ring-1 ring-red-300 ring-inset dark:bg-red-950 dark:text-red-100 dark:ring-red-800"
    >
      {t('snapshot.signature.invalidAlert', { host })}
    </p>
  );
}

/**
 * "Save a verifiable copy" (issue #36): the verified answer as a `.json` file anyone can check with
 * `npm run verify`; token-free, stamped with the time it is saved.
 */
export function SaveCopyButton({
  copy,
  company,
  save = downloadText,
  className = 'font-medium text-accent underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-brand',
  ariaLabel,
}: {
  copy: SavableCopy;
  company: string;
  save?: (fileName: string, text: string) => void;
  className?: string;
  /** Where several companies' buttons are on one page: the name says whose. */
  ariaLabel?: string;
}) {
  const { t } = useCardI18n();
  return (
    <button
      type="button"
      data-testid="save-copy"
      title={t('snapshot.signature.saveCopyTitle')}
      aria-label={ariaLabel}
      onClick={() => {
        const savedAt = new Date();
        save(copyFileName(company, savedAt), `${JSON.stringify({ ...copy, saved_at: savedAt.toISOString() }, null, 2)}\n`);
      }}
      className={className}
    >
      {t('snapshot.signature.saveCopy')}
    </button>
  );
}
