// Google event ids derived from the appointment key, so a repeated insert is a 409, never a duplicate.
// Google accepts base32hex (a-v, 0-9), 5 to 1024 characters, unique per calendar.
import { createHash } from 'node:crypto';

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const BASE32HEX = '0123456789abcdefghijklmnopqrstuv';

/** RFC 4648 base32hex, lower case, no padding. */
export function base32hex(bytes: Uint8Array): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32HEX[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  if (bits > 0) out += BASE32HEX[(value << (5 - bits)) & 31];
  return out;
}

/**
 * The event id of an appointment. Generation 0 is the id for life; a later generation exists only
 * because Google refused to revive a deleted event under the earlier id.
 * A UUID key gives its lowercase hex (32 chars), a next generation appends `v<n>`; any other key
 * gives the base32hex SHA-256 of the key (52 chars, of `key#n` for generation n).
 */
export function eventIdFor(key: string, generation = 0): string {
  if (!Number.isInteger(generation) || generation < 0) throw new Error(`invalid event id generation ${generation}`);
  if (UUID.test(key)) {
    const hex = key.replace(/-/g, '').toLowerCase();
    return generation === 0 ? hex : `${hex}v${generation}`;
  }
  const input = generation === 0 ? key : `${key}#${generation}`;
  return base32hex(createHash('sha256').update(input, 'utf8').digest());
}
