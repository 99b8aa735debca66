/** Locale-aware date and number formatting for every surface (framework-free). */

const RELATIVE_UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600_000],
  ['month', 30 * 24 * 3600_000],
  ['week', 7 * 24 * 3600_000],
  ['day', 24 * 3600_000],
  ['hour', 3600_000],
  ['minute', 60_000],
  ['second', 1000],
];

/** "in 6 days", "3 minutes ago", "now". */
export function formatRelative(target: Date | number, now: Date | number, locale?: string): string {
  const diff = Number(target) - Number(now);
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  for (const [unit, size] of RELATIVE_UNITS) {
    if (Math.abs(diff) >= size || unit === 'second') {
      return format.format(Math.round(diff / size), unit);
    }
  }
  return format.format(0, 'second');
}

/** "22 Nov 2026, 07:46 UTC": absolute times are shown in UTC, as the API states them. */
export function formatDateTime(value: Date | string | number, locale?: string): string {
  // dateStyle/timeStyle cannot be combined with timeZoneName, so the fields are spelled out.
  return new Intl.DateTimeFormat(locale, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: 'UTC',
    timeZoneName: 'short',
  }).format(new Date(value));
}

/** "22 Nov, 07:46": a short time in UTC for dense tables (the full form goes in a title). */
export function formatDayTime(value: Date | string | number, locale?: string): string {
  return new Intl.DateTimeFormat(locale, {
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: 'UTC',
  }).format(new Date(value));
}

export function formatDate(value: Date | string | number, locale?: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(value));
}

export function formatPercent(pct: number, locale?: string): string {
  return new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 0 }).format(pct / 100);
}
