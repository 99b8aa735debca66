import type { Context } from 'hono';
import { z } from 'zod';
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

/** A POST that takes no fields (an empty body, or `{}`). */
export const emptyBody = z.strictObject({});

/** A NUL (U+0000) or an unpaired UTF-16 surrogate: PostgreSQL text cannot hold the first (500 before this check) and would silently mangle the second. */
// eslint-disable-next-line no-control-regex -- NUL is exactly what this refuses
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Free text that is stored: refused with 400 VALIDATION_ERROR when the database could not keep it as sent. */
export function storableText(schema: z.ZodString): z.ZodString {
  return schema.refine((value) => !UNSTORABLE.test(value), 'must not contain NUL characters or unpaired surrogates');
}
