/**
 * Regulator changes between two states of one company: the watchlist's points leave regulators out
 * (the extension shows them but does not follow them), and the server's change events need them. Pure
 * and zod-free like diff.ts, beside which it runs: the server calls `diffPoints` and this together.
 */

export interface RegulatorSet {
  primary: string | null;
  secondary: readonly string[];
}

export interface RegulatorChange {
  kind: 'regulators';
  from: RegulatorSet;
  to: RegulatorSet;
  /** Regulators now named (as primary or secondary) that were not before, in the order the new state lists them. */
  added: string[];
  /** Regulators no longer named, in the order the old state listed them. */
  removed: string[];
}

const named = (set: RegulatorSet): string[] => [...new Set([...(set.primary === null ? [] : [set.primary]), ...set.secondary])];

/**
 * What changed in who regulates the company, or null when nothing did. The secondary list is a set:
 * its order does not count, and repeated codes count once. A regulator moving from secondary to
 * primary is a change (the primary moved) but is neither added nor removed.
 */
export function diffRegulators(previous: RegulatorSet, next: RegulatorSet): RegulatorChange | null {
  const before = named(previous);
  const after = named(next);
  const added = after.filter((code) => !before.includes(code));
  const removed = before.filter((code) => !after.includes(code));
  const sameSecondary =
    new Set(previous.secondary).size === new Set(next.secondary).size &&
    previous.secondary.every((code) => next.secondary.includes(code));
  if (previous.primary === next.primary && sameSecondary) return null;
  return { kind: 'regulators', from: previous, to: next, added, removed };
}
