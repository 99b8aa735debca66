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

/**
 * Dates read alike on every surface of one language (the extension, whatever the reader's region,
 * and the `/share` page): English day first and 24-hour ("1 Dec 2026, 15:22 UTC"), French as in
 * France. Other locales keep their own conventions.
 */
const DATE_LOCALE: Readonly<Record<string, string>> = { en: 'en-GB', fr: 'fr-FR' };
function dateLocale(locale: string | undefined): string | undefined {
  const language = locale?.toLowerCase().split(/[-_]/)[0];
  return (language !== undefined && Object.hasOwn(DATE_LOCALE, language) ? DATE_LOCALE[language] : undefined) ?? locale;
}

/** "22 Nov 2026, 07:46 UTC": absolute times are shown in UTC, as the API states them. */
export function formatDateTime(value: Date | string | number, locale?: string): string {
  // dateStyle/timeStyle cannot be combined with timeZoneName, so the fields are spelled out.
  return new Intl.DateTimeFormat(dateLocale(locale), {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone: 'UTC',
    timeZoneName: 'short',
  }).format(new Date(value));
}

/** "22 Nov, 07:46": a short time in UTC for dense tables (the full form goes in a title). */
export function formatDayTime(value: Date | string | number, locale?: string): string {
  return new Intl.DateTimeFormat(dateLocale(locale), {
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone: 'UTC',
  }).format(new Date(value));
}

export function formatDate(value: Date | string | number, locale?: string): string {
  return new Intl.DateTimeFormat(dateLocale(locale), { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(value));
}

export function formatPercent(pct: number, locale?: string): string {
  return new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 0 }).format(pct / 100);
}
