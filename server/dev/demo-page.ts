/**
 * The demo page (served by the dev server): an email thread and a deal-flow table holding share links
 * in the forms the extension must recognise (plain, Gmail, Outlook Safe Links, Proofpoint v2), plus
 * look-alikes it must not annotate. Every link anchor carries `data-demo-state` and `data-demo-form`
 * so end-to-end tests can find it.
 */

import { badgeChipCss, badgeLook, type BadgeLookState } from '../../lib/core/badge-look';
import { escapeHtml, renderDocument, renderTopbar, type Tone } from '../platform/views/html';

export type DemoLink = {
  label: string;
  company: string;
  state: 'active' | 'expired' | 'revoked';
  token: string;
  apiUrl: string;
  shareUrl: string;
};

/** A link with what its badge shows once loaded, as the server sees the link now (its score may have moved). */
export type DemoRow = DemoLink & { expected: BadgeLookState };

export type DemoPageInput = { baseUrl: string; links: DemoRow[] };

export type DemoState = DemoLink['state'] | 'lookalike';
export type DemoForm =
  'plain-share' | 'plain-api' | 'gmail' | 'safelinks' | 'proofpoint-v2' | 'table' | 'frame' | 'shadow-root' | 'lookalike';

/** Fixed, realistic-looking wrapper parameters (the page is deterministic: same input, same HTML). */
const GMAIL_UST = '1781942400000000';
const GMAIL_USG = 'AOvVaw1hK3mQz8RrT2cLensDemo7';
const SAFELINKS_DATA =
  '05%7C02%7Cinvestments%40savanna-ventures.example%7C5f1c2a9e8b7d4c3fa1e208dca7b4c391%7C72f988bf86f141af91ab2d7cd011db47%7C0%7C0%7C638851824000000000%7CUnknown%7CTWFpbGZsb3d8eyJFbXB0eU1hcGkiOnRydWV9%7C0%7C%7C%7C';
const SAFELINKS_SDATA = 'q3Xb7Vh2kP9Lr0sT5wYc1nZ8aF4dG6jH2mK0pR3uE%2Bo%3D';
const PROOFPOINT_PARAMS =
  'd=DwMFaQ&c=Vxt5e0Osvvt2gflwSlsJ5DmPGcPvTRKLJyp031rXjhg&r=MujLDFBJstxoxZI_GKbsW7wxGM7nnIK__qZvVy6j9Wc&m=QJGhloAyfD0UZ6n8r6y9dF-khNKqvRAIWDRU_K65xPI&s=ew-rOtBFjiX1Hgv71XQJ5BEgl9TPaoWRm_Xp9Nuo8bk&e=';

/** Gmail's `data-saferedirecturl` for an original link. */
export function gmailSafeRedirectUrl(url: string): string {
  return `https://www.google.com/url?q=${encodeURIComponent(url)}&source=gmail&ust=${GMAIL_UST}&usg=${GMAIL_USG}`;
}

/** An Outlook Safe Links wrapper (`url` is percent-encoded once). */
export function safeLinksUrl(url: string): string {
  return `https://nam12.safelinks.protection.outlook.com/?url=${encodeURIComponent(url)}&data=${SAFELINKS_DATA}&sdata=${SAFELINKS_SDATA}&reserved=0`;
}

/**
 * A Proofpoint URL Defense v2 wrapper. `u=` keeps ASCII letters, digits and `.`; `/` becomes `_`;
 * every other UTF-8 byte (including `-` and `_` themselves) becomes `-XX`, Proofpoint's spelling of `%XX`.
 */
export function proofpointV2Url(url: string): string {
  let encoded = '';
  for (const byte of new TextEncoder().encode(url)) {
    const ch = String.fromCharCode(byte);
    if (/^[A-Za-z0-9.]$/.test(ch)) encoded += ch;
    else if (ch === '/') encoded += '_';
    else encoded += `-${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return `https://urldefense.proofpoint.com/v2/url?u=${encoded}&${PROOFPOINT_PARAMS}`;
}

function anchor(href: string, text: string, state: DemoState, form: DemoForm, extraAttrs: Record<string, string> = {}): string {
  const extra = Object.entries(extraAttrs)
    .map(([name, value]) => ` ${name}="${escapeHtml(value)}"`)
    .join('');
  return `<a href="${escapeHtml(href)}" data-demo-state="${state}" data-demo-form="${form}" rel="noopener noreferrer"${extra}>${escapeHtml(text)}</a>`;
}

/** A badge as the extension draws it (lib/core/badge-look.ts: the same chip, marks and colours). */
function badgeChip(state: BadgeLookState): string {
  const look = badgeLook(state);
  const flags = `${look.dashed ? ' data-dashed' : ''}${look.mark ? ' data-mark' : ''}`;
  return `<span class="cl-badge" data-tone="${look.tone}"${flags}>${escapeHtml(look.text)}</span>`;
}

/** What the extension's badge says in words, as the card names it. */
function expectedWords(state: BadgeLookState): string {
  if (state.state === 'ready') return `Readiness ${state.score}/100 · ${state.label}`;
  if (state.state !== 'error') return 'Not loaded';
  if (state.code === 'EXPIRED') return 'Expired';
  if (state.code === 'NOT_FOUND')
    return state.withdrawn ? 'Withdrawn by the founder' : 'Not found (revoked before this browser loaded it)';
  return 'Could not load';
}

/** Before the link is loaded, and after (a hover or Enter: one view). */
function expectedBadge(state: BadgeLookState): string {
  return `<span class="expected" data-testid="expected-badge"><span class="chips">${badgeChip({ state: 'idle' })}<span aria-label="then">→</span>${badgeChip(state)}</span><span class="muted small">${escapeHtml(expectedWords(state))}</span></span>`;
}

const DEAL_STAGES = ['Due diligence', 'First call', 'IC memo', 'Sourcing', 'Term sheet', 'Portfolio review'] as const;
const OWNERS = ['Amara Okafor', 'Wanjiru Kamau', 'Kwame Mensah', 'Thandiwe Nkosi', 'Moussa Diallo'] as const;

function pick<T>(items: readonly [T, ...T[]], index: number): T {
  return items[index % items.length] ?? items[0];
}

function initials(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part.charAt(0).toUpperCase())
    .join('');
}

function messageHeader(name: string, email: string, to: string, date: string, avatarTone: Tone = 'amber'): string {
  return `<div class="msg-head">
    <span class="avatar tone-${avatarTone}" aria-hidden="true">${escapeHtml(initials(name))}</span>
    <div class="msg-from">
      <p><strong>${escapeHtml(name)}</strong> <span class="muted small">&lt;${escapeHtml(email)}&gt;</span></p>
      <p class="muted small">to ${escapeHtml(to)}</p>
    </div>
    <p class="muted small msg-date">${escapeHtml(date)}</p>
  </div>`;
}

function renderEmailThread(active: readonly [DemoLink, ...DemoLink[]]): string {
  const plainShare = pick(active, 0);
  const plainApi = pick(active, 1);
  const gmail = pick(active, 2);
  const safelinks = pick(active, 3);
  const proofpoint = pick(active, 4);

  return `<section class="card mail section" aria-labelledby="mail-subject">
  <p class="section-title">1 · Email thread (Gmail-like)</p>
  <div class="mail-subject-row">
    <h2 id="mail-subject">Pipeline: compliance snapshots for Thursday's investment committee</h2>
    <span class="chip">Inbox</span><span class="chip">Deal flow</span>
  </div>

  <article class="msg">
    ${messageHeader('Amara Okafor', 'amara@savanna-ventures.example', 'me, Wanjiru', 'Tue, 16 Jun 2026, 09:12')}
    <div class="msg-body">
      <p>Hi both,</p>
      <p>Ahead of Thursday, here are the founders' compliance share links. ${escapeHtml(plainShare.company)} sent their investor view:</p>
      <p class="link-line">${anchor(plainShare.shareUrl, plainShare.shareUrl, plainShare.state, 'plain-share')}</p>
      <p>${escapeHtml(plainApi.company)} only sent the machine-readable API address (our portfolio tool polls it daily):</p>
      <p class="link-line">${anchor(plainApi.apiUrl, plainApi.apiUrl, plainApi.state, 'plain-api')}</p>
      <p>And ${escapeHtml(gmail.company)}'s link came through the founder's Gmail, so it carries Google's redirect wrapper:
        ${anchor(gmail.shareUrl, `${gmail.company} — compliance snapshot`, gmail.state, 'gmail', {
          'data-saferedirecturl': gmailSafeRedirectUrl(gmail.shareUrl),
          target: '_blank',
        })}</p>
      <p>Remember these are self-assessments, not certifications. Please read the disclaimers.</p>
      <p>Best,<br>Amara</p>
    </div>
  </article>

  <article class="msg">
    ${messageHeader('Wanjiru Kamau', 'w.kamau@pan-african-bank.example', 'Amara, me', 'Tue, 16 Jun 2026, 11:47', 'blue')}
    <div class="msg-body">
      <p>Thanks Amara. Forwarding two more from my bank mailbox; our mail gateways rewrite every link, so they look odd:</p>
      <p>${escapeHtml(safelinks.company)} (Outlook Safe Links):<br>
        <span class="link-line">${anchor(safeLinksUrl(safelinks.shareUrl), safelinks.shareUrl, safelinks.state, 'safelinks')}</span></p>
      <p>${escapeHtml(proofpoint.company)} (came in plain text through Proofpoint URL Defense):<br>
        <span class="link-line">${anchor(proofpointV2Url(proofpoint.shareUrl), proofpointV2Url(proofpoint.shareUrl), proofpoint.state, 'proofpoint-v2')}</span></p>
      <p>Wanjiru</p>
      <blockquote class="quote">
        <p class="muted small">On Tue, 16 Jun 2026 at 09:12, Amara Okafor &lt;amara@savanna-ventures.example&gt; wrote:</p>
        <p>Hi both, ahead of Thursday, here are the founders' compliance share links. ${escapeHtml(plainShare.company)} sent their investor view: ${escapeHtml(plainShare.shareUrl)}</p>
        <p>Remember these are self-assessments, not certifications.</p>
      </blockquote>
    </div>
  </article>
</section>`;
}

function renderDealTable(links: readonly DemoRow[]): string {
  const rows = links
    .map((link, index) => {
      return `<tr>
        <td><strong>${escapeHtml(link.company)}</strong></td>
        <td>${escapeHtml(DEAL_STAGES[index % DEAL_STAGES.length] ?? '')}</td>
        <td>${escapeHtml(OWNERS[index % OWNERS.length] ?? '')}</td>
        <td class="link-cell">${anchor(link.shareUrl, link.label, link.state, 'table')}</td>
        <td>${expectedBadge(link.expected)}</td>
      </tr>`;
    })
    .join('\n');
  return `<section class="card section" aria-labelledby="crm-title">
  <p class="section-title">2 · Deal-flow board (CRM-like)</p>
  <h2 id="crm-title">Pan-African fintech pipeline · Q3 2026</h2>
  <p class="muted small">Expected badge: what the extension draws next to each link before it is loaded (CL), then once you hover it or press Enter on its badge (one view for the founder).</p>
  <div class="table-wrap">
    <table class="crm">
      <thead><tr><th scope="col">Company</th><th scope="col">Stage</th><th scope="col">Owner</th><th scope="col">Compliance link</th><th scope="col">Expected badge</th></tr></thead>
      <tbody>
${rows}
      </tbody>
    </table>
  </div>
</section>`;
}

type LookAlike = { href: string; text: string; why: string };

function lookAlikesFor(link: DemoLink): LookAlike[] {
  let url: URL;
  try {
    url = new URL(link.shareUrl);
  } catch {
    return [];
  }
  const port = url.port ? `:${url.port}` : '';
  const token = url.pathname.split('/').filter(Boolean).pop() ?? '';
  const sameHostSuffix = `${url.protocol}//${url.hostname}.evil.test${port}${url.pathname}`;
  const hostInPath = `http://evil.test/${url.host}${url.pathname}`;
  const userinfo = `http://${url.host}@evil.test${url.pathname}`;
  return [
    { href: sameHostSuffix, text: sameHostSuffix, why: 'Same path, but the host only starts with the service host name.' },
    { href: hostInPath, text: hostInPath, why: 'The service host appears in the path of another host.' },
    { href: userinfo, text: userinfo, why: 'The service host is the user name; the real host is evil.test.' },
    {
      href: `https://evil.test/share/${token}`,
      text: link.shareUrl,
      why: 'The visible text shows the real share URL, but the link goes elsewhere.',
    },
    {
      href: safeLinksUrl(sameHostSuffix),
      text: `${link.company} snapshot (Safe Links)`,
      why: 'A genuine Safe Links wrapper around a look-alike host: unwrapping must not make it trusted.',
    },
  ];
}

function renderLookAlikes(link: DemoLink): string {
  const items = lookAlikesFor(link)
    .map(
      (item) => `<li><span class="chip tone-red">look-alike (should not be annotated)</span>
        <div><p class="link-line">${anchor(item.href, item.text, 'lookalike', 'lookalike')}</p><p class="muted small">${escapeHtml(item.why)}</p></div></li>`,
    )
    .join('\n');
  return `<section class="card section lookalikes" aria-labelledby="lookalike-title">
  <p class="section-title">4 · Look-alikes</p>
  <h2 id="lookalike-title">Links that must not get a badge</h2>
  <p class="muted small">These imitate a share link but point to another origin. The extension must leave them alone and never send their token anywhere.</p>
  <ul class="lookalike-list">
${items}
  </ul>
</section>`;
}

/**
 * Where apps keep links out of the page's own DOM: a mail body isolated in a `srcdoc` frame, and a web
 * component with a (declarative, so script-free) open shadow root. The extension badges both.
 */
function renderFramesAndComponents(framed: DemoLink, component: DemoLink): string {
  const body = `<body style="margin:0;padding:12px 14px;font:15px/1.5 system-ui,sans-serif;color:#1e293b;background:#fff">
<p style="margin:0 0 6px"><strong>Moussa Diallo</strong> &lt;moussa@sahel-angels.example&gt;</p>
<p style="margin:0">This message body is rendered inside its own frame, as Gmail and Outlook do. ${escapeHtml(framed.company)}'s link:
${anchor(framed.shareUrl, `${framed.company} — compliance snapshot`, framed.state, 'frame')}</p></body>`;
  return `<section class="card section" aria-labelledby="frames-title">
  <p class="section-title">3 · Inside a frame and a web component</p>
  <h2 id="frames-title">Mail bodies in frames, CRM records in shadow DOM</h2>
  <iframe class="mail-frame" title="Forwarded message from Moussa Diallo" srcdoc="${escapeHtml(body)}"></iframe>
  <deal-record class="component">
    <template shadowrootmode="open">
      <style>:host{display:block;margin-top:12px;padding:12px 14px;border:1px solid var(--border,#cbd5e1);border-radius:10px}p{margin:0}</style>
      <p><strong>${escapeHtml(component.company)}</strong> · record from a web-component CRM (its content sits in a shadow root):
        ${anchor(component.shareUrl, 'compliance snapshot', component.state, 'shadow-root')}</p>
    </template>
  </deal-record>
</section>`;
}

const DEMO_CSS = `
.page { max-width: 1080px; }
.intro h1 { margin-bottom: 8px; }
.intro ul { margin: 10px 0 0; padding-left: 20px; }
.intro li { margin: 4px 0; }
.empty-note { margin-top: 20px; }
.empty-note code { padding: 2px 6px; border-radius: 5px; background: var(--surface-2); border: 1px solid var(--border); }
.mail { padding: 0; overflow: hidden; }
.mail > .section-title { padding: 18px 20px 0; }
.mail-subject-row { display: flex; flex-wrap: wrap; align-items: center; gap: 8px; padding: 6px 20px 16px; border-bottom: 1px solid var(--border); }
.mail-subject-row h2 { font-size: 1.3rem; font-weight: 500; margin-right: 6px; }
.msg { padding: 16px 20px 20px; border-bottom: 1px solid var(--border); }
.msg:last-child { border-bottom: 0; }
.msg-head { display: grid; grid-template-columns: 40px minmax(0, 1fr) auto; gap: 12px; align-items: center; }
.avatar { display: grid; place-items: center; width: 40px; height: 40px; border-radius: 50%; font-weight: 700; border: 1px solid; }
.msg-date { white-space: nowrap; }
.msg-body { margin: 14px 0 0 52px; display: flex; flex-direction: column; gap: 10px; }
.link-line { font-family: var(--mono); font-size: 0.86rem; word-break: break-all; }
.quote { margin: 4px 0 0; padding: 4px 0 4px 14px; border-left: 3px solid var(--border); color: var(--muted); display: flex; flex-direction: column; gap: 6px; }
.table-wrap { overflow-x: auto; margin-top: 14px; border: 1px solid var(--border); border-radius: 10px; }
.crm { width: 100%; border-collapse: collapse; font-size: 0.9rem; }
.crm th { text-align: left; font-size: 0.75rem; text-transform: uppercase; letter-spacing: 0.05em; color: var(--muted); background: var(--surface-2); font-weight: 650; }
.crm th, .crm td { padding: 10px 14px; border-bottom: 1px solid var(--border); vertical-align: middle; }
.crm tbody tr:last-child td { border-bottom: 0; }
.crm tbody tr:nth-child(even) td { background: color-mix(in srgb, var(--surface-2) 45%, transparent); }
.crm td:nth-child(-n+3) { white-space: nowrap; }
.link-cell { min-width: 200px; }
.expected { display: flex; flex-direction: column; gap: 3px; min-width: 150px; }
.expected .chips { display: inline-flex; align-items: center; gap: 6px; }
/* Room for the extension's badge, which is drawn over what follows a link. */
.crm td.link-cell { padding-right: 72px; }
${badgeChipCss('.cl-badge')}
.cl-badge { cursor: default; }
.lookalikes { border-color: var(--red-border); }
.lookalike-list { list-style: none; margin: 14px 0 0; padding: 0; display: flex; flex-direction: column; gap: 12px; }
.mail-frame { display: block; width: 100%; height: 120px; margin-top: 14px; border: 1px solid var(--border); border-radius: 10px; background: #fff; }
.lookalike-list li { display: flex; flex-direction: column; gap: 6px; align-items: flex-start; padding: 12px 14px; border: 1px dashed var(--red-border); border-radius: 10px; }
@media (max-width: 640px) {
  .msg-head { grid-template-columns: 40px minmax(0, 1fr); }
  .msg-date { grid-column: 2; }
  .msg-body { margin-left: 0; }
}
`;

export function renderDemoPage(input: DemoPageInput): string {
  const { baseUrl, links } = input;
  const intro = `<section class="card intro" aria-labelledby="demo-title">
  <h1 id="demo-title">Compliance Lens demo page</h1>
  <p>This page imitates where investors and analysts meet compliance share links: an email thread and a deal-flow board. Share links point to the bundled server at <code>${escapeHtml(baseUrl)}</code>.</p>
  <ul>
    <li>With the Compliance Lens extension loaded, each genuine share link gets a small <strong>badge</strong> right after it, including links hidden behind Gmail, Outlook Safe Links and Proofpoint wrappers.</li>
    <li><strong>Hover</strong> a link or its badge for a moment (or focus it and press Enter) to open a <strong>card</strong> with the readiness score, risk band, top gaps and the founder's disclaimer.</li>
    <li>Nothing is fetched just because a link is on the page. <strong>Each snapshot fetch counts as a view for the founder</strong>, so the extension fetches only on intent and caches the result.</li>
    <li>Links inside frames (a mail body) and inside web components (shadow DOM) get badges too.</li>
    <li>A badge shows the readiness score out of 100 in its label's colour; an expired link shows a clock (◷), a link the service does not know a question mark (?), and one the founder revoked after you loaded it a barred circle (⊘). Look-alike links (marked in red) get no badge at all.</li>
  </ul>
</section>`;

  const [first, ...rest] = links;
  let content: string;
  if (!first) {
    content = `<div class="callout empty-note" role="status">
  <span class="callout-icon" aria-hidden="true">i</span>
  <p data-testid="demo-empty">No demo data: start the server with <code>npm run server -- --seed</code></p>
</div>`;
  } else {
    const [firstActive, ...otherActive] = links.filter((link) => link.state === 'active');
    const emailLinks: [DemoLink, ...DemoLink[]] = firstActive ? [firstActive, ...otherActive] : [first, ...rest];
    content = [
      renderEmailThread(emailLinks),
      renderDealTable(links),
      renderFramesAndComponents(pick(emailLinks, 5), pick(emailLinks, 6)),
      renderLookAlikes(emailLinks[0]),
    ].join('\n');
  }

  const body = `<div class="page">
${renderTopbar('Demo: share links in the wild', '<span class="chip tone-blue">Local dev server</span>')}
<main>
${intro}
${content}
</main>
<footer class="footer"><p>Demo data is fictional. Snapshots are founder self-assessments, not certifications.</p></footer>
</div>`;
  return renderDocument({ title: 'Compliance Lens demo: share links in an inbox and a CRM', body, css: DEMO_CSS });
}
