/**
 * zod schemas of version 1's partner side (partner keys, follows, change events): request bodies and
 * the shapes answered. They feed request validation and the OpenAPI document (partners/routes.ts);
 * webhook endpoints and messages are in server/webhooks/schemas.ts.
 */
import { z } from 'zod';
import { GAP_SEVERITIES } from '../../lib/core/labels';
import { timestampSchema } from '../../lib/core/schemas/snapshot';
import { storableText } from '../platform/http/body';
import { deliveryStateSchema, MESSAGE_STATUSES } from '../webhooks/schemas';

export const DEFAULT_PARTNER_QUOTA_PER_MINUTE = 120;
export const MAX_PARTNER_QUOTA_PER_MINUTE = 100_000;
/** How long a rotated-out key may keep working, at most (a week). */
export const MAX_ROTATION_GRACE_SECONDS = 7 * 24 * 3600;

const partnerName = storableText(z.string().trim().min(1).max(200));
const quotaPerMinute = z.int().min(1).max(MAX_PARTNER_QUOTA_PER_MINUTE);

export const createPartnerKeyBody = z.strictObject({ name: partnerName, quota_per_minute: quotaPerMinute.optional() });
export type CreatePartnerKeyBody = z.infer<typeof createPartnerKeyBody>;
export const rotatePartnerKeyBody = z.strictObject({ grace_seconds: z.int().min(0).max(MAX_ROTATION_GRACE_SECONDS).optional() });
export const updatePartnerKeyBody = z
  .strictObject({ name: partnerName, quota_per_minute: quotaPerMinute })
  .partial()
  .refine((body) => Object.keys(body).length > 0, { message: 'at least one field must be given' });

export const PARTNER_KEY_STATUSES = ['active', 'revoked'] as const;

export const partnerKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The key's first characters, to tell keys apart in a list (the key itself is shown once). */
  key_hint: z.string(),
  quota_per_minute: quotaPerMinute,
  status: z.enum(PARTNER_KEY_STATUSES),
  created_at: timestampSchema,
  rotated_at: timestampSchema.nullable(),
  revoked_at: timestampSchema.nullable(),
  /** After a rotation with a grace period: until when the previous key still works. */
  previous_key_expires_at: timestampSchema.nullable(),
});
export type PartnerKeyView = z.infer<typeof partnerKeySchema>;
export const createdPartnerKeySchema = partnerKeySchema.extend({ key: z.string() });

// Event types (docs/api-decisions.md, "Change events"). `follow.ended` is always sent; rules select among the rest.
export const SNAPSHOT_EVENT_TYPES = [
  'snapshot.scores_changed',
  'snapshot.band_changed',
  'snapshot.gap_opened',
  'snapshot.gap_resolved',
  'snapshot.gap_severity_changed',
  'snapshot.regulators_changed',
  'snapshot.licensing_changed',
  'snapshot.pack_generated',
] as const;
export type SnapshotEventType = (typeof SNAPSHOT_EVENT_TYPES)[number];
export const FOLLOW_EVENT_TYPES = [...SNAPSHOT_EVENT_TYPES, 'follow.ended'] as const;
export type FollowEventType = (typeof FOLLOW_EVENT_TYPES)[number];
export const DIGEST_PERIODS = ['daily', 'weekly'] as const;
export type DigestPeriod = (typeof DIGEST_PERIODS)[number];
export const DIGEST_TYPES = ['digest.daily', 'digest.weekly'] as const;

/** What a partner asks of one follow. Every field is optional; what is left out takes the default. */
export const followRulesSchema = z.strictObject({
  /** Only these snapshot event types are sent (default: all). `follow.ended` is always sent. */
  types: z.array(z.enum(SNAPSHOT_EVENT_TYPES)).min(1).max(SNAPSHOT_EVENT_TYPES.length).optional(),
  /** A score change (readiness, fundraise, checklist %) is sent once it has moved at least this much since the last one sent. */
  min_score_delta: z.int().min(1).max(100).optional(),
  /** Gap events only for gaps at least this severe (default: medium, i.e. all). */
  min_gap_severity: z.enum(GAP_SEVERITIES).optional(),
  /** Collect the events and send one digest per endpoint a day or a week instead of each event as it happens. */
  digest: z.enum(DIGEST_PERIODS).optional(),
});
export type FollowRules = z.infer<typeof followRulesSchema>;

const id = z.string().trim().min(1).max(100);
export const createFollowBody = z.strictObject({
  token: z.string().max(1000),
  endpoint_id: id.nullable().optional(),
  rules: followRulesSchema.optional(),
});
export const updateFollowBody = z
  .strictObject({ endpoint_id: id.nullable(), rules: followRulesSchema })
  .partial()
  .refine((body) => Object.keys(body).length > 0, { message: 'at least one field must be given' });

export const FOLLOW_STATUSES = ['active', 'ended'] as const;
export const FOLLOW_END_REASONS = ['revoked', 'expired', 'unfollowed', 'key_revoked'] as const;
export type FollowEndReason = (typeof FOLLOW_END_REASONS)[number];

export const followSchema = z.object({
  id: z.string(),
  company: z.object({ name: z.string() }),
  status: z.enum(FOLLOW_STATUSES),
  ended_reason: z.enum(FOLLOW_END_REASONS).nullable(),
  endpoint_id: z.string().nullable(),
  rules: followRulesSchema,
  share_expires_at: timestampSchema,
  events_sent: z.int().min(0),
  created_at: timestampSchema,
  ended_at: timestampSchema.nullable(),
});
export type FollowView = z.infer<typeof followSchema>;

/** One change inside an event: a snapshot field before and after. */
export const eventChangeSchema = z.object({
  field: z.string(),
  before: z.unknown(),
  after: z.unknown(),
  summary: z.string(),
});
export type EventChange = z.infer<typeof eventChangeSchema>;

export const followEventDataSchema = z.object({
  /** The event's id: the `webhook-id` of its delivery (a digest has its own). */
  event_id: z.string(),
  /**
   * Shared by the events one change of the company wrote (a founder's edit, a DD pack, a revocation;
   * the expiry sweep gives each company its own): group by it to see one edit as one. Absent on
   * events written before it existed.
   */
  change_id: z.string().optional(),
  follow_id: z.string(),
  sequence: z.int().min(1),
  company: z.object({ name: z.string() }),
  summary: z.string(),
  changes: z.array(eventChangeSchema).optional(),
  reason: z.enum(FOLLOW_END_REASONS).optional(),
  disclaimer: z.string().optional(),
});

/** The body of one event as delivered (and as each item of a digest): Standard Webhooks' `type`, `timestamp`, `data`. */
export const followEventSchema = z.object({
  type: z.enum(FOLLOW_EVENT_TYPES),
  timestamp: timestampSchema,
  data: followEventDataSchema,
});
export type FollowEvent = z.infer<typeof followEventSchema>;

export const digestSchema = z.object({
  type: z.enum(DIGEST_TYPES),
  timestamp: timestampSchema,
  data: z.object({
    digest_id: z.string(),
    period: z.enum(DIGEST_PERIODS),
    period_start: timestampSchema,
    period_end: timestampSchema,
    summary: z.string(),
    events: z.array(followEventSchema),
  }),
});

export const partnerEventSchema = followEventSchema.extend({
  delivery: deliveryStateSchema.extend({
    mode: z.enum(['immediate', 'daily', 'weekly', 'none']),
    /** The message that carries it (its own id, or its digest's); null when it has none (yet). */
    message_id: z.string().nullable(),
    status: z.enum([...MESSAGE_STATUSES, 'held', 'none']),
  }),
});
export type PartnerEventView = z.infer<typeof partnerEventSchema>;

export const founderFollowSchema = z.object({
  id: z.string(),
  share_link_id: z.string(),
  share_link_label: z.string().nullable(),
  partner: z.object({ name: z.string() }),
  status: z.enum(FOLLOW_STATUSES),
  ended_reason: z.enum(FOLLOW_END_REASONS).nullable(),
  events_sent: z.int().min(0),
  created_at: timestampSchema,
  ended_at: timestampSchema.nullable(),
});
export type FounderFollowView = z.infer<typeof founderFollowSchema>;
