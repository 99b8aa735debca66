import type { BadgeDescription, BadgeView } from './badge-view';

export const BADGE_TAG = 'compliance-lens-badge';

/**
 * Isolated from page CSS (`all: initial` on the host, everything else inside a closed shadow root).
 * The host's vertical margins cancel its 16px height: its margin box, which is what sizes a line box,
 * is empty, so a badge never makes a line taller (even in 13px text), only wider. A taller line would
 * move everything below it: on a long page that relayout cost a 60–115 ms frame.
 */
const BADGE_CSS = `
:host{all:initial!important;display:inline-flex!important;vertical-align:baseline!important;margin:-8px 0 -8px 4px!important;position:static!important}
.b{display:inline-flex;align-items:center;gap:3px;box-sizing:border-box;height:16px;padding:0 6px;border:1px solid;border-radius:8px;
font:600 11px/14px system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;letter-spacing:.01em;
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

const templates = new WeakMap<Document, DocumentFragment>();

function badgeTemplate(doc: Document): DocumentFragment {
  let template = templates.get(doc);
  if (!template) {
    template = doc.createDocumentFragment();
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
    template.append(style, button);
    templates.set(doc, template);
  }
  return template;
}

export interface BadgeCallbacks {
  /** Enter, Space or a click on the badge. */
  onActivate(source: 'keyboard' | 'click'): void;
  onEscape(): void;
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

interface BadgeParts {
  readonly button: HTMLElement;
  readonly text: HTMLElement;
}

/** Words and tone for a state, in the reader's language (the annotator's `describeBadge` with its text). */
export type DescribeBadge = (view: BadgeView, now: number) => BadgeDescription;

/**
 * A `<compliance-lens-badge>` host with a closed shadow root. Not a registered custom element:
 * `customElements` is unavailable in Chrome's content-script world, and an undefined element with a
 * valid custom-element name can still attach a shadow root.
 */
export function createBadge(doc: Document, callbacks: BadgeCallbacks, describe: DescribeBadge): Badge {
  const host = doc.createElement(BADGE_TAG);
  // Undrawn, the host takes no box at all: inserting hundreds of them costs the page no layout.
  // (`hidden` is cheaper to set than an inline style; the drawn host's `:host` rule would win anyway.)
  host.hidden = true;
  let parts: BadgeParts | null = null;
  let shown: { view: BadgeView; now: number } = { view: { state: 'idle' }, now: 0 };

  function paint({ button, text }: BadgeParts): void {
    const description = describe(shown.view, shown.now);
    button.setAttribute('aria-label', description.label);
    button.setAttribute('aria-busy', String(shown.view.state === 'loading'));
    button.dataset.tone = description.tone;
    text.textContent = description.text;
  }

  function draw(): BadgeParts {
    if (parts) return parts;
    const shadow = host.attachShadow({ mode: 'closed' });
    host.hidden = false;
    // Cloning one prepared tree is cheaper than building each badge.
    shadow.append(badgeTemplate(doc).cloneNode(true));
    const button = shadow.lastElementChild;
    const text = button?.lastElementChild;
    if (!(button instanceof HTMLElement) || !(text instanceof HTMLElement)) throw new Error('badge template is incomplete');
    button.addEventListener('click', (event) => {
      event.preventDefault();
      event.stopPropagation();
      callbacks.onActivate('click');
    });
    button.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' || event.key === ' ' || event.key === 'Spacebar') {
        event.preventDefault(); // Space would scroll the page
        event.stopPropagation();
        if (!event.repeat) callbacks.onActivate('keyboard');
      } else if (event.key === 'Escape') {
        callbacks.onEscape();
      }
    });
    parts = { button, text };
    paint(parts);
    return parts;
  }

  return {
    host,
    get button() {
      return draw().button;
    },
    get drawn() {
      return parts !== null;
    },
    draw() {
      draw();
    },
    render(view, now) {
      const previous = shown.view;
      shown = { view, now };
      host.setAttribute('data-state', view.state);
      if (view.state === 'error') host.setAttribute('data-error-code', view.code);
      else if (previous.state === 'error') host.removeAttribute('data-error-code');
      if (parts) paint(parts);
    },
    repaint() {
      if (parts) paint(parts);
    },
    focus() {
      draw().button.focus();
    },
    remove() {
      host.remove();
    },
  };
}
