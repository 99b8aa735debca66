import type { ReadinessLabel, RiskBand } from '../../core/labels';
import type { badgeEn } from '../../core/i18n/en/badge';
import { interpolate } from '../../core/i18n/translator';

/**
 * The little the badge may show: score, label and band, or the error. The rest of a snapshot never
 * reaches page DOM (it lives in the card iframe). As the background sends it (a badge summary), and
 * as the badge shows it: the guards check it into this type where it enters the content script.
 */
export type BadgeResult =
  | { state: 'ready'; score: number; label: ReadinessLabel; band: RiskBand }
  | { state: 'error'; code: string; retryAt?: number | undefined; expiredAt?: string | undefined };

export type BadgeState = 'idle' | 'loading' | 'ready' | 'error';

export type BadgeView = { state: 'idle' } | { state: 'loading' } | BadgeResult;

/** The state of every badge before anything is known (shared: views are never mutated). */
export const IDLE_VIEW: BadgeView = { state: 'idle' };
export const LOADING_VIEW: BadgeView = { state: 'loading' };

/** Colour family of the badge; the words always carry the meaning too (never colour alone). */
export type BadgeTone = 'neutral' | 'critical' | 'progress' | 'good' | 'ready' | 'muted' | 'warning';

export interface BadgeDescription {
  /** Short visible text. */
  text: string;
  /** Accessible name of the badge button. */
  label: string;
  tone: BadgeTone;
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

const READINESS: Readonly<Record<ReadinessLabel, { key: BadgeKey; tone: BadgeTone }>> = {
  Critical: { key: 'badge.readiness.critical', tone: 'critical' },
  'In Progress': { key: 'badge.readiness.inProgress', tone: 'progress' },
  'Good Standing': { key: 'badge.readiness.goodStanding', tone: 'good' },
  'Regulator Ready': { key: 'badge.readiness.regulatorReady', tone: 'ready' },
};

/** A UTC date, short ("20 Nov") for the badge's text, long ("20 November 2026") for its label. */
function formatDate(iso: string, locale: string, format: Intl.DateTimeFormatOptions): string | null {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : new Intl.DateTimeFormat(locale, { ...format, timeZone: 'UTC' }).format(date);
}

/** "in 2 min." (short) and "in 2 minutes" (long), rounded up so "retry now" is never premature. */
function retryIn(retryAt: number, now: number, locale: string, style: 'short' | 'long'): string {
  const seconds = Math.max(1, Math.ceil((retryAt - now) / 1000));
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'always', style });
  return seconds < 60 ? format.format(seconds, 'second') : format.format(Math.ceil(seconds / 60), 'minute');
}

/** Error codes with a text pair of their own (`badge.error.<stem>.text` / `.label`); the others read as "unexpected error (CODE)". */
type ErrorStem = 'notFound' | 'network' | 'timeout' | 'invalidResponse' | 'forbiddenOrigin';
const ERROR_STEMS: Readonly<Record<string, readonly [stem: ErrorStem, tone: BadgeTone]>> = {
  NOT_FOUND: ['notFound', 'muted'],
  NETWORK: ['network', 'warning'],
  TIMEOUT: ['timeout', 'warning'],
  INVALID_RESPONSE: ['invalidResponse', 'warning'],
  FORBIDDEN_ORIGIN: ['forbiddenOrigin', 'muted'],
};

export function describeBadge(view: BadgeView, now: number, text: BadgeText): BadgeDescription {
  const hint = say(text, 'badge.hint');
  switch (view.state) {
    case 'idle':
      return { text: say(text, 'badge.brand'), label: say(text, 'badge.idle.label'), tone: 'neutral' };
    case 'loading':
      return { text: say(text, 'badge.brand'), label: say(text, 'badge.loading.label'), tone: 'neutral' };
    case 'ready': {
      const readiness = READINESS[view.label];
      return {
        text: say(text, 'badge.ready.text', { score: view.score, band: say(text, `badge.band.short.${view.band}`) }),
        label: say(text, 'badge.ready.label', {
          score: view.score,
          readiness: say(text, readiness.key),
          band: say(text, `badge.band.spoken.${view.band}`),
          hint,
        }),
        tone: readiness.tone,
      };
    }
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
  if (view.code === 'EXPIRED') {
    const short = view.expiredAt ? formatDate(view.expiredAt, text.locale, { day: 'numeric', month: 'short' }) : null;
    const long = view.expiredAt ? formatDate(view.expiredAt, text.locale, { dateStyle: 'long' }) : null;
    return {
      text: short ? say(text, 'badge.error.expiredOn.text', { date: short }) : say(text, 'badge.error.expired.text'),
      label: long
        ? say(text, 'badge.error.expiredOn.label', { date: long, hint })
        : say(text, 'badge.error.expired.label', { hint }),
      tone: 'muted',
    };
  }
  if (view.code === 'RATE_LIMITED') {
    if (view.retryAt !== undefined && view.retryAt > now) {
      return {
        text: say(text, 'badge.error.retryAt.text', { when: retryIn(view.retryAt, now, text.locale, 'short') }),
        label: say(text, 'badge.error.retryAt.label', { when: retryIn(view.retryAt, now, text.locale, 'long') }),
        tone: 'warning',
      };
    }
    return {
      text: say(text, 'badge.error.rateLimited.text'),
      label: say(text, 'badge.error.rateLimited.label'),
      tone: 'warning',
    };
  }
  const known = ERROR_STEMS[view.code];
  if (known) {
    const [stem, tone] = known;
    return { text: say(text, `badge.error.${stem}.text`), label: say(text, `badge.error.${stem}.label`, { hint }), tone };
  }
  return {
    text: say(text, 'badge.error.unknown.text'),
    label: say(text, 'badge.error.unknown.label', { code: view.code }),
    tone: 'warning',
  };
}
