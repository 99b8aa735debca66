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
