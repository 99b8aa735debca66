// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { SnapshotCard } from '@/components/SnapshotCard';
import { buildSnapshot, FIXTURE_NOW } from '../fixtures/snapshot';

afterEach(() => cleanup());

const SERVICE = 'https://comply.example';
const meta = { token_status: 'active', view_count: 3 };

function renderWith(humanSummaryUrl: string) {
  const base = buildSnapshot();
  const snapshot = { ...base, links: { ...base.links, human_summary_url: humanSummaryUrl } };
  render(
    <SnapshotCard
      snapshot={snapshot}
      meta={meta}
      fetchedAt={FIXTURE_NOW}
      fromCache={false}
      now={FIXTURE_NOW}
      serviceOrigin={SERVICE}
    />,
  );
}

const investorView = () => screen.queryByRole('link', { name: 'Investor view' });

describe('the investor view link (security review finding 4)', () => {
  it('is shown when it is on the service’s own origin', () => {
    renderWith(`${SERVICE}/share/${'A'.repeat(43)}`);
    expect(investorView()?.getAttribute('href')).toBe(`${SERVICE}/share/${'A'.repeat(43)}`);
  });

  it.each([
    ['another site', 'https://evil.example/share/x'],
    ['a look-alike host', 'https://comply.example.evil.example/share/x'],
    ['another port', 'https://comply.example:8443/share/x'],
    ['plain http on an https service', 'http://comply.example/share/x'],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['userinfo tricks', 'https://comply.example@evil.example/share/x'],
  ])('is not shown when it points at %s', (_name, url) => {
    renderWith(url);
    expect(investorView()).toBeNull();
  });
});
