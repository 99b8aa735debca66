import { NEVER_SHADOW_HOST, SHADOW_HOST_CANDIDATES } from '@/lib/dom';
import { escapeHtml } from '../support/html';
import { waitLongerThanHoverDelay } from '../support/timing';
import { PAGES_ORIGIN, servePages } from './pages/serve';
import { artifactPath } from './support/artifacts';
import { expect, test } from './support/fixtures';
import { createDeals } from './support/server';
import { AnnotatedPage } from './support/web-page';

/**
 * Links in web components (test/e2e/pages/shadow-roots.html): an open shadow root, nested open
 * roots, a root filled after load, and a closed root the extension cannot reach by design.
 * Playwright's CSS locators pierce open shadow roots, as the annotator does.
 */

test.use({ withTestService: true });

test('links in open shadow roots (nested, filled after load) are badged next to the link and work by hover and keyboard; a closed root is left alone', async ({
  context,
  server,
}) => {
  const [open, nested, late] = await createDeals(server.baseUrl, ['Open Co', 'Nested Co', 'Late Co']);
  if (!open || !nested || !late) throw new Error('deals not created');
  await servePages(context, {
    OPEN_URL: escapeHtml(open.link.shareUrl),
    NESTED_URL: escapeHtml(nested.link.shareUrl),
    LATE_URL: escapeHtml(late.link.shareUrl),
  });
  const crm = await AnnotatedPage.open(context, `${PAGES_ORIGIN}/shadow-roots.html`);
  const { page, card } = crm;

  // Badges right after their links, inside the same roots; the late one once its root is filled.
  await expect(crm.badgeAfter('in-open')).toHaveAttribute('data-state', 'idle');
  await expect(crm.badgeAfter('in-nested')).toHaveAttribute('data-state', 'idle');
  await expect(crm.badgeAfter('in-late')).toHaveAttribute('data-state', 'idle');
  expect(await page.evaluate(() => document.querySelectorAll('compliance-lens-badge').length)).toBe(0); // none in the light DOM
  // The closed root's link: out of reach (documented in the README).
  await waitLongerThanHoverDelay();
  await expect(page.locator('compliance-lens-badge')).toHaveCount(3);
  for (const deal of [open, nested, late]) expect(await deal.views()).toBe(0);

  // Hover on the nested link: the event is read where it happened, not at the host.
  await crm.restOn('in-nested');
  await expect((await card.opened()).companyName).toHaveText('Nested Co');
  await expect(crm.badgeAfter('in-nested')).toHaveAttribute('data-state', 'ready');
  expect(await nested.views()).toBe(1);
  await page.screenshot({ path: artifactPath('shadow-roots-card.png') });
  await crm.closeCardByLeaving();

  // Keyboard: the badge is the next tab stop after its link, inside the root.
  await crm.link('in-open').focus();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await expect((await card.opened()).companyName).toHaveText('Open Co');
  expect(await open.views()).toBe(1);
  await page.keyboard.press('Escape');
  await card.expectClosed();

  // A link added to a root later, and one removed, are followed.
  await page.evaluate((href) => {
    const row = document.querySelector('#nested-list')?.shadowRoot?.querySelector('deal-row');
    const a = document.createElement('a');
    a.id = 'added';
    a.href = href;
    a.textContent = 'added later';
    row?.shadowRoot?.append(a);
  }, late.link.apiUrl);
  await expect(crm.badgeAfter('added')).toHaveAttribute('data-state', 'idle');
  await page.evaluate(() => document.getElementById('open-card')?.remove());
  await expect(page.locator('compliance-lens-badge')).toHaveCount(3);
});

test('the scan skips only elements the browser never lets host a shadow root', async ({ page }) => {
  await page.goto('about:blank');
  const result = await page.evaluate(
    ({ never, candidates }) => {
      const skipped = never.split(',');
      // The built-ins the DOM standard lets attach a shadow root, and an autonomous custom element.
      const hosts = 'article aside blockquote body div footer h1 h2 h3 h4 h5 h6 header main nav p section span deal-record'.split(
        ' ',
      );
      const SVG = 'http://www.w3.org/2000/svg';
      const attaches = (element: Element) => {
        try {
          element.attachShadow({ mode: 'open' });
          return true;
        } catch {
          return false;
        }
      };
      // Skipped names are tried as HTML elements and as SVG elements (clipPath, path… are SVG's).
      const skippedButAttach = skipped.filter(
        (name) => attaches(document.createElement(name)) || attaches(document.createElementNS(SVG, name)),
      );
      const svg = document.body.appendChild(document.createElementNS(SVG, 'svg'));
      const inSvg = svg.appendChild(document.createElementNS(SVG, 'g'));
      const foreign = svg.appendChild(document.createElementNS(SVG, 'foreignObject'));
      const htmlInSvg = foreign.appendChild(document.createElement('div'));
      return {
        skippedButAttach,
        hostsNotCandidates: hosts.filter((name) => {
          const host = document.createElement(name);
          return !host.matches(candidates) || !attaches(host);
        }),
        svgChildCandidate: inSvg.matches(candidates),
        htmlInForeignObjectCandidate: htmlInSvg.matches(candidates) && attaches(htmlInSvg),
      };
    },
    { never: NEVER_SHADOW_HOST, candidates: SHADOW_HOST_CANDIDATES },
  );
  expect(result).toEqual({
    skippedButAttach: [],
    hostsNotCandidates: [],
    svgChildCandidate: false,
    htmlInForeignObjectCandidate: true,
  });
});
