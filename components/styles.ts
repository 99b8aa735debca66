/** Class names every extension page shares: one look for buttons, fields and focus. */

export const focusRing = 'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent';

export const inputClass = `rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-xs placeholder:text-slate-400 aria-invalid:border-red-600 aria-invalid:ring-1 aria-invalid:ring-red-600 disabled:cursor-not-allowed disabled:bg-slate-100 disabled:text-slate-500 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 dark:aria-invalid:border-red-400 dark:aria-invalid:ring-red-400 dark:disabled:bg-slate-800 dark:disabled:text-slate-400 ${focusRing}`;

/** The one primary action of a view: the palette's primary colour (lib/core/palette.ts), muted in dark mode. */
export const primaryButtonClass = `inline-flex items-center justify-center gap-1.5 rounded-md bg-primary px-3.5 py-2 text-sm font-semibold text-on-primary shadow-xs hover:bg-primary-hover disabled:cursor-not-allowed disabled:opacity-60 ${focusRing}`;

/** The primary action where room is short (the hover card). */
export const compactPrimaryButtonClass = `inline-flex items-center justify-center gap-1 rounded-md bg-primary px-2.5 py-1 text-xs font-semibold text-on-primary shadow-xs hover:bg-primary-hover disabled:cursor-not-allowed disabled:opacity-60 ${focusRing}`;

export const secondaryButtonClass = `inline-flex items-center justify-center gap-1.5 rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-60 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800 ${focusRing}`;

/** Confirms what cannot be undone (deleting a watch and its history). */
export const destructiveButtonClass = `inline-flex items-center justify-center gap-1.5 rounded-md bg-tone-red-solid px-3 py-1.5 text-sm font-semibold text-white hover:brightness-95 disabled:cursor-not-allowed disabled:opacity-60 dark:text-slate-950 ${focusRing}`;

export const dangerButtonClass = `inline-flex items-center justify-center gap-1.5 rounded-md border border-red-300 bg-white px-3 py-1.5 text-sm font-medium text-red-800 hover:bg-red-50 disabled:cursor-not-allowed disabled:opacity-60 dark:border-red-800 dark:bg-slate-900 dark:text-red-300 dark:hover:bg-red-950 ${focusRing}`;

export const linkButtonClass = `rounded font-medium text-accent underline-offset-2 hover:underline ${focusRing}`;

export const hintClass = 'text-xs text-slate-600 dark:text-slate-400';
export const errorTextClass = 'text-xs font-medium text-red-700 dark:text-red-300';

/** The `aria-describedby` value for the ids present (hints, errors), or undefined when none is. */
export function describedBy(...ids: (string | false | null | undefined)[]): string | undefined {
  const present = ids.filter((id): id is string => typeof id === 'string' && id !== '');
  return present.length > 0 ? present.join(' ') : undefined;
}
