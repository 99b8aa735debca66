import type { ReactNode } from 'react';
import { SERVICE_TEXT_LANGUAGE } from '@/lib/core/display-text';
import { useI18n } from './i18n';

/**
 * Text the service wrote (a snapshot's disclaimer, an error's details), shown as it is: marked with
 * its language (`lang`), so screen readers and translators treat it right, and in a UI of another
 * language followed by a short note that it is the service's original text (issue #27 item 8).
 */
export function ServiceText({
  children,
  testId,
  className,
  noteClassName = 'text-[11px] text-slate-600 italic dark:text-slate-300',
}: {
  children: ReactNode;
  /** On the text itself (the note is outside it), e.g. `disclaimer`. */
  testId?: string;
  className?: string;
  noteClassName?: string;
}) {
  const { t, language } = useI18n();
  return (
    <>
      <p data-testid={testId} lang={SERVICE_TEXT_LANGUAGE} className={className}>
        {children}
      </p>
      {language !== SERVICE_TEXT_LANGUAGE && (
        <p data-testid="service-text-note" className={noteClassName}>
          {t('vocab.serviceText.en')}
        </p>
      )}
    </>
  );
}

/** A snapshot's own disclaimer, in full, never cut or hidden, as the service wrote it. */
export function ServiceDisclaimer({ text }: { text: string }) {
  return (
    <div className="flex shrink-0 flex-col gap-1 rounded-md bg-slate-100 px-2.5 py-2 dark:bg-slate-800">
      <ServiceText testId="disclaimer" className="text-[11px] leading-snug text-slate-700 dark:text-slate-200">
        {text}
      </ServiceText>
    </div>
  );
}
