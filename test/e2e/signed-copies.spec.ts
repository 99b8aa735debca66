import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseVerifiableCopy } from '@/lib/core/schemas/signing';
import { configureTestService, untilPolicyRead } from './support/extension';
import { expect, test } from './support/fixtures';
import { startMisbehavingService, TAMPERED_READINESS } from './support/misbehaving-service';
import { expectCardGlance } from './support/glance';
import { restOn } from './support/pointer';
import { DealFlowPage } from './support/web-page';

/**
 * Signed snapshots in the extension (issue #36): a verified card offers "Save a verifiable copy"; the
 * file holds no share token (not even inside its base64 body) and checks with `npm run verify` against
 * the service's key set, and fails once its body is edited. A service whose answer is not the one its
 * key signed gets a card that says so before its figures.
 */

test.use({ withTestService: true });

const repoRoot = path.resolve(import.meta.dirname, '../..');

/** `npm run verify -- …args` as a reader runs it: its output line and exit code. */
function verify(args: string[]): { code: number | null; line: string } {
  const run = spawnSync('npx', ['tsx', 'scripts/verify.ts', ...args], { cwd: repoRoot, encoding: 'utf8', timeout: 60_000 });
  return { code: run.status, line: `${run.stdout}${run.stderr}`.trim() };
}

test('Save a verifiable copy: a file without the share token that npm run verify checks against the service’s keys, and that fails once edited', async ({
  context,
  deal,
  serviceOrigin,
}) => {
  test.setTimeout(90_000);
  const deals = await DealFlowPage.openWith(context, [{ href: deal.link.shareUrl, text: 'Kobo data room' }]);
  await restOn(deals.links.first());
  const shown = await deals.card.opened();
  await expect(shown.readinessScore).toHaveText('76');
  await expect(shown.card.getByTestId('signature')).toHaveAttribute('data-state', 'verified');
  await expect(shown.card.getByTestId('watch-toggle')).toBeVisible();
  expect(await deal.views()).toBe(1);
  await expectCardGlance(deals.page, deals.card, [deals.links.first(), deals.badges.first()], 'card-signature-verified');

  const [download] = await Promise.all([deals.page.waitForEvent('download'), shown.card.getByTestId('save-copy').click()]);
  expect(download.suggestedFilename()).toMatch(/^compliance-snapshot-kobo-ledger-ltd-\d{4}-\d{2}-\d{2}\.json$/);
  const dir = mkdtempSync(path.join(tmpdir(), 'lens-copy-e2e-'));
  try {
    const file = path.join(dir, 'copy.json');
    await download.saveAs(file);
    const text = readFileSync(file, 'utf8');
    const parsed = parseVerifiableCopy(text);
    if (!parsed.ok) throw new Error(parsed.message);
    const copy = parsed.value;
    expect(copy.origin).toBe(serviceOrigin);
    const body = Buffer.from(copy.body_base64, 'base64').toString('utf8');
    for (const where of [text, body]) expect(where).not.toContain(deal.link.token);
    expect(body).toContain('/share/{token}');
    // Saving costs no view.
    expect(await deal.views()).toBe(1);

    const good = verify([file, '--jwks', serviceOrigin]);
    expect(good.code, good.line).toBe(0);
    expect(good.line).toMatch(/^verified/);

    const edited = path.join(dir, 'edited.json');
    const changed = body.replace(/"readiness_score":\d+/, '"readiness_score":99');
    expect(changed).not.toBe(body);
    writeFileSync(edited, JSON.stringify({ ...copy, body_base64: Buffer.from(changed).toString('base64') }));
    const bad = verify([edited, '--jwks', serviceOrigin]);
    expect(bad.code, bad.line).toBe(1);
    expect(bad.line).toMatch(/^not verified/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a service whose answer is not the one its key signed: the card says so before the figures, and offers no copy', async ({
  context,
  serviceWorker,
  deal,
  server,
}) => {
  const tampering = await startMisbehavingService({ upstream: server.baseUrl });
  try {
    await configureTestService(serviceWorker, tampering.baseUrl);
    await untilPolicyRead(serviceWorker);
    const deals = await DealFlowPage.openWith(context, [{ href: tampering.shareUrl(deal.link.token), text: 'Kobo data room' }]);
    await restOn(deals.links.first());
    const shown = await deals.card.opened();
    await expect(shown.readinessScore).toHaveText(String(TAMPERED_READINESS));
    const alert = shown.card.getByTestId('signature-invalid');
    await expect(alert).toHaveAttribute('role', 'alert');
    await expect(alert).toContainText('may not be what the service sent');
    await expect(shown.card.getByTestId('signature')).toHaveAttribute('data-state', 'invalid');
    await expect(shown.card.getByTestId('save-copy')).toHaveCount(0);
    // Nor a Watch: a watch would start its history with figures that may not be the service's.
    await expect(shown.card.getByTestId('watch-toggle')).toHaveCount(0);
    // Nor does the badge show the figures as the service's: a mark, and why in its name.
    await expect(deals.badges.first()).toHaveAttribute('data-state', 'ready');
    await expect.poll(() => deals.badgeNames()).toEqual([expect.stringMatching(/signature does not match the service’s key/)]);
    await expectCardGlance(deals.page, deals.card, [deals.links.first(), deals.badges.first()], 'card-signature-invalid');
    // The alert comes before the figures in the reading order.
    expect(
      await alert.evaluate(
        (element, score) => Boolean(element.compareDocumentPosition(score) & Node.DOCUMENT_POSITION_FOLLOWING),
        await shown.readinessScore.elementHandle(),
      ),
    ).toBe(true);
    expect(tampering.requestsFor(deal.link.token)).toBe(1);
  } finally {
    await tampering.stop();
  }
});
