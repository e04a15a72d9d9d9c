import { create, QRCodeSegment } from 'qrcode';
import { crc32, deflateSync } from 'node:zlib';

// The QR image of a Pix code as a 1-bit grayscale PNG. qrcode's own PNG renderer writes 32-bit RGBA pixels through
// pngjs and took ~5 ms of CPU per image, most of recurrence-service's CPU per create (docs/performance.md); the
// same pixels packed 8 to a byte take ~0.2 ms and are a fifth of the size. qrcode still builds the symbol, as one
// byte-mode segment: left to itself, qrcode searches the cheapest mix of numeric, alphanumeric and byte segments (a
// shortest-path search over the code's characters) and that search was ~40% of a symbol's CPU, a sixth of
// recurrence-service's per create, for a symbol at most one version smaller. The mask is still chosen by the
// standard's penalty rules.

/** The options qrcode builds the symbol with: what a payer's app reads (checked by decoding it in the unit test). */
export const QR_SYMBOL_OPTIONS = { errorCorrectionLevel: 'M' } as const;
/** The code as qrcode's segments: one segment of its bytes (UTF-8, as qrcode encodes a string; a code is ASCII). */
export const qrSegments = (code: string): QRCodeSegment[] => [{ data: Buffer.from(code, 'utf8'), mode: 'byte' }];

/** As qrcode's defaults: 4 pixels a module, a quiet zone of 2 modules (the code's scanners need 2 at least). */
const SCALE = 4;
const MARGIN = 2;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export function qrCodePng(code: string): Buffer {
  const { modules } = create(qrSegments(code), QR_SYMBOL_OPTIONS);
  const side = (modules.size + 2 * MARGIN) * SCALE;
  const rowBytes = Math.ceil(side / 8);
  // Each row: filter type 0, then the pixels, 1 bit each, most significant first; 1 is white, 0 black. A module row
  // is packed once and copied SCALE times.
  const raw = Buffer.alloc((rowBytes + 1) * side);
  const row = Buffer.alloc(rowBytes + 1);
  for (let moduleY = -MARGIN; moduleY < modules.size + MARGIN; moduleY++) {
    row.fill(0);
    for (let x = 0; x < side; x++) {
      const moduleX = Math.floor(x / SCALE) - MARGIN;
      const dark = moduleY >= 0 && moduleY < modules.size && moduleX >= 0 && moduleX < modules.size && Boolean(modules.get(moduleY, moduleX));
      if (!dark) row[1 + (x >> 3)] |= 0x80 >> (x & 7);
    }
    for (let copy = 0; copy < SCALE; copy++) row.copy(raw, ((moduleY + MARGIN) * SCALE + copy) * (rowBytes + 1));
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header.set([1, 0, 0, 0, 0], 8); // bit depth 1, grayscale, deflate, adaptive filtering, no interlace
  return Buffer.concat([PNG_SIGNATURE, chunk('IHDR', header), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}
