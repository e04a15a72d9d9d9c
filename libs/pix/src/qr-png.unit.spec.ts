import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { create, toBuffer } from 'qrcode';
import { QR_SYMBOL_OPTIONS, qrCodePng, qrSegments } from './qr-png';
import { recurrencePixCode } from './brcode';

// The compact renderer draws exactly the picture qrcode's own PNG renderer draws (same symbol, scale and quiet
// zone), pixel for pixel, as read back by a PNG decoder.

const isDark = (png: PNG, x: number, y: number): boolean => png.data[(y * png.width + x) * 4] < 128;

const CODES: [string, string][] = [
  ['a short code', '000201...'],
  [
    'a recurrence code',
    recurrencePixCode({ merchantName: 'Açaí da Praça', merchantCity: 'São Paulo', recurrenceUrl: 'pix.bank.example/rec/' + 'f'.repeat(32) }),
  ],
  [
    'a long journey 3 code',
    recurrencePixCode({
      merchantName: 'Loja',
      merchantCity: 'Recife',
      recurrenceUrl: 'pix.bank.example/rec/42',
      immediatePaymentUrl: 'pix.bank.example/qr/v2/' + 'e'.repeat(60),
    }),
  ],
];

describe('qrCodePng', () => {
  it.each(CODES)('draws %s as qrcode does, pixel for pixel, in a valid 1-bit grayscale PNG', async (_name, code) => {
    const ours = PNG.sync.read(qrCodePng(code));
    const theirs = PNG.sync.read(await toBuffer(qrSegments(code), { ...QR_SYMBOL_OPTIONS, type: 'png', margin: 2, scale: 4 }));
    expect([ours.width, ours.height]).toEqual([theirs.width, theirs.height]);
    const differing: string[] = [];
    for (let y = 0; y < theirs.height; y++) {
      for (let x = 0; x < theirs.width; x++) if (isDark(ours, x, y) !== isDark(theirs, x, y)) differing.push(`${x},${y}`);
    }
    expect(differing).toEqual([]);
  });

  it.each(CODES)('draws %s so that a QR reader reads back exactly the code', (_name, code) => {
    const png = PNG.sync.read(qrCodePng(code));
    expect(jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data).toBe(code);
  });

  it.each(CODES)('draws %s at most one version larger than the smallest mix of segments would', (_name, code) => {
    const smallest = create(code, QR_SYMBOL_OPTIONS).version;
    expect(create(qrSegments(code), QR_SYMBOL_OPTIONS).version - smallest).toBeLessThanOrEqual(1);
  });
});
