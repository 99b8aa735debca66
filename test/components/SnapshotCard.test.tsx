// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SaveCopyButton } from '@/components/SignatureLine';
import { TONE_CLASS } from '@/components/tones';
import { parseVerifiableCopy } from '@/lib/core/schemas/signing';
import { SAVABLE_COPY } from '../fixtures/signing';
import { SnapshotCard } from '@/components/SnapshotCard';
import { SnapshotError } from '@/components/SnapshotError';
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

const investorView = () => screen.queryByRole('link', { name: /^Investor view/ });

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

function renderCard(props: Partial<Parameters<typeof SnapshotCard>[0]> & { snapshot?: ReturnType<typeof buildSnapshot> } = {}) {
  return render(
    <SnapshotCard
      snapshot={props.snapshot ?? buildSnapshot()}
      meta={meta}
      fetchedAt={FIXTURE_NOW - 5 * 60_000}
      fromCache={false}
      now={FIXTURE_NOW}
      serviceOrigin={SERVICE}
      {...props}
    />,
  );
}

const byTestId = (id: string) => screen.queryAllByTestId(id);
const GAP = { title: 'No AML officer', severity: 'critical', regulatory_basis: 'MLR 2022 s.4' } as const;

describe('every state of the snapshot card', () => {
  it('a ready snapshot: company, readiness score and label, risk band, each gap and the whole disclaimer', () => {
    const snapshot = buildSnapshot({ top_gaps: [GAP, { ...GAP, title: 'No DPO', severity: 'high' }] });
    renderCard({ snapshot });
    expect(byTestId('snapshot-card')).toHaveLength(1);
    expect(byTestId('company-name')[0]?.textContent).toBe('Kobo Ledger Ltd');
    expect(byTestId('readiness-score')[0]?.textContent).toContain('68');
    expect(byTestId('readiness-label')[0]?.textContent).toBe('In Progress');
    expect(byTestId('risk-band')[0]?.textContent).toMatch(/Medium/);
    expect(byTestId('gap').map((gap) => gap.textContent)).toEqual([
      expect.stringContaining('No AML officer') as unknown,
      expect.stringContaining('No DPO') as unknown,
    ]);
    expect(byTestId('disclaimer')[0]?.textContent).toContain(snapshot.disclaimer);
  });

  it('no gaps: says so, and lists none', () => {
    renderCard({ snapshot: buildSnapshot({ top_gaps: [] }) });
    expect(byTestId('gap')).toHaveLength(0);
    expect(screen.getByText(/no open gaps|no gaps/i)).toBeTruthy();
  });

  it('nothing classified, no regulator, not in ARIP, no DD pack: each says so instead of a blank', () => {
    const snapshot = buildSnapshot({
      licensing: {
        product_classification: null,
        product_classification_label: null,
        primary_regulator: null,
        secondary_regulators: [],
        arip_stage: null,
        arip_stage_label: null,
      },
    });
    renderCard({ snapshot });
    const card = byTestId('snapshot-card')[0]?.textContent ?? '';
    expect(card).not.toMatch(/undefined|null/);
    expect(card).toMatch(/not classified/i);
  });

  it('regulators are shown by name, the primary one first and marked, each with its code at hand', () => {
    renderCard({ snapshot: buildSnapshot({ licensing: { secondary_regulators: ['CBN', 'FCCPC'] } }) });
    const named = [...document.querySelectorAll('[data-code]')].map((element) => element.getAttribute('data-code'));
    expect(named).toEqual(expect.arrayContaining(['SEC_NIGERIA', 'CBN', 'FCCPC']));
    expect(byTestId('snapshot-card')[0]?.textContent).toContain('Central Bank of Nigeria');
    expect(byTestId('snapshot-card')[0]?.textContent).not.toMatch(/SEC_NIGERIA|FCCPC\b(?! )/);
    expect(document.querySelector('[data-code="SEC_NIGERIA"]')?.getAttribute('title')).toBe('Code: SEC_NIGERIA');
  });

  it.each([
    [12, 'Critical'],
    [45, 'In Progress'],
    [75, 'Good Standing'],
    [93, 'Regulator Ready'],
  ])('readiness %i reads %s', (score, label) => {
    renderCard({ snapshot: buildSnapshot({ scores: { readiness_score: score } }) });
    expect(byTestId('readiness-label')[0]?.textContent).toBe(label);
  });

  it.each([
    [20, /High/],
    [50, /Medium/],
    [70, /Low/],
    [90, /Investor/i],
  ])('fundraise score %i is the %s risk band', (score, band) => {
    renderCard({ snapshot: buildSnapshot({ scores: { fundraise_score: score } }) });
    expect(byTestId('risk-band')[0]?.textContent).toMatch(band);
  });

  it('fetched now and from the cache read differently; refreshing disables the refresh button', () => {
    const { unmount } = renderCard({ fromCache: false, onRefresh: () => undefined });
    const fresh = byTestId('snapshot-card')[0]?.textContent ?? '';
    unmount();
    renderCard({ fromCache: true, onRefresh: () => undefined, refreshing: true });
    const cached = byTestId('snapshot-card')[0]?.textContent ?? '';
    expect(cached).not.toBe(fresh);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: /refresh/i }).disabled).toBe(true);
  });

  it('without a refresh action, no refresh button', () => {
    renderCard();
    expect(screen.queryByRole('button', { name: /refresh/i })).toBeNull();
  });

  it('an API version it does not know is flagged', () => {
    renderCard({ apiVersionWarning: 'v2' });
    expect(screen.getByText(/version/i)).toBeTruthy();
  });
});

describe('every state of a failed snapshot', () => {
  it.each([
    ['NOT_FOUND', false],
    ['EXPIRED', false],
    ['FORBIDDEN_ORIGIN', false],
    ['RATE_LIMITED', true],
    ['NETWORK', true],
    ['TIMEOUT', true],
    ['INVALID_RESPONSE', true],
    ['SOMETHING_NEW', true],
  ])('%s: says what happened, and offers a retry only where one can help (%s)', (code, retry) => {
    render(<SnapshotError code={code} now={FIXTURE_NOW} onRetry={() => undefined} />);
    expect(screen.getByRole('alert').textContent?.length).toBeGreaterThan(10);
    expect(byTestId('error-message')[0]?.textContent).not.toBe('');
    expect(screen.queryByRole('button') !== null).toBe(retry);
  });

  it('an expired link says when it expired; a rate limit says when to try again', () => {
    const { unmount } = render(
      <SnapshotError code="EXPIRED" expiredAt="2026-11-20T10:00:00Z" now={FIXTURE_NOW} locale="en-GB" />,
    );
    expect(byTestId('error-message')[0]?.textContent).toMatch(/20 Nov/);
    unmount();
    render(<SnapshotError code="RATE_LIMITED" retryAt={FIXTURE_NOW + 90_000} now={FIXTURE_NOW} locale="en-GB" />);
    expect(byTestId('error-message')[0]?.textContent).toMatch(/2 minutes|90 seconds|minute/);
  });

  it('a link this browser saw working and now 404s reads "withdrawn", not "not found"; each says something different', () => {
    const { unmount } = render(<SnapshotError code="NOT_FOUND" withdrawn now={FIXTURE_NOW} />);
    const withdrawn = screen.getByRole('alert').textContent;
    expect(withdrawn).toMatch(/Withdrawn by the founder/);
    unmount();
    render(<SnapshotError code="NOT_FOUND" now={FIXTURE_NOW} />);
    const notFound = screen.getByRole('alert').textContent;
    expect(notFound).toMatch(/Link not found/);
    expect(notFound).not.toBe(withdrawn);
  });

  it('the technical details: the extension’s own account worded for the reader, the service’s words marked as its own', () => {
    const { unmount } = render(
      <SnapshotError code="INVALID_RESPONSE" technical={{ reason: 'schema', fields: ['data.scores'] }} now={FIXTURE_NOW} />,
    );
    expect(screen.getByRole('alert').textContent).toContain('The answer does not match the API in: data.scores.');
    expect(screen.queryByTestId('service-text-note')).toBeNull();
    unmount();
    render(
      <SnapshotError
        code="NETWORK"
        technical={{ reason: 'server-error', httpStatus: 503, serviceMessage: 'Maintenance until 10:00' }}
        now={FIXTURE_NOW}
      />,
    );
    const text = screen.getByRole('alert').textContent;
    expect(text).toContain('The service answered with HTTP 503');
    expect(text).toContain('Maintenance until 10:00');
  });
});

describe('a service whose clock runs ahead of the reader’s (issue #33 item 8)', () => {
  it('never tells a past event as a future date, and counts the expiry down on the service’s own clock', () => {
    const day = 24 * 3600_000;
    // The service stamped everything a day ahead of this browser: a snapshot made "tomorrow".
    const snapshot = buildSnapshot({ now: FIXTURE_NOW + day });
    renderCard({ snapshot, fetchedAt: FIXTURE_NOW, now: FIXTURE_NOW + 60_000 });
    const rowOf = (term: string) => screen.getByText(term).nextElementSibling?.textContent;
    expect(rowOf('Snapshot')).toBe('just now');
    expect(rowOf('Score calculated')).toBe('just now');
    // Made seven days before it expires by the service's clock: seven days from now, not eight.
    expect(rowOf('Link expires')).toMatch(/^in 7 days · /);
    // What the service stamped in the past of this browser is shown as it is.
    expect(rowOf('DD pack')).toMatch(/^22 Nov 2026, 08:00 UTC/);
  });

  it('with the clocks agreeing (a few seconds of latency), dates are shown as the service stamped them', () => {
    const snapshot = buildSnapshot({ now: FIXTURE_NOW - 2_000 });
    renderCard({ snapshot, fetchedAt: FIXTURE_NOW, now: FIXTURE_NOW });
    expect(screen.getByText('Snapshot').nextElementSibling?.textContent).toBe('22 Nov 2026, 07:59 UTC');
  });
});

describe('the signature line (issue #36)', () => {
  const card = (signature: Parameters<typeof SnapshotCard>[0]['signature']) =>
    render(
      <SnapshotCard
        snapshot={buildSnapshot()}
        meta={meta}
        fetchedAt={FIXTURE_NOW}
        fromCache={false}
        now={FIXTURE_NOW}
        serviceOrigin="http://127.0.0.1:8787"
        signature={signature}
      />,
    );

  it('verified: one quiet line naming the service, the key id and the time on hover and focus', () => {
    card({ state: 'verified', kid: 'kid-123', signedAt: FIXTURE_NOW });
    const line = screen.getByTestId('signature');
    expect(line.textContent).toBe('Signed by 127.0.0.1:8787 · verified');
    expect(line.getAttribute('title')).toMatch(/^Key kid-123, signed /);
    expect(line.tabIndex).toBe(0);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('unsigned: said quietly, no alarm', () => {
    card({ state: 'unsigned' });
    expect(screen.getByTestId('signature').textContent).toBe('Not signed by 127.0.0.1:8787');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('invalid: an alert before the figures says they may not be what the service sent', () => {
    card({ state: 'invalid', reason: 'digest-mismatch', message: 'Content-Digest does not match the body.' });
    const alert = screen.getByTestId('signature-invalid');
    expect(alert.getAttribute('role')).toBe('alert');
    expect(alert.textContent).toContain('may not be what the service sent');
    // Before the scores in the reading order.
    expect(alert.compareDocumentPosition(screen.getByTestId('readiness-score')) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(screen.getByTestId('signature').textContent).toBe('Signature invalid');
    expect(screen.getByTestId('signature').getAttribute('title')).toBe('Content-Digest does not match the body.');
  });

  it('invalid: the readiness and the fundraising risk lose their verdict colours (not shown as the service’s); verified keeps them', () => {
    const tiles = () => [
      screen.getByRole('region', { name: 'Readiness' }),
      screen.getByRole('region', { name: 'Fundraising risk' }),
    ];
    card({ state: 'invalid', reason: 'digest-mismatch', message: 'Content-Digest does not match the body.' });
    for (const tile of tiles()) expect(tile.className).toContain(TONE_CLASS.neutral);
    cleanup();
    card({ state: 'verified', kid: 'kid-123', signedAt: FIXTURE_NOW });
    for (const tile of tiles()) expect(tile.className).not.toContain(TONE_CLASS.neutral);
  });

  const copy = SAVABLE_COPY;

  it('verified with its copy: "Save a verifiable copy" is offered; without one (or not verified), it is not', () => {
    card({ state: 'verified', kid: 'kid-1', signedAt: FIXTURE_NOW, copy });
    expect(screen.getByTestId('save-copy').textContent).toBe('Save a verifiable copy');
    cleanup();
    card({ state: 'verified', kid: 'kid-123', signedAt: FIXTURE_NOW });
    expect(screen.queryByTestId('save-copy')).toBeNull();
    cleanup();
    card({ state: 'unsigned' });
    expect(screen.queryByTestId('save-copy')).toBeNull();
  });

  it('the saved file is the copy stamped with the time it was saved, named after the company and the day', () => {
    const save = vi.fn<(fileName: string, text: string) => void>();
    render(<SaveCopyButton copy={copy} company="Kobo Vault Custody Ltd" save={save} />);
    fireEvent.click(screen.getByTestId('save-copy'));
    expect(save).toHaveBeenCalledTimes(1);
    const [fileName, text] = save.mock.calls[0] ?? ['', ''];
    expect(fileName).toMatch(/^compliance-snapshot-kobo-vault-custody-ltd-\d{4}-\d{2}-\d{2}\.json$/);
    const parsed = parseVerifiableCopy(text);
    if (!parsed.ok) throw new Error(parsed.message);
    expect(parsed.value).toEqual({ ...copy, saved_at: parsed.value.saved_at });
    expect(Math.abs(Date.parse(parsed.value.saved_at) - Date.now())).toBeLessThan(60_000);
  });

  it('no verdict (an entry cached before the check): no line', () => {
    card(undefined);
    expect(screen.queryByTestId('signature')).toBeNull();
  });
});
