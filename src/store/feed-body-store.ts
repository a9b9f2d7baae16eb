// Assembled feed bodies, kept in files beside the database rather than in memory: a feed of 100,000
// events is 41 MiB, and its gzip copy more again. Each body is written to a temporary file and
// renamed to a name of its feed and hash, so a body under a name never changes: a request that
// opened it reads it whole even if the feed is replaced meanwhile (the open descriptor keeps the
// file after it is unlinked). A small body is also kept in memory, under a bound for all feeds.
// The files hold personal data: the folder is made 0700 and the files 0600, as the database's.
import { createHash } from 'node:crypto';
import {
  closeSync,
  createReadStream,
  createWriteStream,
  openSync,
  readdirSync,
  readSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { createGzip, gzip } from 'node:zlib';
import { createPrivately } from './private-files.ts';
import { isMissing, openFile, openIfThere, type BodyToSend } from './feed-body-file.ts';

export type { BodyToSend } from './feed-body-file.ts';

/** One representation of a body: its size, known before it is opened (HEAD opens nothing). */
export interface Representation {
  bytes: number;
  /** Opens it now; undefined when its file is gone (the body was replaced). */
  open(): BodyToSend | undefined;
}

export interface StoredBody extends Representation {
  /** sha256 of the body, hex. */
  hash: string;
  /** Its gzip copy, made on the first ask by streaming (off the event loop); undefined when replaced meanwhile. */
  gzipped(): Promise<Representation | undefined>;
  /** The body was replaced: its files go. Requests sending them keep their open descriptors. */
  retire(): void;
}

/** Takes a body chunk by chunk and stores it; a chunk's buffer may be reused once `write` returns. */
export interface BodyWriter {
  write(chunk: Buffer): void;
  finish(): StoredBody;
  /** Drops what was written (the assembly failed). */
  abort(): void;
}

/**
 * A body up to this size is also kept in memory, while all such bodies stay under MEMORY_BUDGET: a
 * clinic's feed of some hundreds of appointments (800 make about 350 KiB) is answered from memory
 * at about a fifth of the CPU of reading its file for each request; larger feeds cost no memory.
 */
export const SMALL_BODY = 512 * 1024;
const MEMORY_BUDGET = 2 * 1024 * 1024;
const READ_CHUNK = 64 * 1024;
// Only names this store makes: {feed id (32 hex)}-{sha256}.ics, its .gz copies, and temporary files.
const OURS = /^[0-9a-f]{32}[-.][0-9a-z.-]*\.(ics|gz|tmp)$/;

const gzipBuffer = promisify(gzip);

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch (e) {
    if (!isMissing(e)) throw e;
  }
}

export class FeedBodyStore {
  private serial = 0;
  private inMemory = 0;

  /** `dir` null (a database in memory): bodies live in memory only. */
  constructor(private readonly dir: string | null) {}

  writer(feedId: string): BodyWriter {
    const hash = createHash('sha256');
    const chunks: Buffer[] = [];
    let bytes = 0;
    let keep = true;
    const dir = this.dir;
    if (dir === null) {
      return {
        write: (chunk) => {
          hash.update(chunk);
          chunks.push(Buffer.from(chunk));
          bytes += chunk.length;
        },
        finish: () => this.memoryBody(Buffer.concat(chunks, bytes), hash.digest('hex'), null),
        abort: () => undefined,
      };
    }
    const tmp = join(dir, `${feedId}.${process.pid}.${++this.serial}.tmp`);
    const fd = createPrivately(dir, tmp, () => openSync(tmp, 'wx', 0o600));
    let open = true;
    const close = () => {
      if (open) closeSync(fd);
      open = false;
    };
    return {
      write: (chunk) => {
        hash.update(chunk);
        for (let at = 0; at < chunk.length; ) at += writeSync(fd, chunk, at);
        bytes += chunk.length;
        keep &&= bytes <= SMALL_BODY;
        if (keep) chunks.push(Buffer.from(chunk));
      },
      finish: () => {
        close();
        const digest = hash.digest('hex');
        const path = join(dir, `${feedId}-${digest}.ics`);
        renameSync(tmp, path);
        return keep ? this.memoryBody(Buffer.concat(chunks, bytes), digest, path) : this.fileBody(path, digest, bytes);
      },
      abort: () => {
        close();
        unlinkQuietly(tmp);
      },
    };
  }

  /** The body stored for this feed and hash by an earlier run, if its file is there and whole. */
  stored(feedId: string, hash: string): StoredBody | undefined {
    if (this.dir === null) return undefined;
    const path = join(this.dir, `${feedId}-${hash}.ics`);
    const fd = openIfThere(path);
    if (fd === undefined) return undefined;
    // Read back and hashed, not trusted: the file was not synced to disk, and a power cut may have
    // left it short. 41 MiB hash in about a tenth of a second, once per start.
    const check = createHash('sha256');
    const chunks: Buffer[] = [];
    let bytes = 0;
    const chunk = Buffer.allocUnsafeSlow(READ_CHUNK);
    try {
      for (;;) {
        const n = readSync(fd, chunk, 0, READ_CHUNK, null);
        if (n === 0) break;
        check.update(chunk.subarray(0, n));
        bytes += n;
        if (bytes <= SMALL_BODY) chunks.push(Buffer.from(chunk.subarray(0, n)));
      }
    } finally {
      closeSync(fd);
    }
    if (check.digest('hex') !== hash) {
      unlinkQuietly(path);
      return undefined;
    }
    return bytes <= SMALL_BODY ? this.memoryBody(Buffer.concat(chunks, bytes), hash, path) : this.fileBody(path, hash, bytes);
  }

  /**
   * Removes the files of this store not named in `keep` (bodies of replaced feeds or of feeds no
   * longer configured, gzip copies, temporary files of a run that stopped mid-write). Run once, by
   * the serving process, before it writes any body.
   */
  sweep(keep: ReadonlySet<string>): number {
    if (this.dir === null) return 0;
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch (e) {
      if (isMissing(e)) return 0;
      throw e;
    }
    const stale = names.filter((n) => OURS.test(n) && !keep.has(n));
    for (const name of stale) unlinkQuietly(join(this.dir, name));
    return stale.length;
  }

  /** The file name a body of this feed and hash has (for `sweep`'s keep list). */
  static fileName(feedId: string, hash: string): string {
    return `${feedId}-${hash}.ics`;
  }

  private memoryBody(data: Buffer, hash: string, path: string | null): StoredBody {
    // Past the bound, a body with a file is read from it like a large one.
    if (path !== null && this.inMemory + data.length > MEMORY_BUDGET) return this.fileBody(path, hash, data.length);
    const charged = path === null ? 0 : data.length;
    this.inMemory += charged;
    let zipped: Promise<Buffer> | undefined;
    let retired = false;
    const send = (b: Buffer): BodyToSend => ({ bytes: b.length, data: new Uint8Array(b.buffer, b.byteOffset, b.length) });
    return {
      hash,
      bytes: data.length,
      open: () => send(data),
      gzipped: async () => {
        const gz = await (zipped ??= gzipBuffer(data));
        return { bytes: gz.length, open: () => send(gz) };
      },
      retire: () => {
        if (retired) return;
        retired = true;
        this.inMemory -= charged;
        if (path !== null) unlinkQuietly(path);
      },
    };
  }

  private fileBody(path: string, hash: string, bytes: number): StoredBody {
    let zipped: Promise<{ path: string; bytes: number } | undefined> | undefined;
    let retired = false;
    const gzPath = `${path}.${process.pid}-${++this.serial}.gz`;
    const makeGzip = async () => {
      const tmp = `${gzPath}.tmp`;
      let written = 0;
      const count = async function* (source: AsyncIterable<Buffer>) {
        for await (const chunk of source) {
          written += chunk.length;
          yield chunk;
        }
      };
      try {
        await pipeline(createReadStream(path, { highWaterMark: READ_CHUNK }), createGzip(), count, createWriteStream(tmp, { mode: 0o600 }));
      } catch (e) {
        unlinkQuietly(tmp);
        if (isMissing(e)) return undefined; // replaced (and unlinked) before the copy began
        throw e;
      }
      renameSync(tmp, gzPath);
      if (retired) {
        unlinkQuietly(gzPath);
        return undefined;
      }
      return { path: gzPath, bytes: written };
    };
    return {
      hash,
      bytes,
      open: () => openFile(path, bytes),
      gzipped: async () => {
        // A copy that failed (a full disk) is tried again by the next request, not remembered.
        zipped ??= makeGzip().catch((e: unknown) => {
          zipped = undefined;
          throw e;
        });
        const gz = await zipped;
        return gz && { bytes: gz.bytes, open: () => openFile(gz.path, gz.bytes) };
      },
      retire: () => {
        if (retired) return;
        retired = true;
        unlinkQuietly(path);
        // A copy still being made is removed when it is done.
        void zipped?.then(
          (gz) => gz && unlinkQuietly(gz.path),
          () => undefined,
        );
      },
    };
  }
}
