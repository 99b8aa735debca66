import { PALETTE } from './palette';

/**
 * The one product mark: a lens with a tick on the brand's tile. Drawn from this description by the
 * extension's pages (components/BrandMark.tsx), the `/share` page (server/platform/views/html.ts) and the icon
 * script (scripts/icons.ts: the toolbar and store icons).
 */
export const BRAND_MARK = {
  viewBox: '0 0 32 32',
  tileRadius: 7,
  lens: { cx: 14, cy: 14, r: 7.25, strokeWidth: 3 },
  handle: { d: 'M19.6 19.6 25 25', strokeWidth: 3.6 },
  /** Left out at 16 px, where it would blur into the lens. */
  tick: { d: 'M10.7 14.3 13 16.6 17.3 12.2', strokeWidth: 2.2 },
} as const;

export interface BrandMarkOptions {
  /** Pixel size of the square (width and height attributes). */
  size: number;
  tile?: string;
  ink?: string;
  /** The tick inside the lens (default: above 16 px). */
  tick?: boolean;
  /** Extra attributes, written as they are (trusted text only). */
  attributes?: string;
}

/** The mark as an SVG document fragment (static text: no founder data ever goes in). */
export function brandMarkSvg(options: BrandMarkOptions): string {
  const { lens, handle, tick, tileRadius, viewBox } = BRAND_MARK;
  const tile = options.tile ?? PALETTE.light.brand.mark;
  const ink = options.ink ?? PALETTE.light.brand.onMark;
  const withTick = options.tick ?? options.size > 16;
  const stroke = `fill="none" stroke="${ink}" stroke-linecap="round" stroke-linejoin="round"`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="${viewBox}" width="${options.size}" height="${options.size}"${options.attributes ? ` ${options.attributes}` : ''}>`,
    `<rect width="32" height="32" rx="${tileRadius}" fill="${tile}"/>`,
    `<circle cx="${lens.cx}" cy="${lens.cy}" r="${lens.r}" stroke-width="${lens.strokeWidth}" ${stroke}/>`,
    `<path d="${handle.d}" stroke-width="${handle.strokeWidth}" ${stroke}/>`,
    withTick ? `<path d="${tick.d}" stroke-width="${tick.strokeWidth}" ${stroke}/>` : '',
    '</svg>',
  ].join('');
}
