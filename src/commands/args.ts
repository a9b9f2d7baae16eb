// Checks of option values shared by commands: a wrong one is one clear sentence and exit 2.
import { UserError } from '../core/errors.ts';

export function wholeNumberOption(value: string | boolean | undefined, name: string, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (typeof value !== 'string' || value.trim() === '' || !Number.isInteger(n) || n < min || n > max) {
    throw new UserError(`--${name} must be a whole number from ${min} to ${max}, not "${String(value)}"`, 2);
  }
  return n;
}
