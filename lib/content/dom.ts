/** Small DOM helpers of the content script: node tests, and walking into open shadow roots. */

export const ANCHOR_SELECTOR = 'a[href]';

export function isElement(node: Node): node is Element {
  return node.nodeType === 1;
}

export function isAnchor(node: Node): node is HTMLAnchorElement {
  return isElement(node) && node.localName === 'a';
}

/** Calls `found` with each open shadow root of `root` (when it is a host) and of its elements, not those nested in them. */
export function forEachShadowRoot(root: ParentNode, found: (shadow: ShadowRoot) => void): void {
  if (isElement(root) && root.shadowRoot) found(root.shadowRoot);
  const elements = root.querySelectorAll('*');
  // Indexed: this looks at every element of a new subtree once (a page's first scan included).
  for (let index = 0; index < elements.length; index += 1) {
    const shadow = elements[index]?.shadowRoot;
    if (shadow) found(shadow);
  }
}

/** Every anchor under `root`, in its open shadow roots too (nested). */
export function anchorsDeep(root: ParentNode): Element[] {
  const anchors = [...root.querySelectorAll(ANCHOR_SELECTOR)];
  forEachShadowRoot(root, (shadow) => anchors.push(...anchorsDeep(shadow)));
  return anchors;
}
