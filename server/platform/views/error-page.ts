/**
 * HTML error pages for the human view (`/share/{token}`) and the demo page (421: refused `Host`). Same look as the share page.
 */
import type { Context } from 'hono';
import { escapeHtml, renderDocument, renderTopbar, type Tone } from './html';

export type ErrorPageStatus = 404 | 410 | 421 | 429 | 500;

export type ErrorPageInput = { status: ErrorPageStatus; title: string; message: string };

/** Standard reason phrase per status, shown as "Error 404 · Not Found". */
export const ERROR_STATUS_TEXT: Readonly<Record<ErrorPageStatus, string>> = {
  404: 'Not Found',
  410: 'Gone',
  421: 'Misdirected Request',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
};

/**
 * Suggested copy per status, for the server to pass in. The 404 copy is deliberately the same for an
 * unknown, malformed or revoked token: it must not reveal whether a token ever existed.
 */
export const ERROR_PAGE_COPY: Readonly<Record<ErrorPageStatus, { title: string; message: string }>> = {
  404: {
    title: 'This link is not valid',
    message: 'We could not find a compliance snapshot for this link.',
  },
  410: {
    title: 'This share link has expired',
    message: 'Share links are valid for 7 days. The snapshot behind this link is no longer shared.',
  },
  421: {
    title: 'This server does not answer to this address',
    message: 'The page was requested under a host name this server was not started with, so it refused the request.',
  },
  429: {
    title: 'Too many requests',
    message: 'This address has made too many requests in the last minute. Please wait a minute and try again.',
  },
  500: {
    title: 'Something went wrong',
    message: 'The server could not show this page. Please try again later.',
  },
};

/** Fixed advice under the message; none of it depends on the token or its history. */
const ADVICE: Readonly<Record<ErrorPageStatus, string>> = {
  404: 'Check that you copied the whole link. If it still does not open, ask the founder who shared it for a new link.',
  410: 'Ask the founder for a fresh share link if you still need to review this company.',
  421: 'Open it through http://localhost or http://127.0.0.1 instead. Operators can add a name with --allowed-host NAME; other names are refused to stop DNS-rebinding attacks.',
  429: 'Opening many share links at once from the same network (for example an office) can trigger this limit.',
  500: 'If the problem persists, contact the operator of this service.',
};

const TONE: Readonly<Record<ErrorPageStatus, Tone>> = { 404: 'neutral', 410: 'amber', 421: 'amber', 429: 'amber', 500: 'red' };

const ERROR_CSS = `
.error-wrap { display: grid; place-items: center; min-height: 55vh; }
.error-card { max-width: 560px; width: 100%; text-align: left; }
.error-card h1 { margin: 14px 0 8px; font-size: 1.5rem; }
.error-card .message { font-size: 1.02rem; }
.error-card .advice { margin-top: 14px; color: var(--muted); font-size: 0.92rem; }
`;

export function renderErrorPage(input: ErrorPageInput): string {
  const statusText = ERROR_STATUS_TEXT[input.status];
  const tone = TONE[input.status];
  const body = `<div class="page">
${renderTopbar('Compliance status snapshot')}
<main class="error-wrap">
  <section class="card error-card" aria-labelledby="error-title" data-testid="error-page" data-status="${escapeHtml(input.status)}">
    <span class="chip chip-dot tone-${tone}" data-testid="error-status">Error ${escapeHtml(input.status)} · ${escapeHtml(statusText)}</span>
    <h1 id="error-title">${escapeHtml(input.title)}</h1>
    <p class="message" data-testid="error-message">${escapeHtml(input.message)}</p>
    <p class="advice">${escapeHtml(ADVICE[input.status])}</p>
  </section>
</main>
<footer class="footer"><p>Compliance snapshots are founder self-assessments shared through time-limited, revocable links. They are not certifications.</p></footer>
</div>`;
  return renderDocument({ title: `${input.title} (${input.status}) · Compliance Lens`, body, css: ERROR_CSS });
}

/** The HTML error page answered where a browser expects a page (the share view, the demo page). */
export function htmlErrorPage(c: Context, status: ErrorPageStatus): Response {
  return c.html(renderErrorPage({ status, ...ERROR_PAGE_COPY[status] }), status);
}
