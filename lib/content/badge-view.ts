import type { ReadinessLabel, RiskBand } from '../snapshot/labels';
import type { BadgeResult } from './types';

export type BadgeState = 'idle' | 'loading' | 'ready' | 'error';

export type BadgeView =
  | { state: 'idle' }
  | { state: 'loading' }
  | { state: 'ready'; score: number; label: ReadinessLabel; band: RiskBand }
  | { state: 'error'; code: string; retryAt?: number | undefined; expiredAt?: string | undefined };

/** Colour family of the badge; the words always carry the meaning too (never colour alone). */
export type BadgeTone = 'neutral' | 'critical' | 'progress' | 'good' | 'ready' | 'muted' | 'warning';

export interface BadgeDescription {
  /** Short visible text. */
  text: string;
  /** Accessible name of the badge button. */
  label: string;
  tone: BadgeTone;
}

export const IDLE_LABEL = 'Compliance snapshot — hover or press Enter to load (counts as a view)';

const BAND_SHORT: Readonly<Record<RiskBand, string>> = {
  high: 'High',
  medium: 'Medium',
  low: 'Low',
  investor_ready: 'Investor-ready',
};

const BAND_SPOKEN: Readonly<Record<RiskBand, string>> = {
  high: 'high fundraising risk',
  medium: 'medium fundraising risk',
  low: 'low fundraising risk',
  investor_ready: 'investor-ready fundraising risk band',
};

const READINESS_TONE: Readonly<Record<ReadinessLabel, BadgeTone>> = {
  Critical: 'critical',
  'In Progress': 'progress',
  'Good Standing': 'good',
  'Regulator Ready': 'ready',
};

export function viewFromResult(result: BadgeResult): BadgeView {
  return result.status === 'ready'
    ? { state: 'ready', score: result.score, label: result.label, band: result.band }
    : { state: 'error', code: result.code, retryAt: result.retryAt, expiredAt: result.expiredAt };
}

function shortDate(iso: string, locale: string | undefined): string | null {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  return new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(date);
}

function longDate(iso: string, locale: string | undefined): string | null {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  return new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(date);
}

/** "in 2 min." (short) and "in 2 minutes" (long), rounded up so "retry now" is never premature. */
function retryIn(retryAt: number, now: number, locale: string | undefined, style: 'short' | 'long'): string {
  const seconds = Math.max(1, Math.ceil((retryAt - now) / 1000));
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'always', style });
  return seconds < 60 ? format.format(seconds, 'second') : format.format(Math.ceil(seconds / 60), 'minute');
}

const HINT = 'Press Enter for details.';

export function describeBadge(view: BadgeView, now: number, locale?: string): BadgeDescription {
  switch (view.state) {
    case 'idle':
      return { text: 'CL', label: IDLE_LABEL, tone: 'neutral' };
    case 'loading':
      return { text: 'CL', label: 'Compliance snapshot — loading', tone: 'neutral' };
    case 'ready':
      return {
        text: `${view.score} · ${BAND_SHORT[view.band]}`,
        label: `Compliance snapshot: readiness ${view.score} of 100, ${view.label}; ${BAND_SPOKEN[view.band]}. ${HINT}`,
        tone: READINESS_TONE[view.label],
      };
    case 'error':
      return describeError(view, now, locale);
  }
}

function describeError(view: Extract<BadgeView, { state: 'error' }>, now: number, locale?: string): BadgeDescription {
  const prefix = 'Compliance snapshot unavailable:';
  switch (view.code) {
    case 'NOT_FOUND':
      return { text: 'Invalid link', label: `${prefix} this share link is invalid or was revoked. ${HINT}`, tone: 'muted' };
    case 'EXPIRED': {
      const short = view.expiredAt ? shortDate(view.expiredAt, locale) : null;
      const long = view.expiredAt ? longDate(view.expiredAt, locale) : null;
      return {
        text: short ? `Expired ${short}` : 'Expired',
        label: `${prefix} this share link expired${long ? ` on ${long}` : ''}. ${HINT}`,
        tone: 'muted',
      };
    }
    case 'RATE_LIMITED':
      return view.retryAt !== undefined && view.retryAt > now
        ? {
            text: `Retry ${retryIn(view.retryAt, now, locale, 'short')}`,
            label: `${prefix} too many requests from your network; try again ${retryIn(view.retryAt, now, locale, 'long')}.`,
            tone: 'warning',
          }
        : {
            text: 'Busy',
            label: `${prefix} too many requests from your network; try again shortly.`,
            tone: 'warning',
          };
    case 'NETWORK':
      return {
        text: 'Offline',
        label: `${prefix} the service could not be reached. Hover or press Enter to try again.`,
        tone: 'warning',
      };
    case 'TIMEOUT':
      return {
        text: 'No answer',
        label: `${prefix} the service did not answer in time. Hover or press Enter to try again.`,
        tone: 'warning',
      };
    case 'INVALID_RESPONSE':
      return {
        text: 'Unreadable',
        label: `${prefix} the service answered with data that could not be verified, so nothing is shown.`,
        tone: 'warning',
      };
    case 'FORBIDDEN_ORIGIN':
      return {
        text: 'Not enabled',
        label: `${prefix} this service is not enabled in Compliance Lens settings, so nothing was sent to it.`,
        tone: 'muted',
      };
    default:
      return { text: 'Error', label: `${prefix} an unexpected error occurred (${view.code}).`, tone: 'warning' };
  }
}
