// @vitest-environment happy-dom
/**
 * The frame probe: a subframe asks for the annotator once it holds a link (or an open shadow root a
 * web component may fill), never before, and only once; the top frame never asks.
 */
import { describe, expect, it, vi } from 'vitest';
import { probeFrame, whenLinksAppear } from '@/lib/content/frame-probe';

/** A subframe's document (its own, not the test window's). */
function subframe(html = ''): { isTopFrame: false; document: Document } {
  const doc = document.implementation.createHTMLDocument('frame');
  doc.body.innerHTML = html;
  return { isTopFrame: false, document: doc };
}

const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

describe('probeFrame', () => {
  it('asks at once in a frame that already holds a link', async () => {
    const frame = subframe('<p>Hi <a href="https://x.example/share/abc">link</a></p>');
    const start = vi.fn(async () => ({ ok: true }));
    await probeFrame({ ...frame, start });
    expect(start).toHaveBeenCalledTimes(1);
  });

  it('waits in a frame without links, asks once when one is added, and not again', async () => {
    const frame = subframe('<p>No links here.</p>');
    const start = vi.fn(async () => ({ ok: true }));
    const probing = probeFrame({ ...frame, start });
    // Text, images and anchors without href are not links.
    frame.document.body.insertAdjacentHTML('beforeend', '<p>more text <img alt=""> <a name="x">anchor</a></p>');
    await settle();
    expect(start).not.toHaveBeenCalled();
    frame.document.body.insertAdjacentHTML('beforeend', '<div><p><a href="/share/x">deep link</a></p></div>');
    await probing;
    frame.document.body.insertAdjacentHTML('beforeend', '<a href="/share/y">another</a>');
    await settle();
    expect(start).toHaveBeenCalledTimes(1);
  });

  it('asks for a web component with an open shadow root (its content may come later)', async () => {
    const frame = subframe();
    const start = vi.fn(async () => ({ ok: true }));
    const probing = probeFrame({ ...frame, start });
    const wrapper = frame.document.createElement('section');
    const host = frame.document.createElement('deal-record');
    host.attachShadow({ mode: 'open' });
    wrapper.append(host);
    frame.document.body.append(wrapper);
    await probing;
    expect(start).toHaveBeenCalledTimes(1);
  });

  it('does nothing in the top frame (the manifest runs the annotator there)', async () => {
    const top = { ...subframe('<a href="/share/x">link</a>'), isTopFrame: true };
    const start = vi.fn(async () => ({ ok: true }));
    await probeFrame({ ...top, start });
    expect(start).not.toHaveBeenCalled();
  });

  it('an extension that went away meanwhile: the refused request is dropped, not thrown into the page', async () => {
    const frame = subframe('<a href="/share/x">link</a>');
    const start = vi.fn(async () => Promise.reject(new Error('Extension context invalidated.')));
    await expect(probeFrame({ ...frame, start })).resolves.toBeUndefined();
  });
});

describe('whenLinksAppear', () => {
  it('resolves for a written document (document.open/write), as mail clients fill about:blank frames', async () => {
    const frame = subframe();
    let resolved = false;
    const appearing = whenLinksAppear(frame.document).then(() => (resolved = true));
    frame.document.open();
    frame.document.write('<p>Forwarded: <a href="/share/z">snapshot</a></p>');
    frame.document.close();
    await appearing;
    expect(resolved).toBe(true);
  });
});
