/**
 * lib/dom: DOM helpers shared by the scripts that run inside a page (the content script, and the
 * frame sentinel in the page's own world), so it imports nothing: no browser or extension API, no zod,
 * no other lib/ folder. Node tests, and walking into open shadow roots.
 */

export const ANCHOR_SELECTOR = 'a[href]';

/** The changes that can bring a link: added nodes, and `href`s set or changed (an anchor becomes another link). */
const LINK_MUTATIONS: MutationObserverInit = {
  childList: true,
  subtree: true,
  attributes: true,
  attributeFilter: ['href'],
};

export function isElement(node: Node): node is Element {
  return node.nodeType === 1;
}

/**
 * Whether an event's target is an element. Not `instanceof Element`: a page's node may come from
 * another realm (adopted from another frame's document), whose `Element` is another object.
 */
export function isElementTarget(target: EventTarget | null): target is Element {
  return target !== null && Reflect.get(target, 'nodeType') === 1;
}

export function isAnchor(node: Node): node is HTMLAnchorElement {
  return isElement(node) && node.localName === 'a';
}

/**
 * Elements that can never host a shadow root: `attachShadow` and declarative shadow roots take only
 * custom elements and 18 HTML built-ins (div, span, p, section…). Leaving these to the selector engine
 * spares an isolated-world wrapper and a `shadowRoot` read for each of them. The most frequent come
 * first, because `:not()` stops at the first name that matches: on 20,000 `li > a` rows the scan took
 * 5.6 ms in alphabetical order and 1.3 ms in this one (test/bench). SVG elements are named one by one
 * (not `svg *`), so an HTML element in a `foreignObject` is still looked at.
 */
export const NEVER_SHADOW_HOST = [
  'a,li,td,tr,img,i,b,br,strong,em,button,input,label,svg,path,g,use,rect,circle,ul,ol,table,tbody,th,thead',
  'option,script,style,link,meta,line,polyline,polygon,ellipse,defs,stop,symbol,clipPath,linearGradient,mask',
  'abbr,area,audio,canvas,caption,cite,code,col,colgroup,dd,del,details,dfn,dl,dt,embed,fieldset,figcaption',
  'figure,font,form,hr,iframe,ins,kbd,legend,map,mark,noscript,object,optgroup,picture,pre,q,s,select,small',
  'source,sub,summary,sup,template,textarea,tfoot,time,track,u,video,wbr',
].join(',');

/** The elements under `root` that may hold a shadow root (see NEVER_SHADOW_HOST). */
export const SHADOW_HOST_CANDIDATES = `*:not(${NEVER_SHADOW_HOST})`;

/**
 * Calls `found` with each open shadow root of `root` (when it is a host) and of its elements, not
 * those nested in them, until `found` returns true. Answers whether it did. `rootless`, if given,
 * hears each candidate without an open root (one that may get one later).
 */
export function forEachShadowRoot(
  root: ParentNode,
  found: (shadow: ShadowRoot) => boolean | void,
  rootless?: (element: Element) => void,
): boolean {
  if (isElement(root)) {
    if (root.shadowRoot) {
      if (found(root.shadowRoot) === true) return true;
    } else rootless?.(root);
  }
  const elements = root.querySelectorAll(SHADOW_HOST_CANDIDATES);
  // Indexed: this looks at every candidate of a new subtree once (a page's first scan included).
  for (let index = 0; index < elements.length; index += 1) {
    const element = elements[index];
    const shadow = element?.shadowRoot;
    if (shadow) {
      if (found(shadow) === true) return true;
    } else if (rootless && element) rootless(element);
  }
  return false;
}

/** Every element matching `selector` under `root`, in its open shadow roots too (nested). */
export function queryDeep(root: ParentNode, selector: string): Element[] {
  const found = [...root.querySelectorAll(selector)];
  forEachShadowRoot(root, (shadow) => {
    found.push(...queryDeep(shadow, selector));
  });
  return found;
}

/** Every anchor under `root`, in its open shadow roots too (nested). */
export const anchorsDeep = (root: ParentNode): Element[] => queryDeep(root, ANCHOR_SELECTOR);

/** A sandboxed frame whose scripts may not run (no `allow-scripts`): no script runs in its page world. */
export const SCRIPTLESS_FRAME_SELECTOR = 'iframe[sandbox]:not([sandbox~="allow-scripts"])';

/**
 * Calls `found` at once if `doc` holds a frame without scripts, and whenever one loads there (a new
 * body too). One listener in the capture phase: a frame's `load` does not bubble, and nothing is
 * looked at on other changes. Returns a function that stops it.
 */
export function watchScriptlessFrames(doc: Document, found: () => void): () => void {
  if (doc.querySelector(SCRIPTLESS_FRAME_SELECTOR) !== null) found();
  const onLoad = (event: Event) => {
    if (isElementTarget(event.target) && isMatch(event.target, SCRIPTLESS_FRAME_SELECTOR)) found();
  };
  doc.addEventListener('load', onLoad, true);
  return () => doc.removeEventListener('load', onLoad, true);
}

/** Whether `node` is an element matching `selector` (a selector the browser rejects counts as one: the annotator decides). */
export function isMatch(node: Node, selector: string): boolean {
  try {
    return isElement(node) && node.matches(selector);
  } catch {
    return true;
  }
}

/**
 * Whether `root` is or holds an element matching `selector`, or an open shadow root (a web component
 * may fill it at any time). A selector the browser rejects counts as a match.
 */
export function holds(root: Document | Element, selector: string): boolean {
  if (isMatch(root, selector)) return true;
  try {
    if (root.querySelector(selector) !== null) return true;
  } catch {
    return true;
  }
  return forEachShadowRoot(root, () => true);
}

function someHold(nodes: NodeList, selector: string): boolean {
  for (let index = 0; index < nodes.length; index += 1) {
    const node = nodes[index];
    if (node !== undefined && isElement(node) && holds(node, selector)) return true;
  }
  return false;
}

/**
 * Calls `found` after each batch of changes to `doc` that brings an element matching `selector`: an
 * added subtree that holds one (or an open shadow root), or an `href` set on one. Looks at what
 * changed only. Returns a function that stops it.
 */
export function observeArrivals(doc: Document, selector: string, found: () => void): () => void {
  const observer = new MutationObserver((records) => {
    for (const record of records) {
      // A changed `href` is new on that element only; added nodes are new with their subtrees.
      if (record.type === 'attributes' ? isMatch(record.target, selector) : someHold(record.addedNodes, selector)) {
        found();
        return;
      }
    }
  });
  observer.observe(doc, LINK_MUTATIONS);
  return () => observer.disconnect();
}
