/**
 * zod schemas of webhook delivery: endpoints (registration, their delivery state, replay) and
 * messages with their attempts. They feed request validation and the OpenAPI document (webhooks/routes.ts).
 */
import { z } from 'zod';
import { timestampSchema } from '../../lib/core/schemas/snapshot';

export const MESSAGE_STATUSES = ['pending', 'delivered', 'failed', 'cancelled'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

export const createEndpointBody = z.strictObject({ url: z.string().trim().min(1).max(2048) });
export const replayBody = z.strictObject({
  /** Messages created at or after this time (default: all kept). */
  since: timestampSchema.optional(),
  /** `failed` (default): those given up on, disabled or cancelled; `all`: delivered ones too. */
  status: z.enum(['failed', 'all']).optional(),
});

export const ENDPOINT_STATUSES = ['enabled', 'disabled'] as const;
export const endpointSchema = z.object({
  id: z.string(),
  url: z.string(),
  status: z.enum(ENDPOINT_STATUSES),
  disabled_reason: z.string().nullable(),
  disabled_at: timestampSchema.nullable(),
  failure_streak: z.int().min(0),
  failing_since: timestampSchema.nullable(),
  last_success_at: timestampSchema.nullable(),
  last_failure_at: timestampSchema.nullable(),
  last_error: z.string().nullable(),
  created_at: timestampSchema,
  messages: z.object({ pending: z.int(), delivered: z.int(), failed: z.int() }),
});
export type EndpointView = z.infer<typeof endpointSchema>;
export const createdEndpointSchema = endpointSchema.extend({ secret: z.string() });

/** One attempt to deliver a message: when (server clock), what the receiver answered or what went wrong, how long it took. */
export const attemptSchema = z.object({
  attempted_at: timestampSchema,
  /** The receiver's HTTP status; null when there was no answer (refused, timed out, unreachable). */
  status: z.int().nullable(),
  /** Why it failed ("answered 503", "connect timeout after 5000 ms"); null when delivered. */
  error: z.string().nullable(),
  duration_ms: z.int().min(0),
  delivered: z.boolean(),
});
export type AttemptView = z.infer<typeof attemptSchema>;

/** Where a message stands: its state, how many attempts so far, the last one, and when the next is due. */
export const deliveryStateSchema = z.object({
  status: z.enum(MESSAGE_STATUSES),
  attempts: z.int().min(0),
  last_attempt: attemptSchema.nullable(),
  /** When it is tried next (server clock), while pending; null otherwise. */
  next_attempt_at: timestampSchema.nullable(),
});
export type DeliveryState = z.infer<typeof deliveryStateSchema>;

/** One message (an event's delivery, or a digest's) with every attempt, oldest first. */
export const messageSchema = z.object({
  /** Its `webhook-id`. */
  id: z.string(),
  type: z.string(),
  endpoint_id: z.string(),
  status: z.enum(MESSAGE_STATUSES),
  created_at: timestampSchema,
  next_attempt_at: timestampSchema.nullable(),
  delivered_at: timestampSchema.nullable(),
  attempts: z.array(attemptSchema),
});
export type MessageView = z.infer<typeof messageSchema>;
