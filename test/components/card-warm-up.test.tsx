// @vitest-environment happy-dom
/**
 * The card page loaded ahead renders a card once, out of sight, before intent (components/card-warm-up.tsx):
 * a whole card (its company, figures, gaps and disclaimer), then nothing left behind, and nothing told to anyone.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { warmUpCard } from '@/components/card-warm-up';

afterEach(() => {
  vi.restoreAllMocks();
  document.body.replaceChildren();
});

describe('warmUpCard', () => {
  it('renders a whole card out of sight and takes it away again, leaving the page as it was', () => {
    document.body.innerHTML = '<div id="root"></div>';
    const before = document.body.innerHTML;
    const seen = new Set<string>();
    const note = (records: MutationRecord[]) => {
      for (const record of records)
        for (const node of record.addedNodes)
          if (node instanceof Element)
            for (const part of node.querySelectorAll('[data-testid]')) seen.add(part.getAttribute('data-testid') ?? '');
    };
    const observer = new MutationObserver(note);
    observer.observe(document.body, { childList: true, subtree: true });
    const posted = vi.spyOn(window.parent, 'postMessage');
    warmUpCard(document);
    note(observer.takeRecords());
    observer.disconnect();
    expect([...seen]).toEqual(
      expect.arrayContaining(['snapshot-card', 'company-name', 'readiness-score', 'risk-band', 'gap', 'disclaimer']),
    );
    expect(document.body.innerHTML).toBe(before);
    expect(posted).not.toHaveBeenCalled();
  });
});
