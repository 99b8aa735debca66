import { BADGE_COMPACT_WIDTH, BADGE_GAP, BADGE_HEIGHT, BADGE_WIDTH } from '../../core/badge-look';
import { IDLE_VIEW, type BadgeDescription, type BadgeView } from './badge-view';

export const BADGE_TAG = 'compliance-lens-badge';

/**
 * How a badge stands beside its link (chosen by badge-fit.ts once the page is laid out, before it is
 * painted; docs/design-changes.md "The badge takes its own room"):
 * - `full`: the 56 px chip in the line after its link, taking its own room (the text after it moves
 *   aside before the page is first painted, so nothing covers a word and nothing visibly moves);
 * - `compact`: the 26 px chip, where the full one has no room (a narrow or clipped cell, a line the
 *   full chip alone would wrap);
 * - `out`: the compact chip out of the flow, over the visible end of its own link (it covers only its
 *   own link's last letters), where even the compact one has no room (a clipped cell, a row of fixed
 *   height), where the link is a block, positioned, or a cell of a grid or a column of flex items;
 * - `none`: its link is not shown, so neither is it.
 */
export type BadgeForm = 'full' | 'compact' | 'out' | 'none';

/**
 * The host's own inline style, `!important` throughout: an inline important declaration outranks
 * every rule of the page, and `all: initial` resets whatever a page rule could use to hide or fade the
 * badge (opacity, filter, mask, clip-path, blend mode, transform, transitions, pointer events). Its
 * vertical margins cancel its height, so it never makes its line taller (in a flex row, centred
 * on it and not shrunk: a row too narrow for it gets the compact chip; out of the flow, not aligned,
 * which would centre it on where the flow puts it). `x`, `y`: where `out` stands
 * from where the flow would put it; `z`: its link's stacking level, so that the chip over the link's
 * end is painted above the link (the next sibling at the same level) and below what the page puts above.
 */
export function hostStyle(form: BadgeForm, x = 0, y = 0, z = 'auto'): string {
  const out = form === 'out';
  return (
    form === 'none'
      ? 'all:initial;display:none'
      : `all:initial;display:inline-block;position:${out ? 'absolute' : 'relative'};z-index:${z};vertical-align:middle;${out ? '' : 'align-self:center;flex-shrink:0;'}visibility:inherit;width:${form === 'full' ? BADGE_WIDTH : BADGE_COMPACT_WIDTH}px;height:${BADGE_HEIGHT}px;margin:${out ? `${y}px 0 0 ${x}px` : `-${BADGE_HEIGHT / 2}px 0 -${BADGE_HEIGHT / 2}px ${BADGE_GAP}px`}`
  ).replace(/;|$/g, '!important;');
}

/** What a badge that cannot be what it should says (never, short of a broken build or a test asking too soon). */
const BROKEN = 'badge not drawn';

/** The attributes this script sets on a host; any other a page adds (`inert`, `popover`, …) is taken away. */
const OWN_ATTRIBUTES = /^(style|data-(state|error-code|withdrawn|compact|scheme))$/;

const templates = new WeakMap<Document, { host: HTMLElement; shadow: DocumentFragment; guard: MutationObserver }>();
/** The host's style in each form and place, made once. */
const styles = new Map<string, string>();
const styleFor = (form: BadgeForm, x = 0, y = 0, z = 'auto'): string => {
  const key = `${form}${x},${y},${z}`;
  let style = styles.get(key);
  if (style === undefined) styles.set(key, (style = hostStyle(form, x, y, z)));
  return style;
};

/** The prepared host (idle, full size) and shadow tree of a document, cloned for each badge. */
function badgeTemplate(doc: Document): { host: HTMLElement; shadow: DocumentFragment; guard: MutationObserver } {
  let template = templates.get(doc);
  if (!template) {
    const host = doc.createElement(BADGE_TAG);
    host.setAttribute('style', styleFor('full'));
    host.setAttribute('data-state', 'idle');
    const shadow = doc.createDocumentFragment();
    const style = doc.createElement('style');
    const button = doc.createElement('span');
    button.className = 'b';
    button.setAttribute('role', 'button');
    button.tabIndex = 0;
    // Spinner, mark, score (or the state's mark) and the score's scale.
    for (const part of 'smtu') {
      const span = doc.createElement('span');
      span.className = part;
      span.setAttribute('aria-hidden', 'true');
      button.append(span);
    }
    shadow.append(style, button);
    template = { host, shadow, guard: new MutationObserver(restoreHosts) };
    templates.set(doc, template);
  }
  return template;
}

/**
 * What each host's `style` attribute must read, as written (compared as text: no style is read back):
 * a page that rewrites it, through the attribute or the CSSOM, or adds an attribute, gets it put back.
 */
const expectedStyles = new WeakMap<Node, string>();

function restoreHosts(records: MutationRecord[]): void {
  for (const { target, attributeName } of records) {
    const expected = expectedStyles.get(target);
    if (expected === undefined || !(target instanceof Element) || attributeName === null) continue;
    if (attributeName === 'style') {
      if (target.getAttribute('style') !== expected) target.setAttribute('style', expected);
    } else if (!OWN_ATTRIBUTES.test(attributeName)) {
      target.removeAttribute(attributeName);
    }
  }
}

/** Light or dark, from the text colour the page sets where the link is: light text means a dark ground. */
function pageScheme(element: Element | null): 'light' | 'dark' {
  const view = element?.ownerDocument.defaultView;
  const rgb = element && view ? /(\d+)\D+(\d+)\D+(\d+)/.exec(view.getComputedStyle(element).color) : null;
  if (!rgb) return 'light';
  const [, r = 0, g = 0, b = 0] = rgb.map(Number);
  // Luminance, roughly (Rec. 709 weights in tenths).
  return 2 * r + 7 * g + b > 1400 ? 'dark' : 'light';
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
   * Draws the badge (shadow root, styles, button), once, when its stylesheet has come. Until then the
   * host is an empty box of its final size (its room is taken from the start) and carries only its
   * state attributes: a page with hundreds of share links pays for the few on screen, and the rest
   * are drawn as they come near the viewport or get keyboard focus.
   */
  draw(): void;
  readonly drawn: boolean;
  /** How it stands beside its link now. */
  readonly form: BadgeForm;
  /** Stands another way (badge-fit.ts decides which); its size then never changes with its state. */
  setForm(form: BadgeForm, x?: number, y?: number, z?: string): void;
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
  form: BadgeForm = 'full';
  private parts: { readonly button: HTMLElement; readonly text: HTMLElement; readonly scale: HTMLElement } | null = null;
  private view: BadgeView = IDLE_VIEW;

  constructor(
    doc: Document,
    readonly callbacks: BadgeCallbacks,
    private readonly describe: DescribeBadge,
    private readonly stylesheet: () => string,
  ) {
    const template = badgeTemplate(doc);
    // Idle and full size, in one native call.
    const host = template.host.cloneNode(false);
    if (!(host instanceof HTMLElement)) throw new Error(BROKEN);
    this.host = host;
    expectedStyles.set(host, template.host.getAttribute('style') ?? '');
    template.guard.observe(host, { attributes: true });
  }

  get drawn(): boolean {
    return this.parts !== null;
  }

  get button(): HTMLElement {
    const parts = this.ensureDrawn();
    if (!parts) throw new Error(BROKEN);
    return parts.button;
  }

  draw(): void {
    this.ensureDrawn();
  }

  setForm(form: BadgeForm, x = 0, y = 0, z = 'auto'): void {
    this.form = form;
    const style = styleFor(form, x, y, z);
    expectedStyles.set(this.host, style);
    this.host.setAttribute('style', style);
    this.host.toggleAttribute('data-compact', form === 'compact' || form === 'out');
  }

  private ensureDrawn(): { readonly button: HTMLElement; readonly text: HTMLElement; readonly scale: HTMLElement } | null {
    const css = this.stylesheet();
    if (this.parts || !css) return this.parts;
    const shadow = this.host.attachShadow({ mode: 'closed' });
    this.host.setAttribute('data-scheme', pageScheme(this.host.parentElement));
    // Cloning one prepared tree is cheaper than building each badge.
    shadow.append(badgeTemplate(this.host.ownerDocument).shadow.cloneNode(true));
    const style = shadow.firstChild;
    if (style) style.textContent = css;
    const button = shadow.lastElementChild;
    const text = button?.children[2];
    const scale = button?.lastElementChild;
    if (!(button instanceof HTMLElement) || !(text instanceof HTMLElement) || !(scale instanceof HTMLElement))
      throw new Error(BROKEN);
    button.addEventListener('click', onButtonClick.bind(this));
    button.addEventListener('keydown', onButtonKeyDown.bind(this));
    this.parts = { button, text, scale };
    this.paint();
    return this.parts;
  }

  private paint(): void {
    if (!this.parts) return;
    const { button, text, scale } = this.parts;
    const description = this.describe(this.view);
    button.setAttribute('aria-label', description.label);
    button.setAttribute('aria-busy', String(this.view.state === 'loading'));
    button.dataset.tone = description.tone;
    button.toggleAttribute('data-dashed', description.dashed);
    button.toggleAttribute('data-mark', description.mark);
    // A score and its scale apart (`76` `/100`): the compact chip shows the score alone.
    const [score = '', rest] = description.text.split('/');
    text.textContent = score;
    scale.textContent = rest === undefined ? '' : `/${rest}`;
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
    this.ensureDrawn()?.button.focus();
  }

  remove(): void {
    this.host.remove();
  }
}

/** `stylesheet`: the badge's stylesheet as the background sent it (empty until then: nothing is drawn). */
export function createBadge(doc: Document, callbacks: BadgeCallbacks, describe: DescribeBadge, stylesheet: () => string): Badge {
  return new ShadowBadge(doc, callbacks, describe, stylesheet);
}
