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

/**
 * An answer larger than the cap (MAX_BODY_BYTES in http.ts): not read, and transient, never "gone" or "empty":
 * a proxy's error page or a runaway listing says nothing about the appointments.
 */
export class ResponseTooLargeError extends BookingError {
  override name = 'ResponseTooLargeError';
  constructor(
    /** Method and URL path (never the query, never the token). */
    readonly request: string,
    readonly limitBytes: number,
  ) {
    super(
      'transient',
      `the booking service's answer to ${request} is larger than ${limitBytes / 1024 / 1024} MiB and was not read; check booking.base_url and any proxy in front of it`,
    );
  }
}
