// One assembled feed body file, opened to be sent as a stream.
import { createReadStream, openSync } from 'node:fs';
import type { Readable } from 'node:stream';

/** A body ready to send: its bytes in memory, or its open file. */
export type BodyToSend = { bytes: number; data: Uint8Array } | { bytes: number; file: OpenFile };

/** An opened body file; its stream closes it when done or destroyed. */
export interface OpenFile {
  stream(): Readable;
}

// Read per step: smaller steps cost more trips through libuv's thread pool, larger ones more memory
// per download under way and no less CPU.
const SEND_CHUNK = 256 * 1024;

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
    // The stream closes the descriptor at its end, and when it is destroyed (the client went away).
    stream: () => createReadStream(path, { fd, highWaterMark: SEND_CHUNK }),
  };
}
