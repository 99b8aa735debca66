import { badgeLook, type BadgeLook } from '../../core/badge-look';
import type { ReadinessLabel, RiskBand } from '../../core/labels';
import { isErrorCode } from '../../core/guards';
import type { badgeEn } from '../../core/i18n/en/badge';
import { interpolate } from '../../core/i18n/translator';

/**
 * The little the badge may show: score, label and band, or the error. The rest of a snapshot never
 * reaches page DOM (it lives in the card iframe). As the background sends it (a badge summary), and
 * as the badge shows it: the guards check it into this type where it enters the content script.
 */
export type BadgeResult =
  | { state: 'ready'; score: number; label: ReadinessLabel; band: RiskBand }
  | {
      state: 'error';
      code: string;
      retryAt?: number | undefined;
      expiredAt?: string | undefined;
      /** NOT_FOUND for a link this browser once loaded: the founder withdrew it. */
      withdrawn?: boolean | undefined;
    };

export type BadgeState = 'idle' | 'loading' | 'ready' | 'error';

export type BadgeView = { state: 'idle' } | { state: 'loading' } | BadgeResult;

/** The state of every badge before anything is known (shared: views are never mutated). */
export const IDLE_VIEW: BadgeView = { state: 'idle' };
export const LOADING_VIEW: BadgeView = { state: 'loading' };

export interface BadgeDescription extends BadgeLook {
  /** Accessible name of the badge button: the state in words. */
  label: string;
}

/**
 * The badge strings of the reader's language, and the locale for dates. The content script does not
 * bundle the catalogs: the background sends the chosen language's slice (`getBadgeText`).
 */
export interface BadgeText {
  readonly locale: string;
  readonly strings: Readonly<Partial<Record<BadgeKey, string>>>;
}

type BadgeKey = keyof typeof badgeEn;

function say(text: BadgeText, key: BadgeKey, params?: Readonly<Record<string, string | number>>): string {
  return interpolate(text.strings[key] ?? key, params, text.locale);
}

const READINESS: Readonly<Record<ReadinessLabel, BadgeKey>> = {
  Critical: 'badge.readiness.critical',
  'In Progress': 'badge.readiness.inProgress',
  'Good Standing': 'badge.readiness.goodStanding',
  'Regulator Ready': 'badge.readiness.regulatorReady',
};

/** A UTC date ("20 November 2026") for the badge's accessible name. */
function formatDate(iso: string, locale: string): string | null {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? null
    : new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(date);
}

/** Whole seconds until `retryAt`, rounded up so "retry now" is never premature. */
const secondsUntil = (retryAt: number, now: number) => Math.max(1, Math.ceil((retryAt - now) / 1000));

/** "in 2 minutes", for the accessible name. */
function retryIn(seconds: number, locale: string): string {
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'always', style: 'long' });
  return seconds < 60 ? format.format(seconds, 'second') : format.format(Math.ceil(seconds / 60), 'minute');
}

/** Error codes with an accessible name of their own (`badge.error.<stem>.label`); the others read as "unexpected error (CODE)". */
const ERROR_STEMS: Readonly<Record<string, 'notFound' | 'network' | 'timeout' | 'invalidResponse' | 'forbiddenOrigin'>> = {
  NOT_FOUND: 'notFound',
  NETWORK: 'network',
  TIMEOUT: 'timeout',
  INVALID_RESPONSE: 'invalidResponse',
  FORBIDDEN_ORIGIN: 'forbiddenOrigin',
};

export function describeBadge(view: BadgeView, now: number, text: BadgeText): BadgeDescription {
  const hint = say(text, 'badge.hint');
  switch (view.state) {
    case 'idle':
      return { ...badgeLook(view), label: say(text, 'badge.idle.label') };
    case 'loading':
      return { ...badgeLook(view), label: say(text, 'badge.loading.label') };
    case 'ready':
      return {
        ...badgeLook(view),
        label: say(text, 'badge.ready.label', {
          score: view.score,
          readiness: say(text, READINESS[view.label]),
          band: say(text, `badge.band.spoken.${view.band}`),
          hint,
        }),
      };
    case 'error':
      return describeError(view, now, text, hint);
  }
}

function describeError(
  view: Extract<BadgeView, { state: 'error' }>,
  now: number,
  text: BadgeText,
  hint: string,
): BadgeDescription {
  const code = isErrorCode(view.code) ? view.code : 'UNKNOWN';
  const waiting = code === 'RATE_LIMITED' && view.retryAt !== undefined && view.retryAt > now;
  const seconds = waiting && view.retryAt !== undefined ? secondsUntil(view.retryAt, now) : undefined;
  const look = badgeLook({ state: 'error', code, withdrawn: view.withdrawn === true, retryInSeconds: seconds });
  let label: string;
  if (code === 'EXPIRED') {
    const date = view.expiredAt ? formatDate(view.expiredAt, text.locale) : null;
    label = date ? say(text, 'badge.error.expiredOn.label', { date, hint }) : say(text, 'badge.error.expired.label', { hint });
  } else if (code === 'RATE_LIMITED') {
    label =
      seconds === undefined
        ? say(text, 'badge.error.rateLimited.label')
        : say(text, 'badge.error.retryAt.label', { when: retryIn(seconds, text.locale) });
  } else if (code === 'NOT_FOUND' && view.withdrawn) {
    label = say(text, 'badge.error.withdrawn.label', { hint });
  } else {
    const stem = ERROR_STEMS[code];
    label = stem ? say(text, `badge.error.${stem}.label`, { hint }) : say(text, 'badge.error.unknown.label', { code: view.code });
  }
  return { ...look, label };
}
