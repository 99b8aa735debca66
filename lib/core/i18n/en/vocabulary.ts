import { ARIP_STAGES, PRODUCT_CLASSIFICATIONS } from '../../labels';

/**
 * The vocabulary of every surface (card, badge, lists, watchlist, notifications, CSV): the names of
 * the API's readiness labels, risk bands, product classifications and ARIP stages (spec part 2
 * tables; the English readiness labels and stage names are the spec's own), and the two phrases that
 * pair a figure with its scale. Kept apart so the badge can be sent this slice alone. Helpers:
 * lib/core/vocabulary.ts.
 */
export const vocabularyEn = {
  'vocab.readiness': 'Readiness {score}/100 · {label}',
  'vocab.readinessScore': 'Readiness {score}/100',
  'vocab.readinessHeading': 'Readiness',
  'vocab.risk': 'Fundraising risk: {band}',
  'vocab.riskHeading': 'Fundraising risk',
  'vocab.fundraiseScore': 'Fundraise score {score}/100',
  'vocab.band.high': 'High',
  'vocab.band.medium': 'Medium',
  'vocab.band.low': 'Low',
  'vocab.band.investor_ready': 'Investor ready',
  'vocab.code': 'Code: {code}',
  'vocab.justNow': 'just now',
  'vocab.serviceText.en': 'The service’s original text, in English.',
  'vocab.regulatorUnknown': 'Regulator code {code}',
  'snapshot.readiness.critical': 'Critical',
  'snapshot.readiness.inProgress': 'In Progress',
  'snapshot.readiness.goodStanding': 'Good Standing',
  'snapshot.readiness.regulatorReady': 'Regulator Ready',
  'snapshot.notClassified': 'Not classified',
  'snapshot.product.DAX': PRODUCT_CLASSIFICATIONS.DAX,
  'snapshot.product.DAOP': PRODUCT_CLASSIFICATIONS.DAOP,
  'snapshot.product.DAC': PRODUCT_CLASSIFICATIONS.DAC,
  'snapshot.product.DAI': PRODUCT_CLASSIFICATIONS.DAI,
  'snapshot.product.AVASP': PRODUCT_CLASSIFICATIONS.AVASP,
  'snapshot.product.DAPO': PRODUCT_CLASSIFICATIONS.DAPO,
  'snapshot.product.RATOP': PRODUCT_CLASSIFICATIONS.RATOP,
  'snapshot.product.PAYMENT': PRODUCT_CLASSIFICATIONS.PAYMENT,
  'snapshot.product.HYBRID': PRODUCT_CLASSIFICATIONS.HYBRID,
  'snapshot.noRegulator': 'None stated',
  'snapshot.notInArip': 'Not in ARIP',
  'snapshot.arip.initial_assessment': ARIP_STAGES.initial_assessment,
  'snapshot.arip.eligibility_notification': ARIP_STAGES.eligibility_notification,
  'snapshot.arip.formal_application': ARIP_STAGES.formal_application,
  'snapshot.arip.aip_active': ARIP_STAGES.aip_active,
  'snapshot.arip.transition_to_registration': ARIP_STAGES.transition_to_registration,
} as const;
