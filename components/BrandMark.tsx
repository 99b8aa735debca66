import { BRAND_MARK } from '@/lib/core/brand';

/** The product mark (lib/core/brand.ts: the same as the toolbar icon and the `/share` page) in page headers. */
export function BrandMark({ size = 28 }: { size?: number }) {
  const { lens, handle, tick, tileRadius, viewBox } = BRAND_MARK;
  return (
    <svg aria-hidden="true" viewBox={viewBox} width={size} height={size} className="shrink-0">
      <rect width="32" height="32" rx={tileRadius} className="fill-brand" />
      <g fill="none" strokeLinecap="round" strokeLinejoin="round" className="stroke-on-brand">
        <circle cx={lens.cx} cy={lens.cy} r={lens.r} strokeWidth={lens.strokeWidth} />
        <path d={handle.d} strokeWidth={handle.strokeWidth} />
        <path d={tick.d} strokeWidth={tick.strokeWidth} />
      </g>
    </svg>
  );
}
