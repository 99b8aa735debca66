import { BRAND_MARK } from './brand';
import type { ReadinessLabel } from './labels';
import { ERROR_TONE, PALETTE, READINESS_TONE, TONES, type Scheme, type Tone } from './palette';
import type { SnapshotErrorCode } from './result-codes';

/**
 * How a link's badge looks, in every state, wherever it is drawn: next to a link by the content
 * script, and on the `/demo` page's "Expected badge" column. One size in every state (the chip's
 * width fits "100/100"); the readiness score with its scale, in the readiness label's tone; a
 * failed link as one mark in its tone (its words are in the badge's accessible name and the card).
 */

/** The chip's fixed width and height (CSS pixels): the same whatever the state and language. */
export const BADGE_WIDTH = 56;
export const BADGE_HEIGHT = 16;
/**
 * The compact chip, where the full one has no room beside its link (a narrow or clipped cell, a line
 * the full chip alone would wrap): the score without its scale, or the state's mark.
 */
export const BADGE_COMPACT_WIDTH = 26;
/** Space between a link and its chip. */
export const BADGE_GAP = 4;

/** What a badge shows: its text (a score with its scale, or a mark), its tone, and whether its border is dashed (nothing known). */
export interface BadgeLook {
  text: string;
  tone: Tone;
  dashed: boolean;
  /** The text is one of BADGE_MARKS (set larger than a score). */
  mark: boolean;
}

/** The states a badge can be in, as the look needs them (a 404 split by whether this browser saw the link work). */
export type BadgeLookState =
  | { state: 'idle' }
  | { state: 'loading' }
  /** `signatureFails`: the service's key did not sign this answer (its figures are not shown as the service's). */
  | { state: 'ready'; score: number; label: ReadinessLabel; signatureFails?: boolean | undefined }
  | { state: 'error'; code: SnapshotErrorCode; withdrawn?: boolean | undefined };

/** Marks of the failed states: withdrawn (barred), expired (a clock), not found (a question), a passing problem (!), a service not enabled (a dash). */
export const BADGE_MARKS = {
  idle: 'CL',
  withdrawn: '⊘',
  expired: '◷',
  notFound: '?',
  passing: '!',
  forbidden: '–',
} as const;

export function badgeLook(view: BadgeLookState): BadgeLook {
  switch (view.state) {
    case 'idle':
    case 'loading':
      return { text: BADGE_MARKS.idle, tone: 'neutral', dashed: view.state === 'idle', mark: false };
    case 'ready':
      return view.signatureFails
        ? { text: BADGE_MARKS.passing, tone: ERROR_TONE.INVALID_RESPONSE, dashed: false, mark: true }
        : { text: `${view.score}/100`, tone: READINESS_TONE[view.label], dashed: false, mark: false };
    case 'error':
      return errorLook(view);
  }
}

function errorLook({ code, withdrawn }: Extract<BadgeLookState, { state: 'error' }>): BadgeLook {
  const mark = (text: string, tone: Tone, dashed = false): BadgeLook => ({ text, tone, dashed, mark: true });
  if (code === 'NOT_FOUND')
    return withdrawn ? mark(BADGE_MARKS.withdrawn, ERROR_TONE.WITHDRAWN) : mark(BADGE_MARKS.notFound, ERROR_TONE.NOT_FOUND, true);
  if (code === 'EXPIRED') return mark(BADGE_MARKS.expired, ERROR_TONE.EXPIRED);
  if (code === 'FORBIDDEN_ORIGIN') return mark(BADGE_MARKS.forbidden, ERROR_TONE.FORBIDDEN_ORIGIN, true);
  return mark(BADGE_MARKS.passing, ERROR_TONE[code]);
}

/** The brand mark's lens and handle (lib/core/brand.ts) as an image for a CSS mask: the chip's own ink colours it. */
export function badgeMarkMaskUrl(): string {
  const { lens, handle, viewBox } = BRAND_MARK;
  const stroke = `fill='none' stroke='%23000' stroke-linecap='round'`;
  return (
    `url("data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg' viewBox='${viewBox}'>` +
    `<circle cx='${lens.cx}' cy='${lens.cy}' r='${lens.r}' stroke-width='${lens.strokeWidth + 1}' ${stroke}/>` +
    `<path d='${handle.d}' stroke-width='${handle.strokeWidth + 1}' ${stroke}/></svg>")`
  );
}

/**
 * Where the chip is drawn. `extension`: by the content script, inside the badge's shadow root, as
 * wide as its host (full or compact, `lib/content/annotator/badge.ts`), in the colours of the page it
 * sits on (`data-scheme` on the host, set from the page's background), not of the system's scheme.
 * `page`: the `/demo` page's "Expected badge" column, full width, following the system's scheme.
 */
export type ChipPlacement = 'extension' | 'page';

/**
 * The chip's CSS for elements matching `chip` (`data-tone` and `data-dashed` set from a BadgeLook),
 * light and dark, from the palette, with a focus ring of two colours (the accent, and a halo of the
 * page's own ground) that stands out at 3:1 or more on either scheme.
 */
export function badgeChipCss(chip: string, placement: ChipPlacement = 'page'): string {
  const inExtension = placement === 'extension';
  const tones = (scheme: Scheme, prefix = '') =>
    TONES.map((tone) => {
      const { fg, bg, border } = scheme.tones[tone];
      return `${prefix}${chip}[data-tone=${tone}]{color:${fg};background:${bg};border-color:${border}}`;
    }).join('');
  const ring = (scheme: Scheme, halo: string, prefix = '') =>
    `${prefix}${chip}:focus-visible{outline:2px solid ${scheme.brand.accent};outline-offset:1px;box-shadow:0 0 0 1px ${halo}}`;
  const size = inExtension ? 'width:100%;height:100%' : `width:${BADGE_WIDTH}px;height:${BADGE_HEIGHT}px`;
  const dark = inExtension
    ? tones(PALETTE.dark, ':host([data-scheme=dark]) ') + ring(PALETTE.dark, '#000', ':host([data-scheme=dark]) ')
    : `@media (prefers-color-scheme:dark){${tones(PALETTE.dark)}${ring(PALETTE.dark, '#000')}}`;
  return (
    `${chip}{display:inline-flex;align-items:center;justify-content:center;gap:3px;box-sizing:border-box;` +
    `${size};padding:0 3px;border:1px solid;border-radius:8px;` +
    `font:700 10px/14px system-ui,sans-serif;white-space:nowrap;overflow:hidden;` +
    `font-variant-numeric:tabular-nums;cursor:pointer;user-select:none}` +
    `${chip}[data-dashed]{border-style:dashed}${chip}[data-mark]{font-size:13px}` +
    tones(PALETTE.light) +
    ring(PALETTE.light, '#fff') +
    dark
  );
}

/**
 * The stylesheet of a badge's shadow root, as the background sends it to the content script with the
 * badge's words (`text` of the settings copy and of `getPageSettings`): the content script carries no palette of its own (its size budget).
 * The class names are lib/content/annotator/badge.ts's: the chip `.b` holds a spinner `.s`, the mark
 * `.m`, the score or the state's mark `.t` and the score's scale `.u`. `:host::before`/`::after`: a
 * page rule cannot paint over the chip from the host's own pseudo-elements. The compact chip drops the
 * scale (`76`, not `76/100`) and the not-loaded chip's letters (its mark stays).
 */
export function badgeStylesheet(): string {
  return (
    ':host::before,:host::after{content:none!important;display:none!important}.b:focus{outline:none}' +
    badgeChipCss('.b', 'extension') +
    '.b:hover{filter:brightness(.96)}' +
    `.m{display:none;width:10px;height:10px;background:currentColor;mask:${badgeMarkMaskUrl()} center/contain no-repeat}` +
    ':host([data-state=idle]) .m{display:inline-block}' +
    ':host([data-compact]) .u,:host([data-compact]:not([data-state=ready]):not([data-state=error])) .t{display:none}' +
    '.s{display:none;width:7px;height:7px;border-radius:50%;border:1.5px solid currentColor;border-right-color:transparent;animation:r .8s linear infinite}' +
    ':host([data-state=loading]) .s{display:inline-block}@keyframes r{to{transform:rotate(360deg)}}' +
    '@media (prefers-reduced-motion:reduce){.s{animation:none;border-right-color:currentColor;opacity:.5}}'
  );
}
