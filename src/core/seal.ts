// Credentials at rest (docs/reference/configuration.md, "server.secret_key"): AES-256-GCM with a key
// derived from server.secret_key by HKDF-SHA256, a random 96-bit nonce per value, and what the value
// belongs to as associated data, so a blob moved to another row does not open. A sealed value starts
// with a version byte and a short key id, so a value sealed under another secret_key is told apart
// from a damaged one and named as such, never taken for garbage.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 1;
const KEY_ID_BYTES = 4;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const HEADER = 1 + KEY_ID_BYTES + NONCE_BYTES;

/** The value was sealed under another secret_key, or the key is missing. */
export class WrongKeyError extends Error {
  override name = 'WrongKeyError';
}

/** The value is not one we sealed (truncated, altered, or moved to another row). */
export class DamagedSealError extends Error {
  override name = 'DamagedSealError';
}

export interface Sealer {
  seal(plaintext: string, context: string): Buffer;
  /** Throws WrongKeyError or DamagedSealError. */
  open(sealed: Buffer, context: string): string;
}

const derive = (secret: string, info: string, length: number) =>
  Buffer.from(hkdfSync('sha256', Buffer.from(secret, 'utf8'), Buffer.from('calbridge'), Buffer.from(info), length));

export function createSealer(secretKey: string): Sealer {
  const key = derive(secretKey, 'calbridge credentials v1', 32);
  const keyId = derive(secretKey, 'calbridge key id v1', KEY_ID_BYTES);
  return {
    seal(plaintext, context) {
      const nonce = randomBytes(NONCE_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, nonce);
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return Buffer.concat([Buffer.from([VERSION]), keyId, nonce, body, cipher.getAuthTag()]);
    },
    open(sealed, context) {
      if (sealed.length < HEADER + TAG_BYTES || sealed[0] !== VERSION) throw new DamagedSealError('not a sealed value of this calbridge');
      if (!sealed.subarray(1, 1 + KEY_ID_BYTES).equals(keyId)) throw new WrongKeyError('sealed with another server.secret_key');
      const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(1 + KEY_ID_BYTES, HEADER));
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
      try {
        return Buffer.concat([decipher.update(sealed.subarray(HEADER, sealed.length - TAG_BYTES)), decipher.final()]).toString('utf8');
      } catch {
        throw new DamagedSealError('the sealed value was altered or belongs elsewhere');
      }
    },
  };
}
