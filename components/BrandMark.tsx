/** The product mark in the popup and side panel headers. */
export function BrandMark() {
  return (
    <span
      aria-hidden="true"
      className="flex h-7 w-7 shrink-0 items-center justify-center rounded-md bg-sky-700 text-xs font-bold text-white dark:bg-sky-400 dark:text-slate-950"
    >
      CL
    </span>
  );
}
