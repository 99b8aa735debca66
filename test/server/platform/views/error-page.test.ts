import { describe, expect, it } from 'vitest';
import { ERROR_PAGE_COPY, renderErrorPage, type ErrorPageStatus } from '../../../../server/platform/views/error-page';
import { byTestId, expectInert, parse, text } from '../../support/html-document';

describe('renderErrorPage', () => {
  const statuses: [ErrorPageStatus, string][] = [
    [404, 'Not Found'],
    [410, 'Gone'],
    [421, 'Misdirected Request'],
    [429, 'Too Many Requests'],
    [500, 'Internal Server Error'],
  ];

  it.each(statuses)('%i shows its status text, title and message', (status, statusText) => {
    const copy = ERROR_PAGE_COPY[status];
    const html = renderErrorPage({ status, ...copy });
    const doc = parse(html);
    expectInert(doc, html);
    expect(text(doc, 'error-status')).toBe(`Error ${status} · ${statusText}`);
    expect(doc.querySelector('h1')?.textContent).toBe(copy.title);
    expect(text(doc, 'error-message')).toBe(copy.message);
    expect(doc.title).toContain(String(status));
    expect(byTestId(doc, 'error-page').getAttribute('data-status')).toBe(String(status));
  });

  it('404 copy does not reveal whether a token existed, was revoked or expired', () => {
    const doc = parse(renderErrorPage({ status: 404, ...ERROR_PAGE_COPY[404] }));
    const body = (doc.body.textContent ?? '').replace(/\s+/g, ' ');
    expect(body).not.toMatch(/\brevoked\b|\bexpired\b|\bdeleted\b|never existed|no longer exists|was valid/i);
  });

  it('escapes the title and message', () => {
    const html = renderErrorPage({ status: 500, title: '<script>x</script>', message: '"onmouseover="y' });
    const doc = parse(html);
    expectInert(doc, html);
    expect(doc.querySelector('h1')?.textContent).toBe('<script>x</script>');
    expect(text(doc, 'error-message')).toBe('"onmouseover="y');
  });
});
