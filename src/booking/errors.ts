// The booking service's failures, translated at the boundary into the few kinds callers decide on.

export type BookingErrorKind = 'not_found' | 'unauthorized' | 'rate_limited' | 'invalid' | 'transient';

export class BookingError extends Error {
  override name = 'BookingError';
  constructor(
    readonly kind: BookingErrorKind,
    message: string,
    /** The service's own `detail`, when it gave one. */
    readonly detail?: string,
    readonly status?: number,
    /** For rate_limited: how long the service asked us to wait. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

export const isNotFound = (e: unknown): boolean => e instanceof BookingError && e.kind === 'not_found';
