import { createDynamicPix, createRecurrencePix, hasError, parsePix } from 'pix-utils';
import { qrCodePng } from './qr-png';

// Pix copy-and-paste codes (BR Code: EMV MPM with CRC16) for Pix Automático, built by pix-utils.

export interface RecurrenceCodeInput {
  merchantName: string;
  merchantCity: string;
  /** The recurrence location at the bank (tag 80, GUI br.gov.bcb.pix). */
  recurrenceUrl: string;
  /** Journey 3: the location of the immediate payment, carried in the same code (tag 26). */
  immediatePaymentUrl?: string;
}

/** EMV fields take plain upper-case ASCII: "Padaria São João" becomes "PADARIA SAO JOAO", cut to the field's size. */
const emvText = (text: string, max: number): string =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9 .-]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .toUpperCase()
    .slice(0, max) || 'PIX';

/** Pix URLs go in without a scheme (BR Code rule). */
const withoutScheme = (url: string): string => url.replace(/^https?:\/\//, '');

export function recurrencePixCode(input: RecurrenceCodeInput): string {
  const common = { merchantName: emvText(input.merchantName, 25), merchantCity: emvText(input.merchantCity, 15), urlRec: withoutScheme(input.recurrenceUrl) };
  const pix = input.immediatePaymentUrl ? createDynamicPix({ ...common, url: withoutScheme(input.immediatePaymentUrl) }) : createRecurrencePix(common);
  if (hasError(pix)) throw new Error(`cannot build the Pix code: ${pix.message}`);
  return pix.toBRCode();
}

export interface ImmediatePaymentCodeInput {
  merchantName: string;
  merchantCity: string;
  /** The immediate charge's location at the bank (BCB API `/cob`: `loc.location`), tag 26. */
  paymentUrl: string;
}

/** A dynamic BR Code for an immediate charge (cash-in): the payer's app fetches the charge from its location. */
export function immediatePaymentPixCode(input: ImmediatePaymentCodeInput): string {
  const pix = createDynamicPix({
    merchantName: emvText(input.merchantName, 25),
    merchantCity: emvText(input.merchantCity, 15),
    url: withoutScheme(input.paymentUrl),
  });
  if (hasError(pix)) throw new Error(`cannot build the Pix code: ${pix.message}`);
  return pix.toBRCode();
}

/** Reads a code back (its CRC checked): for tests and troubleshooting. */
export function readPixCode(code: string) {
  return parsePix(code);
}

/** The same code as a base64 PNG data URI (the `qrcode` field). */
export function qrCodeDataUri(code: string): string {
  return `data:image/png;base64,${qrCodePng(code).toString('base64')}`;
}

/**
 * QR images rendered on read from their codes (never stored), each kept once rendered: a code is read many times
 * while it is payable. Bounded: when full it starts over (rendering again is cheap enough).
 */
export class QrCodeImages {
  private readonly images = new Map<string, string>();

  constructor(private readonly capacity = 10_000) {}

  of(code: string): string {
    let image = this.images.get(code);
    if (!image) {
      if (this.images.size >= this.capacity) this.images.clear();
      image = qrCodeDataUri(code);
      this.images.set(code, image);
    }
    return image;
  }
}
