import { createHash } from 'node:crypto';
import { fingerprintBasis, type ErrorSource } from '../../domain/error-monitoring-rules';

/**
 * The group an error belongs to: 128 bits of SHA-256 over its source, name, code, normalised
 * message and top frames (domain/error-monitoring.ts fingerprintBasis), as 32 hex digits.
 */
export function fingerprintOf(input: { source: ErrorSource; name?: string | null; code?: string | null; message: string; stack?: string | null }): string {
  return createHash('sha256').update(fingerprintBasis(input)).digest('hex').slice(0, 32);
}
