import { z } from 'zod';

/** A message without data (`sendMessage(type)`). */
export const noInput = z.undefined();

/** A plain acknowledgement. */
export const ok = z.object({ ok: z.literal(true) });
