import { describe, expect, it } from 'vitest';
import { diffRegulators } from '@/lib/core/watchlist/regulators';

const set = (primary: string | null, ...secondary: string[]) => ({ primary, secondary });

describe('diffRegulators', () => {
  it('no change: the same regulators, the secondary list in any order or with repeats', () => {
    expect(diffRegulators(set('CBN', 'SEC_NIGERIA', 'NFIU'), set('CBN', 'NFIU', 'SEC_NIGERIA'))).toBeNull();
    expect(diffRegulators(set('CBN', 'NFIU'), set('CBN', 'NFIU', 'NFIU'))).toBeNull();
    expect(diffRegulators(set(null), set(null))).toBeNull();
  });

  it('a regulator added or removed, as secondary or primary', () => {
    expect(diffRegulators(set('CBN'), set('CBN', 'SEC_NIGERIA'))).toMatchObject({ added: ['SEC_NIGERIA'], removed: [] });
    expect(diffRegulators(set('CBN', 'NFIU'), set('CBN'))).toMatchObject({ added: [], removed: ['NFIU'] });
    expect(diffRegulators(set(null), set('CBK'))).toMatchObject({ added: ['CBK'], removed: [] });
    expect(diffRegulators(set('CBK'), set(null))).toMatchObject({ added: [], removed: ['CBK'] });
  });

  it('the primary moving to a secondary one is a change that adds and removes nothing', () => {
    const change = diffRegulators(set('CBN', 'SEC_NIGERIA'), set('SEC_NIGERIA', 'CBN'));
    expect(change).toEqual({
      kind: 'regulators',
      from: set('CBN', 'SEC_NIGERIA'),
      to: set('SEC_NIGERIA', 'CBN'),
      added: [],
      removed: [],
    });
  });

  it('a primary replaced by a new one', () => {
    expect(diffRegulators(set('CBN', 'NFIU'), set('SEC_NIGERIA', 'NFIU'))).toMatchObject({
      added: ['SEC_NIGERIA'],
      removed: ['CBN'],
    });
  });
});
