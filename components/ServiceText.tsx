import type { ReactNode } from 'react';
import { SERVICE_TEXT_LANGUAGE } from '@/lib/core/display-text';
import { useCardI18n } from './card-i18n';

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
  const { t, language } = useCardI18n();
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

/**
 * A snapshot's own disclaimer, in full, never cut or hidden, as the service wrote it. `compact`: set
 * smaller and tighter where room is short (the hover card), still whole and readable.
 */
export function ServiceDisclaimer({ text, compact = false }: { text: string; compact?: boolean }) {
  return (
    <div
      className={`flex shrink-0 flex-col rounded-md bg-slate-100 dark:bg-slate-800 ${compact ? 'gap-0.5 px-2 py-1.5' : 'gap-1 px-2.5 py-2'}`}
    >
      <ServiceText
        testId="disclaimer"
        className={`${compact ? 'text-[10.5px] leading-[1.35]' : 'text-[11px] leading-snug'} text-slate-700 dark:text-slate-200`}
        noteClassName={`${compact ? 'text-[10px]' : 'text-[11px]'} text-slate-600 italic dark:text-slate-300`}
      >
        {text}
      </ServiceText>
    </div>
  );
}
