import { BADGE_HEIGHT, BADGE_WIDTH } from '../../core/badge-look';
import { BADGE_CHIP_CSS } from './badge-chip-css';
import { IDLE_VIEW, type BadgeDescription, type BadgeView } from './badge-view';

export const BADGE_TAG = 'compliance-lens-badge';

/** Space between a link and its badge. */
const BADGE_GAP = 4;

/**
 * Isolated from page CSS (`all: initial` on the host, everything else inside a closed shadow root).
 * The badge takes no room in the page (docs/design-changes.md, "Badges take no room"): its margins
 * cancel its box both ways, so its line is neither taller nor longer, nothing after it moves and
 * nothing wraps; it is drawn over what follows the link (positioned, so above the page's own text).
 * A link that holds a block (`<a><div>…`, a block image) would leave the badge a line of its own,
 * as tall as the text around it: there the badge floats with no margin box instead, at the start
 * of the line below the link; where the parent lays out items (flex, grid), it stands out of the flow
 * (`data-place`, `badgePlacement`). One size in every state (lib/core/badge-look.ts).
 */
const BADGE_CSS = `
:host{all:initial!important;display:inline-block!important;vertical-align:middle!important;position:relative!important;width:${BADGE_WIDTH}px!important;height:${BADGE_HEIGHT}px!important;margin:-${BADGE_HEIGHT / 2}px -${BADGE_WIDTH + BADGE_GAP}px -${BADGE_HEIGHT / 2}px ${BADGE_GAP}px!important;visibility:inherit!important}
:host([data-link-hidden]){visibility:hidden!important}
:host([data-place=block]){display:block!important;float:left!important;margin:0 -${BADGE_WIDTH}px -${BADGE_HEIGHT}px 0!important}
:host([data-place=out]){position:absolute!important;margin:var(--cl-badge-y,0) 0 0 var(--cl-badge-x,0)!important}
${BADGE_CHIP_CSS}
.b:hover{filter:brightness(.96)}
.b:focus{outline:none}
.s{display:none;width:7px;height:7px;border-radius:50%;border:1.5px solid currentColor;border-right-color:transparent;animation:r .8s linear infinite}
:host([data-state=loading]) .s{display:inline-block}
@keyframes r{to{transform:rotate(360deg)}}
@media (prefers-reduced-motion:reduce){.s{animation:none;border-right-color:currentColor;opacity:.5}}`;

/**
 * Moves a badge standing out of the flow (at its container's start) to the end of its link, measured
 * once when it is drawn (custom properties: the host's `all: initial` leaves them alone).
 */
function placeAfter(host: HTMLElement, link: Element): void {
  const from = host.getBoundingClientRect();
  const to = link.getBoundingClientRect();
  host.style.setProperty('--cl-badge-x', `${to.right - from.left + BADGE_GAP}px`);
  host.style.setProperty('--cl-badge-y', `${to.top + (to.height - BADGE_HEIGHT) / 2 - from.top}px`);
}

/**
 * Where a badge can stand without moving anything: in the line after its link (`inline`); floated
 * below a link that holds a block or is one (`block`: in the line it would be a line of its own); out
 * of the flow where the link's parent lays out its children as items (flex, grid), which would give
 * the badge a cell or a gap of its own (`out`: moved to the link's end when drawn).
 */
function badgePlacement(link: Element | null): 'inline' | 'block' | 'out' {
  const view = link?.ownerDocument.defaultView;
  if (!link || !view) return 'inline';
  const display = (element: Element) => view.getComputedStyle(element).display;
  if (link.parentElement && /flex|grid/.test(display(link.parentElement))) return 'out';
  const isBlock = (element: Element) => !/^(inline|contents|none)/.test(display(element));
  return isBlock(link) || (link.lastElementChild !== null && isBlock(link.lastElementChild)) ? 'block' : 'inline';
}

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
  render(view: BadgeView): void;
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
export type DescribeBadge = (view: BadgeView) => BadgeDescription;

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
    const link = this.host.previousElementSibling;
    const placement = badgePlacement(link);
    if (placement !== 'inline') this.host.setAttribute('data-place', placement);
    this.host.hidden = false;
    // Cloning one prepared tree is cheaper than building each badge.
    shadow.append(badgeTemplate(this.host.ownerDocument).shadow.cloneNode(true));
    // Measured once its own styles apply (they take it out of the flow).
    if (placement === 'out' && link) placeAfter(this.host, link);
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
    const description = this.describe(this.view);
    button.setAttribute('aria-label', description.label);
    button.setAttribute('aria-busy', String(this.view.state === 'loading'));
    button.dataset.tone = description.tone;
    button.toggleAttribute('data-dashed', description.dashed);
    button.toggleAttribute('data-mark', description.mark);
    text.textContent = description.text;
  }

  render(view: BadgeView): void {
    const previous = this.view;
    this.view = view;
    if (view.state !== previous.state) this.host.setAttribute('data-state', view.state);
    if (view.state === 'error') this.host.setAttribute('data-error-code', view.code);
    else if (previous.state === 'error') this.host.removeAttribute('data-error-code');
    this.host.toggleAttribute('data-withdrawn', view.state === 'error' && view.withdrawn === true);
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
