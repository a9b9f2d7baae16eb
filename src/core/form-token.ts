// Tokens that bind a form to what it acts on (an invite, the connections page): an HMAC under a key
// derived from server.secret_key, so a page from elsewhere cannot post one, and nothing is stored.
import { createHmac, hkdfSync } from 'node:crypto';
import { secretEquals } from './secret-compare.ts';

export interface FormTokens {
  token(purpose: string, subject: string): string;
  check(given: unknown, purpose: string, subject: string): boolean;
}

export function createFormTokens(secretKey: string): FormTokens {
  const key = Buffer.from(hkdfSync('sha256', Buffer.from(secretKey, 'utf8'), Buffer.from('calbridge'), Buffer.from('forms v1'), 32));
  const token = (purpose: string, subject: string) => createHmac('sha256', key).update(`${purpose}\n${subject}`).digest('base64url');
  return {
    token,
    check: (given, purpose, subject) => typeof given === 'string' && secretEquals(given, token(purpose, subject)),
  };
}
