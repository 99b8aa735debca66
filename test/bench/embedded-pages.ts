// Bench pages whose links are where mail clients and CRMs keep them: in frames (srcdoc, as a mail
// body) and in open shadow roots (web components). Each is measured against the same page without
// the extension, like the list pages (content.ts).
import { escapeHtml } from '../support/html';
import { anchorHtml, pageHead, type BenchPage } from './content';

export interface FramesCase {
  frames: number;
  /** Ordinary links per frame (0: text only). */
  linksPerFrame: number;
  /** How many of each frame's links are share links. */
  sharesPerFrame: number;
  /** `srcdoc` (a mail body; the default), or `url`: the same document at a same-origin address (frame.html). */
  source?: 'srcdoc' | 'url';
}

/** One frame's document: hands its mutation records to the top page's badge counter. */
function frameDocument(first: number, kase: FramesCase): string {
  const parts: string[] = [];
  for (let i = 0; i < kase.linksPerFrame; i++) parts.push(anchorHtml(first + i, i < kase.sharesPerFrame));
  const body = parts.length > 0 ? parts.join(' · ') : 'A message body without links. '.repeat(8);
  return `<script>new MutationObserver(parent.__noteBadges).observe(document, { childList: true, subtree: true });</script><p style="font:13px system-ui;margin:4px">${body}</p>`;
}

const FRAME_STYLE = 'width:300px;height:48px;border:1px solid #ccc';

/** One frame: a srcdoc of its own, or (url) frame.html, the same document for every frame. */
function frameHtml(first: number, kase: FramesCase): string {
  if (kase.source === 'url') return `<iframe src="/frame.html" style="${FRAME_STYLE}"></iframe>`;
  return `<iframe srcdoc="${escapeHtml(frameDocument(first, kase))}" style="${FRAME_STYLE}"></iframe>`;
}

/** `frames` srcdoc frames in a grid; the burst appends 20 more. */
export function framesPage(kase: FramesCase): BenchPage {
  const frames: string[] = [];
  for (let f = 0; f < kase.frames; f++) frames.push(frameHtml(f * 1_000, kase));
  const more: string[] = [];
  for (let f = kase.frames; f < kase.frames + 20; f++) more.push(frameHtml(f * 1_000, kase));
  const shareLinks = kase.frames * kase.sharesPerFrame;
  const links = kase.linksPerFrame === 0 ? 'no links' : `${kase.linksPerFrame} links, ${kase.sharesPerFrame} share`;
  const byUrl = kase.source === 'url';
  return {
    name: `${kase.frames} ${byUrl ? 'same-origin URL ' : ''}frames, ${links} each`,
    slug: `frames-${byUrl ? 'url-' : ''}${kase.frames}-${kase.linksPerFrame}-${kase.sharesPerFrame}`,
    ...(byUrl ? { frameDocument: frameDocument(0, kase) } : {}),
    html: `${pageHead('bench frames', shareLinks)}<body><div id="frames">${frames.join('')}</div></body></html>`,
    anchors: kase.frames * kase.linksPerFrame,
    shareLinks,
    frames: kase.frames,
    burst: {
      label: '+20 frames',
      script: `document.getElementById('frames').insertAdjacentHTML('beforeend', ${JSON.stringify(more.join(''))});`,
      badges: shareLinks + 20 * kase.sharesPerFrame,
    },
  };
}

export interface ShadowRootsCase {
  hosts: number;
  linksPerHost: number;
  sharePercent: number;
}

/**
 * `<bench-record>` elements, each filling its own open shadow root from `data-html` when connected
 * (parser-inserted ones too) and handing that root's mutation records to the badge counter.
 */
const RECORD_ELEMENT = `customElements.define('bench-record', class extends HTMLElement {
  connectedCallback() {
    if (this.shadowRoot) return;
    const root = this.attachShadow({ mode: 'open' });
    new MutationObserver(window.__noteBadges).observe(root, { childList: true, subtree: true });
    root.innerHTML = this.dataset.html;
  }
});`;

function records(from: number, count: number, kase: ShadowRootsCase): { html: string[]; shares: number } {
  const every = Math.round(100 / kase.sharePercent);
  const html: string[] = [];
  let shares = 0;
  for (let h = from; h < from + count; h++) {
    const links: string[] = [];
    for (let i = 0; i < kase.linksPerHost; i++) {
      const index = h * kase.linksPerHost + i;
      const share = index % every === 0;
      if (share) shares += 1;
      links.push(anchorHtml(index, share));
    }
    html.push(`<p>record ${h}: ${links.join(' · ')}</p>`);
  }
  return { html, shares };
}

/** `hosts` web components, each with its links in an open shadow root; the burst appends 200 more. */
export function shadowRootsPage(kase: ShadowRootsCase): BenchPage {
  const initial = records(0, kase.hosts, kase);
  const burst = records(kase.hosts, 200, kase);
  const hosts = initial.html.map((html) => `<bench-record data-html="${escapeHtml(html)}"></bench-record>`).join('');
  return {
    name: `${kase.hosts} shadow roots × ${kase.linksPerHost} links, ${kase.sharePercent}% share`,
    slug: `shadow-${kase.hosts}-${kase.linksPerHost}-${kase.sharePercent}`,
    html: `${pageHead('bench shadow roots', initial.shares, RECORD_ELEMENT)}<body><div id="records">${hosts}</div></body></html>`,
    anchors: kase.hosts * kase.linksPerHost,
    shareLinks: initial.shares,
    frames: 0,
    burst: {
      label: '+200 shadow roots',
      script: `const list = document.getElementById('records');
        for (const html of ${JSON.stringify(burst.html)}) { const el = document.createElement('bench-record'); el.dataset.html = html; list.append(el); }`,
      badges: initial.shares + burst.shares,
    },
  };
}
