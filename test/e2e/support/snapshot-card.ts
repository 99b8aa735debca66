import type { FrameLocator, Locator } from '@playwright/test';

/**
 * A snapshot as the extension's React surfaces show it (components/SnapshotCard.tsx), found by the
 * `data-testid`s DESIGN promises to tests outside the code. `scope` is what holds one card: the hover
 * card's frame, the popup's or side panel's link details, the founder preview's result.
 */
export class SnapshotCard {
  /** The card itself (`snapshot-card`). */
  readonly card: Locator;
  readonly companyName: Locator;
  readonly readinessScore: Locator;
  readonly readinessLabel: Locator;
  readonly riskBand: Locator;
  /** One per gap shown. */
  readonly gaps: Locator;
  readonly disclaimer: Locator;
  /** Shown instead of the card when the link failed (revoked, expired, network, …). */
  readonly errorMessage: Locator;
  /** The card's Refresh button (counts one view); labelled "Refreshing…" and disabled while it runs. */
  readonly refreshButton: Locator;

  constructor(readonly scope: Locator | FrameLocator) {
    this.card = scope.getByTestId('snapshot-card');
    this.companyName = scope.getByTestId('company-name');
    this.readinessScore = scope.getByTestId('readiness-score');
    this.readinessLabel = scope.getByTestId('readiness-label');
    this.riskBand = scope.getByTestId('risk-band');
    this.gaps = scope.getByTestId('gap');
    this.disclaimer = scope.getByTestId('disclaimer');
    this.errorMessage = scope.getByTestId('error-message');
    this.refreshButton = scope.getByRole('button', { name: 'Refresh' });
  }
}
