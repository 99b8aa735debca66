import { IDLE_VIEW, type BadgeDescription, type BadgeView } from './badge-view';

export const BADGE_TAG = 'compliance-lens-badge';

/**
 * Isolated from page CSS (`all: initial` on the host, everything else inside a closed shadow root),
 * but for its visibility: it inherits its parent's, as its link does, and hides with its link
 * (`data-link-hidden`, set by the scanner) when the link itself is hidden (issue #27 item 11).
 * The host's vertical margins cancel its 16px height: its margin box, which is what sizes a line box,
 * is empty, so a badge never makes a line taller (even in 13px text), only wider. A taller line would
 * move everything below it: on a long page that relayout cost a 60–115 ms frame. `system-ui` needs no
 * fallback stack: every browser the extension runs in has it.
 */
const BADGE_CSS = `
:host{all:initial!important;display:inline-flex!important;vertical-align:baseline!important;margin:-8px 0 -8px 4px!important;position:static!important;visibility:inherit!important}
:host([data-link-hidden]){visibility:hidden!important}
.b{display:inline-flex;align-items:center;gap:3px;box-sizing:border-box;height:16px;padding:0 6px;border:1px solid;border-radius:8px;
font:600 11px/14px system-ui,sans-serif;letter-spacing:.01em;
white-space:nowrap;cursor:pointer;user-select:none;font-variant-numeric:tabular-nums;
color:#334155;background:#f8fafc;border-color:#cbd5e1}
.b:hover{filter:brightness(.96)}
.b:focus{outline:none}
.b:focus-visible{outline:2px solid #2563eb;outline-offset:1px}
.s{display:none;width:8px;height:8px;border-radius:50%;border:1.5px solid currentColor;border-right-color:transparent;animation:r .8s linear infinite}
:host([data-state=loading]) .s{display:inline-block}
@keyframes r{to{transform:rotate(360deg)}}
@media (prefers-reduced-motion:reduce){.s{animation:none;border-right-color:currentColor;opacity:.5}}
.b[data-tone=critical]{color:#991b1b;background:#fef2f2;border-color:#fca5a5}
.b[data-tone=progress]{color:#92400e;background:#fffbeb;border-color:#fcd34d}
.b[data-tone=good]{color:#075985;background:#f0f9ff;border-color:#7dd3fc}
.b[data-tone=ready]{color:#065f46;background:#ecfdf5;border-color:#6ee7b7}
.b[data-tone=muted]{color:#475569;background:#f1f5f9;border-color:#cbd5e1;border-style:dashed}
.b[data-tone=warning]{color:#9a3412;background:#fff7ed;border-color:#fdba74}
@media (prefers-color-scheme:dark){
.b{color:#e2e8f0;background:#1e293b;border-color:#475569}
.b:focus-visible{outline-color:#60a5fa}
.b[data-tone=critical]{color:#fecaca;background:#450a0a;border-color:#b91c1c}
.b[data-tone=progress]{color:#fde68a;background:#451a03;border-color:#b45309}
.b[data-tone=good]{color:#bae6fd;background:#082f49;border-color:#0369a1}
.b[data-tone=ready]{color:#a7f3d0;background:#022c22;border-color:#047857}
.b[data-tone=muted]{color:#cbd5e1;background:#1e293b;border-color:#64748b}
.b[data-tone=warning]{color:#fed7aa;background:#431407;border-color:#c2410c}
}`;

const templates = new WeakMap<Document, { host: HTMLElement; shadow: DocumentFragment }>();

/** The prepared host (hidden, idle) and shadow tree of a document, cloned for each badge. */
function badgeTemplate(doc: Document): { host: HTMLElement; shadow: DocumentFragment } {
  let template = templates.get(doc);
  if (!template) {
    const host = doc.createElement(BADGE_TAG);
    // Undrawn, the host takes no box at all: inserting hundreds of them costs the page no layout.
    host.hidden = true;
    host.setAttribute('data-state', 'idle');
    const shadow = doc.createDocumentFragment();
    const style = doc.createElement('style');
    style.textContent = BADGE_CSS;
    const button = doc.createElement('span');
    button.className = 'b';
    button.setAttribute('role', 'button');
    button.tabIndex = 0;
    const spinner = doc.createElement('span');
    spinner.className = 's';
    spinner.setAttribute('aria-hidden', 'true');
    const text = doc.createElement('span');
    text.className = 't';
    text.setAttribute('aria-hidden', 'true');
    button.append(spinner, text);
    shadow.append(style, button);
    template = { host, shadow };
    templates.set(doc, template);
  }
  return template;
}

/**
 * What a badge reports, with the badge itself: one callbacks object serves every badge of a page
 * (no closures per badge, which matters with hundreds of share links on a page).
 */
export interface BadgeCallbacks {
  /** Enter, Space or a click on the badge. */
  onActivate(badge: Badge, source: 'keyboard' | 'click'): void;
  onEscape(badge: Badge): void;
}

export interface Badge {
  readonly host: HTMLElement;
  /** Sets the state attributes on the host now; the visible badge follows once it is drawn. */
  render(view: BadgeView, now: number): void;
  /** Paints the current state again (the reader's language changed). */
  repaint(): void;
  /**
   * Draws the badge (shadow root, styles, button), once. Until then the host is `hidden` and carries
   * only its state attributes: a page with hundreds of share links pays for the few on screen, and
   * the rest are drawn as they come near the viewport or get keyboard focus.
   */
  draw(): void;
  readonly drawn: boolean;
  /** Draws the badge if needed, then focuses its button. */
  focus(): void;
  remove(): void;
  /** For tests only: the closed shadow root's button (draws the badge). */
  readonly button: HTMLElement;
}

/** Words and tone for a state, in the reader's language (the annotator's `describeBadge` with its text). */
export type DescribeBadge = (view: BadgeView, now: number) => BadgeDescription;

function onButtonClick(this: ShadowBadge, event: MouseEvent): void {
  event.preventDefault();
  event.stopPropagation();
  this.callbacks.onActivate(this, 'click');
}

function onButtonKeyDown(this: ShadowBadge, event: KeyboardEvent): void {
  if (event.key === 'Enter' || event.key === ' ' || event.key === 'Spacebar') {
    event.preventDefault(); // Space would scroll the page
    event.stopPropagation();
    if (!event.repeat) this.callbacks.onActivate(this, 'keyboard');
  } else if (event.key === 'Escape') {
    this.callbacks.onEscape(this);
  }
}

/**
 * A `<compliance-lens-badge>` host with a closed shadow root. Not a registered custom element:
 * `customElements` is unavailable in Chrome's content-script world, and an undefined element with a
 * valid custom-element name can still attach a shadow root. A class, not a closure bag: a badge
 * costs one object until it is drawn.
 */
class ShadowBadge implements Badge {
  readonly host: HTMLElement;
  private parts: { readonly button: HTMLElement; readonly text: HTMLElement } | null = null;
  private view: BadgeView = IDLE_VIEW;
  private at = 0;

  constructor(
    doc: Document,
    readonly callbacks: BadgeCallbacks,
    private readonly describe: DescribeBadge,
  ) {
    // Hidden and idle, in one native call.
    const host = badgeTemplate(doc).host.cloneNode(false);
    if (!(host instanceof HTMLElement)) throw new Error('badge template is not an element');
    this.host = host;
  }

  get drawn(): boolean {
    return this.parts !== null;
  }

  get button(): HTMLElement {
    return this.ensureDrawn().button;
  }

  draw(): void {
    this.ensureDrawn();
  }

  private ensureDrawn(): { readonly button: HTMLElement; readonly text: HTMLElement } {
    if (this.parts) return this.parts;
    const shadow = this.host.attachShadow({ mode: 'closed' });
    this.host.hidden = false;
    // Cloning one prepared tree is cheaper than building each badge.
    shadow.append(badgeTemplate(this.host.ownerDocument).shadow.cloneNode(true));
    const button = shadow.lastElementChild;
    const text = button?.lastElementChild;
    if (!(button instanceof HTMLElement) || !(text instanceof HTMLElement)) throw new Error('badge template is incomplete');
    button.addEventListener('click', onButtonClick.bind(this));
    button.addEventListener('keydown', onButtonKeyDown.bind(this));
    this.parts = { button, text };
    this.paint();
    return this.parts;
  }

  private paint(): void {
    if (!this.parts) return;
    const { button, text } = this.parts;
    const description = this.describe(this.view, this.at);
    button.setAttribute('aria-label', description.label);
    button.setAttribute('aria-busy', String(this.view.state === 'loading'));
    button.dataset.tone = description.tone;
    text.textContent = description.text;
  }

  render(view: BadgeView, now: number): void {
    const previous = this.view;
    this.view = view;
    this.at = now;
    if (view.state !== previous.state) this.host.setAttribute('data-state', view.state);
    if (view.state === 'error') this.host.setAttribute('data-error-code', view.code);
    else if (previous.state === 'error') this.host.removeAttribute('data-error-code');
    this.paint();
  }

  repaint(): void {
    this.paint();
  }

  focus(): void {
    this.ensureDrawn().button.focus();
  }

  remove(): void {
    this.host.remove();
  }
}

export function createBadge(doc: Document, callbacks: BadgeCallbacks, describe: DescribeBadge): Badge {
  return new ShadowBadge(doc, callbacks, describe);
}
