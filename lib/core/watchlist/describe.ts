import { DISPLAY_NAME_MAX, displayText } from '../display-text';
import { formatRelative } from '../format';
import type { CardTranslator } from '../i18n/card';
import type { WatchlistTranslator } from '../i18n/watchlist';
import type { AripStage, GapSeverity, ProductClassification } from '../labels';
import { aripStageName, productName, readinessLabelName, riskBandName } from '../vocabulary';
import { formatDelta } from './diff';
import type { WatchChange } from './types';
import type { WatchSettings } from './schedule';

/**
 * One line of text per change, in the reader's language: the same words in a notification (the
 * background) and in a row's details (the pages).
 */

const severity = ({ t }: WatchlistTranslator, value: GapSeverity) => t(`snapshot.severity.${value}`);
/** A founder's gap title, cleaned and cut: it goes into notifications and rows. */
export const gapTitle = (title: string) => displayText(title, { max: DISPLAY_NAME_MAX });
const arip = (i18n: WatchlistTranslator, value: AripStage | null) =>
  aripStageName(i18n, value)?.name ?? i18n.t('snapshot.notInArip');
const product = (i18n: WatchlistTranslator, value: ProductClassification | null) =>
  productName(i18n, value)?.name ?? i18n.t('snapshot.notClassified');

export function describeChange(i18n: WatchlistTranslator, change: WatchChange, now: number): string {
  const { t } = i18n;
  switch (change.kind) {
    case 'readiness':
      return t('watch.change.readiness', { from: change.from, to: change.to, delta: formatDelta(change.delta) });
    case 'fundraise':
      return t('watch.change.fundraise', { from: change.from, to: change.to, delta: formatDelta(change.delta) });
    case 'label':
      return t('watch.change.label', { from: readinessLabelName(i18n, change.from), to: readinessLabelName(i18n, change.to) });
    case 'band':
      return t('watch.change.band', { from: riskBandName(i18n, change.from), to: riskBandName(i18n, change.to) });
    case 'gap-added':
      return t('watch.change.gapAdded', { severity: severity(i18n, change.severity), title: gapTitle(change.title) });
    case 'gap-resolved':
      return t(change.displaced ? 'watch.change.gapDisplaced' : 'watch.change.gapResolved', {
        severity: severity(i18n, change.severity),
        title: gapTitle(change.title),
      });
    case 'gap-severity':
      return t('watch.change.gapSeverity', {
        from: severity(i18n, change.from),
        to: severity(i18n, change.to),
        title: gapTitle(change.title),
      });
    case 'checklist':
      return t('watch.change.checklist', { from: change.from, to: change.to });
    case 'arip':
      return t('watch.change.arip', { from: arip(i18n, change.from), to: arip(i18n, change.to) });
    case 'classification':
      return t('watch.change.classification', { from: product(i18n, change.from), to: product(i18n, change.to) });
    case 'new-pack':
      return change.hash ? t('watch.change.newPack', { hash: change.hash }) : t('watch.change.newPackNoHash');
    case 'expiring':
      return t('watch.change.expiring', { when: formatRelative(Date.parse(change.expiresAt), now, i18n.locale) });
    case 'ended':
      return t(`watch.change.ended.${change.code}`);
  }
}

/** "once a day", "every 30 s", … */
export function describeCadence({ t }: CardTranslator, settings: Pick<WatchSettings, 'cadence' | 'intervalSeconds'>): string {
  return settings.cadence === 'interval'
    ? t('watch.cadence.interval', { seconds: settings.intervalSeconds })
    : t(`watch.cadence.${settings.cadence}`);
}
