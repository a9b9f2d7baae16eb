// A QR code of a feed's webcal URL as inline SVG, so a phone subscribes by scanning the page.
import QRCode from 'qrcode';

const cache = new Map<string, Promise<string>>();

/** The config does not change while running, so each code is made once (a failed one is retried). */
export function qrSvg(url: string): Promise<string> {
  let svg = cache.get(url);
  if (!svg) {
    svg = QRCode.toString(url, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
    svg.catch(() => cache.delete(url));
    cache.set(url, svg);
  }
  return svg;
}
