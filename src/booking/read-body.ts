// An answer's body read with a size cap, so a runaway listing or a proxy streaming garbage cannot
// fill the daemon's memory. A list page or a record is far smaller than the cap.

/** 8 MiB: a page of 100 records is a few hundred KiB. */
export const MAX_BODY_BYTES = 8 * 1024 * 1024;

/** The body as text, or null when it is larger than `limit` bytes (the rest is not read). */
export async function readCapped(res: Response, limit: number): Promise<string | null> {
  const declared = Number(res.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > limit) {
    await res.body?.cancel();
    return null;
  }
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}
