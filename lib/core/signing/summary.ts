import type { InvalidReason } from './wire';

/**
 * The verdict on an answer's signature as the extension shows and keeps it (zod-free; its schema is
 * `signatureSummarySchema` in lib/core/schemas/results.ts): verified (by which key, when, epoch ms),
 * not signed, invalid (why), or not checked (the service's keys could not be fetched).
 */
export type SignatureSummary =
  | { state: 'verified'; kid: string; signedAt: number }
  | { state: 'unsigned' }
  | { state: 'invalid'; reason: InvalidReason; message: string }
  | { state: 'unchecked'; message: string };

export type SignatureState = SignatureSummary['state'];
export const SIGNATURE_STATES = ['verified', 'unsigned', 'invalid', 'unchecked'] as const satisfies readonly SignatureState[];
