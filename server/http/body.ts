import type { Context } from 'hono';
import { type z } from 'zod';
import { ApiError } from './errors';

/** "`readiness_score`: Too big: expected number to be <=100; `name`: …" — every issue names its field. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 10)
    .map((issue) => {
      const keys = issue.code === 'unrecognized_keys' ? issue.keys : [];
      const path = [...issue.path.map(String), ...(keys.length === 1 ? keys : [])].join('.');
      const field = path || (keys.length > 0 ? keys.join(', ') : 'body');
      return `\`${field}\`: ${issue.message}`;
    })
    .join('; ');
}

/**
 * Reads and validates a JSON body. An empty body counts as `{}` (bodiless POSTs are fine); a non-JSON
 * content type is 415, unparsable JSON and schema failures are 400 VALIDATION_ERROR.
 */
export async function readJson<S extends z.ZodType>(c: Context, schema: S): Promise<z.infer<S>> {
  const text = await c.req.text();
  let value: unknown = {};
  if (text.trim() !== '') {
    const contentType = c.req.header('content-type') ?? '';
    if (!/^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(contentType)) {
      throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Request body must be JSON (Content-Type: application/json).');
    }
    try {
      value = JSON.parse(text);
    } catch {
      throw new ApiError(400, 'VALIDATION_ERROR', 'Request body is not valid JSON.');
    }
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    throw new ApiError(400, 'VALIDATION_ERROR', `Invalid request body: ${describeIssues(parsed.error)}`);
  }
  return parsed.data;
}
