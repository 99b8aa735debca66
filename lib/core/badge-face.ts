import { badgeLook, type BadgeLook } from './badge-look';
import type { badgeEn } from './i18n/en/badge';
import { interpolate } from './i18n/translator';
import type { ReadinessLabel, RiskBand } from './labels';
import type { SnapshotErrorCode } from './result-codes';

/**
 * A badge as a content script paints it: its look (lib/core/badge-look.ts) and its accessible name
 * in the reader's language, with the state the page's test hooks carry (`data-state`,
 * `data-error-code`, `data-withdrawn`). The background words it, so the content script carries no
 * vocabulary, palette or date formatting of its own (its size budget).
 */
interface WordedLook extends BadgeLook {
  /** The badge's accessible name: the state in words. */
  label: string;
}

export type BadgeFace =
  | (WordedLook & { state: 'ready' })
  | (WordedLook & {
      state: 'error';
      code: SnapshotErrorCode;
      withdrawn?: true;
      /** RATE_LIMITED: when the service may be asked again (the badge invites a new try then). */
      retryAt?: number;
    });

/** What the background knows of a result when it words a badge (a `BadgeSummary`, seen zod-free). */
export type FaceSource =
  | { state: 'ready'; score: number; label: ReadinessLabel; band: RiskBand; signatureFails?: true }
  | { state: 'error'; code: SnapshotErrorCode; retryAt?: number; expiredAt?: string; withdrawn?: true };

type ErrorFace = Extract<BadgeFace, { state: 'error' }>;

/** The badge strings of one language, with its locale for dates (the `text` of `getPageSettings` and of the settings copy). */
export interface BadgeWords {
  readonly locale: string;
  readonly strings: Readonly<Partial<Record<BadgeKey, string>>>;
}

export type BadgeKey = keyof typeof badgeEn;

export function sayBadge(words: BadgeWords, key: BadgeKey, params?: Readonly<Record<string, string | number>>): string {
  return interpolate(words.strings[key] ?? key, params, words.locale);
}

const READINESS: Readonly<Record<ReadinessLabel, BadgeKey>> = {
  Critical: 'badge.readiness.critical',
  'In Progress': 'badge.readiness.inProgress',
  'Good Standing': 'badge.readiness.goodStanding',
  'Regulator Ready': 'badge.readiness.regulatorReady',
};

/** Error codes with an accessible name of their own (`badge.error.<stem>.label`). */
const ERROR_STEMS = {
  NOT_FOUND: 'notFound',
  NETWORK: 'network',
  TIMEOUT: 'timeout',
  INVALID_RESPONSE: 'invalidResponse',
  FORBIDDEN_ORIGIN: 'forbiddenOrigin',
} as const;

const utcDate = (iso: string, locale: string): string | null => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? null
    : new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(date);
};

/** The badge for what the background knows of a link, worded in `words`' language. */
export function badgeFace(summary: FaceSource, words: BadgeWords): BadgeFace {
  const hint = sayBadge(words, 'badge.hint');
  if (summary.state === 'ready') {
    // Figures the service's key did not sign are not shown on the badge as the service's (the card says why).
    const label = summary.signatureFails
      ? sayBadge(words, 'badge.ready.signatureFails.label', { hint })
      : sayBadge(words, 'badge.ready.label', {
          score: summary.score,
          readiness: sayBadge(words, READINESS[summary.label]),
          band: sayBadge(words, `badge.band.spoken.${summary.band}`),
          hint,
        });
    return { ...badgeLook(summary), state: 'ready', label };
  }
  const { code, withdrawn, retryAt, expiredAt } = summary;
  const face: ErrorFace = { ...badgeLook({ state: 'error', code, withdrawn }), state: 'error', code, label: '' };
  if (withdrawn) face.withdrawn = true;
  if (code === 'EXPIRED') {
    const date = expiredAt ? utcDate(expiredAt, words.locale) : null;
    face.label = date
      ? sayBadge(words, 'badge.error.expiredOn.label', { date, hint })
      : sayBadge(words, 'badge.error.expired.label', { hint });
  } else if (code === 'RATE_LIMITED') {
    if (retryAt === undefined) face.label = sayBadge(words, 'badge.error.rateLimited.label');
    else {
      face.retryAt = retryAt;
      const time = new Intl.DateTimeFormat(words.locale, { timeStyle: 'short' }).format(retryAt);
      face.label = sayBadge(words, 'badge.error.retryAt.label', { time });
    }
  } else if (code === 'NOT_FOUND' && withdrawn) {
    face.label = sayBadge(words, 'badge.error.withdrawn.label', { hint });
  } else {
    face.label = sayBadge(words, `badge.error.${ERROR_STEMS[code]}.label`, { hint });
  }
  return face;
}
