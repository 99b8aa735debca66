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
  | { state: 'ready'; score: number; label: ReadinessLabel }
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
      return { text: `${view.score}/100`, tone: READINESS_TONE[view.label], dashed: false, mark: false };
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

/**
 * The chip's CSS for elements matching `chip` (`data-tone` and `data-dashed` set from a BadgeLook),
 * light and dark, from the palette. Where the chip sits is the caller's (the content script draws it
 * over the page, the demo page in its table).
 */
export function badgeChipCss(chip: string): string {
  const tones = (scheme: Scheme) =>
    TONES.map((tone) => {
      const { fg, bg, border } = scheme.tones[tone];
      return `${chip}[data-tone=${tone}]{color:${fg};background:${bg};border-color:${border}}`;
    }).join('');
  return (
    `${chip}{display:inline-flex;align-items:center;justify-content:center;gap:3px;box-sizing:border-box;` +
    `width:${BADGE_WIDTH}px;height:${BADGE_HEIGHT}px;padding:0 3px;border:1px solid;border-radius:8px;` +
    `font:700 10px/14px system-ui,sans-serif;white-space:nowrap;overflow:hidden;` +
    `font-variant-numeric:tabular-nums;cursor:pointer;user-select:none}` +
    `${chip}[data-dashed]{border-style:dashed}${chip}[data-mark]{font-size:13px}` +
    tones(PALETTE.light) +
    `${chip}:focus-visible{outline:2px solid ${PALETTE.light.brand.accent};outline-offset:1px}` +
    `@media (prefers-color-scheme:dark){${tones(PALETTE.dark)}` +
    `${chip}:focus-visible{outline-color:${PALETTE.dark.brand.accent}}}`
  );
}

/** The badge chip's stylesheet for the content script (`.b`), as the module scripts/palette.ts writes. */
export function badgeChipCssModule(): string {
  return [
    '// Generated from lib/core/badge-look.ts and lib/core/palette.ts by scripts/palette.ts: do not edit',
    '// (test/repository/palette.test.ts checks).',
    `export const BADGE_CHIP_CSS = ${JSON.stringify(badgeChipCss('.b'))};`,
    '',
  ].join('\n');
}
