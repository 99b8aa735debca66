import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import type { SnapshotReady } from '@/lib/core/schemas/results';
import { DEFAULT_LANGUAGE_PREFERENCE, resolveLanguage } from '@/lib/core/i18n/language';
import type { CardClaim } from '@/lib/protocol/card';
import { browserUiLanguage } from './card-i18n';
import { HoverCard } from './HoverCard';

const SAMPLE_TIME = '2026-01-01T00:00:00.000Z';

/** A made-up snapshot with every part a card shows: rendered out of sight, never shown, sent or kept. */
const SAMPLE_RESULT: SnapshotReady = {
  status: 'ready',
  fetchedAt: 0,
  fromCache: true,
  meta: { token_status: 'active', view_count: 1 },
  signature: { state: 'verified', kid: 'sample', signedAt: 0 },
  snapshot: {
    api_version: '1',
    company: { name: 'Sample' },
    scores: {
      readiness_score: 50,
      readiness_label: 'In Progress',
      fundraise_score: 50,
      fundraise_risk_band: 'medium',
      fundraise_risk_label: 'Medium',
      checklist_completion_pct: 50,
      checklist_complete: 1,
      checklist_total: 2,
    },
    licensing: {
      product_classification: null,
      product_classification_label: 'Sample',
      primary_regulator: 'Sample',
      secondary_regulators: ['Sample'],
      arip_stage: null,
      arip_stage_label: 'Sample',
    },
    verification: {
      last_score_calculated_at: SAMPLE_TIME,
      pack_generated_at: SAMPLE_TIME,
      pack_verification_hash: 'sample',
      share_expires_at: SAMPLE_TIME,
      snapshot_at: SAMPLE_TIME,
    },
    top_gaps: [
      { title: 'Sample', severity: 'critical', regulatory_basis: 'Sample' },
      { title: 'Sample', severity: 'high', regulatory_basis: 'Sample' },
    ],
    links: { human_summary_url: 'https://sample.invalid/', service_profile_url: 'https://sample.invalid/' },
    disclaimer: 'Sample',
  },
};

const ignore = () => undefined;

/**
 * Renders a card once, out of sight, in a card page loaded ahead of intent, and takes it away. A
 * page's first render is its slowest (its code not yet compiled, its styles and fonts not yet looked
 * up): the card then drawn in this page when the pointer rests is not the first. Nothing is asked of
 * the background, and nothing is told to the framing page.
 */
export function warmUpCard(doc: Document): void {
  const box = doc.createElement('div');
  box.inert = true;
  box.style.cssText = 'position:fixed;top:0;left:0;width:100%;visibility:hidden';
  doc.body.append(box);
  const root = createRoot(box);
  const claim: CardClaim = {
    request: { origin: 'https://sample.invalid', token: 'sample' },
    result: SAMPLE_RESULT,
    // The reader's likely language: its words are looked up as the real card's will be.
    language: resolveLanguage(DEFAULT_LANGUAGE_PREFERENCE, browserUiLanguage()),
  };
  flushSync(() =>
    root.render(
      <HoverCard
        claim={claim}
        refreshSnapshot={() => Promise.resolve(SAMPLE_RESULT)}
        onClose={ignore}
        onResize={ignore}
        onHover={ignore}
      />,
    ),
  );
  root.unmount();
  box.remove();
}
