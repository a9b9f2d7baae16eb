// Errors a person can act on. The CLI prints `message` as one sentence; the stack only with --verbose.

/** A problem with what the user asked or configured, not a bug. */
export class UserError extends Error {
  override name = 'UserError';
  constructor(
    message: string,
    readonly exitCode = 1,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
