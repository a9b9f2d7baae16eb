// One assembled feed body file, opened to be sent: written straight into a Node response through one
// reused buffer, or read as a stream where there is none (app.request() in tests).
import { close, createReadStream, openSync, read } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import { promisify } from 'node:util';

/** A body ready to send: its bytes in memory, or its open file. */
export type BodyToSend = { bytes: number; data: Uint8Array } | { bytes: number; file: OpenFile };

/** An opened body file, sent one way or the other; either closes it when done or failed. */
export interface OpenFile {
  /**
   * Writes the file to `out` and ends it, through one reused buffer: no allocation per chunk, so
   * sending a 4 MiB feed costs about what sending it from memory does (a stream of the file took
   * nearly twice the CPU, most of it collecting its chunks).
   */
  writeTo(out: Writable): Promise<void>;
  /** The file as a stream, where there is no Node response to write to. */
  stream(): Readable;
}

// Read per step: smaller steps cost more trips through libuv's thread pool, larger ones more memory
// per download under way and no less CPU.
const SEND_CHUNK = 256 * 1024;

const readInto = promisify(read);
const closeFd = promisify(close);

export const isMissing = (e: unknown) => (e as NodeJS.ErrnoException).code === 'ENOENT';

/** A descriptor for reading the file, or undefined when it is not there. */
export function openIfThere(path: string): number | undefined {
  try {
    return openSync(path, 'r');
  } catch (e) {
    if (isMissing(e)) return undefined;
    throw e;
  }
}

/** Opens a file now, to be sent; undefined when it is gone. */
export function openFile(path: string, bytes: number): BodyToSend | undefined {
  const fd = openIfThere(path);
  if (fd === undefined) return undefined;
  return { bytes, file: fileToSend(path, fd) };
}

function fileToSend(path: string, fd: number): OpenFile {
  return {
    async writeTo(out) {
      const buffer = Buffer.allocUnsafeSlow(SEND_CHUNK);
      try {
        for (;;) {
          const { bytesRead } = await readInto(fd, buffer, 0, SEND_CHUNK, null);
          if (bytesRead === 0) break;
          // The buffer is filled again only once the socket has taken this chunk.
          await new Promise<void>((resolve, reject) => {
            if (out.destroyed) return reject(new Error('the client went away'));
            out.write(buffer.subarray(0, bytesRead), (e) => (e ? reject(e) : resolve()));
          });
        }
        out.end();
      } finally {
        await closeFd(fd);
      }
    },
    // The stream closes the descriptor at its end, and when it is destroyed (the client went away).
    stream: () => createReadStream(path, { fd, highWaterMark: SEND_CHUNK }),
  };
}
