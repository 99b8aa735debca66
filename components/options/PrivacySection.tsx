import { useI18n } from '../i18n';
import { Section } from './ui';

const PRIVACY_POINTS = ['privacy.token', 'privacy.when', 'privacy.views', 'privacy.stores', 'privacy.nothingElse'] as const;

/** A plain statement of what leaves the browser, where to, and what is kept. */
export function PrivacySection() {
  const { t } = useI18n();
  return (
    <Section title={t('privacy.heading')}>
      <ul className="flex list-disc flex-col gap-1.5 pl-5 text-sm text-slate-700 marker:text-slate-400 dark:text-slate-300">
        {PRIVACY_POINTS.map((key) => (
          <li key={key}>{t(key)}</li>
        ))}
      </ul>
    </Section>
  );
}
