// A QR code of a feed's webcal URL as inline SVG, so a phone subscribes by scanning the page. The
// encoder (uqr: small, no dependencies) is loaded when the page is first asked for, not at start.
const cache = new Map<string, Promise<string>>();

/** The config does not change while running, so each code is made once (a failed one is retried). */
export function qrSvg(url: string): Promise<string> {
  let svg = cache.get(url);
  if (!svg) {
    svg = import('uqr').then(({ renderSVG }) => renderSVG(url, { ecc: 'M', border: 2 }));
    svg.catch(() => cache.delete(url));
    cache.set(url, svg);
  }
  return svg;
}
