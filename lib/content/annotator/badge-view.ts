import type { BadgeFace, BadgeWords } from '../../core/badge-face';
import { interpolate } from '../../core/i18n/translator';

/**
 * What a badge shows. A result is the background's badge face (lib/core/badge-face.ts: its look and
 * its accessible name, worded in the reader's language): the rest of a snapshot never reaches page
 * DOM (it lives in the card iframe). The guards check it into this type where it enters the content
 * script. Before any result the badge says its own words: not loaded, or loading.
 */
export type BadgeResult = BadgeFace;

export type BadgeState = 'idle' | 'loading' | 'ready' | 'error';

export type BadgeView = { state: 'idle' } | { state: 'loading' } | BadgeResult;

/** The state of every badge before anything is known (shared: views are never mutated). */
export const IDLE_VIEW: BadgeView = { state: 'idle' };
export const LOADING_VIEW: BadgeView = { state: 'loading' };

/** What a badge paints: its chip's text, tone, border and size of text, and its accessible name. */
export type BadgeDescription = Pick<BadgeFace, 'text' | 'tone' | 'dashed' | 'mark' | 'label'>;

/**
 * The badge strings of the reader's language, its locale, and the badge's stylesheet. The content
 * script bundles neither the catalogs nor the palette: the background sends the chosen language's
 * slice and the stylesheet (`text` of the settings copy, or of `getPageSettings`). No badge is drawn
 * before its stylesheet is known.
 */
export type BadgeText = BadgeWords & { readonly style: string };

/** The chip of a link nothing is known of yet (the product's initials), dashed until it is loaded. */
const NOT_LOADED = { text: 'CL', tone: 'neutral', mark: false } as const;

export function describeBadge(view: BadgeView, text: BadgeText): BadgeDescription {
  const say = (key: 'badge.idle.label' | 'badge.loading.label' | 'badge.error.invalidResponse.label') =>
    interpolate(text.strings[key] ?? key, { hint: text.strings['badge.hint'] ?? '' }, text.locale);
  if (view.state === 'idle') return { ...NOT_LOADED, dashed: true, label: say('badge.idle.label') };
  if (view.state === 'loading') return { ...NOT_LOADED, dashed: false, label: say('badge.loading.label') };
  // A face that arrived malformed has no words of its own (lib/protocol/guarded: INVALID_BADGE).
  return view.label === '' ? { ...view, label: say('badge.error.invalidResponse.label') } : view;
}
