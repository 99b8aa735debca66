/**
 * Badge strings (content script). Kept apart so the content script can import this slice alone
 * (`lib/core/i18n/badge.ts`) and stay within its size budget.
 */
export const badgeEn = {
  'badge.hint': 'Press Enter for details.',
  'badge.idle.label': 'Compliance Lens: compliance snapshot not loaded — hover or press Enter to load it (counts as a view)',
  'badge.loading.label': 'Compliance Lens: compliance snapshot — loading',
  'badge.ready.label': 'Compliance snapshot: readiness {score}/100, {readiness}; {band}. {hint}',
  'badge.ready.signatureFails.label':
    'Compliance snapshot: its signature does not match the service’s key, so it may not be what the service sent. {hint}',
  'badge.readiness.critical': 'Critical',
  'badge.readiness.inProgress': 'In Progress',
  'badge.readiness.goodStanding': 'Good Standing',
  'badge.readiness.regulatorReady': 'Regulator Ready',
  'badge.band.spoken.high': 'high fundraising risk',
  'badge.band.spoken.medium': 'medium fundraising risk',
  'badge.band.spoken.low': 'low fundraising risk',
  'badge.band.spoken.investor_ready': 'investor-ready fundraising risk band',
  'badge.error.notFound.label':
    'Compliance snapshot unavailable: the service does not know this share link (revoked before you opened it, or copied wrong). {hint}',
  'badge.error.withdrawn.label':
    'Compliance snapshot withdrawn: the founder has revoked this share link since you last loaded it. {hint}',
  'badge.error.expired.label': 'Compliance snapshot unavailable: this share link expired. {hint}',
  'badge.error.expiredOn.label': 'Compliance snapshot unavailable: this share link expired on {date}. {hint}',
  'badge.error.rateLimited.label': 'Compliance snapshot unavailable: too many requests from your network; try again shortly.',
  'badge.error.retryAt.label': 'Compliance snapshot unavailable: too many requests from your network; try again after {time}.',
  'badge.error.network.label':
    'Compliance snapshot unavailable: the service could not be reached. Hover or press Enter to try again.',
  'badge.error.timeout.label':
    'Compliance snapshot unavailable: the service did not answer in time. Hover or press Enter to try again.',
  'badge.error.invalidResponse.label':
    'Compliance snapshot unavailable: the service answered with data that could not be verified, so nothing is shown.',
  'badge.error.forbiddenOrigin.label':
    'Compliance snapshot unavailable: this service is not enabled in Compliance Lens settings, so nothing was sent to it.',
  'badge.error.unknown.label': 'Compliance snapshot unavailable: an unexpected error occurred ({code}).',
} as const;
