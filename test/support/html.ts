/**
 * Escapes text for HTML that tests write themselves (fixture pages, placeholder values): enough for
 * element text and double-quoted attribute values. Shared by the Chromium e2e pages and the Firefox
 * smoke test's pages.
 */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}
