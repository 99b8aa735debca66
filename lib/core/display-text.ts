/**
 * Text from a service or a founder (company names, gap titles) as every surface shows it: the card,
 * the badge, the lists, the watchlist, notifications. Pure and framework-free (the content script
 * may use it).
 */

/**
 * The language the service writes its own text in (disclaimer, error details): the spec's. Shown as
 * it is, marked with this language, with a note in a UI of another language.
 */
export const SERVICE_TEXT_LANGUAGE = 'en';

/** A readable length for a name in a row, a notification title or a badge's label. */
export const DISPLAY_NAME_MAX = 120;

/**
 * What is removed: control characters (C0, DEL, C1), bidi embeddings, overrides, isolates and marks
 * (they reorder the text around them: "gnp.exe" shown for "exe.png"), zero-width spaces, word joiners,
 * byte-order marks and line/paragraph separators. Zero-width joiners stay: emoji and several scripts
 * need them.
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const INVISIBLE = /[\u0000-\u0008\u000E-\u001F\u007F-\u009F\u061C\u200B\u200E\u200F\u202A-\u202E\u2060-\u2069\uFEFF]/g;
/** Tabs, line breaks and other spacing become one plain space: a name is one line. */
const SPACING = /[\s\u2028\u2029]+/g;

const ELLIPSIS = '…';

let segmenter: Intl.Segmenter | undefined;
const graphemes = (text: string): string[] =>
  Array.from((segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' })).segment(text), (part) => part.segment);

/**
 * `value` cleaned for display, and with `max`, cut to at most `max` characters as a reader counts
 * them (graphemes), at a word when one ends near the cut, with an ellipsis. Show the uncut, cleaned
 * text in a tooltip where it was cut.
 */
export function displayText(value: string, options: { max?: number } = {}): string {
  const cleaned = value.replace(INVISIBLE, '').replace(SPACING, ' ').trim();
  const max = options.max;
  if (max === undefined || cleaned.length <= max) return cleaned;
  const characters = graphemes(cleaned);
  if (characters.length <= max) return cleaned;
  const kept = characters.slice(0, max - 1);
  // Back to the last space within the last sixth, so a word is not cut in two.
  const space = kept.lastIndexOf(' ');
  const cut = space > (max * 5) / 6 ? kept.slice(0, space) : kept;
  return `${cut.join('').trimEnd()}${ELLIPSIS}`;
}
