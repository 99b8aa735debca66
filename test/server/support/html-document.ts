/**
 * Reading the server's HTML views in tests: a happy-dom parser (closed after the file's tests), the
 * elements by `data-testid`, and the inertness every view promises (docs/security.md).
 */
import { afterAll, expect } from 'vitest';
import { Window } from 'happy-dom';

const window = new Window();
afterAll(async () => {
  await window.happyDOM.close();
});

export function parse(html: string) {
  return new window.DOMParser().parseFromString(html, 'text/html');
}

export type Doc = ReturnType<typeof parse>;

export function byTestId(doc: Doc, id: string) {
  const el = doc.querySelector(`[data-testid="${id}"]`);
  if (!el) throw new Error(`no element with data-testid="${id}"`);
  return el;
}

/** The element's text with white space folded. */
export function text(doc: Doc, id: string): string {
  return (byTestId(doc, id).textContent ?? '').replace(/\s+/g, ' ').trim();
}

/** No script elements, no inline event handlers, no javascript: URLs, no external resources. */
export function expectInert(doc: Doc, html: string): void {
  expect(doc.querySelectorAll('script').length).toBe(0);
  expect(html.toLowerCase()).not.toContain('<script');
  for (const el of doc.querySelectorAll('*')) {
    for (const attr of el.attributes) {
      expect(attr.name.startsWith('on'), `${el.tagName} has ${attr.name}`).toBe(false);
    }
  }
  for (const el of doc.querySelectorAll('[href], [src]')) {
    const ref = el.getAttribute('href') ?? el.getAttribute('src') ?? '';
    expect(ref.trim().toLowerCase().startsWith('javascript:')).toBe(false);
  }
  expect(doc.querySelectorAll('link, img, iframe, object, embed, base, form').length).toBe(0);
}
