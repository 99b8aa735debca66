import type { z } from 'zod';

/** "data.scores.readiness_score: Too big: expected number to be <=100" (first few issues). */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.map(String).join('.') || '(root)'}: ${issue.message}`)
    .join('; ');
}
