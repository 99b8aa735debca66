import { z } from 'zod';
import type { ServiceConfig } from '../services';

const originSchema = z.string().refine((value) => {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value;
  } catch {
    return false;
  }
}, 'origin must be an http(s) origin like https://service.example (no path, no trailing slash)');

/** What a stored, managed or typed-in service must be (lib/core/services.ts `ServiceConfig`). */
export const serviceConfigSchema = z.object({
  id: z.string().min(1).max(64),
  name: z.string().min(1).max(80),
  origin: originSchema,
  apiPathTemplate: z.string().startsWith('/').includes('{token}'),
  sharePathTemplates: z.array(z.string().startsWith('/').includes('{token}')),
  aliases: z.array(originSchema).max(4).optional(),
}) satisfies z.ZodType<ServiceConfig>;
