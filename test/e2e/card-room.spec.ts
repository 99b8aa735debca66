import { expect, test } from './support/fixtures';
import { expectNoEmptyBand } from './support/glance';
import { createDeal } from './support/server';
import { DealFlowPage } from './support/web-page';

/**
 * Issue #33 item 7: a card without a snapshot (here: a link its founder revoked) is as tall as what it
 * shows. It ended with 40–50 px of nothing before; now its last line is within the card's own padding
 * (12 px) and border of its bottom edge.
 */

test.use({ withTestService: true });

test('an error card is as tall as its content: no empty band under its last line', async ({ context, server }) => {
  const deal = await createDeal(server.baseUrl, 'Lagos Custody Ltd');
  expect(await deal.founder.revoke(deal.link.id)).toBe(200);
  const deals = await DealFlowPage.openWith(context, [deal.link.shareUrl]);
  await deals.badges.first().click();
  const frame = await deals.card.frame();
  await expect(frame.getByRole('alert')).toBeVisible();
  await deals.card.expectRevealed();
  await expectNoEmptyBand(frame);
});
