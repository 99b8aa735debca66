// @vitest-environment happy-dom
/**
 * observeArrivals: the one observer behind the frame sentinel. It sees a link arrive however a mail
 * client writes its body: added nodes, a document written with document.open/write, an href set later.
 */
import { describe, expect, it, vi } from 'vitest';
import { ANCHOR_SELECTOR, observeArrivals } from '@/lib/dom';

/** A frame's document (its own, not the test window's). */
function frameDocument(html = ''): Document {
  const doc = document.implementation.createHTMLDocument('frame');
  doc.body.innerHTML = html;
  return doc;
}

const records = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

describe('observeArrivals', () => {
  it('sees a link in a written document (document.open/write), as mail clients fill about:blank frames', async () => {
    const doc = frameDocument();
    const found = vi.fn();
    const stop = observeArrivals(doc, ANCHOR_SELECTOR, found);
    doc.open();
    doc.write('<p>Forwarded: <a href="/share/z">snapshot</a></p>');
    doc.close();
    await records();
    expect(found).toHaveBeenCalled();
    stop();
  });

  it('sees an anchor that gets an href later, and not one without', async () => {
    const doc = frameDocument('<a id="a" name="x">anchor</a>');
    const found = vi.fn();
    const stop = observeArrivals(doc, ANCHOR_SELECTOR, found);
    doc.getElementById('a')?.setAttribute('title', 'still no link');
    doc.body.insertAdjacentHTML('beforeend', '<a name="y">no href</a>');
    await records();
    expect(found).not.toHaveBeenCalled();
    doc.getElementById('a')?.setAttribute('href', '/x');
    await records();
    expect(found).toHaveBeenCalledTimes(1);
    stop();
  });
});
