/**
 * Shared helpers for the server's HTML views (share page, error pages, demo page): escaping, UTC date
 * formatting and one base stylesheet. Pure functions, no server dependencies.
 *
 * The server sends `Content-Security-Policy: default-src 'none'; style-src 'unsafe-inline'; img-src data:`,
 * so every page is a single self-contained document: inline CSS only, no scripts, no external resources.
 */

import { brandMarkSvg } from '../../../lib/core/brand';
import { formatDateTime } from '../../../lib/core/format';
import { appTranslator } from '../../../lib/core/i18n';
import { PALETTE, paletteCssVariables } from '../../../lib/core/palette';

export { READINESS_TONE as READINESS_LABEL_TONE, RISK_BAND_TONE, SEVERITY_TONE, type Tone } from '../../../lib/core/palette';

/** The views speak English (the service's language); their words are the extension's, from its catalog. */
export const viewTranslator = appTranslator('en', 'en-GB');

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

/**
 * Escapes a value for use in HTML text and in double- or single-quoted attribute values. Every
 * interpolated value in the views goes through this (snapshot data is founder-provided).
 */
export function escapeHtml(value: string | number): string {
  return String(value).replace(/[&<>"'`]/g, (ch) => HTML_ESCAPES[ch] ?? ch);
}

/**
 * "20 Jun 2026, 09:15 UTC" (lib/core/format, British English), always UTC as the API states its
 * timestamps. Returns the input unchanged when it is not a parseable date.
 */
export function formatUtc(value: string | Date): string {
  const date = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return String(value);
  return formatDateTime(date, 'en-GB');
}

/** `<time datetime="…">20 Jun 2026, 09:15 UTC</time>`, with the exact instant in the title. */
export function timeElement(iso: string): string {
  return `<time datetime="${escapeHtml(iso)}" title="${escapeHtml(iso)}">${escapeHtml(formatUtc(iso))}</time>`;
}

/** The one stylesheet every view shares. Page-specific rules are passed to `renderDocument`. */
export const BASE_CSS = `
:root {
  color-scheme: light dark;
  --bg: #f6f8fa;
  --surface: #ffffff;
  --surface-2: #f1f4f8;
  --border: #dde3ea;
  --text: #0f1b2d;
  --muted: #4d5b6e;
  --accent-soft: #e8f1fb;
  --shadow: 0 1px 2px rgba(15, 27, 45, 0.06), 0 4px 12px rgba(15, 27, 45, 0.05);
  ${paletteCssVariables(PALETTE.light)}
  --font: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif;
  --mono: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #0d1117;
    --surface: #151b23;
    --surface-2: #1c2430;
    --border: #2d3744;
    --text: #e6edf3;
    --muted: #9eabba;
    --accent-soft: #132338;
    --shadow: none;
    ${paletteCssVariables(PALETTE.dark)}
  }
}
*, *::before, *::after { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
body {
  margin: 0;
  background: var(--bg);
  color: var(--text);
  font: 15px/1.55 var(--font);
  overflow-wrap: anywhere;
}
a { color: var(--accent); text-underline-offset: 2px; }
a:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; border-radius: 2px; }
code, .mono { font-family: var(--mono); font-size: 0.88em; }
h1, h2, h3 { line-height: 1.25; margin: 0; }
h1 { font-size: 1.75rem; font-weight: 700; letter-spacing: -0.01em; }
h2 { font-size: 1.05rem; font-weight: 650; }
h3 { font-size: 0.95rem; font-weight: 600; }
p { margin: 0; }
.page { max-width: 960px; margin: 0 auto; padding: 24px 20px 48px; }
.topbar {
  display: flex; align-items: center; justify-content: space-between; gap: 12px; flex-wrap: wrap;
  padding-bottom: 16px; margin-bottom: 24px; border-bottom: 1px solid var(--border);
}
.brand { display: flex; align-items: center; gap: 10px; font-weight: 650; color: var(--text); }
.brand-mark { display: block; flex: none; }
.brand-mark .tile { fill: var(--brand); }
.brand-mark .ink { stroke: var(--on-brand); }
.brand small { display: block; font-weight: 500; color: var(--muted); font-size: 0.8rem; }
.card {
  background: var(--surface); border: 1px solid var(--border); border-radius: 12px;
  padding: 20px; box-shadow: var(--shadow);
}
.section { margin-top: 20px; }
.section-title {
  font-size: 0.78rem; font-weight: 650; text-transform: uppercase; letter-spacing: 0.06em;
  color: var(--muted); margin: 0 0 12px;
}
.muted { color: var(--muted); }
.small { font-size: 0.85rem; }
.chip {
  display: inline-flex; align-items: center; gap: 6px; padding: 2px 10px; border-radius: 999px;
  font-size: 0.8rem; font-weight: 600; border: 1px solid var(--neutral-border);
  background: var(--neutral-bg); color: var(--neutral-fg); white-space: nowrap;
}
.chip-dot::before { content: ""; width: 7px; height: 7px; border-radius: 50%; background: currentColor; }
.tone-red { background: var(--red-bg); color: var(--red-fg); border-color: var(--red-border); }
.tone-orange { background: var(--orange-bg); color: var(--orange-fg); border-color: var(--orange-border); }
.tone-amber { background: var(--amber-bg); color: var(--amber-fg); border-color: var(--amber-border); }
.tone-blue { background: var(--blue-bg); color: var(--blue-fg); border-color: var(--blue-border); }
.tone-green { background: var(--green-bg); color: var(--green-fg); border-color: var(--green-border); }
.tone-neutral { background: var(--neutral-bg); color: var(--neutral-fg); border-color: var(--neutral-border); }
.callout {
  display: flex; gap: 12px; align-items: flex-start; padding: 14px 16px; border-radius: 10px;
  border: 1px solid var(--border); background: var(--surface-2);
}
.callout-icon {
  flex: none; display: inline-grid; place-items: center; width: 22px; height: 22px; border-radius: 50%;
  font-weight: 800; font-size: 13px; background: var(--accent); color: var(--surface);
}
.footer { margin-top: 32px; padding-top: 16px; border-top: 1px solid var(--border); color: var(--muted); font-size: 0.82rem; }
.visually-hidden {
  position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden;
  clip: rect(0 0 0 0); white-space: nowrap; border: 0;
}
@media (max-width: 640px) {
  body { font-size: 14.5px; }
  .page { padding: 16px 14px 36px; }
  h1 { font-size: 1.45rem; }
  .card { padding: 16px; }
}
@media print {
  :root {
    color-scheme: light;
    --bg: #ffffff; --surface: #ffffff; --surface-2: #ffffff; --border: #b8c2cc; --text: #000000;
    --muted: #333333; --accent: #000000; --shadow: none;
  }
  body { font-size: 11pt; }
  .page { max-width: none; padding: 0; }
  .card, .callout, section { break-inside: avoid; }
  a { color: inherit; text-decoration: none; }
  .no-print { display: none !important; }
  .chip, [class*="tone-"] { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
}
`;

export type DocumentInput = {
  title: string;
  /** Already-escaped HTML for inside `<body>`. */
  body: string;
  /** Page-specific CSS appended after the shared stylesheet (static strings only). */
  css?: string;
  /** Short description for `<meta name="description">` (escaped here). */
  description?: string;
};

/** A complete HTML5 document around `body`. `title` and `description` are escaped here. */
export function renderDocument(input: DocumentInput): string {
  const description = input.description ? `\n<meta name="description" content="${escapeHtml(input.description)}">` : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex, nofollow">${description}
<title>${escapeHtml(input.title)}</title>
<style>${BASE_CSS}${input.css ?? ''}</style>
</head>
<body>
${input.body}
</body>
</html>
`;
}

/**
 * The product mark (lib/core/brand.ts), as in the extension: its colours follow the scheme through
 * the palette's custom properties.
 */
const BRAND_MARK_HTML = brandMarkSvg({ size: 28, attributes: 'class="brand-mark" aria-hidden="true" focusable="false"' })
  .replace(/<rect /, '<rect class="tile" ')
  .replace(/stroke="[^"]*"/g, 'class="ink"');

/** The page header bar shared by all views. `subtitle` is escaped here; `right` is trusted HTML. */
export function renderTopbar(subtitle: string, right = ''): string {
  return `<header class="topbar">
  <div class="brand">${BRAND_MARK_HTML}<span>Compliance Lens<small>${escapeHtml(subtitle)}</small></span></div>
  ${right}
</header>`;
}
