// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { I18nProvider, StoredLanguageProvider, useI18n } from '@/components/i18n';
import { SnapshotCard } from '@/components/SnapshotCard';
import { SnapshotError } from '@/components/SnapshotError';
import { setLanguagePreference } from '@/lib/extension/language-preference';
import { buildSnapshot, FIXTURE_NOW } from '../fixtures/snapshot';

beforeEach(() => fakeBrowser.reset());
afterEach(() => cleanup());

const snapshot = buildSnapshot({ scores: { readiness_score: 68, fundraise_score: 57 } });
const meta = { token_status: 'active', view_count: 1234 };
const text = (testId: string) => screen.getByTestId(testId).textContent?.replace(/[\u00a0\u202f]/g, ' ');

function Card() {
  return (
    <SnapshotCard
      snapshot={snapshot}
      serviceOrigin={new URL(snapshot.links.human_summary_url).origin}
      meta={meta}
      fetchedAt={FIXTURE_NOW - 120_000}
      fromCache
      now={FIXTURE_NOW}
    />
  );
}

describe('translated components', () => {
  it('render in English without any provider (callers need not change)', () => {
    render(<Card />);
    expect(text('readiness-label')).toBe('In Progress');
    expect(text('risk-band')).toBe('Medium');
    expect(screen.getByText('Founder self-assessment · not a certification')).toBeTruthy();
    expect(screen.getByText('Loaded 2 minutes ago, kept in this browser: no new view')).toBeTruthy();
    expect(screen.getByText('1,234')).toBeTruthy();
    expect(text('disclaimer')).toBe(snapshot.disclaimer);
  });

  it('render in French, with French dates and numbers, keeping every test id', () => {
    render(
      <I18nProvider language="fr" locale="fr-FR">
        <Card />
      </I18nProvider>,
    );
    expect(text('readiness-label')).toBe('En cours');
    expect(text('risk-band')).toBe('Moyen');
    expect(text('company-name')).toBe('Kobo Ledger Ltd');
    expect(screen.getByText('Auto-évaluation du fondateur · pas une certification')).toBeTruthy();
    expect(screen.getByText('Chargé il y a 2 minutes, gardé dans ce navigateur : aucune nouvelle vue')).toBeTruthy();
    expect(screen.getByText('Principales lacunes')).toBeTruthy();
    expect(screen.getByTestId('snapshot-card').getAttribute('aria-label')).toBe('Instantané de conformité : Kobo Ledger Ltd');
    expect(screen.getByText((content) => content.replace(/\u202f|\u00a0/g, ' ') === '1 234')).toBeTruthy();
    // The founder's own words are never translated.
    expect(text('disclaimer')).toBe(snapshot.disclaimer);
  });

  it('translate error states', () => {
    render(
      <I18nProvider language="fr" locale="fr-FR">
        <SnapshotError code="EXPIRED" expiredAt="2026-11-29T09:05:00.000Z" onRetry={() => {}} />
      </I18nProvider>,
    );
    expect(screen.getByText('Lien expiré')).toBeTruthy();
    expect(text('error-message')).toMatch(/^Ce lien de partage a expiré le 29 nov\. 2026/);
    // No retry for a terminal error.
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('follow the stored preference and its changes', async () => {
    function Title() {
      const { t, locale } = useI18n();
      return <h1 data-locale={locale}>{t('options.title')}</h1>;
    }
    await setLanguagePreference('fr');
    render(
      <StoredLanguageProvider>
        <Title />
      </StoredLanguageProvider>,
    );
    expect((await screen.findByRole('heading')).textContent).toBe('Paramètres de Compliance Lens');
    await act(() => setLanguagePreference('en'));
    expect((await screen.findByText('Compliance Lens settings')).getAttribute('data-locale')).toMatch(/^en/);
  });
});
