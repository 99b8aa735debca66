/**
 * DESIGN: "No change entry has `before` equal to `after`." Held over random founder edits through the
 * founder API, each recorded for a follow with random rules (thresholds and types hold changes back,
 * so baselines drift from the company's state), with regulators drawn from a small pool so a code is
 * often both primary and secondary, or listed twice. Also: a regulator is never listed twice.
 */
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ARIP_STAGE_CODES, GAP_SEVERITIES, PRODUCT_CLASSIFICATION_CODES } from '../../../lib/core/labels';
import { followEventSchema, SNAPSHOT_EVENT_TYPES } from '../../../server/partners/schemas';
import type { Database } from '../../../server/platform/db/driver';
import { signUp, withSharedApp } from '../support/harness';
import { createPartner, follow, makeV1App, type V1App } from '../support/v1';

let t: V1App;
withSharedApp((_app, db: Database) => {
  t = makeV1App(db);
});

const REGULATORS = ['CBN', 'SEC_NIGERIA', 'NFIU', 'NDPC', 'XYZ_AUTHORITY'] as const;
const TITLES = ['AML/CFT policy', 'PSP licence', 'Complaints register', 'Data protection audit', 'Board minutes'];

const gap = fc.record({
  title: fc.constantFrom(...TITLES),
  severity: fc.constantFrom(...GAP_SEVERITIES),
  regulatory_basis: fc.constant('basis'),
});
const checklist = fc
  .integer({ min: 0, max: 40 })
  .chain((total) => fc.record({ checklist_total: fc.constant(total), checklist_complete: fc.integer({ min: 0, max: total }) }));
const profileEdit = fc
  .tuple(
    fc.record(
      {
        readiness_score: fc.integer({ min: 0, max: 100 }),
        fundraise_score: fc.integer({ min: 0, max: 100 }),
        product_classification: fc.option(fc.constantFrom(...PRODUCT_CLASSIFICATION_CODES)),
        primary_regulator: fc.option(fc.constantFrom(...REGULATORS)),
        secondary_regulators: fc.array(fc.constantFrom(...REGULATORS), { maxLength: 5 }),
        arip_stage: fc.option(fc.constantFrom(...ARIP_STAGE_CODES)),
        gaps: fc.array(gap, { maxLength: 5 }),
      },
      { requiredKeys: [] },
    ),
    fc.option(checklist),
  )
  .map(([fields, counts]) => ({ ...fields, ...(counts ?? {}) }))
  .filter((edit) => Object.keys(edit).length > 0);
const rules = fc.record(
  {
    types: fc.subarray([...SNAPSHOT_EVENT_TYPES], { minLength: 1 }),
    min_score_delta: fc.integer({ min: 1, max: 20 }),
    min_gap_severity: fc.constantFrom(...GAP_SEVERITIES),
  },
  { requiredKeys: [] },
);

const eventsEnvelope = z.object({ data: z.object({ events: z.array(followEventSchema) }) });
const organisationEnvelope = z.object({
  data: z.object({
    organisation: z.object({ primary_regulator: z.string().nullable(), secondary_regulators: z.array(z.string()) }),
  }),
});

describe('change events over random profile edits', () => {
  it('no change entry has before equal to after, and no regulator is listed twice', { timeout: 600_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(
        profileEdit,
        fc.array(profileEdit, { minLength: 1, maxLength: 4 }),
        rules,
        async (start, edits, followRules) => {
          const founder = await signUp(t, { checklist_complete: 0, checklist_total: 0, ...start });
          await founder.createPack();
          const link = await founder.createLink();
          const partner = await createPartner(t);
          await follow(partner, link.token, { endpoint_id: null, rules: followRules });
          for (const edit of edits) {
            const response = await founder.call('PATCH', '/api/founder/organisation', edit);
            expect(response.status, await response.clone().text()).toBe(200);
            const { organisation } = organisationEnvelope.parse(
              await (await founder.call('GET', '/api/founder/organisation')).json(),
            ).data;
            const listed = [organisation.primary_regulator, ...organisation.secondary_regulators].filter((code) => code !== null);
            expect(new Set(listed).size, JSON.stringify(organisation)).toBe(listed.length);
          }
          const events = eventsEnvelope.parse(await (await partner.call('GET', '/api/v1/events')).json()).data.events;
          for (const event of events) {
            if (event.type === 'follow.ended') continue;
            expect(event.data.changes?.length ?? 0, JSON.stringify(event)).toBeGreaterThan(0);
            for (const change of event.data.changes ?? []) {
              expect(isDeepStrictEqual(change.before, change.after), JSON.stringify(change)).toBe(false);
            }
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
