import { describe, expect, it } from 'vitest';
import { sortRows, toRow } from '@/components/page-links/rows';
import { pageLink, readyResult } from '../popup/helpers';

describe('sortRows', () => {
  it('collates company names for the locale (case and accents) and keeps ties in page order', () => {
    const rows = [
      toRow(pageLink(1), readyResult('Éclat Pay'), false),
      toRow(pageLink(2), readyResult('abuja Remit'), false),
      toRow(pageLink(3), readyResult('Zed'), false),
      toRow(pageLink(4), readyResult('ecobank digital'), false),
    ];
    expect(sortRows(rows, { column: 'company', direction: 'ascending' }, 'fr-FR').map((row) => row.company)).toEqual([
      'abuja Remit',
      'Éclat Pay',
      'ecobank digital',
      'Zed',
    ]);
    expect(sortRows(rows, { column: 'readiness', direction: 'ascending' }, 'en').map((row) => row.link.token)).toEqual(
      rows.map((row) => row.link.token),
    );
  });
});
