/**
 * Every entry of the wrapped-links fixture (`test/fixtures/wrapped-links/`).
 */
import { describe, expect, it } from 'vitest';
import { wrappedLinks, type WrappedLink } from '../../../fixtures/wrapped-links';
import { createLinkRecognizer, percentDecode, unwrapUrl, unwrapUrlTrace } from '@/lib/core/links';
import type { WrapperFormat } from '@/lib/core/links';
import { LOCAL_SERVICES } from '@/lib/core/services';

type Fixture = WrappedLink;

const fixtures = wrappedLinks;

/**
 * The only postprocess the fixture file uses: the source test suite calls its v3 decoder with
 * "unquote", i.e. the decoded URL is percent-decoded once more (Python `unquote`: invalid escapes
 * such as `%6%` stay literal). An unknown postprocess fails the test instead of being ignored.
 */
function applyPostprocess(fixture: Fixture, decoded: string): string {
  if (fixture.postprocess === undefined) return decoded;
  if (fixture.postprocess.startsWith('percent-decode the decoded URL')) return percentDecode(decoded);
  throw new Error(`unknown postprocess: ${fixture.postprocess}`);
}

/** A fixture whose expected output is its own input is a malformed wrapper that must be left alone. */
const isLeftAlone = (fixture: Fixture): boolean => fixture.expected === fixture.input;

const rows = fixtures.map((fixture, index) => ({ ...fixture, index, label: `#${index} ${fixture.format}` }));

describe('wrapped-links.json', () => {
  it('holds the 69 entries the README describes, in the stated formats', () => {
    expect(fixtures).toHaveLength(69);
    const counts = new Map<string, number>();
    for (const { format } of fixtures) counts.set(format, (counts.get(format) ?? 0) + 1);
    expect(Object.fromEntries(counts)).toEqual({
      proofpoint_v1: 1,
      proofpoint_v2: 7,
      proofpoint_v3: 29,
      outlook_safelinks: 12,
      outlook_safelink_html: 2,
      gmail_saferedirect: 8,
      slack_redir: 3,
      linkedin_redir: 4,
      linkedin_safety: 3,
    });
  });

  it.each(rows)('$label unwraps to the expected URL', (row) => {
    expect(applyPostprocess(row, unwrapUrl(row.input))).toBe(row.expected);
  });

  it.each(rows)('$label is recognised as its declared wrapper format', (row) => {
    const trace = unwrapUrlTrace(row.input);
    expect(trace.complete).toBe(true);
    if (isLeftAlone(row)) {
      // truncated v3 link (no `__;` block): not a decodable wrapper, so nothing is peeled
      expect(trace.formats).toEqual([]);
    } else {
      const expectedFormat: WrapperFormat = row.format;
      expect(trace.formats).toContain(expectedFormat);
    }
  });

  // None of the fixtures points at a configured service, so none may be recognised (and none may
  // throw on the way).
  const recognizer = createLinkRecognizer(LOCAL_SERVICES);
  it.each(rows)('$label is not a share link of a configured service', (row) => {
    expect(recognizer.recognize({ href: row.input })).toBeNull();
  });
});
