import { CSV_BOM } from '@/lib/core/csv';

/** Saves text as a download from an extension page: CSV with a byte-order mark, JSON as it is. */
export function downloadText(fileName: string, text: string): void {
  const blob = fileName.endsWith('.json')
    ? new Blob([text], { type: 'application/json;charset=utf-8' })
    : new Blob([CSV_BOM, text], { type: 'text/csv;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = fileName;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
